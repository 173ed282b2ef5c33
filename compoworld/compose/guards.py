"""Guards: the instances of a workflow that would be wrong, by name.

A workflow definition lists the guards that hold for it (`Workflow.guards`); the composer
rejects a walk that any of them flags (`rejection`). Each guard is a test of the walk's
gold calls, written once here and named by every workflow it fits: a receipt workflow
names `no_amount` and `unpaid`, a calendar copy `past_copy` and `half_span`. The engine
applies none by a workflow's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compoworld.compose.records import GoldCall
from compoworld.compose.references import (
    acted_in,
    followed,
    over,
    paid_amount,
    start_of,
    status_field,
    status_of,
)
from compoworld.compose.situations import app_kind
from compoworld.graph.roles import role_of
from compoworld.graph.semtypes import split_words
from compoworld.world.banking import VAT_COUNTRIES, country_code
from compoworld.world.clock import NOW
from compoworld.world.words import phone_country

if TYPE_CHECKING:  # (the library finds the workflows, whose definitions name these guards)
    from compoworld.compose.library import ServiceLibrary

GuardTest = Callable[["ServiceLibrary", list[GoldCall]], bool]


@dataclass(frozen=True, slots=True)
class Guard:
    """A guard: its test (true when the instance is wrong) and why, as a rejection says.
    A guard on the state of the record a workflow acts on also says, as a request would,
    what the records it may act on are (`holds`, said of one: "that is still open", "who
    is still active"): a request for several says it, and the records it flags are left
    alone (`compose/each.py`)."""

    test: GuardTest
    reason: str
    holds: str = ""


def no_news(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether an update on an order has no status to give ("A quick note about your
    order." tells the customer nothing), or only its payment's ("your order is now
    incomplete" of a payment status INCOMPLETE)."""
    item = followed(calls)
    return not status_of(item) or "payment" in status_field(item).split()


def books_to_books(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a customer or partner of one accounting app is added to another (a customer
    of one set of books added to a second "so we can invoice them": the books that have
    them invoice them already; a partner of one made a supplier of the other), or set up
    in a shop, whose customers sign up when they order ("their customer account for orders
    is ready" reads as a made-up premise)."""
    into = acted_in(calls)
    if into is None:
        return False
    kinds = {app_kind(library.infos[s].app, library.infos[s].domain)
             for s in (calls[0].service, into) if s in library.infos}
    target = app_kind(library.infos[into].app, library.infos[into].domain) \
        if into in library.infos else ""
    return kinds == {"books"} or target == "shop"


def past_copy(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether an event copied into another calendar has begun already: a February meeting
    "scheduled" in March, or one under way (08:45-09:15 at 09:00) is no slot to block."""
    start = start_of(followed(calls))
    return bool(start) and start[:19] < NOW.isoformat()[:19]


def event_over(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether people would be reminded of an event that is over ("on my list today" of
    a meeting two weeks gone)."""
    return over(calls)


def ahead(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether people would be thanked for, or followed up on, an event that has not
    happened yet, or one with no start to tell ("thanks for your time today" of a meeting
    next week)."""
    return not over(calls)


# Statuses of an invoice or payment no receipt is sent for: not paid yet, or paid back.
_UNSETTLED = frozenset("unpaid draft open overdue pending failed declined cancelled canceled "
                       "void voided refunded sent created authorized incomplete "
                       "partially_paid".split())


def unpaid(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a receipt or a payment confirmation would go out for an invoice or payment
    whose record says it is not paid (or was paid back), or is dated after today ("Payment
    came in" for an invoice dated, or paid, next month)."""
    item = followed(calls)
    if not isinstance(item, dict):
        return False
    now = NOW.isoformat()[:10]
    return any(status.lower() in _UNSETTLED for status in statuses(item)) or any(
        split_words(str(key))[-1:] in (["date"], ["at"], ["on"]) and isinstance(value, str)
        and len(value) >= 10 and value[:4].isdigit() and value[:10] > now
        for key, value in item.items())


def no_amount(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a receipt would go out with no amount to name: its invoice or payment gives
    none the receipt can vouch for (`paid_amount`; "Here is your receipt." with no amount
    is a hollow receipt)."""
    return not paid_amount(followed(calls))[1]


def statuses(item: object) -> list[str]:
    """The values of a record's status or state fields (`on_hold`, `Paid`)."""
    if not isinstance(item, dict):
        return []
    return [value for key, value in item.items() if isinstance(value, str)
            and split_words(str(key))[-1:] in (["status"], ["state"])]


_DONE = frozenset("closed resolved solved inactive archived done completed cancelled "
                  "canceled".split())
# a ticket parked or waiting on its customer: nobody is waiting on us ("waiting for an
# answer" said of a "suspended" ticket)
_PARKED = frozenset("suspended spam pending hold".split())


def ticket_closed(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a ticket a request says is waiting for an answer is closed, parked or
    waiting on its customer ("A customer is waiting" on an inactive ticket, or on one
    whose `closedAt` is set)."""
    item = followed(calls)
    return any(status.lower() in _DONE or set(split_words(status)) & _PARKED
               for status in statuses(item)) or any(
        value and set(split_words(str(key))) & _DONE
        and set(split_words(str(key))) & {"at", "on", "date", "time"}
        for key, value in (item.items() if isinstance(item, dict) else ()))


# Statuses of a request nobody granted (yet): no time off "was approved", no expense paid back.
_UNGRANTED = frozenset("rejected declined denied cancelled canceled draft pending submitted "
                       "requested withdrawn".split())


def _status_says(item: object, words: frozenset[str]) -> bool:
    """Whether a status of a record (the one a workflow follows) says one of `words`."""
    return any(set(split_words(status)) & words for status in statuses(item))


def not_granted(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether the request a workflow acts on as granted (a colleague's time off put on
    the calendar, an expense paid back) says it was not, or not yet."""
    return _status_says(followed(calls), _UNGRANTED)


# Statuses of a thing that waits on nobody any more: signed, merged, closed.
_FINISHED = frozenset("completed complete signed declined voided void merged closed "
                      "cancelled canceled done archived".split())


def already_done(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a record a request says is waiting (a document for its signature, a pull
    request for its author) is done already: nobody is reminded to sign what is signed."""
    return _status_says(followed(calls), _FINISHED)


# Statuses of an order that did not go through: called off, refused or paid back.
_CALLED_OFF = frozenset("cancelled canceled refunded voided void failed declined rejected "
                        "returned abandoned".split())


def called_off(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether an order a request treats as going ahead (thanked for, invoiced, asked to be
    reviewed) was cancelled, refused or refunded: "thanking you for your order: it has
    been cancelled" thanks nobody."""
    return _status_says(followed(calls), _CALLED_OFF)


# Statuses of an order on its way or with its customer.
_SENT_OUT = frozenset("shipped delivered fulfilled fulfiled completed complete dispatched "
                      "received".split())


def undelivered(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether an order a customer is asked about as arrived has no status that says it
    went out ("did your order arrive safely?" of an order awaiting processing)."""
    return not _status_says(followed(calls), _SENT_OUT)


# Statuses of a person no longer with us (or not yet): no colleague to welcome or remind.
_GONE = frozenset("inactive deactivated disabled deleted suspended archived terminated "
                  "removed former".split())
_OF_USER = frozenset({"is", "account", "user", "login"})  # `is_active`, `accountEnabled`


def gone(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a colleague a request treats as with us is not: their record is inactive,
    deleted or disabled ("a new colleague" whose user was deleted in December, or has been
    inactive for a year)."""
    item = followed(calls)
    if not isinstance(item, dict):
        return False
    if _status_says(item, _GONE):
        return True
    for key, value in item.items():
        words = set(split_words(str(key)))
        if value is False and words - _OF_USER in ({"active"}, {"enabled"}):
            return True  # `is_active: false` (not `is_sync_enabled: false`: a setting)
        if value not in (None, False, "", 0) and words & {"deleted", "deactivated",
                                                           "disabled"}:
            return True  # `deleted: "2024-12-03T20:30:00Z"`, `disabled: true`
    return False


# Statuses of an invoice nobody is reminded to pay: paid, not sent yet, or called off.
_SETTLED = frozenset("paid settled closed draft void voided cancelled canceled refunded "
                     "credited uncollectible deleted".split())
# Fields of what is still owed on an invoice (`amount_due`, `balance`, `AmountRemaining`).
_OWED = frozenset("due balance remaining outstanding owing".split())


def settled(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether an invoice a customer would be reminded to pay owes nothing: its status says
    it is paid, a draft or void, a `paid` flag or date is set, or what remains due is zero ("a
    reminder that your invoice is still open" of an invoice marked PAID)."""
    item = followed(calls)
    if not isinstance(item, dict):
        return False
    if _status_says(item, _SETTLED):
        return True
    for key, value in item.items():
        words = set(split_words(str(key)))
        if value is True and words & {"paid", "settled", "closed"}:
            return True  # `paid: true`
        if value and not isinstance(value, bool) and words & {"paid", "settled"} \
                and words & {"at", "on", "date", "time"}:
            return True  # `paid_at: "2024-11-02T..."`: paid, whatever its status says
        if words & _OWED and isinstance(value, (int, float)) and not isinstance(value, bool) \
                and value <= 0:
            return True  # `amount_due: 0`
    return False


# Stages of a release that has not shipped, and marks of one thrown away.
_UNRELEASED = frozenset("planned planning draft upcoming scheduled unreleased backlog "
                        "unstarted started progress".split())
_DISCARDED = frozenset("trashed deleted archived discarded canceled cancelled".split())
_STAGE = frozenset({"stage", "status", "state"})


def unreleased(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a release a request says is out is not: a draft, a planned one (a stage of
    `{"type": "planned"}`), or one in the bin (Linear's `trashed: true` release announced
    as "We just shipped Release 2.7.3")."""
    item = followed(calls)
    if not isinstance(item, dict):
        return False
    for key, value in item.items():
        words = set(split_words(str(key)))
        if isinstance(value, dict) and words & _STAGE:  # Linear's `stage: {"type": ...}`
            value = next((v for k in ("type", "name", "status") if isinstance(
                v := value.get(k), str)), None)
        if isinstance(value, str) and words & _STAGE \
                and set(split_words(value)) & _UNRELEASED:
            return True
        if value is True and words & (_DISCARDED | {"draft"}):
            return True  # `trashed: true`, `draft: true`
        if value not in (None, False, "", 0) and not isinstance(value, bool) \
                and words & _DISCARDED:
            return True  # `archivedAt: "2024-05-11T..."`
    return False


def no_vat(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether a customer asked for their VAT number lives where invoices carry none: the
    countries their record names (its own or its address's), or else the calling codes of
    its phone numbers, are all outside `VAT_COUNTRIES` (a customer in the US, or with a
    `+1` number, was asked for a VAT number by text)."""
    leaves = [(key, value) for key, value in _leaves(followed(calls))
              if isinstance(value, str) and value.strip()]
    countries = {code for key, value in leaves if "country" in split_words(key)
                 and (code := country_code(value)) is not None}
    if countries:
        return not countries & VAT_COUNTRIES
    dialled = {phone_country(value) for key, value in leaves
               if set(split_words(key)) & {"phone", "mobile", "number", "cell"}}
    dialled.discard(None)
    return bool(dialled) and not dialled & VAT_COUNTRIES


def _leaves(item: object, depth: int = 2) -> list[tuple[str, object]]:
    """A record's fields, and those of the objects it holds (its `address`), to `depth`."""
    if not isinstance(item, dict):
        return []
    out: list[tuple[str, object]] = []
    for key, value in item.items():
        if isinstance(value, dict) and depth > 1:
            out += _leaves(value, depth - 1)
        elif isinstance(value, list) and value and isinstance(value[0], dict) and depth > 1:
            out += _leaves(value[0], depth - 1)
        else:
            out.append((str(key), value))
    return out


_SPAN = frozenset({"start", "end"})


def half_span(library: ServiceLibrary, calls: list[GoldCall]) -> bool:
    """Whether an event copied into another calendar carries only its start or only its end
    where the calendar takes both (a copy "at the same time" holding only its end time)."""
    for call in calls[1:]:
        node = library.graph.nodes[call.tool]
        offered = {role.meaning for param, kind in node.params.items()
                   if kind in ("date", "datetime") and (role := role_of(param, kind,
                                                                        node.resource))}
        carried = {role.meaning for param, b in call.bindings.items()
                   if b.kind == "hidden" and b.type in ("date", "datetime")
                   and (role := role_of(param, b.type, node.resource))}
        if call.effect != "read" and _SPAN <= offered and carried & _SPAN \
                and not _SPAN <= carried:
            return True
    return False


# Every guard a definition may name, in the order they are tried.
GUARDS: dict[str, Guard] = {
    "books_to_books": Guard(books_to_books, "a customer or partner copied between two sets "
                                            "of books, or set up in a shop"),
    "no_news": Guard(no_news, "an update on an order with no status to give says nothing"),
    "past_copy": Guard(past_copy, "a reminder of an event that is over, or its copy",
                       "that is still ahead"),
    "event_over": Guard(event_over, "a reminder of an event that is over, or its copy",
                        "that is still ahead"),
    "ahead": Guard(ahead, "a follow-up of an event that has not happened yet",
                   "that has taken place"),
    "unpaid": Guard(unpaid, "a receipt for an invoice or payment that is not paid",
                    "that is paid"),
    "no_amount": Guard(no_amount, "a receipt that cannot say what was paid"),
    "ticket_closed": Guard(ticket_closed, "a ticket said to wait for an answer is closed",
                           "that is still open"),
    "half_span": Guard(half_span, "a copied event with only its start or its end"),
    "not_granted": Guard(not_granted, "a request acted on as granted says it was not",
                         "that is approved"),
    "already_done": Guard(already_done, "a record said to wait is done already",
                          "that is still waiting"),
    "called_off": Guard(called_off, "an order treated as going ahead was called off",
                        "that is still going ahead"),
    "undelivered": Guard(undelivered, "an order asked about as arrived that never went out",
                         "that has gone out"),
    "gone": Guard(gone, "a colleague treated as with us is inactive or deleted",
                  "who is still active"),
    "settled": Guard(settled, "a reminder to pay an invoice that owes nothing",
                     "that is still unpaid"),
    "no_vat": Guard(no_vat, "a VAT number asked of a customer where invoices carry none"),
    "unreleased": Guard(unreleased, "a release announced as out is planned or thrown away"),
}


def flagging(library: ServiceLibrary, guards: frozenset[str], calls: list[GoldCall]
             ) -> Guard | None:
    """The first guard of `guards` that flags the walk `calls`, or None."""
    for name, guard in GUARDS.items():
        if name in guards and guard.test(library, calls):
            return guard
    return None


def rejection(library: ServiceLibrary, guards: frozenset[str], calls: list[GoldCall]
              ) -> str | None:
    """Why the walk `calls` is a wrong instance of a workflow guarded by `guards` (the
    first guard that flags it), or None."""
    guard = flagging(library, guards, calls)
    return guard.reason if guard else None

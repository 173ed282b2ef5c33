"""A workflow's request as a person makes it: the record it is about, then what to do.

goal.py's writer names every argument of every write ("add a payment to Avaza with amount
set to the amount of the payment ... and currency set to its currency"): a field mapping,
not a request. For a patterned walk (compose/patterns.py) the chain is about one record,
the subject, that the first call found, and every later write does one act of the
workflow with the subject's facts. This writer says so:

    I need to record a payment in the books: it is the payment with the email
    "yusuf.smith@soylent-labs.com" in GOV.UK Pay API. Please record it in Accounting API
    as a payment with the same amount, dated "2024-12-30T06:07:00Z".

- The subject is named once, in full (its list selector or filters), then `it` / `them`.
- Each write is the act of its step (`_ACTS`: a message is sent, a payment recorded, a
  refund issued, a contact added), in the app named by its title.
- Carried values are said by what they are of the subject ("with their contact details"
  for two or more of name, email, phone, fax and address; "with the same amount and
  currency", "at the same time"; "their twitter handle"), never which field
  each goes into: that is the agent's to work out. A field is named only where the subject
  has several of its kind ("its source amount"). Stated values, ids found by lookups and
  the agent's own message text are said as goal.py says them.

A two-call lookup ("find them in CRM and tell me their phone number") is said the same way.
`write_scenario` returns None for chains it does not cover (reads after the first call that
are no id lookups, updates, longer answers, a subject it cannot find); compose rejects
those chains (goal.py's writer says them field by field, which no person does).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from compoworld.compose.each import Selection
from compoworld.compose.goal import _Goal
from compoworld.compose.naming import (
    article,
    cap,
    field_words,
    join_words,
    param_words,
    quote,
)
from compoworld.compose.notes import local_clock
from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector
from compoworld.compose.references import (
    OUR_PAGE,
    acted_in,
    end,
    is_sender,
    is_sender_name,
    item_head,
    mentioned,
    mentioning,
    names,
    over,
    own_words,
    role_of_field,
    say,
    subject_facts,
)
from compoworld.compose.situations import (
    Purpose,
    app_kind,
    gist_for,
    known,
    situation,
    why_add,
)
from compoworld.compose.values import value_at
from compoworld.compose.workflow import Step, Workflow
from compoworld.graph.semtypes import (
    is_entity_id,
    is_tenant_id,
    pluralize,
    singularize,
    split_words,
)
from compoworld.world.fieldsources import NAME_TYPES

# The act of a write step, by the step's entity: `{it}` is the subject, `{a}` the new
# record (`a customer`), `{app}` the service's title.
_ACTS = {
    "person": ("add {them} as {a} in {app}", "set {them} up as {a} in {app}"),
    "staff": ("add {them} as {a} in {app}",),
    "message": ("send {them} {a} through {app}", "send {them} {a} in {app}",
                "send {them} {a} via {app}"),
    "payment": ("record {it} in {app} as {a}", "book {it} in {app} as {a}"),
    "invoice": ("raise {a} for {it} in {app}", "bill {it} in {app} with {a}"),
    "order": ("place {a} for {it} in {app}",),
    "product": ("list {it} in {app} as {a}", "add {it} to {app} as {a}"),
    "event": ("book {a} with {them} in {app}", "schedule {a} in {app} for {it}"),
    "task": ("create {a} in {app} for {it}", "open {a} in {app} about {it}"),
    "ticket": ("open {a} in {app} for {them}",),
    "document": ("save {a} about {it} in {app}",),
    "org": ("set {it} up as {a} in {app}", "add {it} to {app} as {a}"),
    "place": ("add {it} to {app} as {a}",),
}
_COPY = ("add {it} to {app} as {a}", "put {it} in {app} as {a}")
_OPEN_THREAD = ("start {a} with {them} in {app}", "open {a} with {them} in {app}")
_POST = ("post {it} in {app}", "share {it} with the team in {app}")
# a meeting booked in the one app that books them: no app to name
_BOOK = ("book {a} with {them}", "set up {a} with {them}")
# a new colleague's booking is their induction, not "an appointment" (a request that
# "books a new colleague in the customer-booking system" treats them as a customer)
_INDUCTION = ("book an onboarding session with {them} in {app}",
              "book {them} in for an induction session in {app}")
# a text from our number: the app is said once, with the number (`_setting`)
_TEXT = ("send {them} a text", "text {them}", "drop {them} a text")
# a message through the one app of the task that sends them, said without it
_SOLE_MESSAGE = ("send {them} {a}", "drop {them} {a}")
# The share of requests about a person held in one app of the task's that leave where they
# are kept unsaid: "They're in Jira Cloud as a user. Please send them a message via Google
# Workspace" names every app, and reads as the plan dictated, not the goal stated.
FIND_UNSAID = 0.75
# an email from our address, said the same way
_EMAIL = ("email {them}", "send {them} an email", "drop {them} an email")
# a meeting's date in the note, as people ask for it
_DATED = (", mentioning its date", ", saying which day it is", ", with the date")
# our page a set-up note points to, as the user says where it is
_PAGE_FORMS = {"book": ("Our booking page is {url}.", "Customers book with us at {url}."),
               "pay": ("Our payment page is {url}.", "Customers pay us online at {url}.")}
# messages whose day goes without saying (an invitation names its meeting's day)
_DATED_ANYWAY = frozenset({"inviting them to the meeting"})
_THREADS = frozenset("conversation conversations chat chats thread threads channel".split())
_REFUND = ("refund {it} through {app} with {a}", "issue {a} for {it} in {app}")
# A record's own name (`account name`, `company name`) tells apart a person or company; a
# record's customer's name (`customer name` of an order) tells whose record it is.
_OTHERS = frozenset("recipient sender owner assignee organizer user creator author attendee "
                    "guest invitee contact".split())
_COMPANY_WORDS = frozenset("company business organization organisation org partner trading "
                           "legal".split())
_CUSTOMER_WORDS = frozenset("customer client buyer".split())
_OUR_SIDE = frozenset("owner owned booked booker organizer creator user".split())
_CUSTOMERS_OF = frozenset({"order", "ticket", "invoice", "payment"})
_GUESTS = frozenset("recipient attendee guest invitee contact".split())
_THEN = ("Also {}.", "Please also {}.", "{}, too.", "And {}.")
# where the user keeps the tasks a workflow makes by content
_KEPT_IN = ("We keep tasks like this in {app}, {where}.", "In {app}, tasks like this go {where}.")
# a record titled by whom it is about, asked for by what it is for (`Step.title`)
_TODO = ("create a task in {app} to {todo}", "add a task to {app} to {todo}")
# what a record linked by content says of whom it is about (`Step.title`)
_BY_NAME = (", with {whose} name in its title", ", its title giving {whose} name")
# a workflow asked for every record a rule selects (`_Scenario._for_each`)
# (the records named in the ask itself, most often: three openings of their own, "It
# concerns ...", "This is for ...", "I need this done for ...", read as one stock form)
_EACH_FORMS = ("For {target}, please {acts}.",
               "Please go through {target}: for each of them, {acts}.",
               "Could you take care of {target}? For each one, please {acts}.",
               "This is for {target}. For every one of them, please {acts}.")
_ONE_FORMS = ("For {target}, please {acts}.", "Could you take care of {target}? Please {acts}.",
              "This is for {target}. Could you {acts}?")
# asking whom a for-each acted on (`Selection.report`), by the field they are named by
_REPORTS = ("When you're done, reply to me with the {words} of each {noun} you did this for.",
            "In your reply, give me the {words} of every {noun} you did it for.",
            "Then reply with a list of the {nouns} you took care of, giving each one's {words}.")
_EACH_CLOSINGS = ("Leave the other {nouns} alone.", "Don't touch the other {nouns}.",
                  "The other {nouns} stay as they are.")
_ENSURE = ("Some of them may be in {app} already: add only the ones that are missing.",
           "Nothing should be in {app} twice: skip the ones that are there already.")
# where the subject is kept, in a sentence of its own ("You'll find them in Big Red Cloud.")
_WHERE = ("You'll find {them} in {app}.", "{they} in {app} as {a}.",
          "{their} details are in {app}.")
_TITLED = (" under its own title", " with the same title", " under the same name")
# A message's gist (`Workflow.gist`) in the ways a request says it; its reference text
# (compose/notes.py) is written by the gist itself.
_GIST_FORMS = {
    "welcoming them aboard": ("welcoming them aboard", "to welcome them",
                              "with a warm welcome"),
    "letting them know they're all set up": ("letting them know they're all set up",
                                             "to tell them they're all set up"),
    "letting them know they can now book with us online": (
        "letting them know they can now book with us online",
        "to tell them they can book online now"),
    "letting them know their invoices will come from us directly": (
        "letting them know their invoices will come from us directly",
        "to tell them we'll invoice them directly from now on"),
    "letting them know their customer account for ordering is set up": (
        "letting them know their customer account for ordering is set up",
        "to tell them their customer account for orders is ready"),
    "letting them know they can now pay us online": (
        "letting them know they can now pay us online",
        "to tell them they can pay us online now"),
    "inviting them to the meeting": ("inviting them to the meeting", "to invite them",
                                     "with an invitation"),
    "with an update on their order": ("with an update on their order",
                                      "to let them know how their order is doing"),
    "letting them know we are looking into it": ("letting them know we are looking into it",
                                                 "to say we're on it"),
    "reminding them of the event": ("reminding them of the event", "as a reminder"),
    "that their refund is on its way": ("that their refund is on its way",
                                        "to tell them their refund is on its way"),
}
# SalesLoft's people are our contacts, Avaza's inventory a product of ours
_SHOWN = {"person": "contact", "people": "contact", "inventory": "product"}
# a fact of where the record a later act needs is kept, said as the user knows it
_KEPT = ("{Their} {what} {verb} in {app}{where}, under the same {key}.",
         "You'll find {their} {what} in {app}{where} (same {key}).",
         "We keep {their} {what} in {app}{where}, under the same {key}.")
_PEOPLE = {"person", "staff"}
_ADDRESS_WORDS = frozenset("to recipient recipients email phone number address attendee "
                           "attendees invitee invitees mobile destination".split())
_PLACE_TYPES = frozenset({"address", "city", "postal_code", "country", "region"})
_KEY_WORDS = {"email": "email address", "phone": "phone number", "username": "username"}
_PHONE_WORDS = frozenset("phone mobile tel telephone cell".split())
_MONEY_WORDS = frozenset("amount total price cost sum subtotal fee balance".split())
_TIME_WORDS = frozenset("start starts end ends begin finish".split())
# what "their contact details" covers: a request names these facts no more than a person
# asking a colleague to add a contact would
_CONTACT_DETAILS = frozenset({"name", "email address", "phone number", "fax number", "address"})
# what adding a person (or booking them in) takes of them without saying so
_IMPLIED = frozenset({"name", "email address"})


def write_scenario(
    calls: list[GoldCall], answer: list[AnswerItem], titles: Mapping[str, str],
    rng: random.Random, pattern: Workflow, *, resources: Mapping[str, str | None] | None = None,
    domains: Mapping[str, str | None] | None = None, sole: frozenset[str] = frozenset(),
    meeting: Purpose | None = None, local: Any = None, findable: bool = False,
    each: Selection | None = None,
) -> str | None:
    """The request for a patterned chain, or None when its shape is not one this writer
    says (see the module doc). A booking or a message by a tool of `sole` is made in the
    one app the task offers for it, and goes unnamed ("book them in on Monday ...", "send
    them an email ..."); a person the task's apps hold in one app only (`findable`) is
    mostly named without where they are kept, as a colleague asks ("Rosa Okafor starts
    today. Please send them a welcome email."): the agent finds them; a meeting with a
    person is booked for its `meeting` purpose ("book an account review with them"), its
    time said as well where they are (`local`: their `Place`, "10:00 to 11:00 Tokyo
    time"). With `each` (a selection: `compose/each.py`), `calls` are the steps made for
    the first of the records it chose, and the request asks them for every one by its rule
    ("every customer in Billbee whose plan is "Gold"", "the two invoices with the earliest
    due date"), naming none of them."""
    writes = [i for i, c in enumerate(calls) if c.effect != "read"]
    steps = list(pattern.steps[1:])
    if len(answer) == 1 and not writes and len(calls) == len(pattern.steps) == 2:
        return _Scenario(calls, titles, rng, resources or {}, pattern,
                         domains).lookup(answer[0])
    # a second read the workflow needs (the customer behind a ticket) is said as a find
    found = reads_midway(calls)
    if found and not (calls[1].effect == "read" and not reads_midway(calls[1:])
                      and steps[0].effects == ("read",)):
        return None
    acts = steps[1:] if found else steps
    if answer or not writes or len(writes) != len(acts) or calls[0].effect != "read" \
            or any(s.effects == ("update",) for s in acts):
        return None
    writer = _Scenario(calls, titles, rng, resources or {}, pattern, domains)
    writer.sole, writer.meeting, writer.local = sole, meeting, local
    writer.findable = findable and rng.random() < FIND_UNSAID and each is None
    if each is not None:
        if found or meeting is not None or pattern.facts:
            return None  # (a record found per record, a meeting's time or a fact said of
            # one person: no request states these once for several)
        writer.each = each  # (its pronouns stay: "for each of them, please email it to ...")
    return writer.text(writes, acts, found=found)


def reads_midway(calls: list[GoldCall]) -> bool:
    """Whether a chain reads a record it needs after its first call (the customer's
    transfer a refund copies its amount and account from): the shape this writer does not
    say, and goal.py's writer says as one record ("the same amount, account and currency as
    the transfer in Payments to them")."""
    return any(c.effect == "read" and not _lookup(calls, i)
               for i, c in enumerate(calls[1:], 1))


def _lookup(calls: list[GoldCall], step: int) -> bool:
    """Whether a later read only looks up an id a write takes (`_look_up_ids`)."""
    return all(b.kind != "hidden" or b.step != step or is_entity_id(b.type)
               for c in calls for b in c.bindings.values())


class _Scenario(_Goal):
    def __init__(self, calls: list[GoldCall], titles: Mapping[str, str], rng: random.Random,
                 resources: Mapping[str, str | None], pattern: Workflow,
                 domains: Mapping[str, str | None] | None = None) -> None:
        super().__init__(calls, titles, rng, resources, pattern.gist)
        self.pattern = pattern
        self.domains = domains or {}
        into = acted_in(calls)
        self.gist = gist_for(pattern, self.nouns[0], app_kind(  # (the walk wrote its
            self.title(into), self.domains.get(into)) if into is not None else "")  # note
        # by it, once the app was known)
        entity = pattern.steps[0].entity
        self.it, self.them, self.its = _pronouns(entity)
        self.item = self._subject_item()
        self.subject_step = 0  # the call whose record the acts are about (1 past a find)
        self.settings: dict[str, list[tuple[str, str]]] = {}  # app -> its account ids
        self.where = ""  # where the subject is kept, said after the situation
        self.sole: frozenset[str] = frozenset()  # acts in the only app that does them
        self.findable = False  # the person is held in one app of the task's: unsaid where
        self.pages: list[str] = []  # our pages a message points to ("Our booking page ...")
        self.meeting: Purpose | None = None  # what a meeting with the subject is for
        self.local: Any = None  # where the person a meeting is with is (`Place`)
        self.each: Selection | None = None  # the records it is asked for, by their rule

    def _subject_item(self) -> tuple[str, Selector | None] | None:
        """The list item (and its selector) of the first call the chain took values from."""
        for call in self.calls:
            for binding in call.bindings.values():
                if binding.kind == "hidden" and binding.step == 0:
                    return item_head(binding.path or ""), binding.selector
        return None

    def text(self, writes: list[int], steps: list[Step], found: bool = False) -> str | None:
        if self.item is None:
            return None
        if self.each is not None:
            return self._for_each(writes, steps, self.each)
        subject = self.subject()
        kept = self.find() if found else None
        if subject is None or (found and kept is None):
            return None
        acts = [self.act(i, step) for i, step in zip(writes, steps, strict=True)]
        if any(a is None for a in acts):
            return None
        if len(acts) == 2 and not any(" and " in a for a in acts):
            asks = [f"Please {acts[0]} and {acts[1]}."]  # two outcomes, one wish
        else:
            asks = [f"Please {acts[0]}."] + [self.rng.choice(_THEN).format(a) for a in acts[1:]]
        sentences = [self.situation(subject), *([self.where] if self.where else []), *asks,
                     *([kept] if kept else [])]
        sentences += [self._setting(app, ids) for app, ids in self.settings.items()]
        sentences += self.pages
        return " ".join(cap(end(s)) for s in [*self.facts_first, *sentences])

    def _for_each(self, writes: list[int], steps: list[Step], chosen: Selection
                  ) -> str | None:
        """`Every customer in Billbee whose plan is "Gold" needs this, and none of the
        others do. For each of them, please ...`: the workflow's acts, asked once for the
        records a rule selects or a rank takes."""
        acts = [self.act(i, step) for i, step in zip(writes, steps, strict=True)]
        if any(a is None for a in acts):
            return None
        noun, app = self.nouns[0], self.title(self.calls[0].service)
        target = chosen.target(noun, app, say(field_words(chosen.field)))
        one = chosen.order and len(chosen.heads) + len(chosen.present) == 1
        said = acts[0] if len(acts) == 1 else (f"{acts[0]} and {acts[1]}" if len(acts) == 2
                                               else ", ".join(acts[:-1]) + f", and {acts[-1]}")
        sentences = [self.rng.choice(_ONE_FORMS if one else _EACH_FORMS).format(
            target=target, acts=said)]
        copy = next((i for i, step in zip(writes, steps, strict=True)
                     if step.entity == self.pattern.steps[0].entity and "create" in step.effects),
                    None)
        if copy is not None and not one:  # (some may be there already: `present`)
            sentences.append(self.rng.choice(_ENSURE).format(
                app=self.title(self.calls[copy].service)))
        sentences += [self._setting(app, ids) for app, ids in self.settings.items()]
        sentences += self.pages
        if any(step.entity != "message" for step in steps):  # (a message to each chosen one
            # touches no other record: "leave the others alone" said nothing there)
            sentences.append(self.rng.choice(_EACH_CLOSINGS).format(nouns=pluralize(noun)))
        if chosen.report:  # (whom it acted on, in the answer: `each.reported`)
            words = say(field_words(chosen.report))
            sentences.append(self.rng.choice(_REPORTS).format(
                nouns=pluralize(noun), noun=noun, words=re.sub(
                    r"\bemail$", "email address", words)))  # (not "by email": a channel)
        return " ".join(cap(end(s)) for s in sentences)

    def _each_mentions(self, call: GoldCall) -> str:
        """`, mentioning its title`: what a message made for each record names of it, by
        what it is (each message names its own record's)."""
        own = {b.selector.value: f"its {say(field_words(b.selector.field))}"
               for c in self.calls for b in c.bindings.values()
               if b.kind == "hidden" and b.step == 0 and b.selector is not None}
        return mentioning(mentioned(own_words(call), self.calls),
                          subject_facts(self.calls) | own)

    def situation(self, subject: str) -> str:
        """`We're onboarding Ana Ruiz.`: why the user asks, with the record the workflow is
        about named once in full; of a customer we have already, what the app they go into
        is for ("Ana Ruiz would like to start booking appointments with us online.")."""
        into = acted_in(self.calls)
        kind = app_kind(self.title(into), self.domains.get(into)) if into is not None else ""
        return situation(self.pattern, subject, self.rng, past=over(self.calls), into=kind,
                         known_customer=known(self.nouns[0]), purpose=self.meeting)

    def subject(self) -> str | None:
        """The record the workflow is about, in full (None for a new colleague known only
        by a company): `our Billbee customer Ana Ruiz` (or
        `Ana Ruiz` and where she is kept, `_known_as`) when one name, title or email tells
        it apart, `the "Kickoff" event in CRM` by its title, `our contact at Hooli` by a
        person's company, `Ana Ruiz's order in Shop` when its customer's name does, else as
        goal.py names a record (`the user in Velo Payments whose company name is "Acme
        Corp"`)."""
        call, selector = self.calls[0], self.item[1] if self.item else None
        phrase = self.record(0, selector)
        others = [a for a in self.args(call) if a[1].kind == "visible"
                  and (selector is None or a[2] != selector.value)]
        if selector is None and len(others) == 1:  # read by one filter: that is its key
            selector, others = Selector(field=others[0][0], value=others[0][2]), []
        if selector is None or others or not isinstance(selector.value, str):
            return phrase
        noun, app = self.nouns[0], self.title(call.service)
        words = split_words(selector.field)
        entity = self.pattern.steps[0].entity
        if words[-1:] == ["email"] and entity in _CUSTOMERS_OF:  # whose order it is
            return f"the {noun} from {selector.value} in {app}"
        named = words[-1:] in (["name"], ["fullname"], ["displayname"]) \
            and not set(words) & _OTHERS
        if entity == "event" and words == ["name"]:  # a booking named by whom it is for
            return f"{selector.value}'s {noun} in {app}"
        if entity in _PEOPLE and named and set(words) & _COMPANY_WORDS \
                and self.pattern.situation == "hire":
            return None  # (a colleague is no "new colleague: our contact at <company>")
        if entity in _PEOPLE and named and set(words) & _COMPANY_WORDS:  # Square's
            self._say_where(noun, app)  # customers, named by their company
            return f"our contact at {selector.value}"
        own = self._leading(selector) or words == ["email", "address"] or (named and (
            (entity in _PEOPLE and not set(words) & _COMPANY_WORDS)
            or (entity == "org" and set(words) & _COMPANY_WORDS)))
        if own:
            if " ".join(words) in ("title", "subject", "filename"):
                return f"the {quote(selector.value)} {noun} in {app}"
            return self._known_as(selector.value, noun, app, entity)
        if words[-1:] == ["name"] and entity not in _PEOPLE | {"org"}:
            if set(words) & _CUSTOMER_WORDS:  # the order's customer: whose order it is
                return f"{selector.value}'s {noun} in {app}"
            if set(words) & _GUESTS:  # a meeting's recipient: who it is with
                return f"the {noun} with {selector.value} in {app}"
        return phrase

    def _known_as(self, value: str, noun: str, app: str, entity: str) -> str:
        """A person or company by their own name (or email), and where we keep them, as a
        colleague says it: `our SalesLoft Platform contact Ana Ruiz`, or the name alone with
        a sentence after the situation (`_say_where`). A label like `Ana Ruiz (a customer in
        Big Red Cloud)` reads as a template's, not a person's."""
        shown = _SHOWN.get(noun, noun)
        if "@" in value and entity in _PEOPLE:  # a person known by their email is said so
            value = f"the {shown} with the email address {value}"  # (not "We expect
            if not self.findable:  # regular orders from amara.laurent@...")
                self._say_where(noun, app)
            return value
        into = acted_in(self.calls)  # (no "They're in OnSched Consumer. Please book ... in
        if into is not None and self.title(into) == app and entity in _PEOPLE:  # OnSched
            return f"our {shown} {value}"  # Consumer")
        if entity in _PEOPLE and self.findable:
            return value  # (where they are is the agent's to find)
        if entity in _PEOPLE and self.pattern.situation != "hire" \
                and self.rng.random() < 0.25 and not app.startswith("our "):
            # (no "our company" we are only starting to work with, no "new colleague: our
            # SalesLoft user", no "our our CRM contact"; "Our Big Red Cloud customer Oscar
            # Hughes" in every request is unnatural: mostly a sentence)
            return f"our {app} {_SHOWN.get(noun, noun)} {value}"
        self._say_where(noun, app)
        return value

    def _say_where(self, noun: str, app: str) -> None:
        """Say after the situation where the subject is kept ("You'll find them in Big Red
        Cloud.", "It's in Avaza as a company.")."""
        they = {"them": "they're", "it": "it's"}[self.them]
        self.where = self.rng.choice(_WHERE).format(
            them=self.them, they=they, their=self.its, a=article(_SHOWN.get(noun, noun)),
            app=app)

    def lookup(self, item: AnswerItem) -> str | None:
        """`I'm looking at ... What is their skype username in OnSched?`: a record looked up
        in another app by a value of the subject, one of its facts asked for."""
        call = self.calls[1]
        if self.item is None or item.step != 1 or call.service == self.calls[0].service:
            return None
        carried = [(p, self.resolve(b, v)) for p, b, v in self.args(call)
                   if b.kind == "hidden"]
        if not carried or any(b.step != 0 for _, b in carried):
            return None
        them = self.them if self.them == "them" else self._holder_of(carried[0][1])
        rest = [(p, b, v) for p, b, v in self.args(call) if b.kind == "visible"]
        filters = "".join(f" whose {param_words(p, self.nouns[1])} is {self.value(b, v)}"
                          for p, b, v in rest)
        label = say(item.label.removeprefix("the ").strip() or "value")
        whose = "their" if them == "them" else f"{them}'s"
        subject = self.subject()
        app = self.title(call.service)
        if subject is None:
            return None
        if item.selector is not None:  # one of several: the one the answer is about
            filters += f" {self._selected(item.selector)}" if not filters else \
                f" and {self._selected(item.selector)}"
        if self.pattern.steps[1].entity in _PEOPLE:  # the person themselves, elsewhere
            where = f"as {article(self.nouns[1])}{filters} in {app}" if filters else \
                f"in {app}"
            they = "they" if them == "them" else them
            ask = self.rng.choice((  # (also: "Their details are in Avaza. ... They
                f"What is {whose} {label}? {cap(they)} should also be {where}.",  # should
                f"Could you tell me {whose} {label}? You'll also find {them} {where}."))
            # be in Severa" read as a contradiction)
        else:  # their payment, their order: a record of theirs in the other app
            ask = f"What is the {label} of {self.its} {self.nouns[1]}{filters} in {app}?"
        return " ".join(cap(end(s)) for s in [*self.facts_first, self.situation(subject),
                                              *([self.where] if self.where else []), ask])

    def find(self) -> str | None:
        """`Their phone number is in OnSched, under the same email address.`: the record the
        acts need, found by values of the subject, said as where it is kept; the acts that
        follow are about the person it is (`its attendee`, `its contact`)."""
        call, noun = self.calls[1], self.nouns[1]
        if call.service == self.calls[0].service:
            return None
        keys: dict[str, None] = {}
        holder = None
        filters = []
        for param, binding, value in self.args(call):
            source = self.resolve(binding, value)
            if source.kind == "hidden" and source.step == 0 and not is_entity_id(source.type):
                keys[_KEY_WORDS.get(source.type) or _field(source)] = None
                holder = holder or source
            elif binding.kind == "visible":
                filters.append(f"{param_words(param, noun)} {self.value(binding, value)}")
            elif binding.kind == "hidden":
                return None  # a lookup by an id the agent must work out: no fact to state
        if not keys or holder is None or set(split_words(holder.field or "")) & _OUR_SIDE:
            return None  # (a meeting's owner or booker is one of us, no one to write to)
        main = [k for k in keys if k in _KEY_WORDS.values()][:1]  # `the same email address`
        keys = dict.fromkeys(main) if main else keys  # (and its last name: the agent's pick)
        used = [b for c in self.calls[2:] for b in c.bindings.values()
                if b.kind == "hidden" and b.step == 1]
        head = next((item_head(b.path or "") for b in used), None)
        if head is None:
            return None
        what = list(dict.fromkeys(_kind_word(b) for b in used if not is_entity_id(b.type)))
        selector = self.item[1] if self.item else None
        self.item = (head, None)  # the acts that follow are on the record found
        self.subject_step = 1
        self.it, self.them, self.its = _pronouns(self.pattern.steps[1].entity)
        if self.them == "them" and self.pattern.steps[0].entity not in _CUSTOMERS_OF:
            self.them = self._holder_of(holder)  # who of an event they are: its attendee
            if selector is not None and isinstance(selector.value, str) and (  # named by
                    self.them.split()[-1] in split_words(selector.field)  # the request
                    or split_words(selector.field) == ["name"]):
                self.them = selector.value
            self.its = f"{self.them}'s"  # (an order's or a ticket's is the customer: them)
        self.named[(1, "")] = "them" if self.them == "them" else "it"
        person = self.pattern.steps[1].entity in _PEOPLE
        where = f" (the {noun} with {join_words(filters, self.rng)})" if filters else ""
        return self.rng.choice(_KEPT).format(
            Their="Their" if person else "Its", their="their" if person else "its",
            what=join_words(what, self.rng) if what else f"{noun} record",
            verb="are" if len(what) > 1 else "is", app=self.title(call.service), where=where,
            key=join_words(list(keys), self.rng))

    def act(self, step: int, kind: Step) -> str | None:
        call, noun = self.calls[step], self.nouns[step]
        forms = _REFUND if kind.words and "refund" in kind.words else _ACTS.get(kind.entity)
        if kind.entity == self.pattern.steps[0].entity and kind.entity not in _PEOPLE | {"org"}:
            forms = _COPY  # the subject itself, into another app: an event, a product
        if not forms:
            return None
        carried, made, rest = [], [], []
        titled = False
        for param, binding, value in self.args(call):
            source = self.resolve(binding, value)
            if source.kind == "hidden" and is_tenant_id(source.type) \
                    and source.selector is not None and source.step != self.subject_step:
                self.settings.setdefault(self.title(call.service), []).append(
                    ("account", quote(source.selector.value)))  # our account, by its name
            elif source.kind == "hidden" and source.step == self.subject_step \
                    and item_head(source.path or "") == self.item[0]:
                carried.append((param, source))
            elif source.kind == "hidden" and source.step is not None and source.step < step \
                    and (self.calls[source.step].effect != "read" or source.step == 0 < (
                        self.subject_step)):  # the new order's total into the invoice
                made.append((param, source))  # (or the ticket's, past the customer found)
            elif binding.kind == "visible" and is_tenant_id(binding.type):
                self.settings.setdefault(self.title(call.service), []).append(
                    (singularize(binding.type.split(".")[1]), quote(value)))
            elif binding.kind == "visible" and self.item and self.item[1] is not None \
                    and value == self.item[1].value and step > 0:
                titled = True  # the copy's title is the subject's own (an event copied)
            elif binding.kind == "visible" and is_sender(param, binding.type):
                self.settings.setdefault(self.title(call.service), []).append(
                    ("number" if binding.type == "phone" else "address", quote(value)))
                # (what we text or email from)
            elif binding.kind == "visible" and is_sender_name(param, binding.type) \
                    and kind.entity == "message":
                texts = any(b.kind == "hidden" and b.type == "phone"
                            and not is_sender(p, b.type) for p, b in call.bindings.items())
                self.settings.setdefault(self.title(call.service), []).append(
                    ("text sender" if texts else "email sender", quote(value)))  # (the name
                # our texts or emails go out under)
            else:
                rest.append((param, binding, value))
        by_content = next((b.type for b in call.bindings.values() if b.names_found()),
                          None)  # (a task titled by whom it is about)
        if not carried and not made and not by_content:
            return None  # nothing of the workflow goes into this act: no part of it
        if by_content and kind.title:  # what the task is for, as its title says it: "add
            todo = kind.title.replace(  # a task to Avaza to follow up with them"
                "{s}", "the company" if by_content == "company" else "them")
            forms = tuple(form.format(todo=todo[0].lower() + todo[1:], app="{app}")
                          for form in _TODO)
        them = self.them
        if kind.entity in _PEOPLE and them == "it":  # the person of a record, whom the
            them = "them"  # opening named ("the client of the invoice ... add them as a
            # customer", not "add it as a customer")
        if kind.entity == "message":  # the address a message goes to says who gets it
            to = [(p, b) for p, b in carried if _address(p, b)][:1]
            if to:
                carried = [c for c in carried if c not in to]
                them = self.them if self.them == "them" or self.subject_step else \
                    self._holder_of(to[0][1])  # (past a find: who the found record is)
        if forms is _ACTS["event"] and self.pattern.situation == "hire":
            forms = tuple(f.replace(" in {app}", "") for f in _INDUCTION) \
                if call.tool in self.sole else _INDUCTION
        elif forms is _ACTS["event"] and call.tool in self.sole and self.them != "it":
            forms = _BOOK  # (the calendar is the only one: "book them in on Monday ...")
        if kind.entity == "message" and kind.into == "channel":
            forms = _POST  # a post goes into a team's channel, to nobody in particular
        elif kind.entity == "message" and set(noun.split()) & _THREADS:
            forms = _OPEN_THREAD  # a conversation is started, not sent
        elif kind.entity == "message" and call.tool in self.sole and not any(
                b.kind == "visible" and (is_sender(p, b.type) or is_sender_name(p, b.type))
                for p, b in call.bindings.items()):
            # (the only app of the task that sends, said by what it sends: "drop them a
            # message" of an email left a chat app's direct message open, which the
            # checks, wanting the email, then failed)
            forms = _TEXT if to and to[0][1].type == "phone" else _EMAIL if to and \
                to[0][1].type == "email" else _SOLE_MESSAGE
        elif kind.entity == "message" and (sender := next(
                (b.type for p, b in call.bindings.items()
                 if b.kind == "visible" and is_sender(p, b.type)), None)):
            forms = _TEXT if sender == "phone" else _EMAIL  # "text them", and "we text
            # from our Twilio number ..." after
        elif kind.entity == "message" and any(
                b.kind == "visible" and is_sender_name(p, b.type)
                for p, b in call.bindings.items()):  # sent under our name: "text them", and
            forms = _TEXT if to and to[0][1].type == "phone" else _EMAIL  # where it goes
            # out from after
        booked = kind.entity == "event" and self.meeting is not None and self.them != "it"
        text = self.rng.choice(forms).format(  # (a meeting by what it is for: "an intro call")
            it=self.it, them=them, a=self.meeting.what if booked else article(noun),
            app=self.title(call.service))
        parts = [self._carried(carried, noun, implied=self._implied(kind))] if any(
            not is_entity_id(b.type) for _, b in carried) else []
        parts = [p for p in parts if p]
        parts += self._from_made(made, noun)
        facts = " with " + join_words(parts, self.rng) if parts else ""
        facts = facts.replace(" with the same time", " at the same time").replace(
            " and the same time", ", at the same time")
        if titled and kind.entity not in _PEOPLE | {"org"}:  # (a company keeps its name
            facts += self.rng.choice(_TITLED[:1] + _TITLED[2:] if " with " in facts else
                                     _TITLED)  # unsaid: "add it as a company under its own
            # title" is no request; review of this stop's run)
        if by_content:  # where such tasks are kept, said as the user's own habit: "We
            # keep tasks like this in Avaza in the section ... of the project ...", not a
            # place picked for this one
            kept = [a for a in rest if a[1].kind == "hidden" and is_entity_id(a[1].type)]
            app, named = self.title(call.service), dict(self.named)
            where = self.details(kept, noun).strip().replace(f" in {app}", "") if kept else ""
            if not where.startswith("in "):
                self.named = named  # (its records named in full where they are said)
            else:
                rest = [a for a in rest if a not in kept]
                self.pages.append(self.rng.choice(_KEPT_IN).format(app=app, where=where))
        details = self.details(rest, noun)
        if kind.entity == "event" and self.local is not None:
            details = self._their_time(call, details)
        if details.startswith(" on ") and facts:  # `book them in on Monday ... with their
            when, _, more = details.partition(" with ")  # email address`: the time first
            text, details = text + when, f" with {more}" if more else ""
        if details.startswith(" with ") and facts:  # one list: `with its amount, date "..."`
            details = ", " + details.removeprefix(" with ")
        if any(b.kind == "free" for b in call.bindings.values()):
            if kind.entity == "message":  # what the message says, in the agent's own words
                said = names(own_words(call), self.calls) if self.each is None \
                    else self._each_mentions(call)
                self.pages += [self.rng.choice(_PAGE_FORMS[page[1]]).format(url=page[0])
                               for page in OUR_PAGE.finditer(" ".join(own_words(call)))]
                gist = self._gist()
                dated = [d for d in _DATED if not ("with " in gist and "with " in d)]
                if said == _DATED[0] and self.gist in _DATED_ANYWAY:
                    said = ""  # (an invitation says when: "saying which day it is" spells
                    # out what its check looks for)
                details += f" {gist}" + (self.rng.choice(dated) if said == _DATED[0] else said)
            elif by_content:  # a follow-up task that says whom it is about
                details += self.rng.choice(_BY_NAME).format(
                    whose="the company's" if by_content == "company" else "their full")
            else:
                details += ", with a short note of your own about it"
        why = why_add(self.title(call.service), self.domains.get(call.service), self.rng,
                      noun) \
            if kind.entity in _PEOPLE | {"org"} and forms is _ACTS.get(kind.entity) else ""
        return f"{text}{facts}{details}" + (f" {why}" if why else "")

    def _their_time(self, call: GoldCall, details: str) -> str:
        """`... from 10:00 to 11:00 Tokyo time`: a meeting's time said where its guest is
        (not customers in Japan invited "at 14:00 UTC"; nor UTC beside it, which does the
        agent's conversion for them), the booking the agent's to make in UTC."""
        times = sorted(v for p, b, v in self.args(call) if b.kind == "visible"
                       and b.type == "datetime" and isinstance(v, str) and v.endswith("Z"))
        clocks = [local_clock(v, self.local.timezone) for v in times[:2]]
        if not clocks or not all(clocks) or " UTC" not in details:
            return details
        span = re.escape(" to ".join(f"{v[11:16]}" for v in times[:2]))
        theirs = " to ".join(clocks)
        return re.sub(rf"\b{span} UTC", f"{theirs} {self.local.city} time", details, count=1)

    def _gist(self) -> str:
        """What the message says, in one of the ways people ask for it ("welcoming them
        aboard", "to welcome them"): one fixed phrase per workflow is the sign of a
        template."""
        return self.rng.choice(_GIST_FORMS.get(self.gist, ())) if self.gist in _GIST_FORMS \
            else self.gist or "about it"

    def _from_made(self, made: list[tuple[str, Binding]], noun: str) -> list[str]:
        """`the name and total of the new order`: values of a record an earlier act made."""
        out: list[str] = []
        for step in dict.fromkeys(b.step for _, b in made):
            fields = [_field(b) for p, b in made if b.step == step and not is_entity_id(b.type)]
            if fields:
                out.append(f"the {join_words(list(dict.fromkeys(fields)), self.rng)} of "
                           f"{self.record(step, None)}")
        return out

    def _setting(self, app: str, ids: list[tuple[str, str]]) -> str:
        """`For Accounting API, our company is "..." and our connection is "...".`: the
        user's own account there, which they know as they know their login; a texting
        number as where texts go out from (`We text from our Twilio number "+44..."
        (account "AC...")`), the one place the request names the texting app."""
        number = next((value for kind, value in ids if kind == "number"), None)
        address = next((value for kind, value in ids if kind == "address"), None)
        named = next(((kind, value) for kind, value in ids if kind.endswith(" sender")), None)
        rest = [(kind, value) for kind, value in ids
                if kind not in ("number", "address") and not kind.endswith(" sender")]
        if named is not None and number is None and address is None:  # who it is from
            also = join_words([f"our {kind} is {value}" for kind, value in rest], self.rng)
            what = "texts" if named[0] == "text sender" else "emails"
            form = self.rng.choice(("Our {what} go out through {app} under the name {name}",
                                    "We send our {what} through {app} as {name}"))
            return form.format(what=what, app=app, name=named[1]) + (
                f", and {also}." if also else ".")
        if address is not None:
            also = join_words([f"{kind} {value}" for kind, value in rest], self.rng)
            if named is not None:  # (Mandrill's `from_name` beside its `from_email`)
                address = f"{address} as {named[1]}"
            form = self.rng.choice(("We send our email from {address} through {app}{also}.",
                                    "Our emails go out through {app}, from {address}{also}.",
                                    "We send email from {address} with {app}{also}."))
            # (no "we email customers from", said of a note to a colleague)
            return form.format(app=app, address=address, also=f" ({also})" if also else "")
        if number is not None:  # (`(account "Support Account")` reads as a machine's:
            # a person says which of their accounts it is on)
            also = join_words([f"{kind} {value}" for kind, value in rest], self.rng)
            named = rest[0][1] if [k for k, _ in rest] == ["account"] else ""
            also = (f" on our {named}" if named.endswith(' Account"') else
                    f" on the {named} account") if named else f" ({also})" if also else ""
            form = self.rng.choice(("We text from our {app} number {number}{also}.",
                                    "Texts go out from our {app} number {number}{also}.",
                                    "Our {app} number is {number}{also}."))
            return form.format(app=app, number=number, also=also)
        if self.rng.random() < 0.5:
            said = join_words([f"our {kind} is {value}" for kind, value in ids], self.rng)
            return f"For {app}, {said}."
        said = join_words([f"{kind} {value}" for kind, value in ids], self.rng)
        return f"In {app} we use {said}."

    def _holder_of(self, source: Binding) -> str:
        """Whose address of the subject a message goes to: `its reporter`, `its owner`;
        `the customer` of an order, a ticket, an invoice or a payment."""
        if self.pattern.steps[0].entity in _CUSTOMERS_OF:
            return "the customer"
        role = role_of_field(field_words(source.field or source.path or ""))
        if self.pattern.steps[0].entity == "event" and (not role or role[0] in _GUESTS):
            return "the attendee"  # (no "its recipient", nor "its contact", of a meeting)
        return f"its {role[0]}" if role else "its contact"

    def _implied(self, kind: Step) -> bool:
        """Whether the act itself says which facts of a person it takes: nobody adding a
        customer or booking a meeting with one says "with their name and email address"
        (a request that says so reads as a field list), and any agent copies their name
        and email. A phone is still said ("with their phone number"): a check that wants
        a phone nobody asked for fails an agent that did what it was told."""
        return kind.entity in _PEOPLE | {"org"} or (
            kind.entity == "event" and self.them != "it")

    def _carried(self, carried: list[tuple[str, Binding]], noun: str,
                 implied: bool = False) -> str:
        """What an act takes of the subject, as a person says it: `their name, email address
        and phone number`, `the same amount and currency`, `the same time`. Which field goes
        where is the agent's to work out; a field is named only where the subject has more
        than one of its kind (`its source amount`). Where the act `implied` them (adding a
        person), their name and email go unsaid; a phone, a fax or an address is still
        said."""
        kinds: dict[str, None] = {}
        money: list[str] = []
        times: list[str] = []
        currency = False
        for _param, source in carried:
            kind = source.type
            if is_entity_id(kind):
                continue  # the record's own id: the act is on `them`, said already
            field = _field(source)
            if kind in NAME_TYPES or (implied and kind == "company"):
                kinds["name"] = None  # (a company's own name, added as a company: unsaid)
            elif kind == "email":
                kinds["email address"] = None
            elif kind == "phone":
                kinds["fax number" if "fax" in field.split() else "phone number"] = None
            elif kind in _PLACE_TYPES:
                kinds["address"] = None
            elif kind == "money":
                money.append(field)
            elif kind == "currency":
                currency = True
            elif kind in ("datetime", "date", "time"):
                times.append(field)
            else:
                kinds[field] = None
        details = [k for k in kinds if k in _CONTACT_DETAILS]
        if implied:
            kinds = {k: None for k in kinds if k not in _IMPLIED}
        elif "name" in details and {"email address", "phone number"} & set(details) \
                and self._reachable() <= set(details):
            # `their contact details`: the name, and every email or phone the subject has,
            # that anyone adding a person copies (else said as what is carried: `their name
            # and email address`, no promise of a phone the new record never gets)
            kinds = {"contact details": None} | {k: None for k in kinds
                                                 if k not in _CONTACT_DETAILS}
        parts = [f"{self.its} {join_words(list(kinds), self.rng)}"] if kinds else []
        if money:
            if len(set(money)) == 1 and self._amounts() <= 1:
                parts.append("the same amount and currency" if currency else "the same amount")
            else:
                parts.append(f"{self.its} {join_words(list(dict.fromkeys(money)), self.rng)}"
                             + (" in its currency" if currency else ""))
        elif currency:
            parts.append(f"{self.its} currency")
        if times:
            parts.append("the same time" if len(times) > 1 or self._times() <= 1 else
                         f"{self.its} {times[0]}")
        return join_words(parts, self.rng)

    def _subject_leaves(self) -> list[tuple[str, Any]]:
        """(key, value) of every leaf of the subject item, nested objects included."""
        try:
            result = self.calls[self.subject_step].result
            item = value_at(result, self.item[0]) if self.item and self.item[0] else result
        except KeyError:
            return []
        out: list[tuple[str, Any]] = []
        stack = [item]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                for key, sub in value.items():
                    if isinstance(sub, dict | list):
                        stack.append(sub)
                    else:
                        out.append((str(key), sub))
            elif isinstance(value, list):
                stack.extend(value)
        return out

    def _reachable(self) -> set[str]:
        """How the subject can be reached: `email address`, `phone number` (no fax)."""
        kinds = set()
        for key, value in self._subject_leaves():
            words = set(split_words(key))
            if not isinstance(value, str) or not value or "fax" in words:
                continue
            if "email" in words and "@" in value:
                kinds.add("email address")
            elif words & _PHONE_WORDS and value.startswith("+"):
                kinds.add("phone number")
        return kinds

    def _amounts(self) -> int:
        """How many different amounts the subject holds (a payment with a source and a
        payment amount has two: "the same amount" would not say which)."""
        return len({v for k, v in self._subject_leaves() if isinstance(v, int | float)
                    and not isinstance(v, bool) and set(split_words(k)) & _MONEY_WORDS})

    def _times(self) -> int:
        """How many different start or end times the subject holds."""
        return len({v for k, v in self._subject_leaves() if isinstance(v, str)
                    and set(split_words(k)) & _TIME_WORDS})


def _pronouns(entity: str) -> tuple[str, str, str]:
    """How a request refers to a record of `entity` once named: them / them / their."""
    return ("them", "them", "their") if entity in _PEOPLE else ("it", "it", "its")


def _kind_word(source: Binding) -> str:
    """What a carried value is, as a person names it: `phone number`, `email address`."""
    if source.type in NAME_TYPES:
        return "name"
    return _KEY_WORDS.get(source.type) or _field(source)


def _field(source: Binding) -> str:
    return say(field_words(source.field or source.path or "") or "value")


def _address(param: str, source: Binding) -> bool:
    """Whether a carried value is the address an act goes to (a recipient's email)."""
    words = set(split_words(param))
    return source.type in ("email", "phone") and bool(words & _ADDRESS_WORDS)

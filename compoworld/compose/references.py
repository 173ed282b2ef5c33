"""How a goal instruction refers to people, records and the text the agent writes itself.

goal.py writes the request; this module holds the words it uses to point at things:

- `role_of_field`: the person a field names (`reporter_email` -> the reporter's email);
- `introduce`: a person found through a record, said as a fact of its own ("The issue
  titled "Slow search" in Issue Tracker was reported by a customer.") so that later
  mentions are short ("that customer", "them") instead of a nested chain;
- `free_note`: what a message the agent writes itself is about ("a short message of your
  own saying that their refund is on its way");
- `item_head`: which list item a result path is in, so values of one record are grouped.
"""

from __future__ import annotations

import re
from typing import Any

from compoworld.compose.arguments import call_arguments
from compoworld.compose.naming import field_words, join_words, path_names, quote, render_value
from compoworld.compose.records import Binding, GoldCall, Selector
from compoworld.compose.values import primary_list, value_at
from compoworld.graph.semtypes import is_entity_id, split_words
from compoworld.reward.rubric import day_forms, fact_in_text
from compoworld.world.clock import NOW
from compoworld.world.coherence import moment_of

Arg = tuple[str, Binding, Any]

PERSON_NOUNS = {"contact", "customer", "user", "employee", "member", "person", "lead",
                "attendee", "candidate", "client", "recipient", "author", "subscriber",
                "agent", "patient", "student", "player", "participant", "guest", "owner"}
_ROLE_ALIASES = {"from": "sender", "to": "recipient", "cc": "copied person"}
# How a record names its person, said as a fact: `the issue ... was reported by a customer`.
_PASSIVE = {"reporter": ("was reported by", "customer"), "payee": ("was paid to", "customer"),
            "customer": ("belongs to", "customer"), "recipient": ("went to", "person"),
            "sender": ("came from", "person"), "assignee": ("is assigned to", "colleague"),
            "owner": ("belongs to", "colleague"), "organizer": ("is organized by", "person"),
            "author": ("was written by", "person"), "creator": ("was created by", "colleague"),
            "requester": ("was requested by", "customer"), "buyer": ("was bought by",
                                                                     "customer")}
_KINDS = {"email": {"email", "mail", "address", "login", "emails"},
          "phone": {"phone", "telephone", "mobile", "tel", "number", "cell", "fax"}}
_ON = {"comment", "note", "reply", "review", "reaction", "label", "tag", "attachment", "vote"}
_FIELD_ALIASES = {"created at": "creation time", "created": "creation time",
                  "updated at": "last update time", "modified at": "last change time",
                  "sent at": "time it was sent", "phone": "phone number",
                  "starts at": "start time", "ends at": "end time", "start at": "start time",
                  "end at": "end time", "usd total": "total in USD"}


def role_of_field(field: str) -> tuple[str, str] | None:
    """`organizer email` -> (`organizer`, `email`), `from email` -> (`sender`, `email`),
    `to` (an email list) -> (`recipient`, `email`); None for a field of no person."""
    words = field.split()
    if words in (["to"], ["from"], ["cc"]):
        return _ROLE_ALIASES[words[0]], "email"
    if len(words) == 2 and words[1] in ("email", "phone") and words[0] not in ("id", "name"):
        return _ROLE_ALIASES.get(words[0], words[0]), words[1]
    return None


def introduce(role: str, record: str) -> tuple[str, str] | None:
    """(`The issue ... was reported by a customer.`, `customer`): a person as a fact of the
    record that names them, and the noun later mentions use; None for a role with no
    plain way to say it."""
    said = _PASSIVE.get(role)
    if said is None:
        return None
    verb, noun = said
    return f"{record[:1].upper()}{record[1:]} {verb} a {noun}.", noun


def free_note(gist: str, noun: str, naming: str = "") -> str:
    """`a short message of your own saying that their refund is on its way`: the text the
    agent writes, by what it says, never by words it must use, but for the facts it must
    name (`naming`: `, mentioning "Login delay"`, from `names`)."""
    kind = "note" if noun.split()[-1] in _ON else "message"
    note = f"a short {kind} of your own " + (
        f"{'saying ' if gist.startswith('that ') else ''}{gist}" if gist else "about it")
    return note + naming


def names(own: list[str], calls: list[GoldCall]) -> str:
    """`, mentioning "Login delay" and its status`: what the request says a text the
    reference writes (`own`) names, of the facts the chain `calls` states or reads."""
    return mentioning(mentioned(own, calls), subject_facts(calls))


def mentioning(mentions: list[str], read: dict[str, str] | None = None) -> str:
    """`, mentioning "Login delay"`: the facts a message the agent writes names, a stated
    one quoted, a date by its day and one the agent reads (`read`: fact -> how it is said)
    by what it is: `mentioning "Quarterly review" and its date`, `mentioning its status`."""
    read = read or {}
    said = [quote(m) for m in mentions if not day_forms(m) and m not in read
            and not OUR_PAGE.fullmatch(m)]
    said += list(dict.fromkeys("its date" if day_forms(m) else read[m] for m in mentions
                               if day_forms(m) or m in read))
    said += ["the link"] if any(OUR_PAGE.fullmatch(m) for m in mentions) else []
    return f", mentioning {' and '.join(said)}" if said else ""


def own_words(call: GoldCall) -> list[str]:
    """The text of a call that the agent writes itself (its `free` arguments)."""
    return [v for p, v in call_arguments(call).items() if isinstance(v, str)
            and (b := call.bindings.get(p)) is not None and b.kind == "free"]


def mentioned(own: list[str], calls: list[GoldCall]) -> list[str]:
    """The facts the request states (visible text of the chain: the ticket's subject, the
    order's title) that the reference's own words `own` name, quoted: a message about the
    ticket "Login delay" says so, and its check asks for it."""
    if not own:
        return []
    stated = [v for c in calls for p, v in call_arguments(c).items() if isinstance(v, str)
              and (b := c.bindings.get(p)) is not None and b.kind == "visible"]
    stated += [b.selector.value for c in calls for b in c.bindings.values()
               if b.selector is not None and isinstance(b.selector.value, str)]
    read = list(subject_facts(calls))  # the event's day, the order's status
    found = [v for v in dict.fromkeys(stated + read) if len(v) >= 3 and (
        (any(c.isalpha() for c in v) and any(f'"{v}"' in text for text in own))
        or ((bool(day_forms(v)) or v in read) and any(fact_in_text(v, text) for text in own)))]
    # our booking or payment page a note points to, which the request gives (unchecked,
    # "Our booking page is https://.../book" may be left out of the note)
    found += list(dict.fromkeys(m[0] for text in own for m in OUR_PAGE.finditer(text)))
    out, days = [], set()  # a meeting's start and end of one day: one day to name
    for value in found:
        day = value[:10] if day_forms(value) else ""
        if day and day in days:
            continue
        days.add(day)
        out.append(value)
    return out


def clocks_said(mentions: list[str], own: list[str], calls: list[GoldCall]) -> list[str]:
    """The clock times (`15:00`) the reference's own words `own` give beside the day of a
    time the request states (a meeting's start): "on March 17, 2025 at 15:00 Sao Paulo
    time" of 2025-03-17T18:00:00Z, so an invitation's check wants its hour as well as its
    day (an invitation checked by its date alone passes one at the wrong hour)."""
    stated = {v for c in calls for p, v in call_arguments(c).items() if isinstance(v, str)
              and (b := c.bindings.get(p)) is not None and b.kind == "visible"}
    out: list[str] = []
    for value in mentions:
        days = day_forms(value)[1:] if value in stated else []
        for form in days:
            pattern = rf"(?<!\w){re.escape(form)}(?:,? \d{{4}})? at (\d{{2}}:\d{{2}})\b"
            found = next((m[1] for text in own for m in re.finditer(pattern, text)), None)
            if found:
                out.append(found)
                break
    return list(dict.fromkeys(out))


# A texting or mail API's sender said in words, no number or address (Telstra's `from`,
# "the senderName they'll see"; SMS Works' `sender`): the business's own name.
_SENDER_NAMES = frozenset({("from",), ("sender",), ("sender", "name"), ("from", "name")})


def is_sender_name(param: str, kind: str) -> bool:
    """Whether a message's parameter is the name it is sent under (`from`, `sender`) typed as
    plain text: the business's own, which the user knows, never a drawn "Annual From"."""
    names = _named_parts(param)
    if len(names) > 1 and kind in ("title", "person_name") and _sends(names[-2]):
        return names[-1] == "name"  # inside an object: SendGrid's `from.name`
    return kind in ("string", "title") and tuple(split_words(names[-1])) in _SENDER_NAMES


def is_sender(param: str, kind: str) -> bool:
    """Whether a message's parameter is who sends it (`From`, `from_number`, `sender`, and
    inside an object `message.from_email`, SendGrid's `from.email`): the business's own
    number or email address, which the user knows as they know their account."""
    return kind in ("phone", "email") and any(_sends(part) for part in _named_parts(param)[-2:])


def _named_parts(param: str) -> list[str]:
    """A parameter's names, a path's too (`personalizations[0].from.email` -> ...,
    `from`, `email`)."""
    return path_names(param) or [param]


def _sends(name: str) -> bool:
    words = split_words(name)
    return bool(words) and (words[0] == "from" or words[-1] == "sender")


_STARTS = frozenset("start starts begin begins".split())


def start_of(item: Any) -> str:
    """When an event starts, from its record (`start_time`, `startsAt`, `start.dateTime`):
    what a reminder of it says; "" for a record with no ISO start."""
    if not isinstance(item, dict):
        return ""
    for key, sub in item.items():
        if set(split_words(str(key))) & _STARTS:
            values = sub.values() if isinstance(sub, dict) else [sub]  # (`dateTime`)
            start = next((v for v in values if isinstance(v, str) and day_forms(v)), "")
            if start:
                return start
    return ""


def over(calls: list[GoldCall]) -> bool:
    """Whether the event a workflow is about started before the world's now: no
    reminder of it, and a request follows it up rather than organising it."""
    return before_today(start_of(followed(calls)))


def before_today(start: str) -> bool:
    """Whether an ISO start is before the world's now: a moment (`2025-03-03T08:15:00Z`,
    earlier this morning) by the clock, a day (`2025-02-17`) by the day. An appointment
    at 08:15 today was texted as "still ahead" at 09:00."""
    if not start:
        return False
    if len(start) > 10 and (moment := moment_of(start)) is not None:  # (no zone: UTC)
        return moment < NOW
    return start[:10] < NOW.date().isoformat()


def status_of(item: Any) -> str:
    """A record's status as one plain word (`shipped`, `Processing`): what an update on it
    says; "" for none, a code or a phrase. Of several (an ecwid order's fulfillment and
    payment status), where it is on its way first (`_WHERE_IT_STANDS`)."""
    return _status(item)[1]


def status_field(item: Any) -> str:
    """The words of the field `status_of` reads (`payment status`), "" for a record's
    only plain `status`."""
    return _status(item)[0]


_WHERE_IT_STANDS = ("fulfillment", "fulfilment", "shipping", "delivery", "order")


def _status(item: Any) -> tuple[str, str]:
    """(the words of the status field `status_of` says, its value); ("", "") for none."""
    if not isinstance(item, dict):
        return "", ""
    found = [(split_words(str(k)), v) for k, v in item.items()
             if split_words(str(k))[-1:] in (["status"], ["state"]) and isinstance(v, str)
             and v.isalpha() and len(v) >= 3]
    if not found:
        return "", ""
    words, value = min(found, key=lambda f: next(
        (i for i, w in enumerate(_WHERE_IT_STANDS) if w in f[0]), len(_WHERE_IT_STANDS)))
    return (" ".join(words) if len(found) > 1 or words not in (["status"], ["state"])
            else ""), value  # (an order's only `paymentStatus` is its payment status: its
    # other orders have a fulfillment status too)


def subject_facts(calls: list[GoldCall]) -> dict[str, str]:
    """What a workflow's message may say of the record it is about, read, never stated:
    an event's start (`its date`), an order's status (`its status`; `its fulfillment
    status` where it has a payment status too, or is one of a kind: "its status" of an
    ecwid order reads as either); fact -> how a request asks for it. Of each record the
    chain took values from, where it is made for several (each appointment's own date)."""
    facts: dict[str, str] = {}
    for item in _all_followed(calls):
        field, status = _status(item)
        facts |= {fact: said for fact, said in {
            start_of(item): "its date", status: f"its {field or 'status'}",
            paid_amount(item)[0]: "the amount paid"}.items() if fact and fact not in facts}
    return facts


def _all_followed(calls: list[GoldCall]) -> list[Any]:
    """Every record of the first call the chain took values from (`followed`'s, then those
    of a workflow's steps made again for others), in the order the chain took them."""
    heads = dict.fromkeys(item_head(b.path or "") for c in calls[1:] for b in c.bindings.values()
                          if b.kind == "hidden" and b.step == 0 and b.path)
    found = []
    for head in heads:  # (None for one the result lacks: `followed` says so)
        try:
            found.append(value_at(calls[0].result, head))
        except KeyError:
            found.append(None)
    return found


# What an invoice or payment came to: its total (gross, else the amount), no part of it.
_SUMS = ("total_gross", "gross_total", "grand_total", "total", "amount", "total_amount",
         "gross")
_PARTS = frozenset("net tax vat fee fees discount shipping refunded due balance tip "
                   "surcharge".split())


def paid_amount(item: Any) -> tuple[str, str]:
    """(the amount an invoice or payment record came to, as its receipt says it, "306.12";
    with its currency where the record has one, "306.12 USD"); ("", "") for none, and for
    a whole number (GOV.UK Pay's 55926 is pence: no amount to say as it stands)."""
    if not isinstance(item, dict):
        return "", ""
    sums = {}
    for key, value in item.items():
        words = split_words(str(key))
        if isinstance(value, float) and value > 0 \
                and words and not set(words) & _PARTS and "_".join(words) in _SUMS:
            sums["_".join(words)] = value
    name = next((n for n in _SUMS if n in sums), None)
    if name is None:
        return "", ""
    value = sums[name]
    parts = [v for k, v in item.items() if isinstance(v, (int, float))
             and not isinstance(v, bool) and set(split_words(str(k))) & _PARTS]
    if any(part > value for part in parts):
        return "", ""  # a net of 859.47 beside a gross of 716.24: no amount to vouch for
    currency = next((v for k, v in item.items() if split_words(str(k))[-1:] == ["currency"]
                     or split_words(str(k))[-2:] == ["currency", "code"]), None)
    currency = currency.upper() if isinstance(currency, str) and len(currency) == 3 else ""
    if currency in _WHOLE_CURRENCIES and value != int(value):
        return "", ""  # (no "999.78 JPY": a yen has no cents)
    text = f"{value:.2f}"
    return text, f"{text} {currency}" if currency else text


_WHOLE_CURRENCIES = frozenset("JPY KRW VND CLP ISK HUF TWD IDR UGX XAF XOF PYG".split())


def acted_in(calls: list[GoldCall]) -> str | None:
    """The service of a chain's first write: the app a request acts in first."""
    return next((c.service for c in calls if c.effect != "read"), None)


def followed(calls: list[GoldCall]) -> Any:
    """The record of the first call that the chain took its values from (its list item):
    what the workflow is about; None where no later call took from it."""
    return next(iter(_all_followed(calls)), None)


def item_head(path: str) -> str:
    """`data[2]` of `data[2].email` (and of `data[2].emails[0].email`, the item's own first
    email): the list item (or, with no list, the record) a value of a result sits in."""
    return own_record(path[: path.rfind("]") + 1])


def own_record(path: str) -> str:
    """`data[2]` of `data[2].emails[0]`: a record's first email, phone or website is its
    own (`values.primary_list`), any other path is itself."""
    primary = _FIRST_OF.search(path)
    return path[:primary.start()] if primary and primary_list(primary[1]) else path


# our own page a note points to (`https://www.contoso.com/book`: seeding.our_page)
OUR_PAGE = re.compile(r"https://www\.[\w.-]+/(book|pay)\b")
_FIRST_OF = re.compile(r"\.(\w+)\[0\]$")
_LAST_INDEX = re.compile(r"^(.*)\[(\d+)\]$")


def in_item(path: str) -> tuple[str, int, str] | None:
    """(the list's path, the item's index, the path inside the item) of the list item a
    value sits in (`item_head`): ("data", 2, "emails[0].email") of
    `data[2].emails[0].email`; None for a value in no list."""
    head = item_head(path)
    match = _LAST_INDEX.match(head)
    if match is None:
        return None
    return match[1], int(match[2]), path[len(head):].removeprefix(".")


def kind_words(field: str, kind: str) -> str:
    """`shared with` of type email -> `shared with email`: a field that does not say what it
    holds gets the kind added."""
    if kind in _KINDS and not _KINDS[kind] & set(field.split()):
        return f"{field} {kind}"
    return field


def messaging(noun: str, title: str) -> str:
    """A message of an email or SMS service is `an email` / `a text message`."""
    if noun != "message":
        return noun
    words = set(split_words(title))
    if words & {"email", "mail", "gmail", "inbox"}:
        return "email"
    return "text message" if words & {"sms", "text", "texting"} else noun


def end(sentence: str) -> str:
    """No second full stop after a quoted value that ends its own sentence."""
    for mark in ('."', '?"', '!"'):
        if sentence.endswith(mark + ".") or sentence.endswith(mark + "?"):
            return sentence[:-1]
    return sentence


def near(noun: str) -> str:
    """`on` the issue a comment is about, `in` the channel a message goes to."""
    return "on" if noun.split()[-1] in _ON else "in"


def say(field: str) -> str:
    """A field as a person says it: `created at` -> `creation time`."""
    return _FIELD_ALIASES.get(field, field)


class Carried:
    """Where the carried values of a chain come from, and the people they name: the part of
    goal.py's writer that traces a value to its first record and says a person once.

    The writer provides `calls`, `rng`, `record(step, selector)` and the state set up by
    `init_carried`."""

    calls: list[GoldCall]

    def record(self, step: int, selector: Selector | None) -> str:  # the writer's
        raise NotImplementedError

    def init_carried(self) -> None:
        self.facts_first: list[str] = []  # people said as facts before the request
        self.people: dict[tuple[int, str, str], str] = {}  # (step, item, role) -> handle
        self.persons = {key for c in self.calls for p, b in c.bindings.items()
                        if (key := self._person_key(self.resolve(b, call_arguments(c).get(p))))}

    def resolve(self, binding: Binding, value: Any = None) -> Binding:
        """Where a carried value was first found: a value that a call was given (a read's
        filter, a write's argument) and returned again comes from where that argument came
        from, so `the payee of the transfer you found` is `the reporter of the issue`."""
        for _ in self.calls:
            step = binding.step
            if binding.kind != "hidden" or step is None or not 0 <= step < len(self.calls) \
                    or binding.selector is not None:
                break  # a list item named by a field: that fact must still be stated
            call, words = self.calls[step], field_words(binding.field or binding.path or "")
            given = next((b for p, b in call.bindings.items() if b.kind == "hidden"
                          and " ".join(split_words(p)) == words
                          and (value is None or call_arguments(call).get(p) == value)), None)
            if given is None:
                break
            binding = given
        return binding

    def _person_key(self, binding: Binding) -> tuple[int, str, str] | None:
        role = role_of_field(field_words(binding.field or ""))
        step = binding.step
        if binding.kind != "hidden" or role is None or step is None \
                or not 0 <= step < len(self.calls) or self.calls[step].effect != "read":
            return None
        return step, item_head(binding.path or ""), role[0]

    def person(self, binding: Binding) -> str | None:
        """The person a (resolved) email or phone of a read record names: first `that
        customer`, said as a fact before the request ("The issue titled "X" in Issue
        Tracker was reported by a customer."), then `them` when the chain has no other
        person; None for a value of no person."""
        key = self._person_key(binding)
        if key is None:
            return None
        if key in self.people:
            if len(self.persons) == 1:
                return "them"
            if self.people[key]:
                return self.people[key]
        record = self.record(key[0], binding.selector)  # in full once, then briefly
        if key in self.people:
            return f"the {key[2]} of {record}"
        fact = introduce(key[2], record)
        nouns = [introduce(k[2], "")[1] for k in self.persons if introduce(k[2], "")]
        roles = [k[2] for k in self.persons]
        if fact is not None and nouns.count(fact[1]) == 1:
            self.facts_first.append(fact[0])
            handle = f"that {fact[1]}"
        elif fact is not None and roles.count(key[2]) == 1:
            self.facts_first.append(fact[0].replace(f" a {fact[1]}.", f" our {key[2]}."))
            handle = f"the {key[2]}"
        else:  # several people of one kind: each by their record, briefly after the first
            self.people[key] = ""
            return f"the {key[2]} of {record}"
        self.people[key] = handle
        return handle

    def _possessive(self, person: str) -> str:
        return "their" if person == "them" else f"{person}'s"

    def _grouped(self, rest: list[Arg]) -> dict[str, str]:
        """Arguments carried from one record, said once: param -> the phrase (on the first
        of them; "" on the others) for each record two or more arguments come from: `the
        same amount, account and currency as that transfer`, or, when fields are renamed,
        `phone set to the fax of the supplier ..., and fax set to its mobile`."""
        groups: dict[tuple[int, str, str], list[tuple[str, Binding]]] = {}
        for param, binding, value in rest:
            source = self.resolve(binding, value)
            if source.kind == "hidden" and source.step is not None \
                    and 0 <= source.step < len(self.calls) and self._person_key(source) is None:
                named = render_value(source.selector.model_dump()) if source.selector else ""
                groups.setdefault((source.step, item_head(source.path or ""), named),
                                  []).append((param, source))
        out: dict[str, str] = {}
        for (step, _, _), members in groups.items():
            if len(members) < 2:
                continue
            fields = [say(field_words(b.field or b.path or "")) for _, b in members]
            words = [w.removesuffix(" id") if is_entity_id(b.type) else w
                     for w, (_, b) in zip(fields, members, strict=True)]
            record = self.record(step, members[0][1].selector)
            params = [" ".join(split_words(p)) for p, _ in members]
            raw = [field_words(b.field or b.path or "") for _, b in members]
            if all(f.split()[-1:] == p.split()[-1:] for f, p in zip(raw, params, strict=True)):
                phrase = f"the same {join_words(list(dict.fromkeys(words)), self.rng)} as " \
                    f"{record}"
            else:  # `phone set to the fax of ...`: the record once, then `its`
                phrase = join_words([f"{p} set to {'the' if i == 0 else 'its'} {f}"
                                     + (f" of {record}" if i == 0 else "")
                                     for i, (p, f) in enumerate(zip(params, fields,
                                                                    strict=True))], self.rng)
            out[members[0][0]] = phrase
            out.update({p: "" for p, _ in members[1:]})
        return out


"""A workflow's request as a person makes it: the record it is about, then what to do.

goal.py's writer names every argument of every write ("add a payment to Avaza with amount
set to the amount of the payment ... and currency set to its currency"): a field mapping,
not a request. For a patterned walk (compose/patterns.py) the chain is about one record,
the subject, that the first call found, and every later write does one act of the
workflow with the subject's facts. This writer says so:

    I need to record a payment in the books: it is the payment with the email
    "yusuf.smith@soylent-labs.com" in GOV.UK Pay API. Please record it in Accounting API
    as a payment with its amount, dated "2024-12-30T06:07:00Z".

- The subject is named once, in full (its list selector or filters), then `it` / `them`.
- Each write is the act of its step (`_ACTS`: a message is sent, a payment recorded, a
  refund issued, a contact added), in the app named by its title.
- Carried values are said by what they are of the subject ("with their email and phone
  number"), with the target field only where its name does not say it ("their phone
  number as the fax"); stated values, ids found by lookups and the agent's own message
  text are said as goal.py says them.

A two-call lookup ("find them in CRM and tell me their phone number") is said the same way.
`write_scenario` returns None for chains it does not cover (reads after the first call that
are no id lookups, updates, longer answers, a subject it cannot find); goal.py's writer is
used then.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from compoworld.compose.goal import _Goal
from compoworld.compose.naming import article, cap, field_words, join_words, param_words
from compoworld.compose.patterns import Pattern, Step
from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector
from compoworld.compose.references import end, item_head, role_of_field, say
from compoworld.graph.semtypes import is_entity_id, split_words

# The act of a write step, by the step's entity: `{it}` is the subject, `{a}` the new
# record (`a customer`), `{app}` the service's title.
_ACTS = {
    "person": ("add {them} as {a} in {app}", "set {them} up as {a} in {app}"),
    "staff": ("add {them} as {a} in {app}",),
    "message": ("send {them} {a} through {app}", "write to {them} in {app} with {a}"),
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
_REFUND = ("refund {it} through {app} with {a}", "issue {a} for {it} in {app}")
_OPENERS = ("I need to {p}: it is {s}.", "I want to {p}. It is about {s}.",
            "I need to {p}. This is about {s}.")
_THEN = ("Also {}.", "Please also {}.", "{}, too.")
_PEOPLE = {"person", "staff"}
_ADDRESS_WORDS = frozenset("to recipient recipients email phone number address attendee "
                           "attendees invitee invitees mobile".split())
# Words of a target field that do not change what it holds (`total amount`, `bindings email
# address`, `to email`).
_QUALIFIERS = frozenset("total primary main default address number value to recipient "
                        "recipients bindings binding contact customer user person new code at "
                        "time date on".split())


def write_scenario(
    calls: list[GoldCall], answer: list[AnswerItem], titles: Mapping[str, str],
    rng: random.Random, pattern: Pattern, *, resources: Mapping[str, str | None] | None = None,
) -> str | None:
    """The request for a patterned chain, or None when its shape is not one this writer
    says (see the module doc)."""
    writes = [i for i, c in enumerate(calls) if c.effect != "read"]
    steps = list(pattern.steps[1:])
    if len(answer) == 1 and not writes and len(calls) == len(pattern.steps) == 2:
        return _Scenario(calls, titles, rng, resources or {}, pattern).lookup(answer[0])
    if answer or not writes or len(writes) != len(steps) or calls[0].effect != "read" \
            or any(s.effects == ("update",) for s in steps):
        return None
    reads = [i for i, c in enumerate(calls[1:], 1) if c.effect == "read"]
    if any(not _lookup(calls, i) for i in reads):
        return None  # a read the workflow needs (the customer behind a ticket)
    writer = _Scenario(calls, titles, rng, resources or {}, pattern)
    return writer.text(writes, steps)


def _lookup(calls: list[GoldCall], step: int) -> bool:
    """Whether a later read only looks up an id a write takes (`_look_up_ids`)."""
    return all(b.kind != "hidden" or b.step != step or is_entity_id(b.type)
               for c in calls for b in c.bindings.values())


class _Scenario(_Goal):
    def __init__(self, calls: list[GoldCall], titles: Mapping[str, str], rng: random.Random,
                 resources: Mapping[str, str | None], pattern: Pattern) -> None:
        super().__init__(calls, titles, rng, resources, pattern.gist)
        self.pattern = pattern
        entity = pattern.steps[0].entity
        self.it, self.them, self.its = ("them", "them", "their") if entity in _PEOPLE else \
            ("it", "it", "its")
        self.item = self._subject_item()

    def _subject_item(self) -> tuple[str, Selector | None] | None:
        """The list item (and its selector) of the first call the chain took values from."""
        for call in self.calls:
            for binding in call.bindings.values():
                if binding.kind == "hidden" and binding.step == 0:
                    return item_head(binding.path or ""), binding.selector
        return None

    def text(self, writes: list[int], steps: list[Step]) -> str | None:
        if self.item is None:
            return None
        subject = self.record(0, self.item[1])
        acts = [self.act(i, step) for i, step in zip(writes, steps, strict=True)]
        if any(a is None for a in acts):
            return None
        opener = self.rng.choice(_OPENERS).format(p=self.pattern.purpose, s=subject)
        sentences = [end(opener), end(f"Please {acts[0]}.")]
        sentences += [end(self.rng.choice(_THEN).format(a)) for a in acts[1:]]
        return " ".join(cap(s) for s in [*self.facts_first, *sentences])

    def lookup(self, item: AnswerItem) -> str | None:
        """`... Please find them in CRM and tell me their phone number.`: a record looked
        up in another app by a value of the subject, one of its facts asked for."""
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
        subject = self.record(0, self.item[1])
        opener = self.rng.choice(_OPENERS).format(p=self.pattern.purpose, s=subject)
        app = self.title(call.service)
        if item.selector is not None:  # one of several: the one the answer is about
            filters += f" {self._selected(item.selector)}" if not filters else \
                f" and {self._selected(item.selector)}"
        if self.pattern.steps[1].entity in _PEOPLE:  # the person themselves, elsewhere
            ask = f"Please find {them} in {app}"
            ask += f" (the {self.nouns[1]}{filters})" if filters else ""
            ask += f" and tell me {whose} {label}."
        else:  # their payment, their order: a record of theirs in the other app
            ask = f"Please find {self.its} {self.nouns[1]}{filters} in {app} and tell me " \
                  f"its {label}."
        return " ".join(cap(s) for s in [*self.facts_first, end(opener), end(ask)])

    def act(self, step: int, kind: Step) -> str | None:
        call, noun = self.calls[step], self.nouns[step]
        forms = _REFUND if kind.words and "refund" in kind.words else _ACTS.get(kind.entity)
        if not forms:
            return None
        carried, made, rest = [], [], []
        for param, binding, value in self.args(call):
            source = self.resolve(binding, value)
            if source.kind == "hidden" and source.step == 0 \
                    and item_head(source.path or "") == self.item[0]:
                carried.append((param, source))
            elif source.kind == "hidden" and source.step is not None \
                    and 0 < source.step < step and self.calls[source.step].effect != "read":
                made.append((param, source))  # the new order's total into the invoice
            else:
                rest.append((param, binding, value))
        if not carried and not made:
            return None  # nothing of the workflow goes into this act: no part of it
        them = self.them
        if kind.entity == "message":  # the address a message goes to says who gets it
            to = [(p, b) for p, b in carried if _address(p, b)][:1]
            if to:
                carried = [c for c in carried if c not in to]
                them = self.them if self.them == "them" else self._holder_of(to[0][1])
        text = self.rng.choice(forms).format(it=self.it, them=them, a=article(noun),
                                             app=self.title(call.service))
        parts = [self._carried(carried, noun)] if any(
            not is_entity_id(b.type) for _, b in carried) else []
        parts += self._from_made(made, noun)
        facts = " with " + join_words(parts, self.rng) if parts else ""
        details = self.details(rest, noun)
        if details.startswith(" with ") and facts:  # one list: `with its amount, date "..."`
            details = ", " + details.removeprefix(" with ")
        if any(b.kind == "free" for b in call.bindings.values()):
            if kind.entity == "message":  # what the message says, in the agent's own words
                details += f", writing a short message of your own {self.gist or 'about it'}"
            else:
                details += ", with a short note of your own about it"
        return f"{text}{facts}{details}"

    def _from_made(self, made: list[tuple[str, Binding]], noun: str) -> list[str]:
        """`the name and total of the new order`, `the total of the new order as the
        amount`: values of a record an earlier act made."""
        out: list[str] = []
        for step in dict.fromkeys(b.step for _, b in made):
            record = self.record(step, None)
            plain, renamed = _split([(p, b) for p, b in made if b.step == step], noun)
            if plain:
                out.append(f"the {join_words(plain, self.rng)} of {record}")
            out += [f"the {field} of {record} as the {target}" for field, target in renamed]
        return out

    def _holder_of(self, source: Binding) -> str:
        """Whose address of the subject a message goes to: `its reporter`, `its owner`."""
        role = role_of_field(field_words(source.field or source.path or ""))
        return f"its {role[0]}" if role else "its contact"

    def _carried(self, carried: list[tuple[str, Binding]], noun: str) -> str:
        """`their email and phone number`, `its amount, with its net price as the cost`."""
        plain, renamed = _split(carried, noun)
        phrase = f"{self.its} {join_words(plain, self.rng)}" if plain else ""
        rest = join_words([f"{self.its} {field} as the {target}" for field, target in renamed],
                          self.rng)
        if phrase and rest:
            return f"{phrase}, and {rest}"
        return phrase or rest


def _split(values: list[tuple[str, Binding]], noun: str
           ) -> tuple[list[str], list[tuple[str, str]]]:
    """The carried fields a target's name says (`amount` into `total_amount`), and the
    (field, target) pairs it does not (`mobile` into `fax`); ids are the record itself."""
    plain: list[str] = []
    renamed: list[tuple[str, str]] = []
    for param, source in values:
        if is_entity_id(source.type):
            continue  # the record's own id: the act is on `them`, said already
        field = say(field_words(source.field or source.path or "") or "value")
        target = param_words(param, noun)
        if _says(target, field):
            plain.append(field)
        else:
            renamed.append((field, target))
    return list(dict.fromkeys(plain)), renamed


def _address(param: str, source: Binding) -> bool:
    """Whether a carried value is the address an act goes to (a recipient's email)."""
    words = set(split_words(param))
    return source.type in ("email", "phone") and bool(words & _ADDRESS_WORDS)


def _says(target: str, field: str) -> bool:
    """Whether a target field's name says what the carried field is (`total amount` takes
    an `amount`, `bindings email address` an `email`)."""
    left = {w.removesuffix("s") for w in split_words(target) if w not in _QUALIFIERS}
    right = [w.removesuffix("s") for w in split_words(field)]
    head = right[-1:] if right else []
    synonyms = {"phone": {"phone", "mobile", "telephone", "tel"}, "number": {"phone", "number"},
                "email": {"email", "mail"}, "name": {"name"}, "amount": {"amount", "total",
                                                                         "sum", "price"}}
    known = set(right) | synonyms.get(head[0] if head else "", set())
    if "".join(sorted(left)) == "".join(sorted(right)) or "".join(
            split_words(target)) == "".join(split_words(field)):
        return True  # `lastname` is the `last name`
    return bool(head) and bool(left) and left <= known


"""Goal-style instructions: what the user wants done and the facts they know, not the steps.

"Add a contact to CRM with the owner email of the file "fil_0004" in File Storage, first
name "Chloe" and last name "Tanaka", and tell me the id of the new contact."

- The writes of the chain are the goal, said as outcomes ("add a contact", "assign the
  issue "iss_0005" in Issue Tracker to ..."); a read is never an action: it becomes the
  description of what it found ("the event titled "Weekly sync" in Calendar", "Bo Chen's
  email in Stripe"), so the agent makes its own plan. With no write, the report is the goal.
- Records are named by their collection (`naming.record_noun`), never by a tool id.
- Every visible value is stated (`render_value` verbatim) as a fact of the record it
  belongs to, the first time that record is described; later mentions are short ("the same
  event"). Hidden values are only ever described by where they come from.
- Each answer item asks for one thing of one named record.

Phrasing varies with the rng; the same rng state gives the same text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from compoworld.compose.arguments import call_arguments
from compoworld.compose.naming import (
    GENERIC,
    article,
    cap,
    field_words,
    is_control,
    is_key,
    join_words,
    param_words,
    quote,
    record_noun,
    render_value,
    spoken_time,
    tool_words,
)
from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector
from compoworld.compose.references import (
    PERSON_NOUNS,
    Carried,
    end,
    free_note,
    kind_words,
    messaging,
    names,
    near,
    own_words,
    role_of_field,
    say,
)
from compoworld.graph.semtypes import is_entity_id, is_tenant_id, singularize, split_words
from compoworld.world.state import canonical_json

_NAME_FIELDS = {"name", "full name", "display name", "fullname", "displayname"}
_SAY_PARAMS = {"text", "body", "message", "content", "description", "note", "comment"}
_RECIPIENT_WORDS = {"to", "recipient", "recipients", "assignee", "payee", "invitee"}
_RECIPIENT_VERBS = {"send", "forward", "invite", "assign", "share", "notify", "transfer",
                    "pay", "email", "text", "reply", "add"}
# Verbs of tool names a person uses for a write as they are (`send`, `assign`, `refund`).
ACTION_VERBS = set("""send post forward invite assign move transfer upload publish share reserve
book schedule cancel archive approve reject submit close open start stop pause resume register
subscribe unsubscribe enable disable reset refund charge pay capture void notify attach link
merge import export sync run trigger execute deploy restart verify confirm tag label mark
complete accept decline invoice email text call print duplicate copy rename restore lock unlock
activate deactivate revoke grant apply redeem release translate convert generate sign issue rate
review reply comment like follow unfollow join leave ban block unblock report add create update
delete remove edit set change replace upsert save store record log order buy sell rent hire
invite reassign escalate resolve reopen dismiss snooze star pin unpin mute unmute""".split())
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_OPENERS = ("Please {}.", "{}.", "Could you {}?", "I'd like you to {}.", "Can you {}?",
            "I need you to {}.")
# A workflow's purpose leads into the request instead of standing as a sentence of its own.
_PURPOSED = ("To {p}, please {}.", "To {p}, could you {}?", "I want to {p}, so please {}.",
             "I need to {p}: please {}.")
_ASKS = ("What is {}?", "Can you find out {}?", "I need to know {}.", "Please look up {}.",
         "Could you tell me {}?")
_REPORTS = ("tell me {}", "let me know {}", "send me back {}")
_CLOSINGS = ("Don't change anything else.", "Leave everything else as it is.")

Arg = tuple[str, Binding, Any]


def write_goal(
    calls: list[GoldCall],
    answer: list[AnswerItem],
    titles: Mapping[str, str],
    rng: random.Random,
    *,
    resources: Mapping[str, str | None] | None = None,
    purpose: str | None = None,
    gist: str = "",
) -> str:
    """The goal-style user turn for the gold chain `calls` and the `answer` items.

    `resources` (tool -> collection) names each record; `purpose` ("refund a customer's
    payment") opens the request when given.
    """
    if not calls:
        raise ValueError("an instruction needs at least one gold call")
    return _Goal(calls, titles, rng, resources or {}, gist).text(answer, purpose)


# `starting "2025-01-31T06:07:00Z"`, not `start date time "..."`: a time said by what it is
_WHEN = {"start": "starting", "starts": "starting", "begin": "starting", "end": "ending",
         "ends": "ending", "due": "due", "expiry": "expiring", "expires": "expiring"}


# Phrases a write's facts lead with, outside its `with` list: `in the channel ...`, `on
# Monday, March 3, 2025 at 09:00 UTC until ...`.
_PLACES = ("in ", "on ", "until ", "due on ", "expiring on ")


def _timed(when: str, value: Any) -> str:
    """`on Wednesday, March 12, 2025 at 12:30 UTC`, `ending on ...`: a time as a person says
    it (`spoken_time`); `starting "2025-03-12T12:30:05+02:00"` where it has no spoken form."""
    spoken = spoken_time(value)
    if not spoken:
        return f"{when} {quote(value)}"
    return {"starting": "on", "ending": "until"}.get(when, f"{when} on") + f" {spoken}"


_SPOKEN = re.compile(r"(on|until) (.+) at (\d{2}:\d{2})((?: UTC)?)")


def _one_span(places: list[str]) -> list[str]:
    """`on Monday, March 10, 2025 from 12:30 to 13:30 UTC`: a start and an end of one day
    said as one span (not `until ... 13:30 UTC on ... 12:30 UTC`); a start before its end."""
    starts = [p for p in places if p.startswith("on ")]
    ends = [p for p in places if p.startswith("until ")]
    if len(starts) == 1 and len(ends) == 1:
        start, end = _SPOKEN.fullmatch(starts[0]), _SPOKEN.fullmatch(ends[0])
        rest = [p for p in places if p not in (starts[0], ends[0])]
        if start and end and start[2] == end[2] and start[4] == end[4]:
            return [f"on {start[2]} from {start[3]} to {end[3]}{end[4]}", *rest]
        return [starts[0], ends[0], *rest]
    return places


class _Goal(Carried):
    """One chain's records, named once in full and briefly after that."""

    def __init__(self, calls: list[GoldCall], titles: Mapping[str, str], rng: random.Random,
                 resources: Mapping[str, str | None], gist: str = "") -> None:
        self.calls, self.titles, self.rng, self.gist = calls, titles, rng, gist
        self.nouns = [messaging(record_noun(c.tool, c.effect, resources.get(c.tool)),
                                 self.title(c.service)) for c in calls]
        self.named: dict[tuple[int, str], str] = {}  # (step, selector) -> short phrase
        self.used = {b.step for c in calls for b in c.bindings.values()
                     if b.kind == "hidden" and b.step is not None}
        self.init_carried()

    # --- the request --------------------------------------------------------------------

    def text(self, answer: list[AnswerItem], purpose: str | None) -> str:
        pick = self.rng.choice
        actions = [self.action(i) for i, c in enumerate(self.calls) if c.effect != "read"]
        asks = [self.asked(item) for item in answer]
        asides = [self.record(i, None) for i, c in enumerate(self.calls)
                  if c.effect == "read" and i not in self.used
                  and all(a.step != i for a in answer) and self._stated(i)]
        sentences: list[str] = []
        if actions:
            # two short outcomes share a sentence; long ones (with their own `and`s) do not
            if len(actions) == 2 and not any(" and " in a for a in actions):
                actions = [f"{actions[0]} and {actions[1]}"]
            if asks:
                actions[-1] += ", and " + pick(_REPORTS).format(join_words(asks, self.rng))
            opener = pick(_PURPOSED if purpose else _OPENERS)
            sentences.append(end(opener.format(actions[0], p=purpose)))
            sentences += [end(cap(a) + ".") for a in actions[1:]]
        elif purpose:
            sentences.append(end(f"To {purpose}, I need to know "
                                 f"{join_words(asks, self.rng) or 'what you find'}."))
        else:
            sentences.append(end(pick(_ASKS).format(join_words(asks, self.rng))) if asks
                             else "Please look into this.")
        sentences += [end(pick(("Also have a look at {}.", "Check {} as well.")).format(a))
                      for a in asides]
        if actions and self.rng.random() < 0.3:
            sentences.append(pick(_CLOSINGS))
        return " ".join(cap(s) for s in [*self.facts_first, *sentences])

    def asked(self, item: AnswerItem) -> str:
        """`the phone of the contact named "Ana Ruiz" in CRM`: one value of one record."""
        words = say(item.label.removeprefix("the ").strip() or "value")
        if 0 <= item.step < len(self.calls):
            return self.value_of(item.step, item.selector, words)
        return f"the {words}"

    # --- writes -------------------------------------------------------------------------

    def action(self, step: int) -> str:
        """One write as an outcome: `add a contact to CRM with ...`, `assign the issue ...`."""
        call, noun = self.calls[step], self.nouns[step]
        title, pick = self.title(call.service), self.rng.choice
        verb = tool_words(call.tool, call.effect)[0]
        if verb not in ACTION_VERBS | GENERIC.get(call.effect, set()) | {"post"}:
            verb = ""  # `sendtransaction`, `senderc`, `account`: no verb a person would say
        args = self.args(call)
        keys = [a for a in args if is_key(a[0], a[1].type, noun)]
        rest = [a for a in args if a not in keys]
        to = [a for a in rest if self._recipient(a[0], verb)][:1]
        rest = [a for a in rest if a not in to]
        generic = not verb or verb in GENERIC.get(call.effect, ()) or verb in GENERIC["create"] \
            or (verb == "post" and call.effect == "create")
        target = self.target(step, keys) if keys else ""
        if keys and call.effect in ("update", "delete"):  # later mentions: the same record
            self.named[(step, "")] = self._short(step, target)
        if call.effect == "update" and (generic or verb in GENERIC["update"]) and keys:
            return self._change(target, rest)
        if call.effect == "delete" and keys:
            text = pick(("delete {}", "remove {}")).format(target)
        elif keys:
            text = f"{self._verb(verb, call.effect)} {target}"
        elif generic and call.effect == "create":
            thing = self._new_thing(step, rest)
            text = pick(("add {a} to {t}", "create {a} in {t}", "set up {a} in {t}")).format(
                a=thing, t=title)
        else:
            thing = self._new_thing(step, rest)
            made = verb and not singularize(noun.split()[-1]).startswith(verb[:5])
            text = (f"{verb} {thing} in {title}" if made else f"make {thing} in {title}")
        if to:
            param, binding, value = to[0]
            lead = "assigned to" if "assignee" in split_words(param) and verb != "assign" \
                else "to"
            who = self._recipient_of(binding, value) if binding.kind == "hidden" else None
            text += f" {lead} {who or self.value(binding, value)}"
        details = self.details(rest, noun)
        if f" in {title}" in details.split(" with ")[0]:  # `a comment on the issue ... in X`
            text = text.replace(f" to {title}", "", 1).replace(f" in {title}", "", 1)
        if any(b.kind == "free" for b in call.bindings.values()):  # the agent's own words
            note = free_note(self.gist, noun, names(own_words(call), self.calls))
            details += f" and {note}" if " with " in details else f" with {note}"
        return text + details

    def _change(self, target: str, rest: list[Arg]) -> str:
        """`set the city of the contact "con_0004" in CRM to "Lisbon"`, or several changes."""
        changes = [(param_words(p, ""), self.value(b, v)) for p, b, v in rest]
        if not changes:
            return f"update {target}"
        if len(changes) == 1 and self.rng.random() < 0.5:
            return f"set the {changes[0][0]} of {target} to {changes[0][1]}"
        if self.rng.random() < 0.5:
            return f"update {target}, setting " + join_words(
                [f"its {w} to {v}" for w, v in changes], self.rng)
        return f"change {target} so that " + join_words(
            [f"its {w} is {v}" for w, v in changes], self.rng)

    def _verb(self, verb: str, effect: str) -> str:
        if verb and verb not in GENERIC.get(effect, ()):
            return verb
        return {"update": "update", "delete": "delete"}.get(effect, "use")

    def _new_thing(self, step: int, rest: list[Arg]) -> str:
        """`a place named "Diego Laurent"`, `a contact for Ximena Weber`: the new record, with
        its name when it has one (those arguments are then said, not listed)."""
        noun = self.nouns[step]
        shown = {" ".join(split_words(p)): (p, v) for p, b, v in rest
                 if b.kind == "visible" and isinstance(v, str)}
        first, last = shown.get("first name"), shown.get("last name")
        if first and last:
            rest[:] = [a for a in rest if a[0] not in (first[0], last[0])]
            return f"{article(noun)} for {first[1]} {last[1]}"
        name = shown.get("name") or shown.get("full name") or shown.get("title")
        if name is None:
            return article(noun)
        rest[:] = [a for a in rest if a[0] != name[0]]
        how = "titled" if split_words(name[0]) == ["title"] else "named"
        return f"{article(noun)} {how} {quote(name[1])}"

    def details(self, rest: list[Arg], noun: str) -> str:
        """` with subject "Hi", body set to ..., saying "..."`: the rest of a write's facts."""
        said = next((a for a in rest if a[1].kind == "visible"
                     and param_words(a[0], noun) in _SAY_PARAMS), None)
        parts: list[str] = []
        grouped = self._grouped(rest)
        parts += [phrase for phrase in grouped.values() if phrase]
        within = {canonical_json(v) for _, b, _ in rest if b.kind == "hidden"
                  and b.step is not None and 0 <= b.step < len(self.calls)
                  for v in call_arguments(self.calls[b.step]).values()}
        for param, binding, value in rest:
            if (said is not None and param == said[0]) or param in grouped:
                continue
            words = param_words(param, noun)
            other = is_entity_id(binding.type) and not is_key(param, binding.type, noun)
            if other and binding.kind == "hidden" and canonical_json(value) in within:
                continue  # the project a section was looked up in, said with the section
            whole = self._whole(binding, noun) if other and binding.kind == "hidden" else None
            ours = self.resolve(binding, value).selector if binding.kind == "hidden" \
                and is_tenant_id(binding.type) else None
            if ours is not None:  # our own account, found by its name (walk._our_account)
                parts.insert(0, f"{near(noun)} our {self._other(binding.type)} "
                                f"{quote(ours.value)}")
            elif whole is not None:
                parts.insert(0, f"{near(noun)} {whole}")
            elif binding.kind == "hidden":
                ref = self.value(binding, value)
                binding = self.resolve(binding, value)
                source = field_words(binding.field or binding.path or "")
                parts.append(ref if source.split()[-1:] == words.split()[-1:]
                             else f"{words} set to {ref}")
            elif other:
                parts.insert(0, f"{near(noun)} the {self._other(binding.type)} {quote(value)}")
            elif binding.type in ("datetime", "date") and _WHEN.get(words.split()[0]):
                parts.append(_timed(_WHEN[words.split()[0]], value))  # `starting "..."`
            elif words.split()[-1:] == ["channel"] and isinstance(value, str):
                parts.append(f"in the {quote(value)} channel")  # where a post goes
            else:
                parts.append(f"{words} {quote(value)}")
        places = _one_span([p for p in parts if p.startswith(_PLACES)])
        parts = [p for p in parts if not p.startswith(_PLACES)]
        text = "".join(f" {p}" for p in places)
        text += f" with {join_words(parts, self.rng)}" if parts else ""
        if said is not None:
            text += f"{',' if parts else ''} saying {quote(said[2])}"
        return text

    def target(self, step: int, keys: list[Arg]) -> str:
        """The record a write works on, by its key: `the issue "iss_0005" in Issue Tracker`."""
        call, noun = self.calls[step], self.nouns[step]
        if len(keys) == 1 and keys[0][1].kind == "hidden":
            whole = self._whole(keys[0][1], noun)
            if whole is not None:
                return whole
        facts = self.facts(step, keys)
        return " ".join([f"the {noun}", *facts[0], f"in {self.title(call.service)}",
                         *facts[1]])

    # --- records ------------------------------------------------------------------------

    def record(self, step: int, selector: Selector | None) -> str:
        """The record call `step` returned (or the list item `selector` names), in full the
        first time, then briefly."""
        key = (step, render_value(selector.model_dump()) if selector else "")
        if key in self.named:
            return self.named[key]
        call, noun = self.calls[step], self.nouns[step]
        if call.effect != "read":
            phrase = self._made(step) if call.effect in ("create", "action") else \
                self.target(step, [a for a in self.args(call) if is_key(a[0], a[1].type, noun)])
        elif selector is None and (same := self._same(step)) is not None:
            phrase = same
        else:
            args = self.args(call)
            if selector is not None:  # "the user named "Uma Nowak" whose name is "Uma Nowak""
                args = [a for a in args if a[1].kind != "visible" or a[2] != selector.value]
            base = next(((p, w) for p, b, _ in args if b.kind == "hidden"
                         and is_key(p, b.type, noun) and (w := self._whole(b, noun))), None)
            if base is not None:  # read again by its id: the earlier record, named so
                args = [a for a in args if a[0] != base[0]]
            repository, number, args = _in_repository(args)
            facts = self.facts(step, args)
            if repository:  # `the pull request #12 of the acme/web repository in GitHub`,
                facts[0].insert(0, f"of the {repository} repository")  # not "whose owner
                noun = f"{noun} #{number}" if number is not None else noun  # is ... and
                # repo is ..."
            chosen = ""
            if selector is not None:
                chosen = self._selected(selector) if self._leading(selector) else \
                    self._whose(selector.field, selector.value)
                (facts[0] if self._leading(selector) else facts[1]).insert(0, chosen)
            where = f"in {self.title(call.service)}"  # (once: a section "in the project
            said = base or any(f"{where} " in f"{fact} " for fact in facts[0])  # ... in
            # Avaza")
            phrase = " ".join([base[1] if base else f"the {noun}", *facts[0],
                               *([] if said else [where]), *self._and(facts[1])])
            lead = chosen or next(iter(facts[0]), "")
            if lead and '"' in lead and not base:
                self.named[key] = f"the {noun} {lead}"
                return phrase
        self.named[key] = self._short(step, phrase)
        return phrase

    def _short(self, step: int, phrase: str) -> str:
        """How a record named once is named again: by its quoted facts when it has them, else
        `the same <noun>`."""
        noun, read = self.nouns[step], self.calls[step].effect == "read"
        others = [i for i, n in enumerate(self.nouns) if n == noun and i != step
                  and (self.calls[i].effect == "read") == read]
        if others or len(phrase) < 40:
            return phrase
        return f"that {noun}"

    def _made(self, step: int) -> str:
        """`the new contact`, or `the second new place` when the chain makes several."""
        noun, call = self.nouns[step], self.calls[step]
        same = [i for i, c in enumerate(self.calls) if self.nouns[i] == noun
                and c.effect == call.effect]
        if len(same) > 1:
            return f"the {_ORDINALS[same.index(step) % len(_ORDINALS)]} new {noun}"
        return self.rng.choice((f"the new {noun}", f"the {noun} you make"))

    def _same(self, step: int) -> str | None:
        """The earlier record a read by id reads again, if it is one."""
        call, noun = self.calls[step], self.nouns[step]
        args = self.args(call)
        if len(args) != 1 or args[0][1].kind != "hidden" or args[0][1].step is None:
            return None
        binding = args[0][1]
        source = binding.step
        if source is not None and 0 <= source < step and self.nouns[source] == noun \
                and field_words(binding.field or "") in ("id", f"{noun} id"):
            return self.record(source, binding.selector)
        return None

    def facts(self, step: int, args: list[Arg]) -> tuple[list[str], list[str]]:
        """What identifies a record: phrases before the title (`"eve_0004"`, `in the channel
        "cha_0001"`) and clauses after it (`whose status is "open"`)."""
        noun = self.nouns[step]
        before: list[str] = []
        after: list[str] = []
        for param, binding, value in args:
            words = param_words(param, noun)
            if binding.kind == "visible":
                if is_key(param, binding.type, noun):
                    before.append(quote(value))
                elif is_entity_id(binding.type):
                    before.append(f"in the {self._other(binding.type)} {quote(value)}")
                elif is_control(param):
                    after.append(f"(with {words} {quote(value)})")
                else:
                    after.append(self._whose(param, value))
                continue
            whole = self._whole(binding, noun) if is_entity_id(binding.type) else None
            if whole is not None and not is_key(param, binding.type, noun):
                before.append(f"in {whole}")
            elif whole is not None:
                before.append(f"(the same as {whole})")
            elif words.split()[0] in _RECIPIENT_WORDS \
                    and (person := self.person(self.resolve(binding, value))) is not None:
                after.insert(0, f"to {person}")  # `the transfer in Payments to them`
            elif field_words(self.resolve(binding, value).field or "") == words:
                after.append(f"with the same {words} as "
                             f"{self._holder(self.resolve(binding, value))}")
            else:
                after.append(f"whose {words} is {self.value(binding, value)}")
        return before, after

    def _and(self, clauses: list[str]) -> list[str]:
        """`whose a is x and whose b is y` -> `whose a is x and b is y`."""
        out: list[str] = []
        for clause in clauses:
            if out and clause.startswith("whose ") and out[-1].startswith(("whose ", "and ")):
                clause = "and " + clause.removeprefix("whose ")
            out.append(clause)
        return out

    def _leading(self, selector: Selector) -> bool:
        words = " ".join(split_words(selector.field))
        return words in _NAME_FIELDS or words in ("title", "subject", "filename", "email")

    def _selected(self, selector: Selector) -> str:
        words = " ".join(split_words(selector.field))
        value = quote(selector.value)
        if words in _NAME_FIELDS:
            return f"named {value}"
        if words == "title":
            return f"titled {value}"
        return f"with the {words} {value}"

    def _whose(self, field: str, value: Any) -> str:
        return f"whose {' '.join(split_words(field)) or field} is {quote(value)}"

    def _other(self, kind: str) -> str:
        """The record an id of another collection names: `crm.contacts.id` -> `contact`."""
        words = split_words(kind.split(".")[1])
        return " ".join([*words[:-1], singularize(words[-1])]) if words else "record"

    # --- values -------------------------------------------------------------------------

    def value(self, binding: Binding, value: Any) -> str:
        """A visible value quoted, a hidden one by where it comes from."""
        return quote(value) if binding.kind == "visible" else self._source(binding, value)

    def _source(self, binding: Binding, value: Any = None) -> str:
        """`the email of the contact named "Bo Chen" in CRM`, `Bo Chen's email in CRM`,
        `their email`."""
        binding = self.resolve(binding, value)
        step = binding.step
        if step is None or not 0 <= step < len(self.calls):
            return f"the right {' '.join(split_words(binding.type)) or 'value'}"
        field = say(field_words(binding.field or binding.path or "") or "value")
        person = self.person(binding)
        if person is not None:
            return self._possessive(person) + " " + (role_of_field(field) or ("", field))[1]
        return self.value_of(step, binding.selector, kind_words(field, binding.type))

    def value_of(self, step: int, selector: Selector | None, field: str) -> str:
        """One field of one record: possessive for a person named by a list selector."""
        noun, call = self.nouns[step], self.calls[step]
        if selector is not None and noun in PERSON_NOUNS and isinstance(selector.value, str) \
                and " ".join(split_words(selector.field)) in _NAME_FIELDS \
                and not self.args(call) and self.rng.random() < 0.7:
            key = (step, render_value(selector.model_dump()))
            self.named.setdefault(key, f"the {noun} named {quote(selector.value)}")
            return f"{selector.value}'s {field} in {self.title(call.service)}"
        role = role_of_field(field)
        if role:
            return f"the {role[0]}'s {role[1]} for {self.record(step, selector)}"
        return f"the {field} of {self.record(step, selector)}"

    def _holder(self, binding: Binding) -> str:
        step = binding.step
        if step is None or not 0 <= step < len(self.calls):
            return "the right record"
        return self.record(step, binding.selector)

    def _recipient_of(self, binding: Binding, value: Any) -> str | None:
        """Who a message or payment goes to: `that customer`, `them`, `the contact named
        "Bo Chen" in CRM` (a person record's own email); None when no person is known."""
        binding = self.resolve(binding, value)
        person = self.person(binding)
        step = binding.step
        if person is not None or step is None or not 0 <= step < len(self.calls):
            return person
        if self.nouns[step] in PERSON_NOUNS and field_words(binding.field or "").split()[-1:] \
                in (["email"], ["phone"]):
            return self.record(step, binding.selector)
        return None

    def _whole(self, binding: Binding, noun: str) -> str | None:
        """The source record itself when a hidden id names it (`the new contact`)."""
        step = binding.step
        if step is None or not 0 <= step < len(self.calls):
            return None
        field = field_words(binding.field or "")
        if field in ("id", f"{self.nouns[step]} id") and (
                not is_entity_id(binding.type) or is_key("id", binding.type, self.nouns[step])):
            return self.record(step, binding.selector)
        return None

    # --- helpers ------------------------------------------------------------------------

    def title(self, service: str) -> str:
        return (self.titles.get(service) or service).rstrip(".") or service

    def args(self, call: GoldCall) -> list[Arg]:
        return [(p, b, v) for p, v in call_arguments(call).items()
                if (b := call.bindings.get(p)) and b.kind not in ("free", "aside")]

    def _stated(self, step: int) -> bool:
        """Whether describing the call's record states a value: its own visible arguments
        or selectors, or those of the reads it depends on."""
        bindings = [b for _, b, _ in self.args(self.calls[step])]
        return any(b.kind == "visible" or b.selector is not None or (
            b.step is not None and 0 <= b.step < step and self.calls[b.step].effect == "read"
            and self._stated(b.step)) for b in bindings)

    def _recipient(self, param: str, verb: str) -> bool:
        words = split_words(param)
        return bool(_RECIPIENT_WORDS.intersection(words)) or (
            verb in _RECIPIENT_VERBS and words[-1:] in (["email"], ["phone"], ["number"]))


_OWNER = (["owner"], ["org"], ["organization"], ["workspace"], ["project", "key"])
_REPO = (["repo"], ["repository"], ["repo", "slug"], ["repository", "slug"])
_NUMBER_WORDS = frozenset({"number", "index", "iid", "num"})


def _in_repository(args: list[Arg]) -> tuple[str, Any, list[Arg]]:
    """A code host's record named where it is kept: (`acme/web`, its number or None, the
    other arguments) when the stated arguments hold an owner and a repository, else
    ("", None, `args`)."""
    stated = {tuple(split_words(p)): (p, v) for p, b, v in args if b.kind == "visible"}
    owner = next((stated[tuple(w)] for w in _OWNER if tuple(w) in stated), None)
    repo = next((stated[tuple(w)] for w in _REPO if tuple(w) in stated), None)
    if owner is None or repo is None or not all(isinstance(x[1], str) for x in (owner, repo)):
        return "", None, args
    number = next(((p, v) for p, b, v in args if b.kind == "visible" and isinstance(v, int)
                   and set(split_words(p)) & _NUMBER_WORDS), None)
    used = {owner[0], repo[0], *([number[0]] if number else [])}
    return (f"{owner[1]}/{repo[1]}", number[1] if number else None,
            [a for a in args if a[0] not in used])

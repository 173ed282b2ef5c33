"""The rubric of a composed task, built from its gold run (DESIGN.md, "Graph, walk, task").

The gold run's state diff gives one criterion per record created, updated or deleted,
the requested answer one per reported value, and a final `no_collateral_change` guard
allows exactly the gold run's changes. `compoworld.reward.rubric` evaluates them on any run.

Key fields of a created record are the fields whose values the gold calls gave: a field
equal to an argument value of a write call of that service (top level, or one level into
an object argument such as a `body`), or a list field holding such a value (an email's
`to`). Booleans and empty values count only when the argument has the field's name, and
never the id field, nor an id the service generated in the run (an agent's run may number
its records differently). When no field qualifies, up to three non-empty string fields of
the record stand in (no ids, no timestamps, nothing auto-maintained), in record order.

Checks verify the intent: every write call must own a criterion (a record it
created, updated with a value it gave, or deleted), so a skipped step fails; every value a
write carried from an earlier result is a key field of that criterion (or the record's own
id); every change must come from a write, so no criterion expects an effect from a read.
A gold run that breaks one of these raises `ValueError` (the composer drops the walk).
An answer criterion lists its `competitors`: the same field of the other items of the list
the value was picked from and of the other records that hold such a field, so an answer
that states everything it read states a competitor too and fails.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from compoworld.compose.arguments import call_arguments, head, is_path
from compoworld.compose.instruction import render_value
from compoworld.compose.naming import path_names
from compoworld.compose.patterns import topic_of
from compoworld.compose.records import PURPOSE, AnswerItem, Criterion, GoldCall
from compoworld.compose.references import clocks_said, in_item, mentioned
from compoworld.compose.values import value_at
from compoworld.graph.semtypes import semantic_type, snake_case, split_words
from compoworld.reward.rubric import (
    CLOCK,
    clock_forms,
    day_forms,
    evaluate_criterion,
    fact_in_text,
    json_equal,
    value_in_text,
    whole_name,
    with_leaves,
)
from compoworld.services.modeled import ACTION_LOG
from compoworld.specs.infra import is_infrastructure
from compoworld.world.state import State, canonical_json, diff

_AUTO_FIELD = re.compile(
    r"^_?(last_?)?(updated|modified|changed|edited)(_?(at|on|time|date|ts))?$"
    r"|^_?(version|etag|e_?tag|revision|rev|lock_?version|timestamp|date_?(modified|updated))$",
    re.IGNORECASE,
)
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}.*)?$")
_LABEL_FIELDS = ("name", "title", "subject", "filename", "email")
_FALLBACK_FIELDS = 3
MAX_COMPETITORS = 50


@dataclass(slots=True)
class _Target:
    """A change criterion with the record it checks (None for the guard and answers)."""

    criterion: Criterion
    record_id: str
    record: dict[str, Any] | None  # the record after the run (None: deleted)
    label: str = ""  # how the description names an updated record: " (Ana Ruiz)"
    later: dict[str, Any] | None = None  # a created record's fields edited after its create


def _auto_maintained(name: str) -> bool:
    """Whether a field looks kept up to date by the service (`updated_at`, `etag`, ...)."""
    return _AUTO_FIELD.match(name) is not None


def _argument_values(calls: list[GoldCall], service: str
                     ) -> tuple[list[tuple[str, Any]], set[tuple[str, str]]]:
    """(name, value) of every write-call argument of a service, one level into objects, and
    apart from them the agent's own words (`free` text: any will do, but some), by the
    argument's snake-case name."""
    values: list[tuple[str, Any]] = []
    own: set[tuple[str, str]] = set()
    for call in calls:
        if call.service != service or call.effect == "read":
            continue
        for name, value in call_arguments(call).items():
            binding = call.bindings.get(name)
            if binding is None and is_infrastructure(name):
                continue  # what the environment fills in (an api key, our sender's id): no
                # fact of the request, so no check wants it ("from email address id 1")
            if binding is not None and binding.kind == "aside":
                continue  # (the reference's own detail: nothing to check it by as a value)
            if binding is not None and binding.kind == "free":
                if isinstance(value, str):
                    own.add((snake_case(name), value))
                continue
            values.append((name, value))
            if isinstance(value, dict):
                values.extend(value.items())
    return values, own


def _by_content(calls: list[GoldCall], service: str) -> dict[tuple[str, str], str]:
    """The agent's own words of a service's writes that carry a record found earlier, by
    (snake-case name, text), each with the name it must say: a follow-up task's title
    "Follow up with Julia Nguyen" names "Julia Nguyen" (`walk._titled`)."""
    return {(snake_case(name), value): render_value(value_at(calls[b.step].result, b.path))
            for call in calls if call.service == service and call.effect != "read"
            for name, value in call_arguments(call).items()
            if isinstance(value, str) and (b := call.bindings.get(name)) is not None
            and b.names_found()}


def _purposes(calls: list[GoldCall], service: str) -> set[tuple[str, str]]:
    """(name, value) of the arguments of a service's writes that say what a booking is
    for (`PURPOSE`: "Account review"), by the argument's snake-case name."""
    return {(snake_case(name), value) for call in calls
            if call.service == service and call.effect != "read"
            for name, value in call_arguments(call).items()
            if isinstance(value, str) and (b := call.bindings.get(name)) is not None
            and b.kind == "aside" and b.type == PURPOSE}


# Words of a booking's title that say no purpose ("Intro call": what checks it is "intro")
_PLAIN_TITLE = frozenset("a an the call calls meeting meetings session sessions with about "
                         "their our of for customer and".split())


def purpose_words(title: str) -> list[str]:
    """The words one of which a booking titled `title` must say somewhere ("Account
    review" -> account, accounts, review, reviews): its words but the plain ones, each
    also in the singular or plural, as the agent titles the booking in its own words."""
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", title.lower())
    kept = [w for w in words if w not in _PLAIN_TITLE] or words
    forms = [form for w in kept for form in (w, w[:-1] if w.endswith("s") else f"{w}s")]
    return list(dict.fromkeys(forms))


def _trivial(value: Any) -> bool:
    return isinstance(value, bool) or value in ("", [], {})


def _generated(value: Any, generated: set[str]) -> bool:
    items = value if isinstance(value, list) else [value]
    return any(isinstance(item, str) and item in generated for item in items)


def _given(name: str, value: Any, given: list[tuple[str, Any]], generated: set[str]) -> bool:
    """Whether a record field's value was given by a gold call's argument."""
    if value is None or _generated(value, generated):
        return False
    for argument, supplied in given:
        if supplied is None or (_trivial(supplied) and argument != name):
            continue
        if json_equal(value, supplied):
            return True
        if isinstance(value, list) and not isinstance(supplied, list | dict) and any(
                json_equal(item, supplied) for item in value):
            return True
    return False


def _plain_fields(record: dict[str, Any], id_field: str, generated: set[str]
                  ) -> list[tuple[str, str]]:
    """The record's plain text fields, in record order: no ids, no timestamps, nothing
    auto-maintained, nothing empty."""
    return [(name, value) for name, value in record.items()
            if not (name == id_field or name == "id" or name.endswith("_id")
                    or _auto_maintained(name) or not isinstance(value, str)
                    or not value.strip() or _TIMESTAMP.match(value) or value in generated)]


def _fallback_fields(record: dict[str, Any], id_field: str, generated: set[str]) -> dict[str, Any]:
    return dict(_plain_fields(record, id_field, generated)[:_FALLBACK_FIELDS])


def _distinguish(fields: dict[str, Any], record: dict[str, Any], others: list[dict[str, Any]],
                 id_field: str, generated: set[str],
                 own_words: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Key fields plus plain fields of the record until no other record created in the run
    matches them all: else one record (a sent email) could pass for two criteria (it and
    a forwarded one), and the step that made the other could be skipped unnoticed. Never
    the fields of `own_words`, the agent's own words that carry a record found (a
    follow-up task's title, checked for the name it says: two customers' follow-ups are
    told apart by whom they name, not by "Follow up with Kofi Lopez" word for word)."""
    fields = dict(fields)
    for name, value in _plain_fields(record, id_field, generated):
        rivals = [o for o in others if all(json_equal(o.get(k), v) for k, v in fields.items())]
        if not rivals:
            break
        if name in own_words:
            continue
        if name not in fields and any(not json_equal(o.get(name), value) for o in rivals):
            fields[name] = value
    return fields


# Kinds of a contact's details that a record may hold in more than one field: an agent that
# puts the customer's name in Codat's `customerName`, not `contactName`, did the task.
_INTERCHANGEABLE = frozenset({"email", "phone", "person_name", "first_name", "last_name",
                              "company", "address", "username", "money"})
# Words that make a contact field another party's: a booking's `resourceEmail` is its
# staff member's, never its guest's `email` (a check that accepted the
# customer's email as `resourceEmail` passed a booking assigned to no staff member).
_OTHER_PARTY = frozenset("resource resources staff employee owner assignee agent sender host "
                         "organizer organiser manager admin".split())
# Money fields that are a part of a sum, never the sum: an amount is no fee or tax.
_MONEY_PARTS = frozenset("fee fees tax taxes vat discount discounts shipping tip tips "
                         "commission balance due paid refunded deposit unit".split())


def _sum_field(name: str, kind: str | None) -> bool:
    """Whether a field may hold the value of another of its kind: any contact field, a
    money field only when it is the whole sum (`total`, `sub_total`, `amount`)."""
    return kind in _INTERCHANGEABLE and (kind != "money"
                                         or not set(split_words(name)) & _MONEY_PARTS)


def _field_kinds(schema: dict[str, Any] | None, service: str,
                 collection: str) -> dict[str, str]:
    """The semantic type of each field of a collection's record schema."""
    props = (schema or {}).get("properties")
    if not isinstance(props, dict):
        return {}
    return {name: semantic_type(name, sub, service=service, resource=collection)
            for name, sub in props.items() if isinstance(sub, dict)}


def _alternatives(fields: dict[str, Any], kinds: dict[str, str]) -> dict[str, list[str]]:
    """Per key field of a contact's details, the record's other fields of its kind and of
    the same party (`kinds`: field -> semantic type; none of them a key field itself)."""
    def party(field: str) -> frozenset[str]:  # whose detail it is, by its name's words
        return frozenset(split_words(field)) & (_OTHER_PARTY | {"fax"})  # (a fax line is
        # no phone, nor a phone a fax)

    out = {}
    for name in fields:
        kind = kinds.get(name)
        if _sum_field(name, kind) and not is_path(name):  # (a leaf of an object: where
            others = [other for other, k in kinds.items() if k == kind and other != name
                      and other not in fields and _sum_field(other, k)  # it is: a
                      and not is_path(other)  # recipient's `to[0].email` is no `from.email`)
                      and party(other) == party(name)]
            if others:
                out[name] = others
    return out


def _name_shapes(fields: dict[str, Any], offered: dict[str, str]) -> dict[str, Any] | None:
    """Where else a checked person's name may sit (`offered`: the create tool's parameters'
    semantic types): a tool that takes both a whole name (`name`) and a first and last name
    (`firstname`, `lastname`) is as well filled in one shape as in the other. None unless
    the tool takes both shapes and a name field is a key field."""
    def sole(kind: str) -> str | None:  # the one field of a kind (the checked one, if any)
        names = [name for name, k in offered.items() if k == kind]
        names = [name for name in names if name in fields] or names
        return names[0] if len(names) == 1 else None

    full = [name for name, kind in offered.items() if kind == "person_name"]
    first, last = sole("first_name"), sole("last_name")
    if not full or first is None or last is None or not {first, last, *full} & fields.keys():
        return None
    return {"full": full, "first": first, "last": last}


def _key_fields(record: dict[str, Any], id_field: str, given: list[tuple[str, Any]],
                generated: set[str]) -> dict[str, Any]:
    fields = {name: value for name, value in record.items()
              if name != id_field and _given(name, value, given, generated)}
    fields = {name: value for name, value in fields.items()  # (an object given whole is
              if not (is_path(name) and head(name) in fields)}  # checked whole)
    return fields or _fallback_fields(record, id_field, generated)


def _changed_fields(update: dict[str, Any], given: list[tuple[str, Any]],
                    generated: set[str]) -> dict[str, Any]:
    after = update["after"]
    changed = {name: after.get(name) for name in update["fields"]}
    kept = {name: value for name, value in changed.items()
            if not _auto_maintained(name) or _given(name, value, given, generated)}
    return kept or changed  # only auto fields changed: they are all there is to check


def _singular(collection: str) -> str:
    noun = collection.replace("_", " ")
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith(("sses", "xes", "ches", "shes")):
        return noun[:-2]
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun


def _show(value: Any) -> str:
    """A value as a description quotes it, whole (a cut value reads as a different one)."""
    return f"'{value}'" if isinstance(value, str) else orjson.dumps(value).decode()


def _or(others: list[str]) -> str:
    """` (or phone)`, ` (or phone, or another field of its kind)`: where else a value may sit."""
    return f" (or {_any_of(others)})" if others else ""


def _any_of(names: list[str]) -> str:
    """`phone`, `phone or mobile, or another field of its kind`: the fields a value may sit in."""
    shown = " or ".join(name.replace("_", " ") for name in names[:2])
    return shown + (", or another field of its kind" if len(names) > 2 else "")


def _named(fact: str) -> str:
    """A fact a message names, as its check says it: `'Login delay'`; a date or time by
    its day, in any form (`the date 2026-12-05 (in any form, such as December 5)`); a clock
    time too (`the time 15:00 (in any form, such as 3 pm)`)."""
    if CLOCK.fullmatch(fact):
        return f"the time {fact} (in any form, such as {clock_forms(fact)[1]})"
    forms = day_forms(fact)
    return f"the date {forms[0]} (in any form, such as {forms[1]})" if forms else _show(fact)


def describe_fields(fields: dict[str, Any], alternatives: dict[str, list[str]] | None = None,
              shapes: dict[str, Any] | None = None) -> str:
    """`mobile (or phone) '+41...' and name 'Wayne Foods'`: each key field with its value,
    and the other fields of its kind it may sit in; a person's name last, with the other
    shape it may take (`_shaped`)."""
    alternatives = alternatives or {}
    named = {shapes["first"], shapes["last"], *shapes["full"]} if shapes else set()
    parts = [_field(name, value, alternatives) for name, value in fields.items()
             if name not in named]
    if shapes and named & fields.keys():
        parts += _shaped(fields, shapes, alternatives)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _field(name: str, value: Any, alternatives: dict[str, list[str]]) -> str:
    """`mobile (or phone) '+41...'`: a key field, where else it may sit, and its value."""
    return f"{_field_name(name)}{_or(alternatives.get(name, []))} {_show(value)}"


def _field_name(name: str) -> str:
    """How a check names a field: `first_name` -> `first name`; a leaf inside an object by
    it and its holder (`message.to[0].email` -> `to email`)."""
    if not is_path(name):
        return name.replace("_", " ")
    return " ".join(w for part in path_names(name)[-2:] for w in split_words(part))


def _shaped(fields: dict[str, Any], shapes: dict[str, Any],
            alternatives: dict[str, list[str]]) -> list[str]:
    """The checked name fields with the other shape the name may take: `name 'Ana Ruiz' (or
    firstname 'Ana' and lastname 'Ruiz')`, `firstname 'Ana'`, `lastname 'Ruiz' (or name 'Ana
    Ruiz')`, `lastname 'Ruiz' (or a name ending in 'Ruiz')`, or both shapes, either of
    which will do."""
    first, last = shapes["first"], shapes["last"]
    full = [name for name in shapes["full"] if name in fields]
    parts = [_field(name, fields[name], alternatives)
             for name in (*full, first, last) if name in fields]
    whole, held = whole_name(fields, shapes), _any_of(shapes["full"])
    if whole is None:  # a first or a last name alone (`_names` in the reward's check)
        part = fields.get(first, fields.get(last))
        how = "starting with" if first in fields else "ending in"
        return parts if len(parts) > 1 or not isinstance(part, str) or not part.strip() else [
            f"{parts[0]} (or {held} {how} {_show(part)})"]
    words = whole.split()
    split = (f"{first} {_show(words[0])} and {last} {_show(words[1])}" if len(words) == 2
             else f"{first} and {last} together reading {_show(whole)}").replace("_", " ")
    if not full:
        return parts[:-1] + [f"{parts[-1]} (or {held} {_show(whole)})"]
    if len(parts) == 1:
        return [f"{parts[0]} (or {split})"]
    return parts[:-1] + [f"{parts[-1]} (either {full[0].replace('_', ' ')} {_show(whole)} "
                         f"alone or {split} alone will do)"]


def _label(record: dict[str, Any]) -> str:
    person = " ".join(str(record[k]) for k in ("first_name", "last_name") if record.get(k))
    for name in _LABEL_FIELDS:
        if name == "email" and person:
            return f" ({person})"
        if isinstance(record.get(name), str) and record[name].strip():
            return f" ({record[name].strip()})"
    return f" ({person})" if person else ""


def _service_criteria(service: str, before: State, after: State, calls: list[GoldCall],
                      title: str, params_of: Mapping[str, dict[str, str]],
                      says: tuple[str, ...] = (), tells: tuple[str, ...] = ()
                      ) -> tuple[list[_Target], dict[str, Any]]:
    """The criteria of one service's changes (with their records), and what its guard
    allows (`params_of`: tool -> its parameters' semantic types)."""
    changes = diff(before, after)
    given, agents_words = _argument_values(calls, service)
    purposes = _purposes(calls, service)
    carried = _by_content(calls, service)
    generated = {str(record.get(after.id_field(collection)))
                 for collection, change in changes.items() for record in change["created"]}
    criteria: list[_Target] = []
    allowed: dict[str, Any] = {}
    for collection in sorted(changes):
        change, noun = changes[collection], _singular(collection)
        id_field = after.id_field(collection)
        for made in change["created"]:
            record = with_leaves(made)  # (its rivals the other records, leaves and all: the
            # record itself, its objects unflattened, had passed for a rival, and a
            # WhatsApp text's free `text.body` was checked word for word)
            fields = _distinguish(_key_fields(record, id_field, given, generated), record,
                                  [with_leaves(o) for o in change["created"] if o is not made],
                                  id_field, generated, frozenset(
                                      name for name, value in record.items()
                                      if isinstance(value, str)
                                      and (snake_case(name), value) in carried))
            params: dict[str, Any] = {"collection": collection, "fields": fields}
            written = [name for name, value in record.items() if isinstance(value, str)
                       and (snake_case(name), value) in agents_words and name not in fields
                       and (split_words(name)[-1:] != ["subject"]
                            or (snake_case(name), value) in carried)]  # (an email's subject
            # line is the agent's to word: "Invitation", one word, is a fine subject)
            if written:  # a message's body: any words of the agent's, but some
                params["written"] = written
                said = [carried[key] for name in written
                        if (key := (snake_case(name), record[name])) in carried]
                said += [v for v in mentioned([text for _, text in agents_words], calls)
                         if any(fact_in_text(v, record[name]) for name in written)]
                said += clocks_said(said, [str(record[name]) for name in written], calls)
                if said:  # ... naming the ticket it answers, as the request asks
                    params["mentions"] = list(dict.fromkeys(said))
                text = " ".join(str(record[name]) for name in written)
                told = [fact for fact in tells if fact_in_text(fact, text)]
                if told:  # the facts the request gives it to pass on ("April 10", "9:30")
                    params["mentions"] = list(dict.fromkeys([*params.get("mentions", []),
                                                             *told]))
                own = [word for word in says if value_in_text(word, text)]
                topic = (list(says) if own else []) or topic_of(text)  # the
                # workflow's own words first: a payslip notice says "payslip" (its "is
                # ready" passed on "set"), an invitation "invite" (not "booked")
                if topic:  # ... and saying what it is: a welcome says "welcome"
                    params["topic"] = topic
            purpose = next((value for name, value in record.items()
                            if isinstance(value, str)
                            and (snake_case(name), value) in purposes), None)
            if purpose is not None:  # a booking says what it is for, in any field: an
                params["about"] = purpose_words(purpose)  # "account review" unbooked fails
            kinds = _field_kinds(after.schemas.get(collection), service, collection)
            if collection == ACTION_LOG:  # an action's event holds its arguments: the
                kinds = params_of.get(f"{service}__{record.get('tool')}", {})  # tool's
            alternatives = _alternatives(fields, kinds)  # other parameters of their kind
            if alternatives:  # the name in `customerName` as well as in `contactName`
                params["alternatives"] = alternatives
            offered = kinds  # the create tool's parameters (an action's: its event's)
            if collection != ACTION_LOG:
                creator = _creating_call(calls, service, str(record.get(id_field)))
                offered = params_of.get(creator.tool, {}) if creator else {}
            shapes = _name_shapes(fields, offered)
            if shapes:  # `name` 'Ana Ruiz' as well as `firstname` 'Ana', `lastname` 'Ruiz'
                params["name_shapes"] = shapes
            criteria.append(_Target(Criterion(
                id="", kind="record_created", service=service, description="",
                params=params,
            ), str(record.get(id_field)), record))
        for update in change["updated"]:
            fields = _changed_fields(update, given, generated)
            criteria.append(_Target(Criterion(
                id="", kind="field_equals", service=service, description="",
                params={"collection": collection, "id": update["id"], "fields": fields},
            ), str(update["id"]), update["after"], _label(update["before"])))
        deleted = [str(record.get(id_field)) for record in change["deleted"]]
        for record_id, record in zip(deleted, change["deleted"], strict=True):
            criteria.append(_Target(Criterion(
                id="", kind="record_deleted", service=service,
                description=f"The {noun} {record_id}{_label(record)} is deleted from {title}.",
                params={"collection": collection, "id": record_id},
            ), record_id, None))
        allowed[collection] = {"created": len(change["created"]),
                               "updated": [update["id"] for update in change["updated"]],
                               "deleted": deleted}
    return _without_bare(criteria, calls, service), allowed


def _without_bare(criteria: list[_Target], calls: list[GoldCall], service: str
                  ) -> list[_Target]:
    """A service's criteria without a bare "A message is created in WhatsApp Business." (a
    made record with no field, words or purpose to check) where the call that made it also
    filed an event that says what it did ("A message is sent through WhatsApp Business with
    to '+35193...'"): the bare check only repeated it, once per send. A bare record whose
    call filed no such event keeps its check: it alone says that call was made."""
    def bare(target: _Target) -> bool:
        params = target.criterion.params
        return target.criterion.kind == "record_created" and not params.get("fields") \
            and not params.get("written") and not params.get("about")
    logged = Counter(str((t.record or {}).get("tool")) for t in criteria
                     if t.criterion.kind == "record_created" and not bare(t)
                     and t.criterion.params.get("collection") == ACTION_LOG)
    kept = []
    for target in criteria:
        if bare(target) and target.criterion.params.get("collection") != ACTION_LOG:
            creator = _creating_call(calls, service, target.record_id)
            tool = creator.tool.partition("__")[2] if creator else ""
            if logged[tool] > 0:
                logged[tool] -= 1
                continue
        kept.append(target)
    return kept


def _describe_change(target: _Target, title: str) -> str:
    """The sentence of a created or updated record's criterion, from its final fields."""
    criterion = target.criterion
    params, noun = criterion.params, _singular(criterion.params["collection"])
    if criterion.kind == "record_created":
        return describe_made(_made(noun, target.record or {}, params["collection"], title),
                             params)
    return f"The {noun} {params['id']}{target.label} in {title} has " \
        f"{describe_fields(params['fields'])}."


def describe_made(head: str, params: dict[str, Any]) -> str:
    """`head` ("An appointment is created in OnSched") with what a `record_created`
    criterion's `params` check: its fields, the agent's own words and what they say, and
    what a booking is for."""
    fields, text = params["fields"], head
    held = {name: value for name, value in fields.items()
            if name not in params.get("contains", [])}
    if held:
        text += " with " + describe_fields(held, params.get("alternatives"),
                                           params.get("name_shapes"))
    for name in params.get("contains", []):  # (a body posted with words around it)
        text += f", its {name.replace('_', ' ')} containing " \
            f"{_show(fields[name])}"
    written = params.get("written", [])
    if written:
        said, topic = params.get("mentions", []), params.get("topic", [])
        says = [f"naming {' and '.join(_named(m) for m in said)}"] if said else []
        says += [f"saying {'the word ' if all(' ' not in w for w in topic) else ''}"
                 f"{_either(topic)}"] if topic else []  # (as a word:
        # "reset" does not say "set", as a letter match would have it)
        text += f"{',' if fields else ''} and {_words_of(written)} " + (
            " and ".join(says) or "saying something (two words at least)")
    about = params.get("about", [])
    if about:
        text += (f"{',' if fields or written else ''} and saying what it is for in any of "
                 f"its fields (its title or notes): {_either(about)}")
    return text + "."


def _made(noun: str, record: dict[str, Any], collection: str, title: str) -> str:
    """`A contact is created in CRM`; for an action's event, the act its tool names: `A
    message is sent through Twilio`, `A customer is created in Codat` (not `An action log
    is created`)."""
    words = split_words(str(record.get("tool", ""))) if collection == ACTION_LOG else []
    if len(words) > 1 and words[-1] in _SENDS | _CREATES:  # `bill_payment_post`
        words = [words[-1], *words[:-1]]
    verb, rest = (words[0], " ".join(words[1:])) if len(words) > 1 else ("", "")
    if verb in _SENDS:
        noun, done = _one(rest), f"sent through {title}"
    elif verb in _CREATES:  # (`suppliers_post` makes a supplier)
        noun, done = _one(rest), f"created in {title}"
    elif words:
        return f"{title}'s {' '.join(words)} is called"
    else:
        done = f"created in {title}"
    article = "An" if noun[:1].lower() in "aeiou" and not noun.lower().startswith(
        ("us", "uni", "eu", "one")) else "A"  # a user, an order
    return f"{article} {noun} is {done}"


def _one(noun: str) -> str:
    """A tool's plural noun as one record (`suppliers` -> `supplier`); an acronym such as
    `sms` stays whole."""
    return noun if noun.lower() in _ACRONYMS else _singular(noun)


_ACRONYMS = frozenset({"sms", "mms", "dns", "os", "gps", "ios"})
_SENDS = frozenset({"send", "deliver"})
_CREATES = frozenset({"create", "add", "new", "insert", "make", "book", "schedule", "post"})


def _either(words: list[str]) -> str:
    """`"welcome" (or "welcoming", "welcomed")`: the words a message may say."""
    rest = ", ".join(f'"{word}"' for word in words[1:])
    return f'"{words[0]}"' + (f" (or {rest})" if rest else "")


def _words_of(names: list[str]) -> str:
    said = [f"its {name.replace('_', ' ')}" for name in names]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _scalars(value: Any, depth: int = 2) -> set[str]:
    """The scalar values of a result or arguments, a few levels deep, as text."""
    if isinstance(value, dict):
        return set().union(*(_scalars(v, depth - 1) for v in value.values())) if depth else set()
    if isinstance(value, list):
        return set().union(*(_scalars(v, depth - 1) for v in value[:50])) if depth else set()
    return set() if value is None or isinstance(value, bool) else {str(value)}


def _gave(call: GoldCall, target: _Target, generated: set[str]) -> bool:
    """Whether one of the call's own argument values is a key field of the criterion."""
    given, _ = _argument_values([call], call.service)
    return any(_given(name, value, given, generated)
               for name, value in target.criterion.params.get("fields", {}).items())


def _covers(call: GoldCall, index: int, target: _Target, namers: list[int],
            generated: set[str]) -> bool:
    """Whether write `index` made the change a criterion checks (`namers`: the writes whose
    arguments name the record).

    A create returns its record (its id in the result) or gave one of its key fields; a
    later write that names a created record edited it (`later` holds what it changed); an
    update names the record and gave a value it still holds, or is the only write that
    names it (an `archive(id)` gives no field, yet made the change); a delete is the last
    write that names the record (a rename before it left nothing to check).
    """
    kind, named = target.criterion.kind, index in namers
    if kind == "record_deleted":
        return named and index == namers[-1]
    if kind == "record_created":
        if named:
            return bool(target.later)
        return target.record_id in _scalars(call.result) or _gave(call, target, generated)
    return named and (_gave(call, target, generated) or len(namers) == 1)


def _creating_call(calls: list[GoldCall], service: str, record_id: str) -> GoldCall | None:
    """The write that created a record: its result holds the record's id and its arguments
    do not (a later write names the record it edits)."""
    return next((c for c in calls if c.service == service and c.effect != "read"
                 and isinstance(c.result, dict) and record_id in _scalars(c.result, 1)
                 and record_id not in _scalars(c.arguments)), None)


def _edited_after_create(target: _Target, calls: list[GoldCall]) -> None:
    """Make a created record's fields that a later write changed key fields (`later`): the
    record as its create returned it, against the record at the end (a closed issue)."""
    if target.criterion.kind != "record_created" or target.record is None:
        return
    creator = _creating_call(calls, target.criterion.service or "", target.record_id)
    if creator is None:
        return
    created = creator.result
    target.later = {name: value for name, value in target.record.items()
                    if name in created and not json_equal(created[name], value)
                    and not _auto_maintained(name)}
    target.criterion.params["fields"].update(target.later)


# The fields a request names a new record by ("a project titled "Quarterly hiring plan"").
_TITLES = (["title"], ["name"], ["subject"], ["summary"])


def _holder(targets: list[_Target], value: Any) -> tuple[_Target, str] | None:
    """The first target, and its record's field, that holds `value` (or a list field that
    holds it among others), or None."""
    return next(((t, name) for t in targets if t.record is not None
                 for name, held in sorted(t.record.items())
                 if json_equal(held, value)
                 or isinstance(held, list) and any(json_equal(x, value) for x in held)),
                None)


def _contained(targets: list[_Target], value: Any) -> None:
    """Mark the fields of `targets` whose record holds the text `value` as checked by what
    they contain (`contains`), not by equality: an issue's body posted to a channel may
    come with its title before it ("Password reset request: the customer wrote in ...")."""
    for target in targets:
        for name, held in (target.record or {}).items():
            if json_equal(held, value):
                names = target.criterion.params.setdefault("contains", [])
                if name not in names:
                    names.append(name)


def _carry(call: GoldCall, targets: list[_Target], generated: set[str]) -> None:
    """Make every value the call carried from an earlier result a key field of a criterion
    it owns: the record's id, a key field already, or the record field that holds it.

    Raises `ValueError` when no owned record holds the value (nothing checks it was used).
    """
    for param, binding in sorted(call.bindings.items()):
        value = call_arguments(call).get(param)
        if binding.kind == "visible" and isinstance(value, str) and \
                split_words(param)[-1:] in _TITLES and _holder(targets, value) is None:
            raise ValueError(f"{call.tool} is asked for its {param} {value!r}, but no record "
                             "it changed keeps it: nothing can check the request's title")
        if binding.kind != "hidden" or value is None or _generated(value, generated):
            continue
        if binding.type == "text":  # a body carried into a post: the post holds it, with
            _contained(targets, value)  # any words of the agent's around it
        if any(t.record_id == str(value) or any(json_equal(v, value) for v in
               t.criterion.params.get("fields", {}).values()) for t in targets):
            continue
        holder = _holder(targets, value)
        if holder is None:
            raise ValueError(f"{call.tool} carries {param} from an earlier result, but no "
                             "record it changed holds that value: nothing can check it was used")
        target, name = holder
        target.criterion.params["fields"][name] = target.record[name]


def _own_writes(calls: list[GoldCall], targets: list[_Target],
                generated: dict[str, set[str]]) -> None:
    """Check that every write owns a criterion and every change comes from a write, and make
    carried values key fields (`_carry`). Raises `ValueError` naming the first failure."""
    writers = {call.service for call in calls if call.effect != "read"}
    for target in targets:
        if target.criterion.service not in writers:
            raise ValueError(f"{target.criterion.service} changed, but the gold chain only "
                             "read from it: no criterion may expect an effect from a read")
    namers = {id(t): [i for i, c in enumerate(calls) if c.effect != "read"
                      and c.service == t.criterion.service and t.record_id in _scalars(c.arguments)]
              for t in targets}
    for target in targets:
        _edited_after_create(target, calls)
    owners: dict[int, list[int]] = {}
    for index, call in enumerate(calls):
        if call.effect == "read":
            continue
        own = generated[call.service]
        mine = [t for t in targets if t.criterion.service == call.service]
        owned = [t for t in mine if _covers(call, index, t, namers[id(t)], own)]
        if not owned:
            raise ValueError(f"write {index} ({call.tool}) leaves no change of its own in the "
                             "end state (undone or overwritten later): a skipped step would "
                             "pass unnoticed")
        _carry(call, owned, own)
        for target in owned:
            owners.setdefault(id(target), []).append(index)
    for target in targets:
        if id(target) not in owners:
            raise ValueError(f"a change in {target.criterion.service} "
                             f"({target.criterion.params['collection']} {target.record_id}) "
                             "comes from no write of the gold chain")


def _without_echoes(targets: list[_Target]) -> list[_Target]:
    """The targets less an action's logged event that a record it made already checks: a
    create that stores its customer and logs the call would otherwise be checked twice, in
    the same words (`A customer is created in Billbee with Name ...`, once per
    collection); else less a record whose fields the logged event checks already."""
    def made(target: _Target) -> bool:
        return target.criterion.kind == "record_created"

    def covers(record: Criterion, event: Criterion) -> bool:  # `companyId` as `company_id`
        fields = {snake_case(name): value for name, value in record.params["fields"].items()}
        sent = {snake_case(name): value for name, value in event.params["fields"].items()}
        return record.service == event.service and bool(sent) and all(
            name in fields and json_equal(fields[name], value)
            for name, value in sent.items()) and {
            snake_case(name) for name in event.params.get("written", [])} <= {
            snake_case(name) for name in record.params.get("written", [])}

    records = [t.criterion for t in targets
               if made(t) and t.criterion.params["collection"] != ACTION_LOG]
    kept = [t for t in targets if not (
        made(t) and t.criterion.params["collection"] == ACTION_LOG
        and any(covers(record, t.criterion) for record in records))]
    # ... and a record that only echoes what the logged call says (Postmark's `email`
    # record of `{To, id}` beside the send with its sender and text)
    events = [t.criterion for t in kept
              if made(t) and t.criterion.params["collection"] == ACTION_LOG]
    return [t for t in kept if not (
        made(t) and t.criterion.params["collection"] != ACTION_LOG
        and any(covers(event, t.criterion) for event in events))]


def _text(value: Any) -> str:
    return render_value(value)


def _clashes(candidate: Any, value: Any) -> bool:
    """Whether a competitor cannot be told apart from the value in an answer's text: equal,
    or one's text holds the other's."""
    return (json_equal(candidate, value) or value_in_text(value, _text(candidate))
            or value_in_text(candidate, _text(value)))


def _list_siblings(item: AnswerItem, calls: list[GoldCall]) -> list[Any]:
    """The same field of the other items of the list the answer value was picked from."""
    where = in_item(item.path)  # (the item a record's own first email is of: its record)
    if where is None or not 0 <= item.step < len(calls):
        return []
    try:
        items = value_at(calls[item.step].result, where[0])
    except KeyError:
        return []
    index, inner = where[1], where[2]
    found = []
    for position, element in enumerate(items if isinstance(items, list) else []):
        try:
            found.append(value_at(element, inner) if position != index else None)
        except KeyError:
            continue
    return found


def _neighbours(item: AnswerItem, calls: list[GoldCall], end: dict[str, State]) -> list[Any]:
    """The same field of the other records of every collection whose records hold the answer
    value in a field (the step's service, end state)."""
    if not 0 <= item.step < len(calls) or calls[item.step].service not in end:
        return []
    state = end[calls[item.step].service]
    found = []
    for collection in sorted(state.collections):
        records = [record for _, record in sorted(state.records(collection).items())]
        names = sorted({name for record in records for name, held in record.items()
                        if not isinstance(held, dict | list) and json_equal(held, item.value)})
        found += [record.get(name) for name in names for record in records]
    return found


def _shared(item: AnswerItem, calls: list[GoldCall], end: dict[str, State]) -> bool:
    """Whether the answer value does not single out one item: another item of its list, or
    another record of the step's collection, holds it in the same field (every channel
    created at the same minute), or, for a date or time, any other record of the task's
    services holds it (a contact created the minute the transfer was): then a dump of what
    a few reads return states it."""
    if any(json_equal(other, item.value) for other in _list_siblings(item, calls)):
        return True
    if not 0 <= item.step < len(calls) or calls[item.step].service not in end:
        return False
    dated = isinstance(item.value, str) and _TIMESTAMP.match(item.value) is not None
    holders = 0
    for service in sorted(end) if dated else [calls[item.step].service]:
        for collection in sorted(end[service].collections):
            held: dict[str, int] = {}
            for record in end[service].records(collection).values():
                for name, value in record.items():
                    if not isinstance(value, dict | list) and json_equal(value, item.value):
                        held[name] = held.get(name, 0) + 1
            holders += sum(held.values()) if dated else max(held.values(), default=0) > 1
    return holders > 1 if dated else holders > 0


def _competitors(item: AnswerItem, calls: list[GoldCall], end: dict[str, State],
                 answer: list[AnswerItem]) -> list[Any]:
    """Values an answer must not state beside `item.value` (`params["competitors"]`).

    Left out: anything equal to, inside or holding the value's text or another asked-for
    value or label (the answer could not avoid it), booleans, empty and short values
    (under 3 characters: "5" is in any sentence), objects and lists, and the gold calls'
    argument values (an honest answer may restate what it was told or used).
    """
    said = [*(a.value for a in answer), *(a.label for a in answer),
            *(a.selector.value for a in answer if a.selector is not None)]
    used = [v for call in calls for v in _scalars(call.arguments)]
    kept: dict[bytes, Any] = {}
    for candidate in [*_list_siblings(item, calls), *_neighbours(item, calls, end)]:
        if (candidate is None or isinstance(candidate, bool | dict | list)
                or len(_text(candidate).strip()) < 3
                or any(_clashes(candidate, other) for other in said)
                or _text(candidate) in used):
            continue
        kept.setdefault(canonical_json(candidate), candidate)
    return [kept[key] for key in sorted(kept)][:MAX_COMPETITORS]


def build_rubric(start: dict[str, State], end: dict[str, State], calls: list[GoldCall],
                 answer: list[AnswerItem], titles: dict[str, str],
                 params: Mapping[str, dict[str, str]] | None = None,
                 says: tuple[str, ...] = (), tells: tuple[str, ...] = ()) -> list[Criterion]:
    """The rubric of a gold run: its state changes, its answer values, and the guard.

    `start` and `end` map service names to the states before and after the gold calls;
    `titles` gives each service's human title for the descriptions; `params` (tool ->
    its parameters' semantic types) lets an action's logged event accept a value in
    another parameter of its kind (a supplier's phone in `mobile` or `phone`), and a created
    record a person's name in the other shape its create tool takes (`name` or `firstname`
    and `lastname`); `says` (the workflow's `Workflow.says`) are the words a message says
    where its text says none of the shared topics; `tells` (`Workflow.tells`) the facts it
    gives, each checked where the reference message says it. Criteria are numbered
    `c0, c1, ...`: services sorted, collections sorted (created, updated, deleted), then
    the answer items in order, then the `no_collateral_change` guard. Each is labelled
    with whether a do-nothing run passes it (only the guard does). Descriptions are whole
    sentences.

    Raises `ValueError` when the two states name different services, when an answer
    value is a boolean, null or empty (no final answer text can be checked for it), when a
    write owns no criterion or a carried value is checked by none, or when a change comes
    from no write (module docstring).
    """
    if start.keys() != end.keys():
        raise ValueError(f"start and end states hold different services: {sorted(start)} vs "
                         f"{sorted(end)}")
    targets: list[_Target] = []
    allowed: dict[str, Any] = {}
    generated: dict[str, set[str]] = {}
    for service in sorted(start):
        found, permitted = _service_criteria(service, start[service], end[service], calls,
                                             titles.get(service, service), params or {}, says,
                                             tells)
        targets.extend(found)
        generated[service] = {t.record_id for t in found
                              if t.criterion.kind == "record_created"}
        if permitted:
            allowed[service] = permitted
    _own_writes(calls, targets, generated)
    targets = _without_echoes(targets)
    criteria: list[Criterion] = []
    for target in targets:
        criterion = target.criterion
        if criterion.kind != "record_deleted":
            title = titles.get(criterion.service or "", criterion.service or "")
            criterion = criterion.model_copy(update={
                "description": _describe_change(target, title)})
        criteria.append(criterion)
    for item in answer:
        if isinstance(item.value, bool) or item.value in (None, "", [], {}):
            raise ValueError(f"answer item {item.label!r} is {item.value!r}: a boolean, null or "
                             "empty value cannot be checked in the answer text; ask for another")
        if _shared(item, calls, end):
            raise ValueError(f"answer item {item.label!r} ({item.value!r}) is shared by other "
                             "records: it names no one thing, and reading them all states it")
        competitors = _competitors(item, calls, end, answer)
        others = ", ".join(_show(c) for c in competitors[:3]) + (
            ", ..." if len(competitors) > 3 else "")
        criteria.append(Criterion(
            id="", kind="answer_contains", service=None,
            description=f"The final answer reports {item.label} ({_show(item.value)})" + (
                f" and none of the other candidates ({others})." if competitors else "."),
            params={"value": item.value, "label": item.label, "competitors": competitors},
        ))
    criteria.append(Criterion(
        id="", kind="no_collateral_change", service=None,
        description="Nothing else changes: no service has records created, updated or "
        "deleted beyond those the task asks for.",
        params={"allowed": allowed},
    ))
    return [
        criterion.model_copy(update={
            "id": f"c{index}",
            "noop_passes": evaluate_criterion(criterion, start, start, ""),
        })
        for index, criterion in enumerate(criteria)
    ]

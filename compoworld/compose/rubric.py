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
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from compoworld.compose.records import AnswerItem, Criterion, GoldCall
from compoworld.reward.rubric import evaluate_criterion, json_equal
from compoworld.world.state import State, diff

_AUTO_FIELD = re.compile(
    r"^_?(last_?)?(updated|modified|changed|edited)(_?(at|on|time|date|ts))?$"
    r"|^_?(version|etag|e_?tag|revision|rev|lock_?version|timestamp|date_?(modified|updated))$",
    re.IGNORECASE,
)
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}.*)?$")
_LABEL_FIELDS = ("name", "title", "subject", "filename", "email")
_FALLBACK_FIELDS = 3


def _auto_maintained(name: str) -> bool:
    """Whether a field looks kept up to date by the service (`updated_at`, `etag`, ...)."""
    return _AUTO_FIELD.match(name) is not None


def _argument_values(calls: list[GoldCall], service: str) -> list[tuple[str, Any]]:
    """(name, value) of every write-call argument of a service, one level into objects."""
    values: list[tuple[str, Any]] = []
    for call in calls:
        if call.service != service or call.effect == "read":
            continue
        for name, value in call.arguments.items():
            values.append((name, value))
            if isinstance(value, dict):
                values.extend(value.items())
    return values


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


def _fallback_fields(record: dict[str, Any], id_field: str, generated: set[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name, value in record.items():
        if len(fields) == _FALLBACK_FIELDS:
            break
        if (name == id_field or name == "id" or name.endswith("_id") or _auto_maintained(name)
                or not isinstance(value, str) or not value.strip()
                or _TIMESTAMP.match(value) or value in generated):
            continue
        fields[name] = value
    return fields


def _key_fields(record: dict[str, Any], id_field: str, given: list[tuple[str, Any]],
                generated: set[str]) -> dict[str, Any]:
    fields = {name: value for name, value in record.items()
              if name != id_field and _given(name, value, given, generated)}
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


def _show(value: Any, limit: int = 60) -> str:
    text = f"'{value}'" if isinstance(value, str) else orjson.dumps(value).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(fields: dict[str, Any]) -> str:
    parts = [f"{name.replace('_', ' ')} {_show(value)}" for name, value in fields.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _label(record: dict[str, Any]) -> str:
    person = " ".join(str(record[k]) for k in ("first_name", "last_name") if record.get(k))
    for name in _LABEL_FIELDS:
        if name == "email" and person:
            return f" ({person})"
        if isinstance(record.get(name), str) and record[name].strip():
            return f" ({_show(record[name], 40)[1:-1]})"
    return f" ({person})" if person else ""


def _service_criteria(service: str, before: State, after: State, calls: list[GoldCall],
                      title: str) -> tuple[list[Criterion], dict[str, Any]]:
    """The criteria of one service's changes, and what its guard allows."""
    changes = diff(before, after)
    given = _argument_values(calls, service)
    generated = {str(record.get(after.id_field(collection)))
                 for collection, change in changes.items() for record in change["created"]}
    criteria: list[Criterion] = []
    allowed: dict[str, Any] = {}
    for collection in sorted(changes):
        change, noun = changes[collection], _singular(collection)
        id_field = after.id_field(collection)
        for record in change["created"]:
            fields = _key_fields(record, id_field, given, generated)
            article = "An" if noun[:1].lower() in "aeiou" else "A"
            text = f"{article} {noun} is created in {title}"
            criteria.append(Criterion(
                id="", kind="record_created", service=service,
                description=text + (f" with {_describe(fields)}" if fields else ""),
                params={"collection": collection, "fields": fields},
            ))
        for update in change["updated"]:
            fields = _changed_fields(update, given, generated)
            criteria.append(Criterion(
                id="", kind="field_equals", service=service,
                description=f"The {noun} {update['id']}{_label(update['before'])} in {title} "
                f"has {_describe(fields)}",
                params={"collection": collection, "id": update["id"], "fields": fields},
            ))
        deleted = [str(record.get(id_field)) for record in change["deleted"]]
        for record_id, record in zip(deleted, change["deleted"], strict=True):
            criteria.append(Criterion(
                id="", kind="record_deleted", service=service,
                description=f"The {noun} {record_id}{_label(record)} is deleted from {title}",
                params={"collection": collection, "id": record_id},
            ))
        allowed[collection] = {"created": len(change["created"]),
                               "updated": [update["id"] for update in change["updated"]],
                               "deleted": deleted}
    return criteria, allowed


def build_rubric(start: dict[str, State], end: dict[str, State], calls: list[GoldCall],
                 answer: list[AnswerItem], titles: dict[str, str]) -> list[Criterion]:
    """The rubric of a gold run: its state changes, its answer values, and the guard.

    `start` and `end` map service names to the states before and after the gold calls;
    `titles` gives each service's human title for the descriptions. Criteria are numbered
    `c0, c1, ...`: services sorted, collections sorted (created, updated, deleted), then
    the answer items in order, then the `no_collateral_change` guard. Each is labelled
    with whether a do-nothing run passes it (only the guard does).

    Raises `ValueError` when the two states name different services, or when an answer
    value is a boolean, null or empty (no final answer text can be checked for it).
    """
    if start.keys() != end.keys():
        raise ValueError(f"start and end states hold different services: {sorted(start)} vs "
                         f"{sorted(end)}")
    criteria: list[Criterion] = []
    allowed: dict[str, Any] = {}
    for service in sorted(start):
        found, permitted = _service_criteria(service, start[service], end[service], calls,
                                             titles.get(service, service))
        criteria.extend(found)
        if permitted:
            allowed[service] = permitted
    for item in answer:
        if isinstance(item.value, bool) or item.value in (None, "", [], {}):
            raise ValueError(f"answer item {item.label!r} is {item.value!r}: a boolean, null or "
                             "empty value cannot be checked in the answer text; ask for another")
        criteria.append(Criterion(
            id="", kind="answer_contains", service=None,
            description=f"The final answer reports {item.label} ({_show(item.value)})",
            params={"value": item.value, "label": item.label},
        ))
    criteria.append(Criterion(
        id="", kind="no_collateral_change", service=None,
        description="Nothing else changes: no service has records created, updated or "
        "deleted beyond those the task asks for",
        params={"allowed": allowed},
    ))
    return [
        criterion.model_copy(update={
            "id": f"c{index}",
            "noop_passes": evaluate_criterion(criterion, start, start, ""),
        })
        for index, criterion in enumerate(criteria)
    ]

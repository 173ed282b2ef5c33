"""What a create stores and answers: what was sent, plus what a server sets.

A real API's create answers with the record it made: the fields the call sent, the new id,
created/updated stamps of now, a fresh status (an order `pending`, an invoice `draft`,
a customer `active`, as the schema's enum allows) and counters at zero; nothing else, and
certainly no archive, delete or restore stamps, no errors, no failure status.

- `server_fields(record, resource, given)`: (field, value) of those server-set fields of a
  record schema that no argument supplies; compiled creates fill them (compile_plan), and
  `envelope_extras` makes a compiled answer's envelope say success (`status_code` 201).
- `CreatedRecord(plan, tool, record)`: a create the world model runs (a modeled action)
  stores its record by `plan` (rest.py's create: sent fields, a new id, `server_fields`)
  and answers it (`CreatedAnswer`), in the result's shape. A result that is the
  record (bare, in a `data` envelope, in a one-item list, or unspecified `{}`) gets it; the
  envelope around it (an async push's `status`, `statusCode`, `requestedOnUtc`, ...) says
  success: a success status from its enum, no errors or validation notes, its stamps now,
  its data type the collection's, and no other drawn content. An answer that would no
  longer fit the result schema stays the world model's draw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import fastjsonschema

from compoworld.graph.semtypes import json_type, snake_case, split_words
from compoworld.services.rest import RestPlan, build_handler, clone
from compoworld.services.rest_shapes import (
    UNFILLABLE,
    RecordShape,
    filler,
    looks_like_record,
    record_shape,
)
from compoworld.specs.records import ToolSpec
from compoworld.world.clock import NOW, NOW_TEXT
from compoworld.world.state import State, ToolError, canonical_json, output_check
from compoworld.world.vocab import field_kind, fresh_status, resource_noun

_STAMPS = frozenset("created creation updated modified changed inserted added".split())
_COUNT = frozenset({"count", "counter"})
# Fresh statuses a status enum may offer, after its collection's own first status.
_FRESH = ("active", "open", "new", "pending", "draft", "created", "enabled", "scheduled",
          "queued", "submitted", "unpaid", "todo", "not_started", "confirmed", "available",
          "published", "live", "ok", "trialing")
# Success states of an operation (an async push), best first.
_SUCCESS = ("success", "succeeded", "successful", "complete", "completed", "done", "ok",
            "created", "accepted", "processed", "queued")
_ERRORS = frozenset("error errors warning warnings validation validations failure failures "
                    "exception exceptions problems".split())
_FINISHED = frozenset("completed complete finished ended done".split())
_IDS = frozenset("id ids key uuid guid sid".split())
_PLACE = frozenset({"city", "zip", "postal", "postcode", "country", "street", "address"})


_CHECKS: dict[bytes, Any] = {}


def _fits(schema: Any, value: Any) -> bool:
    """Whether `value` is valid for a field's `schema` (validators kept per schema)."""
    if not isinstance(schema, dict) or not schema:
        return True
    key = canonical_json(schema)
    check = _CHECKS.get(key)
    if check is None:
        try:
            check = fastjsonschema.compile(schema, use_default=False)
        except Exception:  # noqa: BLE001 - an uncompilable schema takes nothing
            check = False
        if len(_CHECKS) >= 4096:
            _CHECKS.clear()
        _CHECKS[key] = check
    if check is False:
        return False
    try:
        check(value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _now(schema: dict[str, Any]) -> Any:
    """Now, written as the field holds a time (a date, an instant, epoch seconds)."""
    if json_type(schema) in ("integer", "number"):
        return int(NOW.timestamp())
    return NOW_TEXT[:10] if schema.get("format") == "date" else NOW_TEXT


def _norm(value: Any) -> str:
    return snake_case(str(value)).replace("-", "_")


def status_value(schema: dict[str, Any], resource: str | None) -> Any:
    """A new record's status: the collection's first (`fresh_status`), else a fresh one of
    the schema's enum; None when the enum has none."""
    first = fresh_status(resource_noun(resource))
    enum = schema.get("enum")
    if not isinstance(enum, list):
        return first
    offered = {_norm(v): v for v in enum if isinstance(v, str)}
    return next((offered[s] for s in (first, *_FRESH) if s in offered), None)


def server_fields(record: dict[str, Any], resource: str | None, given: set[str]
                  ) -> tuple[tuple[str, Any], ...]:
    """(field, value) a server sets on a new record and no argument in `given` supplies:
    created/updated stamps (now), a fresh status, counters at zero."""
    props = record.get("properties") or {}
    place = bool(_PLACE & {w for key in props for w in split_words(key)})
    out = []
    for field, schema in props.items():
        if field in given or not isinstance(schema, dict) or field == record.get("x-id-field"):
            continue
        words = set(split_words(field))
        kind = json_type(schema)
        value: Any = None
        if words & _STAMPS and (kind == "string" and (
                schema.get("format") in ("date-time", "date") or words & {"at", "on", "date",
                                                                          "time"})
                or kind == "integer" and words & {"at", "time", "timestamp"}):
            value = _now(schema)
        elif kind == "string" and field_kind(field, schema, resource, place=place) == "status":
            value = status_value(schema, resource)
        elif kind in ("integer", "number") and (words & _COUNT or split_words(field)[:1] == [
                "num"]):
            value = 0
        if value is not None and _fits(schema, value):
            out.append((field, value))
    return tuple(out)


def _success(schema: dict[str, Any], value: Any) -> Any:
    """A success state for an operation's status field (`Success`, `Complete`, `Queued`)."""
    enum = schema.get("enum")
    if isinstance(enum, list):
        offered = {_norm(v): v for v in enum if isinstance(v, str)}
        return next((offered[s] for s in _SUCCESS if s in offered), value)
    return value if _norm(value) in (*_SUCCESS, "ok") else "success"


def envelope_extras(extras: tuple[tuple[str, Any], ...], returns: dict[str, Any],
                    operation: str, collection: str) -> tuple[tuple[str, Any], ...]:
    """The fields of a compiled answer's envelope (`status_code`, `status`, `resource`),
    saying the call succeeded (201 and `Created` for a create, 200 and `OK` otherwise)
    instead of the fillers' zeros and empty strings, where the schema takes them."""
    props = returns.get("properties") if isinstance(returns.get("properties"), dict) else {}
    created = operation == "create"
    out = []
    for name, value in extras:
        schema = props.get(name) if isinstance(props.get(name), dict) else {}
        words = split_words(name)
        better: Any = None
        if words[-1:] == ["code"] and type(value) is int:
            better = 201 if created and _fits(schema, 201) else 200
        elif words[-1:] in (["status"], ["state"]) and isinstance(value, str):
            better = _success(schema, "Created" if created else "OK")
        elif words == ["resource"] and isinstance(value, str):
            better = collection
        elif words == ["operation"] and isinstance(value, str):
            better = operation
        out.append((name, better if better is not None and _fits(schema, better) else value))
    return tuple(out)


class CreatedAnswer:
    """The answer of one modeled create (see the module docstring)."""

    def __init__(self, tool: ToolSpec, record: dict[str, Any], collection: str) -> None:
        returns = tool.returns if isinstance(tool.returns, dict) else {}
        self.collection = collection
        self.id_field = record.get("x-id-field", "id")
        self.props = returns.get("properties") if isinstance(returns.get("properties"),
                                                             dict) else {}
        self.required = set(returns.get("required") or ())
        # an unspecified result (`{}`, `{"type": "object"}`): the record itself
        self.bare = not self.props and "items" not in returns and \
            returns.get("type", "object") == "object" and \
            returns.get("additionalProperties") is not False
        self.shape = record_shape(returns, record)
        self.like = bool(self.props) and looks_like_record(returns, record)
        self.check: Callable[[Any], str | None] = output_check(returns)

    def __call__(self, record: dict[str, Any], drawn: Any, arguments: dict[str, Any]) -> Any:
        keep = self.shape.keep
        own = {k: v for k, v in record.items() if keep is None or k in keep}
        if self.shape.as_list:
            answer: Any = [own]
        elif self.bare:
            answer = own
        elif self.shape.wrap is not None:
            envelope = drawn if isinstance(drawn, dict) else {}
            answer = {**self._envelope(envelope, arguments, record, strict=True),
                      self.shape.wrap: own}
        elif self.like:
            rest = {k: v for k, v in (drawn if isinstance(drawn, dict) else {}).items()
                    if k in self.required and k not in own}
            answer = {**self._envelope(rest, arguments, record, strict=True), **own}
        elif isinstance(drawn, dict):
            answer = self._envelope(drawn, arguments, record, strict=False)
        else:
            return drawn
        return answer if self.check(answer) is None else drawn

    def _envelope(self, drawn: dict[str, Any], arguments: dict[str, Any],
                  record: dict[str, Any], strict: bool) -> dict[str, Any]:
        """The fields around the record, saying success; with `strict`, only those a server
        sets around it (ids, status, stamps, the data type) and the required ones."""
        out: dict[str, Any] = {}
        status = None
        for key, value in drawn.items():
            schema = self.props.get(key) if isinstance(self.props.get(key), dict) else {}
            words = split_words(key)
            if key in arguments and arguments[key] == value:
                out[key] = value
            elif set(words) & _ERRORS:
                empty = filler(schema) if key in self.required else UNFILLABLE
                if empty is not UNFILLABLE:
                    out[key] = empty
            elif words[-1:] in (["status"], ["state"]) and isinstance(value, str):
                status = out[key] = _success(schema, value)
            elif words[-1:] == ["code"] and isinstance(value, int) or key in ("success", "ok"):
                out[key] = next((v for v in (201, 200, True) if type(v) is type(value)
                                 and _fits(schema, v)), value)
            elif json_type(schema) == "string" and set(words) & {"on", "at", "utc", "time",
                                                                  "date"}:
                out[key] = NOW_TEXT if _fits(schema, NOW_TEXT) else value
            elif words[-1:] and words[-1] in _IDS:
                out[key] = record.get(self.id_field, value) if key == self.id_field else value
            elif isinstance(schema.get("enum"), list) and self.collection in map(
                    str, schema["enum"]):
                out[key] = self.collection  # an async push's `dataType`: customers
            elif not strict and not isinstance(value, dict | list) or key in self.required:
                out[key] = value
        if status is not None and _norm(status) not in _SUCCESS[:7]:
            for key in list(out):  # queued, not yet done: no completion stamp
                if set(split_words(key)) & _FINISHED and key not in self.required:
                    del out[key]
        return out


class CreatedRecord:
    """A modeled create: it stores the new record (`plan`: its fields, id and fill) and
    answers with it; a record the state refuses (a sent id taken, a required field
    missing) is still answered, unstored."""

    def __init__(self, plan: RestPlan, tool: ToolSpec, record: dict[str, Any]) -> None:
        self.plan = plan
        self.store = build_handler(replace(plan, record=RecordShape()))
        self.answer = CreatedAnswer(tool, record, plan.collection)

    def __call__(self, state: State, arguments: dict[str, Any], drawn: Any) -> Any:
        try:
            record = self.store(state, arguments)
        except ToolError:
            record = {field: clone(arguments[arg]) for arg, field in self.plan.fields
                      if arg in arguments}
            for field, value in self.plan.fill:
                record.setdefault(field, clone(value))
        return self.answer(record, drawn, arguments)

"""Typed state: collections of validated records, the domain errors tools raise, and the
JSON helpers every stage keys on (DESIGN.md, "The call protocol").

`State` holds `collection -> id -> record`; `State.put` validates a record against its
collection's schema before storing it, so a write never leaves an invalid record. Tools and
the world model raise `ToolError`s (`NotFound`, `Conflict`, ...); `services.runtime`'s
dispatcher is the only place that turns them into error results. `diff` gives the records
created, updated and deleted between two states (AppWorld's `changed_records`).
Validation uses fastjsonschema (compiled lazily per schema, ~2 µs a call) because a call
must cost tens of microseconds, not the ~100 µs of a generic validator.

The state lives in `world/` (below `services/`) because seeding a world makes one, and the
world model reads and writes it without importing the services that run tools.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import fastjsonschema
import orjson

Handler = Callable[["State", dict[str, Any]], Any]


class ToolError(Exception):
    """A domain error a tool raises; the dispatcher turns it into an error result."""

    code = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(ToolError):
    """The arguments are malformed (400)."""

    code = 400


class NotFound(ToolError):
    """No record has the given id (404)."""

    code = 404


class Conflict(ToolError):
    """The call clashes with the state, e.g. a duplicate id (409)."""

    code = 409


class Unprocessable(ToolError):
    """Well-formed, but the result would not be a valid record (422)."""

    code = 422


_VALIDATORS: dict[bytes, Callable[[Any], Any]] = {}
_MAX_VALIDATORS = 4096


def compile_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    """A fast validator for `schema`; raises `BadRequest` naming the first bad field.

    Compiled validators are shared by every state and tool with the same schema (compiling
    is most of the cost of seeding a world). A schema fastjsonschema cannot compile (some
    regexes it translates badly) is checked by jsonschema instead, slower but correct.
    """
    key = canonical_json(schema or {})
    validate = _VALIDATORS.get(key)
    if validate is None:
        if len(_VALIDATORS) >= _MAX_VALIDATORS:  # bounded: a full-corpus run has ~10^5 schemas
            del _VALIDATORS[next(iter(_VALIDATORS))]
        validate = _VALIDATORS[key] = _build_validator(schema or {})
    return validate


_OUTPUT_CHECKS: dict[bytes, Callable[[Any], str | None]] = {}


def output_check(schema: dict[str, Any]) -> Callable[[Any], str | None]:
    """A checker of results against a `returns` schema: the problem, or None when valid.

    Results are checked once per answer (verification, the world model), not on every
    call's hot path, so this uses jsonschema, whose set-up is ~100x cheaper than compiling
    the large response schemas of real APIs with fastjsonschema (~20 ms each).
    """
    import jsonschema

    key = canonical_json(schema or {})
    check = _OUTPUT_CHECKS.get(key)
    if check is None:
        if len(_OUTPUT_CHECKS) >= _MAX_VALIDATORS:
            del _OUTPUT_CHECKS[next(iter(_OUTPUT_CHECKS))]
        validator = jsonschema.Draft7Validator(
            schema or {}, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
        )

        def check(value: Any) -> str | None:
            try:
                error = jsonschema.exceptions.best_match(validator.iter_errors(value))
            except Exception as failure:  # noqa: BLE001 - e.g. a pattern Python cannot compile
                return f"schema unusable: {type(failure).__name__}: {failure}"
            if error is None:
                return None
            where = ".".join(str(part) for part in error.absolute_path) or "result"
            return f"invalid {where}: {error.message}"

        _OUTPUT_CHECKS[key] = check
    return check


def _build_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    try:
        check = fastjsonschema.compile(schema, use_default=False)
    except Exception:  # noqa: BLE001 - fastjsonschema's own translation failed
        return _jsonschema_validator(schema)

    def validate(value: Any) -> Any:
        try:
            return check(value)
        except fastjsonschema.JsonSchemaValueException as error:
            where = ".".join(str(part) for part in error.path[1:]) or "arguments"
            message = error.message.replace("data.", "", 1).replace("data ", "arguments ", 1)
            raise BadRequest(f"invalid {where}: {message}") from None

    return validate


def _jsonschema_validator(schema: dict[str, Any]) -> Callable[[Any], Any]:
    import jsonschema

    checker = jsonschema.Draft7Validator(schema)

    def validate(value: Any) -> Any:
        error = jsonschema.exceptions.best_match(checker.iter_errors(value))
        if error is not None:
            where = ".".join(str(part) for part in error.absolute_path) or "arguments"
            raise BadRequest(f"invalid {where}: {error.message}")
        return value

    return validate


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes (sorted keys): what digests and caches are keyed on.

    orjson refuses integers beyond 64 bits, which some real schemas hold (a `maximum` of
    2^64); those values are written by the standard library instead, still sorted and
    deterministic (three corpus services failed to build on it).
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode()


def json_text(value: Any) -> str:
    """JSON text of a value in its own key order (what JSON columns store). Integers past
    64 bits, which a schema can demand (`minimum: 2^64`) and a world model answer then
    holds, are written by the standard library: orjson refuses them."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def string_leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, text) of every string of a JSON value, the key its nearest object key (a
    list's strings share the key of the list)."""
    if isinstance(value, dict):
        for inner, sub in value.items():
            yield from string_leaves(sub, inner)
    elif isinstance(value, list):
        for sub in value:
            yield from string_leaves(sub, key)
    elif isinstance(value, str):
        yield key, value


class State:
    """Collections of records (`collection -> id -> record`), validated on every write."""

    __slots__ = ("collections", "next_ids", "schemas", "_validators")

    def __init__(
        self,
        schemas: dict[str, dict[str, Any]] | None = None,
        collections: dict[str, dict[str, dict[str, Any]]] | None = None,
        next_ids: dict[str, int] | None = None,
    ) -> None:
        self.schemas = schemas or {}
        self.collections = collections if collections is not None else {}
        self.next_ids = next_ids if next_ids is not None else {}
        self._validators: dict[str, Callable[[Any], Any]] = {}
        for name in self.schemas:
            self.collections.setdefault(name, {})

    def id_field(self, collection: str) -> str:
        """Name of the id field of a collection's records (`x-id-field`, default `id`)."""
        return self.schemas.get(collection, {}).get("x-id-field", "id")

    def records(self, collection: str) -> dict[str, dict[str, Any]]:
        """The records of a collection by id (empty when unknown; reading adds nothing)."""
        return self.collections.get(collection, {})

    def get(self, collection: str, record_id: Any) -> dict[str, Any]:
        """One record; `NotFound` with a plain sentence when there is none."""
        record = self.records(collection).get(str(record_id))
        if record is None:
            raise NotFound(f"no {collection} record has id {record_id!r}; list {collection} "
                           "to see the ids that exist")
        return record

    def new_id(self, collection: str) -> str:
        """The next id of a collection: deterministic, never reused after a delete."""
        number = self.next_ids.get(collection, 0) + 1
        self.next_ids[collection] = number
        return f"{collection[:3]}_{number:04d}"

    def validate(self, collection: str, record: dict[str, Any]) -> None:
        """Check a record against its collection's schema; `Unprocessable` when it fails."""
        if collection not in self.schemas:
            return
        validator = self._validators.get(collection)
        if validator is None:
            validator = self._validators[collection] = compile_validator(self.schemas[collection])
        try:
            validator(record)
        except BadRequest as error:
            raise Unprocessable(f"{collection} record: {error.message}") from None

    def put(self, collection: str, record: dict[str, Any]) -> dict[str, Any]:
        """Validate and store a record under its id field; returns it."""
        self.validate(collection, record)
        self.collections.setdefault(collection, {})[str(record[self.id_field(collection)])] = record
        return record

    def delete(self, collection: str, record_id: Any) -> dict[str, Any]:
        """Remove and return a record; `NotFound` when there is none."""
        record = self.get(collection, record_id)
        del self.records(collection)[str(record_id)]
        return record

    def dump(self) -> dict[str, Any]:
        """A JSON-able copy of the state (records and id counters)."""
        return copy.deepcopy({"collections": self.collections, "next_ids": self.next_ids})

    @classmethod
    def load(cls, data: dict[str, Any], schemas: dict[str, dict[str, Any]] | None = None):
        """The state `dump` gave (a deep copy: the two never share records)."""
        data = copy.deepcopy(data)
        return cls(schemas, data.get("collections", {}), data.get("next_ids", {}))

    def copy(self) -> State:
        """An independent copy sharing only the (read-only) schemas and validators.

        Records are JSON by contract, so an orjson round trip copies them (~7x faster than
        `deepcopy`: it is what makes a world reset cost microseconds).
        """
        try:
            records = orjson.loads(orjson.dumps(self.collections))
        except TypeError:  # e.g. an integer beyond 64 bits: orjson refuses, deepcopy copes
            records = copy.deepcopy(self.collections)
        clone = State(self.schemas, records, dict(self.next_ids))
        clone._validators = self._validators
        return clone

    def digest(self) -> str:
        """SHA-256 of the canonical state: equal states have equal digests."""
        return hashlib.sha256(
            canonical_json({"collections": self.collections, "next_ids": self.next_ids})
        ).hexdigest()


def diff(before: State, after: State) -> dict[str, dict[str, list[Any]]]:
    """Records created, updated and deleted per collection (AppWorld's `changed_records`).

    Only collections that changed appear. Updated entries give the id, the record before
    and after, and the names of the fields that changed.
    """
    changes: dict[str, dict[str, list[Any]]] = {}
    for collection in sorted(set(before.collections) | set(after.collections)):
        old = before.collections.get(collection, {})
        new = after.collections.get(collection, {})
        created = [new[key] for key in sorted(new.keys() - old.keys())]
        deleted = [old[key] for key in sorted(old.keys() - new.keys())]
        updated = [
            {
                "id": key,
                "before": old[key],
                "after": new[key],
                "fields": _changed_fields(old[key], new[key]),
            }
            for key in sorted(old.keys() & new.keys())
            if old[key] != new[key]
        ]
        if created or deleted or updated:
            changes[collection] = {"created": created, "updated": updated, "deleted": deleted}
    return changes


def _changed_fields(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    return sorted(name for name in old.keys() | new.keys() if old.get(name) != new.get(name))

"""What the sandbox's parent accepts from a worker: strict JSON lines and valid state.

A worker runs hostile code, so each reply line is read as untrusted input: strict JSON (no
NaN or Infinity), at most `MAX_DEPTH` levels deep where it is kept, and returned state only
when it is state the handler could have made through `State`: the same collections, records
valid against their schemas and stored under their own ids, integer id counters that never
go back. Anything else raises `BadReply`, which the parent turns into a `protocol`
violation.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from compoworld.world.state import State, ToolError

MAX_DEPTH = 100  # far beyond any API record; keeps every later recursive walk safe
_LONG_INTEGER = re.compile(rb"\d{19}")  # orjson reads integers past 64 bits as floats


class BadReply(ValueError):
    """A reply line the parent refuses; the message is one sentence."""


def parse_line(line: bytes) -> dict[str, Any]:
    """The JSON object on one reply line."""
    try:
        value = orjson.loads(line)  # strict: refuses NaN/Infinity, at most 1024 levels
    except orjson.JSONDecodeError as error:
        raise BadReply(f"the worker wrote a line that is not strict JSON ({error})") from None
    if _LONG_INTEGER.search(line):  # maybe an integer orjson made a float: read it exactly
        check_depth(value, "the reply")  # json's recursion stays far from Python's limit
        value = json.loads(line, parse_constant=_refuse_constant)
    if not isinstance(value, dict):
        raise BadReply(f"the worker wrote {line[:200]!r}, not a JSON object")
    return value


def _refuse_constant(name: str) -> Any:
    raise BadReply(f"the worker wrote {name}, which is not JSON")


def check_depth(value: Any, what: str) -> None:
    """Refuse containers nested deeper than `MAX_DEPTH` (iteratively: no recursion here)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item \
            if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth >= MAX_DEPTH:
                    raise BadReply(f"{what} is nested deeper than {MAX_DEPTH} levels")
                stack.append((child, depth + 1))


def checked_state(state: State, reply: Any) -> tuple[dict[str, Any], dict[str, int]]:
    """The reply's (collections, next_ids) once valid for `state`; unchanged records are
    `state`'s own objects again. Only records that changed are validated."""
    if not isinstance(reply, dict) or set(reply) != {"collections", "next_ids"}:
        raise BadReply("the reply's state is not {collections, next_ids}")
    collections, next_ids = reply["collections"], reply["next_ids"]
    known = set(state.collections) | set(state.schemas)
    if not isinstance(collections, dict) or not set(state.collections) <= set(collections) \
            <= known:
        got = sorted(collections) if isinstance(collections, dict) else type(collections).__name__
        raise BadReply(f"the handler changed the set of collections (to {got!r:.200}); only "
                       "records may change")
    for name, records in collections.items():
        if not isinstance(records, dict):
            raise BadReply(f"collection {name!r} is not an object of records")
        old, id_field = state.collections.get(name, {}), state.id_field(name)
        for key, record in records.items():
            if key in old and old[key] == record:
                records[key] = old[key]  # same value: keep ours (exact numbers, no copy)
                continue
            if not isinstance(record, dict) or str(record.get(id_field)) != key:
                raise BadReply(f"the {name} record stored under {key!r:.60} does not carry "
                               f"that id in its {id_field!r} field")
            check_depth(record, f"the {name} record {key!r:.60}")
            try:
                state.validate(name, record)
            except ToolError as error:
                raise BadReply(f"the handler stored an invalid record: {error.message}") from None
    if not isinstance(next_ids, dict) or not set(state.next_ids) <= set(next_ids) <= known:
        raise BadReply("the handler added or removed id counters of unknown collections")
    for name, number in next_ids.items():
        if type(number) is not int or number < state.next_ids.get(name, 0):
            raise BadReply(f"the id counter of {name!r} became {number!r:.60}; counters are "
                           "integers that only grow")
    return collections, next_ids

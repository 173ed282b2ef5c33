"""List semantics for compiled tools: which records match, and which page of them.

- `matcher(filter, value)`: `eq` compares case-insensitively for strings and as text
  across types (`"5"` matches `5`); a list-valued field matches when any item does; `in`
  matches any of the given values; `contains` is a case-insensitive substring of one
  field; `search` of any top-level string field (or string item of a list field).
- `window(args, paging, matches, id_field)`: (start, size). Size is the limit argument,
  else its default, else everything. Start is the offset argument; a page number moves
  it by whole pages (1-based unless the plan says 0); a cursor is the id of the record to
  start after (what a listing envelope's next cursor holds), or a number (an offset); any
  other cursor is a 400. Values that are not whole numbers are a 400 naming the parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compoworld.world.state import BadRequest


@dataclass(frozen=True, slots=True)
class Filter:
    """A list parameter that narrows the records: `eq`, `in`, `contains` or `search`."""

    param: str
    field: str  # "" for `search` (any top-level string field)
    mode: str


@dataclass(frozen=True, slots=True)
class Paging:
    """The list parameters that pick a window of the matching records."""

    limit: str | None = None
    default_limit: int | None = None
    offset: str | None = None
    page: str | None = None
    page_base: int = 1
    cursor: str | None = None


def _norm(value: Any) -> Any:
    return value.casefold() if type(value) is str else value


def _equal(value: Any, want: Any) -> bool:
    if type(value) is list:
        return any(_equal(item, want) for item in value)
    value = _norm(value)
    return value == want or (value is not None and type(value) is not type(want)
                             and str(value).casefold() == str(want).casefold())


def _contains(value: Any, want: str) -> bool:
    if type(value) is list:
        return any(_contains(item, want) for item in value)
    return type(value) is str and want in value.casefold()


def matcher(rule: Filter, value: Any) -> Callable[[dict[str, Any]], bool]:
    """A test a record passes when it matches `rule` given the argument `value`."""
    field = rule.field
    if rule.mode == "eq":
        want = _norm(value)
        return lambda record: _equal(record.get(field), want)
    if rule.mode == "in":
        wants = [_norm(v) for v in (value if type(value) is list else [value])]
        return lambda record: any(_equal(record.get(field), w) for w in wants)
    text = str(value).casefold()
    if rule.mode == "contains":
        return lambda record: _contains(record.get(field), text)
    return lambda record: any(_contains(v, text) for v in record.values())


def _whole(value: Any, name: str) -> int:
    try:
        if type(value) is bool:
            raise ValueError
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest(f"{name} must be a whole number, not {value!r}") from None


def window(args: dict[str, Any], paging: Paging, matches: list[dict[str, Any]],
            id_field: str) -> tuple[int, int | None]:
    """(start, size) of the page the paging arguments ask for; size None: all."""
    size = paging.default_limit
    if paging.limit and args.get(paging.limit) is not None:
        size = max(_whole(args[paging.limit], paging.limit), 0)
    start = 0
    if paging.offset and args.get(paging.offset) is not None:
        start = max(_whole(args[paging.offset], paging.offset), 0)
    if paging.page and args.get(paging.page) is not None:
        index = _whole(args[paging.page], paging.page) - paging.page_base
        if index > 0:
            start = index * size if size is not None else len(matches)
    cursor = args.get(paging.cursor) if paging.cursor else None
    if cursor not in (None, ""):
        text = str(cursor)
        start = next((i + 1 for i, r in enumerate(matches) if str(r.get(id_field)) == text),
                     -1)
        if start < 0:
            if not text.isdigit():
                raise BadRequest(f"{paging.cursor} {cursor!r} is not the id of a listed "
                                 "record; list again without it")
            start = int(text)
    return start, size

"""Values and result shapes for compiled REST tools, all worked out at compile time.

- `filler(schema)`: a deterministic value that satisfies a field's schema, for fields the
  server sets (`created`, `object`, `livemode`, ...) and envelope fields nobody else fills;
  `UNFILLABLE` when no such value is known.
- `pattern_sample(pattern, number)`: the `number`-th string a simple regex matches
  (`^ZS[0-9a-fA-F]{32}$`, 7 -> `ZS000...07`): ids and fields with a `pattern`.
- `record_shape(returns, record)`: whether one record comes back bare or wrapped in an
  envelope property (`{"data": {...}}`), and the envelope's other required fields.
- `list_shape(returns, collection)`: a plain list, the list of ids, or an envelope with the
  list under `data`/`items`/`results`/`<collection>`/... plus the count, has-more and
  next-cursor fields it declares; None when the result is not a list at all.
"""

from __future__ import annotations

import re
import re._constants as _sre  # the stdlib's own regex parser: ids that fit a `pattern`
import re._parser as _sre_parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compoworld.graph.semtypes import json_type, snake_case
from compoworld.specs.resources import list_envelope, list_keys

UNFILLABLE: Any = object()

_FORMAT_VALUES = {
    "date-time": "1970-01-01T00:00:00Z", "datetime": "1970-01-01T00:00:00Z",
    "date": "1970-01-01", "time": "00:00:00Z", "email": "user@example.com",
    "idn-email": "user@example.com", "uri": "https://example.com",
    "url": "https://example.com", "iri": "https://example.com",
    "uri-reference": "https://example.com", "iri-reference": "https://example.com",
    "uuid": "00000000-0000-0000-0000-000000000000", "hostname": "example.com",
    "idn-hostname": "example.com", "ipv4": "127.0.0.1", "ipv6": "::1",
}
_RECORD_KEYS = ("data", "item", "result", "record", "value", "object", "resource", "entity")
_TOTAL_KEYS = frozenset({"total", "total_count", "count", "total_results", "total_size",
                         "total_items", "total_records", "total_entries"})
_MORE_KEYS = frozenset({"has_more", "has_next", "has_next_page", "more"})
_NEXT_KEYS = frozenset({"next_cursor", "next_page_token", "next_token", "cursor",
                        "continuation_token", "next_marker", "next_page_cursor", "end_cursor"})


def filler(schema: Any, depth: int = 0) -> Any:
    """A value valid for `schema` (default, const, enum, a format's example, zero, ...)."""
    if not isinstance(schema, dict) or depth > 6:
        return UNFILLABLE if depth > 6 else None
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    for key in ("enum", "x-enum-sample"):
        values = schema.get(key)
        if isinstance(values, list) and values:
            return values[0]
    if "type" not in schema:
        for key in ("oneOf", "anyOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                return filler(branches[0], depth + 1)
        if not schema.keys() - {"description", "title", "readOnly", "x-unresolved"}:
            return None  # an unconstrained schema takes anything
    kind = schema.get("type")
    if isinstance(kind, list) and "null" in kind:
        return None
    kind = json_type(schema)
    if kind == "string":
        return _string(schema)
    if kind in ("integer", "number"):
        return _number(schema, kind)
    if kind == "boolean":
        return False
    if kind == "array":
        count = schema.get("minItems") or 0
        if not count:
            return []
        item = filler(schema.get("items", {}), depth + 1)
        return UNFILLABLE if item is UNFILLABLE else [item] * count
    out: dict[str, Any] = {}
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    for name in schema.get("required") or ():
        value = filler(props.get(name, {}), depth + 1)
        if value is UNFILLABLE:
            return UNFILLABLE
        out[name] = value
    return out


def _string(schema: dict[str, Any]) -> Any:
    fmt = schema.get("format")
    value = _FORMAT_VALUES.get(fmt.lower(), "") if isinstance(fmt, str) else ""
    value = value.ljust(schema.get("minLength") or 0, "x")
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not _matches(pattern, value):
        sample = pattern_sample(pattern, 0)
        return UNFILLABLE if sample is None else sample
    return value


def _matches(pattern: str, value: str) -> bool:
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return False


_CATEGORIES = {
    _sre.CATEGORY_DIGIT: "0123456789",
    _sre.CATEGORY_WORD: "0123456789abcdefghijklmnopqrstuvwxyz",
    _sre.CATEGORY_NOT_SPACE: "0123456789abcdefghijklmnopqrstuvwxyz",
    _sre.CATEGORY_NOT_DIGIT: "abcdefghijklmnopqrstuvwxyz",
    _sre.CATEGORY_NOT_WORD: "-",
    _sre.CATEGORY_SPACE: " ",
}
_OPEN_REPEAT = 6  # characters drawn for `+` / `*` / `{n,}` beyond their minimum


def pattern_sample(pattern: str, number: int) -> str | None:
    """A string matching `pattern` that encodes `number` in its character-class slots;
    None when the pattern uses anything beyond literals, classes, groups, alternation and
    repeats (or the result does not match after all)."""
    sampler = pattern_sampler(pattern)
    return None if sampler is None else sampler(number)


def pattern_sampler(pattern: str) -> Callable[[int], str | None] | None:
    """`pattern_sample` with the parsing done once (a parse costs ~150 µs, a sample ~3)."""
    try:
        tree = _sre_parse.parse(pattern)
        compiled = re.compile(pattern)
    except (re.error, RecursionError, ValueError, TypeError):
        return None
    template: list[str] = []
    slots: list[tuple[int, str]] = []
    if not _emit(tree, template, slots):
        return None
    slots.reverse()

    def sample(number: int) -> str | None:
        out = template.copy()
        for position, alphabet in slots:
            out[position] = alphabet[number % len(alphabet)]
            number //= len(alphabet)
        text = "".join(out)
        return text if compiled.search(text) else None

    return sample


def _emit(tree: Any, out: list[str], slots: list[tuple[int, str]]) -> bool:
    for op, arg in tree:
        if op is _sre.LITERAL:
            out.append(chr(arg))
        elif op is _sre.NOT_LITERAL:
            alphabet = _CATEGORIES[_sre.CATEGORY_WORD].replace(chr(arg), "")
            slots.append((len(out), alphabet))
            out.append(alphabet[0])
        elif op is _sre.ANY:
            slots.append((len(out), _CATEGORIES[_sre.CATEGORY_WORD]))
            out.append("0")
        elif op is _sre.IN:
            alphabet = _alphabet(arg)
            if not alphabet:
                return False
            slots.append((len(out), alphabet))
            out.append(alphabet[0])
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT):
            low, high, sub = arg
            count = low if high == low else min(max(low, _OPEN_REPEAT), high)
            for _ in range(min(count, 256)):
                if not _emit(sub, out, slots):
                    return False
        elif op is _sre.SUBPATTERN:
            if not _emit(arg[-1], out, slots):
                return False
        elif op is _sre.BRANCH:
            if not _emit(arg[1][0], out, slots):
                return False
        elif op is not _sre.AT:
            return False
    return True


def _alphabet(items: list[Any]) -> str:
    if items and items[0][0] is _sre.NEGATE:
        banned = set(_alphabet(items[1:]) or "")
        return "".join(c for c in _CATEGORIES[_sre.CATEGORY_WORD] if c not in banned)
    chars: list[str] = []
    for op, arg in items:
        if op is _sre.LITERAL:
            chars.append(chr(arg))
        elif op is _sre.RANGE:
            chars += [chr(c) for c in range(arg[0], min(arg[1], arg[0] + 61) + 1)]
        elif op is _sre.CATEGORY and arg in _CATEGORIES:
            chars += _CATEGORIES[arg]
        else:
            return ""
    return "".join(sorted(set(chars), key=chars.index))


def _number(schema: dict[str, Any], kind: str) -> Any:
    value: float = 0
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(low, int | float) and not isinstance(low, bool):
        value = max(value, low)
    if isinstance(schema.get("exclusiveMinimum"), int | float):
        value = max(value, schema["exclusiveMinimum"] + 1)
    if isinstance(high, int | float) and not isinstance(high, bool) and value > high:
        value = high
    return int(value) if kind == "integer" and float(value).is_integer() else value


def _props(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return {}
    return schema["properties"]


def required_fillers(schema: dict[str, Any], taken: set[str]) -> tuple[tuple[str, Any], ...]:
    """(name, filler) for a result's required properties not in `taken` (that the handler
    does not set itself) and that have a valid filler."""
    props = _props(schema)
    out = []
    for name in schema.get("required") or ():
        if name not in taken:
            value = filler(props.get(name, {}))
            if value is not UNFILLABLE:
                out.append((name, value))
    return tuple(out)


def _keep(schema: Any) -> frozenset[str] | None:
    """The fields a returned record may have: all (None) unless its schema forbids extras
    (then the link fields and added ids the record holds are left out of the answer)."""
    if isinstance(schema, dict) and schema.get("additionalProperties") is False:
        return frozenset(_props(schema))
    return None


@dataclass(frozen=True, slots=True)
class RecordShape:
    """How one record is returned: bare, as a one-item list, or under `wrap`; only the
    `keep` fields when that is set."""

    wrap: str | None = None
    as_list: bool = False
    extras: tuple[tuple[str, Any], ...] = ()
    keep: frozenset[str] | None = None


def record_shape(returns: dict[str, Any], record: dict[str, Any]) -> RecordShape:
    """Bare unless `returns` is an envelope around one record (`{"data": {...}}`)."""
    if json_type(returns) == "array" and "items" in returns:
        return RecordShape(as_list=True, keep=_keep(returns["items"]))
    props = _props(returns)
    if not props or looks_like_record(returns, record):
        return RecordShape(keep=_keep(returns))
    for name in (*_RECORD_KEYS, *props):
        sub = props.get(name)
        if isinstance(sub, dict) and json_type(sub) == "object" and (
            name in _RECORD_KEYS or looks_like_record(sub, record)
        ):
            return RecordShape(wrap=name, extras=required_fillers(returns, {name}), keep=_keep(sub))
    return RecordShape()


def looks_like_record(schema: Any, record: dict[str, Any]) -> bool:
    """Whether a result schema describes the record itself (its id field, or half its
    properties), not a deletion receipt (`{"id", "deleted"}`)."""
    props, fields = _props(schema), _props(record)
    if not props or ("deleted" in props and "deleted" not in fields):
        return False
    if record.get("x-id-field", "id") in props:
        return True
    return len(props.keys() & fields.keys()) * 2 >= max(len(props), 1)


@dataclass(frozen=True, slots=True)
class ListShape:
    """How a list of records is returned (see the module docstring)."""

    kind: str = "list"  # list | ids | wrap
    wrap: str | None = None
    total: str | None = None
    more: str | None = None
    next: str | None = None
    extras: tuple[tuple[str, Any], ...] = ()
    keep: frozenset[str] | None = None
    # the envelope object the list, its count and cursor sit in (api2cart's `result`), and
    # the other required fields beside it
    within: str | None = None
    outer: tuple[tuple[str, Any], ...] = ()


def list_shape(returns: dict[str, Any], collection: str) -> ListShape | None:
    """The list's shape for a `returns` schema; None when it is not a list at all. A list
    one envelope down (`{"result": {"subscribers": [...]}}`) is a `wrap` `within` it."""
    if not returns or not returns.keys() - {"description", "title", "x-truncated"}:
        return ListShape()
    kind = json_type(returns)
    if kind == "array":
        items = returns.get("items") if isinstance(returns.get("items"), dict) else {}
        scalar = json_type(items) in ("string", "integer") if items else False
        return ListShape(kind="ids" if scalar else "list", keep=_keep(items))
    props = _props(returns)
    if kind != "object" or not props:
        return None
    arrays = [n for n, s in props.items() if isinstance(s, dict) and json_type(s) == "array"]
    if not arrays:
        outer = list_envelope(returns)
        inner = list_shape(props[outer], collection) if outer is not None else None
        if inner is None or inner.kind != "wrap":
            return None
        return ListShape("wrap", inner.wrap, inner.total, inner.more, inner.next,
                         inner.extras, inner.keep, within=outer,
                         outer=required_fillers(returns, {outer}))
    snake = {snake_case(n): n for n in arrays}
    wrap = next((snake[k] for k in list_keys(collection) if k in snake), arrays[0])
    keys = {snake_case(n): n for n in props}
    total = next((keys[k] for k in keys if k in _TOTAL_KEYS
                  and json_type(props[keys[k]]) in ("integer", "number")), None)
    more = next((keys[k] for k in keys if k in _MORE_KEYS
                 and json_type(props[keys[k]]) == "boolean"), None)
    cursor = next((keys[k] for k in keys if k in _NEXT_KEYS
                   and json_type(props[keys[k]]) == "string"), None)
    taken = {name for name in (wrap, total, more, cursor) if name}
    return ListShape("wrap", wrap, total, more, cursor, required_fillers(returns, taken),
                     _keep(props[wrap].get("items")))

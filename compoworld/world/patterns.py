"""Strings sampled from a regular expression, for a `pattern` a natural value misses.

`sample_pattern` walks the stdlib's parse of the pattern: literals, classes, repeats,
groups and alternation are generated; look-arounds are skipped and left to a final check,
which random draws often pass. Back-references are not generated, so a pattern may get no
sample at all: callers keep their natural value then.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

try:  # the stdlib's regex parser; private, so sampling degrades to "no sample" without it
    import re._constants as _sre_c
    import re._parser as _sre_p
except ImportError:  # pragma: no cover
    _sre_c = _sre_p = None

_PRINTABLE = string.ascii_letters + string.digits


class _Unsupported(Exception):
    pass


def sample_pattern(
    pattern: str, rng: random.Random, min_length: int = 0, max_length: int | None = None
) -> str | None:
    """A string that `re.search(pattern, s)` accepts within the length bounds, or None
    (back-references are not generated, look-arounds only checked; see the module
    docstring).

    Repeats first take 0-3 extra rounds; when that misses the length bounds, every open
    repeat takes `cap` rounds, with `cap` found by bisection (`^[0-9a-f]+$` of length 40).
    """
    if _sre_p is None:
        return None
    parsed = _parse(pattern)
    if parsed is None:
        return None

    def attempt(cap: int | None) -> str | None:
        out: list[str] = []
        _emit(parsed, rng, out, cap)
        return "".join(out)

    try:
        low, high = 0, max(min_length, 1) + 8
        for step in range(14):
            text = attempt(None if step < 4 else (low + high) // 2)
            if len(text) < min_length:
                low = (low + high) // 2 + 1 if step >= 4 else low
            elif max_length is not None and len(text) > max_length:
                high = (low + high) // 2 - 1 if step >= 4 else high
            elif matches_pattern(pattern, text):
                return text
            if low > high:
                break
    except _Unsupported:
        return None
    return None


@lru_cache(maxsize=4096)
def _parse(pattern: str) -> Any:
    """The pattern's parse tree, once per pattern (parsing dominated simulated calls)."""
    try:
        return _sre_p.parse(pattern)
    except (re.error, RecursionError, ValueError, OverflowError):
        return None


def _emit(items: Iterable[tuple[Any, Any]], rng: random.Random, out: list[str],
          cap: int | None) -> None:
    c = _sre_c
    for op, arg in items:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.NOT_LITERAL:
            out.append(next(ch for ch in _PRINTABLE if ord(ch) != arg))
        elif op is c.ANY:
            out.append(rng.choice(_PRINTABLE))
        elif op is c.IN:
            out.append(_from_class(arg, rng))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = arg
            count = rng.randint(low, min(high, low + 3)) if cap is None else min(
                high, max(low, cap))
            for _ in range(count):
                _emit(sub, rng, out, cap)
        elif op is c.SUBPATTERN:
            _emit(arg[-1], rng, out, cap)
        elif op is c.BRANCH:
            _emit(rng.choice(arg[1]), rng, out, cap)
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue  # anchors; look-arounds are left to the final check (often met by luck)
        else:  # back-references, conditionals
            raise _Unsupported(str(op))


def _from_class(items: list[tuple[Any, Any]], rng: random.Random) -> str:
    return rng.choice(_class_pool(tuple(items)))


@lru_cache(maxsize=4096)
def _class_pool(items: tuple[tuple[Any, Any], ...]) -> list[str]:
    """The characters a class can produce, worked out once per class."""
    negate = bool(items) and items[0][0] is _sre_c.NEGATE
    members = items[1:] if negate else items
    pool = [ch for ch in _CLASS_CANDIDATES if _in_class(ch, members) != negate]
    if not pool and not negate:  # only characters beyond ASCII: take one from the class
        pool = [chr(arg if op is _sre_c.LITERAL else arg[0])
                for op, arg in members if op in (_sre_c.LITERAL, _sre_c.RANGE)]
    if not pool:
        raise _Unsupported("class")
    if set(pool) <= _HEX and "a" in pool and "A" in pool:  # a hex id is one case: Twilio's
        pool = [ch for ch in pool if not ch.isupper()]  # `AC[0-9a-fA-F]{32}` sids are lower
    return pool


def _in_class(ch: str, items: list[tuple[Any, Any]]) -> bool:
    c, code = _sre_c, ord(ch)
    for op, arg in items:
        if op is c.LITERAL and arg == code:
            return True
        if op is c.RANGE and arg[0] <= code <= arg[1]:
            return True
        if op is c.CATEGORY and _CATEGORY_TEST.get(arg, lambda _: False)(ch):
            return True
    return False


_HEX = frozenset(string.hexdigits)
_CLASS_CANDIDATES = string.ascii_letters + string.digits + "-_. +:/@"
_CATEGORY_TEST: dict[Any, Callable[[str], bool]] = (
    {} if _sre_c is None else {
        _sre_c.CATEGORY_DIGIT: str.isdigit,
        _sre_c.CATEGORY_NOT_DIGIT: lambda ch: not ch.isdigit(),
        _sre_c.CATEGORY_SPACE: str.isspace,
        _sre_c.CATEGORY_NOT_SPACE: lambda ch: not ch.isspace(),
        _sre_c.CATEGORY_WORD: lambda ch: ch.isalnum() or ch == "_",
        _sre_c.CATEGORY_NOT_WORD: lambda ch: not (ch.isalnum() or ch == "_"),
    }
)


def matches_pattern(pattern: str, value: str) -> bool:
    """Whether `re.search` finds `pattern` in `value` (True for a pattern `re` rejects)."""
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return True  # cannot check: let the validator decide


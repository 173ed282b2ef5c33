"""The several lines of one record's owner: a mobile, a home line, an office line, a fax.

A record's phone fields are drawn from one person or company, so `homePhone`,
`mobilePhone` and `businessPhone` all read the same number, and an extension
(`businessPhoneExt`) could stand beside no business phone. `other_line` gives the owner's
line of a kind, seeded by their phone so it is the same wherever it is written;
`phone_rule` keeps the owner's phone in the record's main phone field, gives each other
phone field its own line, and drops an extension whose phone is not there.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import split_words
from compoworld.world.fieldsources import field_role
from compoworld.world.phones import is_mobile, national_number
from compoworld.world.words import COUNTRIES

Rule = Callable[[dict[str, Any], dict[str, Any] | None], None]

# Calling codes to their (first) country: `1` is the US, a fax of `+1416...` too.
_CALLING = {row[2]: code for code, row in reversed(COUNTRIES.items())}
# A phone field's line by its words; the first kinds hold the owner's own phone first.
_LINES = (("", frozenset()), ("mobile", frozenset("mobile cell cellular handy gsm".split())),
          ("work", frozenset("work business office direct company landline main".split())),
          ("home", frozenset("home private personal residence evening".split())),
          ("fax", frozenset({"fax"})))


def other_line(phone: Any, line: str = "fax") -> Any:
    """A line of kind `line` of the owner of `phone`: a mobile of the same country for
    `mobile`, else an office line, seeded by the phone and the kind. (A fax was the phone
    with its last digit changed, `+33638656408` beside `+33638656402`, which reviewers
    read as one number mistyped.)"""
    code = _calling_code(phone)
    if code is None:
        return phone
    seed = phone if line == "fax" else f"{phone}|{line}"  # (a fax as it always was)
    rng = random.Random(zlib.crc32(seed.encode()))
    return f"+{code}{national_number(rng, _CALLING[code], landline=line != 'mobile')}"


def _calling_code(phone: Any) -> str | None:
    """The calling code an E.164 `phone` starts with (the longest that matches)."""
    if not isinstance(phone, str) or not phone.startswith("+") or not phone[1:].isdigit():
        return None
    return next((code for code in sorted(_CALLING, key=len, reverse=True)
                 if phone[1:].startswith(code)), None)


def a_mobile(phone: Any) -> bool:
    """Whether an E.164 `phone` is a mobile of its country (True when it cannot tell)."""
    code = _calling_code(phone)
    return code is None or is_mobile(phone[1 + len(code):], _CALLING[code])


def line_kind(key: str) -> str:
    """The line a phone field holds (`mobilePhone` -> `mobile`, `Tel2` -> `second`, a
    plain `phone` -> "")."""
    words = set(split_words(key))
    kind = next((kind for kind, marks in reversed(_LINES) if words & marks), "")
    last = split_words(key)[-1:]
    return "second" if not kind and last and last[0].isdigit() and last != ["1"] else kind


def phone_rule(types: dict[str, str], required: set[str]) -> Rule | None:
    """A rule that gives a record's phone fields of one owner one line each (the owner's
    phone in the first of its main field, mobile, office, home, fax) and drops an optional
    extension whose phone it does not hold (`businessPhoneExt` without `businessPhone`)."""
    phones = [key for key, kind in types.items() if kind == "phone"]
    order = {kind: rank for rank, (kind, _) in enumerate(_LINES)}
    phones.sort(key=lambda key: order.get(line_kind(key), len(order)))
    exts = {key: _phone_of(key, phones) for key in types if key not in required
            and split_words(key)[-1:] in (["ext"], ["extension"]) and len(split_words(key)) > 1}
    exts = {key: phone for key, phone in exts.items() if phone is not None}
    if len(phones) < 2 and not exts and not any(line_kind(key) == "mobile" for key in phones):
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        seen: dict[tuple[str, Any], str] = {}
        for key in phones:
            value = out.get(key)
            if value is None or (overrides and key in overrides):
                continue
            if (field_role(key), value) in seen:  # another line of the same owner
                out[key] = other_line(value, line_kind(key) or "work")
            elif line_kind(key) == "mobile" and not a_mobile(value):
                out[key] = other_line(value, "mobile")  # a company's mobile: no landline
            seen.setdefault((field_role(key), out[key]), key)
        for key, phone in exts.items():
            if not out.get(phone) and key in out and not (overrides and key in overrides):
                del out[key]

    return rule


_DIAL_WORDS = (("countrycode",), ("dialcode",), ("callingcode",), ("country", "code"),
               ("dial", "code"), ("calling", "code"))


def dial_rule(types: dict[str, str]) -> Rule | None:
    """A rule that makes a phone's calling-code field its phone's (Apacta's
    `mobile_countrycode` "+41" beside a `mobile` of "+61452405978" contradicted itself): the
    field named for the phone (`mobile_countrycode` for `mobile`), else the record's one
    phone. A code field of no phone (a company's `country_code` "CH") is left alone."""
    phones = [key for key, kind in types.items() if kind == "phone"]
    codes = {}
    for key in types:
        words = tuple(split_words(key))
        if not any(words[-len(d):] == d for d in _DIAL_WORDS) or not phones:
            continue
        head = words[:-2] if words[-2:] in (("country", "code"), ("dial", "code"),
                                            ("calling", "code")) else words[:-1]
        named = [p for p in phones if head and tuple(split_words(p))[:len(head)] == head]
        if named:
            codes[key] = named[0]
        elif len(phones) == 1 and set(words) & {"mobile", "phone", "dial", "calling", "tel"}:
            codes[key] = phones[0]
    if not codes:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        for key, phone in codes.items():
            code = _calling_code(out.get(phone))
            if key not in out or code is None or (overrides and key in overrides):
                continue
            was = out[key]  # (in the field's own form: "+61", "61" or 61)
            out[key] = int(code) if isinstance(was, int) and not isinstance(was, bool) \
                else code if isinstance(was, str) and was.isdigit() else f"+{code}"

    return rule


def _phone_of(ext: str, phones: list[str]) -> str | None:
    """The phone field an extension field belongs to (`businessPhoneExt` ->
    `businessPhone`): the one whose words its own start with."""
    stem = split_words(ext)[:-1]
    return next((key for key in phones if split_words(key)[:len(stem)] == stem
                 or split_words(key) == stem[:len(split_words(key))]), None)

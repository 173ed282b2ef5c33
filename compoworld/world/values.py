"""Seeded values for every shared type, shaped by a JSON Schema.

`generate(type_name, rng, schema)` gives one realistic value of a shared type (`email`,
`money`, `city`, ...; see `semtypes.SHARED_TYPES`) or of a plain JSON type, drawn from
the small embedded word lists of `words` and shaped by the schema: `enum`/`const` first,
then the JSON `type` (money is a decimal number, integer minor units such as cents, or a
`"19.99"` string), bounds, `multipleOf`, `minLength`/`maxLength` and `pattern`. A
`pattern` the natural value misses is sampled from the regular expression itself
(`patterns.sample_pattern`). Back-references are not generated and contradictory schemas
exist, so a value may still miss its schema: that is accepted, and callers that must be
sure validate (the runtime's `State.put` does; the offline world model does).
Contradictory `enum`s (values of the wrong type or past the pattern) are filtered first.
Whole values for a whole schema are `schemavalues.value_from_schema`'s job.
"""

from __future__ import annotations

import base64
import math
import random
import re
import string
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from compoworld.graph.semtypes import SHARED_TYPES
from compoworld.world.clock import NOW
from compoworld.world.patterns import matches_pattern, sample_pattern
from compoworld.world.words import (
    CITIES,
    COMPANY_NAMES,
    COUNTRIES,
    CURRENCIES,
    FILE_EXTENSIONS,
    FIRST_NAMES,
    LANGUAGES,
    LAST_NAMES,
    SENTENCES,
    TITLE_HEADS,
    TITLE_TOPICS,
    company_domain,
    make_person,
    make_phone,
    make_postal_code,
    make_street,
    slugify,
)

# A plain string with no better signal: a slug of a common noun and a number, never a word
# of the filler list (`words.WORDS`), so it reads as a name someone gave a thing.
_STRING_NOUNS = ("item", "entry", "record", "note", "draft", "batch", "project", "report")

# Instants fall from about 13 months before the world's `now` to 5 months after it: past
# activity mostly, some of it scheduled.
_EPOCH = NOW.replace(tzinfo=None) - timedelta(days=400)
_SPAN_SECONDS = 550 * 86400


def _title(rng: random.Random) -> str:
    return f"{rng.choice(TITLE_HEADS)} {rng.choice(TITLE_TOPICS)}"


def _instant(rng: random.Random) -> datetime:
    return _EPOCH + timedelta(minutes=rng.randrange(_SPAN_SECONDS // 60))


_MAKERS: dict[str, Callable[[random.Random], Any]] = {
    "email": lambda r: make_person(r).email,
    "phone": lambda r: make_phone(r, rng_country(r)),
    "url": lambda r: f"https://www.{company_domain(r.choice(COMPANY_NAMES))}/{slugify(_title(r))}",
    "uuid": lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "datetime": lambda r: _instant(r).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "date": lambda r: _instant(r).strftime("%Y-%m-%d"),
    "time": lambda r: f"{r.randint(7, 19):02d}:{r.choice((0, 15, 30, 45)):02d}:00Z",
    "ipv4": lambda r: ".".join(str(n) for n in (r.randint(11, 223), *r.choices(range(256), k=3))),
    "ipv6": lambda r: "2001:db8:" + ":".join(f"{r.getrandbits(16):x}" for _ in range(6)),
    "hostname": lambda r: company_domain(r.choice(COMPANY_NAMES)),
    "country": lambda r: rng_country(r),
    "currency": lambda r: r.choice(CURRENCIES),
    "money": lambda r: round(r.choice((1, 10, 100)) * r.uniform(1, 9.99), 2),
    "first_name": lambda r: r.choice(FIRST_NAMES),
    "last_name": lambda r: r.choice(LAST_NAMES),
    "person_name": lambda r: f"{r.choice(FIRST_NAMES)} {r.choice(LAST_NAMES)}",
    "username": lambda r: make_person(r).username,
    "company": lambda r: r.choice(COMPANY_NAMES),
    "city": lambda r: r.choice(CITIES)[0],
    "address": make_street,
    "postal_code": lambda r: make_postal_code(r, rng_country(r)),
    "latitude": lambda r: round(r.choice(CITIES)[2] + r.uniform(-0.05, 0.05), 4),
    "longitude": lambda r: round(r.choice(CITIES)[3] + r.uniform(-0.05, 0.05), 4),
    "language": lambda r: r.choice(LANGUAGES),
    "timezone": lambda r: r.choice(CITIES)[4],
    "filename": lambda r: f"{slugify(_title(r))}.{r.choice(FILE_EXTENSIONS)}",
    "title": _title,
    "text": lambda r: " ".join(r.sample(SENTENCES, r.randint(1, 3))),
    "string": lambda r: f"{r.choice(_STRING_NOUNS)}-{r.randint(100, 999)}",
    "digits": lambda r: str(r.randint(1, 99999)),
    "base64": lambda r: base64.b64encode(r.choice(SENTENCES).encode()).decode(),
    "binary": lambda r: r.choice(SENTENCES),
    "password": lambda r: "Pw-" + "".join(r.choices(string.ascii_letters + string.digits,
                                                      k=12)) + "!",
    "duration": lambda r: r.choice(("PT15M", "PT30M", "PT1H", "PT2H", "P1D")),
    "regex": lambda r: r.choice(("^[a-z]+$", "^[A-Z]{2}[0-9]{4}$", ".*\\.pdf$")),
    "json_pointer": lambda r: r.choice(("/data/0", "/items/1/name", "/status")),
    "integer": lambda r: r.randint(1, 100),
    "number": lambda r: round(r.uniform(1, 1000), 2),
    "boolean": lambda r: r.random() < 0.5,
    "object": lambda r: {},
    "array": lambda r: [],
    "null": lambda r: None,
}
assert set(SHARED_TYPES) <= set(_MAKERS), "every shared type needs a generator"

FORMAT_TYPES = {"email": "email", "idn-email": "email", "date-time": "datetime",
                 "date": "date", "time": "time", "uri": "url", "iri": "url", "uuid": "uuid",
                 "ipv4": "ipv4", "ipv6": "ipv6", "hostname": "hostname",
                 "idn-hostname": "hostname", "uri-reference": "url", "iri-reference": "url",
                 "url": "url", "guid": "uuid", "byte": "base64", "binary": "binary",
                 "password": "password", "int32": "digits", "int64": "digits",
                 "integer": "digits", "long": "digits", "double": "digits", "float": "digits",
                 "decimal": "digits", "number": "digits", "duration": "duration",
                 "regex": "regex", "json-pointer": "json_pointer"}


def rng_country(rng: random.Random) -> str:
    """A random ISO 3166 alpha-2 code among `CITIES`' countries."""
    return rng.choice(CITIES)[1]


def generate(type_name: str, rng: random.Random, schema: dict[str, Any] | None = None) -> Any:
    """One value of a shared or plain JSON type, respecting `schema` when given."""
    schema = schema if isinstance(schema, dict) else {}
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(usable_enum(schema))
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in FORMAT_TYPES and schema_kind(schema) in (None, "string"):
        type_name = FORMAT_TYPES[fmt]
    maker = (_MAKERS.get(type_name) or _MAKERS.get(schema_kind(schema) or "string")
             or _MAKERS["string"])
    return conform(maker(rng), type_name, schema, rng)


_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool), "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
}


def usable_enum(schema: dict[str, Any]) -> list[Any]:
    """The `enum` values that also meet the schema's type, length and pattern (real specs
    contradict themselves: string enums under `type: integer`, values past a pattern);
    values converted to the type when none fits as it is; the whole enum as a last resort.
    """
    values = schema["enum"]
    return fitting(values, schema) or list(values)


def schema_offers(schema: dict[str, Any]) -> list[Any]:
    """The literal values a schema offers: enum, const, default, example(s), x-example."""
    found: list[Any] = []
    for key in ("enum", "examples"):
        values = schema.get(key)
        if isinstance(values, list):
            found.extend(values)
        elif isinstance(values, dict):  # OpenAPI 3 `examples`: name -> {"value": ...}
            found.extend(v.get("value") for v in values.values() if isinstance(v, dict))
    for key in ("const", "default", "example", "x-example"):
        if key in schema:
            found.append(schema[key])
    return found


# Example values generated tools put in specs: they say nothing about the field.
_PLACEHOLDERS = frozenset("string str text example sample value test foo bar baz abc xyz xxx "
                          "null none undefined lorem ipsum string1 string2 my-value".split())


def usable_examples(schema: dict[str, Any]) -> list[Any]:
    """The schema's examples and default (not its enum) that fit it, without placeholders
    (`"string"`, `"foo"`) and without objects or arrays (records are built field by field)."""
    offers = [v for key in ("examples", "example", "x-example", "default") if key in schema
              for v in schema_offers({key: schema[key]})]
    plain = [v for v in offers if v is not None and not isinstance(v, dict | list)
             and not (isinstance(v, str) and (not v.strip() or v.lower() in _PLACEHOLDERS))]
    return list(dict.fromkeys(fitting(plain, schema))) if plain else []


def fitting(values: list[Any], schema: dict[str, Any]) -> list[Any]:
    """`values` that meet the schema's type, length, bounds and pattern (integers given as
    digit strings are converted when nothing fits as it is)."""
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    checks = [_JSON_TYPES[k] for k in kinds if k in _JSON_TYPES]

    def fits(value: Any) -> bool:
        if checks and not any(check(value) for check in checks):
            return False
        if isinstance(value, str):
            low, high = schema.get("minLength"), schema.get("maxLength")
            if (isinstance(low, int) and len(value) < low) or (
                    isinstance(high, int) and len(value) > high):
                return False
            return not isinstance(schema.get("pattern"), str) or matches_pattern(schema["pattern"],
                                                                          value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            low, high = _num(schema.get("minimum")), _num(schema.get("maximum"))
            return (low is None or value >= low) and (high is None or value <= high)
        return True

    good = [v for v in values if fits(v)]
    if not good and "integer" in kinds:
        good = [int(v) for v in values if isinstance(v, str) and re.fullmatch(r"-?\d+", v)]
    if not good and "string" in kinds:  # `enum: [1, 2]` under `type: string`
        good = [str(v) for v in values if isinstance(v, int | float) and not isinstance(
            v, bool) and fits(str(v))]
    return good


def schema_kind(schema: dict[str, Any]) -> str | None:
    """The schema's JSON `type` (the first non-null one of a list), or None."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null" if kind else None)
    return kind if isinstance(kind, str) else None


def conform(value: Any, type_name: str, schema: dict[str, Any], rng: random.Random) -> Any:
    """Shape a natural value to the schema: JSON type, bounds, lengths, pattern."""
    kind = schema_kind(schema)
    if kind == "integer":
        if type_name == "money" and isinstance(value, float):
            value = round(value * 100)  # integer amounts are minor units (cents), as in Stripe
        elif isinstance(value, bool) or not isinstance(value, int | float):
            digits = re.sub(r"\D", "", str(value))[:9]
            value = int(digits) if digits else rng.randint(1, 100)
        return _bound_number(int(round(value)), schema, rng, integer=True)
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            value = round(rng.uniform(1, 1000), 2)
        digits = 4 if type_name in ("latitude", "longitude") else 2
        return _bound_number(value, schema, rng, integer=False, digits=digits)
    if kind == "boolean":
        return value if isinstance(value, bool) else rng.random() < 0.5
    if kind == "null":
        return None
    if kind in ("object", "array"):
        wanted = dict if kind == "object" else list
        return value if isinstance(value, wanted) else _MAKERS[kind](rng)
    if kind == "string" or (kind is None and isinstance(value, str)):
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, float) and type_name == "money":
            value = f"{value:.2f}"
        return _fit_string(str(value), type_name, schema, rng)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _bound_number(value, schema, rng, integer=isinstance(value, int))
    return value


_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def _bound_number(
    value: float, schema: dict[str, Any], rng: random.Random, *, integer: bool, digits: int = 2
) -> float:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    xlo, xhi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(xlo, bool):  # draft-4 form: the flag makes `minimum` exclusive
        xlo, lo = (lo if xlo else None), (None if xlo else lo)
    if isinstance(xhi, bool):
        xhi, hi = (hi if xhi else None), (None if xhi else hi)
    low = _num(lo)
    high = _num(hi)
    step = 1 if integer else 0.01
    if _num(xlo) is not None:
        low = max(low, _num(xlo) + step) if low is not None else _num(xlo) + step
    if _num(xhi) is not None:
        high = min(high, _num(xhi) - step) if high is not None else _num(xhi) - step
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
        # JSON numbers past 64 bits are no realistic value (a `maximum` of 2^64 exists) and
        # break every JSON writer downstream: keep integers within int64
        low = max(low, _INT64_MIN) if low is not None else None
        high = min(high, _INT64_MAX) if high is not None else None
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            value = rng.randint(low, max(low, high)) if integer else rng.uniform(low, high)
        elif low is not None:
            value = low + (rng.randint(0, 99) if integer else rng.uniform(0, 100))
        else:
            value = high - (rng.randint(0, 99) if integer else rng.uniform(0, 100))
    multiple = _num(schema.get("multipleOf"))
    if multiple:
        count = math.ceil(value / multiple) if low is not None else round(value / multiple)
        if high is not None and count * multiple > high:
            count = math.floor(high / multiple)
        value = count * multiple if integer else round(count * multiple, 10)
    if not integer and isinstance(value, float):
        rounded = round(value, digits)
        ok = (low is None or rounded >= low) and (high is None or rounded <= high)
        value = rounded if ok and not multiple else value
    return int(value) if integer else value


def _num(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


# A pattern of a phone number: a leading `\+` and digits (E.164 and its kin).
_PHONE_PATTERN = re.compile(r"^\^?\\\+\??(\[1-9\]|\\d|\[0-9\])")
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?")


def _shorter_phone(phone: str, high: int) -> str:
    """A phone number within `high` characters: its national digits (the calling code
    dropped), or their last `high` digits; a number that fits is kept."""
    if len(phone) <= high:
        return phone
    digits = phone.lstrip("+")
    code = next((c[2] for c in COUNTRIES.values() if digits.startswith(c[2])), "")
    national = digits[len(code):] if code and len(digits) - len(code) >= 6 else digits
    return national[-high:]


def _fit_string(value: str, type_name: str, schema: dict[str, Any], rng: random.Random) -> str:
    low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    if type_name == "country" and value in COUNTRIES:
        if low == 3 and high == 3:
            value = COUNTRIES[value][1]
        elif low > 3:
            value = COUNTRIES[value][0]
    elif type_name == "language" and low > 2 and len(value) == 2:
        value = f"{value}-{rng_country(rng)}"
    if type_name == "phone" and high is not None and len(value) > high:
        value = _shorter_phone(value, high)  # national digits, never a bare country code
    if high is not None and len(value) > high:
        cut = value[:high]
        if type_name in ("text", "title") and " " in cut:  # end on a whole word
            words = cut[:cut.rfind(" ")].rstrip(" ,")
            cut = words if len(words) >= low else cut
        value = cut.rstrip() or value[:high]
    if len(value) < low:
        value += "".join(rng.choice(string.ascii_lowercase) for _ in range(low - len(value)))
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not matches_pattern(pattern, value):
        forms = [slugify(value), slugify(value, "_"), slugify(value, ""), value.upper()]
        if type_name in ("datetime", "date") and _STAMP.fullmatch(value):
            # a time written as the pattern wants it (`...:\d{2}.\d{3}Z$`: with its
            # milliseconds), never the pattern's own sample ("5675-99-19T48:45:99g239Z")
            forms[:0] = [f"{value[:19]}.000Z", value[:19] + "Z", f"{value[:19]}+00:00",
                         value[:19], value[:10]]
        if type_name == "phone" or _PHONE_PATTERN.search(pattern):
            # a phone pattern (`^\+[1-9]\d{1,14}$`): a whole number, not its shortest sample
            phone = value if type_name == "phone" else make_phone(rng, rng_country(rng))
            forms[:0] = [phone, phone.lstrip("+"), _shorter_phone(phone, 10)]
        for form in forms:
            if (form and len(form) >= low and (high is None or len(form) <= high)
                    and matches_pattern(pattern, form)):
                return form  # `marketing-project` for `^[a-z0-9-]+$`: still the same name
        sample = sample_pattern(pattern, rng, low, high)
        if sample is None and low:  # `^arn:aws:sns:` with minLength 20: pad its open end
            short = sample_pattern(pattern, rng, 0, high)
            padded = (short or "") + "".join(
                rng.choice(string.ascii_lowercase + string.digits)
                for _ in range(low - len(short or "")))
            sample = padded if short is not None and matches_pattern(pattern, padded) else None
        if sample is not None:
            value = sample
    return value

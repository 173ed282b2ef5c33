"""Leaf samplers of a compiled schema: free values and entity ids.

A sampler takes the run's context (`Ctx`: rng, pool, known ids, anchors, echoes) and the
object's entity scope and returns one value. `compile_free` gives the value of a field no
pool entity supplies (examples and defaults, then format and semantic type, then the
vocabulary its name calls for, then a slug); `compile_id` gives an entity id, an existing
one when the world has some, else one shaped like the world's own or like the field's
pattern or format. `schemavalues` builds whole objects and arrays out of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import fastjsonschema
import orjson

from compoworld.graph.semtypes import split_words
from compoworld.world.clock import NOW
from compoworld.world.fieldsources import Flags, staff_for
from compoworld.world.kindmakers import TIME_SPANS, time_text
from compoworld.world.namekinds import described_values, moment_kind
from compoworld.world.values import FORMAT_TYPES, conform, generate, schema_kind, usable_examples
from compoworld.world.vocab import field_kind, maker, resource_noun
from compoworld.world.words import TITLES_BY_NOUN

Sampler = Callable[["Ctx", dict], Any]


class Ctx:
    """What one sampling run shares: the rng, the pool, known ids, anchors, echoes."""

    __slots__ = ("rng", "pool", "ids", "anchor", "overrides")

    def __init__(self, rng, pool, ids, anchor, overrides) -> None:
        self.rng = rng
        self.pool = pool
        self.ids = ids
        self.anchor = anchor
        self.overrides = overrides



def copy_value(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value)) if isinstance(value, dict | list) else value


class Check:
    """Whether a value validates against a schema (fastjsonschema, compiled on first use)."""

    __slots__ = ("schema", "fn")

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.fn: Any = None

    def __call__(self, value: Any) -> bool:
        if self.fn is None:
            try:
                self.fn = fastjsonschema.compile(self.schema, use_default=False)
            except Exception:  # noqa: BLE001 - an uncompilable schema accepts no echo
                self.fn = False
        if self.fn is False:
            return False
        try:
            self.fn(value)
        except fastjsonschema.JsonSchemaException:
            return False
        return True


# Shared types whose spec examples are fine to repeat; a uuid or an instant repeated in
# every record is not (ids collide, the world's clock is ignored).
_NO_EXAMPLES = frozenset({"uuid", "datetime", "date", "time"})
_PLAIN = frozenset({"string", "integer", "number"})
# Formats that only say how wide a number is: an `int64` `exp_year` is still a year.
_NUMBER_FORMATS = frozenset("int32 int64 integer long double float decimal number".split())
_ID_TEXT = re.compile(r"\b(ID|[Ii]d|[Ii]dentifier)\b")


# Flags that take a record out of use (`deleted`, `is_archived`, `do_not_contact`): a
# world's records are mostly in use, so a customer to welcome is rarely one not to contact.
OUT_OF_USE = frozenset("deleted archived disabled blocked banned suspended cancelled canceled "
                       "spam trashed removed terminated locked bounced unsubscribed "
                       "restored voided".split())
_IN_USE = frozenset("active enabled verified confirmed valid".split())


def out_of_use(name: str) -> bool:
    """Whether a field's name says its record is out of use when set (`isDeleted`,
    `archived_at`, `do_not_contact`, `opted_out`)."""
    words = set(split_words(name))
    return bool(words & OUT_OF_USE) or {"do", "not"} <= words or {"opted", "out"} <= words


def compile_free(type_name: str, schema: dict[str, Any], name: str, resource: str | None,
                  flags: Flags) -> Sampler:
    """A leaf no pool entity supplies, in this order: the schema's examples and default,
    the values its description lists, then its format and semantic type, then the
    vocabulary its name calls for (`vocab.field_kind`; a staff member of the cast for
    `createdBy`), then the examples its description gives, then a slug of its name and a
    number. A flag is mostly off where it takes its record out of use, mostly on where it
    says the record is in use. A birthday is an adult's, a meeting's times are near now."""
    if type_name == "boolean" and schema_kind(schema) == "boolean" and name:
        odds = 0.05 if out_of_use(name) else (0.9 if set(split_words(name)) & _IN_USE
                                             else None)
        if odds is not None:
            return lambda ctx, scope: ctx.rng.random() < odds
    offers = usable_examples(schema) if type_name not in _NO_EXAMPLES else []
    if offers:
        return lambda ctx, scope: copy_value(ctx.rng.choice(offers))
    fmt = schema.get("format")
    listed = described_values(schema) if type_name == "string" and name else ()
    if listed and not {"enum", "const"} & set(schema):  # "must be one of a, b, c"
        return lambda ctx, scope: conform(ctx.rng.choice(listed), type_name, schema, ctx.rng)
    if type_name in _PLAIN and not (isinstance(fmt, str) and fmt in FORMAT_TYPES and not (
            fmt in _NUMBER_FORMATS and schema_kind(schema) in ("integer", "number"))):
        kind = field_kind(name, schema, resource, place=flags.place)
        if kind is None and type_name == "string" and name:
            kind = "fallback"
            listed = described_values(schema, examples=True)  # "The attribute value. E.g. red"
            if listed:
                return lambda ctx, scope: conform(ctx.rng.choice(listed), type_name, schema,
                                                  ctx.rng)
            if _ID_TEXT.search(str(schema.get("description", ""))):
                kind = "code"  # "Users Cvl type ID": a code (`USE-4821`), no slug
    elif type_name == "url" and name and field_kind(name, schema) == "image_url":
        kind = "image_url"  # a thumbnail's URL is an image's, no company's page
    elif type_name in ("date", "datetime") and name:
        kind = moment_kind(split_words(name), resource)  # a birthday; a meeting near now
    elif type_name == "title" and split_words(name)[-1:] == ["name"] and resource:
        kind = field_kind(name, schema, resource)  # `name` of a campaign: "Spring Campaign"
    elif type_name == "title" and field_kind(name, schema) == "job_title":
        kind = "job_title"  # a contact's position is "Account Manager", no report title
    elif type_name == "title" and resource_noun(resource) in TITLES_BY_NOUN \
            and not {"enum", "const"} & set(schema):
        kind = "titled"  # an invoice's subject is "March consulting services", no meeting's
    else:
        kind = None
    whole = _whole_number(name, schema) if schema_kind(schema) == "number" or (
        schema_kind(schema) == "integer" and _epoch(name, schema)) else None
    if whole is not None and kind in (None, "reference", "account_number", "code"):
        # no `"customerId": 488.3`, `"orderNumber": 606.34`: an id or a number is whole
        return lambda ctx, scope: conform(whole(ctx.rng), "integer", schema, ctx.rng)
    if kind is None:
        return lambda ctx, scope: generate(type_name, ctx.rng, schema)
    if kind.startswith("staff_"):
        return _compile_staff(kind, type_name, schema)
    make = maker(kind, resource_noun(resource), name)
    if kind in TIME_SPANS:  # a datetime, written as the field wants it
        return lambda ctx, scope: conform(time_text(make(ctx.rng), kind, type_name),
                                          type_name, schema, ctx.rng)
    if kind in ("line2", "addition") and not schema.get("minLength"):  # often left empty
        return lambda ctx, scope: "" if ctx.rng.random() < 0.4 else conform(
            make(ctx.rng), type_name, schema, ctx.rng)

    def sample(ctx: Ctx, scope: dict) -> Any:
        return conform(make(ctx.rng), type_name, schema, ctx.rng)

    return sample


# Numbers that are whole whatever JSON type the spec gave them: ids and numbers of a
# record, counts, Unix times (seconds, within the half year before the world's now).
_ID_WORDS = frozenset("id ids number num no".split())
_COUNT_WORDS = frozenset("count counts quantity qty".split())
_EPOCH = int(NOW.timestamp())


# The last words of a whole number that is a moment in seconds since 1970 (Stripe's
# `created`), and what a description says of one.
_EPOCH_WORDS = frozenset("timestamp epoch created updated modified at expires".split())
_EPOCH_TEXT = re.compile(r"unix|epoch|seconds since", re.I)


def _epoch(name: str, schema: dict[str, Any]) -> bool:
    """Whether a whole number is a moment: Stripe's `created` ("Measured in seconds since
    the Unix epoch") was drawn as 35, a date in 1970."""
    last = split_words(name)[-1:]
    return bool(last) and last[0] in _EPOCH_WORDS and (
        last[0] in ("timestamp", "epoch") or bool(_EPOCH_TEXT.search(
            str(schema.get("description") or ""))) or len(split_words(name)) == 1
        or last[0] == "at")


def _whole_number(name: str, schema: dict[str, Any]) -> Callable[[Any], int] | None:
    """How a `number` field named `name` is drawn when it can only be whole (`customerId`,
    `totalOrderCount`, `createTimestamp`, Stripe's `created`); None for an amount, a rate,
    a measure."""
    last = split_words(name)[-1:]
    if _epoch(name, schema) and {"expires", "expiry", "expiration", "due"} & set(
            split_words(name)):
        return lambda rng: _EPOCH + rng.randint(86400, 365 * 86400)  # (it lies ahead)
    if _epoch(name, schema):
        return lambda rng: _EPOCH - rng.randint(0, 180 * 86400)
    if last and last[0] in _ID_WORDS:
        return lambda rng: rng.randint(1, 99999)
    if last and last[0] in _COUNT_WORDS:
        return lambda rng: rng.randint(0, 40)
    return None


_STAFF_GETTERS = {"staff_email": lambda p: p.email, "staff_name": lambda p: p.name,
                  "staff_username": lambda p: p.username}


def _compile_staff(kind: str, type_name: str, schema: dict[str, Any]) -> Sampler:
    """Who did something (`createdBy`, `organizer`): a person of the cast other than the
    record's own, one per record (its `createdBy` and `modifiedBy` agree)."""
    getter = _STAFF_GETTERS[kind]

    def sample(ctx: Ctx, scope: dict) -> Any:
        person = staff_for(ctx.rng, ctx.pool, ctx.anchor, scope)
        return conform(getter(person), type_name, schema, ctx.rng)

    return sample


def compile_id(type_name: str, schema: dict[str, Any], name: str = "") -> Sampler:
    kind = schema_kind(schema) or "string"
    shaped = any(key in schema for key in ("format", "pattern", "minLength", "maxLength"))
    fits = Check(schema) if shaped else None  # a known id must also meet the field's shape
    prefix = type_name.split(".")[1][:3]
    fmt = schema.get("format")
    pattern = schema.get("pattern") if isinstance(schema.get("pattern"), str) else ""
    words = set(split_words(name))
    if "arn" in words or "arn:" in pattern:
        natural = maker("arn")
    elif words & {"uuid", "guid"}:  # an id named `uuid` is one, whatever its format says
        natural = lambda rng: generate("uuid", rng)  # noqa: E731
    else:
        natural = lambda rng: f"{prefix}_{rng.randint(1, 9999):04d}"  # noqa: E731

    def sample(ctx: Ctx, scope: dict) -> Any:
        rng = ctx.rng
        known = ctx.ids.get(type_name) if ctx.ids else None
        if known:
            value = rng.choice(known)
            if kind == "integer" and not isinstance(value, int):
                digits = re.sub(r"\D", "", str(value))
                value = int(digits) if digits else rng.randint(1, 9999)
            elif kind == "string":
                value = str(value)
            if fits is None or fits(value):
                return value
        if kind in ("integer", "number"):
            return conform(rng.randint(1, 9999), "integer", schema, rng)
        if isinstance(fmt, str) and fmt in FORMAT_TYPES:
            return generate("string", rng, schema)  # uuid, uri, ... ids: the format's maker
        # ids look like the world's own (`con_0042`), an ARN where the field wants one;
        # `conform` turns them into the field's pattern when they miss it
        return conform(natural(rng), "string", schema, rng)

    return sample

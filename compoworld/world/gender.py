"""A person's gender and salutation fields, agreeing with their name.

The cast's people have a gender by their first name (`Person.gender`), so a record whose
fields describe a person writes that person's gender and salutation ("Ms" for Elena), in
the field's own words when it has an enum (`F`, `FEMALE`, `Mrs`). A field of a record with
no person (a product's target gender) is left free: `vocab` draws it.
"""

from __future__ import annotations

import random
from typing import Any

from compoworld.graph.semtypes import split_words
from compoworld.world.fieldsources import entity_for
from compoworld.world.leafplans import Ctx, Sampler
from compoworld.world.values import conform, schema_kind, usable_enum

_GENDER_WORDS = frozenset({"gender", "sex"})
_SALUTATION_WORDS = frozenset({"salutation", "honorific", "courtesy"})
_SALUTATIONS = {"female": ("ms", "mrs", "miss", "frau", "mme", "madame", "sra", "signora"),
                "male": ("mr", "herr", "m", "monsieur", "sr", "signor")}


def gender_field(name: str, schema: dict[str, Any]) -> str | None:
    """`gender` or `salutation` where a field holds one (`sex`, `Salutation`, a `title`
    whose enum is `Mr`/`Ms`), else None."""
    words = split_words(name)
    if not words or not isinstance(schema, dict) or schema_kind(schema) not in (
            None, "string") or {"properties", "items", "oneOf", "anyOf", "allOf"} & set(schema):
        return None  # a leaf string only, no object of gender data
    if words[-1] in _GENDER_WORDS:
        return "gender"
    if words[-1] in _SALUTATION_WORDS or words[-2:] == ["name", "prefix"]:
        return "salutation"
    enum = schema.get("enum")
    if words[-1] == "title" and isinstance(enum, list) and any(
            _plain(v) in _SALUTATIONS["male"] for v in enum):
        return "salutation"
    return None


def _plain(value: Any) -> str:
    return str(value).lower().rstrip(".")


def gender_value(kind: str, gender: str, schema: dict[str, Any], rng: random.Random) -> Any:
    """A person's gender (`female`/`male`) as the field writes it: the enum value that
    names it (`F`, `Female`, `Ms`), else a word (`female`, `Ms`) shaped to the schema."""
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        options = usable_enum(schema)
        fits = [v for v in options if _names(kind, gender, _plain(v))]
        return rng.choice(fits or options)
    value = gender if kind == "gender" else ("Ms" if gender == "female" else "Mr")
    return conform(value, "string", schema, rng)


def _names(kind: str, gender: str, text: str) -> bool:
    if kind == "salutation":
        return text in _SALUTATIONS[gender]
    if gender == "female":
        return text in ("f", "w", "female", "woman", "women", "weiblich") or text.startswith(
            "female")
    return text in ("m", "male", "man", "men", "maennlich", "männlich") or text.startswith(
        "male")


def compile_gendered(kind: str, schema: dict[str, Any]) -> Sampler:
    """A sampler of the record's own person's gender or salutation (`gender_field`)."""
    def sample(ctx: Ctx, scope: dict) -> Any:
        person = entity_for(ctx.rng, ctx.pool, ctx.anchor, scope, "person", "")
        return gender_value(kind, person.gender, schema, ctx.rng)

    return sample

"""Arrays of a record's own addresses: its person's emails or phones, each once.

`emails`, `additionalEmails`, `phoneNumbers` of a customer are that customer's addresses
(`Person.other_emails` beside the work one; their mobile and their company's line), never
other people's and never one twice; a company's record lists its contact person's and its
own (`contact@acme.com`). An array whose name gives its people another role (`cc_emails`,
`attendee_emails`) is left to the items' own values: other people.
"""

from __future__ import annotations

from typing import Any

from compoworld.graph.semtypes import semantic_type, split_words
from compoworld.world.banking import Rule, country_code
from compoworld.world.fieldsources import Flags, child_scope, entity_for, field_role
from compoworld.world.leafplans import Ctx, Sampler
from compoworld.world.namekinds import value_type
from compoworld.world.values import conform, schema_kind
from compoworld.world.words import COUNTRIES, phone_country

# Arrays of a record's own addresses that leave out its main one (`additionalEmails`).
_EXTRA_WORDS = frozenset("additional extra secondary other alternate alternative alt backup "
                         "private personal home".split())


def _address_field(items: dict[str, Any], item_name: str, service: str,
                   resource: str | None) -> tuple[str | None, dict[str, Any], str] | None:
    """(key, leaf schema, kind) of an item that is an address: a string (key None), or an
    object holding one (`{"email": ..., "type": "work"}` in `emails`)."""
    if {"enum", "const", "pattern", "oneOf", "anyOf", "allOf"} & set(items):
        return None
    named = value_type(item_name, {"type": "string"}, semantic_type(
        item_name, {"type": "string"}, service=service, resource=resource), resource)
    if schema_kind(items) == "string":
        kind = value_type(item_name, items, semantic_type(item_name, items, service=service,
                                                          resource=resource), resource)
        return (None, items, kind) if kind in ("email", "phone") else None
    props = items.get("properties")
    if schema_kind(items) != "object" or not isinstance(props, dict) or named not in (
            "email", "phone"):
        return None
    plain = {key: sub for key, sub in props.items() if isinstance(sub, dict)
             and schema_kind(sub) == "string" and not {"enum", "const", "pattern"} & set(sub)}
    for key, sub in plain.items():
        if value_type(key, sub, semantic_type(key, sub, service=service, resource=item_name),
                      item_name) == named:
            return key, sub, named
    key = next((k for k in plain if split_words(k) in (["number"], ["value"], ["address"])),
               None)  # a phone number's `number`, an email entry's `value`
    return (key, plain[key], named) if key is not None else None


def compile_addresses(schema, item_name, service, resource, flags: Flags,
                      item: Sampler | None = None) -> Sampler | None:
    """An array of the record's own emails or phones (`emails`, `additionalEmails`,
    `phoneNumbers`, or objects holding one each, drawn by `item`): its person's addresses,
    each once; a company's record lists its contact person's and its own. Other arrays
    (`cc_emails`, `attendees`): None."""
    items = schema.get("items")
    if not item_name or not isinstance(items, dict) or field_role(item_name) != "":
        return None
    found_field = _address_field(items, item_name, service, resource)
    if found_field is None or (found_field[0] is not None and item is None):
        return None
    key, leaf, kind = found_field
    extra = bool(set(split_words(item_name)) & _EXTRA_WORDS)
    company = flags.company and not flags.person
    low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
    high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else 3
    if low > (1 if kind == "phone" or company else 3) - (1 if extra else 0) + 1 or high < 1:
        return None  # more than one person has: leave it to the items' own values

    def options(person: Any) -> tuple[str, ...]:
        if kind == "phone":
            found = (person.phone, person.company.phone)
        elif company:
            found = (person.email, person.company.email)
        else:
            found = (person.email, *person.other_emails)
        return found[1:] if extra else found

    def sample(ctx: Ctx, scope: dict) -> list[Any] | None:
        person = entity_for(ctx.rng, ctx.pool, ctx.anchor, scope, "person", "")
        found = options(person)
        count = ctx.rng.randint(max(low, 1), min(high, len(found)))
        values = [conform(value, kind, leaf, ctx.rng) for value in found[:count]]
        if key is None or item is None:
            return values
        out = []
        for value in values:  # an object per address: its own other fields, this address
            made = item(ctx, child_scope(scope))
            if isinstance(made, dict) and kind == "phone":
                made = dialled(made, value)
            out.append({**made, key: value} if isinstance(made, dict) else made)
        return out

    return sample


def dialled(made: dict[str, Any], phone: Any) -> dict[str, Any]:
    """A phone object's country and area code made its number's (no Apideck
    `{"number": "+2348032947631", "country_code": "CH", "area_code": "NUM-2609"}`: a
    Nigerian number tagged Swiss, its area code no code)."""
    country = phone_country(phone) if isinstance(phone, str) else None
    if country is None:
        return made
    digits = phone.removeprefix("+").removeprefix(COUNTRIES[country][2])
    out = dict(made)
    for key, value in made.items():
        words = split_words(key)
        if (words[-1:] == ["country"] or words[-2:] == ["country", "code"]) and (
                isinstance(value, str) and value.isalpha()):
            out[key] = country
        elif words[-2:] == ["area", "code"] and isinstance(value, str):
            out[key] = digits[:3] if country in ("US", "CA") else digits[:2]
    return out


# Fields of an address object that hold the whole address as one line (Apideck's `string`:
# "The address string"), not a label such as "Q3 String".
_WHOLE_ADDRESS = (["string"], ["formatted"], ["formatted", "address"], ["full", "address"],
                  ["address", "string"], ["address", "text"], ["display", "address"],
                  ["single", "line"])


def whole_address_rule(props: dict[str, Any], types: dict[str, str],
                       required: set[str]) -> Rule | None:
    """An address object's one-line field (`string`, `formatted_address`) says the
    object's own street, city, postal code and country; it is left out when the object
    has none of them (unless required)."""
    whole = [key for key, kind in types.items() if kind in ("string", "title")
             and split_words(key) in _WHOLE_ADDRESS and not {"enum", "const"} & set(props[key])]
    parts = {kind: next((key for key, found in types.items() if found == kind), None)
             for kind in ("address", "city", "postal_code", "country")}
    if not whole or not (parts["address"] or parts["city"]):
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        said = {kind: out.get(key) for kind, key in parts.items()
                if key and isinstance(out.get(key), str) and out[key]}
        country = country_code(said.get("country"))
        town = " ".join(said[k] for k in ("city", "postal_code") if k in said)
        line = ", ".join(part for part in (
            said.get("address"), town, COUNTRIES[country][0] if country else None) if part)
        for key in whole:
            if key not in out or (overrides and key in overrides):
                continue
            if line:
                out[key] = line
            elif key not in required:
                del out[key]

    return rule

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
from compoworld.world.fieldsources import Flags, entity_for, field_role
from compoworld.world.leafplans import Ctx, Sampler
from compoworld.world.namekinds import value_type
from compoworld.world.values import conform, schema_kind

# Arrays of a record's own addresses that leave out its main one (`additionalEmails`).
_EXTRA_WORDS = frozenset("additional extra secondary other alternate alternative alt backup "
                         "private personal home".split())


def compile_addresses(schema, item_name, service, resource, flags: Flags) -> Sampler | None:
    """An array of the record's own emails or phones (`emails`, `additionalEmails`,
    `phoneNumbers`): its person's addresses, each once; a company's record lists its contact
    person's and its own. Other arrays (`cc_emails`, `attendees`): None."""
    items = schema.get("items")
    if not item_name or not isinstance(items, dict) or schema_kind(items) != "string" or \
            {"enum", "const", "pattern", "oneOf", "anyOf", "allOf"} & set(items):
        return None
    kind = value_type(item_name, items, semantic_type(item_name, items, service=service,
                                                      resource=resource), resource)
    if kind not in ("email", "phone") or field_role(item_name) != "":
        return None
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
        return [conform(value, kind, items, ctx.rng) for value in found[:count]]

    return sample

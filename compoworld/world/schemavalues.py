"""Whole JSON values built from a JSON Schema, realistic field by field.

`value_from_schema` builds a whole value for a schema. `compile_schema` turns a schema into
a reusable plan once (semantic types and roles are worked out at compile time), so a
simulated call costs tens of microseconds. Leaves come from `leafplans` (free values and
ids), or from one pool entity per role as `fieldsources` decides (the same person's email
and name agree).
"""

from __future__ import annotations

import random
import re
from hashlib import sha256
from typing import TYPE_CHECKING, Any

import orjson

from compoworld.graph.semtypes import (
    ORG_COLLECTIONS,
    entity_id_type,
    is_entity_id,
    json_type,
    pluralize,
    semantic_type,
    singularize,
    split_words,
)
from compoworld.world.addresses import compile_addresses, whole_address_rule
from compoworld.world.banking import (
    bank_children,
    bank_in_country,
    country_children,
    country_code_rule,
    country_in_place,
    country_rule,
)
from compoworld.world.cards import card_rule
from compoworld.world.clock import NOW
from compoworld.world.coherence import (
    all_day_rule,
    duration_rule,
    event_day_rule,
    final_rule,
    initials_rule,
    range_pairs,
    span_end,
    span_start,
    status_rule,
    timeline_rule,
    until_rule,
    zone_twin_rule,
)
from compoworld.world.fieldsources import (
    COMPANY_FORMS,
    EMPLOYER,
    FIELD_GETTERS,
    NAME_TYPES,
    NO_FLAGS,
    PERSON_NOUNS,
    PERSON_TYPES,
    PLACE_TYPES,
    PRODUCT_NOUNS,
    Flags,
    child_scope,
    entity_for,
    field_role,
    field_source,
    staff_of,
)
from compoworld.world.gender import compile_gendered, gender_field
from compoworld.world.leafplans import (
    Check,
    Ctx,
    Sampler,
    compile_free,
    compile_id,
    copy_value,
    out_of_use,
)
from compoworld.world.links import link_children, parent_links
from compoworld.world.money import currency_scale, money_agreement, vat_agreement
from compoworld.world.namekinds import (
    EVENT_NOUNS,
    SECURITY_NOUNS,
    custom_field,
    pair_keys,
    value_type,
)
from compoworld.world.phonelines import dial_rule, other_line, phone_rule
from compoworld.world.tallies import subcount_rule, twin_rule
from compoworld.world.texts import board_list_rule, text_rule
from compoworld.world.values import conform, schema_kind, usable_enum
from compoworld.world.vocab import MAP_KEYS, field_kind
from compoworld.world.words import TITLES_BY_NOUN, phone_country, short_company_name

if TYPE_CHECKING:
    from compoworld.world.seeding import Pool

MAX_DEPTH = 4
# Chance that an optional property is present, by object nesting level; none past MAX_DEPTH.
_OPTIONAL_P = (0.9, 0.6, 0.4, 0.25)
_WRAPPERS = frozenset(
    "data items results result value values records response payload entries list objects "
    "content body elements hits nodes node edges rows collection item record entry element "
    "row object edge".split()
)

def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = {**base, **{k: v for k, v in extra.items() if k not in ("properties", "required")}}
    if "properties" in base or "properties" in extra:
        out["properties"] = {**(base.get("properties") or {}), **(extra.get("properties") or {})}
    required = [*(base.get("required") or []), *(extra.get("required") or [])]
    if required:
        out["required"] = list(dict.fromkeys(r for r in required if isinstance(r, str)))
    return out

# Words before `name` that make it the record's own name (`full_name`, `account_name`).
_SHORT_WORDS = frozenset({"short", "abbreviated", "abbreviation"})
_OWN_NAMES = frozenset("full display contact customer person user member owner account legal "
                       "business trading company billing shipping real given my cardholder "
                       "holder".split())
# Records of money moving: their `*_name` fields name who pays or is paid, never a product.
_MONEY_NOUNS = frozenset("payment transaction transfer payout charge refund invoice bill "
                         "expense statement receipt deposit withdrawal".split())


# The first field of a (start, end) pair of one happening: a meeting, a booking, a trip.
_SPAN_STARTS = frozenset("start starts begin begins departure check".split())
# ... a span of hours is a meeting's: records that last weeks or months start and end
# as drawn, in order (no Avaza project from 12:14 to 13:14 on one day)
_LASTING = frozenset("project section phase sprint milestone campaign series plan "
                     "subscription contract membership period policy leave absence "
                     "vacation holiday season term cycle program programme course "
                     "promotion discount coupon offer budget agreement licence license "
                     "lease rental loan task goal roadmap release iteration engagement "
                     "deal job assignment report summary stay".split())
# Items of a list that are its owner's own (`cards`, `bank_accounts`): theirs, no others'.
# (and their own addresses: an Apideck lead Umar Sato with an address of "contact_name":
# "Maya Johnson", an ecwid customer shipping to another person)
_OWNED_ITEMS = frozenset("card payment_method bank_account address".split())
# Children of a company that are its people (`contacts`, `employees`): they work there.
_STAFF_NOUNS = frozenset("contact employee member person people staff colleague".split())


# Lists of a company's own details (`addresses`, `emails`, `websites`, `phone_numbers`).
_COMPANY_DETAILS = frozenset("address email website url phone number domain".split())


# Kinds of fields that follow a record's country (`banking.country_rule`), by field kind.
_COUNTRY_KINDS = {"iban": "iban", "bic": "bic", "tax_id": "tax_id", "currency": "currency",
                  "region": "region", "region_name": "region_name", "bank_name": "bank"}


def _named_kinds(props: dict[str, Any], types: dict[str, str],
                 resource: str | None = None) -> dict[str, str]:
    """The vocabulary kind of each plain leaf (`vocab.field_kind`: `iban`, `card_brand`;
    with `resource`, those its object's noun says: a country's `code2`), or its type where
    that is a kind a rule reads (`tax_id`, `currency`, `region`)."""
    kinds = {}
    for key, type_name in types.items():
        kind = type_name if type_name in ("tax_id", "currency", "region", "region_name") \
            else None
        if kind is None and type_name in ("string", "title"):
            kind = field_kind(key, props[key], resource)
        if kind is not None:
            kinds[key] = kind
    return kinds


def _country_rule(props: dict[str, Any], types: dict[str, str], checks: dict[str, Check],
                  required: set[str]):
    """The rule that makes an object's IBAN, BIC, tax id, currency and region its
    country's, when it has fields of those kinds."""
    kinds = {key: _COUNTRY_KINDS[kind] for key, kind in _named_kinds(props, types).items()
             if kind in _COUNTRY_KINDS}
    countries = [key for key, kind in types.items() if kind == "country"]
    cities = [key for key, kind in types.items() if kind == "city"]
    postals = tuple(key for key, kind in types.items() if kind == "postal_code")
    return country_rule(kinds, countries, cities, checks, postals, _vat_children(props),
                        frozenset(required))


# What a schema says of its value: a field with none of these (`{}` or a description
# alone: Google discovery's `any`) says nothing.
_SAYS = frozenset({"type", "properties", "items", "enum", "const", "format", "oneOf", "anyOf",
                   "allOf", "$ref", "pattern", "additionalProperties", "default", "example",
                   "examples"})


def _unsaid(schema: Any) -> bool:
    """Whether a field's schema says nothing of its value."""
    return isinstance(schema, dict) and not _SAYS & schema.keys()


def _child_checks(props: dict[str, Any], children: dict[str, dict[str, str]]
                  ) -> dict[str, dict[str, Check]]:
    """The check of each named leaf of each child (child key -> its leaves), in a child
    object or in the items of a child list."""
    checks = {}
    for key, leaves in children.items():
        child = props[key]
        inner = child.get("items") if isinstance(child.get("items"), dict) else child
        checks[key] = {leaf: Check(inner["properties"][leaf]) for leaf in leaves}
    return checks


def _vat_children(props: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The VAT keys of each tax child of an object (Square's `tax_ids.eu_vat`)."""
    out = {}
    for key, sub in props.items():
        inner = sub.get("properties") if isinstance(sub, dict) else None
        if "tax" in split_words(key) and isinstance(inner, dict):
            vats = tuple(k for k in inner if "vat" in split_words(k))
            if vats:
                out[key] = vats
    return out


# Roles of who a mail comes from (`from_address`, `reply_to`, `sender_name`).
_SENDER_ROLES = frozenset({"from", "sender", "reply", "reply_to", "from_reply_to"})


def _own_senders(types: dict[str, str]) -> frozenset[str]:
    """The sender fields of a record that is one person (its own email and name beside
    them): a user's `from_address` and `reply_to` are their own email, not another
    person's (review: one user row with three people's emails)."""
    own = {kind for key, kind in types.items() if kind in PERSON_TYPES and not field_role(key)}
    if "email" not in own or not own & {"person_name", "first_name", "last_name", "username"}:
        return frozenset()
    return frozenset(key for key, kind in types.items() if kind in PERSON_TYPES
                     and field_role(key) in _SENDER_ROLES)


def _is_leaf(schema: dict[str, Any]) -> bool:
    if any(k in schema for k in ("oneOf", "anyOf", "allOf")) and "enum" not in schema:
        return False
    return "enum" in schema or "const" in schema or json_type(schema) not in ("object", "array")


def _compile(schema: Any, name: str | None, service: str, resource: str | None, depth: int,
             flags: Flags = NO_FLAGS, in_array: bool = False, inherit: bool = False,
             type_name: str | None = None, own: bool = False) -> Sampler:
    if schema is False:
        return lambda ctx, scope: None
    schema = schema if isinstance(schema, dict) else {}
    if "const" in schema:
        const = schema["const"]
        return lambda ctx, scope: copy_value(const)
    if (isinstance(schema.get("enum"), list) and schema["enum"] and schema_kind(schema) == "array"
            and not any(isinstance(v, list) for v in schema["enum"])):
        # an enum of the items written on the array (`type: array, enum: [a, b]`)
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        items = {**items, "enum": schema["enum"]}
        schema = {k: v for k, v in schema.items() if k != "enum"} | {"items": items}
    gendered = gender_field(name or "", schema) if flags.person else None
    if gendered is not None:  # the record's person's gender or salutation: "Ms" for Elena
        return compile_gendered(gendered, schema)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        values = usable_enum(schema)
        return lambda ctx, scope: copy_value(ctx.rng.choice(values))
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {}
        for branch in schema["allOf"]:
            merged = _merge(merged, branch if isinstance(branch, dict) else {})
        outer = {k: v for k, v in schema.items() if k != "allOf"}
        return _compile(_merge(merged, outer), name, service, resource, depth, flags, in_array,
                        inherit)
    for word in ("oneOf", "anyOf"):
        if isinstance(schema.get(word), list) and schema[word]:
            return _compile_branches(schema, word, name, service, resource, depth, flags,
                                     in_array, inherit)
    kind = schema_kind(schema)
    if kind is None:
        if "properties" in schema or "additionalProperties" in schema:
            kind = "object"
        elif "items" in schema:
            kind = "array"
        elif any(k in schema for k in ("minimum", "maximum", "multipleOf")):
            kind = "number"
        elif not name and not any(k in schema for k in ("format", "pattern", "minLength")):
            return lambda ctx, scope: {}  # an unnamed "anything": an empty object
        else:
            schema, kind = {**schema, "type": "string"}, "string"
    if kind == "object":
        return _compile_object(schema, service, resource, depth, in_array, flags, inherit)
    if kind == "array":
        return _compile_array(schema, name, service, resource, depth, flags)
    if kind == "string" and (mime := _said_mime(schema)):  # an email body's `type`: what
        return lambda ctx, scope: mime  # its description names ("text/plain"), not "custom"
    if isinstance(schema.get("x-parent"), str):  # a link field the compiler added
        type_name = entity_id_type(service, schema["x-parent"])
    type_name = type_name or value_type(name or "", schema, semantic_type(
        name or "", schema, service=service, resource=resource), resource)
    if is_entity_id(type_name):
        return compile_id(type_name, schema, name or "")
    source = field_source(type_name, name or "", flags)
    if source is None:
        return compile_free(type_name, schema, name or "", resource, flags)
    getter, role = FIELD_GETTERS[source][type_name], "" if own else field_role(name or "",
                                                                               type_name)
    words = split_words(name or "")
    # a company's short name (`ShortName`): `Umbrella` beside `Umbrella Analytics`
    short = type_name == "company" and bool(set(words) & _SHORT_WORDS)
    # their fax line, or a second phone (`Tel2`): the phone number's neighbour
    fax = type_name == "phone" and ("fax" in words or words[-1:] not in ([], ["1"]) and
                                    words[-1].isdigit())

    def sample(ctx: Ctx, scope: dict) -> Any:
        value = getter(entity_for(ctx.rng, ctx.pool, ctx.anchor, scope, source, role))
        if fax:  # their fax line: the phone number's neighbour, not the phone itself
            value = other_line(value)
        elif short and isinstance(value, str):
            value = short_company_name(value)
        return conform(value, type_name, schema, ctx.rng)

    return sample


_MIME_SAID = re.compile(r"\bmime[ -]?type\b", re.I)
_MIME_EXAMPLE = re.compile(r"\b(?:text|application|image|audio|video)/[a-z0-9.+-]*[a-z0-9]")


def _said_mime(schema: dict[str, Any]) -> str | None:
    """The first MIME type the description of a field it calls a MIME type names."""
    text = str(schema.get("description") or "")
    found = _MIME_EXAMPLE.search(text) if _MIME_SAID.search(text) else None
    return found.group(0) if found else None


def _compile_branches(schema, word, name, service, resource, depth, flags, in_array,
                      inherit) -> Sampler:
    outer = {k: v for k, v in schema.items() if k != word}
    samplers = [
        _compile(_merge(branch, outer), name, service, resource, depth, flags, in_array, inherit)
        for branch in schema[word][:10] if isinstance(branch, dict)
    ] or [lambda ctx, scope: {}]
    check = Check(schema) if word == "oneOf" and len(samplers) > 1 else None

    rounds = 3 if check is not None else 1  # overlapping branches: optional fields differ

    def sample(ctx: Ctx, scope: dict) -> Any:
        value = None
        for _ in range(rounds):
            for index in ctx.rng.sample(range(len(samplers)), len(samplers)):
                value = samplers[index](ctx, scope)
                if check is None or check(value):
                    return value
        return value

    return sample


def _compile_object(schema, service, resource, depth, in_array, parent: Flags = NO_FLAGS,
                    inherit: bool = False) -> Sampler:
    """An object sampler. With `inherit` (a part of its parent such as `address` or
    `customer`, not another party such as `sender`), it shares the parent's entities."""
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = {r for r in schema.get("required") or () if isinstance(r, str)}
    leaf_types = {
        key: value_type(key, sub, semantic_type(key, sub, service=service, resource=resource),
                        resource)
        for key, sub in props.items() if isinstance(sub, dict) and _is_leaf(sub)
    }
    kinds = set(leaf_types.values())
    for key, kind in leaf_types.items():  # a region written out: its place's (`stateName`)
        if kind in ("string", "title") and field_kind(key, props[key]) == "region_name":
            leaf_types[key] = "region_name"
    kinds = set(leaf_types.values())
    if kinds & PLACE_TYPES or parent.place:  # `state` beside `city` is a region, no status
        for key, kind in leaf_types.items():
            if kind in ("string", "integer") and field_kind(key, props[key], place=True) == (
                    "region"):
                leaf_types[key] = "region"
        kinds = set(leaf_types.values())
    noun = "_".join(singularize(w) for w in split_words(resource or "")[-2:])
    head = noun.split("_")[-1]
    if kinds & PERSON_TYPES or head in PERSON_NOUNS or head in _MONEY_NOUNS:
        # a supplier's `account_name` is a company's, its email a contact person's; a
        # payment's `payor_name` is who paid, no product's
        own = "company" if pluralize(head) in ORG_COLLECTIONS or (
            head in _MONEY_NOUNS and not kinds & PERSON_TYPES) else "person_name"
        for key, kind in leaf_types.items():
            words = split_words(key)
            if kind == "title" and words[-1:] == ["name"] and (
                    len(words) == 1 or words[-2] in _OWN_NAMES):
                leaf_types[key] = own  # (a `customer_group_name` names a group, no person)
        kinds = set(leaf_types.values())
    if "company" in kinds and (pluralize(head) in ORG_COLLECTIONS or not kinds & NAME_TYPES):
        # a company's other names (`ShortName`, `trading_name`) are its own, in that form
        for key, kind in leaf_types.items():
            words = split_words(key)
            if kind == "title" and words[-1:] == ["name"] and len(words) == 2 and (
                    words[0] in COMPANY_FORMS):
                leaf_types[key] = "company"
    flags = Flags(
        person=bool(kinds & PERSON_TYPES) or parent.person,
        company=bool(kinds & {"company", "hostname"}) or parent.company,
        place=bool(kinds & PLACE_TYPES) or parent.place,
        product=(noun in PRODUCT_NOUNS or head in PRODUCT_NOUNS
                 or ({"title", "money"} <= kinds and head not in _MONEY_NOUNS
                     and noun not in SECURITY_NOUNS  # a stock's name and price: no product
                     and head not in TITLES_BY_NOUN))  # ... nor a project's and its budget
        and not kinds & PERSON_TYPES,
    )
    senders = _own_senders(leaf_types)
    own_id = f"{service}." if resource else None
    entries = []
    for key, sub in props.items():
        if key not in required and _unsaid(sub) and leaf_types.get(key) == "string" \
                and field_kind(key, sub, resource) is None:
            continue  # (a field its schema says nothing of, no filler: `"emails": "Regional
            # Emails"`, `"hashFunction": "Support Hash Function"` on a Google Admin user)
        if isinstance(sub, dict) and not _is_leaf(sub):
            owner = resource if key in _WRAPPERS else key
            part = not in_array and field_role(key) == "" and key not in _WRAPPERS
            # (an array of the record's own addresses needs to know whose record it is)
            sampler = _compile(sub, key, service, owner, depth + 1,
                               flags if part or schema_kind(sub) == "array" else NO_FLAGS,
                               inherit=part)
        else:
            sampler = _compile(sub, key, service, resource, depth, flags, in_array,
                               type_name=leaf_types.get(key), own=key in senders)
        kind = leaf_types.get(key, "")
        echo = not (in_array and (key == "id" or (own_id and kind.startswith(own_id))))
        # (a stamp of its going out of use, `archived_at`, is rare on a record)
        rare = key not in required and kind in ("datetime", "date") and out_of_use(key)
        entries.append((key, sampler, key in required, echo, Check(sub), rare))
    additional = schema.get("additionalProperties", True)
    if additional is not False:
        extra_schema = additional if isinstance(additional, dict) else {"type": "string"}
        for key in sorted(required - props.keys()):
            sampler = _compile(extra_schema, key, service, resource, depth + 1)
            entries.append((key, sampler, True, True, Check(extra_schema), False))
    map_values = (  # one sampler per key: `env` gets an environment, `owner` a person
        {key: _compile(additional, key, service, resource, depth + 1) for key in MAP_KEYS}
        if not props and isinstance(additional, dict) and additional and depth < MAX_DEPTH
        else None
    )
    # a map of custom fields (OnSched's `customFields`): each under its own label's key,
    # no `"owner": {"name": "Dietary requirements"}`
    custom = pair_keys(additional["properties"]) if map_values is not None and isinstance(
        additional.get("properties"), dict) else None
    chance = _OPTIONAL_P[depth] if depth < MAX_DEPTH else 0.0
    ranges = range_pairs({key: props[key] for key in leaf_types}, leaf_types)
    spans = {early for early, _ in ranges if leaf_types.get(early) == "datetime"
             and set(split_words(early)) & _SPAN_STARTS and head not in _LASTING}
    # a meeting's start and end days (`start_time` in `format: date`): one day
    days = {early for early, _ in ranges if leaf_types.get(early) == "date"
            and set(split_words(early)) & _SPAN_STARTS and head in EVENT_NOUNS}
    leaf_props = {key: props[key] for key in leaf_types}
    checks = {entry[0]: entry[4] for entry in entries}
    rules = [rule for rule in (zone_twin_rule(leaf_types), timeline_rule(leaf_types, NOW),
                               until_rule(leaf_types),
                               event_day_rule(leaf_types) if head in EVENT_NOUNS else None,
                               duration_rule(leaf_types) if head in EVENT_NOUNS else None,
                               initials_rule(leaf_types),
                               all_day_rule(leaf_props, leaf_types),
                               status_rule(leaf_props, leaf_types, required),
                               final_rule(leaf_types),
                               subcount_rule(leaf_props, leaf_types),
                               twin_rule(leaf_props, leaf_types),
                               _country_rule({**props, **leaf_props}, leaf_types, checks,
                                             required),
                               country_code_rule(_named_kinds(leaf_props, leaf_types,
                                                              resource),
                                                 leaf_types, noun, checks),
                               card_rule(_named_kinds(leaf_props, leaf_types), checks),
                               text_rule(leaf_props, leaf_types, noun, flags.product),
                               board_list_rule(props, leaf_types, noun),
                               phone_rule(leaf_types, required),
                               dial_rule(leaf_types),
                               whole_address_rule(leaf_props, leaf_types, required)) if rule]
    banks = bank_children(props, field_kind)  # (its bank account's: the record's country)
    bank_checks = _child_checks(props, {key: kinds for key, (kinds, _) in banks.items()})
    countries = country_children(props, field_kind)  # (its country object: its city's)
    country_checks = _child_checks(props, countries)
    staff = head in _STAFF_NOUNS  # a company's contact works there
    # its own id, and its children's keys to it (a company's contacts' `CompanyIDFK`)
    id_type = entity_id_type(service, resource) if resource and service else None
    id_key = next((key for key, kind in leaf_types.items() if kind == id_type), None)
    links = parent_links(props, id_key, id_type, service) if id_key and id_type else {}
    pair = pair_keys({key: props[key] for key, kind in leaf_types.items()
                      if kind in ("string", "title")})
    # a way to reach someone (Billbee's `DefaultPhone1`, `DefaultMail`) is no custom field:
    # a customer's phone of `{"TypeName": "Colour", "Value": "Bronze"}` is no phone
    channel = _channel(resource) if pair is not None else None
    # ... nor is its kind a made-up label (no Billbee `DefaultPhone1` of
    # `{"TypeName": "Annual 1"}`, `DefaultFax` "Regional Fax", a mail address "Q3 Address")
    kind_key = next((key for key, kind in leaf_types.items() if kind in ("string", "title")
                     and split_words(key) == ["type", "name"]), None) \
        if pair is None and _channel(resource) else None
    dialled = [key for key, kind in leaf_types.items() if kind == "country"] \
        if _channel(resource) == "phone" else []
    money_kinds = {key: schema_kind(props[key]) for key, kind in leaf_types.items()
                   if kind == "money"}
    amounts = money_agreement(money_kinds, checks)
    taxed = vat_agreement(leaf_types)
    scaled = currency_scale(money_kinds, [key for key, kind in leaf_types.items()
                                          if kind == "currency"], checks)

    def sample(ctx: Ctx, parent_scope: dict) -> dict[str, Any]:
        rng, overrides, out = ctx.rng, ctx.overrides, {}
        scope = parent_scope if inherit else child_scope(
            parent_scope, staff_of(parent_scope) if staff and EMPLOYER not in parent_scope
            else None)
        for key, sub, needed, echo, check, rare in entries:
            if overrides and echo and key in overrides and check(overrides[key]):
                out[key] = copy_value(overrides[key])
            elif needed or (chance and rng.random() < chance * (0.1 if rare else 1.0)):
                out[key] = sub(ctx, scope)
        if map_values is not None:
            for key in rng.sample(MAP_KEYS, rng.randint(1, 2)):
                value = map_values[key](ctx, {})
                if custom is not None and isinstance(value, dict):
                    key = custom_field(rng, value, custom, additional["properties"])
                out.setdefault(key, value)
        for early, late in ranges:  # start before end, created before updated
            if (early in out and late in out and not (overrides and (
                    early in overrides or late in overrides))
                    and type(out[early]) is type(out[late])):
                if out[early] > out[late]:
                    out[early], out[late] = out[late], out[early]
                if early in days:
                    out[late] = out[early]
                if early in spans:  # a meeting ends hours after it starts, not months
                    out[late] = span_end(out[early], out[late])
            elif early in spans and late in out and early not in out and not overrides:
                start = span_start(out[late])  # a meeting with an end has a start
                if start is not None and checks[early](start):
                    out[early], out[late] = start, span_end(start, out[late])
        for rule in rules:  # all-day events at midnight, a closing stamp with its status
            rule(out, overrides)
        if banks:
            bank_in_country(out, banks, bank_checks, overrides)
        if countries:
            country_in_place(out, countries, country_checks, overrides)
        if links:
            link_children(out, id_key, links, overrides or ())
        if pair is not None and pair[1] in out and not (overrides and set(pair) & overrides.keys()):
            if channel is None:
                custom_field(rng, out, pair, props)  # `{"name": "Account tier", "value":
                # "Gold"}`
            else:  # its kind, and no made-up value where none is needed
                if pair[0] is not None and pair[0] in out:
                    out[pair[0]] = rng.choice(_CHANNEL_LABELS[channel])
                if pair[1] not in required:
                    del out[pair[1]]
        if kind_key is not None and kind_key in out and not (overrides and kind_key in overrides):
            out[kind_key] = rng.choice(_CHANNEL_LABELS[_channel(resource) or "phone"])
        if dialled:  # a phone's country is its number's (no "+234..." tagged "CH")
            _dialled_country(out, dialled, checks, overrides)
        if amounts is not None:  # a fee is a share of the amount, the net what is left
            amounts(out, overrides)
        if taxed is not None:  # a VAT a share of its net, the gross the two (a quantity's
            taxed(out, overrides)  # share is no VAT: this comes after the amounts agree)
        if scaled is not None:  # yen and won in thousands
            scaled(out, overrides)
        return out

    return sample


def _compile_array(schema, name, service, resource, depth, flags: Flags = NO_FLAGS
                   ) -> Sampler:
    items = schema.get("items")
    words = split_words(name or "")
    item_name = "_".join([*words[:-1], singularize(words[-1])]) if words else None
    owner = resource if not name or name in _WRAPPERS or item_name in _WRAPPERS else item_name
    # a company's contacts, and its own addresses, emails and websites: its people's, no
    # other company's (an Apideck company "Fabrikam" read maya.okafor@wonka-confectionery.com)
    staff = bool(words) and (singularize(words[-1]) in _STAFF_NOUNS or flags.company and (
        item_name or "").split("_")[-1] in _COMPANY_DETAILS)
    fixed = items if isinstance(items, list) else schema.get("prefixItems")
    if isinstance(fixed, list):  # tuple form (draft 4-7 `items`, 2020-12 `prefixItems`)
        position = [_compile(s, item_name, service, owner, depth, in_array=True) for s in fixed]
    else:
        position = []
    # a person's own cards or bank accounts are theirs: a customer's card names the
    # customer as its holder (Square's customers[].cards[] held by somebody else)
    owned = bool(flags.person or flags.company) and any(
        (item_name or "") == noun or (item_name or "").endswith("_" + noun)
        for noun in _OWNED_ITEMS)
    item = _compile(items if isinstance(items, dict) else {"type": "string"}, item_name,
                    service, owner, depth, flags, in_array=not owned, inherit=owned)
    own = compile_addresses(schema, item_name, service, resource, flags, item)
    if own is not None:  # the record's own emails or phones
        return own
    low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
    high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
    # a list of words or numbers never says one thing twice (no `"address": ["124 Maple
    # Street" x3]`, no `["email", "call", "email"]`: a repeat reads as a generator's)
    distinct = schema.get("uniqueItems") is True or (
        not fixed and isinstance(items, dict) and json_type(items) not in ("object", "array"))
    ids = _own_ids(items, item_name) if not distinct else ()
    stub = isinstance(items, dict) and not items.get("properties") and (
        items.get("x-recursive") or items.get("x-truncated"))
    if depth >= MAX_DEPTH or stub:  # no list of empty stand-ins for a cut-off schema
        least, most = low, low
    else:
        least = max(low, 1 if high is None or high >= 1 else 0)
        most = max(least, min(3, high) if high is not None else 3)

    def sample(ctx: Ctx, scope: dict) -> list[Any]:
        count = ctx.rng.randint(least, most)
        contacts = staff_of(scope) if staff else None  # each another of the company's people
        out: list[Any] = []
        seen: set[bytes] = set()
        for index in range(count):
            make = position[index] if index < len(position) else item
            for _ in range(4 if distinct or ids else 1):
                value = make(ctx, scope if owned else child_scope(scope, contacts))
                keys = _item_keys(value, distinct, ids)
                if seen.isdisjoint(keys):
                    break
            if not seen.isdisjoint(keys):
                continue  # (no item found that the list does not hold yet)
            seen.update(keys)
            out.append(value)
        return out

    return sample


def _own_ids(items: Any, item_name: str | None) -> tuple[str, ...]:
    """The keys of a list item's own id (`id`, a contact's `ContactID` in `Contacts`): no
    two items of one list share it (review: two `InventoryItemID`s alike in one list)."""
    props = items.get("properties") if isinstance(items, dict) else None
    if not isinstance(props, dict):
        return ()
    words = split_words(item_name or "")
    own = (["id"], [*words, "id"], [*words[-1:], "id"])
    return tuple(key for key in props if split_words(key) in own)


def _item_keys(value: Any, distinct: bool, ids: tuple[str, ...]) -> list[bytes]:
    """What no two items of a list may share: the whole item, or each of its own ids."""
    if distinct:
        return [orjson.dumps(value, option=orjson.OPT_SORT_KEYS)]
    if not isinstance(value, dict):
        return []
    # (repr: an id may be an integer past what JSON writes)
    return [repr((key, value[key])).encode() for key in ids if value.get(key) is not None]


class ValuePlan:
    """A schema compiled once; calling it draws one value (see `value_from_schema`)."""

    __slots__ = ("schema", "_sample")

    def __init__(self, schema: Any, sample: Sampler) -> None:
        self.schema = schema
        self._sample = sample

    def __call__(
        self,
        rng: random.Random,
        *,
        pool: Pool | None = None,
        ids: dict[str, list[Any]] | None = None,
        anchor: dict[str, Any] | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> Any:
        ctx = Ctx(rng, pool, ids, dict(anchor) if anchor else None, overrides)
        return self._sample(ctx, {})


_PLANS: dict[tuple[Any, ...], ValuePlan] = {}


def compile_schema(
    schema: Any,
    *,
    name: str | None = None,
    service: str = "",
    resource: str | None = None,
    depth: int = 0,
) -> ValuePlan:
    """Compile a schema into a `ValuePlan` (memoized on a hash of its canonical JSON)."""
    try:
        text = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
        key: tuple[Any, ...] | None = (sha256(text).digest(), name, service, resource, depth)
    except TypeError:
        key = None
    plan = _PLANS.get(key) if key is not None else None
    if plan is None:
        plan = ValuePlan(schema, _compile(schema, name, service, resource, depth))
        if key is not None:
            if len(_PLANS) >= 4096:
                _PLANS.clear()
            _PLANS[key] = plan
    return plan


def value_from_schema(
    schema: Any,
    rng: random.Random,
    *,
    name: str | None = None,
    service: str = "",
    resource: str | None = None,
    pool: Pool | None = None,
    depth: int = 0,
    ids: dict[str, list[Any]] | None = None,
    anchor: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> Any:
    """A JSON value valid against `schema`, realistic field by field.

    Objects get their required properties and some optional ones (fewer deeper down, only
    required ones past `MAX_DEPTH` levels); arrays get 1-3 items within min/maxItems;
    `x-recursive` / `x-truncated` stubs become `{}`; `oneOf` branches are tried until one
    validates. `name`, `service` and `resource` give each field its semantic type as
    `semtypes.semantic_type` does. `pool` supplies people, companies, places and products;
    `ids` maps entity id types (`crm.contacts.id`) to ids that exist; `anchor` maps
    `person`/`company`/`place`/`product` to the entity the first matching field group
    uses; `overrides` are values echoed into same-named properties where they validate.
    """
    plan = compile_schema(schema, name=name, service=service, resource=resource, depth=depth)
    return plan(rng, pool=pool, ids=ids, anchor=anchor, overrides=overrides)



def _dialled_country(out: dict[str, Any], keys: list[str], checks: dict[str, Check],
                     overrides: dict[str, Any] | None) -> None:
    """The country fields of a phone object set to its number's country (ISO alpha-2)."""
    number = next((v for v in out.values() if isinstance(v, str) and v.startswith("+")
                   and v[1:].replace(" ", "").isdigit()), None)
    country = phone_country(number) if number else None
    for key in keys:
        if country and key in out and not (overrides and key in overrides) and \
                checks[key](country):
            out[key] = country


_CHANNEL_LABELS = {"phone": ("Mobile", "Work", "Home"), "email": ("Email", "Work email"),
                   "fax": ("Fax", "Work fax")}


def _channel(resource: str | None) -> str | None:
    """`phone`, `fax` or `email` for an object that is a way to reach someone
    (`DefaultPhone1`, `DefaultFax`, `DefaultMailAddress`), else None."""
    words = set(split_words(resource or ""))
    if "fax" in words:
        return "fax"
    if words & {"phone", "mobile", "telephone"}:
        return "phone"
    if words & {"email", "mail"}:
        return "email"
    return None

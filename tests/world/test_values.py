"""Seeded values: one generator per shared type, and whole values built from schemas."""

from __future__ import annotations

import hashlib
import ipaddress
import random
import re
import uuid
from datetime import date, datetime, time
from urllib.parse import urlparse

import fastjsonschema
import pytest
from jsonschema import Draft202012Validator

from compoworld.graph.semtypes import SHARED_TYPES
from compoworld.world.anchors import find_anchor, index_pool
from compoworld.world.patterns import sample_pattern
from compoworld.world.schemavalues import compile_schema, value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.seeds import derive_seed
from compoworld.world.values import generate
from compoworld.world.words import (
    CITIES,
    COMPANY_NAMES,
    COUNTRIES,
    CURRENCIES,
    FIRST_NAMES,
    LAST_NAMES,
)

CITY_NAMES = {row[0] for row in CITIES}


def check_email(v):
    assert re.fullmatch(r"[a-z0-9.]+@[a-z0-9-]+\.[a-z]{2,}", v)


def check_url(v):
    parts = urlparse(v)
    assert parts.scheme == "https" and "." in parts.netloc


SHAPES = {
    "email": check_email,
    "phone": lambda v: re.fullmatch(r"\+[1-9]\d{9,14}", v) or pytest.fail(v),
    "url": check_url,
    "uuid": lambda v: uuid.UUID(v).version == 4 or pytest.fail(v),
    "datetime": lambda v: datetime.fromisoformat(v.replace("Z", "+00:00")),
    "date": date.fromisoformat,
    "time": lambda v: time.fromisoformat(v.removesuffix("Z")),
    "ipv4": ipaddress.IPv4Address,
    "ipv6": ipaddress.IPv6Address,
    "hostname": lambda v: re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)+", v) or pytest.fail(v),
    "country": lambda v: v in COUNTRIES or pytest.fail(v),
    "currency": lambda v: v in CURRENCIES or pytest.fail(v),
    "money": lambda v: (isinstance(v, float) and v > 0) or pytest.fail(repr(v)),
    "first_name": lambda v: v in FIRST_NAMES or pytest.fail(v),
    "last_name": lambda v: v in LAST_NAMES or pytest.fail(v),
    "person_name": lambda v: (v.split()[0] in FIRST_NAMES and v.split()[1] in LAST_NAMES)
    or pytest.fail(v),
    "username": lambda v: re.fullmatch(r"[a-z0-9._]+", v) or pytest.fail(v),
    "company": lambda v: v in COMPANY_NAMES or pytest.fail(v),
    "city": lambda v: v in CITY_NAMES or pytest.fail(v),
    "address": lambda v: re.fullmatch(r"\d+ [A-Z][a-z]+ [A-Z][a-z]+", v) or pytest.fail(v),
    "postal_code": lambda v: re.search(r"\d", v) or pytest.fail(v),
    "latitude": lambda v: -90 <= v <= 90 or pytest.fail(v),
    "longitude": lambda v: -180 <= v <= 180 or pytest.fail(v),
    "language": lambda v: re.fullmatch(r"[a-z]{2}", v) or pytest.fail(v),
    "timezone": lambda v: re.fullmatch(r"[A-Z][a-z]+/[A-Za-z_]+", v) or pytest.fail(v),
    "filename": lambda v: re.fullmatch(r"[a-z0-9-]+\.[a-z]+", v) or pytest.fail(v),
    "title": lambda v: (v and "\n" not in v and len(v) < 80) or pytest.fail(v),
    "text": lambda v: v.endswith((".", "?")) or pytest.fail(v),
}
FORMATS = {"email": "email", "url": "uri", "uuid": "uuid", "datetime": "date-time",
           "date": "date", "time": "time", "ipv4": "ipv4", "ipv6": "ipv6",
           "hostname": "hostname"}


def test_every_shared_type_has_a_shape_check():
    assert set(SHAPES) == set(SHARED_TYPES)


@pytest.mark.parametrize("type_name", sorted(SHARED_TYPES))
def test_each_generator_gives_values_of_the_right_shape(type_name):
    rng = random.Random(3)
    for _ in range(30):
        value = generate(type_name, rng)
        SHAPES[type_name](value)
        if type_name in FORMATS:  # and the format validators agree
            schema = {"type": "string", "format": FORMATS[type_name]}
            fastjsonschema.compile(schema)(value)
            Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER
                                 ).validate(value)


@pytest.mark.parametrize("fallback, kind", [("string", str), ("integer", int),
                                            ("number", float), ("boolean", bool)])
def test_fallbacks_have_their_json_type(fallback, kind):
    rng = random.Random(0)
    assert all(type(generate(fallback, rng)) is kind for _ in range(20))


def test_the_same_seed_gives_the_same_values_and_another_seed_others():
    def draw(seed):
        rng = random.Random(seed)
        return [generate(t, rng) for t in sorted(SHARED_TYPES)]

    assert draw(1) == draw(1)
    assert draw(1) != draw(2)


def test_money_follows_the_schema_type():
    rng = random.Random(5)
    for _ in range(20):
        assert isinstance(generate("money", rng, {"type": "integer"}), int)
        assert re.fullmatch(r"\d+\.\d\d", generate("money", rng, {"type": "string"}))
        assert isinstance(generate("money", rng, {"type": "number"}), float)
        cents = generate("money", rng, {"type": "integer", "minimum": 100, "maximum": 500})
        assert 100 <= cents <= 500


@pytest.mark.parametrize("schema, ok", [
    ({"enum": ["red", "green"]}, lambda v: v in ("red", "green")),
    ({"const": 7}, lambda v: v == 7),
    ({"type": "integer", "minimum": 10, "maximum": 12}, lambda v: 10 <= v <= 12),
    ({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 3}, lambda v: v in (1, 2)),
    ({"type": "number", "minimum": 0.5, "maximum": 0.75}, lambda v: 0.5 <= v <= 0.75),
    ({"type": "integer", "multipleOf": 5, "minimum": 1}, lambda v: v % 5 == 0 and v >= 5),
    ({"type": "string", "maxLength": 3}, lambda v: len(v) <= 3),
    ({"type": "string", "minLength": 12}, lambda v: len(v) >= 12),
    ({"type": "string", "pattern": r"^[A-Z]{3}-\d{4}$"},
     lambda v: re.fullmatch(r"[A-Z]{3}-\d{4}", v)),
    ({"type": "string", "format": "email"}, lambda v: "@" in v),
])
def test_generate_respects_the_schema(schema, ok):
    rng = random.Random(9)
    for type_name in ("string", "integer", "title"):
        for _ in range(10):
            value = generate(type_name, rng, schema)
            assert ok(value), (type_name, value)


def test_country_and_language_codes_follow_length_limits():
    rng = random.Random(1)
    assert len(generate("country", rng, {"type": "string", "minLength": 3, "maxLength": 3})) == 3
    assert generate("country", rng, {"type": "string", "minLength": 4}) in {
        row[0] for row in COUNTRIES.values()}
    assert re.fullmatch(r"[a-z]{2}-[A-Z]{2}", generate("language", rng, {"minLength": 5}))


@pytest.mark.parametrize("pattern", [
    r"^\d{5}$", r"^[a-z0-9_-]{3,16}$", r"^(GET|POST)$", r"^[^0-9]+$", r"^\w+@\w+\.com$",
    r"^[A-Z]{2}\d{2}[A-Z0-9]{4}\d{7}([A-Z0-9]?){0,16}$", r"^v\d+\.\d+\.\d+$", r"^#?[0-9a-f]{6}$",
    r"^(?![0-9]+$)(?!-)[a-zA-Z0-9-]{2,99}[a-zA-Z0-9]$",
])
def test_sample_pattern_meets_the_pattern(pattern):
    rng = random.Random(0)
    for _ in range(10):
        assert re.search(pattern, sample_pattern(pattern, rng))


def test_sample_pattern_meets_length_bounds_by_stretching_repeats():
    rng = random.Random(0)
    assert re.fullmatch(r"[0-9a-fA-F]{40}", sample_pattern(r"^[0-9a-fA-F]+$", rng, 40, 40))
    assert 7 <= len(sample_pattern(r"^[A-Z0-9]*$", rng, 7, 16)) <= 16


def test_contradictory_enums_keep_the_values_that_fit():
    rng = random.Random(0)
    assert generate("string", rng, {"type": "integer", "enum": ["1", "2"]}) in (1, 2)
    schema = {"type": "string", "pattern": "^[a-z]{1,5}$", "enum": ["short", "muchlonger"]}
    assert all(generate("string", rng, schema) == "short" for _ in range(5))


def test_a_pattern_with_a_back_reference_is_not_sampled():
    # Documented limit: back-references are not generated.
    assert sample_pattern(r"^(ab)\1$", random.Random(0)) is None


def nest(names: str) -> dict:
    """`{"a": {"b": ... {"f": string, "g": optional string}}}`, every level required."""
    schema = {"type": "object", "required": ["f"],
              "properties": {"f": {"type": "string"}, "g": {"type": "string"}}}
    for name in reversed(names):
        schema = {"type": "object", "required": [name], "properties": {name: schema}}
    return schema


DEEP = nest("abcde")
SCHEMAS = [
    {"type": "object", "required": ["id", "email", "status"], "additionalProperties": False,
     "properties": {
         "id": {"type": "integer", "minimum": 1}, "email": {"type": "string", "format": "email"},
         "status": {"type": "string", "enum": ["active", "archived"]},
         "first_name": {"type": "string", "maxLength": 20}, "balance": {"type": "number"},
         "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                  "maxItems": 2},
     }},
    {"type": "object", "properties": {
        "data": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["contactId", "address"], "properties": {
                "contactId": {"type": "string"},
                "address": {"type": "object", "required": ["city", "zip"], "properties": {
                    "city": {"type": "string"}, "zip": {"type": "string", "pattern": r"^\d{5}$"},
                    "geo": {"type": "object", "properties": {
                        "lat": {"type": "number"}, "lng": {"type": "number"}}},
                }},
            }}},
        "next_url": {"type": "string", "format": "uri"},
        "total": {"type": "integer", "minimum": 0},
    }},
    {"type": "object", "required": ["amount", "currency", "created"], "properties": {
        "amount": {"type": "integer", "minimum": 50}, "currency": {"type": "string",
                                                                   "pattern": "^[A-Z]{3}$"},
        "created": {"type": "string", "format": "date-time"},
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
        "source": {"oneOf": [
            {"type": "object", "required": ["card"], "additionalProperties": False,
             "properties": {"card": {"type": "string"}}},
            {"type": "object", "required": ["iban"], "additionalProperties": False,
             "properties": {"iban": {"type": "string"}}},
        ]},
        "note": {"type": ["string", "null"]},
        "refund": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0}]},
    }},
    {"type": "array", "minItems": 2, "maxItems": 2, "items": {"allOf": [
        {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
        {"properties": {"size": {"type": "integer", "maximum": 10}}, "required": ["size"]},
    ]}},
    {"type": "object", "required": ["name", "children"], "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"type": "object", "x-recursive": "Folder"}},
        "owner": {"type": "object", "x-truncated": True},
        "extra": {"x-unresolved": "other.json#/Thing"},
    }},
    DEEP,
    {"type": "object", "required": ["pair", "code"], "properties": {
        "pair": {"type": "array", "minItems": 2, "maxItems": 2,
                 "prefixItems": [{"type": "integer"}, {"type": "string"}]},
        "code": {"type": "string", "const": "X1"},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        "mystery": {}, "when": {"type": "string", "format": "date"},
    }},
    {"type": "string", "format": "uuid"},
    {"type": "integer", "minimum": 3, "maximum": 4},
]


@pytest.mark.parametrize("index", range(len(SCHEMAS)))
def test_value_from_schema_is_valid(index):
    schema = SCHEMAS[index]
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    fast = fastjsonschema.compile(schema)
    pool = draw_pool(1)
    for seed in range(40):
        value = value_from_schema(schema, random.Random(seed), service="crm",
                                  resource="contacts", pool=pool if seed % 2 else None)
        validator.validate(value)
        fast(value)


def test_deep_objects_stop_at_the_depth_cap_but_keep_required_fields():
    value = value_from_schema(DEEP, random.Random(0))
    assert value["a"]["b"]["c"]["d"]["e"] == {"f": value["a"]["b"]["c"]["d"]["e"]["f"]}


def test_one_object_describes_one_person_and_roles_are_other_people():
    schema = {"type": "object", "required": ["email", "first_name", "last_name", "owner_email"],
              "properties": {"email": {"type": "string"}, "first_name": {"type": "string"},
                             "last_name": {"type": "string"}, "owner_email": {"type": "string"}}}
    pool = draw_pool(4)
    emails = {p.email for p in pool.people}
    others = 0
    for seed in range(20):
        value = value_from_schema(schema, random.Random(seed), resource="contacts", pool=pool)
        assert value["email"] == f"{value['first_name']}.{value['last_name']}@".lower() + \
            value["email"].split("@")[1]
        assert value["email"] in emails and value["owner_email"] in emails
        others += value["owner_email"] != value["email"]
    assert others == 20


def test_nested_parts_share_the_record_person_and_parties_do_not():
    schema = {"type": "object", "required": ["email", "address", "sender"], "properties": {
        "email": {"type": "string"},
        "address": {"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string"}}},
        "sender": {"type": "object", "required": ["name", "email"], "properties": {
            "name": {"type": "string"}, "email": {"type": "string"}}},
    }}
    pool = draw_pool(2)
    people = {p.email: p for p in pool.people}
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), pool=pool)
        person = people[value["email"]]
        assert value["address"]["city"] == person.place.city
        sender = people[value["sender"]["email"]]
        assert value["sender"]["name"] == sender.name and sender is not person



def test_a_record_s_other_addresses_and_billing_person_are_its_own_person():
    """A user's `secondaryEmailAddress`, `homePhone` and `notification_email` (Box's: a
    colleague's was another company's person) are theirs, and an order's `billingPerson` is
    its customer: one person, where a `bcc_email` is somebody else."""
    schema = {"type": "object", "required": ["email", "firstName", "secondaryEmailAddress",
                                             "homePhone", "bccEmail", "billingPerson",
                                             "notification_email"],
              "properties": {
                  "email": {"type": "string"}, "firstName": {"type": "string"},
                  "secondaryEmailAddress": {"type": "string"}, "homePhone": {"type": "string"},
                  "notification_email": {"type": "string"},
                  "bccEmail": {"type": "string"},
                  "billingPerson": {"type": "object", "required": ["name", "email"],
                                    "properties": {"name": {"type": "string"},
                                                   "email": {"type": "string"}}}}}
    pool = draw_pool(3)
    people = {p.email: p for p in pool.people}
    others = 0
    for seed in range(20):
        value = value_from_schema(schema, random.Random(seed), resource="users", pool=pool)
        person = people[value["email"]]
        assert value["firstName"] == person.first_name
        assert value["secondaryEmailAddress"] == person.email
        assert value["homePhone"] == person.phone
        assert value["notification_email"] == person.email
        assert value["billingPerson"] == {"name": person.name, "email": person.email}
        others += value["bccEmail"] != person.email
    assert others >= 18


def test_a_meeting_ends_hours_after_it_starts_and_created_updated_keep_their_spread():
    schema = {"type": "object", "required": ["start_time", "end_time", "created_at",
                                             "updated_at"],
              "properties": {key: {"type": "string", "format": "date-time"}
                             for key in ("start_time", "end_time", "created_at", "updated_at")}}
    spreads = []
    for seed in range(30):
        value = value_from_schema(schema, random.Random(seed), resource="events")
        start, end = (datetime.fromisoformat(value[k]) for k in ("start_time", "end_time"))
        assert 30 * 60 <= (end - start).total_seconds() <= 3 * 3600, value
        assert value["end_time"].endswith("Z") == value["start_time"].endswith("Z")
        made, changed = (datetime.fromisoformat(value[k]) for k in ("created_at", "updated_at"))
        assert made <= changed
        spreads.append((changed - made).total_seconds())
    assert max(spreads) > 3 * 86400  # no span rule there: records change days later

def test_a_record_s_amounts_agree_fee_net_and_total_from_one_amount():
    money = {"type": "number"}
    schema = {"type": "object", "required": ["amount", "fee", "net_amount", "tax_amount",
                                             "total_amount", "max_amount"],
              "properties": {"amount": money, "fee": money, "net_amount": money,
                             "tax_amount": money, "total_amount": {"type": "string"},
                             "max_amount": money, "paid_amount": {"type": "integer"}}}
    limits = set()
    for seed in range(20):
        value = value_from_schema(schema, random.Random(seed), resource="payments")
        amount = value["amount"]
        assert value["fee"] == round(amount * 0.03, 2)
        assert value["net_amount"] == round(amount - amount * 0.03, 2) < amount
        assert value["tax_amount"] == round(amount * 0.1, 2)
        assert value["total_amount"] == f"{amount + value['tax_amount']:.2f}"  # still a string
        if "paid_amount" in value:  # integer minor units of the same amount
            assert value["paid_amount"] == round(amount * 100)
        limits.add(value["max_amount"])
    assert len(limits) > 5  # a limit is no part of the payment: its own draw
    given = value_from_schema(schema, random.Random(0), resource="payments",
                              overrides={"amount": 200.0, "fee": 1.0})
    assert (given["amount"], given["fee"], given["net_amount"]) == (200.0, 1.0, 199.0)


def test_amounts_take_their_currency_s_scale_unless_given():
    money = {"type": "number"}
    schema = {"type": "object", "required": ["amount", "fee", "currency"],
              "properties": {"amount": money, "fee": money,
                             "currency": {"type": "string", "enum": ["KRW"]}}}
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), resource="payments")
        assert value["amount"] >= 1400 and value["amount"] == int(value["amount"]), value
        assert value["fee"] == pytest.approx(value["amount"] * 0.03, abs=10)  # still its share
    dollars = dict(schema, properties={**schema["properties"],
                                       "currency": {"type": "string", "enum": ["USD"]}})
    assert value_from_schema(dollars, random.Random(0), resource="payments")["amount"] < 1000
    given = value_from_schema(schema, random.Random(0), resource="payments",
                              overrides={"amount": 12.5})
    assert given["amount"] == 12.5  # an amount the caller gave is already in its currency


def test_an_order_s_product_names_only_its_product_fields():
    pool = draw_pool(8)
    titles = {product.title for product in pool.products}
    schema = {"type": "object", "required": ["product_name", "price", "shipping_profile_name",
                                             "api_account_name"],
              "properties": {key: {"type": "string"} for key in (
                  "product_name", "price", "shipping_profile_name", "api_account_name")}}
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), resource="orders", pool=pool)
        assert value["product_name"] in titles
        assert value["shipping_profile_name"] not in titles
        assert value["api_account_name"] not in titles


def test_a_hex_class_draws_one_case_and_a_letter_class_both():
    rng = random.Random(0)
    sids = [sample_pattern(r"^AC[0-9a-fA-F]{32}$", rng) for _ in range(20)]
    assert all(re.fullmatch(r"AC[0-9a-f]{32}", sid) for sid in sids)
    tokens = "".join(sample_pattern(r"^[A-Za-z0-9]{40}$", rng) for _ in range(5))
    assert re.search("[A-Z]", tokens) and re.search("[a-z]", tokens)


def test_known_ids_are_used_and_converted_to_the_field_type():
    schema = {"type": "object", "required": ["company_id", "companyId"], "properties": {
        "company_id": {"type": "string"}, "companyId": {"type": "integer"}}}
    ids = {"crm.companies.id": ["com_0003"]}
    value = value_from_schema(schema, random.Random(0), service="crm", ids=ids)
    assert value == {"company_id": "com_0003", "companyId": 3}


def test_overrides_are_echoed_only_where_they_validate():
    schema = {"type": "object", "required": ["city", "count"], "properties": {
        "city": {"type": "string"}, "count": {"type": "integer"}}}
    value = value_from_schema(schema, random.Random(0), overrides={"city": "Oslo", "count": "x"})
    assert value["city"] == "Oslo" and isinstance(value["count"], int)


def test_an_anchor_fixes_the_first_person_of_a_value():
    pool = draw_pool(8)
    person = pool.people[-1]
    anchor = find_anchor(["nobody", person.email.upper()], index_pool(pool))
    assert anchor == {"person": person}
    schema = {"type": "object", "required": ["name", "phone"], "properties": {
        "name": {"type": "string"}, "phone": {"type": "string"}}}
    value = value_from_schema(schema, random.Random(0), resource="users", pool=pool,
                              anchor=anchor)
    assert value == {"name": person.name, "phone": person.phone}


def test_compiled_plans_are_memoized_and_seeds_are_stable():
    assert compile_schema({"type": "string"}, name="email") is compile_schema(
        {"type": "string"}, name="email")
    # SHA-256 based, never Python's salted hash(): the same in every process
    expected = int.from_bytes(hashlib.sha256(b"world\x1f1").digest()[:8], "big")
    assert derive_seed("world", 1) == expected != derive_seed("world", 2)


@pytest.mark.parametrize(("resource", "noun"), [("invoices", "invoice"), ("tickets", "ticket"),
                                                ("calendar_events", "event"),
                                                ("pull_requests", "pull"), ("pulls", "pull"),
                                                ("releases", "release")])
def test_a_record_s_title_is_one_of_its_kind(resource, noun):
    """An invoice is titled "March consulting services", a ticket "Refund delay" and a pull
    request "Fix login redirect", never "Quarterly support ticket" or "Weekly budget review"
    (a generic title of any record, which a pull request to review was)."""
    from compoworld.world.words import TITLES_BY_NOUN

    heads, topics = TITLES_BY_NOUN[noun]
    schema = {"type": "object", "required": ["subject"], "properties": {
        "subject": {"type": "string"}}}
    for seed in range(20):
        title = value_from_schema(schema, random.Random(seed), service="app",
                                  resource=resource)["subject"]
        assert any(title == f"{h} {t}" for h in heads for t in topics), title


def test_a_made_up_label_is_no_name_a_record_was_given():
    from compoworld.world.vocab import maker, stand_in_name

    made = maker("name", "contact")(random.Random(3))
    assert stand_in_name(made), made  # "Annual Contact": how a walk knows nobody named it
    assert not stand_in_name("Ann Lee") and not stand_in_name("Annual budget review")
    # an account is named by the team or use it is for, still a label: no "Q3 Account"
    accounts = {maker("name", "account")(random.Random(seed)) for seed in range(40)}
    assert all(stand_in_name(a) for a in accounts), accounts
    assert not accounts & {"Q3 Account", "Weekly Account", "Spring Account", "Annual Account"}


def test_a_world_s_records_are_mostly_in_use():
    """A customer record is rarely deleted, archived or not to be contacted, and rarely
    stamped with the time it was archived; an active flag is mostly on; other flags are
    a coin's toss."""
    schema = {"type": "object", "properties": {
        "isDeleted": {"type": "boolean"}, "do_not_contact": {"type": "boolean"},
        "is_active": {"type": "boolean"}, "newsletter": {"type": "boolean"},
        "archived_at": {"type": "string", "format": "date-time"},
        "created_at": {"type": "string", "format": "date-time"}},
        "required": ["isDeleted", "do_not_contact", "is_active", "newsletter"]}
    rng = random.Random(5)
    records = [value_from_schema(schema, rng, resource="customers") for _ in range(400)]
    share = {key: sum(bool(r.get(key)) for r in records) / len(records)
             for key in ("isDeleted", "do_not_contact", "is_active", "newsletter",
                         "archived_at", "created_at")}
    assert share["isDeleted"] < 0.12 and share["do_not_contact"] < 0.12, share
    assert share["is_active"] > 0.8 and 0.35 < share["newsletter"] < 0.65, share
    assert share["archived_at"] < share["created_at"] / 4, share


def test_a_list_of_words_never_says_one_thing_twice() -> None:
    """No `"address": ["124 Maple Street" x3]`, no `["email", "call", "email"]`: a list of
    plain values holds each once, whether or not its schema says `uniqueItems`."""
    said = {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}
    ways = {"type": "array", "items": {"type": "string", "enum": ["email", "call", "sms"]}}
    for seed in range(20):
        for schema, name in ((said, "address"), (ways, "channels"), (said, "tags")):
            value = value_from_schema(schema, random.Random(seed), name=name)
            assert value and len(value) == len(set(value)), (name, value)


def test_a_phone_s_country_code_is_a_calling_code():
    """Apacta's users read `"mobile_countrycode": "Spring Mobile Countrycode"`: a phone's
    country code is a calling code (`+45`); a plain country code stays a country's."""
    schema = {"type": "object", "required": ["mobile_countrycode", "countrycode"],
              "properties": {"mobile_countrycode": {"type": "string"},
                             "countrycode": {"type": "string"}}}
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), service="apacta",
                                  resource="users")
        assert value["mobile_countrycode"].startswith("+"), value
        assert value["mobile_countrycode"][1:].isdigit(), value
        assert not value["countrycode"].startswith("+"), value


def test_a_whole_number_that_is_a_moment_is_near_now():
    """Stripe's `created` ("seconds since the Unix epoch") was drawn as 35, a moment in
    1970: a moment in seconds is within months of the world's now, and an expiry ahead."""
    from compoworld.world.clock import NOW

    now = int(NOW.timestamp())
    schema = {"type": "object", "required": ["created", "updated_at", "expires_at", "count"],
              "properties": {
                  "created": {"type": "integer", "description": "Time at which the object "
                              "was created. Measured in seconds since the Unix epoch."},
                  "updated_at": {"type": "integer"}, "expires_at": {"type": "integer"},
                  "count": {"type": "integer"}}}
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), service="stripe",
                                  resource="invoices")
        assert now - 365 * 86400 < value["created"] <= now, value
        assert now - 365 * 86400 < value["updated_at"] <= now, value
        assert now < value["expires_at"] < now + 400 * 86400, value
        assert value["count"] < 1000, value


def test_a_visibility_is_a_visibility():
    """Gitea's repositories had `"visibility": "Finance Visibility"`: a label made of the
    field's name, which reviewers read as a placeholder."""
    schema = {"type": "object", "required": ["visibility"],
              "properties": {"visibility": {"type": "string"}}}
    seen = {value_from_schema(schema, random.Random(seed), name="repository",
                              service="gitea")["visibility"] for seed in range(12)}
    assert seen <= {"public", "private", "internal"} and seen, seen

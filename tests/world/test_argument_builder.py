"""The argument builder honours each tool's own schema, and values fit their fields."""

from __future__ import annotations

import random
import re
import uuid

import jsonschema
import pytest

from compoworld.world.realism import random_token
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool, seed_state
from compoworld.world.words import CITIES, CITY_POSTAL, CITY_REGIONS, COUNTRIES, CURRENCIES, WORDS

SEEDS = range(40)
FORMATS = jsonschema.Draft7Validator.FORMAT_CHECKER


def valid(schema: dict, value) -> None:
    jsonschema.Draft7Validator(schema, format_checker=FORMATS).validate(value)


def in_city_range(city: str, code: str) -> bool:
    """Whether a postal code has the shape of `city`'s own range (`CITY_POSTAL`)."""
    shape = CITY_POSTAL[city]
    return len(code) == len(shape) and all(
        s == c or (s == "#" and c.isdigit()) or (s == "?" and c.isalpha())
        for s, c in zip(shape, code, strict=True))


def params(properties: dict, required: list[str] | None = None) -> dict:
    return {"type": "object", "properties": properties,
            "required": list(properties) if required is None else required}


CASES = {
    "integer ids": params({"id": {"type": "integer", "minimum": 1},
                           "user_id": {"type": "integer", "format": "int64"},
                           "page": {"type": "integer", "minimum": 1, "maximum": 3}}),
    "arn": params({"ResourceArn": {"type": "string", "minLength": 20, "maxLength": 1011,
                                   "pattern": "^arn:aws:[a-z0-9-]+:"}}),
    "arn with service": params({"TopicArn": {"type": "string",
                                             "pattern": "^arn:aws:sns:[a-z0-9-]+:\\d{12}:.+$"}}),
    "code pattern": params({"permit": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{6}$"}}),
    "uuid": params({"requestId": {"type": "string", "format": "uuid"},
                    "token": {"type": "string", "format": "uuid"}}),
    "min length 8": params({"password": {"type": "string", "minLength": 8},
                            "name": {"type": "string", "minLength": 8, "maxLength": 12},
                            "label": {"type": "string", "minLength": 8}}),
    "enums": params({"status": {"type": "string", "enum": ["draft", "sent"]},
                     "level": {"type": "integer", "enum": [1, 2, 3]}}),
    "formats": params({"when": {"type": "string", "format": "date-time"},
                       "day": {"type": "string", "format": "date"},
                       "mail": {"type": "string", "format": "email"},
                       "server": {"type": "string", "format": "ipv4"},
                       "home": {"type": "string", "format": "uri"},
                       "blob": {"type": "string", "format": "byte"},
                       "count": {"type": "string", "format": "int64"}}),
    "bounds": params({"ratio": {"type": "number", "minimum": 0, "maximum": 1},
                      "step": {"type": "integer", "multipleOf": 5, "minimum": 10}}),
    "arrays": params({"tags": {"type": "array", "minItems": 2, "maxItems": 4,
                               "items": {"type": "string"}},
                      "ids": {"type": "array", "minItems": 3, "uniqueItems": True,
                              "items": {"type": "integer"}}}),
    "nested required": params({"body": params({"customer": params({"email": {
        "type": "string", "format": "email"}, "plan": {"type": "string"}})})}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_arguments_validate_against_the_tools_own_schema(case: str):
    schema = CASES[case]
    for seed in SEEDS:
        valid(schema, value_from_schema(schema, random.Random(seed), service="svc",
                                        resource="users"))


def test_ids_take_the_shape_their_schema_gives():
    for seed in SEEDS:
        rng = random.Random(seed)
        ints = value_from_schema(CASES["integer ids"], rng, service="crm", resource="users")
        assert all(isinstance(v, int) and not isinstance(v, bool) for v in ints.values())
        arn = value_from_schema(CASES["arn"], rng)["ResourceArn"]
        assert arn.startswith("arn:aws:"), arn
        assert uuid.UUID(value_from_schema(CASES["uuid"], rng)["requestId"]).version == 4
        assert re.fullmatch(r"[A-Z]{2}\d{6}", value_from_schema(CASES["code pattern"],
                                                                 rng)["permit"])


def test_examples_and_defaults_come_before_made_up_values():
    schema = params({"region": {"type": "string", "example": "eu-west-3"},
                     "limit": {"type": "integer", "default": 25, "maximum": 100},
                     "kind": {"type": "string", "example": "string"}})  # a placeholder
    for seed in SEEDS:
        value = value_from_schema(schema, random.Random(seed))
        assert value["region"] == "eu-west-3" and value["limit"] == 25
        assert value["kind"] != "string"


NAMED = params({
    "api_version": {"type": "string"}, "status": {"type": "string"},
    "category": {"type": "string"}, "role": {"type": "string"}, "method": {"type": "string"},
    "sort_order": {"type": "string"}, "currency": {"type": "string"},
    "locale": {"type": "string"}, "time_zone": {"type": "string"},
    "color": {"type": "string"}, "notes": {"type": "string"}, "subject": {"type": "string"},
    "priority": {"type": "string"}, "nickname": {"type": "string"},
    "widget": {"type": "string"},
})


def test_values_fit_what_their_field_name_says():
    seen: dict[str, set] = {key: set() for key in NAMED["properties"]}
    for seed in SEEDS:
        value = value_from_schema(NAMED, random.Random(seed), service="spend",
                                  resource="expenses")
        for key, item in value.items():
            seen[key].add(item)
            assert not random_token(item, key), (key, item)
    assert all(re.fullmatch(r"v\d|\d{4}-\d\d-\d\d|\d+\.\d+(\.\d+)?", v)
               for v in seen["api_version"])
    assert seen["status"] <= {"active", "pending", "inactive", "suspended", "archived",
                              "completed"}
    assert seen["category"] <= {"travel", "meals", "lodging", "software", "office_supplies",
                                "training"}  # an expense's categories, never a person
    assert seen["role"] <= {"admin", "owner", "editor", "member", "viewer", "guest",
                            "billing_manager"}
    assert seen["method"] <= {"GET", "POST", "PUT", "PATCH", "DELETE"}
    assert seen["sort_order"] <= {"asc", "desc"}
    assert seen["currency"] <= set(CURRENCIES) | {row[3] for row in COUNTRIES.values()}
    assert all(re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", v) for v in seen["locale"])
    assert all("/" in v for v in seen["time_zone"])
    assert all(v.endswith((".", "?")) and " " in v for v in seen["notes"])
    filler = set(WORDS)
    assert not any(set(re.findall(r"[a-z]+", str(v).lower())) & filler
                   for values in seen.values() for v in values)


def test_an_address_agrees_with_itself():
    address = params({"city": {"type": "string"}, "state": {"type": "string"},
                      "zip": {"type": "string"}, "country": {"type": "string"},
                      "latitude": {"type": "number"}})
    rows = {row[0]: row for row in CITIES}
    pool = draw_pool(3)
    for seed in SEEDS:
        value = value_from_schema(address, random.Random(seed), pool=pool)
        city, country, lat = rows[value["city"]][:3]
        assert value["state"] == CITY_REGIONS[value["city"]]
        assert value["country"] == country and country in COUNTRIES
        assert abs(value["latitude"] - lat) < 0.1
        assert in_city_range(value["city"], value["zip"]), value


def test_ranges_come_in_order():
    schema = params({"start_date": {"type": "string", "format": "date"},
                     "end_date": {"type": "string", "format": "date"},
                     "created_at": {"type": "string", "format": "date-time"},
                     "updated_at": {"type": "string", "format": "date-time"},
                     "from": {"type": "integer"}, "to": {"type": "integer"}})
    for seed in SEEDS:
        value = value_from_schema(schema, random.Random(seed))
        assert value["start_date"] <= value["end_date"]
        assert value["created_at"] <= value["updated_at"]
        assert value["from"] <= value["to"]


def test_a_collection_keyed_by_zip_gets_zips_of_its_own_cities():
    from compoworld.specs.records import ServiceSpec

    zips = {"type": "object", "x-id-field": "zip", "required": ["zip", "city", "state"],
            "properties": {"zip": {"type": "string"}, "city": {"type": "string"},
                           "state": {"type": "string"}}}
    spec = ServiceSpec(name="geo", title="Geo", description="", domain="geo",
                       source="test", resources={"zips": zips}, tools=[])
    state = seed_state(spec, 7)
    records = list(state.records("zips").values())
    assert len(records) == 5
    for record in records:
        assert not random_token(record["zip"], "zip"), record
        assert in_city_range(record["city"], record["zip"]), record
        assert record["state"] == CITY_REGIONS[record["city"]]


def test_the_detector_finds_filler_words_and_placeholders():
    assert random_token("violet", "category")
    assert random_token("ember-zenith 12", "label")
    assert random_token("zip_0005", "zip")
    assert not random_token("con_0005", "contact_id")
    assert not random_token("alpha", "stage", {"enum": ["alpha", "beta"]})
    assert not random_token("travel", "category")


def test_ids_take_the_shape_the_tools_ask_for():
    from compoworld.specs.openapi import load_openapi

    body = {"content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/Deployment"}}}}
    document = {
        "openapi": "3.0.3", "info": {"title": "Deploy", "version": "1"},
        "components": {"schemas": {"Deployment": {"type": "object", "properties": {
            "id": {"type": "string"}, "name": {"type": "string"}}}}},
        "paths": {
            "/deployments": {"post": {"operationId": "createDeployment", "requestBody": body,
                                      "responses": {"201": {"description": "ok", **body}}}},
            "/deployments/{id}": {"get": {
                "operationId": "getDeployment",
                "parameters": [{"name": "id", "in": "path", "required": True,
                                "schema": {"type": "integer", "minimum": 1}}],
                "responses": {"200": {"description": "ok", **body}}}}},
    }
    spec = load_openapi(document, "deploy.json")
    get = next(t for t in spec.tools if t.name.endswith("get_deployment"))
    assert get.param_types["id"].endswith(".deployments.id")
    state = seed_state(spec, 1)
    ids = sorted(state.records("deployments"))
    assert len(ids) == 5 and all(key.isdigit() for key in ids)  # `get` takes an integer
    for key in ids:
        valid(get.parameters, {"id": int(key)})

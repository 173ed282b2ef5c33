"""Fuzzing `Service.call`: whatever the arguments, the answer is the protocol, and a
rejected call leaves the state exactly as it was (DESIGN.md, "The call protocol").

Services: two small hand-made OpenAPI documents (compiled and simulated tools, built with
`build_service` as the synthesize stage does) and every built-in service. Arguments:
random JSON (any shape, top level included), dicts keyed by the tool's real parameter
names with random values, and valid arguments (`build_arguments`) with one parameter
replaced by a random value or an existing id, or dropped. Every example starts from a
fresh copy of the service's seeded start state, so a failure replays and shrinks.
When the arguments are plain JSON (64-bit integers, finite numbers), the answer and the
state after the call must be plain JSON too, and the state must keep a digest.

`derandomize=True` keeps CI deterministic; `COMPOWORLD_FUZZ_EXAMPLES=300` fuzzes deeper
(25 examples per tool by default, ~12 s). Numbers JSON cannot hold (found by this file:
they used to reach the state and break its digest) are now a 400 from `Service.call`.
"""

from __future__ import annotations

import functools
import math
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld.services.builtin import BUILTIN_SERVICES, build_builtin, example_state
from compoworld.services.runtime import Service
from compoworld.services.synthesize import build_service, value_for
from compoworld.services.verify import build_arguments
from compoworld.specs.openapi import load_openapi
from compoworld.world.state import State

SEED = 11
CODES = (400, 404, 409, 422, 500)
INT_RANGE = (-(2**63), 2**64 - 1)  # what orjson, the digest's encoder, can write
FUZZ = settings(
    max_examples=int(os.environ.get("COMPOWORLD_FUZZ_EXAMPLES", "25")),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def answer(schema: dict[str, Any], code: str = "200") -> dict[str, Any]:
    return {code: {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def query(name: str, schema: dict[str, Any], required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "schema": schema}


def path(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema or {"type": "string"}}


STR = {"type": "string"}
INT = {"type": "integer"}

# A CRM: string ids, a child collection, filters and paging, an enum, bounded numbers,
# a closed record schema, and a custom action and a summary that stay simulated.
CRM = {
    "openapi": "3.0.3",
    "info": {"title": "Fuzz CRM", "version": "1"},
    "paths": {
        "/contacts": {
            "get": {
                "operationId": "listContacts",
                "parameters": [
                    query("limit", {"type": "integer", "minimum": 1, "maximum": 100}),
                    query("offset", {"type": "integer", "minimum": 0}),
                    query("email", STR), query("status", {"enum": ["lead", "customer"]}),
                    query("q", STR), query("sort", STR),
                ],
                "responses": answer({"type": "object", "required": ["data"], "properties": {
                    "data": {"type": "array", "items": ref("Contact")},
                    "total": INT, "has_more": {"type": "boolean"}}}),
            },
            "post": {"operationId": "createContact", "requestBody": body(ref("NewContact")),
                     "responses": answer(ref("Contact"), "201")},
        },
        "/contacts/{contactId}": {
            "parameters": [path("contactId")],
            "get": {"operationId": "getContact", "responses": answer(ref("Contact"))},
            "patch": {"operationId": "updateContact",
                      "requestBody": body(ref("ContactUpdate"), required=False),
                      "responses": answer(ref("Contact"))},
            "delete": {"operationId": "deleteContact",
                       "responses": {"204": {"description": "gone"}}},
        },
        "/contacts/{contactId}/notes": {
            "parameters": [path("contactId")],
            "get": {"operationId": "listNotes",
                    "responses": answer({"type": "array", "items": ref("Note")})},
            "post": {"operationId": "createNote",
                     "requestBody": body({"type": "object", "required": ["text"],
                                          "properties": {"text": STR, "pinned": {
                                              "type": "boolean"}}}),
                     "responses": answer(ref("Note"), "201")},
        },
        "/contacts/{contactId}/notes/{noteId}": {
            "parameters": [path("contactId"), path("noteId")],
            "get": {"operationId": "getNote", "responses": answer(ref("Note"))},
            "delete": {"operationId": "deleteNote",
                       "responses": {"204": {"description": "gone"}}},
        },
        "/contacts/{contactId}/merge": {
            "post": {"operationId": "mergeContact", "parameters": [path("contactId")],
                     "requestBody": body({"type": "object", "required": ["into"],
                                          "properties": {"into": STR}}),
                     "responses": answer(ref("Contact"))},
        },
        "/reports/summary": {
            "get": {"operationId": "getSummary",
                    "parameters": [query("period", {"type": "string",
                                                    "pattern": "^[0-9]{4}-Q[1-4]$"})],
                    "responses": answer({"type": "object", "properties": {
                        "contacts": INT, "revenue": {"type": "number"},
                        "top": {"type": "array", "items": STR, "maxItems": 3}}})},
        },
        "/contacts:batchGet": {
            "get": {"operationId": "batchGetContacts",
                    "parameters": [query("ids", {"type": "array", "items": STR}, required=True)],
                    "responses": answer({"type": "array", "items": ref("Contact")})},
        },
        "/search": {
            "post": {"operationId": "search",
                     "requestBody": body({"type": "object", "required": ["query"], "properties": {
                         "query": {"type": "string", "minLength": 1},
                         "filters": {"type": "object", "additionalProperties": STR}}}),
                     "responses": answer({"type": "object", "properties": {"hits": {
                         "type": "array", "items": {"oneOf": [ref("Contact"), ref("Note")]}},
                         "took_ms": {"type": "number", "minimum": 0}}})},
        },
        "/stats/{metric}": {
            "get": {"operationId": "getStat",
                    "parameters": [path("metric", {"type": "string",
                                                   "enum": ["contacts", "notes"]})],
                    "responses": answer({"allOf": [
                        {"type": "object", "required": ["metric"],
                         "properties": {"metric": STR}},
                        {"type": "object", "properties": {
                            "value": {"type": "number", "nullable": True},
                            "by_day": {"type": "object", "additionalProperties": INT}}}]})},
        },
    },
    "components": {"schemas": {
        "NewContact": {
            "type": "object", "required": ["name", "email"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 60},
                "email": {"type": "string", "format": "email"},
                "status": {"type": "string", "enum": ["lead", "customer"]},
                "age": {"type": "integer", "minimum": 0, "maximum": 150},
                "score": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "tags": {"type": "array", "items": STR, "maxItems": 5},
                "address": {"type": "object", "properties": {"city": STR, "zip": STR}},
            },
        },
        "ContactUpdate": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "email": {"type": "string", "format": "email"},
                "status": {"type": "string", "enum": ["lead", "customer"]},
                "tags": {"type": "array", "items": STR},
            },
        },
        "Contact": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "name", "email"],
            "properties": {
                "id": {"type": "string", "readOnly": True},
                "name": {"type": "string", "minLength": 1, "maxLength": 60},
                "email": {"type": "string", "format": "email"},
                "status": {"type": "string", "enum": ["lead", "customer"]},
                "age": {"type": "integer", "minimum": 0, "maximum": 150},
                "score": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "tags": {"type": "array", "items": STR, "maxItems": 5},
                "address": {"type": "object", "properties": {"city": STR, "zip": STR}},
                "created_at": {"type": "string", "format": "date-time", "readOnly": True},
            },
        },
        "Note": {
            "type": "object", "required": ["id", "text"],
            "properties": {"id": {"type": "string", "readOnly": True}, "text": STR,
                           "pinned": {"type": "boolean"}},
        },
    }},
}

# A shop: integer ids, uuid ids, a natural key, a PUT-created resource, nullable fields,
# arrays of integers as filters, and an RPC-style action.
SHOP = {
    "openapi": "3.0.3",
    "info": {"title": "Fuzz Shop", "version": "1"},
    "paths": {
        "/products": {
            "get": {"operationId": "listProducts",
                    "parameters": [query("page", {"type": "integer", "minimum": 1}),
                                   query("per_page", {"type": "integer", "default": 2}),
                                   query("ids", {"type": "array", "items": INT}),
                                   query("status", {"type": "string",
                                                    "enum": ["active", "archived"]})],
                    "responses": answer({"type": "array", "items": ref("Product")})},
            "post": {"operationId": "createProduct", "requestBody": body(ref("NewProduct")),
                     "responses": answer(ref("Product"), "201")},
        },
        "/products/{productId}": {
            "parameters": [path("productId", INT)],
            "get": {"operationId": "getProduct", "responses": answer(ref("Product"))},
            "put": {"operationId": "replaceProduct",
                    "requestBody": body(ref("NewProduct"), required=False),
                    "responses": answer(ref("Product"))},
            "delete": {"operationId": "deleteProduct",
                       "responses": answer({"type": "object", "properties": {
                           "id": INT, "deleted": {"type": "boolean"}}})},
        },
        "/devices": {
            "post": {"operationId": "createDevice",
                     "requestBody": body({"type": "object", "required": ["label"],
                                          "properties": {"label": STR,
                                                         "owner": {"type": "string",
                                                                   "nullable": True}}}),
                     "responses": answer(ref("Device"), "201")},
        },
        "/devices/{deviceId}": {
            "parameters": [path("deviceId", {"type": "string", "format": "uuid"})],
            "get": {"operationId": "getDevice", "responses": answer(ref("Device"))},
            "delete": {"operationId": "deleteDevice",
                       "responses": {"204": {"description": "gone"}}},
        },
        "/employees": {
            "post": {"operationId": "createEmployee", "requestBody": body(ref("Employee")),
                     "responses": answer(ref("Employee"), "201")},
        },
        "/employees/{number}": {
            "parameters": [path("number", INT)],
            "get": {"operationId": "getEmployee", "responses": answer(ref("Employee"))},
        },
        "/buckets/{bucketName}": {
            "parameters": [path("bucketName", {"type": "string", "pattern": "^[a-z]{3,12}$"})],
            "put": {"operationId": "createBucket",
                    "requestBody": body({"type": "object", "properties": {"region": STR}},
                                        required=False),
                    "responses": answer(ref("Bucket"))},
            "get": {"operationId": "getBucket", "responses": answer(ref("Bucket"))},
        },
        "/#Action=RebootDevice": {
            "post": {"operationId": "RebootDevice",
                     "parameters": [query("DeviceId", STR, required=True)],
                     "responses": answer({"type": "object", "properties": {
                         "rebooted": {"type": "boolean"}, "at": {"type": "string",
                                                                 "format": "date-time"}}})},
        },
    },
    "components": {"schemas": {
        "NewProduct": {
            "type": "object", "required": ["name", "price"],
            "properties": {"name": STR, "price": {"type": "number", "minimum": 0},
                           "status": {"type": "string", "enum": ["active", "archived"]},
                           "discount": {"type": "number", "nullable": True},
                           "sku": {"type": "string", "pattern": "^SKU-[0-9]{4}$"}},
        },
        "Product": {
            "type": "object", "required": ["id", "name", "price"],
            "properties": {"id": INT, "name": STR, "price": {"type": "number", "minimum": 0},
                           "status": {"type": "string", "enum": ["active", "archived"]},
                           "discount": {"type": "number", "nullable": True},
                           "sku": {"type": "string", "pattern": "^SKU-[0-9]{4}$"}},
        },
        "Device": {
            "type": "object", "required": ["id", "label"],
            "properties": {"id": {"type": "string", "format": "uuid"}, "label": STR,
                           "owner": {"type": "string", "nullable": True}},
        },
        "Employee": {
            "type": "object", "required": ["number", "name"],
            "properties": {"number": INT, "name": STR,
                           "email": {"type": "string", "format": "email"}},
        },
        "Bucket": {"type": "object", "properties": {"name": STR, "region": STR}},
    }},
}

DOCUMENTS = {"example.com/fuzz-crm": CRM, "example.com/fuzz-shop": SHOP}


@functools.cache
def openapi_service(doc_id: str) -> tuple[Service, State]:
    """A hand-made document built like the synthesize stage does, and its start state."""
    service, _, _ = build_service(load_openapi(DOCUMENTS[doc_id], doc_id), SEED)
    return service, service.state.copy()


@functools.cache
def builtin_service(name: str) -> tuple[Service, State]:
    service = build_builtin(name, example_state(name, SEED))
    return service, service.state.copy()


def cases() -> list[Any]:
    """(builder, key, tool) for every tool, with its implementation in the test id."""
    out = []
    for doc_id in sorted(DOCUMENTS):
        service, _ = openapi_service(doc_id)
        for name, tool in sorted(service.tools.items()):
            out.append(pytest.param("openapi", doc_id, name,
                                    id=f"{tool.implementation}-{name}"))
    for key in sorted(BUILTIN_SERVICES):
        service, _ = builtin_service(key)
        out.extend(pytest.param("builtin", key, name, id=f"builtin-{name}")
                   for name in sorted(service.tools))
    return out


def fresh(kind: str, key: str) -> Service:
    """The (cached) service, given a fresh copy of its start state."""
    service, start = (openapi_service if kind == "openapi" else builtin_service)(key)
    service.state = start.copy()
    return service


JSON_SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=10,
)


@functools.cache
def arguments_for(kind: str, key: str, tool: str) -> st.SearchStrategy[Any]:
    """Random JSON, dicts over the real parameter names, and near-valid arguments."""
    service = fresh(kind, key)
    spec = service.tools[tool].spec
    names = sorted(spec.parameters.get("properties", {}))
    ids = sorted({record_id for records in service.state.collections.values()
                  for record_id in records})[:20]
    value = JSON | st.sampled_from(ids or ["x"]) | st.sampled_from([0, -1, "", "x" * 300])
    valid = build_arguments(service, service.state, tool, random.Random(SEED), value_for)
    keyed = st.fixed_dictionaries({}, optional={name: value for name in names})
    strategies = [JSON, keyed, st.builds(lambda a, b: a | b, keyed, st.dictionaries(
        st.text(max_size=10), JSON, max_size=3))]
    if names:
        changed = st.tuples(st.sampled_from(names), value).map(
            lambda kv: valid | {kv[0]: kv[1]})
        dropped = st.sampled_from(names).map(
            lambda name: {k: v for k, v in valid.items() if k != name})
        strategies += [changed, dropped, st.just(valid)]
    return st.one_of(strategies)


def assert_protocol(result: Any) -> None:
    """Exactly `{"success": true, "data": ...}` or a coded error with a message."""
    assert type(result) is dict, result
    if result.get("success") is True:
        assert set(result) == {"success", "data"}, result
    else:
        assert set(result) == {"success", "error"} and result["success"] is False, result
        error = result["error"]
        assert type(error) is dict and set(error) == {"code", "message"}, result
        assert type(error["code"]) is int and error["code"] in CODES, result
        assert isinstance(error["message"], str) and error["message"], result


def not_json(value: Any) -> str | None:
    """Why `value` is not plain JSON that survives a round trip (None when it is)."""
    if value is None or isinstance(value, bool | str):
        return None
    if isinstance(value, int):
        return None if INT_RANGE[0] <= value <= INT_RANGE[1] else f"integer {value} out of range"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"non-finite number {value}"
    if isinstance(value, list | tuple):
        return next(filter(None, map(not_json, value)), None)
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            return "a key that is not a string"
        return next(filter(None, map(not_json, value.values())), None)
    return f"a {type(value).__name__}"


def run_call(kind: str, key: str, tool: str, arguments: Any) -> tuple[dict[str, Any], Service]:
    """One call on a fresh start state; checks the protocol and rejection-keeps-state."""
    service = fresh(kind, key)
    before = service.state.digest()
    result = service.call(tool, arguments)
    assert_protocol(result)
    if not result["success"]:
        assert service.state.digest() == before, f"rejected call changed the state: {result}"
    return result, service


@pytest.mark.parametrize(("kind", "key", "tool"), cases())
@FUZZ
@given(data=st.data())
def test_call_answers_the_protocol(kind: str, key: str, tool: str, data: st.DataObject) -> None:
    arguments = data.draw(arguments_for(kind, key, tool), label="arguments")
    result, service = run_call(kind, key, tool, arguments)
    if not_json(arguments) is None:  # JSON in, JSON out: the answer and the state stay JSON
        assert not_json(result) is None, (not_json(result), result)
        assert not_json(service.state.collections) is None, not_json(service.state.collections)
        service.state.digest()


@FUZZ
@given(tool=st.text(max_size=30), arguments=JSON)
def test_unknown_tools_are_404(tool: str, arguments: Any) -> None:
    service, _ = builtin_service("crm")
    result = service.call(f"nope::{tool}", arguments)
    assert_protocol(result)
    assert not result["success"] and result["error"]["code"] == 404


BIG = 2**64  # one past what orjson (the digest's encoder) can write


@pytest.mark.parametrize(("kind", "key", "tool", "override"), [
    pytest.param("openapi", "example.com/fuzz-shop", "example_com_fuzz_shop__create_product",
                 {"price": BIG}, id="create_product-price-2**64"),
    pytest.param("openapi", "example.com/fuzz-shop", "example_com_fuzz_shop__create_product",
                 {"price": math.inf}, id="create_product-price-inf"),
    pytest.param("openapi", "example.com/fuzz-shop", "example_com_fuzz_shop__replace_product",
                 {"discount": BIG}, id="replace_product-discount-2**64"),
    pytest.param("openapi", "example.com/fuzz-shop", "example_com_fuzz_shop__create_employee",
                 {"number": BIG}, id="create_employee-number-2**64"),
    pytest.param("openapi", "example.com/fuzz-shop", "example_com_fuzz_shop__create_product",
                 {"price": -math.inf}, id="create_product-price--inf"),
    pytest.param("openapi", "example.com/fuzz-shop", "example_com_fuzz_shop__get_product",
                 {"productId": BIG}, id="get_product-id-2**64"),
    pytest.param("openapi", "example.com/fuzz-crm", "example_com_fuzz_crm__list_contacts",
                 {"limit": BIG, "offset": BIG}, id="list_contacts-paging-2**64"),
])
def test_numbers_beyond_json_never_reach_the_state(
    kind: str, key: str, tool: str, override: dict[str, Any]
) -> None:
    """Integers past 64 bits and infinities (Python's json.loads makes both from an agent's
    JSON text: `1e400`, a 30-digit number) are rejected or harmless: the answer and the
    state stay JSON, and the state keeps a digest."""
    service = fresh(kind, key)
    valid = build_arguments(service, service.state, tool, random.Random(SEED), value_for)
    result, service = run_call(kind, key, tool, valid | override)
    if override and any(v in (BIG, math.inf) for v in override.values()):
        assert result["error"]["code"] == 400, result
    assert not_json(service.state.collections) is None, result
    assert not_json(result) is None, result
    service.state.digest()

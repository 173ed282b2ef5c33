"""A create answers and stores what was sent plus what a server sets, nothing drawn.

The schemas are cut from real ones: Billbee's customer create (a `Data` envelope around a
customer with `ArchivedAt`, `RestoredAt`, `Tel1`, `VatId`, and error codes beside it), Big
Red Cloud's (a result of `{"type": "object"}`), Codat's push (an async operation whose
status may be `TimedOut` or `Failed`, with validation notes and a log of changes). A
compiled create that fails verification is run as a modeled action (`action_tool`), as
the service library does; it must store the new record and answer with it.
"""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.services.compiler import action_tool
from compoworld.services.synthesize import build_service, value_for
from compoworld.services.verify import verify_service
from compoworld.specs.openapi import load_openapi
from compoworld.world.clock import NOW_TEXT

S = {"type": "string"}
DT = {"type": "string", "format": "date-time"}
CUSTOMER = {"type": "object", "properties": {
    "Id": {"type": "integer", "format": "int64"}, "Name": S, "Email": S, "Tel1": S, "Tel2": S,
    "VatId": S, "Type": {"type": "integer"}, "ArchivedAt": DT, "RestoredAt": DT,
    "Status": {"type": "string", "enum": ["Archived", "Active", "Blocked"]},
    "CreatedAt": DT, "OrderCount": {"type": "integer", "minimum": 0},
    "MetaData": {"type": "array", "items": {"type": "object", "properties": {
        "TypeName": S, "Value": S}}}}}
WRAPPED = {"type": "object", "properties": {
    "Data": CUSTOMER, "ErrorCode": {"type": "integer", "enum": [0, 1, 2, 16]},
    "ErrorMessage": S}}
PUSH = {"type": "object", "required": ["status", "requestedOnUtc"], "properties": {
    "pushOperationKey": {"type": "string", "format": "uuid"},
    "status": {"type": "string", "enum": ["Pending", "Failed", "Success", "TimedOut"]},
    "statusCode": {"type": "integer"}, "requestedOnUtc": S, "completedOnUtc": S,
    "dataType": {"type": "string", "enum": ["invoices", "profitAndLoss", "customers"]},
    "changes": {"type": "array", "items": {"type": "object", "properties": {
        "type": {"type": "string", "enum": ["Created", "Deleted"]}}}},
    "validation": {"type": "object", "properties": {"errors": {"type": "array", "items": {
        "type": "object", "properties": {"message": S}}}}},
    "errorMessage": S, "timeoutInMinutes": {"type": "integer"},
    "data": CUSTOMER}}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(schema: dict[str, Any]) -> dict[str, Any]:
    return {"200": {"description": "ok", **_json(schema)}}


def _document(create_result: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in CUSTOMER["properties"].items()}
    return {"openapi": "3.0.0", "info": {"title": "Shop", "version": "1"}, "paths": {
        "/customers": {
            "get": {"operationId": "listCustomers", "responses": _ok(
                {"type": "object", "properties": {"Data": {"type": "array",
                                                           "items": CUSTOMER}}})},
            "post": {"operationId": "createCustomer", "requestBody": _json(
                {"type": "object", "properties": body}), "responses": _ok(create_result)}},
        "/customers/{Id}": {"get": {
            "operationId": "getCustomer",
            "parameters": [{"name": "Id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": _ok(WRAPPED)}}}}


def _service(create_result: dict[str, Any], modeled: bool = True):
    spec = load_openapi(_document(create_result), "shop.example/openapi")
    service, _reasons, model = build_service(spec, seed=5)
    name = f"{service.name}__create_customer"
    if modeled:  # as the library runs a create that failed verification
        service.tools[name] = action_tool(service.spec, service.tools[name].spec, model.respond)
    return service, name


SENT = {"Name": "Elena Garcia", "Email": "elena.garcia@acme.com"}
SERVER = {"Id", "Status", "CreatedAt", "OrderCount"}


def _made(service, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    before = set(service.state.records("customers"))
    result = service.call(name, dict(SENT))
    assert result["success"], result
    [new] = set(service.state.records("customers")) - before
    return result["data"], service.state.records("customers")[new]


@pytest.mark.parametrize("modeled", [True, False])
def test_a_new_customer_holds_what_was_sent_and_what_the_server_sets(modeled: bool):
    service, name = _service(WRAPPED, modeled)
    answer, stored = _made(service, name)
    assert set(stored) == set(SENT) | SERVER, stored  # no Tel1, VatId, ArchivedAt, MetaData
    assert {k: stored[k] for k in SENT} == SENT
    assert stored["Status"] == "Active" and stored["OrderCount"] == 0
    assert stored["CreatedAt"] == NOW_TEXT
    assert answer["Data"] == stored  # the answer is the record
    assert "ErrorCode" not in answer and "ErrorMessage" not in answer
    got = service.call(f"{service.name}__get_customer", {"Id": stored["Id"]})
    assert got["success"] and got["data"]["Data"] == stored


def test_an_unspecified_result_is_the_new_record_not_an_empty_object():
    service, name = _service({"type": "object"})
    answer, stored = _made(service, name)
    assert answer == stored and answer["Id"] and answer["Name"] == SENT["Name"]


def test_an_async_push_answers_success_with_the_record_and_no_errors():
    service, name = _service(PUSH)
    for _ in range(3):  # a different draw each call: always a success
        answer, stored = _made(service, name)
        assert answer["status"] == "Success" and answer["requestedOnUtc"] == NOW_TEXT
        assert answer.get("completedOnUtc", NOW_TEXT) == NOW_TEXT
        assert not {"changes", "validation", "errorMessage", "timeoutInMinutes"} & set(answer)
        assert answer.get("dataType", "customers") == "customers"
        assert answer["data"] == stored and set(stored) == set(SENT) | SERVER


def test_the_modeled_create_passes_verification():
    service, name = _service(WRAPPED)
    results = verify_service(service, 11, value_for)
    failed = [r for r in results if r.tool == name and not r.passed]
    assert not failed, failed

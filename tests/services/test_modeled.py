"""The stateful world model (`modeled` tools): no method or path, still a world that remembers.

A helpdesk published as a function list (no REST structure) is built the way the
synthesize stage builds every service; its tools must read and write one typed state:
what a create made, a get returns; what a delete removed, a get no longer finds; an action
is logged and sets its record's status; only a pure computation stays stateless.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from compoworld.services.compiler import compile_report
from compoworld.services.synthesize import build_service, synthesize_service
from compoworld.specs.functions import load_function_list
from compoworld.specs.openapi import load_openapi
from compoworld.world.state import diff

STATUS = {"type": "string", "enum": ["open", "pending", "closed"]}
TICKET_FIELDS = {
    "subject": {"type": "string", "description": "One-line summary."},
    "requester_email": {"type": "string", "format": "email"},
    "priority": {"type": "string", "enum": ["low", "normal", "high"]},
    "status": STATUS,
}


def function(name: str, description: str, properties: dict[str, Any],
             required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties,
                       "required": required or []}}}


TICKET_ID = {"ticket_id": {"type": "string", "description": "Id of the ticket."}}
HELPDESK = [
    function("create_ticket", "Open a support ticket.", TICKET_FIELDS,
             ["subject", "requester_email"]),
    function("get_ticket", "Get one ticket.", TICKET_ID, ["ticket_id"]),
    function("list_tickets", "List tickets, optionally by status.",
             {"status": STATUS, "limit": {"type": "integer", "minimum": 1}}),
    function("update_ticket", "Change a ticket.",
             {**TICKET_ID, "priority": TICKET_FIELDS["priority"]}, ["ticket_id"]),
    function("delete_ticket", "Delete a ticket.", TICKET_ID, ["ticket_id"]),
    function("close_ticket", "Close a ticket.", TICKET_ID, ["ticket_id"]),
    function("send_reminder", "Send the requester a reminder about a ticket.",
             {**TICKET_ID, "message": {"type": "string"}}, ["ticket_id", "message"]),
    function("convert_currency", "Convert an amount between currencies.",
             {"amount": {"type": "number"}, "from_currency": {"type": "string"},
              "to_currency": {"type": "string"}}, ["amount", "from_currency", "to_currency"]),
]


@pytest.fixture
def spec():
    return load_function_list(copy.deepcopy(HELPDESK), "helpdesk.example/functions")


@pytest.fixture
def desk(spec):
    service, _reasons, _model = build_service(spec, seed=7)
    return service


def ok(service, tool: str, **arguments: Any) -> Any:
    result = service.call(f"{service.name}__{tool}", arguments)
    assert result["success"], result
    return result["data"]


def failure(service, tool: str, **arguments: Any) -> int:
    result = service.call(f"{service.name}__{tool}", arguments)
    assert not result["success"], result
    return result["error"]["code"]


def test_every_record_tool_is_modeled_and_only_the_computation_is_stateless(spec):
    report = {name.split("__")[1]: d for name, d in compile_report(spec).items()}
    assert {n: d.implementation for n, d in report.items()} == {
        "create_ticket": "modeled", "get_ticket": "modeled", "list_tickets": "modeled",
        "update_ticket": "modeled", "delete_ticket": "modeled", "close_ticket": "modeled",
        "send_reminder": "modeled", "convert_currency": "simulated"}
    assert report["convert_currency"].reason.startswith("stateless:")
    assert report["close_ticket"].operation == "action"
    assert "status" in report["close_ticket"].reason


def test_the_start_state_is_seeded_and_reads_answer_from_it(desk):
    stored = desk.state.records("tickets")
    assert len(stored) == 5
    listed = ok(desk, "list_tickets")
    assert [t["id"] for t in listed] == sorted(stored)
    for ticket in listed:  # list and get agree on every field they share
        got = ok(desk, "get_ticket", ticket_id=ticket["id"])
        assert {k: got[k] for k in ticket.keys() & got.keys()} == ticket
    assert failure(desk, "get_ticket", ticket_id="tic_9999") == 404


def test_create_update_delete_change_what_later_reads_see(desk):
    made = ok(desk, "create_ticket", subject="Printer jams on page 2",
              requester_email="ada@example.com", priority="high", status="open")
    assert ok(desk, "get_ticket", ticket_id=made["id"]) == made
    assert made["id"] in [t["id"] for t in ok(desk, "list_tickets", status="open")]
    assert made["id"] not in [t["id"] for t in ok(desk, "list_tickets", status="closed")]
    ok(desk, "update_ticket", ticket_id=made["id"], priority="low")
    assert ok(desk, "get_ticket", ticket_id=made["id"])["priority"] == "low"
    ok(desk, "delete_ticket", ticket_id=made["id"])
    assert failure(desk, "get_ticket", ticket_id=made["id"]) == 404


def test_an_action_is_logged_and_sets_the_status_its_verb_names(desk):
    ticket = next(i for i, t in sorted(desk.state.records("tickets").items())
                  if t.get("status") != "closed")
    before = desk.state.copy()
    ok(desk, "close_ticket", ticket_id=ticket)
    assert ok(desk, "get_ticket", ticket_id=ticket)["status"] == "closed"
    ok(desk, "send_reminder", ticket_id=ticket, message="Any update on this?")
    changes = diff(before, desk.state)
    assert [e["tool"] for e in changes["action_log"]["created"]] == ["close_ticket",
                                                                     "send_reminder"]
    reminder = changes["action_log"]["created"][1]
    assert reminder["ticket_id"] == ticket and reminder["message"] == "Any update on this?"
    assert changes["tickets"]["updated"][0]["fields"] == ["status"]


def test_an_action_on_an_unknown_record_is_a_404_and_changes_nothing(desk):
    digest = desk.state.digest()
    assert failure(desk, "close_ticket", ticket_id="tic_9999") == 404
    assert failure(desk, "send_reminder", ticket_id="tic_9999", message="hi") == 404
    assert desk.state.digest() == digest


def test_the_computation_stays_deterministic_and_changes_nothing(desk):
    digest = desk.state.digest()
    args = {"amount": 12.5, "from_currency": "EUR", "to_currency": "USD"}
    assert ok(desk, "convert_currency", **args) == ok(desk, "convert_currency", **args)
    assert desk.state.digest() == digest


def test_verification_runs_the_compiled_checks_on_modeled_tools(spec):
    rows = synthesize_service(spec, seed=7)
    builds = {b["name"].split("__")[1]: b for b in rows["tool_builds"]}
    assert all(b["mounted"] for b in builds.values()), [
        (n, b["reason"]) for n, b in builds.items() if not b["mounted"]]
    assert rows["services"][0]["n_modeled"] == 7
    checks = {(c["tool"].split("__")[1], c["check"]) for c in rows["tool_checks"]
              if c["passed"]}
    for pair in [("create_ticket", "create_then_get"), ("get_ticket", "create_then_get"),
                 ("delete_ticket", "delete_then_get_404"),
                 ("list_tickets", "list_reflects_writes"),
                 ("update_ticket", "update_changes_named_fields"),
                 ("get_ticket", "unknown_id_404"), ("close_ticket", "unknown_id_404"),
                 ("close_ticket", "rejection_keeps_state")]:
        assert pair in checks, pair


ACCOUNT = {"type": "object", "properties": {
    "name": {"type": "string"}, "email": {"type": "string", "format": "email"},
    "plan": {"type": "string", "enum": ["free", "pro"]}}}


def test_a_read_with_no_key_returns_the_one_record_of_its_collection():
    document = {
        "openapi": "3.0.0", "info": {"title": "Acct", "version": "1"},
        "paths": {"/account": {
            "get": {"operationId": "getAccount", "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": ACCOUNT}}}}},
            "put": {"operationId": "replaceAccount",
                    "requestBody": {"content": {"application/json": {"schema": ACCOUNT}}},
                    "responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": ACCOUNT}}}}}}},
    }
    spec = load_openapi(document, "acct.example/openapi")
    report = {n.split("__")[1]: d for n, d in compile_report(spec).items()}
    assert (report["get_account"].implementation, report["get_account"].code) == (
        "modeled", "modeled_singleton")
    service, _reasons, _model = build_service(spec, seed=1)
    first = min(service.state.records("account"))
    stored = service.state.records("account")[first]
    assert ok(service, "get_account") == stored
    service.state.collections["account"].clear()
    assert failure(service, "get_account") == 404


def test_the_llm_world_model_sees_the_records_an_action_touches_and_the_log_records_it(spec):
    import json

    from compoworld.services.compiler import compile_service
    from compoworld.world.seeding import seed_state
    from tests.worldmodel.test_llm import ScriptedClient, model_with

    client = ScriptedClient(json.dumps({"result": {"sent": True}}))  # returns {}: wrapped
    model = model_with(client)
    service = compile_service(spec, simulate=model.handler_for, respond=model.respond)
    service.state = seed_state(service.spec, 7)
    ticket_id, ticket = sorted(service.state.records("tickets").items())[0]
    assert ok(service, "send_reminder", ticket_id=ticket_id, message="Still broken?") == {
        "sent": True}
    prompt = json.loads(client.calls[0]["messages"][1]["content"].split("\n")[0])
    assert prompt["state"] == {"records": {"ticket_id": ticket}}  # what the call touches
    [event] = service.state.records("action_log").values()
    assert (event["tool"], event["ticket_id"], event["message"]) == (
        "send_reminder", ticket_id, "Still broken?")

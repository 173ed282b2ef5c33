"""Verification checks on a hand-written service that passes and on deliberately broken ones."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from compoworld.services.runtime import Service, Tool
from compoworld.services.verify import failed_tools, verify_service
from compoworld.specs.records import ToolSpec
from compoworld.world.state import NotFound, State
from tests.services.helpers import notes_service, value_for

NOTE = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "title": {"type": "string"}},
    "required": ["id", "title"],
    "x-id-field": "id",
}
ID = {"id": {"type": "string"}}
TITLE = {"title": {"type": "string"}}


def spec(name: str, effect: str, properties: dict, required: list, returns: dict) -> ToolSpec:
    types = {p: "notes.notes.id" if p == "id" else "title" for p in properties}
    return ToolSpec(
        service="notes", name=f"notes__{name}", description=name, effect=effect,
        resource="notes", source=f"test:{name}", param_types=types, returns=returns,
        parameters={"type": "object", "properties": properties, "required": required},
    )


def create(state: State, args: dict) -> dict:
    return copy.deepcopy(state.put("notes", {"id": state.new_id("notes"), **args}))


def get(state: State, args: dict) -> dict:
    return copy.deepcopy(state.get("notes", args["id"]))


def list_notes(state: State, args: dict) -> list:
    return copy.deepcopy(sorted(state.records("notes").values(), key=lambda r: r["id"]))


def update(state: State, args: dict) -> dict:
    merged = state.get("notes", args["id"]) | args
    state.validate("notes", merged)
    return copy.deepcopy(state.put("notes", merged))


def delete(state: State, args: dict) -> dict:
    return {"deleted": state.delete("notes", args["id"])["id"]}


GOOD = {
    "create_note": ("create", TITLE, ["title"], NOTE, create),
    "get_note": ("read", ID, ["id"], NOTE, get),
    "list_notes": ("read", {}, [], {"type": "array", "items": NOTE}, list_notes),
    "update_note": ("update", ID | TITLE, ["id"], NOTE, update),
    "delete_note": ("delete", ID, ["id"], {"type": "object"}, delete),
}


def build(**overrides: Any) -> Service:
    tools = {}
    for name, (effect, props, required, returns, handler) in GOOD.items():
        tool_spec = spec(name, effect, props, required, returns)
        tools[tool_spec.name] = Tool(tool_spec, "compiled", overrides.get(name, handler))
    return notes_service(tools, NOTE)



def test_a_correct_service_passes_every_check():
    service = build()
    start = service.state.digest()
    results = verify_service(service, seed=1, value_for=value_for)
    assert failed_tools(results) == {}
    checks = {(r.tool.split("__")[1], r.check) for r in results}
    assert {
        ("create_note", "create_then_get"),
        ("get_note", "unknown_id_404"),
        ("delete_note", "delete_then_get_404"),
        ("list_notes", "list_reflects_writes"),
        ("update_note", "update_changes_named_fields"),
        ("list_notes", "read_is_pure"),
        ("create_note", "rejects_invalid_arguments"),
    } <= checks
    assert service.state.digest() == start  # verification leaves the start state alone


def get_wrong_record(state: State, args: dict) -> dict:
    return copy.deepcopy(sorted(state.records("notes").values(), key=lambda r: r["id"])[0])


def delete_nothing(state: State, args: dict) -> dict:
    state.get("notes", args["id"])
    return {"deleted": args["id"]}


def crashing(state: State, args: dict) -> dict:
    raise KeyError("boom")


def mutate_then_404(state: State, args: dict) -> dict:
    state.records("notes")["zzz"] = {"id": "zzz", "title": "leaked"}
    raise NotFound("no such note")


_counter = itertools.count()


def nondeterministic(state: State, args: dict) -> list:
    return [{"id": "x", "title": str(next(_counter))}]


def invalid_result(state: State, args: dict) -> dict:
    return {"id": 5}


def update_extra(state: State, args: dict) -> dict:
    record = state.get("notes", args["id"]) | args | {"title": "forced"}
    return copy.deepcopy(state.put("notes", record | {"id": args["id"]}))


def read_that_writes(state: State, args: dict) -> list:
    state.put("notes", {"id": "side", "title": "effect"})
    return []


@pytest.mark.parametrize(
    "tool, handler, check",
    [
        ("get_note", get_wrong_record, "create_then_get"),
        ("delete_note", delete_nothing, "delete_then_get_404"),
        ("create_note", crashing, "accepts_valid_arguments"),
        ("get_note", mutate_then_404, "accepts_valid_arguments"),
        ("list_notes", nondeterministic, "deterministic"),
        ("get_note", invalid_result, "returns_valid"),
        ("update_note", update_extra, "update_changes_named_fields"),
        ("list_notes", read_that_writes, "read_is_pure"),
    ],
)
def test_a_broken_tool_fails_the_check_that_catches_it(tool: str, handler, check: str):
    results = verify_service(build(**{tool: handler}), seed=1, value_for=value_for)
    failed = {(r.tool, r.check) for r in results if not r.passed}
    assert (f"notes__{tool}", check) in failed
    assert f"notes__{tool}" in failed_tools(results)


def test_a_tool_that_changes_state_when_rejecting_fails_rejection_keeps_state():
    def get_leaky(state: State, args: dict) -> dict:
        if args["id"] not in state.records("notes"):
            state.records("notes")["leak"] = {"id": "leak", "title": "x"}
        return get(state, args)

    results = verify_service(build(get_note=get_leaky), seed=1, value_for=value_for)
    failed = {(r.tool, r.check) for r in results if not r.passed}
    assert ("notes__get_note", "rejection_keeps_state") in failed


def test_results_are_deterministic_for_a_seed():
    first = verify_service(build(), seed=7, value_for=value_for)
    second = verify_service(build(), seed=7, value_for=value_for)
    assert first == second


def _sections_document() -> dict:
    """Avaza's shape: sections listed by the `ProjectID` they are in, held on each section
    as `ProjectIDFK`."""
    def ok(schema: dict) -> dict:
        return {"200": {"description": "ok",
                        "content": {"application/json": {"schema": schema}}}}
    project = {"type": "object", "properties": {"ProjectID": {"type": "integer"},
                                                "Title": {"type": "string"}}}
    section = {"type": "object", "properties": {"SectionID": {"type": "integer"},
                                                "ProjectIDFK": {"type": "integer"},
                                                "Title": {"type": "string"}}}
    listed = {"type": "object", "properties": {"Sections": {"type": "array",
                                                            "items": section}}}
    body = {"content": {"application/json": {"schema": {
        "type": "object", "required": ["ProjectIDFK", "Title"], "properties": {
            "ProjectIDFK": {"type": "integer"}, "Title": {"type": "string"}}}}}}
    return {"openapi": "3.0.0", "info": {"title": "Tracker", "version": "1"}, "paths": {
        "/api/Project": {"get": {"operationId": "Project_Get", "responses": ok(
            {"type": "object", "properties": {"Projects": {"type": "array",
                                                           "items": project}}})}},
        "/api/Section": {
            "get": {"operationId": "Section_Get", "parameters": [
                {"name": "ProjectID", "in": "query", "required": True,
                 "schema": {"type": "integer"}}], "responses": ok(listed)},
            "post": {"operationId": "Section_Post", "requestBody": body,
                     "responses": ok(section)},
            "delete": {"operationId": "Section_Delete", "parameters": [
                {"name": "SectionID", "in": "query", "required": True,
                 "schema": {"type": "integer"}}], "responses": ok({})}}}}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_delete_is_checked_on_the_list_its_record_is_in(seed: int):
    """A list of sections by `ProjectID`, checked after a delete, was called with a drawn
    project (the parameter's name is no field of a section, which holds `ProjectIDFK`):
    the deleted section was another project's, the list "kept" it, and both the list and
    the delete were left out of Avaza, the tracker follow-ups were filed in."""
    from compoworld.services.synthesize import verify_built
    from compoworld.specs import load_openapi

    spec = load_openapi(_sections_document(), "tracker.example")
    _, _, results, failures, _ = verify_built(spec, seed)
    names = {r.tool.split("__")[1] for _, r in results if r.check == "list_reflects_writes"}
    assert {"section_get", "section_delete"} <= names
    assert not {name for name in failures if "section" in name}, failures

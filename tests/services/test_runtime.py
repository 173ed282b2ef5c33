"""The call protocol, typed state, digest and diff."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.services.runtime import Service, Tool
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.world.state import Conflict, State, diff

ITEM = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "n": {"type": "integer"}},
    "required": ["id", "n"],
    "additionalProperties": False,
}


def make(handler, parameters: dict[str, Any] | None = None) -> Service:
    spec = ToolSpec(
        service="s", name="s__do", description="", effect="create", resource="items",
        source="test", returns={},
        parameters=parameters or {"type": "object", "properties": {"n": {"type": "integer"}},
                                  "required": ["n"]},
    )
    service_spec = ServiceSpec(
        name="s", title="S", description="", domain="other", source="test",
        resources={"items": ITEM}, tools=[spec],
    )
    return Service(service_spec, {"s__do": Tool(spec, "compiled", handler)})


def create(state: State, args: dict) -> dict:
    return dict(state.put("items", {"id": state.new_id("items"), "n": args["n"]}))


def test_success_result_shape():
    assert make(create).call("s__do", {"n": 1}) == {
        "success": True, "data": {"id": "ite_0001", "n": 1}
    }


@pytest.mark.parametrize(
    "tool, arguments, code, words",
    [
        ("s__nope", {}, 404, "no tool named"),
        ("s__do", [1, 2], 400, "JSON object"),
        ("s__do", {}, 400, "n"),
        ("s__do", {"n": "one"}, 400, "n"),
        ("s__do", "text", 400, "JSON object"),
    ],
)
def test_errors_are_protocol_results(tool: str, arguments: Any, code: int, words: str):
    service = make(create)
    before = service.state.digest()
    result = service.call(tool, arguments)
    assert result["success"] is False and result["error"]["code"] == code
    assert words in result["error"]["message"]
    assert set(result) == {"success", "error"} and set(result["error"]) == {"code", "message"}
    assert service.state.digest() == before


def test_no_exception_escapes_and_domain_errors_keep_their_code():
    def boom(state: State, args: dict) -> None:
        raise ZeroDivisionError("x")

    def clash(state: State, args: dict) -> None:
        state.new_id("items")
        raise Conflict("already there")

    assert make(boom).call("s__do", {"n": 1})["error"]["code"] == 500
    service = make(clash)
    before = service.state.digest()
    assert service.call("s__do", {"n": 1})["error"] == {"code": 409, "message": "already there"}
    assert service.state.digest() == before  # the id drawn by the rejected call is not used up


def test_records_are_validated_against_the_collection_schema():
    def bad(state: State, args: dict) -> dict:
        return state.put("items", {"id": "x", "n": "not a number"})

    service = make(bad)
    result = service.call("s__do", {"n": 1})
    assert result["error"]["code"] == 422 and "items record" in result["error"]["message"]
    assert service.state.records("items") == {}


def test_dump_load_copy_and_digest():
    service = make(create)
    service.call("s__do", {"n": 1})
    state = service.state
    loaded = State.load(state.dump(), state.schemas)
    assert loaded.digest() == state.digest()
    clone = state.copy()
    clone.put("items", {"id": "z", "n": 2})
    assert clone.digest() != state.digest()
    assert "z" not in state.records("items")
    assert state.records("nothing") == {} and "nothing" not in state.collections


def test_diff_reports_created_updated_deleted():
    before = State({"items": ITEM})
    before.put("items", {"id": "a", "n": 1})
    before.put("items", {"id": "b", "n": 2})
    after = before.copy()
    after.put("items", {"id": "a", "n": 5})
    after.delete("items", "b")
    after.put("items", {"id": "c", "n": 3})
    assert diff(before, after) == {
        "items": {
            "created": [{"id": "c", "n": 3}],
            "updated": [
                {"id": "a", "before": {"id": "a", "n": 1}, "after": {"id": "a", "n": 5},
                 "fields": ["n"]}
            ],
            "deleted": [{"id": "b", "n": 2}],
        }
    }
    assert diff(before, before.copy()) == {}


def test_a_schema_fastjsonschema_cannot_compile_is_still_validated():
    from compoworld.world.state import BadRequest, compile_validator

    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z$]+$"}}}
    validate = compile_validator(schema)
    assert validate({"a": "ab$"}) == {"a": "ab$"}
    with pytest.raises(BadRequest, match="invalid a"):
        validate({"a": "AB"})
    assert compile_validator(dict(schema)) is validate  # compiled once per schema


def test_copy_handles_integers_json_cannot_hold_in_64_bits():
    state = State({})
    state.collections["big"] = {"1": {"id": "1", "n": 2**70}}
    assert state.copy().collections == state.collections


def test_canonical_json_copes_with_integers_beyond_64_bits():
    from compoworld.world.state import State, canonical_json

    big = {"b": 2**64, "a": [1, -(2**70)]}
    assert canonical_json(big) == canonical_json({"a": [1, -(2**70)], "b": 2**64})
    assert canonical_json(big) != canonical_json({"a": [1, -(2**70)], "b": 2**64 + 1})
    schema = {"type": "object", "properties": {"id": {"type": "string"},
                                               "n": {"type": "integer", "maximum": 2**64}}}
    state = State({"things": schema})
    state.put("things", {"id": "t1", "n": 5})  # real schemas carry such bounds
    assert state.digest() == state.copy().digest()

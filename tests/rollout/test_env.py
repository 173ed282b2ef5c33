"""The rollout environment: both tool views, the meta-tools, errors that never raise, and a
private world per environment."""

from __future__ import annotations

import functools
import json
import re

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import AnswerItem, Binding, Criterion, GoldCall, Task
from compoworld.compose.stage import candidates, order_starts, start_tools
from compoworld.rollout.env import GATEWAY_TOOLS, Environment, exposed_name
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec
from compoworld.specs.openapi import load_openapi

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
LONG_OPERATION = "createTheQuarterlyPlanningNoteForTheRegionalOperationsTeamWithAllAttachments"


@functools.cache
def builtin_library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@functools.cache
def builtin_tasks() -> tuple[Task, ...]:
    """Twelve verified tasks over the built-in services, a few of them asking for an answer
    (a policy that answers wrongly is one of the noisy policy's failures)."""
    library = builtin_library()
    starts = order_starts(start_tools(library.graph), 0)
    verified = [c.task for shard in range(4) for c in candidates(
        library, starts, seed=0, shard=shard, world_seed=7, quota=12, limit=200)
        if c.outcome == "verified" and c.task]
    asking = [t.task_id for t in verified if t.answer][:3]
    plain = [t.task_id for t in verified if not t.answer][:12 - len(asking)]
    tasks = tuple(t for t in verified if t.task_id in asking or t.task_id in plain)
    assert len(tasks) == 12 and asking, [t.task_id for t in verified]
    return tasks


@functools.cache
def notes_library() -> ServiceLibrary:
    """A compiled service whose create tool's name is too long for OpenAI."""
    string = {"type": "string"}
    note = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"}}}}
    doc = {"openapi": "3.0.3", "info": {"title": "Notes", "version": "1"}, "paths": {
        "/notes": {"post": {"operationId": LONG_OPERATION, "requestBody": note,
                            "responses": {"201": {"description": "ok", **note}}}},
        "/notes/{id}": {"get": {"operationId": "getNote", "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": string}],
            "responses": {"200": {"description": "ok", **note}}}}},
        "components": {"schemas": {"Note": {"type": "object", "required": ["title"],
                       "properties": {"id": string, "title": string, "body": string}}}}}
    return ServiceLibrary.from_specs([load_openapi(doc, "notes.json"), builtin_spec("sms")])


def notes_task() -> Task:
    """Read a note, copy its title into a new note (long tool name), report its body."""
    library = notes_library()
    get, create = "notes_json__get_note", max(library.graph.nodes, key=len)
    assert len(create) > 64 and get in library.graph.nodes
    note = library.world(1).call(get, {"id": "not_0002"})["data"]
    title = {"kind": "hidden", "type": "title", "step": 0, "field": "title", "path": "title"}
    calls = [
        GoldCall(tool=get, service="notes_json", effect="read", arguments={"id": "not_0002"},
                 bindings={"id": Binding(kind="visible", type="notes_json.notes.id")},
                 result=note),
        GoldCall(tool=create, service="notes_json", effect="create",
                 arguments={"title": note["title"]}, bindings={"title": Binding(**title)},
                 result=None),
    ]
    rubric = [
        Criterion(id="c0", description="A note is created with the title.",
                  kind="record_created", service="notes_json",
                  params={"collection": "notes", "fields": {"title": note["title"]}}),
        Criterion(id="c1", description="The answer gives the body.", kind="answer_contains",
                  params={"value": note["body"]}),
    ]
    return Task(task_id="notes", services=["notes_json"], distractors=["sms"], world_seed=1,
                instruction='Copy the title of note "not_0002" into a new note; tell me its '
                "body.", visible_values=["not_0002"], hidden_values=[note["title"]],
                gold_calls=calls,
                answer=[AnswerItem(step=0, path="body", label="the note's body",
                                   value=note["body"])],
                rubric=rubric, capabilities=[], step_budget=8, signature="notes")


def result(content: str) -> dict:
    parsed = json.loads(content)
    assert set(parsed) in ({"success", "data"}, {"success", "error"})
    assert content == json.dumps(parsed, separators=(",", ":"), ensure_ascii=False)
    return parsed


@pytest.mark.parametrize("mode", ["direct", "gateway"])
def test_every_tool_is_a_valid_openai_function(mode: str):
    for task in builtin_tasks()[:3]:
        env = Environment(task, builtin_library(), mode)
        names = [tool["function"]["name"] for tool in env.tools]
        assert len(names) == len(set(names))
        for tool in env.tools:
            assert tool["type"] == "function"
            assert set(tool["function"]) == {"name", "description", "parameters"}
            assert NAME.match(tool["function"]["name"])
            assert tool["function"]["parameters"]["type"] == "object"
            assert isinstance(tool["function"]["parameters"]["properties"], dict)
            assert len(tool["function"]["description"]) <= 300
        if mode == "gateway":
            assert names == ["list_services", "list_tools", "describe_tool", "call_tool"]
        else:
            mounted = set(task.services) | set(task.distractors)
            assert {env.catalog[env.real[n]].service for n in names} == mounted
            expected = sum(len(env.world.service(s).tools) for s in mounted)
            assert len(names) == expected


def test_long_and_odd_names_get_stable_aliases():
    assert exposed_name("crm__get_contact") == "crm__get_contact"
    long_a, long_b = "x" * 60 + "_alpha", "x" * 60 + "_beta"
    for name in (long_a, long_b, "svc.get/thing"):
        alias = exposed_name(name)
        assert NAME.match(alias) and alias == exposed_name(name) and alias != name
    assert len(exposed_name(long_a)) == 64 and exposed_name(long_a) != exposed_name(long_b)
    env = Environment(notes_task(), notes_library(), "direct")
    create = max(env.catalog, key=len)
    alias = env.names[create]
    assert env.real[alias] == create and alias in [t["function"]["name"] for t in env.tools]
    created = result(env.execute(alias, {"title": "Plan"}))
    assert created["success"] and created["data"]["title"] == "Plan"
    assert result(env.execute(create, {"title": "Plan"}))["error"]["code"] == 404


def test_gateway_lists_describes_and_calls():
    task = builtin_tasks()[0]
    env = Environment(task, builtin_library(), "gateway")
    services = result(env.execute("list_services", "{}"))["data"]
    assert [s["name"] for s in services] == sorted(set(task.services) | set(task.distractors))
    assert all(s["title"] and "description" in s for s in services)
    first = task.gold_calls[0]
    tools = result(env.execute("list_tools", {"service": first.service}))["data"]
    assert first.tool in [t["name"] for t in tools]
    assert all(set(t) == {"name", "description"} for t in tools)
    described = result(env.execute("describe_tool", json.dumps({"tool": first.tool})))["data"]
    assert described["name"] == first.tool and described["parameters"]["type"] == "object"
    called = result(env.execute("call_tool", {"tool_name": first.tool,
                                              "arguments": first.arguments}))
    assert called == {"success": True, "data": first.result}
    as_text = result(env.execute("call_tool", {"tool_name": first.tool,
                                               "arguments": json.dumps(first.arguments)}))
    assert as_text == called
    assert (env.n_tool_calls, env.n_real_tool_calls) == (5, 2)


@pytest.mark.parametrize("arguments, code, words", [
    ("{not json", 400, "not valid JSON"),
    ("[1, 2]", 400, "JSON object"),
    (12, 400, "JSON object"),
])
@pytest.mark.parametrize("mode", ["direct", "gateway"])
def test_malformed_arguments_are_error_results(mode, arguments, code, words):
    env = Environment(builtin_tasks()[0], builtin_library(), mode)
    name = env.tools[0]["function"]["name"]
    failed = result(env.execute(name, arguments))
    assert failed["success"] is False and failed["error"]["code"] == code
    assert words in failed["error"]["message"]
    assert (env.n_tool_calls, env.n_real_tool_calls) == (1, 0)


def test_unknown_names_say_what_to_do():
    task = builtin_tasks()[0]
    direct = Environment(task, builtin_library(), "direct")
    missing = result(direct.execute("no_such_tool", "{}"))["error"]
    assert missing["code"] == 404 and "tool list" in missing["message"]
    gateway = Environment(task, builtin_library(), "gateway")
    for name, arguments, hint in [
        ("crm__get_contact", {}, "list_services"),
        ("list_tools", {"service": "nowhere"}, "list_services"),
        ("list_tools", {}, "list_services"),
        ("describe_tool", {"tool": "nowhere__x"}, "list_tools"),
        ("call_tool", {"tool_name": "nowhere__x", "arguments": {}}, "list_tools"),
    ]:
        failed = result(gateway.execute(name, arguments))["error"]
        assert failed["code"] == 404 and hint in failed["message"], (name, failed)
    mounted = set(task.services) | set(task.distractors)
    outside = next(n for n, node in builtin_library().graph.nodes.items()
                   if node.service not in mounted)
    assert result(gateway.execute("call_tool", {"tool_name": outside}))["error"]["code"] == 404
    bad = result(gateway.execute("call_tool", {"tool_name": task.gold_calls[0].tool,
                                               "arguments": "{oops"}))["error"]
    assert bad["code"] == 400
    assert gateway.n_real_tool_calls == 0


def test_a_service_error_passes_through_and_counts_as_a_real_call():
    task = builtin_tasks()[0]
    env = Environment(task, builtin_library(), "direct")
    tool = next(t for t, spec in env.catalog.items() if spec.parameters.get("required"))
    failed = result(env.execute(env.names[tool], {}))
    assert failed["error"]["code"] == 400 and env.n_real_tool_calls == 1


def test_every_environment_has_its_own_world():
    library = builtin_library()
    task = next(t for t in builtin_tasks() if any(c.effect == "create" for c in t.gold_calls))
    first, second = Environment(task, library), Environment(task, library)
    for call in task.gold_calls:
        assert result(first.execute(first.names[call.tool], call.arguments))["success"]
    start, end = first.states()
    assert set(start) == set(end) == set(task.services)
    assert any(start[s].digest() != end[s].digest() for s in task.services)
    start2, end2 = second.states()
    assert all(start2[s].digest() == end2[s].digest() == start[s].digest()
               for s in task.services)
    third = Environment(task, library)
    assert all(third.states()[1][s].digest() == start[s].digest() for s in task.services)


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="direct"):
        Environment(builtin_tasks()[0], builtin_library(), "both")  # type: ignore[arg-type]
    assert len(GATEWAY_TOOLS) == 4

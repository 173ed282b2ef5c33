"""The LLM world model's logic: validation, retry, fallback and caching.

These are unit tests with a scripted stand-in client (a class with a `chat` method); the
live test against a real llama.cpp server comes with the later issue that brings one.
"""

from __future__ import annotations

import json

from compoworld.llm import LLMError
from compoworld.services.runtime import Service, Tool
from compoworld.specs.records import ServiceSpec
from compoworld.world.seeding import draw_pool
from compoworld.worldmodel import LLMWorldModel, OfflineWorldModel, ResponseCache
from tests.worldmodel.conftest import TOOLS, WEATHER

GOOD = {"city": "Paris", "temperature": 18.5, "conditions": "sunny"}


class ScriptedClient:
    """Answers `chat` with the next scripted reply (an exception is raised instead)."""

    def __init__(self, *replies: str | Exception) -> None:
        self.replies = list(replies)
        self.calls: list[dict] = []

    def chat(self, messages, **options) -> str:
        self.calls.append({"messages": messages, **options})
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def model_with(client, cache=None, attempts=2) -> LLMWorldModel:
    return LLMWorldModel(client, OfflineWorldModel(7, draw_pool(7)),
                         cache if cache is not None else ResponseCache(),
                         attempts=attempts)


def test_a_valid_answer_is_accepted_cached_and_replayed_without_the_client():
    client = ScriptedClient(json.dumps(GOOD))
    model = model_with(client)
    assert model.respond(WEATHER, {"city": "Paris"}) == GOOD
    assert model.respond(WEATHER, {"city": "Paris"}) == GOOD
    assert len(client.calls) == 1
    assert client.calls[0]["response_format"] == {"type": "json_object"}
    assert model.stats == {"cached": 1, "model": 1, "fallback": 0, "invalid": 0}
    prompt = json.loads(client.calls[0]["messages"][1]["content"])
    assert prompt["tool"] == WEATHER.name and prompt["arguments"] == {"city": "Paris"}
    assert prompt["returns"] == WEATHER.returns


def test_invalid_json_is_retried_with_the_problem_and_then_accepted():
    client = ScriptedClient("Sure! Here it is: {oops", "```json\n" + json.dumps(GOOD) + "\n```")
    model = model_with(client)
    assert model.respond(WEATHER, {"city": "Paris"}) == GOOD
    retry = client.calls[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "Sure! Here it is: {oops"}
    assert "not valid JSON" in retry[-1]["content"]
    assert model.stats["invalid"] == 1 and model.stats["model"] == 1


def test_invalid_json_twice_falls_back_to_the_offline_model():
    client = ScriptedClient("nope", "still nope")
    model = model_with(client)
    answer = model.respond(WEATHER, {"city": "Paris"})
    assert answer == model.fallback.respond(WEATHER, {"city": "Paris"})
    assert len(client.calls) == 2 and model.stats["fallback"] == 1


def test_a_schema_invalid_answer_falls_back_and_the_fallback_is_cached():
    wrong = json.dumps({"city": "Paris", "temperature": 99, "conditions": "sunny"})
    client = ScriptedClient(wrong, json.dumps({"city": "Paris"}))
    cache = ResponseCache()
    model = model_with(client, cache)
    answer = model.respond(WEATHER, {"city": "Paris"})
    assert answer == model.fallback.respond(WEATHER, {"city": "Paris"})
    problem = client.calls[1]["messages"][-1]["content"]
    assert "temperature" in problem and "99" in problem
    assert model.respond(WEATHER, {"city": "Paris"}) == answer  # cached: same world
    assert len(client.calls) == 2


def test_a_client_that_gives_up_means_fallback_at_once():
    client = ScriptedClient(LLMError("server down"))
    model = model_with(client, attempts=3)
    answer = model.respond(WEATHER, {"city": "Oslo"})
    assert answer == model.fallback.respond(WEATHER, {"city": "Oslo"})
    assert len(client.calls) == 1


def test_non_object_results_are_asked_wrapped_and_unwrapped():
    tags = next(t for t in TOOLS if t.name == "demo__list_tags")
    client = ScriptedClient(json.dumps({"result": ["urgent", "q3"]}))
    assert model_with(client).respond(tags, {}) == ["urgent", "q3"]
    assert '{"result"' in client.calls[0]["messages"][1]["content"]


def test_a_persisted_cache_serves_a_new_process_without_the_client(tmp_path):
    path = tmp_path / "answers.jsonl"
    first = ResponseCache(path)
    model_with(ScriptedClient(json.dumps(GOOD)), first).respond(WEATHER, {"city": "Paris"})
    first.close()
    later = ScriptedClient()
    assert model_with(later, ResponseCache(path)).respond(WEATHER, {"city": "Paris"}) == GOOD
    assert later.calls == []


def test_the_handler_sends_a_state_summary():
    client = ScriptedClient(json.dumps(GOOD))
    model = model_with(client)
    spec = ServiceSpec(name="demo", title="Demo", description="", domain="other",
                       source="test", resources={"notes": {"type": "object"}}, tools=[WEATHER])
    service = Service(spec, {WEATHER.name: Tool(WEATHER, "simulated", model.handler_for(WEATHER))})
    service.state.put("notes", {"id": "n1"})
    assert service.call(WEATHER.name, {"city": "Paris"}) == {"success": True, "data": GOOD}
    prompt = json.loads(client.calls[0]["messages"][1]["content"])
    assert prompt["state"] == {"notes": {"count": 1, "ids": ["n1"]}}

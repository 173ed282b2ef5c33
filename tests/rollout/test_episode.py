"""The episode runner: ends, budgets, infra errors, malformed output, scoring, concurrency."""

from __future__ import annotations

import asyncio
import json

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import candidates, order_starts, start_tools
from compoworld.rollout.episode import (
    CircuitBreaker,
    EndpointDown,
    Episode,
    InfraError,
    run_episode,
    run_episodes,
    score,
)
from compoworld.rollout.openai_policy import parse_action
from compoworld.rollout.policies import Action, ReferencePolicy
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    starts = order_starts(start_tools(library.graph), 0)
    made = candidates(library, starts, seed=0, shard=0, world_seed=9, quota=6, limit=200)
    return [c.task for c in made if c.outcome == "verified" and c.task]


class Scripted:
    """A policy that replays fixed actions (then answers), or fails like an endpoint."""

    name, model = "scripted", None

    def __init__(self, actions: list[Action] | None = None, fail: bool = False):
        self.actions = list(actions or [])
        self.fail = fail

    async def act(self, messages, tools) -> Action:
        if self.fail:
            raise InfraError("endpoint down after 4 tries")
        if self.actions:
            return self.actions.pop(0)
        return Action({"role": "assistant", "content": "done"})


def call(name: str, arguments: dict, index: int = 0) -> Action:
    return Action({"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{index}", "type": "function",
         "function": {"name": name, "arguments": json.dumps(arguments)}}]})


@pytest.mark.parametrize("mode", ["direct", "gateway"])
def test_the_reference_scores_full_marks(library, tasks, mode):
    assert len(tasks) == 6
    for task in tasks:
        rollout = asyncio.run(run_episode(Episode(task, ReferencePolicy(task, mode), mode,
                                                  "g", 0), library))
        assert rollout.score == 1.0 and rollout.status == "ok"
        assert rollout.finish_reason == "answer" and all(rollout.passes)
        assert rollout.n_real_tool_calls == len(task.gold_calls)
        assert rollout.messages[0]["role"] == "system" and rollout.messages[1]["content"] == \
            task.instruction


def test_a_do_nothing_agent_scores_zero_net(library, tasks):
    rollout = asyncio.run(run_episode(Episode(tasks[0], Scripted(), "direct", "g", 0), library))
    assert rollout.score == 0.0 and rollout.net_score == 0.0
    assert rollout.final_answer == "done" and rollout.n_tool_calls == 0


def test_an_endpoint_that_keeps_failing_is_an_infra_error(library, tasks):
    rollout = asyncio.run(run_episode(Episode(tasks[0], Scripted(fail=True), "gateway", "g", 0),
                                      library))
    assert rollout.status == "infra_error" and rollout.finish_reason == "infra_error"
    assert "endpoint down" in rollout.error


def test_malformed_output_is_shown_to_the_policy_not_a_crash(library, tasks):
    bad = Action({"role": "assistant", "content": "{not json"}, error="Your reply was not "
                 "valid JSON")
    rollout = asyncio.run(run_episode(Episode(tasks[0], Scripted([bad]), "direct", "g", 0),
                                      library))
    assert rollout.status == "ok" and rollout.n_steps == 2
    assert rollout.messages[3] == {"role": "user", "content": "Your reply was not valid JSON"}


def test_the_step_budget_ends_the_episode(library, tasks):
    task = tasks[0]
    spam = [call("list_services", {}, i) for i in range(task.step_budget + 5)]
    rollout = asyncio.run(run_episode(Episode(task, Scripted(spam), "gateway", "g", 0), library))
    assert rollout.finish_reason == "step_budget"
    assert rollout.n_tool_calls == task.step_budget


def test_unknown_tools_and_bad_arguments_come_back_as_error_results(library, tasks):
    actions = [call("no_such_tool", {}), Action({"role": "assistant", "content": None,
               "tool_calls": [{"id": "x", "type": "function",
                               "function": {"name": "call_tool", "arguments": "{oops"}}]})]
    rollout = asyncio.run(run_episode(Episode(tasks[0], Scripted(actions), "gateway", "g", 0),
                                      library))
    results = [json.loads(m["content"]) for m in rollout.messages if m["role"] == "tool"]
    assert [r["error"]["code"] for r in results] == [404, 400]


def test_episodes_run_concurrently_and_keep_their_order(library, tasks):
    episodes = [Episode(t, ReferencePolicy(t, "direct"), "direct", t.task_id, 0) for t in tasks]
    seen = []
    rollouts = asyncio.run(run_episodes(episodes, library, concurrency=3,
                                        progress=lambda r: seen.append(r.task_id)))
    assert [r.task_id for r in rollouts] == [t.task_id for t in tasks]
    assert sorted(seen) == sorted(t.task_id for t in tasks)
    with pytest.raises(ValueError, match="concurrency"):
        asyncio.run(run_episodes(episodes, library, concurrency=0))


def test_score_counts_net_of_the_guard(tasks):
    task = tasks[0]
    result = score(task, {}, {}, "")  # states missing: every criterion fails
    assert result["score"] == 0.0 and result["net_score"] == 0.0


@pytest.mark.parametrize(("text", "kind"), [
    ('{"tool": "list_services", "arguments": {}}', "call"),
    ('{"answer": "The email is a@b.co"}', "answer"),
    ("not json", "error"),
    ('["list"]', "error"),
    ('{"tool": "x", "arguments": "nope"}', "error"),
    ("{}", "error"),
])
def test_json_actions_become_assistant_messages(text, kind):
    message, problem = parse_action(text, 3)
    if kind == "call":
        assert problem is None and message["tool_calls"][0]["id"] == "call_3"
        assert json.loads(message["tool_calls"][0]["function"]["arguments"]) == {}
    elif kind == "answer":
        assert problem is None and message == {"role": "assistant",
                                                "content": "The email is a@b.co"}
    else:
        assert problem and message["content"] == text


class Flaky(Scripted):
    """A policy that fails like a down endpoint on the episodes `down` names (else answers),
    counting the calls it gets."""

    def __init__(self, down: bool, calls: list[int]):
        super().__init__(fail=down)
        self.calls = calls

    async def act(self, messages, tools) -> Action:
        self.calls.append(1)
        return await super().act(messages, tools)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_the_breaker_stops_a_shard_after_infra_errors_in_a_row(library, tasks, concurrency):
    calls: list[int] = []
    episodes = [Episode(tasks[i % len(tasks)], Flaky(True, calls), "direct", "g", i)
                for i in range(12)]
    with pytest.raises(EndpointDown, match="3 of 3 rollouts could not reach the endpoint "
                                           r"\(endpoint down.*the other 9 were not attempted"):
        asyncio.run(run_episodes(episodes, library, concurrency=concurrency,
                                 breaker=CircuitBreaker(3)))
    assert len(calls) == 3


def test_an_ok_rollout_closes_the_breakers_streak(library, tasks):
    calls: list[int] = []
    down = [True, True, False] * 4  # never three failures in a row
    episodes = [Episode(tasks[i % len(tasks)], Flaky(d, calls), "direct", "g", i)
                for i, d in enumerate(down)]
    rollouts = asyncio.run(run_episodes(episodes, library, concurrency=1,
                                        breaker=CircuitBreaker(3)))
    assert [r.status == "infra_error" for r in rollouts] == down and len(calls) == 12

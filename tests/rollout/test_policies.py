"""Scripted policies, played through the message protocol an LLM uses: the reference solves
every task in both views from what it observes; the noisy one fails some criteria, by
seed; the random one stops."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.reward.rubric import evaluate_rubric
from compoworld.rollout.env import Environment
from compoworld.rollout.policies import (
    GIVE_UP,
    Action,
    NoisyPolicy,
    Policy,
    RandomPolicy,
    ReferencePolicy,
)
from tests.rollout.test_env import builtin_library, builtin_tasks, notes_library, notes_task

MODES = ["direct", "gateway"]


def play(policy: Policy, env: Environment, turns: int = 30) -> tuple[list[dict[str, Any]], str]:
    """Run an episode: the messages and the final answer."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "Use the tools."},
                                      {"role": "user", "content": env.task.instruction}]
    for _ in range(turns):
        action = asyncio.run(policy.act(messages, env.tools))
        assert isinstance(action, Action) and action.error is None
        messages.append(action.message)
        calls = action.message.get("tool_calls")
        if not calls:
            return messages, action.message["content"]
        for call in calls:
            name = call["function"]["name"]
            messages.append({"role": "tool", "tool_call_id": call["id"], "name": name,
                             "content": env.execute(name, call["function"]["arguments"])})
    raise AssertionError(f"{policy.name} did not stop in {turns} turns")


def passes(task: Task, library: ServiceLibrary, policy: Policy, mode: str
           ) -> tuple[list[bool], list[dict[str, Any]], Environment]:
    env = Environment(task, library, mode)
    messages, answer = play(policy, env)
    start, end = env.states()
    return evaluate_rubric(task.rubric, start, end, answer), messages, env


def assert_openai_messages(messages: list[dict[str, Any]], tools: list[dict[str, Any]]):
    names = {tool["function"]["name"] for tool in tools}
    for message in messages:
        if message["role"] != "assistant":
            continue
        assert set(message) <= {"role", "content", "tool_calls"}
        for call in message.get("tool_calls", []):
            assert call["type"] == "function" and call["id"]
            assert call["function"]["name"] in names
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
    assert "tool_calls" not in messages[-1] and isinstance(messages[-1]["content"], str)


@pytest.mark.parametrize("mode", MODES)
def test_the_reference_passes_every_criterion(mode: str):
    library = builtin_library()
    for task in builtin_tasks():
        passed, messages, env = passes(task, library, ReferencePolicy(task, mode), mode)
        assert passed and all(passed), (task.task_id, passed)
        assert_openai_messages(messages, env.tools)
        assert env.n_real_tool_calls == len(task.gold_calls)
        names = [c["function"]["name"] for m in messages for c in m.get("tool_calls", [])]
        if mode == "gateway":  # it looks around first: list a service, describe a tool
            services = {c.service for c in task.gold_calls}
            tools = {c.tool for c in task.gold_calls}
            assert names.count("list_tools") == len(services)
            assert names.count("describe_tool") == len(tools)
            assert names.count("call_tool") == len(task.gold_calls)
            assert names[:2] == ["list_tools", "describe_tool"]
            assert env.n_tool_calls <= task.step_budget
        else:
            assert env.n_tool_calls == len(task.gold_calls)
    assert any(task.answer for task in builtin_tasks())


@pytest.mark.parametrize("mode", MODES)
def test_the_reference_uses_the_exposed_name_of_a_long_tool(mode: str):
    task = notes_task()
    passed, messages, env = passes(task, notes_library(), ReferencePolicy(task, mode), mode)
    assert all(passed) and len(passed) == 2
    assert_openai_messages(messages, env.tools)
    assert "the note's body is" in messages[-1]["content"]


def tampered(task: Task) -> tuple[Task, int]:
    """A copy whose hidden gold arguments and answer values are junk (of the same JSON type:
    the type of a parameter is no secret, its value is)."""
    copy = task.model_copy(deep=True)
    count = 0
    for call in copy.gold_calls:
        for param, binding in call.bindings.items():
            if binding.kind == "hidden":
                gold = call.arguments[param]
                numeric = isinstance(gold, int | float) and not isinstance(gold, bool)
                call.arguments[param] = -987654321 if numeric else "JUNK-VALUE"
                count += 1
    for item in copy.answer:
        item.value = "JUNK-VALUE"
        count += 1
    return copy, count


@pytest.mark.parametrize("mode", MODES)
def test_the_reference_discovers_hidden_values_instead_of_reading_them(mode: str):
    library = builtin_library()
    total = 0
    for task in builtin_tasks():
        junk, count = tampered(task)
        total += count
        passed, messages, _env = passes(junk, library, ReferencePolicy(junk, mode), mode)
        assert all(passed), (task.task_id, passed)
        assert "JUNK-VALUE" not in json.dumps(messages)
        assert "-987654321" not in json.dumps(messages)
    assert total >= 10
    selected = [b for t in builtin_tasks() for c in t.gold_calls for b in c.bindings.values()
                if b.selector is not None]
    assert selected  # items named by a selector were looked up, not indexed


def test_the_noisy_policy_is_deterministic_per_seed_task_and_index():
    task = builtin_tasks()[3]
    for idx in range(6):
        one, two = NoisyPolicy(task, "direct", 5, idx), NoisyPolicy(task, "direct", 5, idx)
        assert one.mistakes == two.mistakes and one.script == two.script
        first = passes(task, builtin_library(), one, "direct")
        again = passes(task, builtin_library(), two, "direct")
        assert first[:2] == again[:2]
    scripts = {tuple(NoisyPolicy(task, "direct", 5, idx).script) for idx in range(16)}
    assert len(scripts) > 3
    assert NoisyPolicy(task, "direct", 6, 0).script != NoisyPolicy(task, "direct", 5, 0).script \
        or NoisyPolicy(task, "direct", 6, 1).script != NoisyPolicy(task, "direct", 5, 1).script


@pytest.mark.parametrize("mode", MODES)
def test_noisy_groups_have_varied_pass_patterns(mode: str):
    library = builtin_library()
    made: Counter[str] = Counter()
    failed_some, varied = 0, 0
    for task in builtin_tasks():
        patterns = set()
        for idx in range(8):
            policy = NoisyPolicy(task, mode, 11, idx)
            passed, messages, env = passes(task, library, policy, mode)
            made.update(policy.mistakes)
            patterns.add(tuple(passed))
            assert env.n_tool_calls <= task.step_budget
            assert_openai_messages(messages, env.tools)
            if not policy.mistakes:
                assert all(passed)
            elif not all(passed):
                failed_some += 1
            if "wrong_answer" in policy.mistakes:
                answers = [c for c in task.rubric if c.kind == "answer_contains"]
                assert not any(passed[task.rubric.index(c)] for c in answers)
        varied += len(patterns) > 1
    assert set(made) == {"wrong_argument", "skipped_step", "early_stop", "extra_calls",
                         "wrong_answer"}
    assert failed_some >= 20 and varied >= 8


@pytest.mark.parametrize("mode", MODES)
def test_the_random_policy_stops_and_gives_up(mode: str):
    library = builtin_library()
    for task in builtin_tasks()[:4]:
        for idx in range(3):
            env = Environment(task, library, mode)
            messages, answer = play(RandomPolicy(7, idx), env, turns=6)
            assert answer == GIVE_UP and 1 <= env.n_tool_calls <= 4
            assert_openai_messages(messages, env.tools)
            again = play(RandomPolicy(7, idx), Environment(task, library, mode), turns=6)
            assert again[0] == messages
    gateway = Environment(builtin_tasks()[0], library, "gateway")
    messages, _ = play(RandomPolicy(7, 0), gateway, turns=6)
    names = [c["function"]["name"] for m in messages for c in m.get("tool_calls", [])]
    assert names == ["list_services", "list_tools", "describe_tool", "call_tool"]


@pytest.mark.parametrize(("value", "like", "expected"), [
    (766.31, "766.31", "766.31"), (42, "x", "42"), ("42", 7, 42), ("-3", 1, -3),
    ("abc", 1, "abc"), (True, "x", True), (5, 5, 5), ("a", "b", "a"),
    # an address into a list of them: the reference played `to: "ann@x.org"` where Gmail
    # takes `["ann@x.org"]`, and scored 0 on every such task (`compoworld audit` found it)
    ("ann@x.org", ["bo@x.org"], ["ann@x.org"]), (42, ["7"], ["42"]),
    (["ann@x.org"], ["bo@x.org"], ["ann@x.org"]),
])
def test_discovered_values_take_the_parameter_type(value, like, expected):
    from compoworld.rollout.policies import same_type

    assert same_type(value, like) == expected
    assert type(same_type(value, like)) is type(expected)

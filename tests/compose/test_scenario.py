"""A patterned workflow asked for as a person asks for it: the record it is about named
once, each act in its app with the record's facts, no field mapping, no steps."""

from __future__ import annotations

import random

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.instruction import visible_values, write_instruction
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.patterns import BY_NAME
from compoworld.compose.records import Task
from compoworld.compose.scenario import write_scenario
from compoworld.compose.stage import start_tools
from tests.compose.builtin_tasks import builtin_library
from tests.compose.test_goal import check_goal


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return builtin_library()


@pytest.fixture(scope="module")
def patterned(library: ServiceLibrary) -> list[Task]:
    starts = sorted(start_tools(library.graph, patterned=True))
    made = []
    for index in range(1500):
        rng = random.Random(f"s:{index}")
        task = compose_task(library, 7, rng.choice(starts), rng, f"s{index}", patterned=True)
        if isinstance(task, Task):
            made.append(task)
        if len(made) == 80:
            break
    assert len(made) >= 40
    return made


def scenario(task: Task, library: ServiceLibrary, seed: int) -> str | None:
    titles = {name: library.infos[name].title for name in task.services}
    resources = {c.tool: library.graph.nodes[c.tool].resource for c in task.gold_calls}
    return write_scenario(task.gold_calls, task.answer, titles, random.Random(seed),
                          BY_NAME[task.pattern], resources=resources)


def test_write_workflows_are_asked_for_as_their_purpose(patterned, library):
    said = [(t, text) for i, t in enumerate(patterned)
            if (text := scenario(t, library, i)) is not None]
    assert len(said) >= 30
    for task, text in said:
        pattern = BY_NAME[task.pattern]
        assert pattern.purpose in text, text
        assert " set to " not in text, text  # no `amount set to the amount of ...`
        check_goal(text, task.gold_calls, task.answer)
        for call in task.gold_calls[1:]:
            if call.effect != "read":
                assert library.infos[call.service].title in text, (call.service, text)


def test_the_subject_is_named_once_then_by_pronoun(patterned, library):
    for index, task in enumerate(patterned):
        text = scenario(task, library, index)
        if text is None:
            continue
        for value in visible_values(task.gold_calls[:1], []):
            assert text.count(str(value)) <= 1, text
        assert any(word in text for word in (" it ", " them ", " its ", " their ")), text


def test_compose_uses_the_scenario_for_goal_style_and_falls_back(patterned, library):
    """The composed instruction is the scenario's text when the chain has its shape, and the
    goal writer's (still a goal, no steps) when not: a mid-chain read, an answer."""
    kinds = {"scenario": 0, "goal": 0}
    for task in patterned:
        titles = {name: library.infos[name].title for name in task.services}
        resources = {c.tool: library.graph.nodes[c.tool].resource for c in task.gold_calls}
        pattern = BY_NAME[task.pattern]
        again = write_instruction(task.gold_calls, task.answer, titles, random.Random(1),
                                  style="goal", purpose=pattern.purpose, gist=pattern.gist,
                                  resources=resources, pattern=pattern)
        own = write_scenario(task.gold_calls, task.answer, titles, random.Random(1), pattern,
                             resources=resources)
        kinds["scenario" if own is not None else "goal"] += 1
        assert own is None or again == own
        check_goal(again, task.gold_calls, task.answer)
    assert kinds["scenario"] >= 30 and kinds["goal"] >= 1, kinds

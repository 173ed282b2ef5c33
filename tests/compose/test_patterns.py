"""Walks seeded from workflow patterns: every call fits its step, values move by role, the
task records its pattern and domain; free walks stay available."""

from __future__ import annotations

import random

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.patterns import BY_NAME, PATTERNS, fits, patterns_from
from compoworld.compose.records import Task
from compoworld.compose.stage import start_tools
from compoworld.graph.depgraph import EDGE_THRESHOLD
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    starts = sorted(start_tools(library.graph, patterned=True))
    made = []
    for index in range(300):
        rng = random.Random(index)
        task = compose_task(library, 7, rng.choice(starts), rng, f"t{index}", patterned=True)
        if isinstance(task, Task):
            made.append(task)
    return made


def test_pattern_names_are_unique_and_each_starts_with_a_read():
    assert len(BY_NAME) == len(PATTERNS)
    assert all(p.steps[0].effects == ("read",) and len(p.steps) >= 2 for p in PATTERNS)


def test_patterned_starts_begin_a_pattern_and_need_no_record_id(library):
    starts = start_tools(library.graph, patterned=True)
    assert starts and set(starts) < set(start_tools(library.graph))
    assert all(patterns_from(library.graph.nodes[name]) for name in starts)


def test_every_call_fits_its_step_and_links_score_above_the_threshold(library, tasks):
    assert len(tasks) >= 10
    graph = library.graph
    for task in tasks:
        pattern = BY_NAME[task.pattern]
        assert task.domain == pattern.domain
        assert len(task.gold_calls) == len(pattern.steps)
        for call, step in zip(task.gold_calls, pattern.steps, strict=True):
            assert fits(graph.nodes[call.tool], step), (task.pattern, call.tool)
            for param, binding in call.bindings.items():
                if binding.kind == "hidden":
                    source = task.gold_calls[binding.step].tool
                    assert graph.score(source, binding.field, call.tool, param,
                                       binding.type) >= EDGE_THRESHOLD
        assert len(set(task.services)) >= 2


def test_a_free_walk_records_no_pattern(library):
    starts = sorted(start_tools(library.graph))
    for index in range(50):
        rng = random.Random(index)
        task = compose_task(library, 7, rng.choice(starts), rng, f"f{index}")
        if isinstance(task, Task):
            assert task.pattern is None
            return
    pytest.fail("no free walk made a task in 50 tries")

"""Rewards that cannot be gamed: over 500 composed, verified tasks, no adversary
(do nothing, echo the instruction, read every argument-free tool, call every tool with
every visible value) fully passes one, while the reference solution passes every one."""

from __future__ import annotations

import asyncio

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.rollout.adversaries import ADVERSARIES, run_adversary
from compoworld.rollout.episode import Episode, run_episodes
from compoworld.rollout.policies import ReferencePolicy
from tests.compose.builtin_tasks import builtin_library, verified_tasks

pytestmark = pytest.mark.slow
TASKS = 500
WORLDS = 4


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return builtin_library()


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    """500 verified tasks over the built-in services, composed shard by shard in 4 worlds."""
    found = verified_tasks(library, count=TASKS, seed=0, worlds=WORLDS, shards=200, limit=400)
    assert len(found) == TASKS
    return found


def test_the_reference_solution_fully_passes_every_task(
    tasks: list[Task], library: ServiceLibrary
) -> None:
    episodes = [Episode(task, ReferencePolicy(task), "direct", task.task_id, 0) for task in tasks]
    rollouts = asyncio.run(run_episodes(episodes, library, concurrency=16))
    failed = [r.task_id for r in rollouts if r.score != 1.0]
    assert not failed, f"{len(failed)} tasks fail their own reference solution"


@pytest.mark.parametrize("adversary", ADVERSARIES)
def test_no_adversary_fully_passes_a_task(
    adversary: str, tasks: list[Task], library: ServiceLibrary
) -> None:
    runs = [run_adversary(task, library, adversary) for task in tasks]
    full = [task.task_id for task, run in zip(tasks, runs, strict=True) if run.full_pass]
    answers = sum(bool(task.answer) for task in tasks)
    print(f"{adversary}: {len(full)} full passes of {len(tasks)} tasks ({answers} ask for an "
          f"answer), {sum(run.calls for run in runs)} calls")
    assert any(run.calls for run in runs) or adversary in ("nothing", "echo", "every_record")
    # (`every_record` acts only on tasks that select records among others, none of these
    # free walks: tests/compose/test_each.py runs it on selections)
    assert full == []

"""Auditing a run's verified tasks from its tables alone: do they still verify, does the
reference solution score 1.0, and does any adversary pass one?

A nightly run is trusted by what a user can check on its stored tasks, not by what compose
said when it made them:

- re-verified: every compose check (`compose/verify.py`), replayed on a fresh world built
  from the task's row and the run's services alone;
- reference: the reference policy (the gold solution, its hidden values discovered as an
  agent would) played as a rollout and scored by the rubric: 1.0 on every task;
- adversaries (`rollout/adversaries.py`): doing nothing, echoing the request, dumping
  every argument-free read, spraying every visible value into every tool: none may fully
  pass a task.

`compoworld audit` prints the counts and exits non-zero when any task fails one of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.verify import CHECKS, Deduper, verify_task
from compoworld.rollout.adversaries import ADVERSARIES, run_adversary
from compoworld.rollout.episode import Episode, run_episodes
from compoworld.rollout.policies import ReferencePolicy


@dataclass(slots=True)
class Audit:
    """What the audit of some tasks found; each list holds the ids of the tasks that fail."""

    tasks: int = 0
    unverified: list[str] = field(default_factory=list)  # a compose check fails on replay
    reference: list[str] = field(default_factory=list)  # the reference scores below 1.0
    # per adversary, the tasks it fully passes
    adversaries: dict[str, list[str]] = field(
        default_factory=lambda: {name: [] for name in ADVERSARIES})

    @property
    def ok(self) -> bool:
        """Whether every task passed every part of the audit."""
        return not self.unverified and not self.reference and not any(
            self.adversaries.values())

    def lines(self) -> list[str]:
        """The audit as a person reads it, one line per part."""
        n = self.tasks
        return [
            f"re-verified from the tables: {n - len(self.unverified)} of {n}",
            f"reference solution scores 1.0: {n - len(self.reference)} of {n}",
            "adversaries' full passes: " + ", ".join(
                f"{name} {len(ids)}" for name, ids in self.adversaries.items()) + f" (of {n})",
        ]


def audit_tasks(tasks: Sequence[Task], library: ServiceLibrary, *,
                progress: Callable[[int], None] | None = None) -> Audit:
    """Re-verify `tasks`, play their reference solutions and run every adversary on them
    (`progress` is told how many tasks are done after each)."""
    audit = Audit(tasks=len(tasks))
    for index, task in enumerate(tasks):
        checks = verify_task(task, library, Deduper())  # (one task alone is unique)
        if not all(checks[name] for name in CHECKS):
            audit.unverified.append(task.task_id)
        for name in ADVERSARIES:
            if run_adversary(task, library, name).full_pass:
                audit.adversaries[name].append(task.task_id)
        if progress is not None:
            progress(index + 1)
    episodes = [Episode(task, ReferencePolicy(task), "direct", task.task_id, 0)
                for task in tasks]
    rollouts = asyncio.run(run_episodes(episodes, library, concurrency=8))
    audit.reference = [r.task_id for r in rollouts if r.score != 1.0]
    return audit

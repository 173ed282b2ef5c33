"""Task verification: every check a task must pass to be kept, each one a `tasks` column.

- `replay_deterministic`  the gold calls, replayed twice on fresh worlds built from the
                          task's seed, give the recorded results and the same digest;
- `gold_passes`           every criterion passes on the gold end state and answer;
- `start_fails`           there is a criterion besides the guard, and every one fails on the
                          start state with an empty answer (a do-nothing agent scores 0 on
                          them; a walk that creates then deletes a record leaves none);
- `no_hidden_leak`        no hidden value appears in the instruction;
- `visible_stated`        every visible value does;
- `cross_service`         at least two services, and a value found in one is used in
                          another;
- `within_budget`         the gold solution fits in the task's step budget;
- `unique`                no earlier task of the run's shard has the same signature, or the
                          same tool chain with a near-identical instruction (word-trigram
                          Jaccard >= `NEAR_DUPLICATE`), and fewer than `APP_CHAIN_CAP` of
                          them follow the same workflow through the same apps (a shard of
                          250 Velo-payment-into-Avaza bookings teaches one thing), and no
                          earlier one runs the same workflow on the same record (one
                          customer onboarded into two CRMs is one task twice).

`replay` needs only the task and the library, so anyone can re-verify a stored task from
Parquet alone (tests/compose/test_reverify.py does).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from compoworld.compose.arguments import call_arguments
from compoworld.compose.instruction import render_value
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.naming import stated
from compoworld.compose.records import Task
from compoworld.compose.values import mentions
from compoworld.reward.rubric import evaluate_rubric
from compoworld.world.state import State

CHECKS = ("replay_deterministic", "gold_passes", "start_fails", "no_hidden_leak",
          "visible_stated", "cross_service", "within_budget", "unique")
NEAR_DUPLICATE = 0.9
APP_CHAIN_CAP = 6  # tasks of one shard that may follow one pattern through one app sequence


@dataclass(slots=True)
class Replay:
    """What replaying the gold calls gave: results, start and end states, world digest."""

    results: list[dict[str, Any]]
    start: dict[str, State]
    end: dict[str, State]
    digest: str


def replay(task: Task, library: ServiceLibrary) -> Replay:
    """Build the task's world from its seed and make the gold calls on it."""
    world = library.world(task.world_seed, task.world_patch)
    results = [world.call(call.tool, call.arguments) for call in task.gold_calls]
    start, end = world.states(task.services)
    return Replay(results, start, end, world.digest())


def gold_answer(task: Task) -> str:
    """The reference final answer: every asked-for value, stated plainly."""
    return "; ".join(f"{item.label}: {render_value(item.value)}" for item in task.answer)


@dataclass(slots=True)
class Deduper:
    """Signatures and instruction trigrams of the tasks kept so far (one per shard)."""

    signatures: set[str] = field(default_factory=set)
    chains: dict[tuple[str, ...], list[frozenset[tuple[str, ...]]]] = field(default_factory=dict)
    apps: Counter[tuple[str | None, ...]] = field(default_factory=Counter)
    subjects: set[tuple[str, ...]] = field(default_factory=set)
    cap: int = APP_CHAIN_CAP

    def is_new(self, task: Task) -> bool:
        """Whether the task is unlike every earlier one (does not remember it)."""
        if task.signature in self.signatures or self.apps[_apps(task)] >= self.cap \
                or _subject(task) in self.subjects:
            return False
        grams = trigrams(task.instruction)
        for other in self.chains.get(_chain(task), []):
            if len(grams & other) / (len(grams | other) or 1) >= NEAR_DUPLICATE:
                return False
        return True

    def remember(self, task: Task) -> None:
        """Count the task as kept."""
        self.signatures.add(task.signature)
        self.chains.setdefault(_chain(task), []).append(trigrams(task.instruction))
        self.apps[_apps(task)] += 1
        if (subject := _subject(task)) is not None:
            self.subjects.add(subject)


def _chain(task: Task) -> tuple[str, ...]:
    return tuple(call.tool for call in task.gold_calls)


def _apps(task: Task) -> tuple[str | None, ...]:
    """The task's workflow and the apps it runs through, in order."""
    return (task.pattern, *dict.fromkeys(call.service for call in task.gold_calls))


def _subject(task: Task) -> tuple[str, ...] | None:
    """A patterned task's workflow and the record it is about, as the request names it (the
    first call's stated filters, the selector of the item it took values from)."""
    if task.pattern is None or not task.gold_calls:
        return None
    first = task.gold_calls[0]
    named = [render_value(value) for param, value in sorted(call_arguments(first).items())
             if (b := first.bindings.get(param)) is not None and b.kind == "visible"]
    named += [render_value(b.selector.value) for call in task.gold_calls
              for b in call.bindings.values()
              if b.kind == "hidden" and b.step == 0 and b.selector is not None][:1]
    return (task.pattern, *named) if named else None


def trigrams(text: str) -> frozenset[tuple[str, ...]]:
    """Word trigrams of a text, lower-cased."""
    words = re.findall(r"\w+", text.lower())
    return frozenset(zip(words, words[1:], words[2:], strict=False))


def verify_task(task: Task, library: ServiceLibrary, deduper: Deduper) -> dict[str, bool]:
    """Run every check (all of them, so the table shows each failure)."""
    first, second = replay(task, library), replay(task, library)
    recorded = [{"success": True, "data": call.result} for call in task.gold_calls]
    passes = evaluate_rubric(task.rubric, first.start, first.end, gold_answer(task))
    on_start = evaluate_rubric(task.rubric, first.start, first.start, "")
    crossing = any(
        task.gold_calls[b.step].service != call.service
        for call in task.gold_calls for b in call.bindings.values() if b.kind == "hidden"
    )
    return {
        "replay_deterministic": first.digest == second.digest
        and first.results == second.results == recorded,
        "gold_passes": bool(passes) and all(passes),
        "start_fails": any(not c.noop_passes for c in task.rubric)
        and not any(p for c, p in zip(task.rubric, on_start, strict=True) if not c.noop_passes),
        "no_hidden_leak": not any(mentions(task.instruction, v) for v in task.hidden_values),
        "visible_stated": all(stated(v, task.instruction) for v in task.visible_values),
        "cross_service": len(set(task.services)) >= 2 and crossing,
        "within_budget": len(task.gold_calls) <= task.step_budget,
        "unique": deduper.is_new(task),
    }

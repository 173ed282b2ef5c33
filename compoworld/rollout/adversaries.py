"""Adversaries: policies that act on a task's environment without solving it, to prove that
a rubric cannot be gamed (a reward an agent earns without doing the task teaches it to
game the checks).

- `nothing`     makes no call and answers nothing;
- `echo`        answers with the instruction itself;
- `read_all`    calls every argument-free tool (no required parameter) of the mounted
                services and answers with the JSON of everything it read;
- `spray`       calls every tool once per visible value of the task (each required
                parameter filled with that value, in the parameter's JSON type) and
                answers with the JSON of everything it read;
- `every_record` on a task that selects or ranks records (`Task.operators`), acts on
                every record of the first read instead of the ones chosen: the gold
                calls, then each call that took a value of the first read's record once
                more for every other record of its list (that record's value in its
                place), answering the reference's answer with what those calls gave
                beside it. Where nothing it would do differs from the reference (no
                other record, or the same call again), it does nothing.

They act in the same `Environment` a rollout gets (direct view: every tool of the task's
services and distractors) and are scored by the episode's `score`, so a full pass here is
a full pass there. They get no step budget: a budget would fail them for the wrong reason.
Everything is in sorted order, so one task gives one run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compoworld.compose.arguments import named, nest
from compoworld.compose.instruction import render_value
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import GoldCall, Task
from compoworld.compose.references import item_head
from compoworld.compose.values import value_at
from compoworld.compose.verify import gold_answer
from compoworld.rollout.env import Environment
from compoworld.rollout.episode import score
from compoworld.rollout.policies import same_type
from compoworld.specs.infra import is_infrastructure

ADVERSARIES = ("nothing", "echo", "read_all", "spray", "every_record")
VALUES_PER_TOOL = 8  # visible values `spray` tries per tool
MAX_CALLS = 600  # calls one adversary makes on one task at most

Script = Callable[[Task, Environment], str]


@dataclass(frozen=True, slots=True)
class AdversaryRun:
    """What one adversary did on one task and how the rubric scored it."""

    adversary: str
    calls: int
    passes: list[bool]

    @property
    def full_pass(self) -> bool:
        """Whether every criterion passed (the task would be counted solved)."""
        return bool(self.passes) and all(self.passes)


def _call(env: Environment, tool: str, arguments: dict[str, Any], read: list[str]) -> None:
    """One call through the environment; a successful result's JSON joins what was read."""
    content = env.execute(env.names[tool], arguments)
    if json.loads(content).get("success") is True:
        read.append(content)


def _nothing(task: Task, env: Environment) -> str:
    return ""


def _echo(task: Task, env: Environment) -> str:
    return task.instruction


def _read_all(task: Task, env: Environment) -> str:
    read: list[str] = []
    for tool, spec in env.catalog.items():
        if env.n_tool_calls < MAX_CALLS and not spec.parameters.get("required"):
            _call(env, tool, {}, read)
    return "\n".join(read)


def _typed(value: Any, schema: Any) -> Any:
    """A value in the JSON type a parameter's schema names (`"42"` for a string id)."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    kinds = kind if isinstance(kind, list) else [kind]  # ["string", "null"] takes a string
    like = next(({"string": "", "integer": 0}[k] for k in kinds if k in ("string", "integer")),
                None)
    return same_type(value, like)


def _spray_arguments(parameters: dict[str, Any], value: Any) -> dict[str, Any]:
    """Every required parameter set to `value`; with none required, every parameter that is
    no infrastructure parameter (so the value reaches the tool at all)."""
    properties = parameters.get("properties", {}) or {}
    names = list(parameters.get("required") or []) or [
        name for name, schema in properties.items() if not is_infrastructure(name, schema)]
    return {name: _typed(value, properties.get(name)) for name in sorted(names)}


def _spray(task: Task, env: Environment) -> str:
    read: list[str] = []
    values = task.visible_values[:VALUES_PER_TOOL]
    for tool, spec in env.catalog.items():
        for value in values:
            if env.n_tool_calls >= MAX_CALLS:
                break
            _call(env, tool, _spray_arguments(spec.parameters, value), read)
    return "\n".join(read)


def _every_record(task: Task, env: Environment) -> str:
    if not {"select", "rank"} & set(task.operators):
        return ""  # (a task about one record chose none among others)
    first = task.gold_calls[0]
    chosen = [item_head(b.path) for call in task.gold_calls for b in call.bindings.values()
              if b.kind == "hidden" and b.step == 0 and b.path and "[" in b.path]
    if not chosen:
        return ""
    where = chosen[0].rpartition("[")[0]
    try:
        items = value_at(first.result, where)
    except KeyError:
        return ""
    others = [f"{where}[{i}]" for i in range(len(items) if isinstance(items, list) else 0)
              if f"{where}[{i}]" not in chosen]
    plans = [(other, index, call, arguments) for other in others
             for index, call in enumerate(task.gold_calls[1:], 1)
             if (arguments := _for_record(call, chosen[0], other, first.result)) is not None
             and arguments != call.arguments]  # (the same act again is no other act)
    steps = {index for _, index, _, _ in plans}
    if not any(call.effect != "read" for _, _, call, _ in plans) and not any(
            item.step in steps or (item.step == 0 and item.path.startswith(chosen[0] + "."))
            for item in task.answer):
        return ""  # (nothing it would do differs from the reference)
    read: list[str] = []
    for call in task.gold_calls:
        _call(env, call.tool, call.arguments, read)
    answer = [gold_answer(task)]
    for other in others:
        results: dict[int, Any] = {0: first.result}
        for made, index, call, arguments in plans:
            if made == other and env.n_tool_calls < MAX_CALLS:
                reply = json.loads(env.execute(env.names[call.tool], arguments))
                if reply.get("success") is True:
                    results[index] = reply.get("data")
        for item in task.answer:  # (what the reference reports, of this record too)
            path = other + item.path[len(chosen[0]):] if item.step == 0 \
                and item.path.startswith(chosen[0] + ".") else item.path
            if item.step in results and (item.step or path != item.path):
                try:
                    answer.append(render_value(value_at(results[item.step], path)))
                except KeyError:
                    continue
    return "\n".join(answer)


def _for_record(call: GoldCall, mine: str, other: str, listed: Any) -> dict[str, Any] | None:
    """A gold call's arguments with each value it took of record `mine` of the first
    read's list taken of record `other` instead; None when it took none (or the other
    record lacks one)."""
    flat, swapped = named(call.arguments, call.bindings), False
    for param, binding in call.bindings.items():
        if binding.kind == "hidden" and binding.step == 0 and param in flat \
                and (binding.path or "").startswith(mine + "."):
            try:
                value = value_at(listed, other + binding.path[len(mine):])
            except KeyError:
                return None
            # (as the gold sent it: an address in a list of recipients stays in one)
            flat[param] = [value] if isinstance(flat[param], list) \
                and not isinstance(value, list) else value
            swapped = True  # (a nested one too: a message's `to[0]`)
    return nest(flat, set(call.arguments), base=call.arguments) if swapped else None


SCRIPTS: dict[str, Script] = {"nothing": _nothing, "echo": _echo, "read_all": _read_all,
                              "spray": _spray, "every_record": _every_record}


def run_adversary(task: Task, library: ServiceLibrary, adversary: str) -> AdversaryRun:
    """Run one adversary on a fresh environment of the task and score it like a rollout."""
    if adversary not in SCRIPTS:
        raise ValueError(f"unknown adversary {adversary!r}; one of {', '.join(ADVERSARIES)}")
    env = Environment(task, library, "direct")
    answer = SCRIPTS[adversary](task, env)
    start, end = env.states()
    return AdversaryRun(adversary, env.n_tool_calls, score(task, start, end, answer)["passes"])

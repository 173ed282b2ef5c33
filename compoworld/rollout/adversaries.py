"""Adversaries: policies that act on a task's environment without solving it, to prove that
a rubric cannot be gamed (a reward an agent earns without doing the task teaches it to
game the checks).

- `nothing`     makes no call and answers nothing;
- `echo`        answers with the instruction itself;
- `read_all`    calls every argument-free tool (no required parameter) of the mounted
                services and answers with the JSON of everything it read;
- `spray`       calls every tool once per visible value of the task (each required
                parameter filled with that value, in the parameter's JSON type) and
                answers with the JSON of everything it read.

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

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.rollout.env import Environment
from compoworld.rollout.episode import score
from compoworld.rollout.policies import same_type
from compoworld.specs.infra import is_infrastructure

ADVERSARIES = ("nothing", "echo", "read_all", "spray")
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


SCRIPTS: dict[str, Script] = {"nothing": _nothing, "echo": _echo, "read_all": _read_all,
                              "spray": _spray}


def run_adversary(task: Task, library: ServiceLibrary, adversary: str) -> AdversaryRun:
    """Run one adversary on a fresh environment of the task and score it like a rollout."""
    if adversary not in SCRIPTS:
        raise ValueError(f"unknown adversary {adversary!r}; one of {', '.join(ADVERSARIES)}")
    env = Environment(task, library, "direct")
    answer = SCRIPTS[adversary](task, env)
    start, end = env.states()
    return AdversaryRun(adversary, env.n_tool_calls, score(task, start, end, answer)["passes"])

"""The episode runner: one policy works one task in its own environment, then it is scored.

An episode is a system prompt (the date, the rules, the result format), the task's
instruction, then assistant turns. Each tool call the policy makes is executed in the
episode's private `Environment` and answered with a `tool` message; an assistant message
without tool calls is the final answer and ends the episode, and so does the task's step
budget (tool calls). A policy whose output cannot be used gets the problem back as a user
message and tries again (it costs a step). A policy whose endpoint keeps failing raises
`InfraError`: the rollout is marked `infra_error`, which the reward stage never scores as
a failure. Scoring evaluates every rubric criterion on the end state and the final answer.

`run_episodes` runs many episodes concurrently (asyncio, a semaphore as the concurrency
limit): model calls are I/O; the environment and scoring are microseconds to milliseconds.
Given a `CircuitBreaker`, it stops starting episodes once that many in a row ended in
`infra_error`, lets those in flight finish, and raises `EndpointDown`: when an endpoint is
down, every further episode would only wait out its client's retries (with `429
Retry-After: 20`, a 3-task shard took 256 s per attempt before it failed anyway).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.reward.rubric import evaluate_rubric
from compoworld.rollout.env import Environment
from compoworld.rollout.policies import Policy
from compoworld.rollout.records import Mode, Rollout
from compoworld.world.clock import NOW_TEXT

NOW = NOW_TEXT  # the worlds' one fixed `now` (world/clock.py)
SYSTEM_PROMPT = """You are a careful assistant who completes the user's request by calling \
tools. The current date and time is {now}.

Rules:
- Look values up with the tools; never guess an id, an email or an amount.
- Change only what the user asks you to change.
- Every tool returns JSON: {{"success": true, "data": ...}} or {{"success": false, \
"error": {{"code": ..., "message": ...}}}}. Read error messages: they say what to do next.
- When you are done, reply with a final message and no tool call, stating every value the \
user asked you to report.
{views}"""
GATEWAY_NOTE = ("- Tools are reached through four meta-tools: list_services, list_tools, "
                "describe_tool and call_tool. Discover the tool you need, read its schema, "
                "then call it with call_tool.")


class InfraError(RuntimeError):
    """The policy's endpoint kept failing: the episode cannot be scored fairly."""


class EndpointDown(RuntimeError):
    """Most of a shard's rollouts could not reach the model endpoint (the shard is redone)."""


class CircuitBreaker:
    """Counts rollouts that end in `infra_error` one after another (in the order they end);
    after `threshold` in a row it opens and stays open: no further episode starts.

    While the last rollouts to end failed, new episodes wait until an episode in flight
    settles the question (an `ok` closes the streak; another failure lengthens it), else
    the slots the first failures free would start episodes against a down endpoint, each
    costing a full retry budget, before the breaker opens. With nothing in flight, one
    starts as a probe.
    """

    def __init__(self, threshold: int) -> None:
        if threshold < 1:
            raise ValueError(f"the breaker's threshold must be at least 1, got {threshold}")
        self.threshold = threshold
        self.streak = 0
        self.running = 0
        self.last_error: str | None = None
        self._changed = asyncio.Condition()

    @property
    def is_open(self) -> bool:
        """Whether no further episode should start."""
        return self.streak >= self.threshold

    async def admit(self) -> bool:
        """Wait until an episode may start; False when the breaker is open."""
        async with self._changed:
            await self._changed.wait_for(
                lambda: self.is_open or self.streak == 0 or self.running == 0)
            if self.is_open:
                return False
            self.running += 1
            return True

    async def settle(self, rollout: Rollout | None) -> None:
        """Count an admitted episode's end (None: it raised): an infra error lengthens the
        streak, an `ok` rollout ends it (unless the breaker is open already)."""
        async with self._changed:
            self.running -= 1
            if rollout is not None and rollout.status == "infra_error":
                self.streak += 1
                self.last_error = rollout.error
            elif rollout is not None and not self.is_open:
                self.streak = 0
            self._changed.notify_all()


@dataclass(frozen=True, slots=True)
class Episode:
    """What to run: a task, a policy for it, and where the rollout belongs."""

    task: Task
    policy: Policy
    mode: Mode
    group_id: str
    rollout_idx: int
    max_steps: int | None = None  # caps the task's step budget (costly models, smoke tests)


def system_prompt(mode: Mode, now: str = NOW) -> str:
    """The system message of every episode."""
    return SYSTEM_PROMPT.format(now=now, views=GATEWAY_NOTE if mode == "gateway" else "")


def score(task: Task, start: dict, end: dict, answer: str) -> dict[str, Any]:
    """Pass vector and scores of an end state and final answer against the task's rubric.

    `net_score` counts only the criteria a do-nothing agent fails, so it gives no credit
    for the guard a no-op passes.
    """
    passes = evaluate_rubric(task.rubric, start, end, answer)
    earned = [p for c, p in zip(task.rubric, passes, strict=True) if not c.noop_passes]
    total = len(passes) or 1
    return {
        "passes": passes,
        "rubric_score": sum(passes) / total,
        "score": 1.0 if passes and all(passes) else 0.0,
        "net_score": sum(earned) / len(earned) if earned else 0.0,
    }


async def run_episode(episode: Episode, library: ServiceLibrary, now: str = NOW) -> Rollout:
    """Run one episode to its end and score it (never raises for a policy's failure)."""
    task, policy = episode.task, episode.policy
    env_started = time.perf_counter()
    env = Environment(task, library, episode.mode)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt(episode.mode, now)},
        {"role": "user", "content": task.instruction},
    ]
    seconds_env = time.perf_counter() - env_started
    seconds_model = 0.0
    tokens = [0, 0]
    answer, finish, error, steps = "", "step_budget", None, 0
    budget = min(task.step_budget, episode.max_steps or task.step_budget)
    while steps <= budget:
        steps += 1
        began = time.perf_counter()
        try:
            action = await policy.act(messages, env.tools)
        except InfraError as failure:
            seconds_model += time.perf_counter() - began
            finish, error = "infra_error", str(failure)[:500]
            break
        seconds_model += time.perf_counter() - began
        tokens[0] += action.prompt_tokens
        tokens[1] += action.completion_tokens
        messages.append(action.message)
        if action.error:
            messages.append({"role": "user", "content": action.error})
            continue
        calls = action.message.get("tool_calls") or []
        if not calls:
            answer, finish = action.message.get("content") or "", "answer"
            break
        began = time.perf_counter()
        for call in calls:
            if env.n_tool_calls >= budget:
                break
            function = call.get("function", {})
            messages.append({
                "role": "tool", "tool_call_id": call.get("id", ""),
                "name": function.get("name", ""),
                "content": env.execute(function.get("name", ""), function.get("arguments", "")),
            })
        seconds_env += time.perf_counter() - began
        if env.n_tool_calls >= budget:
            finish = "step_budget"
            break
    began = time.perf_counter()
    start, end = env.states()
    scores = score(task, start, end, answer)
    seconds_env += time.perf_counter() - began
    return Rollout(
        task_id=task.task_id, group_id=episode.group_id, rollout_idx=episode.rollout_idx,
        policy=policy.name, model=policy.model, mode=episode.mode, messages=messages,
        tools=env.tools, final_answer=answer, **scores,
        status="infra_error" if finish == "infra_error" else "ok", finish_reason=finish,
        n_steps=steps, n_tool_calls=env.n_tool_calls, n_real_tool_calls=env.n_real_tool_calls,
        seconds_model=round(seconds_model, 6), seconds_env=round(seconds_env, 6),
        prompt_tokens=tokens[0], completion_tokens=tokens[1], error=error,
    )


async def run_episodes(
    episodes: Sequence[Episode], library: ServiceLibrary, *, concurrency: int = 8,
    progress: Callable[[Rollout], None] | None = None, breaker: CircuitBreaker | None = None,
) -> list[Rollout]:
    """Run episodes concurrently (at most `concurrency` at once), results in input order.

    With a `breaker`, episodes not started when it opens are skipped, and EndpointDown is
    raised once the started ones have finished.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    gate = asyncio.Semaphore(concurrency)

    async def one(episode: Episode) -> Rollout | None:
        async with gate:
            if breaker is None:
                rollout = await run_episode(episode, library)
            elif not await breaker.admit():
                return None
            else:
                ended: Rollout | None = None
                try:
                    rollout = ended = await run_episode(episode, library)
                finally:
                    await breaker.settle(ended)
        if progress is not None:
            progress(rollout)
        return rollout

    results = await asyncio.gather(*(one(e) for e in episodes))
    rollouts = [r for r in results if r is not None]
    if breaker is not None and len(rollouts) < len(results):
        failed = sum(r.status == "infra_error" for r in rollouts)
        raise EndpointDown(
            f"{failed} of {len(rollouts)} rollouts could not reach the endpoint "
            f"({breaker.last_error}), {breaker.streak} in a row, so the other "
            f"{len(results) - len(rollouts)} were not attempted; rerun the stage when it "
            "is back"
        )
    return rollouts

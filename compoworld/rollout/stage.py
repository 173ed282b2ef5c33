"""The `rollout` stage: G rollouts per verified task, scored, with CFRR rewards per group.

A shard holds task ids. For each task it runs `group_size` episodes (a group, named
`<stage>:<task id>`: the policy, view and model are in the stage name) (each on a private
world) with the chosen policy, concurrently, then scores the group: every rollout's pass
vector, then CFRR rewards and GRPO advantages over the group (`reward/cfrr.py`), with the
CFRR parameters stored on each reward row. Rollouts whose endpoint kept failing are kept
with status `infra_error` and left out of their group's rewards; when more than
`max_infra_share` of a shard's rollouts failed so (the endpoint is down), the shard raises
`EndpointDown` instead, so that it is retried and a rerun of the stage redoes it. It fails
fast: after `breaker_threshold` rollouts in a row ended in `infra_error`, the shard's
remaining rollouts are not attempted (episode.CircuitBreaker), and each model call gives
up after `retry_budget` seconds of retries (llm.LLMClient), whatever `Retry-After` says.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import task_from_row
from compoworld.llm import RETRY_BUDGET, LLMClient
from compoworld.reward.cfrr import CFRRParams, score_group
from compoworld.rollout.episode import CircuitBreaker, EndpointDown, Episode, run_episodes
from compoworld.rollout.policies import NoisyPolicy, Policy, RandomPolicy, ReferencePolicy
from compoworld.rollout.records import Rollout
from compoworld.shards import Shard
from compoworld.world.seeds import derive_seed
from compoworld.world.state import json_text

POLICIES = ("reference", "noisy", "random", "openai")
MAX_INFRA_SHARE = 0.5
BREAKER_THRESHOLD = 3  # infra errors in a row: past client retries, so the endpoint is down


def make_policy(params: dict[str, Any], task: Task, rollout_idx: int) -> Policy:
    """The policy of one episode, from the stage parameters."""
    kind, mode, seed = params["policy"], params["mode"], params["seed"]
    if kind == "reference":
        return ReferencePolicy(task, mode)
    if kind == "noisy":
        return NoisyPolicy(task, mode, seed, rollout_idx)
    if kind == "random":
        return RandomPolicy(derive_seed(seed, task.task_id), rollout_idx)
    if kind == "openai":
        from compoworld.rollout.openai_policy import OpenAIPolicy

        client = LLMClient(params["base_url"], params["model"], timeout=params["timeout"],
                           retry_budget=params.get("retry_budget", RETRY_BUDGET))
        return OpenAIPolicy(client, params["action_mode"], max_tokens=params["max_tokens"],
                            seed=derive_seed(seed, task.task_id, rollout_idx) % (1 << 31))
    raise ValueError(f"unknown policy {kind!r}; choose one of {', '.join(POLICIES)}")


def rollout_row(rollout: Rollout, task: Task) -> dict[str, Any]:
    """One `rollouts` row: records as JSON, the pass vector as a list."""
    dump = rollout.model_dump()
    for key in ("messages", "tools"):
        dump[key] = json_text(dump[key])
    return dump | {"services": task.services, "capabilities": task.capabilities}


async def _run(episodes: list[Episode], library: ServiceLibrary,
               params: dict[str, Any]) -> list[Rollout]:
    """The shard's episodes under its circuit breaker, with one thread per concurrent
    episode: policies call their (synchronous) clients in threads, and the loop's default
    pool has only `cores + 4`, so with 8 episodes on 2 cores two waited for a thread, and
    met a down endpoint one retry budget after the others."""
    concurrency = params["concurrency"]
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(concurrency))
    breaker = CircuitBreaker(params.get("breaker_threshold", BREAKER_THRESHOLD))
    return await run_episodes(episodes, library, concurrency=concurrency, breaker=breaker)


def rollout_shard(shard: Shard, store: Any) -> dict[str, list[dict[str, Any]]]:
    """The stage's work function: every task of the shard, `group_size` rollouts each."""
    params = shard.params
    rows = store.read("tasks", shard.run_id, where=("task_id", shard.items))
    tasks = sorted((task_from_row(r) for r in rows if r["verified"]), key=lambda t: t.task_id)
    library = ServiceLibrary.from_store(store, shard.run_id)
    episodes = [
        Episode(task, make_policy(params, task, index), params["mode"],
                f"{shard.stage}:{task.task_id}", index, params.get("max_steps"))
        for task in tasks for index in range(params["group_size"])
    ]
    rollouts = asyncio.run(_run(episodes, library, params))
    failed = [r for r in rollouts if r.status == "infra_error"]
    if len(failed) > params.get("max_infra_share", MAX_INFRA_SHARE) * len(rollouts):
        raise EndpointDown(f"{len(failed)} of {len(rollouts)} rollouts could not reach the "
                           f"endpoint ({failed[0].error}); rerun the stage when it is back")
    cfrr = CFRRParams(**params["cfrr"])
    by_task = {task.task_id: task for task in tasks}
    out_rollouts, out_rewards = [], []
    for start in range(0, len(rollouts), params["group_size"]):
        group = rollouts[start:start + params["group_size"]]
        rewards = score_group([{"passes": r.passes, "status": r.status} for r in group], cfrr)
        for rollout, reward in zip(group, rewards, strict=True):
            out_rollouts.append(rollout_row(rollout, by_task[rollout.task_id]))
            out_rewards.append({
                "task_id": rollout.task_id, "group_id": rollout.group_id,
                "rollout_idx": rollout.rollout_idx, "policy": rollout.policy,
                "reward": reward["reward"], "advantage": reward["advantage"],
                "rubric_reward": reward.get("rubric_reward"),
                "binary_reward": reward.get("binary_reward"),
                "excluded": reward.get("excluded", False),
                "weights": orjson.dumps(reward.get("weights")).decode(),
                "alpha": cfrr.alpha, "eps": cfrr.eps, "beta": cfrr.beta,
            })
    return {"rollouts": out_rollouts, "rewards": out_rewards}

"""rollout_flow: verified tasks -> scored rollouts and CFRR rewards per group."""

from __future__ import annotations

from typing import Any

from prefect import flow

from compoworld.rollout.stage import POLICIES
from compoworld.shards import plan_shards
from compoworld.world.words import slugify
from flows.names import resolved_run_id, run_name
from flows.shards import run_stage, stage_logger
from storage.catalog import run_query
from storage.queries import stage_digest
from storage.store import Store


class NothingToRollOut(ValueError):
    """The run has no verified tasks."""


@flow(name="rollout", flow_run_name=run_name("rollout", "policy"))
def rollout_flow(
    run_id: str | None = None,
    policy: str = "reference",
    mode: str = "gateway",
    group_size: int = 8,
    tasks: int | None = None,
    skip: int = 0,
    seed: int = 0,
    base_url: str | None = None,
    model: str | None = None,
    action_mode: str = "tools",
    concurrency: int = 8,
    timeout: float = 60.0,
    max_tokens: int = 512,
    max_steps: int | None = None,
    alpha: float = 1.0,
    eps: float = 0.05,
    beta: float = 0.5,
    tasks_per_shard: int = 100,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """Roll `policy` out `group_size` times on each of the first `tasks` verified tasks
    after the first `skip` (all when None; ordered by task id) in `mode` (`direct` or
    `gateway`), score every rollout and compute CFRR rewards (alpha, eps, beta) per
    group. `openai` needs `base_url` and `model` (any OpenAI-compatible endpoint;
    `action_mode` `json-action` for models without tool calls; `max_steps` caps each
    task's step budget, `max_tokens` each reply). Rerunning with the same `run_id`
    resumes."""
    logger = stage_logger()
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    if mode not in ("direct", "gateway"):
        raise ValueError(f"mode must be 'direct' or 'gateway', not {mode!r}")
    if policy == "openai" and not (base_url and model):
        raise ValueError("the openai policy needs --base-url and --model")
    if group_size < 1 or concurrency < 1 or tasks_per_shard < 1:
        raise ValueError("group_size, concurrency and tasks_per_shard must be at least 1")
    if skip < 0:
        raise ValueError(f"skip must be 0 or more, not {skip}")
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    _, rows = run_query(store, "select task_id from tasks where run_id = $run and verified "
                               "order by task_id", {"run": run_id})
    ids = [row[0] for row in rows][skip:][:tasks]
    if not ids:
        raise NothingToRollOut(f"run {run_id!r} has no verified tasks (after skipping {skip}): "
                               f"run `compoworld compose --run-id {run_id}`")
    logger.info("rollout %s: %s x %d on %d tasks (%s)", run_id, policy, group_size, len(ids),
                mode)
    # Floats as floats: a flow run coerces `60` to `60.0`, a plain call does not, and the
    # parameters are hashed as JSON.
    params = {"policy": policy, "mode": mode, "group_size": group_size, "seed": seed,
              "base_url": base_url, "model": model, "action_mode": action_mode,
              "concurrency": concurrency, "timeout": float(timeout), "max_tokens": max_tokens,
              "max_steps": max_steps,
              "cfrr": {"alpha": float(alpha), "eps": float(eps), "beta": float(beta)},
              "compose": stage_digest(store, run_id, "compose")}
    stage = f"rollout-{policy}-{mode}"
    if policy == "openai":  # rollouts of other models or action modes are kept beside
        stage = f"rollout-openai-{slugify(model or '')}-{action_mode}-{mode}"
    shards = plan_shards(run_id=run_id, stage=stage, items=ids,
                         shard_size=tasks_per_shard, params=params,
                         work="compoworld.rollout.stage:rollout_shard")
    return {"run_id": run_id, "tasks": len(ids)} | run_stage(
        shards, home=str(store.home), dask_address=dask_address)

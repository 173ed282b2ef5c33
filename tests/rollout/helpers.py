"""Running one rollout or export shard of run `train` straight through `execute_shard`
(real Parquet, no Prefect), so a test can time one attempt and read what it recorded."""

from __future__ import annotations

import time
from typing import Any

from compoworld.shards import plan_shards
from storage.stage import execute_shard
from storage.store import Store

RUN = "train"
CFRR = {"alpha": 1.0, "eps": 0.05, "beta": 0.5}


def task_ids(store: Store, count: int) -> list[str]:
    """The first `count` verified tasks of the run, by id."""
    rows = store.read("tasks", RUN, columns=["task_id", "verified"])
    return sorted(r["task_id"] for r in rows if r["verified"])[:count]


def rollout_params(policy: str, **overrides: Any) -> dict[str, Any]:
    """Rollout stage parameters as rollout_flow's defaults set them, with `overrides`."""
    return {"policy": policy, "mode": "gateway", "group_size": 8, "seed": 0,
            "base_url": None, "model": None, "action_mode": "json-action",
            "concurrency": 8, "timeout": 60.0, "max_tokens": 64, "max_steps": None,
            "cfrr": CFRR} | overrides


def run_shard(store: Store, stage: str, work: str, items: list[str],
              params: dict[str, Any]) -> tuple[dict[str, Any] | Exception, float]:
    """Run the one shard of `items` once: its summary (or the error it raised) and the
    wall seconds it took."""
    [shard] = plan_shards(run_id=RUN, stage=stage, items=items, shard_size=len(items),
                          params=params, work=work)
    started = time.perf_counter()
    try:
        outcome: dict[str, Any] | Exception = execute_shard(shard, str(store.home))
    except Exception as error:  # noqa: BLE001 - the test asserts on what it was
        outcome = error
    return outcome, time.perf_counter() - started


def stage_run(store: Store, stage: str) -> dict[str, Any]:
    """The manifest row of the stage's one shard."""
    return store.manifest(RUN, stage)[0]

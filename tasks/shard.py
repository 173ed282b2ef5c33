"""The one generic Prefect task: run one shard of any stage (body: one storage call)."""

from __future__ import annotations

from typing import Any

from prefect import task
from prefect.cache_policies import NONE

from compoworld.shards import Shard
from storage.stage import execute_shard


@task(
    name="run-shard",
    task_run_name="{shard.stage}-{shard.index:05d}",
    retries=2,
    retry_delay_seconds=[1, 5],
    cache_policy=NONE,  # completion lives in the stage_runs manifest, not Prefect's cache
)
def run_shard(shard: Shard, home: str) -> dict[str, Any]:
    """Run `shard` and write its rows under `home`; retried on transient failures."""
    return execute_shard(shard, home)

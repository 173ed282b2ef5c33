"""export_flow: the SFT trajectories and the RL task set of a run, as tables and JSONL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import flow

from compoworld.rollout.export import export_items, write_jsonl
from compoworld.shards import plan_shards
from flows.names import resolved_run_id, run_name
from flows.shards import run_stage, stage_logger
from storage.queries import stage_digest
from storage.store import Store

TABLES = {"sft": "sft", "rl": "rl_tasks"}


@flow(name="export", flow_run_name=run_name("export", "kind"))
def export_flow(
    run_id: str | None = None,
    kind: str = "sft",
    out: str | None = None,
    min_difficulty: int = 1,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """Export `sft` (rollouts that passed every criterion) or `rl` (verified tasks with
    rubrics) into their table, and as JSONL to `out` (default
    `<home>/exports/<run_id>/<kind>.jsonl`); an `rl` export keeps only the tasks of
    difficulty `min_difficulty` (1-5) or more."""
    if kind not in TABLES:
        raise ValueError(f"kind must be 'sft' or 'rl', not {kind!r}")
    logger = stage_logger()
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    upstream = {stage: stage_digest(store, run_id, stage)
                for stage in ("compose", *sorted(_rollout_stages(store, run_id)))}
    items = export_items(store, run_id, kind)
    if not items:
        raise ValueError(f"run {run_id!r} has no rollouts to export: run `compoworld rollout "
                         f"--run-id {run_id}` first")
    params = upstream | ({"min_difficulty": min_difficulty} if min_difficulty > 1 else {})
    shards = plan_shards(run_id=run_id, stage=f"export-{kind}", items=items, shard_size=1,
                         params=params, work="compoworld.rollout.export:export_shard")
    summary = run_stage(shards, home=str(store.home), dask_address=dask_address)
    path = Path(out) if out else store.home / "exports" / run_id / f"{kind}.jsonl"
    lines = write_jsonl(store, run_id, TABLES[kind], path)
    logger.info("export %s %s: %d lines in %s", run_id, kind, lines, path)
    result = {"run_id": run_id, "kind": kind, "path": str(path), "lines": lines} | summary
    if kind == "sft":  # passing rollouts left out for ending without a final answer
        result["dropped"] = _passing_rollouts(store, run_id) - lines
    return result


def _rollout_stages(store: Store, run_id: str) -> set[str]:
    # The manifest rows, not a glob of its folder: a stray file must never count as a stage.
    return {row["stage"] for _, row in store.manifest_paths(run_id)
            if row["stage"].startswith("rollout-")}


def _passing_rollouts(store: Store, run_id: str) -> int:
    return len(store.read("rollouts", run_id, columns=["task_id"],
                          equal={"score": 1.0, "status": "ok"}))

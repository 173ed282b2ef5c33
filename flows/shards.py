"""Fan a stage's shards out over Dask and show progress: the plumbing every stage flow uses.

`run_stage` skips the shards the manifest already records, sends the rest through
`shards_flow` on a `DaskTaskRunner` (a LocalCluster sized to the machine, or the cluster
at `dask_address`), and refreshes the DuckDB catalog whatever happens. The subflow waits
for every shard before it reports failures, so one bad shard never loses the others' work.
"""

from __future__ import annotations

import time
from typing import Any

from prefect import flow, get_run_logger
from prefect.client.orchestration import get_client
from prefect.futures import as_completed
from prefect_dask import DaskTaskRunner
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from compoworld.settings import worker_count
from compoworld.shards import Shard
from storage.catalog import refresh_catalog
from storage.store import Store
from tasks.shard import run_shard


class StageFailed(RuntimeError):
    """Some shards of a stage failed after their retries; the others are recorded."""


def make_task_runner(dask_address: str | None = None) -> DaskTaskRunner:
    """A DaskTaskRunner on the cluster at `dask_address`, else a LocalCluster of processes.

    The local workers are pointed at the API this flow run talks to. Without that, each
    worker process of an ephemeral run starts a temporary Prefect server of its own
    (~15 s each, and task runs recorded away from their flow run).
    """
    if dask_address:
        return DaskTaskRunner(address=dask_address)
    api_url = get_client(sync_client=True).api_url
    return DaskTaskRunner(
        cluster_kwargs={
            "n_workers": worker_count(),
            "threads_per_worker": 1,
            "processes": True,
            "env": {"PREFECT_API_URL": str(api_url).rstrip("/")},
        }
    )


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rows]} rows"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    )


@flow(name="shards", flow_run_name="{stage}-shards", log_prints=True)
def shards_flow(stage: str, shards: list[Shard], home: str) -> list[dict[str, Any]]:
    """Run `shards` in parallel; raise StageFailed after all finished if any failed."""
    logger = get_run_logger()
    futures = [run_shard.submit(shard, home) for shard in shards]
    results: list[dict[str, Any]] = []
    failures: list[str] = []
    started = time.perf_counter()
    with _progress() as bar:
        task_id = bar.add_task(stage, total=len(futures), rows=0)
        for future in as_completed(futures):
            outcome = future.result(raise_on_failure=False)
            if future.state.is_completed():
                results.append(outcome)
            else:
                failures.append(f"{future.task_run_id}: {outcome}")
            rows = sum(result["rows"] for result in results)
            bar.update(task_id, advance=1, rows=rows)
            done = len(results) + len(failures)
            if done == len(futures) or done % max(1, len(futures) // 10) == 0:
                elapsed = time.perf_counter() - started
                logger.info(
                    "%s: %d/%d shards, %d rows, %.1f items/s",
                    stage, done, len(futures), rows,
                    sum(result["items"] for result in results) / max(elapsed, 1e-9),
                )
    if failures:
        raise StageFailed(f"{stage}: {len(failures)} of {len(shards)} shards failed: {failures[0]}")
    return results


def run_stage(
    shards: list[Shard], *, home: str, dask_address: str | None = None
) -> dict[str, Any]:
    """Run the unfinished shards of a plan; returns counts of the whole stage."""
    logger = get_run_logger()
    store = Store.open(home)
    stage = shards[0].stage if shards else "empty"
    pending = store.pending(shards)
    logger.info(
        "%s: %d shards planned, %d already done, %d to run",
        stage, len(shards), len(shards) - len(pending), len(pending),
    )
    started = time.perf_counter()
    try:
        if pending:
            shards_flow.with_options(task_runner=make_task_runner(dask_address))(
                stage=stage, shards=pending, home=str(store.home)
            )
    finally:
        refresh_catalog(store)
    return {
        "stage": stage,
        "shards": len(shards),
        "skipped": len(shards) - len(pending),
        "ran": len(pending),
        "seconds": round(time.perf_counter() - started, 2),
    }

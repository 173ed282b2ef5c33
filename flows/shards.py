"""Fan a stage's shards out over Dask and show progress: the plumbing every stage flow uses.

`run_stage` skips the shards the manifest already records, sends the rest through
`shards_flow` on a `DaskTaskRunner` (a LocalCluster sized to the machine, or the cluster
at `dask_address`), and refreshes the DuckDB catalog whatever happens. The subflow waits
for every shard before it reports failures, so one bad shard never loses the others' work.

Called outside any Prefect flow run (a stage flow's `.fn`, as bench/factory.py does for its
baseline), `run_stage` runs the same shards in a plain process pool of the same size: the
same work without Prefect or Dask, so their overhead can be measured side by side.
"""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import as_completed as pool_completed
from contextlib import contextmanager, nullcontext
from typing import Any

from prefect import flow, get_run_logger
from prefect.client.orchestration import get_client
from prefect.context import FlowRunContext
from prefect.futures import as_completed
from prefect_dask import DaskTaskRunner
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from compoworld.settings import worker_count
from compoworld.shards import Shard
from flows.retries import crash_abandoned_subflows
from storage.catalog import refresh_catalog
from storage.stage import execute_shard
from storage.store import Store
from tasks.shard import run_shard


class StageFailed(RuntimeError):
    """Some shards of a stage failed after their retries; the others are recorded."""


def stage_logger() -> logging.Logger | logging.LoggerAdapter:
    """The flow run's logger (its lines show in the UI), or a plain one outside Prefect."""
    if FlowRunContext.get() is None:
        return logging.getLogger("compoworld")
    return get_run_logger()


def cluster_kwargs() -> dict[str, Any]:
    """LocalCluster settings: one single-threaded worker process per core, pointed at the API
    this flow run talks to. Without that, each worker process of an ephemeral run starts a
    temporary Prefect server of its own (~15 s each, and task runs recorded away from their
    flow run)."""
    api_url = get_client(sync_client=True).api_url
    return {
        "n_workers": worker_count(),
        "threads_per_worker": 1,
        "processes": True,
        "dashboard_address": ":0",  # any free port (logged): several clusters may run at once
        "env": {"PREFECT_API_URL": str(api_url).rstrip("/")},
    }


def make_task_runner(dask_address: str | None = None) -> DaskTaskRunner:
    """A DaskTaskRunner on the cluster at `dask_address`, else a new LocalCluster."""
    if dask_address:
        return DaskTaskRunner(address=dask_address)
    return DaskTaskRunner(cluster_kwargs=cluster_kwargs())


@contextmanager
def shared_cluster(dask_address: str | None = None) -> Iterator[str]:
    """The address of a cluster that several stages share: `dask_address` itself, else a
    LocalCluster started here for the block (workers start once, and keep their imported
    code and mounted services from one stage to the next)."""
    if dask_address:
        yield dask_address
        return
    from distributed import LocalCluster

    with LocalCluster(**cluster_kwargs()) as cluster:
        yield cluster.scheduler_address


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


def track(stage: str, outcomes: Iterator[tuple[bool, Any]], total: int) -> list[dict[str, Any]]:
    """Consume (succeeded, result or error) pairs as shards finish: a progress bar on the
    terminal, counts and rates in the log; raise StageFailed at the end if any failed."""
    logger = stage_logger()
    results: list[dict[str, Any]] = []
    failures: list[str] = []
    started = time.perf_counter()
    with _progress() as bar:
        task_id = bar.add_task(stage, total=total, rows=0)
        for succeeded, outcome in outcomes:
            if succeeded:
                results.append(outcome)
            else:
                failures.append(str(outcome))
            rows = sum(result["rows"] for result in results)
            bar.update(task_id, advance=1, rows=rows)
            done = len(results) + len(failures)
            if done == total or done % max(1, total // 10) == 0:
                elapsed = time.perf_counter() - started
                logger.info(
                    "%s: %d/%d shards, %d rows, %.1f items/s",
                    stage, done, total, rows,
                    sum(result["items"] for result in results) / max(elapsed, 1e-9),
                )
    if failures:
        raise StageFailed(f"{stage}: {len(failures)} of {total} shards failed: {failures[0]}")
    return results


# Never persisted (run_stage reads the store, not this result): on a retry Prefect may match
# this call to an earlier attempt's finished call of another stage (flows/retries.py), and
# reuses a finished run's result only when one was persisted; without one it runs anew.
@flow(name="shards", flow_run_name="{stage}-shards", log_prints=True, persist_result=False)
def shards_flow(stage: str, shards: list[Shard], home: str) -> list[dict[str, Any]]:
    """Run `shards` in parallel; raise StageFailed after all finished if any failed."""
    futures = [run_shard.submit(shard, home) for shard in shards]

    def outcomes() -> Iterator[tuple[bool, Any]]:
        for future in as_completed(futures):
            outcome = future.result(raise_on_failure=False)
            ok = future.state.is_completed()
            yield ok, outcome if ok else f"{future.task_run_id}: {outcome}"

    return track(stage, outcomes(), len(futures))


_SHARED_POOL: list[ProcessPoolExecutor] = []  # the pool of an open `shared_pool` block


def _new_pool() -> ProcessPoolExecutor:
    context = multiprocessing.get_context("spawn")  # like Dask's workers: fresh interpreters
    return ProcessPoolExecutor(worker_count(), mp_context=context)


@contextmanager
def shared_pool() -> Iterator[None]:
    """Outside Prefect, the stages run in the block share one process pool (as the stages of
    a regenerate run share one cluster): workers start once and keep what they loaded."""
    with _new_pool() as pool:
        _SHARED_POOL.append(pool)
        try:
            yield
        finally:
            _SHARED_POOL.remove(pool)


def run_in_pool(stage: str, shards: list[Shard], home: str) -> list[dict[str, Any]]:
    """The same shards in a plain process pool of the cluster's size, without Prefect/Dask."""
    with nullcontext(_SHARED_POOL[-1]) if _SHARED_POOL else _new_pool() as pool:
        futures = [pool.submit(execute_shard, shard, home) for shard in shards]

        def outcomes() -> Iterator[tuple[bool, Any]]:
            for future in pool_completed(futures):
                error = future.exception()
                yield error is None, future.result() if error is None else repr(error)

        return track(stage, outcomes(), len(futures))


# Prefect refuses a flow run whose parameters serialize to 512 KiB or more. A compose shard
# carries every start tool of the library (shards of different worlds all walk from all of
# them): the default 5,000 tasks, 125 shards over 290 start tools, sent 1.2 MB and the stage
# failed before any shard ran. The shards go to the subflow in batches under this budget.
PARAMETER_BUDGET = 400_000


def parameter_batches(shards: list[Shard], budget: int = PARAMETER_BUDGET) -> list[list[Shard]]:
    """`shards` in order, split into runs whose JSON stays under `budget` bytes (a shard
    over it alone goes alone)."""
    batches: list[list[Shard]] = []
    size = 0
    for shard in shards:
        weight = len(shard.model_dump_json()) + 2
        if not batches or size + weight > budget:
            batches.append([])
            size = 0
        batches[-1].append(shard)
        size += weight
    return batches


def run_stage(
    shards: list[Shard], *, home: str, dask_address: str | None = None,
    drop_beyond: bool = True,
) -> dict[str, Any]:
    """Run the unfinished shards of a plan; returns counts of the whole stage. Shards of an
    older, larger plan are dropped, unless `drop_beyond` is false (`Store.pending`)."""
    logger = stage_logger()
    store = Store.open(home)
    stage = shards[0].stage if shards else "empty"
    # Before this attempt's subflow, whether or not it has work: else a subflow whose
    # process died stays Running under this retried run (see flows/retries.py).
    if abandoned := crash_abandoned_subflows():
        logger.info("%s: marked Crashed the runs a dead attempt left: %s", stage,
                    ", ".join(abandoned))
    pending = store.pending(shards, drop_beyond=drop_beyond)
    logger.info(
        "%s: %d shards planned, %d already done, %d to run",
        stage, len(shards), len(shards) - len(pending), len(pending),
    )
    started = time.perf_counter()
    try:
        if pending and FlowRunContext.get() is None:
            run_in_pool(stage, pending, str(store.home))
        elif pending:
            batches = parameter_batches(pending)
            failed: list[StageFailed] = []
            # several batches share one cluster: its workers start once, not per batch
            with shared_cluster(dask_address) if len(batches) > 1 \
                    else nullcontext(dask_address) as address:
                for number, batch in enumerate(batches, 1):
                    if len(batches) > 1:
                        logger.info("%s: batch %d of %d (%d shards)", stage, number,
                                    len(batches), len(batch))
                    try:
                        shards_flow.with_options(task_runner=make_task_runner(address))(
                            stage=stage, shards=batch, home=str(store.home)
                        )
                    except StageFailed as error:  # (the next batches still run)
                        failed.append(error)
            if failed:
                raise StageFailed("; ".join(str(error) for error in failed))
    finally:
        refresh_catalog(store)
    return {
        "stage": stage,
        "shards": len(shards),
        "skipped": len(shards) - len(pending),
        "ran": len(pending),
        "seconds": round(time.perf_counter() - started, 2),
    }

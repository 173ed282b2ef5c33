"""Run one shard of a stage: call its work function, write its tables, record it.

This is the body of the generic Prefect task (tasks/shard.py); it knows nothing of
Prefect. The work function is named by `module:function` so that the shard descriptor
stays a small JSON-able message that any Dask worker can run.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from compoworld.shards import Shard
from storage.store import Store

# A work function gets its shard and the store (to read an earlier stage's rows) and
# returns rows per table; it never writes to the store itself.
Work = Callable[[Shard, Store], dict[str, list[dict[str, Any]]]]


def resolve_work(work: str) -> Work:
    """Import the `module:function` a shard names."""
    module_name, _, function_name = work.partition(":")
    if not module_name or not function_name:
        raise ValueError(f"work must be 'module:function', got {work!r}")
    return getattr(importlib.import_module(module_name), function_name)


def execute_shard(shard: Shard, home: str) -> dict[str, Any]:
    """Run `shard` and store its rows; returns a small summary for progress reports.

    A failure is recorded in the manifest (status `failed`, with the error) and then
    raised again, so that Prefect can retry and the stage shows as failed until it does.
    """
    store = Store.open(home)
    started = time.perf_counter()
    try:
        tables = resolve_work(shard.work)(shard, store)
        rows = store.write_shard(shard, tables)
    except Exception as error:
        store.record(
            shard,
            status="failed",
            rows=0,
            seconds=time.perf_counter() - started,
            error=f"{type(error).__name__}: {error}"[:2000],
        )
        raise
    seconds = time.perf_counter() - started
    store.record(shard, status="done", rows=rows, seconds=seconds)
    return {
        "stage": shard.stage,
        "shard": shard.index,
        "items": len(shard.items),
        "rows": rows,
        "tables": {name: len(records) for name, records in tables.items()},
        "seconds": seconds,
    }

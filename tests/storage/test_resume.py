"""A shard is done only while the files its manifest row names are there and whole, and
reads list exactly those files: a deleted, truncated or stray file never goes unnoticed."""

from __future__ import annotations

import shutil

import pyarrow as pa
import pyarrow.parquet as pq

from compoworld.shards import Shard, plan_shards
from flows.shards import run_stage
from storage.catalog import run_query
from storage.schemas import SCHEMAS
from storage.stage import execute_shard
from storage.store import Store
from tests.storage.test_catalog import write_old_manifest_row
from tests.storage.test_store import plan


def two_table_work(shard: Shard, store: Store) -> dict[str, list[dict]]:
    """Work function for tests: a spec_errors row and a tool_specs row per item."""
    return {
        "spec_errors": [{"document": i, "source": "s", "reason": "r"} for i in shard.items],
        "tool_specs": [{"service": "svc", "name": i, "n_params": 0} for i in shard.items],
    }


def run_all(store: Store, shards: list[Shard]) -> None:
    for shard in store.pending(shards):
        execute_shard(shard, str(store.home))


def documents(store: Store) -> list[str]:
    return sorted(row["document"] for row in store.read("spec_errors", "r1"))


def test_a_done_row_names_each_file_with_its_rows_and_size(store: Store):
    [shard] = plan_shards(run_id="r1", stage="demo", items=["a", "b", "c"], shard_size=3,
                          params={}, work="tests.storage.test_resume:two_table_work")
    execute_shard(shard, str(store.home))
    files = store.manifest("r1", "demo")[0]["files"]
    assert sorted(files) == ["spec_errors", "tool_specs"]
    path = store.partition("tool_specs", "r1") / "demo-00000.parquet"
    assert files["tool_specs"] == {"file": path.name, "rows": 3, "bytes": path.stat().st_size}


def test_a_deleted_data_file_makes_its_shard_pending_and_the_rerun_restores_it(store: Store):
    shards = plan([f"d{i}" for i in range(6)])
    run_all(store, shards)
    (store.partition("spec_errors", "r1") / "demo-00001.parquet").unlink()
    assert store.pending(shards) == [shards[1]]
    run_all(store, shards)
    assert documents(store) == [f"d{i}" for i in range(6)]
    assert store.pending(shards) == []


def test_run_stage_reruns_a_done_shard_whose_file_was_deleted(store: Store):
    shards = plan([f"d{i}" for i in range(4)])
    run_stage(shards, home=str(store.home))
    (store.partition("spec_errors", "r1") / "demo-00000.parquet").unlink()
    summary = run_stage(shards, home=str(store.home))  # what every stage flow calls
    assert (summary["skipped"], summary["ran"]) == (1, 1)
    assert documents(store) == [f"d{i}" for i in range(4)]
    assert run_query(store, "select count(*) from spec_errors")[1] == [(4,)]


def test_a_truncated_or_unreadable_file_makes_its_shard_pending(store: Store):
    shards = plan([f"d{i}" for i in range(6)])
    run_all(store, shards)
    truncated = store.partition("spec_errors", "r1") / "demo-00000.parquet"
    truncated.write_bytes(truncated.read_bytes()[:-20])
    garbage = store.partition("spec_errors", "r1") / "demo-00002.parquet"
    garbage.write_bytes(b"not parquet at all")
    assert store.pending(shards) == [shards[0], shards[2]]
    run_all(store, shards)
    assert documents(store) == [f"d{i}" for i in range(6)]


def test_a_file_replaced_by_one_with_fewer_rows_makes_its_shard_pending(store: Store):
    shards = plan(["a", "b", "c", "d"])
    run_all(store, shards)
    path = store.partition("spec_errors", "r1") / "demo-00001.parquet"
    pq.write_table(pq.read_table(path).slice(0, 1), path)  # a valid footer, one row short
    assert store.pending(shards) == [shards[1]]


def test_old_manifest_rows_without_files_are_checked_by_their_row_count(store: Store):
    [shard] = plan(["a", "b"], size=2)
    store.write_shard(shard, {"spec_errors": [
        {"document": d, "source": "s", "reason": "r"} for d in ("a", "b")]})
    write_old_manifest_row(store, "r1", "demo", 0, rows=2)
    done = shard.model_copy(update={"input_hash": "h"})  # the old row's hash
    assert store.pending([done]) == []
    assert documents(store) == ["a", "b"]
    (store.partition("spec_errors", "r1") / "demo-00000.parquet").unlink()
    assert store.pending([done]) == [done]


def test_files_no_manifest_row_names_are_never_read(store: Store):
    shards = plan(["a", "b", "c"])
    run_all(store, shards)
    folder = store.partition("spec_errors", "r1")
    stray = pa.Table.from_pylist([{"document": "x", "source": "s", "reason": "r"}],
                                 schema=SCHEMAS["spec_errors"])
    pq.write_table(stray, folder / "copied.parquet")  # what `COPY ... TO` could leave
    shutil.copy(folder / "demo-00000.parquet", folder / "demo-00007.parquet")  # no row
    unrecorded_run = store.partition("spec_errors", "r9")
    unrecorded_run.mkdir()
    pq.write_table(stray, unrecorded_run / "demo-00000.parquet")  # a run with no manifest
    assert documents(store) == ["a", "b", "c"]
    assert store.files("spec_errors", "r1") == ["demo-00000", "demo-00001"]
    assert store.read("spec_errors", "r9") == []
    _, rows = run_query(store, "select count(*) from spec_errors")
    assert rows == [(3,)]
    _, rows = run_query(store, "select count(*) from stage_runs")
    assert rows == [(2,)]


def test_a_stray_file_in_the_manifest_folder_is_no_manifest_row(store: Store):
    shards = plan(["a", "b", "c"])
    run_all(store, shards)
    folder = store.partition("stage_runs", "r1")
    shutil.copy(folder / "demo-00000.parquet", folder / "demo-00005.parquet")  # says shard 0
    (folder / "copied.parquet").write_bytes((folder / "demo-00001.parquet").read_bytes())
    assert sorted(store.manifest("r1", "demo")) == [0, 1]
    _, rows = run_query(store, "select count(*) from stage_runs")
    assert rows == [(2,)]

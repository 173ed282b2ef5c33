"""The shard plumbing under real Prefect and a real Dask LocalCluster."""

from __future__ import annotations

import pytest
from prefect import flow

from compoworld.shards import plan_shards
from flows.shards import StageFailed, run_stage
from storage.catalog import run_query
from storage.store import Store

pytestmark = pytest.mark.slow


def demo_plan(items: list[str], work: str = "echo_work"):
    return plan_shards(
        run_id="r1",
        stage="demo",
        items=items,
        shard_size=2,
        params={"tag": "t"},
        work=f"tests.storage.test_store:{work}",
    )


@flow
def demo_flow(items: list[str], home: str, work: str = "echo_work") -> dict:
    return run_stage(demo_plan(items, work), home=home)


def test_run_stage_runs_shards_on_dask_and_then_skips_them(prefect_harness, store: Store):
    items = [f"d{i}" for i in range(7)]
    first = demo_flow(items, str(store.home))
    assert (first["shards"], first["ran"], first["skipped"]) == (4, 4, 0)
    _, rows = run_query(store, "select count(*), count(distinct document) from spec_errors")
    assert rows == [(7, 7)]
    second = demo_flow(items, str(store.home))
    assert (second["ran"], second["skipped"]) == (0, 4)
    assert run_query(store, "select count(*) from spec_errors")[1] == [(7,)]


def test_failed_shards_fail_the_stage_but_are_recorded(prefect_harness, store: Store):
    with pytest.raises(StageFailed, match="2 of 2 shards failed"):
        demo_flow(["a", "b", "c"], str(store.home), work="failing_work")
    _, rows = run_query(store, "select status, count(*) from stage_runs group by status")
    assert rows == [("failed", 2)]


def _long_items(count: int) -> list[str]:
    return [f"{i}-" + "x" * 40_000 for i in range(count)]


@flow
def long_flow(count: int, home: str, work: str = "echo_work") -> dict:  # (small parameters:
    return run_stage(demo_plan(_long_items(count), work), home=home)  # its shards are not)


def test_a_plan_over_prefect_s_parameter_limit_runs_in_batches(prefect_harness, store: Store):
    """Prefect refuses a flow run whose parameters reach 512 KiB: the default compose
    (125 shards, each carrying the library's 290 start tools) failed with a 422 before any
    shard ran. Eight shards of 80 KB each go in batches, and every one runs."""
    from flows.shards import PARAMETER_BUDGET, parameter_batches

    plan = demo_plan(_long_items(16))
    assert sum(len(s.model_dump_json()) for s in plan) > 524_288
    batches = parameter_batches(plan)
    assert [s for batch in batches for s in batch] == plan and len(batches) > 1
    assert all(sum(len(s.model_dump_json()) for s in b) < PARAMETER_BUDGET for b in batches)
    result = long_flow(16, str(store.home))
    assert (result["shards"], result["ran"]) == (8, 8)
    assert run_query(store, "select count(distinct document) from spec_errors")[1] == [(16,)]


def test_a_failed_batch_does_not_keep_the_next_from_running(prefect_harness, store: Store):
    """As in one subflow, every shard runs before the stage reports its failures."""
    with pytest.raises(StageFailed, match="shards failed"):
        long_flow(16, str(store.home), work="failing_work")
    _, rows = run_query(store, "select status, count(*) from stage_runs group by status")
    assert rows == [("failed", 8)]

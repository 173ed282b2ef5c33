"""regenerate_flow end to end on the built-in services, and its resume after a SIGKILL."""

from __future__ import annotations

import os
import time

import pytest

from flows.regenerate import regenerate_flow
from storage.catalog import run_query
from storage.stats import table_digests
from storage.store import Store
from tests.flows.helpers import kill_after_shards, start_cli

pytestmark = pytest.mark.slow

# Free walks: the ten built-in services hold too few distinct workflow chains for 120 tasks.
SMALL = ["--source", "builtin", "--services", "all", "--tasks", "120", "--tasks-per-shard",
         "8", "--rl-tasks", "12", "--rl-group-size", "4", "--walks", "free"]


def test_regenerate_runs_every_stage_as_a_subflow(prefect_harness, store: Store):
    from prefect import get_client

    summary = regenerate_flow(run_id="r", source="builtin", services=None, tasks=30,
                              rl_tasks=6, rl_group_size=4, walks="free", home=str(store.home))
    counts = summary["counts"]
    assert counts["services"] == 10 and counts["tools"] > 50
    assert counts["tasks"] == 30 and counts["rl_tasks"] == 30
    assert counts["rollouts"] == 30 + 6 * 4  # reference x1 on all, noisy x4 on 6
    assert 30 <= counts["sft_rows"] < counts["rollouts"]  # every reference rollout passes
    assert list(summary["seconds"]) == ["ingest", "synthesize", "compose", "rollout reference",
                                        "rollout noisy", "export sft", "export rl"]
    _, rows = run_query(store, "select stage, count(*) from stage_runs where run_id = 'r' "
                               "and status = 'done' group by 1 order by 1")
    assert [stage for stage, _ in rows] == [
        "compose", "export-rl", "export-sft", "graph", "ingest", "rollout-noisy-gateway",
        "rollout-reference-gateway", "synthesize"]

    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(limit=200)
        artifacts = client.read_artifacts()
    parent = next(run for run in runs if run.name == "regenerate-r")
    children = {run.name for run in runs if run.parent_task_run_id is not None}
    assert parent.state.is_completed()
    [artifact] = [a for a in artifacts if a.flow_run_id == parent.id]
    assert artifact.key == "regenerate-summary" and "| tasks | 30 |" in artifact.data
    assert {"ingest-r", "synthesize-r", "compose-r", "rollout-r-reference", "rollout-r-noisy",
            "export-r-sft", "export-r-rl"} <= children



def test_sigkill_during_compose_then_rerun_gives_the_uninterrupted_tables(
    prefect_harness, store: Store
):
    from prefect.settings import PREFECT_API_URL

    env = os.environ | {"COMPOWORLD_HOME": str(store.home),
                        "PREFECT_API_URL": PREFECT_API_URL.value()}
    manifest = store.partition("stage_runs", "killed")

    process = start_cli("regenerate", [*SMALL, "--run-id", "killed"], env)
    kill_after_shards(process, manifest, "compose", 2)
    done_before = len(store.manifest("killed", "compose"))
    assert 2 <= done_before < 15, "the kill must land part way through the 15 compose shards"
    assert not list(manifest.glob("rollout-*.parquet"))

    resumed = start_cli("regenerate", [*SMALL, "--run-id", "killed"], env)
    output, _ = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, output
    assert f"{done_before} already done" in output

    clean = start_cli("regenerate", [*SMALL, "--run-id", "clean"], env)
    output, _ = clean.communicate(timeout=600)
    assert clean.returncode == 0, output

    killed, uninterrupted = table_digests(store, "killed"), table_digests(store, "clean")
    assert killed == uninterrupted
    assert {"tasks", "rollouts", "rewards", "sft", "rl_tasks", "stage_runs"} <= set(killed)
    assert killed["tasks"][0] >= 120


def test_table_digests_see_a_changed_row(store: Store):
    shard_rows = {"spec_errors": [{"document": "a.json", "reason": "bad", "source": "s"}]}
    _write(store, "one", shard_rows)
    _write(store, "two", shard_rows)
    assert table_digests(store, "one") == table_digests(store, "two")
    _write(store, "two", {"spec_errors": [{"document": "a.json", "reason": "worse",
                                           "source": "s"}]})
    assert table_digests(store, "one") != table_digests(store, "two")


def _write(store: Store, run_id: str, tables: dict) -> None:
    from compoworld.shards import plan_shards
    from storage.catalog import refresh_catalog

    shard = plan_shards(run_id=run_id, stage="demo", items=["x"], shard_size=1, params={},
                        work="m:f")[0]
    store.write_shard(shard, tables)
    store.record(shard, status="done", rows=1, seconds=time.time() % 1)  # timing differs
    refresh_catalog(store)

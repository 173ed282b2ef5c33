"""A crashed compose run retried (what the UI's Retry does after a worker marks it Crashed):
the retry runs the unfinished shards, and no subflow of the crashed attempt stays Running.

Reported: a crashed run's `compose-shards` stayed Running after its retry. The kill lands in
compose's second `shards` call; on the retry the `graph` stage has nothing left to run, so
the retry's `compose-shards` call took the first call's key and a new run, and the crashed
attempt's one stayed Running (flows/retries.py). test_deployments.py has the same through a
real worker and a regenerate deployment run."""

from __future__ import annotations

import os

import pytest

from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.store import Store
from tests.flows.helpers import descendants, kill_after_shards, start_cli

pytestmark = pytest.mark.slow


def test_a_retried_crashed_compose_leaves_no_subflow_running(prefect_harness, store: Store):
    from prefect import get_client
    from prefect.flow_engine import run_flow
    from prefect.settings import PREFECT_API_URL
    from prefect.states import Crashed, Scheduled

    from flows.compose import compose_flow

    home = str(store.home)
    ingest_flow(source="builtin", run_id="crash", home=home)
    synthesize_flow(run_id="crash", services=None, shard_size=5, home=home)
    env = os.environ | {"COMPOWORLD_HOME": home, "PREFECT_API_URL": PREFECT_API_URL.value(),
                        "COMPOWORLD_WORKERS": "1"}
    process = start_cli("compose", ["--run-id", "crash", "--tasks", "60",
                                    "--tasks-per-shard", "4", "--walks", "free"], env)
    manifest = store.partition("stage_runs", "crash")
    kill_after_shards(process, manifest, "compose", 2)
    done_before = store.manifest("crash", "compose")
    planned = next(iter(done_before.values()))["shards"]
    assert len(done_before) < planned, "the kill must land part way"

    with get_client(sync_client=True) as client:
        [run] = [r for r in client.read_flow_runs(limit=200) if r.name == "compose-crash"]
        # What the worker does when its flow run's process dies, then the UI's Retry.
        client.set_flow_run_state(run.id, Crashed(message="process died"), force=True)
        client.set_flow_run_state(run.id, Scheduled(name="AwaitingRetry"), force=True)
        state = run_flow(compose_flow, flow_run=client.read_flow_run(run.id),
                         parameters=run.parameters, return_type="state")
        assert state.is_completed(), state
        stuck = [(r.name, r.state.name) for r in descendants(client, run.id)
                 if not r.state.is_final()]
    assert stuck == []
    assert len(store.manifest("crash", "compose")) == planned
    assert all(row["status"] == "done" for row in store.manifest("crash", "compose").values())

"""A compose run whose shards fall short of its tasks is topped up with shards in fresh
worlds (`compose.stage.top_up`), past the plan's own worlds, under Prefect and Dask, and a
rerun resumes all waves."""

from __future__ import annotations

import pytest

from flows.compose import compose_flow
from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.catalog import run_query
from storage.store import Store

pytestmark = pytest.mark.slow


def test_a_short_run_is_topped_up_in_fresh_worlds_and_resumes(prefect_harness, tmp_path):
    store = Store.open(tmp_path / "home")
    home = str(store.home)
    ingest_flow(source="builtin", run_id="t", home=home)
    synthesize_flow(run_id="t", services=None, shard_size=5, home=home)
    # ten built-in services hold a few dozen workflow chains: one world cannot make 20, and
    # a plan of one world is topped up in worlds of their own (else a default run's 200
    # shards have no world below its 200 left for the last 43 of 5,000 tasks)
    done = compose_flow(run_id="t", tasks=20, tasks_per_shard=20, worlds=1, home=home)
    _, rows = run_query(store, "select shard from stage_runs where stage = 'compose' "
                               "and status = 'done' order by 1")
    count = len(rows)
    assert count > 1 and [row[0] for row in rows] == list(range(count)), rows
    assert done["shards"] == done["ran"] == count
    _, rows = run_query(store, "select count(*) filter (where verified) from tasks")
    verified = rows[0][0]
    assert verified > 0  # (a wave's shards each take the full quota: a run may pass 20)
    _, rows = run_query(store, "select distinct w.shard, t.world_seed from tasks t join walks w "
                               "using (task_id) where t.verified")
    assert len({world for _, world in rows}) == len({shard for shard, _ in rows}) == len(
        rows) > 1  # each shard in a world of its own
    again = compose_flow(run_id="t", tasks=20, tasks_per_shard=20, worlds=1, home=home)
    assert (again["shards"], again["ran"], again["skipped"]) == (count, 0, count)
    # a smaller plan for the same run (one task, which its first world makes) drops the
    # top-ups it no longer needs (one task: a shard's draws follow its quota, so a smaller
    # quota need not remake the first run's tasks of that shard)
    _, rows = run_query(store, "select count(*) from walks where shard = 0 and "
                               "outcome = 'verified'")
    first = rows[0][0]
    assert 0 < first < verified
    fewer = compose_flow(run_id="t", tasks=1, tasks_per_shard=20, worlds=1, home=home)
    assert fewer["shards"] == 1
    _, rows = run_query(store, "select shard from stage_runs where stage = 'compose'")
    assert rows == [(0,)]
    _, rows = run_query(store, "select count(distinct world_seed) from tasks")
    assert rows == [(1,)]
    # past its first shards a run of free walks walks only from the start tools that
    # verified a task; a patterned run keeps every start in every shard (its walks draw a
    # workflow, then an app: the apps that verified first would otherwise carry the run)
    for walks in ("free", "pattern"):
        wide = compose_flow(run_id="t", tasks=24, tasks_per_shard=2, worlds=200, walks=walks,
                            home=home)
        assert wide["shards"] >= 12
        _, rows = run_query(store, "select distinct start_tool from walks where shard < 10 "
                                   "and outcome = 'verified'")
        productive = {row[0] for row in rows}
        _, rows = run_query(store, "select distinct start_tool from walks where shard >= 10")
        later = {row[0] for row in rows}
        assert productive and (later <= productive) == (walks == "free"), (walks, later)
    _, rows = run_query(store, "select count(distinct start_tool) from walks where shard < 10")
    assert rows[0][0] > len(productive)  # the first shards tried every start tool


def test_a_top_up_s_seconds_add_to_the_hundredth():
    """A run topped up once printed "630.6800000000001 s": its waves' seconds, summed."""
    from flows.compose import _added

    done = {"shards": 10, "skipped": 0, "ran": 10, "seconds": 526.53, "run_id": "r"}
    more = {"shards": 1, "skipped": 0, "ran": 1, "seconds": 104.15}
    assert _added(done, more) == {"shards": 11, "skipped": 0, "ran": 11,
                                  "seconds": 630.68, "run_id": "r"}

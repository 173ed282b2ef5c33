"""A compose run whose shards fall short of its tasks is topped up with shards in fresh
worlds (`compose.stage.top_up`), under Prefect and Dask, and a rerun resumes all waves."""

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
    # ten built-in services hold a few dozen workflow chains: one world cannot make 60
    done = compose_flow(run_id="t", tasks=60, tasks_per_shard=60, worlds=3, home=home)
    _, rows = run_query(store, "select shard, shards from stage_runs where stage = 'compose' "
                               "and status = 'done' order by 1")
    assert [shard for shard, _ in rows] == [0, 1, 2], rows  # worlds 1 and 2 topped up
    assert done["shards"] == done["ran"] == 3
    _, rows = run_query(store, "select count(*) filter (where verified), count(distinct "
                               "world_seed) filter (where verified) from tasks")
    verified, worlds = rows[0]
    assert worlds == 3 and 0 < verified <= 60
    again = compose_flow(run_id="t", tasks=60, tasks_per_shard=60, worlds=3, home=home)
    assert (again["shards"], again["ran"], again["skipped"]) == (3, 0, 3)
    # a smaller plan for the same run (what its first world made) drops the top-ups it no
    # longer needs
    _, rows = run_query(store, "select count(*) from walks where shard = 0 and "
                               "outcome = 'verified'")
    first = rows[0][0]
    assert 0 < first < verified
    fewer = compose_flow(run_id="t", tasks=min(5, first), tasks_per_shard=60, worlds=3,
                         home=home)
    assert fewer["shards"] == 1
    _, rows = run_query(store, "select shard from stage_runs where stage = 'compose'")
    assert rows == [(0,)]
    _, rows = run_query(store, "select count(distinct world_seed) from tasks")
    assert rows == [(1,)]
    # past its first shards a run walks only from the start tools that verified a task
    wide = compose_flow(run_id="t", tasks=24, tasks_per_shard=2, worlds=200, home=home)
    assert wide["shards"] >= 12
    _, rows = run_query(store, "select distinct start_tool from walks where shard < 10 and "
                               "outcome = 'verified'")
    productive = {row[0] for row in rows}
    _, rows = run_query(store, "select distinct start_tool from walks where shard >= 10")
    assert productive and {row[0] for row in rows} <= productive
    _, rows = run_query(store, "select count(distinct start_tool) from walks where shard < 10")
    assert rows[0][0] > len(productive)  # the first shards tried every start tool

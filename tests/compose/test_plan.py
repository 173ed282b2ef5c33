"""How compose is split into shards: worlds, start tools and quotas."""

from __future__ import annotations

import pytest

from compoworld.compose.stage import (
    focus,
    plan_compose,
    shard_quota,
    shard_world,
    start_tools,
    top_up,
    world_shared,
)
from tests.compose.builtin_tasks import builtin_library


@pytest.fixture(scope="module")
def graph():
    return builtin_library().graph


def _plan(graph, tasks: int, per_shard: int, worlds: int):
    return plan_compose(graph, run_id="r", tasks=tasks, seed=0, tasks_per_shard=per_shard,
                        params={"worlds": worlds})


def test_shards_of_different_worlds_walk_from_every_start_tool(graph):
    starts = start_tools(graph, patterned=True)
    shards = _plan(graph, tasks=160, per_shard=40, worlds=200)
    assert len(shards) == 4
    assert all(sorted(s.items) == sorted(starts) for s in shards)
    assert sum(shard_quota(160, s.index, s.count) for s in shards) == 160
    assert [s.index for s in shards] == [0, 1, 2, 3]  # each its own world: `i % worlds`


def test_shards_of_one_world_split_the_start_tools(graph):
    starts = start_tools(graph, patterned=True)
    shards = _plan(graph, tasks=200, per_shard=50, worlds=2)
    assert len(shards) == 4
    for world in range(2):  # shards i and i + 2 share world i: no start tool in both
        mine = [set(s.items) for s in shards if s.index % 2 == world]
        assert not mine[0] & mine[1] and mine[0] | mine[1] == set(starts)
    one = _plan(graph, tasks=200, per_shard=50, worlds=1)
    assert [len(s.items) for s in one] and not set(one[0].items) & set(one[1].items)


def test_a_start_tool_is_given_up_after_its_walks_verify_nothing_for_a_while():
    from compoworld.compose.stage import STALE_AFTER, candidates, order_starts

    library = builtin_library()
    starts = order_starts(start_tools(library.graph, patterned=True), 0)
    streaks: dict[str, int] = {}
    walks = verified = 0
    for made in candidates(library, starts, seed=0, shard=0, world_seed=0, quota=10**6,
                           limit=3000, patterned=True):
        walks += 1
        assert streaks.get(made.start, 0) < STALE_AFTER, made.start  # given up by now
        streaks[made.start] = 0 if made.outcome == "verified" else \
            streaks.get(made.start, 0) + 1
        verified += made.outcome == "verified"
    assert verified > 0 and walks < 3000  # every start was spent before the limit


def test_a_shard_stops_after_a_dry_spell_and_leaves_the_rest_to_a_fresh_world(monkeypatch):
    """The last few tasks of a shard had taken 50 to 500 walks once its easy workflows had
    their share: a shard gives up after `DRY_SPELL` walks in a row that verified nothing
    (a top-up wave makes what it is short of), and never before."""
    from compoworld.compose import stage

    library = builtin_library()
    starts = stage.order_starts(start_tools(library.graph, patterned=True), 0)

    def outcomes() -> list[bool]:
        return [made.outcome == "verified" for made in stage.candidates(
            library, starts, seed=0, shard=0, world_seed=0, quota=10**6, limit=3000,
            patterned=True)]
    whole = outcomes()  # (until every start is spent)
    monkeypatch.setattr(stage, "DRY_SPELL", 5)
    cut = outcomes()
    assert len(cut) < len(whole) and cut == whole[:len(cut)]
    assert cut[-5:] == [False] * 5 and any(cut)
    assert "".join("x" if v else "." for v in cut[:-1]).find("." * 5) == -1


def test_a_run_short_of_its_tasks_is_topped_up_in_fresh_worlds(graph):
    planned = _plan(graph, tasks=160, per_shard=40, worlds=6)
    assert top_up(graph, planned, 160, tasks=160, seed=0, tasks_per_shard=40,
                  params={"worlds": 6}) == []  # nothing short
    wave = top_up(graph, planned, 131, tasks=160, seed=0, tasks_per_shard=40,
                  params={"worlds": 6})
    assert [s.index for s in wave] == [4]  # numbered on, each a world no shard walked
    first = wave[0].params["first"]
    assert [shard_quota(s.params["tasks"], s.index - first, s.count - first)
            for s in wave] == [40]  # 29 short at ~33 a shard: one shard, its full quota
    wider = top_up(graph, planned, 80, tasks=160, seed=0, tasks_per_shard=40,
                   params={"worlds": 10})
    assert [s.index for s in wider] == [4, 5, 6, 7]  # 80 short at 20 a shard
    assert {s.input_hash for s in wave}.isdisjoint(s.input_hash for s in planned)
    more = top_up(graph, planned, 20, tasks=160, seed=0, tasks_per_shard=40,
                  params={"worlds": 6})
    # 140 short at 5 a shard: 28 shards, past the plan's 6 worlds, each in a world of its own
    # (else a default run ends 43 short of 5,000 with no world below 200 left)
    assert [s.index for s in more] == list(range(4, 32))
    assert {shard_world(s) for s in more} == set(range(4, 32))
    assert not any(world_shared(s) for s in more)
    assert top_up(graph, planned + more, 160, tasks=160, seed=0, tasks_per_shard=40,
                  params={"worlds": 6}) == []


def test_later_shards_walk_only_from_the_start_tools_that_verified(graph):
    plan = _plan(graph, tasks=480, per_shard=40, worlds=200)
    rest = plan[10:]
    starts = sorted(start_tools(graph, patterned=True))[:3]
    focused = focus(rest, starts, seed=0)
    assert [s.index for s in focused] == [s.index for s in rest] == [10, 11]
    assert [s.count for s in focused] == [12, 12]
    assert all(sorted(s.items) == starts for s in focused)
    assert [shard_quota(480, s.index, s.count) for s in focused] == [40, 40]
    assert {s.input_hash for s in focused}.isdisjoint(s.input_hash for s in rest)
    assert focus(rest, [], seed=0) == rest  # nothing verified yet: every start tool


def test_a_shard_s_world_is_shared_only_when_another_shard_of_the_plan_walks_it(graph):
    assert not any(world_shared(s) for s in _plan(graph, tasks=160, per_shard=40, worlds=200))
    assert all(world_shared(s) for s in _plan(graph, tasks=200, per_shard=50, worlds=2))
    wave = top_up(graph, _plan(graph, tasks=160, per_shard=40, worlds=6), 40, tasks=160,
                  seed=0, tasks_per_shard=40, params={"worlds": 6})
    assert wave and not any(world_shared(s) for s in wave)  # top-ups walk fresh worlds


def test_a_finished_shard_leaves_neither_its_world_nor_its_graph_behind():
    """A worker runs many shards: each builds its own library, mounts services in a world
    of its own, and must not keep them once it is done (Dask paused workers at ~9.5 GiB)."""
    import gc

    from compoworld.compose import library as library_module
    from compoworld.compose.stage import candidates, order_starts, shard_world_seed
    from compoworld.graph.depgraph import DependencyGraph

    def graphs() -> int:
        gc.collect()
        return sum(type(item) is DependencyGraph for item in gc.get_objects())

    before = graphs()
    library = builtin_library()
    starts = order_starts(start_tools(library.graph, patterned=True), 0)
    world = shard_world_seed(0, 7)
    for _ in candidates(library, starts, seed=0, shard=7, world_seed=world, quota=3,
                        limit=200, patterned=True):
        pass
    assert any(key[1] == world for key in library_module._TEMPLATES)
    assert library.graph.memo  # the walk's per-graph tables live on the graph
    assert library_module.forget_world(world) > 0
    assert not any(key[1] == world for key in library_module._TEMPLATES)
    del library, starts
    assert graphs() == before  # nothing module-level holds the shard's graph


def test_a_library_no_workflow_fits_says_what_is_missing():
    """A team's own tools that begin no workflow get one true line: what they read and
    write, and what the nearest workflows lack (never "no mounted read tool", which a
    library of many reads is not)."""
    from compoworld.compose.library import ServiceLibrary
    from compoworld.services.builtin import builtin_spec

    def why(*names: str) -> str:
        library = ServiceLibrary.from_specs([builtin_spec(name) for name in names])
        with pytest.raises(ValueError) as raised:
            plan_compose(library.graph, run_id="own", tasks=10, seed=0, tasks_per_shard=5,
                         params={"walks": "pattern"})
        return str(raised.value)

    maps = why("maps")
    assert "read place and write place" in maps
    assert "lack a tool that writes event records" in maps
    sheets = why("sheets")  # (a copy of a document goes to another app)
    assert "a tool that writes document records in another app" in sheets
    assert "no mounted read tool" not in maps + sheets

"""Compose benchmark: graph build against tools, walks and verified tasks per second, Dask 2/1.

One run over the synthesized services of a stored run, three measurements side by side:
  graph   `DependencyGraph.build` + `stats()` on every other service's tools (by name) and on
          all of them (median of `--repeats`), with the ratio of times next to the ratio of
          tools (near 1:1 means linear), and the stored edge sample (`edges()`) timed apart;
  walks   the compose loop of `compose_shard` in this process (no Prefect, no Parquet
          writes): `compose_task` + `verify_task` with one `Deduper`, for `--walks`
          candidate walks in one world seed; first-touch service mounts (spec load +
          `build_service`) are timed apart, and a second pass over the same seed (warm
          templates, a fresh `Deduper`) shows the loop without them;
  dask    `compose_flow` (Prefect + Dask LocalCluster + Parquet) on fresh copies of the run
          in a temporary store, with 1 and then 2 workers, against one Prefect test server
          started (and warmed up with a one-task run) before either is timed.

    python bench/compose.py --home DIR --run-id ID [--walks 300] [--tasks 400] [--skip-dask]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="bench-prefect-"))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")  # no cluster start/stop chatter

COPIED_TABLES = ("specs", "tool_specs", "tool_builds", "services")
COPIED_STAGES = ("ingest", "synthesize")


def median_seconds(action: Any, repeats: int, floor: float = 0.05) -> tuple[float, Any]:
    """Median seconds per call of `action` over `repeats` samples, and its last result; a
    sample makes as many calls as fill `floor` seconds (one, at any real scale), so small
    stores are not timed at the clock's resolution."""
    began = time.perf_counter()
    result = action()
    number = max(1, min(1000, round(floor / max(time.perf_counter() - began, 1e-9))))
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        for _ in range(number):
            result = action()
        times.append((time.perf_counter() - began) / number)
    return statistics.median(times), result


def measure_graph(nodes: list[Any], repeats: int) -> dict[str, Any]:
    """Build + stats and the edge sample of one set of tool nodes, timed."""
    from compoworld.graph.depgraph import DependencyGraph, is_link_type

    build, graph = median_seconds(lambda: DependencyGraph.build(nodes), repeats)
    stats_s, stats = median_seconds(graph.stats, repeats)
    both, _ = median_seconds(lambda: DependencyGraph.build(nodes).stats(), repeats)
    sample_s, sample = median_seconds(lambda: sum(1 for _ in graph.edges()), repeats)
    kinds = [k for n in nodes for k in (*n.outputs.values(), *n.params.values())]
    return {
        "services": stats["services"], "tools": len(nodes), "fields": len(kinds),
        "link_fields": sum(1 for k in kinds if is_link_type(k)), "build_s": build,
        "stats_s": stats_s, "both_s": both, "edges": stats["edges"],
        "cross": stats["cross_service_edges"], "sample": sample, "sample_s": sample_s,
    }


def print_graph(half: dict[str, Any], full: dict[str, Any], repeats: int) -> None:
    print(f"graph build (median of {repeats}, seconds per call); half = every other service "
          "by name")
    print(f"{'':30}{'half':>14}{'all':>14}{'all/half':>10}")
    rows = [("services", "services", "d"), ("tools", "tools", "d"),
            ("fields (params + outputs)", "fields", "d"), ("link-typed fields", "link_fields", "d"),
            ("build s", "build_s", ".4f"), ("stats s", "stats_s", ".4f"),
            ("build + stats s", "both_s", ".4f"), ("edges, exact (stats)", "edges", "d"),
            ("cross-service edges", "cross", "d"), ("edges, stored sample", "sample", "d"),
            ("edges() sample s", "sample_s", ".4f")]
    for label, key, spec in rows:
        ratio = full[key] / half[key] if half[key] else float("nan")
        print(f"{label:30}{half[key]:>14,{spec}}{full[key]:>14,{spec}}{ratio:10.2f}")
    print(f"growth: build + stats x{full['both_s'] / half['both_s']:.2f} for "
          f"x{full['tools'] / half['tools']:.2f} tools (x{full['fields'] / half['fields']:.2f} "
          f"fields); exact edges x{full['edges'] / max(half['edges'], 1):.2f}")


def timed_library_class() -> type:
    """A `ServiceLibrary` that adds up the seconds spent mounting services."""
    from compoworld.compose.library import ServiceLibrary

    class MountTimedLibrary(ServiceLibrary):
        """First-touch mounts (spec load + `build_service`) timed into `mount_seconds`."""

        def _mount(self, name: str, seed: int) -> Any:
            began = time.perf_counter()
            try:
                return super()._mount(name, seed)
            finally:
                self.__dict__["mount_seconds"] = (
                    self.__dict__.get("mount_seconds", 0.0) + time.perf_counter() - began)
                self.__dict__["mounts"] = self.__dict__.get("mounts", 0) + 1

    return MountTimedLibrary


def compose_pass(library: Any, starts: list[str], seed: int, walks: int) -> dict[str, Any]:
    """`walks` candidate walks as one compose shard makes them (shard 0, every start tool),
    through the stage's own loop (`compoworld.compose.stage.candidates`)."""
    from compoworld.compose.stage import candidates, shard_world_seed

    outcomes: Counter[str] = Counter()
    seconds = {"walk": 0.0, "verify": 0.0, "mount": 0.0}
    composed = verified = made = 0
    mounted = lambda: library.__dict__.get("mount_seconds", 0.0)  # noqa: E731
    before = mounted()
    for candidate in candidates(library, starts, seed=seed, shard=0,
                                world_seed=shard_world_seed(seed, 0), quota=walks + 1,
                                limit=walks):
        made += 1
        outcomes[candidate.outcome] += 1
        composed += candidate.task is not None
        verified += candidate.outcome == "verified"
        seconds["walk"] += candidate.walk_seconds
        seconds["verify"] += candidate.verify_seconds
    seconds["mount"] = mounted() - before
    seconds["walk"] -= seconds["mount"]  # mounts happen inside walks and replays
    return {"walks": made, "composed": composed, "verified": verified, "outcomes": outcomes,
            "total": seconds["walk"] + seconds["verify"] + seconds["mount"]} | seconds


def print_walks(load_s: float, mounts: int, cold: dict[str, Any], warm: dict[str, Any]) -> None:
    print(f"compose loop in-process ({cold['walks']} candidate walks, one world seed; "
          f"library load {load_s:.2f} s, {mounts} services mounted in the cold pass)")
    print(f"{'':30}{'cold pass':>14}{'warm pass':>14}{'cold/warm':>10}")
    rows = [
        ("seconds, total", cold["total"], warm["total"], ".2f"),
        ("  mounting services", cold["mount"], warm["mount"], ".2f"),
        ("  walking + composing", cold["walk"], warm["walk"], ".2f"),
        ("  verifying", cold["verify"], warm["verify"], ".2f"),
        ("walks / s", cold["walks"] / cold["total"], warm["walks"] / warm["total"], ".1f"),
        ("tasks composed / s", cold["composed"] / cold["total"],
         warm["composed"] / warm["total"], ".1f"),
        ("verified tasks / s", cold["verified"] / cold["total"],
         warm["verified"] / warm["total"], ".1f"),
        ("walks / s, mounts excluded", cold["walks"] / (cold["total"] - cold["mount"]),
         warm["walks"] / (warm["total"] - warm["mount"]), ".1f"),
    ]
    for label, a, b, spec in rows:
        ratio = f"{a / b:10.2f}" if b else f"{'-':>10}"
        print(f"{label:30}{a:>14{spec}}{b:>14{spec}}{ratio}")
    n = cold["walks"]
    print(f"composed {cold['composed']}/{n} walks ({cold['composed'] / n:.0%}), verified "
          f"{cold['verified']} ({cold['verified'] / n:.0%} of walks, "
          f"{cold['verified'] / max(cold['composed'], 1):.0%} of composed); "
          f"per verified task {cold['total'] / max(cold['verified'], 1):.3f} s cold, "
          f"{warm['total'] / max(warm['verified'], 1):.3f} s warm")
    top = ", ".join(f"{name} {count}" for name, count in cold["outcomes"].most_common(4))
    print(f"outcomes: {top}")
    same = cold["outcomes"] == warm["outcomes"]
    print(f"warm pass made the same outcomes: {'yes' if same else 'NO'}; "
          f"cold - warm = {cold['total'] - warm['total']:.2f} s, of which timed mounts "
          f"{cold['mount']:.2f} s (the rest: other first-use costs inside walks)")


def copy_run(source: Any, run_id: str, home: Path, new_id: str) -> None:
    """Copy what compose reads of `run_id` into run `new_id` of the store at `home`."""
    from storage.store import MANIFEST, Store

    target = Store.open(home)
    for table in (*COPIED_TABLES, MANIFEST):
        folder = target.partition(table, new_id)
        folder.mkdir(parents=True, exist_ok=True)
        for path in sorted(source.partition(table, run_id).glob("*.parquet")):
            if table != MANIFEST or path.name.split("-")[0] in COPIED_STAGES:
                shutil.copy2(path, folder / path.name)


def run_compose(home: Path, run_id: str, workers: int, tasks: int, per_shard: int,
                seed: int) -> dict[str, Any]:
    """One `compose_flow` run with `workers` Dask workers; wall seconds and what it made."""
    from flows.compose import compose_flow
    from storage.store import Store

    os.environ["COMPOWORLD_WORKERS"] = str(workers)
    began = time.perf_counter()
    summary = compose_flow(run_id=run_id, tasks=tasks, seed=seed, tasks_per_shard=per_shard,
                           home=str(home))
    wall = time.perf_counter() - began
    store = Store.open(home)
    shards = [row["seconds"] for row in store.manifest(run_id, "compose").values()]
    made = store.read("tasks", run_id, columns=["verified"])
    return {"wall": wall, "graph_s": summary["graph"]["seconds"], "stage_s": summary["seconds"],
            "shards": len(shards), "shard_sum": sum(shards), "shard_max": max(shards, default=0),
            "tasks": len(made), "verified": sum(1 for r in made if r["verified"]),
            "walks": len(store.read("walks", run_id, columns=["outcome"]))}


def measure_dask(store: Any, run_id: str, tasks: int, per_shard: int, seed: int
                 ) -> tuple[float, dict[str, Any], dict[str, Any]]:
    """Warm-up, then `compose_flow` with 1 and 2 workers on fresh copies of the run."""
    from prefect.testing.utilities import prefect_test_harness

    home = Path(tempfile.mkdtemp(prefix="bench-compose-home-"))
    try:
        for new_id in ("warm", "w1", "w2"):
            copy_run(store, run_id, home, new_id)
        with prefect_test_harness(server_startup_timeout=120):
            began = time.perf_counter()
            run_compose(home, "warm", 1, 1, 1, seed)
            warm_up = time.perf_counter() - began
            one = run_compose(home, "w1", 1, tasks, per_shard, seed)
            two = run_compose(home, "w2", 2, tasks, per_shard, seed)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return warm_up, one, two


def print_dask(warm_up: float, one: dict[str, Any], two: dict[str, Any], tasks: int,
               per_shard: int) -> None:
    print(f"compose_flow, Prefect + Dask LocalCluster (--tasks {tasks}, --tasks-per-shard "
          f"{per_shard}); warm-up run {warm_up:.1f} s not counted")
    print(f"{'':30}{'1 worker':>14}{'2 workers':>14}{'1w/2w':>10}")
    rows = [("flow wall s", "wall", ".2f"), ("  graph stage s", "graph_s", ".2f"),
            ("  compose stage s", "stage_s", ".2f"), ("compose shards", "shards", "d"),
            ("shard seconds, sum", "shard_sum", ".2f"), ("longest shard s", "shard_max", ".2f"),
            ("candidate walks", "walks", "d"), ("tasks composed", "tasks", "d"),
            ("tasks verified", "verified", "d")]
    for label, key, spec in rows:
        ratio = one[key] / two[key] if two[key] else float("nan")
        print(f"{label:30}{one[key]:>14{spec}}{two[key]:>14{spec}}{ratio:10.2f}")
    best = one["shard_sum"] / max(two["shard_sum"] / 2, two["shard_max"])
    print(f"speed-up of 2 workers over 1: x{one['wall'] / two['wall']:.2f} flow wall, "
          f"x{one['stage_s'] / two['stage_s']:.2f} compose stage (x{best:.2f} at best from "
          f"the shard times)")
    print("each timing includes: the flow run on an already running Prefect server, "
          "two stages (graph, compose) each starting and closing its own LocalCluster, "
          "the library load in the flow and in every shard, Parquet writes and catalog "
          "refreshes; not the Prefect server start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", default=None, help="store (default $COMPOWORLD_HOME or ./data)")
    parser.add_argument("--run-id", required=True, help="a run already ingested and synthesized")
    parser.add_argument("--walks", type=int, default=300, help="candidate walks in-process")
    parser.add_argument("--tasks", type=int, default=400, help="verified tasks per flow run")
    parser.add_argument("--tasks-per-shard", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3, help="graph builds timed per size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-dask", action="store_true", help="leave out the flow runs")
    args = parser.parse_args()

    from compoworld.compose.library import tool_nodes
    from compoworld.compose.stage import order_starts, start_tools
    from storage.store import Store

    store = Store.open(args.home)
    wall, load = time.perf_counter(), os.getloadavg()[0]
    verified = {r["service"] for r in store.read("services", args.run_id,
                                                 columns=["service", "verified"]) if r["verified"]}
    if not verified:
        sys.exit(f"run {args.run_id!r} in {store.home} has no synthesized services: run "
                 f"`compoworld ingest --run-id {args.run_id}` and `compoworld synthesize "
                 f"--run-id {args.run_id}` first")

    nodes = [n for n in tool_nodes(store.read("tool_specs", args.run_id),
                                   store.read("tool_builds", args.run_id))
             if n.service in verified]
    halves = set(sorted({n.service for n in nodes})[::2])
    half = measure_graph([n for n in nodes if n.service in halves], args.repeats)
    full = measure_graph(nodes, args.repeats)

    began = time.perf_counter()
    library = timed_library_class().from_store(store, args.run_id)
    load_s = time.perf_counter() - began
    starts = order_starts(start_tools(library.graph), args.seed)
    if not starts:
        sys.exit(f"run {args.run_id!r} has no mounted read tool to start a walk from")
    cold = compose_pass(library, starts, args.seed, args.walks)
    mounts = library.__dict__.get("mounts", 0)
    warm = compose_pass(library, starts, args.seed, args.walks)

    dask = None if args.skip_dask else measure_dask(
        store, args.run_id, args.tasks, args.tasks_per_shard, args.seed)

    print(f"run {args.run_id} in {store.home}: {len(verified)} verified services, "
          f"{len(nodes)} mounted tools, {len(starts)} start tools")
    print()
    print_graph(half, full, args.repeats)
    print()
    print_walks(load_s, mounts, cold, warm)
    if dask:
        print()
        print_dask(*dask, args.tasks, args.tasks_per_shard)
    print()
    print(f"bench wall seconds: {time.perf_counter() - wall:.1f}; load average (1 min) "
          f"{load:.1f} at start, {os.getloadavg()[0]:.1f} at end on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()

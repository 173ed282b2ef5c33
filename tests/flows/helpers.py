"""What several flow tests share: a store with composed tasks over the built-in services."""

from __future__ import annotations

from pathlib import Path

from flows.compose import compose_flow
from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.store import Store


def composed_builtin_store(folder: Path, run_id: str, tasks: int, per_shard: int) -> Store:
    """Ingest, synthesize and compose the built-in services into a new store."""
    store = Store.open(folder / "home")
    home = str(store.home)
    ingest_flow(source="builtin", run_id=run_id, home=home)
    synthesize_flow(run_id=run_id, services=None, shard_size=5, home=home)
    compose_flow(run_id=run_id, tasks=tasks, tasks_per_shard=per_shard, home=home)
    return store

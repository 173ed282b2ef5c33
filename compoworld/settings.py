"""Settings read from the environment, each with a default that works out of the box."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path


def cache_dir() -> Path:
    """Where downloaded corpora live: `COMPOWORLD_CACHE`, default `~/.cache/compoworld`.

    Outside the repository, so nothing of the corpus is ever committed, and shared by every
    checkout on the machine (CI's fresh clone reuses what set-up fetched).
    """
    default = Path.home() / ".cache" / "compoworld"
    return Path(os.environ.get("COMPOWORLD_CACHE", default)).expanduser().resolve()


def default_run_id(now: datetime | None = None) -> str:
    """A nightly run's id: the UTC date, e.g. `2026-11-29`."""
    return (now or datetime.now(UTC)).strftime("%Y-%m-%d")


def worker_count() -> int:
    """Dask LocalCluster size: `COMPOWORLD_WORKERS`, default one worker per core."""
    value = os.environ.get("COMPOWORLD_WORKERS", "")
    if value and (not value.isdigit() or int(value) < 1):
        raise ValueError(f"COMPOWORLD_WORKERS must be a positive integer, got {value!r}")
    return int(value) if value else os.cpu_count() or 1

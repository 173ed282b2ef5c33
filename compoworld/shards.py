"""Deterministic shards: how a stage's items are split, and the hash that says when to redo one.

A shard descriptor is small (run id, stage, index, input hash and the item keys), so it
travels cheaply to any Dask worker; the worker reads its inputs and writes its outputs in
the store. The input hash covers the items, the stage parameters and the library's code,
so changing any of them never silently reuses a stale shard.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Shard(BaseModel):
    """One unit of work of a stage: what a Prefect task receives."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str = Field(description="Run the shard belongs to (the hive partition).")
    stage: str = Field(description="Stage name, e.g. `ingest`.")
    index: int = Field(description="Shard number, 0-based, stable for the same inputs.")
    count: int = Field(description="How many shards the stage has in this plan.")
    input_hash: str = Field(description="Digest of items, parameters and code.")
    items: list[str] = Field(description="Keys of the items this shard processes.")
    params: dict[str, Any] = Field(description="Stage parameters (JSON-serialisable).")
    work: str = Field(description="`module:function` that turns the shard into table rows.")


def _chunks(
    items: list[str], size: int, weights: list[int] | None, limit: int | None
) -> list[list[str]]:
    if weights is None or limit is None:
        return [items[i : i + size] for i in range(0, len(items), size)]
    if len(weights) != len(items):
        raise ValueError("weights must give one weight per item")
    chunks: list[list[str]] = []
    current: list[str] = []
    load = 0
    for item, weight in zip(items, weights, strict=True):
        if current and (len(current) == size or load + weight > limit):
            chunks.append(current)
            current, load = [], 0
        current.append(item)
        load += weight
    if current:
        chunks.append(current)
    return chunks


PACKAGE = Path(__file__).resolve().parent
# The code a shard's rows depend on: the library, and the storage layer that writes them.
CODE_ROOTS = (PACKAGE, PACKAGE.parent / "storage")


def digest_sources(roots: tuple[Path, ...]) -> str:
    """Digest of every `.py` file under `roots` (paths and contents)."""
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{root.name}/{path.relative_to(root).as_posix()}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def code_digest() -> str:
    """Digest of the library's and the storage layer's source: a code change invalidates
    recorded shards."""
    return digest_sources(tuple(root for root in CODE_ROOTS if root.is_dir()))


def plan_shards(
    *,
    run_id: str,
    stage: str,
    items: list[str],
    shard_size: int,
    params: dict[str, Any],
    work: str,
    weights: list[int] | None = None,
    shard_weight: int | None = None,
) -> list[Shard]:
    """Split `items` (in the given, deterministic order) into shards of `shard_size`.

    With `weights` (one per item, e.g. a service's tool count) a shard also closes before
    its weight would pass `shard_weight`, so one shard of huge items does not keep a
    worker busy long after the others are done. An item heavier than that is alone.
    """
    if shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, got {shard_size}")
    return plan_chunks(run_id=run_id, stage=stage, params=params, work=work,
                       chunks=_chunks(items, shard_size, weights, shard_weight))


def plan_chunks(
    *, run_id: str, stage: str, chunks: list[list[str]], params: dict[str, Any], work: str,
    first: int = 0,
) -> list[Shard]:
    """One shard per chunk of items, in order (a chunk may repeat another's items: compose
    shards in different worlds walk from the same start tools), numbered from `first` (a
    later wave of a stage's shards follows the earlier ones)."""
    params_json = json.dumps(params, sort_keys=True, default=str)
    shards = []
    for index, chunk in enumerate(chunks):
        digest = hashlib.sha256()
        for part in (stage, work, params_json, code_digest(), *chunk):
            digest.update(part.encode())
            digest.update(b"\0")
        shards.append(
            Shard(
                run_id=run_id,
                stage=stage,
                index=first + index,
                count=first + len(chunks),
                input_hash=digest.hexdigest()[:16],
                items=chunk,
                params=params,
                work=work,
            )
        )
    return shards

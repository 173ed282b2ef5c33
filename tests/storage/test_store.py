"""The shard manifest: atomic writes, skipping recorded shards, never reusing stale ones."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from compoworld.shards import Shard, plan_shards
from storage.stage import execute_shard
from storage.store import Store


def echo_work(shard: Shard, store: Store) -> dict[str, list[dict]]:
    """Work function for tests: one spec_errors row per item (and a tool per item)."""
    return {
        "spec_errors": [
            {"document": item, "source": shard.params["tag"], "reason": "r"} for item in shard.items
        ],
        "tool_specs": [],
    }


def failing_work(shard: Shard, store: Store) -> dict[str, list[dict]]:
    raise RuntimeError(f"boom in shard {shard.index}")


def plan(items: list[str], *, tag: str = "a", size: int = 2, work: str = "echo_work"):
    return plan_shards(
        run_id="r1",
        stage="demo",
        items=items,
        shard_size=size,
        params={"tag": tag},
        work=f"tests.storage.test_store:{work}",
    )


def rows(store: Store, table: str = "spec_errors") -> list[dict]:
    folder = store.partition(table, "r1")
    paths = sorted(folder.glob("*.parquet"))
    return [row for path in paths for row in pq.read_table(path).to_pylist()]


def test_plan_is_deterministic_and_covers_every_item():
    items = [f"d{i}" for i in range(7)]
    first, second = plan(items), plan(items)
    assert first == second
    assert [s.items for s in first] == [["d0", "d1"], ["d2", "d3"], ["d4", "d5"], ["d6"]]
    assert {s.count for s in first} == {4}
    assert len({s.input_hash for s in first}) == 4


def test_weighted_plans_close_shards_before_they_get_too_heavy():
    items = ["a", "b", "c", "d", "e", "f"]
    shards = plan_shards(
        run_id="r1", stage="demo", items=items, shard_size=3, params={}, work="m:f",
        weights=[1, 1, 500, 1, 2, 2], shard_weight=4,
    )
    assert [s.items for s in shards] == [["a", "b"], ["c"], ["d", "e"], ["f"]]
    with pytest.raises(ValueError, match="one weight per item"):
        plan_shards(run_id="r1", stage="demo", items=items, shard_size=3, params={},
                    work="m:f", weights=[1], shard_weight=4)


def test_input_hash_changes_with_params_items_and_work():
    base = plan(["a", "b"])[0].input_hash
    assert plan(["a", "b"], tag="b")[0].input_hash != base
    assert plan(["a", "c"])[0].input_hash != base
    assert plan(["a", "b"], work="failing_work")[0].input_hash != base


def test_input_hash_changes_with_the_code(monkeypatch, tmp_path):
    from compoworld import shards

    (tmp_path / "lib").mkdir()
    (tmp_path / "storage").mkdir()
    (tmp_path / "lib" / "work.py").write_text("X = 1\n")
    (tmp_path / "storage" / "schemas.py").write_text("Y = 1\n")
    roots = (tmp_path / "lib", tmp_path / "storage")
    before = shards.digest_sources(roots)
    (tmp_path / "storage" / "schemas.py").write_text("Y = 2\n")  # a schema change counts
    assert shards.digest_sources(roots) != before
    assert shards.CODE_ROOTS[1].name == "storage" and shards.CODE_ROOTS[1].is_dir()

    base = plan(["a", "b"])[0].input_hash
    monkeypatch.setattr(shards, "code_digest", lambda: "another-version")
    assert plan(["a", "b"])[0].input_hash != base


def test_shard_size_must_be_positive():
    with pytest.raises(ValueError, match="shard_size"):
        plan(["a"], size=0)


def test_executed_shards_are_recorded_and_skipped(store: Store):
    shards = plan([f"d{i}" for i in range(5)])
    assert store.pending(shards) == shards
    for shard in shards[:2]:
        summary = execute_shard(shard, str(store.home))
        assert summary["rows"] == len(shard.items)
    assert store.pending(shards) == shards[2:]
    manifest = store.manifest("r1", "demo")
    assert sorted(manifest) == [0, 1]
    assert {row["status"] for row in manifest.values()} == {"done"}
    assert manifest[0]["rows"] == 2 and manifest[0]["input_hash"] == shards[0].input_hash
    assert [r["document"] for r in rows(store)] == ["d0", "d1", "d2", "d3"]


def test_rerun_after_a_kill_before_the_manifest_does_not_duplicate(store: Store):
    shard = plan(["x", "y"])[0]
    # A worker killed after its files were renamed but before its manifest row was written.
    store.write_shard(shard, echo_work(shard, store))
    assert store.pending([shard]) == [shard]
    execute_shard(shard, str(store.home))
    assert [r["document"] for r in rows(store)] == ["x", "y"]
    assert store.pending([shard]) == []


def test_changed_params_rerun_and_replace_the_old_rows(store: Store):
    for shard in plan(["x", "y", "z"]):
        execute_shard(shard, str(store.home))
    changed = plan(["x", "y", "z"], tag="b")
    assert store.pending(changed) == changed
    for shard in changed:
        execute_shard(shard, str(store.home))
    assert {r["source"] for r in rows(store)} == {"b"}
    assert len(rows(store)) == 3


def test_a_smaller_plan_removes_shards_beyond_its_end(store: Store):
    for shard in plan(["a", "b", "c", "d", "e"]):
        execute_shard(shard, str(store.home))
    smaller = plan(["a", "b"])
    assert store.pending(smaller) == []
    assert sorted(store.manifest("r1", "demo")) == [0]
    assert [r["document"] for r in rows(store)] == ["a", "b"]


def test_a_failing_shard_is_recorded_as_failed_and_writes_no_data(store: Store):
    shard = plan(["a", "b"], work="failing_work")[0]
    with pytest.raises(RuntimeError, match="boom"):
        execute_shard(shard, str(store.home))
    row = store.manifest("r1", "demo")[0]
    assert row["status"] == "failed" and "RuntimeError: boom in shard 0" in row["error"]
    assert rows(store) == []
    assert store.pending([shard]) == [shard]
    leftovers = [p for p in store.tables_dir.rglob("*") if p.name.startswith(".tmp")]
    assert leftovers == []


def test_rows_that_do_not_fit_the_schema_leave_no_file(store: Store):
    shard = plan(["a"])[0]
    with pytest.raises(Exception):  # noqa: B017 - pyarrow raises several error types
        store.write_shard(shard, {"spec_errors": [{"document": 1, "source": [], "reason": 2}]})
    assert list(store.tables_dir.rglob("*.parquet")) == []
    assert [p for p in store.tables_dir.rglob("*") if p.is_file()] == []


@pytest.mark.parametrize("bad", ["", "../x", "a/b", "run_id=x", ".hidden"])
def test_bad_run_ids_are_refused(store: Store, bad: str):
    with pytest.raises(ValueError, match="invalid run id"):
        store.partition("tool_specs", bad)


def test_unknown_table_is_refused(store: Store):
    with pytest.raises(KeyError, match="unknown table 'nope'"):
        store.partition("nope", "r1")


def test_read_filters_rows_by_column_values(store: Store):
    for shard in plan(["a", "b", "c", "d"]):
        execute_shard(shard, str(store.home))
    got = store.read("spec_errors", "r1", columns=["document"], where=("document", ["b", "d"]))
    assert got == [{"document": "b"}, {"document": "d"}]
    assert len(store.read("spec_errors", "r1")) == 4
    assert store.read("spec_errors", "no-such-run") == []

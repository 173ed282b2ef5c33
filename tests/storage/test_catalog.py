"""DuckDB views over the Parquet tables, SQL errors, and the stats summaries."""

from __future__ import annotations

import duckdb
import pytest

from compoworld.shards import plan_shards
from storage.catalog import QueryError, refresh_catalog, run_query
from storage.schemas import SCHEMAS
from storage.stage import execute_shard
from storage.stats import stage_status, table_counts
from storage.store import Store


def write_old_manifest_row(store: Store, run_id: str, stage: str, shard: int, rows: int) -> None:
    """A `done` manifest row as written before rows named their files (no `files` column)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = SCHEMAS["stage_runs"]
    old = schema.remove(schema.get_field_index("files"))
    row = {"stage": stage, "shard": shard, "shards": 1, "input_hash": "h", "status": "done",
           "rows": rows, "items": 1, "seconds": 0.1, "error": None, "finished_at": None}
    folder = store.partition("stage_runs", run_id)
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist([row], schema=old), folder / store.file_name(stage, shard))


def fill(store: Store, run_id: str, items: list[str]) -> None:
    shards = plan_shards(
        run_id=run_id,
        stage="demo",
        items=items,
        shard_size=2,
        params={"tag": run_id},
        work="tests.storage.test_store:echo_work",
    )
    for shard in shards:
        execute_shard(shard, str(store.home))


def test_every_table_has_a_typed_view_before_any_data(store: Store):
    path = refresh_catalog(store)
    with duckdb.connect(str(path), read_only=True) as con:
        views = {row[0] for row in con.execute("select view_name from duckdb_views()").fetchall()}
        assert set(SCHEMAS) <= views
        assert con.execute("select count(*) from tools").fetchone() == (0,)
        types = {row[0]: row[1] for row in con.execute("describe stage_runs").fetchall()}
    assert types["shard"] == "INTEGER" and types["run_id"] == "VARCHAR"


def test_views_read_every_run_with_run_id_as_text(store: Store):
    fill(store, "2026-11-29", ["a", "b", "c"])
    fill(store, "other", ["d"])
    path = refresh_catalog(store)
    with duckdb.connect(str(path), read_only=True) as con:
        got = con.execute(
            "select run_id, count(*) from spec_errors group by run_id order by run_id"
        ).fetchall()
        kind = con.execute("select typeof(run_id) from spec_errors limit 1").fetchone()[0]
    # A date-like run id stays text: hive partitions must not be auto-cast to DATE.
    assert got == [("2026-11-29", 3), ("other", 1)]
    assert kind == "VARCHAR"


def test_run_query_returns_columns_and_rows(store: Store):
    fill(store, "r1", ["a", "b", "c"])
    columns, rows = run_query(
        store, "select document from spec_errors where run_id = $run order by 1", {"run": "r1"}
    )
    assert columns == ["document"]
    assert rows == [("a",), ("b",), ("c",)]


@pytest.mark.parametrize(
    "sql", ["selec 1", "select * from no_such_table", "select nope from tools"]
)
def test_bad_sql_raises_one_line_query_error(store: Store, sql: str):
    with pytest.raises(QueryError) as caught:
        run_query(store, sql)
    assert "\n" not in str(caught.value) and str(caught.value)


def test_refresh_replaces_the_catalog_while_a_reader_holds_it(store: Store):
    path = refresh_catalog(store)
    with duckdb.connect(str(path), read_only=True) as reader:
        fill(store, "r1", ["a"])
        refresh_catalog(store)  # must not fail on the reader's lock
        assert reader.execute("select 1").fetchone() == (1,)
    with duckdb.connect(str(path), read_only=True) as con:
        assert con.execute("select count(*) from spec_errors").fetchone() == (1,)


def test_stats_count_rows_and_shards(store: Store):
    fill(store, "r1", ["a", "b", "c"])
    assert table_counts(store) == [{"table_name": "spec_errors", "run_id": "r1", "rows": 3}]
    [status] = stage_status(store)
    assert (status["run_id"], status["stage"], status["shards"]) == ("r1", "demo", 2)
    assert (status["done"], status["failed"], status["remaining"], status["rows"]) == (2, 0, 0, 3)
    assert status["status"] == "done"


def test_stats_tell_failed_from_unfinished_stages(store: Store):
    shards = plan_shards(run_id="r1", stage="demo", items=["a", "b", "c", "d", "e"],
                         shard_size=2, params={"tag": "t"},
                         work="tests.storage.test_store:echo_work")
    execute_shard(shards[0], str(store.home))  # the others never ran: killed, or running
    [status] = stage_status(store)
    assert (status["status"], status["done"], status["remaining"]) == ("unfinished", 1, 2)
    store.record(shards[1], status="failed", rows=0, seconds=0.1, error="ValueError: x")
    refresh_catalog(store)
    [status] = stage_status(store)
    assert (status["status"], status["failed"], status["remaining"]) == ("failed", 1, 2)


def test_tools_view_joins_ingested_specs_with_their_builds(store: Store):
    def write(table: str, stage: str, rows: list[dict]) -> None:
        [shard] = plan_shards(
            run_id="r1", stage=stage, items=["x"], shard_size=1, params={}, work="m:f"
        )
        store.record(shard, status="done", rows=store.write_shard(shard, {table: rows}),
                     seconds=0.0)

    spec = {"service": "crm", "effect": "read", "n_params": 0}
    write("tool_specs", "ingest", [spec | {"name": "crm__get_a"}, spec | {"name": "crm__get_b"}])
    _, rows = run_query(store, "select name, implementation, mounted from tools order by name")
    assert rows == [("crm__get_a", None, None), ("crm__get_b", None, None)]
    build = {"service": "crm", "name": "crm__get_a", "implementation": "compiled", "mounted": True}
    write("tool_builds", "synthesize", [build])
    _, rows = run_query(store, "select name, implementation, mounted from tools order by name")
    assert rows == [("crm__get_a", "compiled", True), ("crm__get_b", None, None)]


def test_files_from_before_a_column_was_added_read_it_as_null(store: Store):
    import pyarrow as pa
    import pyarrow.parquet as pq

    old = SCHEMAS["tool_builds"].remove(SCHEMAS["tool_builds"].get_field_index("param_types"))
    folder = store.partition("tool_builds", "old")
    folder.mkdir(parents=True)
    row = {"service": "s", "name": "s__get", "implementation": "compiled", "mounted": True,
           "reason": None, "checks_passed": 3, "checks_failed": 0}
    pq.write_table(pa.Table.from_pylist([row], schema=old), folder / "synthesize-00000.parquet")
    write_old_manifest_row(store, "old", "synthesize", 0, rows=1)
    refresh_catalog(store)
    _, rows = run_query(store, "select name, param_types from tool_builds")
    assert rows == [("s__get", None)]
    _, rows = run_query(store, "select count(*) from tools")  # the view over it still binds
    assert rows == [(0,)]

"""`run_query` answers SELECT queries and nothing else: no file written, attached or read
besides the tables' own files, and a clear error for an empty query."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.catalog import QueryError, run_query
from storage.store import Store
from tests.storage.test_catalog import fill


@pytest.fixture
def filled(store: Store) -> Store:
    fill(store, "r1", ["a", "b", "c"])
    return store


def test_copy_to_a_file_is_refused_and_writes_nothing(filled: Store, tmp_path: Path):
    target = filled.partition("spec_errors", "r1") / "copied.parquet"
    outside = tmp_path / "out.csv"
    for sql in (f"COPY (SELECT * FROM spec_errors) TO '{target}'",
                f"COPY spec_errors TO '{outside}'"):
        with pytest.raises(QueryError, match="only SELECT"):
            run_query(filled, sql)
    assert not target.exists() and not outside.exists()
    assert run_query(filled, "select count(*) from spec_errors")[1] == [(3,)]


def test_a_stored_file_cannot_be_overwritten(filled: Store):
    [path] = [p for p in filled.partition("spec_errors", "r1").iterdir() if "00000" in p.name]
    before = path.read_bytes()
    with pytest.raises(QueryError):
        run_query(filled, f"COPY (SELECT 1 AS x) TO '{path}' (USE_TMP_FILE false)")
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "sql",
    [
        "ATTACH '{tmp}/other.duckdb' AS other",
        "CREATE TABLE t AS SELECT 1",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET enable_external_access = true",
        "PRAGMA enable_profiling",
        "EXPORT DATABASE '{tmp}/dump'",
        "SELECT 1; COPY (SELECT 1) TO '{tmp}/x.csv'",
    ],
)
def test_statements_other_than_select_are_refused(filled: Store, tmp_path: Path, sql: str):
    with pytest.raises(QueryError, match="only SELECT"):
        run_query(filled, sql.format(tmp=tmp_path))
    assert list(tmp_path.iterdir()) == [filled.home]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM read_csv('/etc/passwd', sep = ':')",
        "SELECT * FROM glob('/etc/*')",
        "SELECT * FROM read_parquet('{home}/tables/*/*/*.parquet')",
        "SELECT * FROM read_blob('{home}/compoworld.duckdb')",
    ],
)
def test_selects_cannot_read_files_besides_the_views(filled: Store, sql: str):
    with pytest.raises(QueryError, match="disabled by configuration"):
        run_query(filled, sql.format(home=filled.home))


@pytest.mark.parametrize("sql", ["", "   \n\t", "-- only a comment"])
def test_an_empty_query_is_a_clear_value_error(filled: Store, sql: str):
    with pytest.raises(ValueError, match="give a SELECT statement") as caught:
        run_query(filled, sql)
    assert "\n" not in str(caught.value)


def test_selects_describe_and_json_functions_still_work(filled: Store):
    assert run_query(filled, "select count(*) from spec_errors")[1] == [(3,)]
    assert run_query(filled, "select json_extract('{\"a\": 2}', '$.a')")[1] == [("2",)]
    columns, _ = run_query(filled, "describe tools")
    assert "column_name" in columns
    assert run_query(filled, "with t as (select 1 as x) select x from t")[1] == [(1,)]

"""The DuckDB catalog: one view per table over its Parquet files, and SQL over them.

The catalog file is rebuilt under a temporary name and renamed into place, so a reader
that has the old file open is never blocked by the writer's lock and never sees a half
built catalog. A table without files yet still gets a typed, empty view, so queries that
name it work from the first run on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from storage.schemas import SCHEMAS, VIEWS
from storage.store import Store


class QueryError(ValueError):
    """A SQL query the catalog could not answer."""


def _duckdb_type(dtype: pa.DataType) -> str:
    if pa.types.is_string(dtype):
        return "VARCHAR"
    if pa.types.is_int32(dtype):
        return "INTEGER"
    if pa.types.is_int64(dtype):
        return "BIGINT"
    if pa.types.is_floating(dtype):
        return "DOUBLE"
    if pa.types.is_boolean(dtype):
        return "BOOLEAN"
    if pa.types.is_timestamp(dtype):
        return "TIMESTAMPTZ" if dtype.tz else "TIMESTAMP"
    if pa.types.is_list(dtype):
        return _duckdb_type(dtype.value_type) + "[]"
    raise TypeError(f"no DuckDB type for {dtype}")


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def view_sql(store: Store, table: str) -> str:
    """`CREATE VIEW` statement for one table (typed and empty when it has no files)."""
    folder = store.tables_dir / table
    files = sorted(folder.glob("run_id=*/*.parquet"))
    if files:
        pattern = _sql_string((folder / "run_id=*" / "*.parquet").as_posix())
        # Files written before a column was added lack it: it reads as NULL, not an error.
        present = {name for path in files for name in pq.read_schema(path).names}
        added = "".join(
            f", CAST(NULL AS {_duckdb_type(field.type)}) AS {field.name}"
            for field in SCHEMAS[table] if field.name not in present
        )
        return (
            f"CREATE OR REPLACE VIEW {table} AS SELECT *{added} FROM read_parquet({pattern}, "
            "hive_partitioning = true, hive_types = {'run_id': VARCHAR}, union_by_name = true)"
        )
    columns = ", ".join(
        f"CAST(NULL AS {_duckdb_type(field.type)}) AS {field.name}" for field in SCHEMAS[table]
    )
    return (
        f"CREATE OR REPLACE VIEW {table} AS SELECT {columns}, "
        "CAST(NULL AS VARCHAR) AS run_id WHERE false"
    )


def create_views(con: duckdb.DuckDBPyConnection, store: Store) -> None:
    """Create (or replace) every table's view on an open connection."""
    for table in SCHEMAS:
        con.execute(view_sql(store, table))
    for name, query in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {query}")


def refresh_catalog(store: Store) -> Path:
    """Rebuild `compoworld.duckdb` from the files now in the store; returns its path."""
    store.home.mkdir(parents=True, exist_ok=True)
    temp = store.catalog_path.with_name(f".tmp-{os.getpid()}-{store.catalog_path.name}")
    temp.unlink(missing_ok=True)
    try:
        with duckdb.connect(str(temp)) as con:
            create_views(con, store)
        os.replace(temp, store.catalog_path)
    finally:
        temp.unlink(missing_ok=True)
        temp.with_name(temp.name + ".wal").unlink(missing_ok=True)
    return store.catalog_path


def run_query(
    store: Store, sql: str, params: dict[str, Any] | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one SQL query (with `$name` parameters) against the catalog: column names and rows.

    Views are created on an in-memory connection from the catalog's definitions, so a
    query never takes a lock on `compoworld.duckdb` and always sees the newest files.
    """
    with duckdb.connect(":memory:") as con:
        create_views(con, store)
        try:
            cursor = con.execute(sql, params or {})
            if cursor.description is None:
                return [], []
            return [column[0] for column in cursor.description], cursor.fetchall()
        except duckdb.Error as error:
            raise QueryError(_first_line(error)) from None


def _first_line(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__

"""The DuckDB catalog: one view per table over its Parquet files, and SQL over them.

A view lists exactly the files that `done` manifest rows name (storage/store.py), never a
glob of the folder, so a file nobody recorded is never read. A file that is missing or
unreadable is left out of its table's view, and a query that reaches it (any query of that
table, unless it filters on another run) fails naming the file; every other table stays
queryable.

The catalog file is rebuilt under a temporary name and renamed into place, so a reader
that has the old file open is never blocked by the writer's lock and never sees a half
built catalog. A table without files yet still gets a typed, empty view, so queries that
name it work from the first run on. A rebuild that the disk refuses (full, read-only) logs
one warning and leaves the stored tables as they are: it never fails the stage that asked.

`run_query` is read-only: one SELECT per call, on a connection that can read only the
views' files (no COPY, ATTACH, extensions or other file access).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from storage.schemas import SCHEMAS, VIEWS
from storage.store import MANIFEST, ShardFile, Store, first_line

logger = logging.getLogger("compoworld.storage")


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


def _nulls(table: str, present: set[str] = frozenset(), value: str = "NULL") -> str:
    """Typed columns (`value`, NULL by default) for the fields of `table` not in `present`."""
    return ", ".join(
        f"CAST({value} AS {_duckdb_type(field.type)}) AS {field.name}"
        for field in SCHEMAS[table] if field.name not in present and field.name != "run_id"
    )


def _table_files(
    store: Store, table: str, done: dict[str, list[ShardFile]] | None = None
) -> tuple[list[Path], set[str], dict[str, str]]:
    """The readable files of `table` (its manifest files for `stage_runs`), the columns they
    hold, and per run the first damaged file's problem, as one sentence. `done` is
    `store.done_files_by_table()` when the caller has it already."""
    if table == MANIFEST:
        paths = [path for run in store.runs() for path, _ in store.manifest_paths(run)]
        present = {name for path in paths for name in pq.read_schema(path).names}
        return paths, present, {}
    if done is None:
        done = store.done_files_by_table()
    paths, present, damaged = [], set(), {}
    for file in done.get(table, []):
        metadata, problem = file.inspect()
        if problem is not None:
            damaged.setdefault(file.run_id, file.advice(problem))
            continue
        paths.append(file.path)
        present.update(metadata.schema.to_arrow_schema().names)
    return paths, present, damaged


def view_sql(
    store: Store, table: str, done: dict[str, list[ShardFile]] | None = None
) -> tuple[str, list[Path]]:
    """`CREATE VIEW` statement for one table and the files it reads (typed and empty when it
    has none; a damaged file's run answers with an error naming the file)."""
    paths, present, damaged = _table_files(store, table, done)
    if paths:
        listed = ", ".join(_sql_string(path.as_posix()) for path in paths)
        # Files written before a column was added lack it: it reads as NULL, not an error.
        missing = _nulls(table, present)
        added = f", {missing}" if missing else ""
        body = (
            f"SELECT *{added} FROM read_parquet([{listed}], hive_partitioning = true, "
            "hive_types = {'run_id': VARCHAR}, union_by_name = true)"
        )
    else:
        body = f"SELECT {_nulls(table)}, CAST(NULL AS VARCHAR) AS run_id WHERE false"
    # One branch per run with a damaged file: it raises (naming the file) only when a query
    # reaches that run's rows; a filter on another run prunes it before it is evaluated.
    # Every other column is the error itself, so no filter on them (`where verified`) can
    # fold the branch away and answer from the intact files as if nothing were missing.
    for run_id, message in sorted(damaged.items()):
        error = f"error({_sql_string(f'table {table}: {message}')})"
        body += (f" UNION ALL BY NAME SELECT {_nulls(table, value=error)}, "
                 f"{_sql_string(run_id)} AS run_id WHERE {error} IS NULL")
    return f"CREATE OR REPLACE VIEW {table} AS {body}", paths


def create_views(con: duckdb.DuckDBPyConnection, store: Store) -> list[Path]:
    """Create (or replace) every table's view on an open connection; returns the files the
    views read."""
    done = store.done_files_by_table()
    paths: list[Path] = []
    for table in SCHEMAS:
        sql, files = view_sql(store, table, done)
        con.execute(sql)
        paths += files
    for name, query in VIEWS.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {query}")
    return paths


def refresh_catalog(store: Store) -> Path | None:
    """Rebuild `compoworld.duckdb` from the files now in the store; returns its path.

    When the file system refuses (disk full, read-only, the path taken by a folder) it logs
    one warning and returns None: the catalog only indexes what is stored, so a stage whose
    shards and manifest were written stays a finished stage.
    """
    temp = store.catalog_path.with_name(f".tmp-{os.getpid()}-{store.catalog_path.name}")
    try:
        store.home.mkdir(parents=True, exist_ok=True)
        temp.unlink(missing_ok=True)
        with duckdb.connect(str(temp)) as con:
            create_views(con, store)
            # Write it all now: a checkpoint that fails while closing is silently dropped.
            con.execute("CHECKPOINT")
        os.replace(temp, store.catalog_path)
    # Operational errors are the environment's (I/O, transactions, memory); fatal ones follow a
    # failed checkpoint. A bug in the views (binder, parser errors) still raises.
    except (OSError, duckdb.OperationalError, duckdb.FatalException) as error:
        logger.warning(
            "could not rebuild the catalog %s (%s); the stored tables are intact, so free "
            "disk space and rerun any stage to rebuild it", store.catalog_path,
            first_line(error),
        )
        return None
    finally:
        for leftover in (temp, temp.with_name(temp.name + ".wal")):
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)
    return store.catalog_path


@contextmanager
def query_connection(store: Store) -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory connection with every view, that can read only the views' files.

    Views are created on an in-memory connection from the catalog's definitions, so a
    query never takes a lock on `compoworld.duckdb` and always sees the newest files. Then
    file access is cut to those files and the configuration locked, so SQL can neither
    write files, attach databases, load extensions nor read anything else.
    """
    with duckdb.connect(":memory:") as con:
        paths = create_views(con, store)
        if paths:
            listed = ", ".join(_sql_string(path.as_posix()) for path in paths)
            con.execute(f"SET allowed_paths = [{listed}]")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
        yield con


def execute(
    con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run read-only SQL (SELECT statements only) on `con`: column names and rows."""
    try:
        # Empty, blank or only comments: DuckDB would return no result, not an error.
        statements = con.extract_statements(sql) if sql and sql.strip() else []
        if not statements:
            raise QueryError("the query is empty: give a SELECT statement, e.g. "
                             "\"select count(*) from tasks\"")
        for statement in statements:
            if statement.type != duckdb.StatementType.SELECT:
                raise QueryError(f"only SELECT queries can run here, not {statement.type.name}; "
                                 "the tables change only through the pipeline's commands")
        cursor = con.execute(sql, params or {})
        if cursor.description is None:
            return [], []
        return [column[0] for column in cursor.description], cursor.fetchall()
    except duckdb.Error as error:
        raise QueryError(first_line(error)) from None


def run_query(
    store: Store, sql: str, params: dict[str, Any] | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one read-only SQL query (with `$name` parameters) against the catalog: column
    names and rows. Raises QueryError (a ValueError) for an empty query, one that is not a
    SELECT, or one DuckDB cannot answer (a damaged file's name included)."""
    with query_connection(store) as con:
        return execute(con, sql, params)

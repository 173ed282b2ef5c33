"""Typed schemas of every Parquet table.

`run_id` is not stored inside the files: it is the hive partition (`run_id=<id>/`) and the
DuckDB views read it back as a VARCHAR column. JSON-valued columns are JSON strings; lists
of names are Parquet lists (DESIGN.md, Storage).
"""

from __future__ import annotations

import pyarrow as pa

_JSON = pa.string()

SCHEMAS: dict[str, pa.Schema] = {
    "specs": pa.schema(
        [
            ("service", pa.string()),
            ("document", pa.string()),
            ("title", pa.string()),
            ("description", pa.string()),
            ("domain", pa.string()),
            ("source", pa.string()),
            ("n_tools", pa.int32()),
            ("resources", pa.list_(pa.string())),
            ("spec", _JSON),
        ]
    ),
    "tools": pa.schema(
        [
            ("service", pa.string()),
            ("name", pa.string()),
            ("description", pa.string()),
            ("effect", pa.string()),
            ("resource", pa.string()),
            ("source", pa.string()),
            ("parameters", _JSON),
            ("returns", _JSON),
            ("param_types", _JSON),
            ("return_types", _JSON),
            ("n_params", pa.int32()),
        ]
    ),
    "spec_errors": pa.schema(
        [
            ("document", pa.string()),
            ("source", pa.string()),
            ("reason", pa.string()),
        ]
    ),
    "stage_runs": pa.schema(
        [
            ("stage", pa.string()),
            ("shard", pa.int32()),
            ("shards", pa.int32()),
            ("input_hash", pa.string()),
            ("status", pa.string()),
            ("rows", pa.int64()),
            ("items", pa.int32()),
            ("seconds", pa.float64()),
            ("error", pa.string()),
            ("finished_at", pa.timestamp("us", tz="UTC")),
        ]
    ),
}


def schema_for(table: str) -> pa.Schema:
    """The schema of `table`; a clear error for a name that is not a table."""
    try:
        return SCHEMAS[table]
    except KeyError:
        known = ", ".join(sorted(SCHEMAS))
        raise KeyError(f"unknown table {table!r} (known: {known})") from None

"""Typed schemas of every Parquet table.

Physical tables are written by stages; `VIEWS` adds views computed from them. `tools` is
one: each ingested tool (`tool_specs`) with how synthesis built it (`tool_builds`:
`implementation`, `mounted`), null until the synthesize stage has run.

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
    "tool_specs": pa.schema(
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
    "services": pa.schema(
        [
            ("service", pa.string()),
            ("title", pa.string()),
            ("domain", pa.string()),
            ("source", pa.string()),
            ("world_seed", pa.int64()),
            ("verified", pa.bool_()),
            ("reason", pa.string()),
            ("n_tools", pa.int32()),
            ("n_mounted", pa.int32()),
            ("n_compiled", pa.int32()),
            ("n_simulated", pa.int32()),
            ("n_builtin", pa.int32()),
            ("n_coded", pa.int32()),
            ("start_digest", pa.string()),
            ("seconds", pa.float64()),
        ]
    ),
    "tool_builds": pa.schema(
        [
            ("service", pa.string()),
            ("name", pa.string()),
            ("implementation", pa.string()),
            ("mounted", pa.bool_()),
            ("reason", pa.string()),
            ("checks_passed", pa.int32()),
            ("checks_failed", pa.int32()),
        ]
    ),
    "tool_checks": pa.schema(
        [
            ("service", pa.string()),
            ("tool", pa.string()),
            ("implementation", pa.string()),
            ("check", pa.string()),
            ("passed", pa.bool_()),
            ("detail", pa.string()),
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


VIEWS: dict[str, str] = {
    "tools": """
        SELECT s.*, b.implementation, b.mounted, b.reason AS build_reason,
               b.checks_passed, b.checks_failed
        FROM tool_specs AS s
        LEFT JOIN tool_builds AS b ON b.run_id = s.run_id AND b.name = s.name
    """,
}


def schema_for(table: str) -> pa.Schema:
    """The schema of `table`; a clear error for a name that is not a table."""
    try:
        return SCHEMAS[table]
    except KeyError:
        known = ", ".join(sorted(SCHEMAS))
        raise KeyError(f"unknown table {table!r} (known: {known})") from None

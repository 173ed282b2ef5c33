"""Summaries for `compoworld stats`: rows per table and run, each stage's shard status, how
each run's tools are implemented, and the dependency graph of each run."""

from __future__ import annotations

import logging
from typing import Any

from storage.catalog import QueryError, execute, query_connection, run_query
from storage.schemas import SCHEMAS
from storage.store import MANIFEST, Store

logger = logging.getLogger("compoworld.storage")


def table_counts(store: Store) -> list[dict[str, Any]]:
    """One row per (table, run) with its row count; tables without rows are left out, and so
    is a table with a damaged file (one warning naming the file), so the others still
    count."""
    counts: list[dict[str, Any]] = []
    with query_connection(store) as con:
        for table in SCHEMAS:
            if table == MANIFEST:
                continue
            try:
                columns, rows = execute(
                    con, f"SELECT '{table}' AS table_name, run_id, count(*) AS rows "
                    f"FROM {table} GROUP BY run_id"
                )
            except QueryError as error:
                logger.warning("%s", error)
                continue
            counts += [dict(zip(columns, row, strict=True)) for row in rows]
    return sorted(counts, key=lambda count: (count["run_id"], count["table_name"]))


def stage_status(store: Store) -> list[dict[str, Any]]:
    """One row per (run, stage): its status (`done`, `failed`: some shard failed and none
    ran it since, `unfinished`: killed or still running), shards planned, done, failed and
    remaining, rows, time."""
    columns, rows = run_query(
        store,
        f"""
        SELECT run_id, stage,
               CASE WHEN count(*) FILTER (WHERE status = 'done') >= max(shards) THEN 'done'
                    WHEN count(*) FILTER (WHERE status = 'failed') > 0 THEN 'failed'
                    ELSE 'unfinished' END AS status,
               max(shards) AS shards,
               count(*) FILTER (WHERE status = 'done') AS done,
               count(*) FILTER (WHERE status = 'failed') AS failed,
               max(shards) - count(*) FILTER (WHERE status = 'done') AS remaining,
               sum(rows) AS rows,
               round(sum(seconds), 2) AS shard_seconds,
               max(finished_at) AS last_finished
        FROM {MANIFEST}
        GROUP BY run_id, stage
        ORDER BY run_id, stage
        """,
    )
    return [dict(zip(columns, row, strict=True)) for row in rows]


def implementation_shares(store: Store) -> list[dict[str, Any]]:
    """One row per (run, implementation): tools built that way, how many are mounted, and
    their share of the run's built tools (compiled / modeled / coded / builtin / simulated)."""
    columns, rows = run_query(
        store,
        """
        SELECT run_id, implementation, count(*) AS tools,
               count(*) FILTER (WHERE mounted) AS mounted,
               round(count(*) / sum(count(*)) OVER (PARTITION BY run_id), 4) AS share
        FROM tool_builds WHERE implementation IS NOT NULL
        GROUP BY run_id, implementation
        ORDER BY run_id, implementation
        """,
    )
    return [dict(zip(columns, row, strict=True)) for row in rows]


def graph_summary(store: Store) -> list[dict[str, Any]]:
    """One row per run with a dependency graph: its exact counts and degree quantiles."""
    columns, rows = run_query(
        store,
        """
        SELECT run_id, nodes, services, edges, cross_service_edges, connected_services,
               service_pairs, stored_edges, start_tools,
               json_extract(out_degree, '$.median') AS out_median,
               json_extract(out_degree, '$.max') AS out_max,
               json_extract(in_degree, '$.median') AS in_median,
               json_extract(in_degree, '$.max') AS in_max
        FROM graph_stats ORDER BY run_id
        """,
    )
    return [dict(zip(columns, row, strict=True)) for row in rows]


def run_summary(store: Store, run_id: str) -> dict[str, Any]:
    """What one run produced: services (verified), tools (mounted), tasks (verified),
    rollouts, SFT rows and RL tasks."""
    columns, rows = run_query(
        store,
        """
        SELECT (SELECT count(*) FILTER (WHERE verified) FROM services WHERE run_id = $run)
                   AS services,
               (SELECT count(*) FILTER (WHERE mounted) FROM tools WHERE run_id = $run) AS tools,
               (SELECT count(*) FILTER (WHERE verified) FROM tasks WHERE run_id = $run) AS tasks,
               (SELECT count(*) FROM rollouts WHERE run_id = $run) AS rollouts,
               (SELECT count(*) FROM sft WHERE run_id = $run) AS sft_rows,
               (SELECT count(*) FROM rl_tasks WHERE run_id = $run) AS rl_tasks
        """,
        {"run": run_id},
    )
    return dict(zip(columns, rows[0], strict=True))


# Columns that time the work rather than describe its result: equal runs differ in them.
TIMING_COLUMNS = ("seconds", "seconds_model", "seconds_env", "finished_at")


def table_digests(store: Store, run_id: str) -> dict[str, tuple[int, str]]:
    """Per table, the run's row count and an order-free digest of its rows' content (timing
    columns and the run id left out): two runs of the same inputs and seed must agree, however
    their shards were interrupted and resumed."""
    digests: dict[str, tuple[int, str]] = {}
    with query_connection(store) as con:
        for table, schema in SCHEMAS.items():
            # A manifest row's `files` holds byte sizes: a storage detail that varies with the
            # run id's text inside the rows, not content two runs must share.
            excluded = ", ".join(["run_id", *(c for c in (*TIMING_COLUMNS, "files")
                                              if c in schema.names)])
            _, rows = execute(
                con,
                f"SELECT count(*), coalesce(sum(hash(t)), 0)::VARCHAR "
                f"FROM (SELECT * EXCLUDE ({excluded}) FROM {table} WHERE run_id = $run) t",
                {"run": run_id},
            )
            if rows[0][0]:
                digests[table] = (rows[0][0], rows[0][1])
    return digests

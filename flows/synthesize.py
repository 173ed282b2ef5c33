"""synthesize_flow: ingested specs -> verified services, their tool builds and checks."""

from __future__ import annotations

from typing import Any

from prefect import flow

from compoworld.services.coder_stage import coder_params
from compoworld.services.selection import (
    DEFAULT_SERVICES,
    select_library,
    selection_digest,
    shards_with_selection,
    size_filtered,
)
from compoworld.shards import plan_shards
from flows.names import resolved_run_id, run_name
from flows.shards import run_stage, stage_logger
from storage.queries import service_candidates, stage_digest
from storage.store import Store


class NothingToSynthesize(ValueError):
    """The run has no ingested services to build."""


@flow(name="synthesize", flow_run_name=run_name("synthesize"))
def synthesize_flow(
    run_id: str | None = None,
    services: int | None = DEFAULT_SERVICES,
    seed: int = 0,
    shard_size: int = 16,
    shard_tools: int = 400,
    coder: str | None = None,
    coder_model: str | None = None,
    coder_attempts: int = 3,
    coder_max_tools: int | None = None,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """Compile, seed and verify the selected services of a run's ingested specs.

    `services` is how many to select (work apps first, a large API as a working subset of
    its tools; see compoworld/services/selection.py); None builds every ingested service
    whole. A shard holds at most `shard_size` services and, past its first, `shard_tools`
    tools to build. Rerunning with the same `run_id` only runs unfinished shards; a new
    ingest invalidates them.
    `coder` (an OpenAI-compatible base URL) with `coder_model` sends the tools left
    simulated to the coding agent (`coder_attempts` candidates each, at most
    `coder_max_tools` per service); handlers that pass every check become `coded`.
    """
    logger = stage_logger()
    coding = coder_params(coder, coder_model, coder_attempts, coder_max_tools)
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    candidates = service_candidates(store, run_id)
    chosen = select_library(candidates, services)
    names = [s.service for s in chosen]
    tools = {c["service"]: c["n_tools"] for c in candidates}
    tools |= {s.service: len(s.tools) for s in chosen if s.tools is not None}
    left_out = size_filtered(candidates) if services is not None else None
    if not names and left_out:
        raise NothingToSynthesize(
            f"run {run_id!r} has no service the default selection takes: it leaves out "
            f"{left_out}; build them with `--services all` (services: null in a deployment)"
        )
    if not names:
        raise NothingToSynthesize(
            f"run {run_id!r} has no ingested services: run `compoworld ingest --run-id {run_id}`"
        )
    if left_out:
        logger.warning("synthesize %s: the selection leaves out %s; `--services all` "
                       "builds every one", run_id, left_out)
    logger.info("synthesize %s: %d services selected (%d as a working subset)", run_id,
                len(names), sum(s.tools is not None for s in chosen))
    shards = shards_with_selection(plan_shards(
        run_id=run_id,
        stage="synthesize",
        items=names,
        shard_size=shard_size,
        params={"seed": seed, "ingest": stage_digest(store, run_id, "ingest"),
                "selection": selection_digest(chosen)} | ({"coder": coding} if coding else {}),
        work="compoworld.services.synthesize:synthesize_shard",
        weights=[tools[name] for name in names],
        shard_weight=shard_tools,
    ), chosen)
    return {"run_id": run_id, "services": len(names)} | run_stage(
        shards, home=str(store.home), dask_address=dask_address
    )

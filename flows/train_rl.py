"""train_rl_flow: iterations of rollout (from the current checkpoint) and GRPO-CFRR update."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_table_artifact

from flows.names import resolved_run_id, run_name
from flows.rollout import rollout_flow
from flows.shards import stage_logger
from flows.train_sft import train
from models.rl import METRICS_TABLE, iteration_row, rollout_samples, task_window, write_samples
from models.serving import checkpoint_server
from models.training import (
    finished_row,
    finished_run,
    load_config,
    record_row,
    record_run,
    require_checkpoint,
    resolve_config,
    training_name,
)
from storage.catalog import refresh_catalog, run_query
from storage.store import Store


@task(name="write-rollout-samples")
def samples_of(home: str, run_id: str, stage: str, path: str) -> dict[str, list[dict]]:
    """Write the recipe's input file of one rollout stage; return what the iteration's
    metrics need of its samples (reward, advantage) and rollouts (status, scores)."""
    samples, rollouts = rollout_samples(Store.open(home), run_id, stage)
    if not samples:
        raise RuntimeError(f"{stage}: no rollout reached the model; nothing to train on")
    write_samples(samples, Path(path))
    return {"samples": [{k: s[k] for k in ("reward", "advantage")} for s in samples],
            "rollouts": [{k: r[k] for k in ("task_id", "status", "score", "rubric_score")}
                         for r in rollouts]}


@flow(name="train-rl", flow_run_name=run_name("train-rl"))
def train_rl_flow(
    run_id: str | None = None,
    base_checkpoint: str = "",
    reference: str | None = None,
    config: str = "models/configs/grpo_cfrr_tiny.yaml",
    iterations: int = 2,
    tasks_per_iteration: int = 8,
    group_size: int = 4,
    mode: str = "gateway",
    action_mode: str = "json-action",
    max_steps: int | None = 4,
    max_tokens: int = 64,
    alpha: float = 1.0,
    eps: float = 0.05,
    beta: float = 0.5,
    seed: int = 0,
    overrides: list[str] | None = None,
    serve_command: str | None = None,
    threads: int = 1,
    dask_address: str | None = None,
    home: str | None = None,
) -> dict[str, Any]:
    """`iterations` rounds of RL from `base_checkpoint` (a Hugging Face folder, e.g. an SFT
    checkpoint): serve the current checkpoint, roll it out `group_size` times on the next
    `tasks_per_iteration` verified tasks (`mode`, `action_mode`, `max_steps`, `max_tokens`
    as in rollout), score the groups with CFRR (`alpha`, `eps`, `beta`), update with the
    GRPO-CFRR recipe of `config` (KL to `reference`, default the base checkpoint), save,
    repeat. Checkpoints are served on the CPU (`threads`) or by `serve_command` (vLLM on
    a GPU: a command with `{checkpoint}`, `{name}` and `{port}`; see models/serving.py).
    Each iteration's metrics go to `training_metrics` and to the run's `train-rl-metrics`
    artifact; a rerun resumes after the last finished iteration."""
    logger = stage_logger()
    if iterations < 1 or group_size < 2:
        raise ValueError("train_rl needs iterations >= 1 and group_size >= 2 (GRPO compares "
                         "rollouts within a group)")
    require_checkpoint(base_checkpoint, "base_checkpoint")
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    config_path = resolve_config(config)
    reference = require_checkpoint(reference or base_checkpoint, "reference")
    _, rows = run_query(store, "select count(*) from tasks where run_id = $run and verified",
                        {"run": run_id})
    total = rows[0][0] if rows else 0
    settings = {"iterations": iterations, "tasks_per_iteration": tasks_per_iteration,
                "group_size": group_size, "mode": mode, "action_mode": action_mode,
                "max_steps": max_steps, "max_tokens": max_tokens, "seed": seed,
                "cfrr": [alpha, eps, beta], "overrides": overrides or []}
    training_id = training_name("rl", config_path, base_checkpoint, reference, settings)
    done = finished_run(store, run_id, training_id)
    if done is not None:
        logger.info("%s already trained: %s", training_id, done["checkpoint"])
        return done
    output = store.home / "training" / run_id / training_id
    current, metrics, began = base_checkpoint, [], time.perf_counter()
    for iteration in range(iterations):
        name = f"{training_id}-it{iteration}"
        row = finished_row(store, run_id, METRICS_TABLE, name,
                           {"training_id": training_id, "iteration": iteration})
        if row is None:
            row = _iteration(store, run_id, training_id, iteration, current, reference,
                             config_path, output / f"iter{iteration}", total, settings,
                             serve_command, threads, dask_address)
            row = record_row(store, run_id, METRICS_TABLE, name, row)
        metrics.append(row)
        current = row["checkpoint"]
        logger.info("%s iteration %d: reward %.3f, completion %.2f, loss %.4f, kl %.4f",
                    training_id, iteration, row["mean_reward"], row["completion_rate"],
                    row["loss"], row["kl"])
        create_table_artifact(key="train-rl-metrics", table=[
            {k: v for k, v in m.items() if k != "finished_at"} for m in metrics],
            description=f"{training_id}: metrics per RL iteration")
    summary = record_run(store, run_id, {
        "training_id": training_id, "kind": "rl", "recipe": "models/recipes/grpo_cfrr.py",
        "config_path": str(config_path),
        "config": json.dumps(load_config(config_path, overrides or []) | settings,
                             sort_keys=True, default=str),
        "base_checkpoint": base_checkpoint, "checkpoint": current,
        "data_path": None, "data_digest": None,
        "samples": sum(m["rollouts"] for m in metrics), "steps": len(metrics),
        "losses": [m["loss"] for m in metrics], "first_loss": metrics[0]["loss"],
        "final_loss": metrics[-1]["loss"], "tokens_per_second": None,
        "seconds": round(time.perf_counter() - began, 2)})
    refresh_catalog(store)
    return summary | {"iterations": metrics}


def _iteration(store: Store, run_id: str, training_id: str, iteration: int, checkpoint: str,
               reference: str, config: Path, output: Path, total: int,
               settings: dict[str, Any], serve_command: str | None, threads: int,
               dask_address: str | None) -> dict[str, Any]:
    """Serve `checkpoint`, roll it out, update: one iteration's metrics row."""
    skip, count = task_window(total, settings["tasks_per_iteration"], iteration)
    alpha, eps, beta = settings["cfrr"]
    began = time.perf_counter()
    with checkpoint_server(checkpoint, f"{training_id}-it{iteration}",
                           command=serve_command, threads=threads) as server:
        rolled = rollout_flow(
            run_id=run_id, policy="openai", base_url=server.base_url, model=server.model,
            action_mode=settings["action_mode"], mode=settings["mode"],
            group_size=settings["group_size"], tasks=count, skip=skip,
            seed=settings["seed"] + iteration, max_steps=settings["max_steps"],
            max_tokens=settings["max_tokens"], alpha=alpha, eps=eps, beta=beta,
            tasks_per_shard=count, dask_address=dask_address, home=str(store.home))
    seconds_rollout = time.perf_counter() - began
    stage = rolled["stage"]
    batch = samples_of(str(store.home), run_id, stage, str(output / "rollouts.jsonl"))
    train(str(config), [f"checkpoint_dir={checkpoint}", f"ref_checkpoint_dir={reference}",
                        f"rollouts={output / 'rollouts.jsonl'}", f"output_dir={output}",
                        f"seed={settings['seed'] + iteration}", *settings["overrides"]],
          str(output / "recipe.log"))
    update = json.loads((output / "metrics.json").read_text())
    return iteration_row(training_id, iteration, stage, batch["samples"], batch["rollouts"],
                         update, seconds_rollout)

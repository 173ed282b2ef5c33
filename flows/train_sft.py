"""train_sft_flow: a run's verified trajectories -> a fine-tuned checkpoint (torchtune)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from prefect import flow, task

from flows.export import export_flow
from flows.names import resolved_run_id, run_name
from flows.shards import stage_logger
from models.data import file_digest, read_trajectories
from models.tiny import build_tiny_model
from models.training import (
    final_checkpoint,
    finished_run,
    load_config,
    read_step_log,
    recipe_of,
    record_run,
    require_checkpoint,
    resolve_config,
    run_recipe,
    step_summary,
    training_name,
)
from storage.catalog import refresh_catalog
from storage.store import Store


@task(name="build-tiny-model")
def build_tiny(data_path: str, folder: str, seed: int) -> str:
    """The tiny test model, with its tokenizer trained on the exported trajectories."""
    if not (Path(folder) / "config.json").is_file():
        build_tiny_model(Path(folder), read_trajectories(data_path), seed=seed)
    return folder


@task(name="run-recipe")
def train(config: str, overrides: list[str], log_path: str) -> float:
    """The config's torchtune recipe in a subprocess, each output line logged."""
    logger = stage_logger()
    return run_recipe(Path(config), overrides, Path(log_path),
                      on_line=lambda line: logger.info("%s", line) if "|Loss" not in line
                      else None)


@flow(name="train-sft", flow_run_name=run_name("train-sft"))
def train_sft_flow(
    run_id: str | None = None,
    config: str = "models/configs/tiny_full.yaml",
    base_checkpoint: str | None = "tiny",
    chat_format: str | None = None,
    steps: int | None = None,
    overrides: list[str] | None = None,
    seed: int = 0,
    home: str | None = None,
) -> dict[str, Any]:
    """Fine-tune `base_checkpoint` (a Hugging Face folder; `tiny` builds the tiny test
    model from the run's own trajectories) on the run's SFT trajectories with the torchtune
    recipe of `config` (`steps` caps the steps per epoch; `overrides` are extra
    `key=value` config overrides). Exports the trajectories first, records a
    `training_runs` row (config, data digest, steps, losses, wall time) and returns it. A
    finished run with the same inputs is not trained again."""
    logger = stage_logger()
    store = Store.open(home)
    run_id = resolved_run_id(run_id)
    config_path = resolve_config(config)
    exported = export_flow(run_id=run_id, kind="sft", home=str(store.home))
    if not exported["lines"]:
        raise ValueError(f"run {run_id!r} has no verified trajectories to train on")
    data_path, digest = exported["path"], file_digest(exported["path"])
    if base_checkpoint == "tiny":
        base_checkpoint = build_tiny(
            data_path, str(store.home / "models" / run_id / f"tiny-{digest[:10]}"), seed)
    if base_checkpoint is None:
        base_checkpoint = str(load_config(config_path, overrides or [])["checkpoint_dir"])
    require_checkpoint(base_checkpoint, "base_checkpoint")
    extra = list(overrides or [])
    if chat_format:
        extra.append(f"dataset.chat_format={chat_format}")
    if steps:
        extra.append(f"max_steps_per_epoch={steps}")
    extra.append(f"seed={seed}")
    training_id = training_name("sft", config_path, base_checkpoint, digest, extra)
    done = finished_run(store, run_id, training_id)
    if done is not None:
        logger.info("%s already trained: %s", training_id, done["checkpoint"])
        return done
    output_dir = store.home / "training" / run_id / training_id
    overrides_all = [f"checkpoint_dir={base_checkpoint}", f"dataset.source={data_path}",
                     f"output_dir={output_dir}", *extra]
    resolved = load_config(config_path, overrides_all)
    logger.info("%s: %s on %d trajectories from %s", training_id, recipe_of(config_path),
                exported["lines"], base_checkpoint)
    seconds = train(str(config_path), overrides_all, str(output_dir / "recipe.log"))
    row = {
        "training_id": training_id, "kind": "sft", "recipe": recipe_of(config_path),
        "config_path": str(config_path),
        "config": json.dumps(resolved, sort_keys=True, default=str),
        "base_checkpoint": base_checkpoint,
        "checkpoint": str(final_checkpoint(output_dir)), "data_path": data_path,
        "data_digest": digest, "samples": exported["lines"], "seconds": round(seconds, 2),
    } | step_summary(read_step_log(output_dir / "logs"))
    record_run(store, run_id, row)
    refresh_catalog(store)
    logger.info("%s: %d steps, loss %.3f -> %.3f, %.1f s; checkpoint %s", training_id,
                row["steps"], row["first_loss"], row["final_loss"], seconds, row["checkpoint"])
    return row


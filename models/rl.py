"""What one RL iteration reads and records around the GRPO update.

An iteration rolls the served checkpoint out on a batch of RL tasks (a rollout stage of its
own, named after the checkpoint), turns that stage's rollouts and CFRR rewards into the
recipe's input (one JSONL line per rollout: messages, tools, advantage), and records the
iteration's metrics: mean reward, completion rate (rollouts that passed every criterion),
and the update's loss, KL and clip fraction.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from storage.store import Store

METRICS_TABLE = "training_metrics"


def task_window(total: int, per_iteration: int, iteration: int) -> tuple[int, int]:
    """`(skip, count)` of iteration `iteration`'s tasks: consecutive batches of
    `per_iteration` verified tasks, starting over at the first when the set runs out."""
    if total < 1 or per_iteration < 1:
        raise ValueError("an RL iteration needs at least one task")
    per_iteration = min(per_iteration, total)
    batches = max(total // per_iteration, 1)
    return (iteration % batches) * per_iteration, per_iteration


def stage_files(store: Store, table: str, run_id: str, stage: str) -> list[str]:
    """The files of one stage in `table` (`<stage>-<shard>`; a longer stage name that
    starts with this one is another stage)."""
    pattern = re.compile(re.escape(stage) + r"-\d{5}")
    return [name for name in store.files(table, run_id) if pattern.fullmatch(name)]


def rollout_samples(store: Store, run_id: str, stage: str) -> tuple[list[dict[str, Any]],
                                                                    list[dict[str, Any]]]:
    """The recipe's samples of a rollout stage (rollouts that reached the model, with their
    group's CFRR advantage), and every rollout row of the stage (for the metrics)."""
    rollouts = store.read("rollouts", run_id, files=stage_files(store, "rollouts", run_id,
                                                                stage))
    rewards = {(r["group_id"], r["rollout_idx"]): r for r in store.read(
        "rewards", run_id, files=stage_files(store, "rewards", run_id, stage))}
    samples = []
    for row in sorted(rollouts, key=lambda r: (r["group_id"], r["rollout_idx"])):
        reward = rewards.get((row["group_id"], row["rollout_idx"]))
        if row["status"] != "ok" or reward is None or reward["excluded"]:
            continue
        samples.append({
            "group_id": row["group_id"], "task_id": row["task_id"],
            "rollout_idx": row["rollout_idx"], "advantage": reward["advantage"],
            "reward": reward["reward"], "messages": json.loads(row["messages"]),
            "tools": json.loads(row["tools"]),
        })
    return samples, rollouts


def write_samples(samples: list[dict[str, Any]], path: Path) -> Path:
    """The samples as the recipe's JSONL input."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for sample in samples:
            out.write(json.dumps(sample, ensure_ascii=False) + "\n")
    return path


def iteration_row(training_id: str, iteration: int, stage: str,
                  samples: list[dict[str, Any]], rollouts: list[dict[str, Any]],
                  update: dict[str, Any], seconds_rollout: float) -> dict[str, Any]:
    """The `training_metrics` row of one iteration, from its rollouts and the recipe's
    `metrics.json`."""
    ok = [r for r in rollouts if r["status"] == "ok"]
    scored = len(ok) or 1
    return {
        "training_id": training_id, "iteration": iteration, "rollout_stage": stage,
        "checkpoint": update["checkpoint"],
        "tasks": len({r["task_id"] for r in rollouts}), "rollouts": len(rollouts),
        "infra_errors": len(rollouts) - len(ok),
        "mean_reward": sum(s["reward"] for s in samples) / (len(samples) or 1),
        "completion_rate": sum(r["score"] == 1.0 for r in ok) / scored,
        "mean_rubric_score": sum(r["rubric_score"] for r in ok) / scored,
        "nonzero_advantages": sum(abs(s["advantage"]) > 1e-9 for s in samples),
        "loss": update["loss"], "kl": update["kl"],
        "clip_fraction": update["clip_fraction"], "grad_norm": update["grad_norm"],
        "tokens_trained": update["tokens_trained"],
        "seconds_rollout": round(seconds_rollout, 2),
        "seconds_update": round(update["seconds"], 2),
    }

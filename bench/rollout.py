"""Rollout benchmark: environment + scoring time against model time, reference rollouts/s.

One run over the verified tasks of a stored run, two measurements side by side:
  reference  the `reference` policy (no model) on `--tasks` tasks in both tool views, in
             this process (one core): rollouts per second, and seconds per rollout in the
             environment and scoring;
  model      the `openai` policy against the local llama.cpp server with SmolLM2-135M
             (`compoworld serve-llm`, started here) in json-action mode on `--model-tasks`
             tasks: the share of each rollout's wall time spent in the environment and
             scoring versus waiting for the model (aim: under 1%).

    python bench/rollout.py --home DIR --run-id ID [--tasks 200] [--model-tasks 6]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from typing import Any


def load(home: str, run_id: str, count: int) -> tuple[Any, list[Any]]:
    from compoworld.compose.library import ServiceLibrary
    from compoworld.compose.stage import task_from_row
    from storage.store import Store

    store = Store.open(home)
    rows = sorted((r for r in store.read("tasks", run_id) if r["verified"]),
                  key=lambda r: r["task_id"])
    if not rows:
        sys.exit(f"run {run_id!r} in {store.home} has no verified tasks: run `compoworld "
                 f"compose --run-id {run_id}` first")
    return ServiceLibrary.from_store(store, run_id), [task_from_row(r) for r in rows[:count]]


def reference(library: Any, tasks: list[Any], mode: str) -> dict[str, float]:
    from compoworld.rollout.episode import Episode, run_episodes
    from compoworld.rollout.policies import ReferencePolicy

    episodes = [Episode(t, ReferencePolicy(t, mode), mode, t.task_id, 0) for t in tasks]
    began = time.perf_counter()
    rollouts = asyncio.run(run_episodes(episodes, library, concurrency=8))
    wall = time.perf_counter() - began
    return {"rollouts": len(rollouts), "wall": wall, "per_s": len(rollouts) / wall,
            "solved": sum(r.score for r in rollouts) / len(rollouts),
            "env_ms": 1000 * statistics.mean(r.seconds_env for r in rollouts)}


def with_model(library: Any, tasks: list[Any], mode: str) -> dict[str, float]:
    from compoworld.llm import LLMClient
    from compoworld.rollout.episode import Episode, run_episodes
    from compoworld.rollout.openai_policy import OpenAIPolicy
    from compoworld.serve import LLMServer

    with LLMServer() as server:
        client = LLMClient(server.base_url, server.model, timeout=120)
        episodes = [Episode(t, OpenAIPolicy(client, "json-action", seed=1), mode, t.task_id, 0)
                    for t in tasks]
        began = time.perf_counter()
        rollouts = asyncio.run(run_episodes(episodes, library, concurrency=2))
        wall = time.perf_counter() - began
    env = sum(r.seconds_env for r in rollouts)
    model = sum(r.seconds_model for r in rollouts)
    return {"rollouts": len(rollouts), "wall": wall, "env_s": env, "model_s": model,
            "share": env / (env + model), "steps": statistics.mean(r.n_steps for r in rollouts),
            "tokens": sum(r.completion_tokens for r in rollouts),
            "infra": sum(r.status == "infra_error" for r in rollouts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", default=os.environ.get("COMPOWORLD_HOME", "data"))
    parser.add_argument("--run-id", required=True)
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--model-tasks", type=int, default=6)
    parser.add_argument("--skip-model", action="store_true")
    args = parser.parse_args()
    from compoworld.rollout.env import Environment

    library, tasks = load(args.home, args.run_id, args.tasks)
    print(f"run {args.run_id}: {len(tasks)} verified tasks")
    began = time.perf_counter()
    for task in tasks:  # mount every service once, so neither view pays for it
        Environment(task, library, "direct")
    print(f"mounting the tasks' services and distractors once: {time.perf_counter() - began:.1f} s"
          " (not counted below)")
    print(f"{'reference policy, one process':34}{'direct':>12}{'gateway':>12}")
    direct, gateway = reference(library, tasks, "direct"), reference(library, tasks, "gateway")
    for label, key, fmt in (("rollouts", "rollouts", ".0f"), ("wall s", "wall", ".2f"),
                            ("rollouts / s (one core)", "per_s", ".1f"),
                            ("env + scoring ms / rollout", "env_ms", ".2f"),
                            ("share solved", "solved", ".3f")):
        print(f"{label:34}{direct[key]:>12{fmt}}{gateway[key]:>12{fmt}}")
    if args.skip_model:
        return
    result = with_model(library, tasks[: args.model_tasks], "gateway")
    print(f"\nopenai policy (SmolLM2-135M, llama.cpp on this CPU, json-action, gateway), "
          f"{result['rollouts']:.0f} rollouts in {result['wall']:.1f} s, "
          f"{result['steps']:.1f} steps each, {result['tokens']:.0f} completion tokens, "
          f"{result['infra']:.0f} infra errors")
    print(f"  waiting for the model      {result['model_s']:10.2f} s")
    print(f"  environment and scoring    {result['env_s']:10.4f} s")
    print(f"  env + scoring share        {100 * result['share']:10.3f} %   (aim: under 1%)")


if __name__ == "__main__":
    main()

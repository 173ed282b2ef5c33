"""The `export` stage: verified trajectories for SFT and the RL task set.

SFT rows are the rollouts that passed every criterion (`score` 1, status `ok`) and end with
the assistant's final message (content and no tool calls: `ends_with_answer`), in
CompoWorld's released format: one object per trajectory with `tools` (OpenAI function
schemas), `messages` (OpenAI chat format: system, user, assistant with `tool_calls`, `tool`
with `tool_call_id` and `name`), `meta` and `source`. They are stored in the `sft` table
(JSON columns) and written as JSONL by `write_jsonl`. RL rows are the verified tasks with
their rubrics (`rl_tasks`): what the RL recipe rolls out and rewards, with their operators,
hops and difficulty; `min_difficulty` keeps only the tasks that hard or harder.

A rollout can pass every criterion and still end on a `tool` message: a task that asks
for no answer, worked by a policy that spent its step budget on the last call (the issue
counted 118 such rows of 8,700 in the default run: noisy rollouts). Trained on, such a
row teaches a model to stop without answering, and the released format requires a final
assistant message, so it is left out of the SFT set (and logged with the count).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import orjson

from compoworld.shards import Shard

logger = logging.getLogger("compoworld.export")

META_KEYS = ("task_id", "rollout_idx", "rubric_score", "score", "net_score", "n_tool_calls",
             "n_real_tool_calls", "n_steps", "discover_mode", "finish_reason", "services",
             "domain", "capabilities")


def sft_record(row: dict[str, Any], domain: str) -> dict[str, Any]:
    """The released-format object of one `rollouts` row."""
    meta = {key: row.get(key) for key in META_KEYS}
    meta |= {"discover_mode": row["mode"], "domain": domain,
             "services": list(row["services"]), "capabilities": list(row["capabilities"])}
    return {
        "tools": orjson.loads(row["tools"]),
        "messages": orjson.loads(row["messages"]),
        "meta": meta,
        "source": {"policy": row["policy"], "model": row["model"]},
    }


def ends_with_answer(messages: list[dict[str, Any]]) -> bool:
    """Whether a trajectory's last message is the assistant's final answer: an assistant
    message with text content and no tool calls."""
    last = messages[-1] if messages else {}
    return (last.get("role") == "assistant" and isinstance(last.get("content"), str)
            and bool(last["content"].strip()) and not last.get("tool_calls"))


def _domains(store: Any, run_id: str) -> dict[str, str]:
    return {r["service"]: r["domain"]
            for r in store.read("services", run_id, columns=["service", "domain"])}


def export_items(store: Any, run_id: str, kind: str) -> list[str]:
    """What an export's shards hold: for `sft` the run's `rollouts` files (one at a time:
    direct-view rollouts carry every tool schema, and a whole run does not fit in a
    worker's memory), for `rl` the one item `rl`."""
    if kind == "sft":
        return store.files("rollouts", run_id)
    if kind == "rl":
        return ["rl"]
    raise ValueError(f"unknown export {kind!r}; choose sft or rl")


def export_shard(shard: Shard, store: Any) -> dict[str, list[dict[str, Any]]]:
    """The stage's work function: the SFT rows of a few `rollouts` files, or the RL set."""
    domains = _domains(store, shard.run_id)
    if shard.stage == "export-sft":
        rows = [row for name in shard.items for row in store.read(
            "rollouts", shard.run_id, equal={"score": 1.0, "status": "ok"}, files=[name])]
        rows.sort(key=lambda r: (r["task_id"], r["policy"], r["rollout_idx"]))
        records = [sft_record(r, domains.get(r["services"][0], "other")) for r in rows]
        kept = [r for r in records if ends_with_answer(r["messages"])]
        if len(kept) < len(records):
            logger.info("export-sft %s: left out %d of %d passing rollouts that end without "
                        "a final answer", shard.items, len(records) - len(kept), len(records))
        return {"sft": [
            {"task_id": r["meta"]["task_id"], "rollout_idx": r["meta"]["rollout_idx"],
             "policy": r["source"]["policy"], "model": r["source"]["model"],
             "tools": orjson.dumps(r["tools"]).decode(),
             "messages": orjson.dumps(r["messages"]).decode(),
             "meta": orjson.dumps(r["meta"]).decode(),
             "source": orjson.dumps(r["source"]).decode()}
            for r in kept
        ]}
    if shard.stage == "export-rl":
        least = shard.params.get("min_difficulty", 1)
        tasks = sorted((r for r in store.read("tasks", shard.run_id) if r["verified"]
                        and (r.get("difficulty") or 1) >= least), key=lambda r: r["task_id"])
        keys = ("task_id", "instruction", "services", "distractors", "world_seed", "rubric",
                "answer", "step_budget", "capabilities", "n_calls", "n_services")
        return {"rl_tasks": [{k: r[k] for k in keys}
                             | {"domain": domains.get(r["services"][0], "other"),
                                "operators": list(r.get("operators") or []),
                                "hops": r.get("hops") or 0,
                                "difficulty": r.get("difficulty") or 1,
                                "world_patch": r.get("world_patch") or "[]"}
                             for r in tasks]}
    raise ValueError(f"unknown export shard {shard.stage} {shard.items}")


def write_jsonl(store: Any, run_id: str, table: str, path: Path) -> int:
    """Write an exported table as JSONL (one object per line; JSON columns inlined),
    atomically: a reader never sees half a file. Returns the number of lines."""
    json_columns = {"tools", "messages", "meta", "source", "rubric", "answer", "world_patch"}
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    lines = 0
    with temporary.open("w", encoding="utf-8") as out:
        for row in (r for name in store.files(table, run_id)
                    for r in store.read(table, run_id, files=[name])):
            lines += 1
            if table == "sft":
                record = {k: orjson.loads(row[k]) for k in ("tools", "messages", "meta",
                                                            "source")}
            else:
                record = {k: orjson.loads(v) if k in json_columns and isinstance(v, str) else v
                          for k, v in row.items()}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    temporary.replace(path)
    return lines

"""The SFT export keeps only trajectories that end with the assistant's final message, on
real rollouts and a real export shard (Parquet in, Parquet out)."""

from __future__ import annotations

import json

import pytest

from compoworld.rollout.export import ends_with_answer, export_items
from storage.store import Store
from tests.rollout.helpers import RUN, rollout_params, run_shard

pytestmark = pytest.mark.slow  # builds `sft_run` (the composed built-in tasks) once


def test_sft_rows_end_with_the_assistant_final_message(rollout_store: Store):
    # Reference rollouts capped at two calls spend their budget on the second: on a
    # two-call task that asks for no answer they pass every criterion and end on a tool
    # message, as noisy rollouts that spend their budget do in a full run.
    tasks = sorted(r["task_id"] for r in rollout_store.read("tasks", RUN) if r["verified"])
    summary, _ = run_shard(rollout_store, "rollout-capped", "compoworld.rollout.stage:"
                           "rollout_shard", tasks, rollout_params(
                               "reference", mode="direct", group_size=1, max_steps=2))
    assert isinstance(summary, dict), summary
    capped = [r for r in rollout_store.read("rollouts", RUN, files=["rollout-capped-00000"])
              if r["score"] == 1.0 and r["status"] == "ok"]
    endings = [json.loads(r["messages"])[-1]["role"] for r in capped]
    assert endings and set(endings) == {"tool"}  # passed, then ran out of steps
    summary, _ = run_shard(rollout_store, "export-sft", "compoworld.rollout.export:"
                           "export_shard", export_items(rollout_store, RUN, "sft"), {})
    assert isinstance(summary, dict), summary
    rows = rollout_store.read("sft", RUN, files=["export-sft-00000"])
    assert rows  # sft_run's own (gateway) reference rollouts, which all answer
    for row in rows:
        last = json.loads(row["messages"])[-1]
        assert last["role"] == "assistant" and last["content"] and "tool_calls" not in last
    modes = {json.loads(r["meta"])["discover_mode"] for r in rows}
    assert modes == {"gateway"}  # the capped (direct) rollouts are left out


@pytest.mark.parametrize(("last", "kept"), [
    ({"role": "assistant", "content": "The id is 7."}, True),
    ({"role": "tool", "tool_call_id": "c1", "name": "t", "content": "{}"}, False),
    ({"role": "assistant", "content": None, "tool_calls": [{"id": "c1"}]}, False),
    ({"role": "assistant", "content": "  "}, False),
    ({"role": "user", "content": "Your reply was not valid JSON"}, False),
])
def test_ends_with_answer(last: dict, kept: bool):
    assert ends_with_answer([{"role": "system", "content": "s"}, last]) is kept

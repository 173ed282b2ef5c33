"""rollout_flow and export_flow end to end under Prefect and Dask, on built-in tasks."""

from __future__ import annotations

import json

import pytest

from flows.export import export_flow
from flows.rollout import NothingToRollOut, rollout_flow
from storage.catalog import run_query
from storage.store import Store
from tests.flows.helpers import composed_builtin_store, free_port

pytestmark = pytest.mark.slow

META = {"task_id", "rollout_idx", "rubric_score", "score", "net_score", "n_tool_calls",
        "n_real_tool_calls", "n_steps", "discover_mode", "finish_reason", "services", "domain",
        "capabilities"}


@pytest.fixture(scope="module")
def rolled(prefect_harness, tmp_path_factory) -> Store:
    store = composed_builtin_store(tmp_path_factory.mktemp("rollout"), "r", tasks=12,
                                   per_shard=6)
    home = str(store.home)
    for mode in ("gateway", "direct"):
        rollout_flow(run_id="r", policy="reference", mode=mode, group_size=2,
                     tasks_per_shard=6, home=home)
    rollout_flow(run_id="r", policy="noisy", mode="gateway", group_size=6, tasks_per_shard=6,
                 home=home)
    return store


def test_the_reference_policy_solves_every_task_in_both_modes(rolled: Store):
    _, rows = run_query(rolled, "select mode, count(*), min(score), count(distinct task_id) "
                                "from rollouts where policy = 'reference' group by 1 order by 1")
    assert rows == [("direct", 24, 1.0, 12), ("gateway", 24, 1.0, 12)]


def test_noisy_groups_have_varied_rewards_and_stored_cfrr_params(rolled: Store):
    _, rows = run_query(rolled, "select max(abs(s)) from (select sum(advantage) s "
                                "from rewards where policy = 'noisy' group by group_id)")
    assert rows[0][0] < 1e-6  # advantages are centred in every group
    _, rows = run_query(
        rolled,
        "select count(distinct group_id) filter (where spread > 0), count(distinct group_id) "
        "from (select group_id, max(reward) - min(reward) spread from rewards "
        "where policy = 'noisy' group by 1)",
    )
    varied, groups = rows[0]
    assert groups == 12 and varied >= 3
    _, rows = run_query(rolled, "select distinct alpha, eps, beta from rewards")
    assert rows == [(1.0, 0.05, 0.5)]
    _, rows = run_query(rolled, "select min(score), max(score) from rollouts "
                                "where policy = 'noisy'")
    assert rows == [(0.0, 1.0)]


def test_export_sft_matches_the_released_format(rolled: Store, tmp_path):
    out = tmp_path / "sft.jsonl"
    summary = export_flow(run_id="r", kind="sft", out=str(out), home=str(rolled.home))
    lines = out.read_text(encoding="utf-8").splitlines()
    _, rows = run_query(rolled, "select count(*) from rollouts where score = 1 and "
                                "status = 'ok' and finish_reason = 'answer' and "
                                "trim(final_answer) <> ''")
    _, passing = run_query(rolled, "select count(*) from rollouts where score = 1 and "
                                   "status = 'ok'")
    assert summary["lines"] == len(lines) == rows[0][0] > 0
    assert summary["dropped"] == passing[0][0] - len(lines)
    for line in lines:
        record = json.loads(line)
        assert set(record) == {"tools", "messages", "meta", "source"}
        assert set(record["meta"]) == META
        assert set(record["source"]) == {"policy", "model"}
        assert all(t["type"] == "function" and {"name", "description", "parameters"}
                   <= set(t["function"]) for t in record["tools"])
        roles = [m["role"] for m in record["messages"]]
        assert roles[:2] == ["system", "user"] and roles[-1] == "assistant"
        calls = {c["id"] for m in record["messages"] for c in m.get("tool_calls") or []}
        for message in record["messages"]:
            if message["role"] == "tool":
                assert message["tool_call_id"] in calls and message["name"]
            if message.get("tool_calls"):
                for call in message["tool_calls"]:
                    assert call["type"] == "function"
                    json.loads(call["function"]["arguments"])
        assert record["meta"]["score"] == 1.0
        assert record["meta"]["discover_mode"] in ("direct", "gateway")


def test_export_rl_writes_the_verified_tasks_with_rubrics(rolled: Store, tmp_path):
    out = tmp_path / "rl.jsonl"
    summary = export_flow(run_id="r", kind="rl", out=str(out), home=str(rolled.home))
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert summary["lines"] == len(records) == 12
    assert all(r["rubric"] and r["instruction"] and len(r["services"]) >= 2 for r in records)
    assert all(1 <= r["difficulty"] <= 5 and r["hops"] >= 1 for r in records)


def test_export_rl_keeps_the_tasks_of_a_difficulty_or_more(rolled: Store, tmp_path):
    """Sampling by difficulty: `min_difficulty` keeps the harder tasks, each of them."""
    out = tmp_path / "hard.jsonl"
    _, rows = run_query(rolled, "select difficulty, count(*) from tasks where verified "
                                "group by 1 order by 1")
    assert len(rows) >= 2, rows  # (the run holds easier and harder tasks)
    least = rows[-1][0]
    export_flow(run_id="r", kind="rl", out=str(out), min_difficulty=least,
                home=str(rolled.home))
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == rows[-1][1] and all(r["difficulty"] >= least for r in records)


def test_rollout_without_tasks_is_refused(prefect_harness, store: Store):
    with pytest.raises(NothingToRollOut, match="compoworld compose --run-id none"):
        rollout_flow(run_id="none", home=str(store.home))


def test_an_endpoint_that_is_down_fails_the_stage_and_a_rerun_redoes_it(rolled: Store):
    from flows.shards import StageFailed

    dead = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(StageFailed, match="could not reach the endpoint"):
        rollout_flow(run_id="r", policy="openai", base_url=dead, model="m", tasks=2,
                     group_size=1, timeout=1, home=str(rolled.home))
    _, rows = run_query(rolled, "select status, error from stage_runs where run_id = 'r' "
                                "and stage like 'rollout-openai-%'")
    assert [status for status, _ in rows] == ["failed"]
    assert rows[0][1].startswith("EndpointDown: 2 of 2 rollouts could not reach")
    _, rows = run_query(rolled, "select count(*) from rollouts where policy = 'openai'")
    assert rows == [(0,)]  # nothing recorded as done: a rerun runs the shard again

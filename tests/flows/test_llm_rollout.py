"""SmolLM2-135M through the local llama.cpp server: rollouts end to end through Parquet.

The tiny model rarely solves a task; these tests check that its rollouts are well-formed,
scored and rewarded, in the gateway view with json-action replies and with native tool
calls, not that it succeeds.
"""

from __future__ import annotations

import json

import pytest

from compoworld.serve import LLMServer
from flows.rollout import rollout_flow
from storage.catalog import run_query
from storage.store import Store
from tests.flows.helpers import composed_builtin_store

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    with LLMServer() as running:
        yield running


@pytest.fixture(scope="module")
def store(prefect_harness, tmp_path_factory) -> Store:
    return composed_builtin_store(tmp_path_factory.mktemp("llm"), "m", tasks=4, per_shard=4)


@pytest.mark.parametrize("action_mode", ["json-action", "tools"])
def test_smollm2_rollouts_are_well_formed_and_scored(server, store: Store, action_mode):
    summary = rollout_flow(run_id="m", policy="openai", mode="gateway", group_size=2, tasks=2,
                           base_url=server.base_url, model=server.model,
                           action_mode=action_mode, concurrency=2, max_tokens=96, max_steps=4,
                           timeout=120, home=str(store.home))
    assert summary["ran"] == 1
    _, rows = run_query(
        store,
        "select r.status, r.model, r.messages, r.passes, r.rubric_score, r.score, r.n_steps, "
        "t.rubric, w.reward, w.advantage from rollouts r join tasks t using (run_id, task_id) "
        "join rewards w using (run_id, group_id, rollout_idx) where r.policy = 'openai' "
        "and w.policy = 'openai'",
    )
    # each action mode is a stage of its own, kept beside the other
    _, stages = run_query(store, "select count(distinct stage) from stage_runs where stage "
                                 "like 'rollout-openai-%' and status = 'done'")
    assert len(rows) == 4 * stages[0][0]
    assert all(steps <= 5 for *_, steps, _r, _w, _a in rows)
    for status, model, messages, passes, rubric_score, score, steps, rubric, reward, adv in rows:
        assert status == "ok" and model == server.model
        messages = json.loads(messages)
        assert [m["role"] for m in messages[:2]] == ["system", "user"]
        assert all(m["role"] in ("assistant", "tool", "user") for m in messages[2:])
        assert len(passes) == len(json.loads(rubric))
        assert 0.0 <= rubric_score <= 1.0 and score in (0.0, 1.0) and steps >= 1
        assert reward is not None and adv is not None

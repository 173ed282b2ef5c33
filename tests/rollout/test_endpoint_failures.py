"""A misbehaving model endpoint fails rollouts, never a crashed or endless shard: malformed
replies are retried then `infra_error`; when the endpoint is down (rate limited for good,
hanging) the shard's circuit breaker stops it fast with EndpointDown, recorded as failed so
that Prefect retries it and a rerun redoes it. One shard attempt, through real Parquet."""

from __future__ import annotations

import json

import pytest

from compoworld.rollout.episode import EndpointDown
from storage.store import Store
from tests.rollout.endpoints import Endpoint, hanging_endpoint, malformed, ok, rate_limited
from tests.rollout.helpers import RUN, rollout_params, run_shard, stage_run, task_ids

pytestmark = pytest.mark.slow  # builds `sft_run` (the composed built-in tasks) once

WORK = "compoworld.rollout.stage:rollout_shard"
ANSWER = json.dumps({"answer": "Done."})  # a json-action final answer: one call per rollout


def openai_rollout(store: Store, stage: str, base_url: str, tasks: int, **overrides):
    """One attempt of a rollout shard of the `openai` policy against `base_url`."""
    params = rollout_params("openai", base_url=base_url, model="m", **overrides)
    return run_shard(store, stage, WORK, task_ids(store, tasks), params)


def test_malformed_replies_are_infra_errors_not_a_crash(rollout_store: Store):
    with Endpoint(lambda n: malformed()) as endpoint:
        outcome, _ = openai_rollout(rollout_store, "rollout-malformed", endpoint.base_url,
                                    tasks=1, group_size=2, concurrency=2)
    assert isinstance(outcome, EndpointDown), outcome
    assert str(outcome).startswith("2 of 2 rollouts could not reach the endpoint")
    assert "JSONDecodeError" in str(outcome)
    assert len(endpoint.requests) == 2 * 4  # each rollout's one call, tried four times
    row = stage_run(rollout_store, "rollout-malformed")
    assert row["status"] == "failed" and row["error"].startswith("EndpointDown: ")


def test_one_malformed_reply_in_ten_is_retried_and_the_shard_succeeds(rollout_store: Store):
    with Endpoint(lambda n: malformed() if n % 10 == 9 else ok(ANSWER)) as endpoint:
        outcome, _ = openai_rollout(rollout_store, "rollout-one-in-ten", endpoint.base_url,
                                    tasks=3, group_size=4, concurrency=4)
    assert isinstance(outcome, dict), outcome
    assert outcome["tables"]["rollouts"] == 12
    assert len(endpoint.requests) == 12 + 1  # request 9 was malformed and retried
    rows = rollout_store.read("rollouts", RUN, files=["rollout-one-in-ten-00000"])
    assert [r["status"] for r in rows] == ["ok"] * 12
    assert all(r["final_answer"] == "Done." for r in rows)
    assert stage_run(rollout_store, "rollout-one-in-ten")["status"] == "done"


def test_a_rate_limited_endpoint_fails_the_shard_within_one_retry_budget(rollout_store: Store):
    # 3 tasks x 8 rollouts: 256 s per attempt (768 s for Prefect's three) before the breaker
    # and the retry budget; now the first wave's calls give up after one 20 s wait.
    with Endpoint(lambda n: rate_limited("20")) as endpoint:
        outcome, seconds = openai_rollout(rollout_store, "rollout-429", endpoint.base_url,
                                          tasks=3)
    assert isinstance(outcome, EndpointDown), outcome
    assert seconds < 40
    assert "were not attempted" in str(outcome) and "retry budget" in str(outcome)
    assert len(endpoint.requests) <= 8 * 2  # the first 8 rollouts, two tries each
    assert stage_run(rollout_store, "rollout-429")["status"] == "failed"


def test_a_hanging_endpoint_fails_the_shard_within_the_client_timeout(rollout_store: Store):
    with hanging_endpoint() as url:
        outcome, seconds = openai_rollout(rollout_store, "rollout-hanging", url, tasks=3,
                                          timeout=1.0, retry_budget=2.0)
    assert isinstance(outcome, EndpointDown), outcome
    assert "Timeout" in str(outcome) and "were not attempted" in str(outcome)
    assert seconds < 10  # one wave: two 1 s tries and a 0.5 s wait per call

"""CFRR: a hand-worked group, properties of the weights, rewards and advantages, and
scoring a group that holds infrastructure failures."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compoworld.reward.cfrr import (
    CFRRParams,
    binary_rewards,
    cfrr_rewards,
    criterion_weights,
    grpo_advantages,
    rubric_rewards,
    score_group,
)

# Three rollouts, three criteria: pass rates 1, 2/3, 1/3.
PASSES = [[True, True, False], [True, False, False], [True, True, True]]


def population_std(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


# --- a hand-computed group ---------------------------------------------------------------


def test_hand_computed_group() -> None:
    # raw weights 0 + .05, 1/3 + .05, 2/3 + .05 sum to 1.15: normalised 1/23, 1/3, 43/69
    weights = criterion_weights(PASSES)
    assert weights == pytest.approx([1 / 23, 1 / 3, 43 / 69], abs=1e-9)
    rewards = cfrr_rewards(PASSES)
    assert rewards == pytest.approx([26 / 69, 3 / 69, 1 + 0.5], abs=1e-9)
    # in 207ths: mean 132.5, deviations -54.5, -123.5, 178
    std = math.sqrt((54.5**2 + 123.5**2 + 178**2) / 3) / 207
    expected = [d / 207 / (std + 1e-6) for d in (-54.5, -123.5, 178)]
    assert grpo_advantages(rewards) == pytest.approx(expected, abs=1e-9)
    assert rubric_rewards(PASSES) == pytest.approx([2 / 3, 1 / 3, 1], abs=1e-9)
    assert binary_rewards(PASSES) == [0.0, 0.0, 1.0]


def test_hand_computed_params() -> None:
    # alpha 2, eps .1: raw 9/90, 19/90, 49/90 sum to 77/90
    params = CFRRParams(alpha=2.0, eps=0.1, beta=0.0)
    weights = criterion_weights(PASSES, params)
    assert weights == pytest.approx([9 / 77, 19 / 77, 49 / 77], abs=1e-9)
    assert cfrr_rewards(PASSES, params) == pytest.approx([28 / 77, 9 / 77, 1.0], abs=1e-9)
    # alpha 0 switches the focus off: uniform weights, the rubric share plus the bonus
    flat = CFRRParams(alpha=0.0, beta=0.5)
    assert criterion_weights(PASSES, flat) == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert cfrr_rewards(PASSES, flat) == pytest.approx([2 / 3, 1 / 3, 1.5], abs=1e-9)


def test_single_rollout_and_ties_get_zero_advantage() -> None:
    assert grpo_advantages(cfrr_rewards([[True, False]])) == [0.0]
    assert grpo_advantages([0.3, 0.3, 0.3]) == [0.0, 0.0, 0.0]
    assert grpo_advantages([]) == []
    assert cfrr_rewards([]) == []


@pytest.mark.parametrize("passes, message", [
    ([[], []], "no criteria"),
    ([[True, False], [True]], "same rubric"),
    ([[True, 2]], "True/False"),
    ([[True, None]], "True/False"),
])
def test_malformed_pass_matrix(passes: list[list[Any]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cfrr_rewards(passes)


def test_weights_need_a_rollout() -> None:
    with pytest.raises(ValueError, match="at least one rollout"):
        criterion_weights([])


@pytest.mark.parametrize("kwargs, message", [
    ({"alpha": -0.5}, "alpha must be >= 0"),
    ({"eps": 0.0}, "eps must be > 0"),
    ({"beta": -1.0}, "beta must be >= 0"),
    ({"alpha": math.nan}, "alpha must be finite"),
    ({"beta": "0.5"}, "beta must be a number"),
])
def test_params_are_validated(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CFRRParams(**kwargs)


# --- properties ---------------------------------------------------------------------------

params_strategy = st.builds(
    CFRRParams,
    alpha=st.floats(min_value=0.0, max_value=4.0),
    eps=st.floats(min_value=1e-3, max_value=1.0),
    beta=st.floats(min_value=0.0, max_value=2.0),
)


@st.composite
def pass_matrices(draw: st.DrawFn) -> list[list[bool]]:
    group = draw(st.integers(min_value=1, max_value=8))
    criteria = draw(st.integers(min_value=1, max_value=10))
    row = st.lists(st.booleans(), min_size=criteria, max_size=criteria)
    return draw(st.lists(row, min_size=group, max_size=group))


@st.composite
def equal_rate_matrices(draw: st.DrawFn) -> list[list[bool]]:
    """Every criterion passed by the same number of rollouts, by different rollouts."""
    group = draw(st.integers(min_value=1, max_value=8))
    criteria = draw(st.integers(min_value=1, max_value=10))
    passed = draw(st.integers(min_value=0, max_value=group))
    base = [True] * passed + [False] * (group - passed)
    columns = [draw(st.permutations(base)) for _ in range(criteria)]
    return [list(row) for row in zip(*columns, strict=True)]


@settings(derandomize=True, max_examples=200)
@given(pass_matrices(), params_strategy)
def test_weights_favour_rarely_passed_criteria(passes: list[list[bool]],
                                               params: CFRRParams) -> None:
    weights = criterion_weights(passes, params)
    assert sum(weights) == pytest.approx(1.0, abs=1e-12)
    assert all(w > 0 for w in weights)
    rates = [sum(column) / len(passes) for column in zip(*passes, strict=True)]
    for rate_a, weight_a in zip(rates, weights, strict=True):
        for rate_b, weight_b in zip(rates, weights, strict=True):
            if rate_a < rate_b:
                assert weight_a >= weight_b
    normaliser = sum((1 - rate) ** params.alpha + params.eps for rate in rates)
    for rate, weight in zip(rates, weights, strict=True):
        if rate == 1.0:
            assert weight == min(weights)
            if params.alpha > 0:
                assert weight == pytest.approx(params.eps / normaliser, rel=1e-12)


@settings(derandomize=True, max_examples=200)
@given(pass_matrices(), params_strategy)
def test_superset_of_passes_never_earns_less(passes: list[list[bool]],
                                             params: CFRRParams) -> None:
    rewards = cfrr_rewards(passes, params)
    for row_a, reward_a in zip(passes, rewards, strict=True):
        for row_b, reward_b in zip(passes, rewards, strict=True):
            # row_a passes every criterion row_b passes
            if all(a or not b for a, b in zip(row_a, row_b, strict=True)):
                assert reward_a >= reward_b


@settings(derandomize=True, max_examples=200)
@given(equal_rate_matrices(), params_strategy)
def test_equal_pass_rates_give_the_rubric_reward(passes: list[list[bool]],
                                                 params: CFRRParams) -> None:
    criteria = len(passes[0])
    assert criterion_weights(passes, params) == pytest.approx([1 / criteria] * criteria,
                                                              rel=1e-12)
    shares, binaries = rubric_rewards(passes), binary_rewards(passes)
    expected = [share + params.beta * binary
                for share, binary in zip(shares, binaries, strict=True)]
    assert cfrr_rewards(passes, params) == pytest.approx(expected, abs=1e-12)


@settings(derandomize=True, max_examples=200)
@given(pass_matrices(), params_strategy)
def test_rewards_lie_between_zero_and_one_plus_beta(passes: list[list[bool]],
                                                    params: CFRRParams) -> None:
    for row, reward in zip(passes, cfrr_rewards(passes, params), strict=True):
        assert -1e-12 <= reward <= 1 + params.beta + 1e-12
        if not any(row):
            assert reward == 0.0


@settings(derandomize=True, max_examples=200)
@given(pass_matrices(), params_strategy)
def test_advantages_are_centred_and_scaled(passes: list[list[bool]],
                                           params: CFRRParams) -> None:
    rewards = cfrr_rewards(passes, params)
    advantages = grpo_advantages(rewards)
    if max(rewards) == min(rewards):
        assert advantages == [0.0] * len(rewards)
        return
    spread = population_std(rewards)
    if spread < 1e-9:  # float noise between rewards equal in exact arithmetic
        return
    assert sum(advantages) == pytest.approx(0.0, abs=1e-9)
    # population std is std / (std + 1e-6): one, up to the stabiliser
    assert population_std(advantages) == pytest.approx(spread / (spread + 1e-6), rel=1e-9)
    assert population_std(advantages) == pytest.approx(1.0, abs=1e-6 / spread + 1e-12)
    for reward_a, adv_a in zip(rewards, advantages, strict=True):
        for reward_b, adv_b in zip(rewards, advantages, strict=True):
            if reward_a > reward_b:
                assert adv_a > adv_b


@settings(derandomize=True, max_examples=200)
@given(st.floats(min_value=0.0, max_value=3.0), st.integers(min_value=1, max_value=8))
def test_equal_rewards_give_zero_advantages(reward: float, group: int) -> None:
    assert grpo_advantages([reward] * group) == [0.0] * group


# --- scoring a group ----------------------------------------------------------------------


def rollout(passes: list[bool], status: str = "ok", **extra: Any) -> dict[str, Any]:
    return {"passes": passes, "status": status, **extra}


def test_infra_errors_are_excluded_not_failed() -> None:
    rows = [rollout(p, rollout_id=f"r{i}") for i, p in enumerate(PASSES)]
    rows.insert(1, rollout([], "infra_error", rollout_id="crashed"))
    params = CFRRParams(alpha=1.5, eps=0.02, beta=0.25)
    scored = score_group(rows, params)

    assert [row["rollout_id"] for row in scored] == ["r0", "crashed", "r1", "r2"]
    crashed = scored[1]
    assert crashed["excluded"] is True
    assert crashed["reward"] is None and crashed["advantage"] is None
    assert crashed["rubric_reward"] is None and crashed["binary_reward"] is None
    assert (crashed["alpha"], crashed["eps"], crashed["beta"]) == (1.5, 0.02, 0.25)

    ok = [scored[0], scored[2], scored[3]]
    rewards = cfrr_rewards(PASSES, params)
    assert [row["reward"] for row in ok] == rewards  # as if the crash never happened
    assert [row["advantage"] for row in ok] == grpo_advantages(rewards)
    assert [row["rubric_reward"] for row in ok] == rubric_rewards(PASSES)
    assert [row["binary_reward"] for row in ok] == binary_rewards(PASSES)
    for row in ok:
        assert row["excluded"] is False
        assert row["weights"] == criterion_weights(PASSES, params)
        assert (row["alpha"], row["eps"], row["beta"]) == (1.5, 0.02, 0.25)
    assert "reward" not in rows[0]  # the input rows are left as they were


def test_default_params_are_stored() -> None:
    [row] = score_group([rollout([True, False])])
    assert (row["alpha"], row["eps"], row["beta"]) == (1.0, 0.05, 0.5)
    assert row["advantage"] == 0.0  # a group of one has nothing to compare with


def test_empty_and_all_excluded_groups() -> None:
    assert score_group([]) == []
    scored = score_group([rollout([True], "infra_error"), rollout([], "infra_error")])
    assert all(row["excluded"] and row["reward"] is None and row["advantage"] is None
               for row in scored)


@pytest.mark.parametrize("rows, message", [
    ([rollout([True, False]), rollout([True])], "same rubric"),
    ([rollout([]), rollout([])], "no criteria"),
    ([rollout([True], "timeout")], "status 'timeout'"),
    ([{"passes": [True]}], "status None"),
    ([{"status": "ok"}], "no `passes` list"),
])
def test_score_group_rejects_malformed_rows(rows: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_group(rows)

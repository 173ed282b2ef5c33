"""CFRR, the Completion-Focused Rubric Reward, and GRPO advantages (DESIGN.md, "CFRR").

For one task's group of G rollouts and its C criteria, with pass matrix P (G x C, 0/1):
- pass rate `p_c = mean_i P[i,c]`;
- weight `w_c = (1 - p_c)^alpha + eps`, normalised to sum 1, so criteria few rollouts pass
  weigh more and criteria every rollout passes carry almost nothing (`alpha = 0` gives
  uniform weights, since `0^0 = 1`);
- reward `r_i = sum_c w_c P[i,c] + beta * all_c P[i,c]`, in `[0, 1 + beta]`;
- advantage `A_i = (r_i - mean r) / (std r + 1e-6)` with the *population* std, and exactly
  0 for every rollout when the rewards are equal (up to float rounding, `_TIE_TOLERANCE`).

Sums use `math.fsum`, so a rollout that passes a superset of another's criteria never gets
a smaller reward through rounding. Rollouts with status `infra_error` are left out of
their group, never scored as failures (`score_group`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

PassMatrix = Sequence[Sequence[bool]]

ADVANTAGE_STD_EPS = 1e-6
# Rewards whose spread is below this (relative to their size) are rounding noise: a tie.
_TIE_TOLERANCE = 1e-12
STATUSES = ("ok", "infra_error")


@dataclass(frozen=True, slots=True)
class CFRRParams:
    """CFRR's knobs: `alpha` sharpens the focus on rarely passed criteria, `eps` keeps a
    floor weight on criteria every rollout passes, `beta` is the completion bonus."""

    alpha: float = 1.0
    eps: float = 0.05
    beta: float = 0.5

    def __post_init__(self) -> None:
        for name in ("alpha", "eps", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"CFRR {name} must be a number, got {value!r}.")
            if not math.isfinite(value):
                raise ValueError(f"CFRR {name} must be finite, got {value!r}.")
        if self.alpha < 0:
            raise ValueError(f"CFRR alpha must be >= 0, got {self.alpha}.")
        if self.eps <= 0:
            raise ValueError(f"CFRR eps must be > 0 (it keeps every weight positive), "
                             f"got {self.eps}.")
        if self.beta < 0:
            raise ValueError(f"CFRR beta must be >= 0, got {self.beta}.")


def _check_matrix(passes: PassMatrix) -> list[list[bool]]:
    """The pass matrix as lists of bools; rows of equal, non-zero length, entries 0/1."""
    rows = [list(row) for row in passes]
    if not rows:
        return []
    width = len(rows[0])
    if width == 0:
        raise ValueError("A task's rubric has no criteria; CFRR needs at least one.")
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"Rollout {i} has {len(row)} criterion results, rollout 0 has "
                             f"{width}; every rollout of a task is scored on the same rubric.")
        for c, value in enumerate(row):
            if isinstance(value, str) or value not in (0, 1):
                raise ValueError(f"Rollout {i}, criterion {c}: a pass is True/False (or 1/0), "
                                 f"got {value!r}.")
    return [[bool(value) for value in row] for row in rows]


def _weights(rows: list[list[bool]], params: CFRRParams) -> list[float]:
    group = len(rows)
    raw = [(1.0 - sum(column) / group) ** params.alpha + params.eps
           for column in zip(*rows, strict=True)]
    total = math.fsum(raw)
    return [w / total for w in raw]


def _rewards(rows: list[list[bool]], weights: list[float], beta: float) -> list[float]:
    return [math.fsum(w for w, passed in zip(weights, row, strict=True) if passed) + beta * all(row)
            for row in rows]


def criterion_weights(passes: PassMatrix, params: CFRRParams | None = None) -> list[float]:
    """CFRR weight per criterion for one group's pass matrix (G x C); they sum to 1.

    Raises ValueError for an empty group (pass rates are undefined), no criteria, or
    ragged rows."""
    rows = _check_matrix(passes)
    if not rows:
        raise ValueError("CFRR weights need at least one rollout in the group.")
    return _weights(rows, params or CFRRParams())


def cfrr_rewards(passes: PassMatrix, params: CFRRParams | None = None) -> list[float]:
    """CFRR reward per rollout of one group: weighted share passed plus `beta` if all
    passed. An empty group gives []."""
    params = params or CFRRParams()
    rows = _check_matrix(passes)
    if not rows:
        return []
    return _rewards(rows, _weights(rows, params), params.beta)


def rubric_rewards(passes: PassMatrix) -> list[float]:
    """Baseline: the plain share of criteria each rollout passes."""
    return [sum(row) / len(row) for row in _check_matrix(passes)]


def binary_rewards(passes: PassMatrix) -> list[float]:
    """Baseline: 1.0 when a rollout passes every criterion, else 0.0."""
    return [1.0 if all(row) else 0.0 for row in _check_matrix(passes)]


def grpo_advantages(rewards: Sequence[float]) -> list[float]:
    """GRPO advantages `(r - mean) / (population std + 1e-6)`; all exactly 0 when the
    rewards are equal (a single rollout included). An empty group gives []."""
    values = [float(r) for r in rewards]
    if not all(math.isfinite(r) for r in values):
        raise ValueError(f"Rewards must be finite numbers, got {values}.")
    if not values:
        return []
    spread = max(values) - min(values)
    if spread <= _TIE_TOLERANCE * max(1.0, max(abs(r) for r in values)):
        return [0.0] * len(values)
    mean = math.fsum(values) / len(values)
    std = math.sqrt(math.fsum((r - mean) ** 2 for r in values) / len(values))
    return [(r - mean) / (std + ADVANTAGE_STD_EPS) for r in values]


def score_group(rows: Sequence[dict[str, Any]],
                params: CFRRParams | None = None) -> list[dict[str, Any]]:
    """Score one task's rollouts: each row (keys `passes` and `status`, plus anything else)
    comes back as a new dict with `reward`, `advantage`, `rubric_reward`, `binary_reward`,
    `weights`, `excluded` and the params `alpha`, `eps`, `beta` added.

    Rows with status `infra_error` are excluded from the group (`excluded=True`, scores
    None), never scored as failures; an empty or all-excluded group scores nothing.
    Raises ValueError for an unknown status or for scored rows whose criteria counts differ.
    """
    params = params or CFRRParams()
    for i, row in enumerate(rows):
        if row.get("status") not in STATUSES:
            raise ValueError(f"Rollout {i} has status {row.get('status')!r}; expected one of "
                             f"{', '.join(STATUSES)}.")
    scored = [i for i, row in enumerate(rows) if row["status"] == "ok"]
    for i in scored:
        if not isinstance(rows[i].get("passes"), Sequence) or isinstance(rows[i]["passes"], str):
            raise ValueError(f"Rollout {i} has status 'ok' but no `passes` list of criterion "
                             f"results.")
    matrix = _check_matrix([rows[i]["passes"] for i in scored])
    results: dict[int, dict[str, Any]] = {}
    if matrix:
        weights = _weights(matrix, params)
        rewards = _rewards(matrix, weights, params.beta)
        for i, reward, advantage, rubric, binary in zip(
            scored, rewards, grpo_advantages(rewards), rubric_rewards(matrix),
            binary_rewards(matrix), strict=True,
        ):
            results[i] = {"reward": reward, "advantage": advantage, "rubric_reward": rubric,
                          "binary_reward": binary, "weights": list(weights), "excluded": False}
    excluded = {"reward": None, "advantage": None, "rubric_reward": None,
                "binary_reward": None, "weights": None, "excluded": True}
    settings = {"alpha": params.alpha, "eps": params.eps, "beta": params.beta}
    return [{**row, **results.get(i, excluded), **settings} for i, row in enumerate(rows)]

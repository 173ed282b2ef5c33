"""The default service selection: deterministic, bounded by tool counts, ranked by CRUD share."""

from __future__ import annotations

import pytest

from compoworld.services.selection import select_services


def candidate(name: str, n_tools: int, crud: float) -> dict:
    return {"service": name, "n_tools": n_tools, "crud_share": crud}


CANDIDATES = [
    candidate("tiny", 3, 1.0),
    candidate("huge", 500, 1.0),
    candidate("b_rest", 20, 0.95),
    candidate("a_rest", 12, 0.97),
    candidate("rpc", 40, 0.1),
    candidate("mixed", 30, 0.5),
]


def test_selects_best_ranked_within_tool_bounds_sorted_by_name():
    assert select_services(CANDIDATES, 2) == ["a_rest", "b_rest"]
    assert select_services(CANDIDATES, 3) == ["a_rest", "b_rest", "mixed"]
    assert select_services(CANDIDATES, 10) == ["a_rest", "b_rest", "mixed", "rpc"]


def test_order_of_candidates_does_not_matter():
    assert select_services(CANDIDATES[::-1], 3) == select_services(CANDIDATES, 3)


def test_none_takes_every_service():
    assert select_services(CANDIDATES, None) == sorted(c["service"] for c in CANDIDATES)


def test_count_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        select_services(CANDIDATES, 0)

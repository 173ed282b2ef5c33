"""synthesize_service on its own: built-ins verify, oversized services are skipped with a reason."""

from __future__ import annotations

import pytest

from compoworld.services import synthesize
from compoworld.services.builtin import builtin_spec


def test_a_builtin_service_is_verified_and_every_tool_mounted():
    rows = synthesize.synthesize_service(builtin_spec("email"), seed=3)
    [service] = rows["services"]
    assert service["verified"] and service["n_builtin"] == service["n_tools"] > 0
    assert all(build["mounted"] for build in rows["tool_builds"])
    assert rows["tool_checks"] and all(check["passed"] for check in rows["tool_checks"])


def test_a_service_over_the_tool_budget_is_skipped_with_the_reason(monkeypatch):
    monkeypatch.setattr(synthesize, "MAX_TOOLS", 2)
    rows = synthesize.synthesize_service(builtin_spec("email"), seed=3)
    [service] = rows["services"]
    assert not service["verified"] and "over the 2-tool budget" in service["reason"]
    assert rows["tool_checks"] == []
    assert {b["mounted"] for b in rows["tool_builds"]} == {False}


@pytest.mark.parametrize("seed", [0, 1])
def test_synthesis_is_deterministic_for_a_seed(seed: int):
    first = synthesize.synthesize_service(builtin_spec("crm"), seed=seed)
    second = synthesize.synthesize_service(builtin_spec("crm"), seed=seed)
    for rows in (first, second):
        rows["services"][0].pop("seconds")
    assert first == second

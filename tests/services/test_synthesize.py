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


def test_a_working_subset_builds_only_its_tools_and_is_recorded():
    import pyarrow as pa

    from compoworld.specs.openapi import load_openapi
    from storage.schemas import SCHEMAS
    from tests.services.helpers import api_document

    spec = load_openapi(api_document({"customers": 2, "invoices": 1, "settings": 3}),
                        "big.example")
    subset = sorted(t.name for t in spec.tools if t.resource != "settings")
    reason = f"work app; subset: 3 of {len(spec.tools)} tools"
    rows = synthesize.synthesize_service(spec, seed=3, selected={"tools": subset,
                                                                 "reason": reason})
    [service] = rows["services"]
    assert service["tool_subset"] == subset and service["selection_reason"] == reason
    assert service["n_tools"] == 3 and service["verified"]
    assert {check["tool"] for check in rows["tool_checks"]} == set(subset)
    builds = {b["name"]: b for b in rows["tool_builds"]}
    assert set(builds) == {t.name for t in spec.tools}  # every ingested tool says what it is
    left = [b for name, b in builds.items() if name not in subset]
    assert left and all(not b["mounted"] and "working subset" in b["reason"] for b in left)
    # the row fits the `services` table
    table = pa.Table.from_pylist(rows["services"], schema=SCHEMAS["services"])
    assert table.column("tool_subset").to_pylist() == [subset]


def test_a_service_built_whole_records_no_subset():
    rows = synthesize.synthesize_service(builtin_spec("email"), seed=3)
    [service] = rows["services"]
    assert service["tool_subset"] is None and service["selection_reason"] is None

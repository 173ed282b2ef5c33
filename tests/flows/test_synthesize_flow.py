"""synthesize_flow end to end: built-in and real corpus services under Prefect and Dask."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.ingest import ingest_flow
from flows.synthesize import NothingToSynthesize, synthesize_flow
from storage.catalog import run_query
from storage.store import Store

pytestmark = pytest.mark.slow


def test_synthesize_builds_verifies_and_mounts(prefect_harness, store: Store):
    home = str(store.home)
    ingest_flow(source="builtin", run_id="syn", home=home)
    summary = synthesize_flow(run_id="syn", services=None, shard_size=4, home=home)
    assert (summary["services"], summary["ran"]) == (10, 3)

    _, rows = run_query(
        store,
        "select count(*), count(*) filter (where verified), sum(n_builtin), sum(n_mounted) "
        "from services where run_id = 'syn'",
    )
    services, verified, builtin, mounted = rows[0]
    assert services == 10 and verified == 10 and builtin > 50 and mounted > 40
    _, rows = run_query(
        store,
        "select count(*) from tools where run_id = 'syn' and mounted is null",
    )
    assert rows == [(0,)]  # every ingested tool has a build row
    _, rows = run_query(
        store,
        "select count(*) from tools t join tool_checks c on c.tool = t.name "
        "and c.run_id = t.run_id where t.mounted and not c.passed "
        "and c.implementation = t.implementation",
    )
    assert rows == [(0,)]  # a mounted tool failed none of its final checks

    again = synthesize_flow(run_id="syn", services=None, shard_size=4, home=home)
    assert (again["ran"], again["skipped"]) == (0, 3)


def test_synthesize_on_real_corpus_services(prefect_harness, store: Store, corpus: Path):
    home = str(store.home)
    ingest_flow(source=str(corpus), limit=30, run_id="real", home=home)
    synthesize_flow(run_id="real", services=6, shard_size=3, home=home)
    _, rows = run_query(
        store,
        "select count(*), count(*) filter (where verified), "
        "sum(n_compiled) + sum(n_modeled) + sum(n_simulated) = sum(n_tools) from services",
    )
    assert rows[0][0] == 6 and rows[0][1] >= 4 and rows[0][2] is True
    _, rows = run_query(
        store, "select implementation, count(*) from tools where mounted group by 1 order by 1"
    )
    kinds = dict(rows)
    # the compiler and the stateful world model carry nearly every mounted tool
    stateful = kinds.get("compiled", 0) + kinds.get("modeled", 0)
    assert kinds.get("compiled", 0) > 0 and kinds.get("modeled", 0) > 0
    assert stateful >= 0.9 * sum(kinds.values())


def test_synthesize_without_ingest_is_refused(prefect_harness, store: Store):
    with pytest.raises(NothingToSynthesize, match="compoworld ingest --run-id empty"):
        synthesize_flow(run_id="empty", home=str(store.home))


def test_services_the_size_filter_drops_are_named_with_the_way_to_include_them(
    prefect_harness, store: Store, tmp_path
):
    import json

    from flows.ingest import ingest_flow

    folder = tmp_path / "specs"
    folder.mkdir()
    tools = [{"name": f"get_thing_{i}", "description": "Get a thing.",
              "parameters": {"type": "object", "properties": {}}} for i in range(3)]
    (folder / "tiny.json").write_text(json.dumps(tools))
    ingest_flow(source=str(folder), run_id="tiny", home=str(store.home))
    with pytest.raises(NothingToSynthesize) as refused:
        synthesize_flow(run_id="tiny", services=10, home=str(store.home))
    message = str(refused.value)
    assert "1 of 1 ingested services (1 with fewer than 5 tools)" in message
    assert "--services all" in message and "no ingested services" not in message
    built = synthesize_flow(run_id="tiny", services=None, home=str(store.home))
    assert built["services"] == 1


def test_a_large_api_is_built_as_its_working_subset_and_recorded(
    prefect_harness, store: Store, tmp_path
):
    import json

    from compoworld.services.selection import MAX_TOOLS, SUBSET_TOOLS
    from tests.services.helpers import api_document

    folder = tmp_path / "specs"
    folder.mkdir()
    collections = {"customers": 20, "invoices": 12, "tickets": 8, "settings": MAX_TOOLS}
    (folder / "bigcrm.json").write_text(json.dumps(api_document(collections)))
    ingest_flow(source=str(folder), run_id="big", home=str(store.home))
    assert synthesize_flow(run_id="big", services=5, home=str(store.home))["services"] == 1

    _, rows = run_query(store, "select tool_subset, selection_reason, n_tools, verified "
                               "from services where run_id = 'big'")
    [(subset, reason, n_tools, verified)] = rows
    assert verified and n_tools == len(subset) <= SUBSET_TOOLS
    assert f"subset: {len(subset)} of {MAX_TOOLS + 40} tools" in reason
    _, rows = run_query(store, "select name, resource, mounted, implementation from tools "
                               "where run_id = 'big'")
    built = {name for name, _, _, implementation in rows if implementation is not None}
    assert built == set(subset)  # only the subset was built
    assert {resource for name, resource, _, _ in rows if name in built} == \
        {"customers", "invoices", "tickets"}
    assert not any(mounted for name, _, mounted, _ in rows if name not in built)
    _, rows = run_query(store, "select count(distinct tool) from tool_checks where run_id = 'big'")
    assert rows[0][0] <= len(subset)
    # compose mounts the same subset: no tool or collection of the rest is compiled there
    from compoworld.compose.library import ServiceLibrary

    library = ServiceLibrary.from_store(store, "big")
    (name,) = library.infos
    spec = library.spec(name)
    assert {tool.name for tool in spec.tools} == set(subset)
    assert set(spec.resources) <= {"customers", "invoices", "tickets"}
    assert set(library.template(name, 3).tools) <= set(subset)

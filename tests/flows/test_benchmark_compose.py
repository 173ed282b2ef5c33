"""Compose over tool sets we wrote no workflow for (BFCL and tau2-bench, specs/benchmarks.py):
verified tasks of the workflows that fit them, or one true line saying what is missing."""

from __future__ import annotations

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.workflows import run_workflows
from flows.compose import compose_flow
from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.catalog import run_query
from storage.store import Store

pytestmark = pytest.mark.slow
RUN = "bench"


@pytest.fixture(scope="module")
def synthesized(prefect_harness, tmp_path_factory) -> Store:
    from compoworld.settings import cache_dir
    from compoworld.specs.benchmarks import fetch_benchmarks

    store = Store.open(tmp_path_factory.mktemp("benchmarks") / "home")
    home = str(store.home)
    ingest_flow(source=str(fetch_benchmarks(cache_dir())), run_id=RUN, home=home)
    synthesize_flow(run_id=RUN, home=home)  # the default selection takes all 11
    return store


def test_every_benchmark_api_is_ingested_and_verified(synthesized: Store) -> None:
    _, rows = run_query(synthesized, "select count(*), count(*) filter (where verified), "
                                     "sum(n_tools) from services")
    assert rows == [(11, 11, 170)]
    _, errors = run_query(synthesized, "select count(*) from spec_errors")
    assert errors == [(0,)]


def test_compose_makes_fitting_tasks_or_says_truly_what_is_missing(synthesized: Store) -> None:
    home = str(synthesized.home)
    library = ServiceLibrary.from_store(synthesized, RUN)
    library.use_workflows(run_workflows(False))
    try:
        compose_flow(run_id=RUN, tasks=4, tasks_per_shard=4, home=home)
    except Exception as error:  # noqa: BLE001 - the flow's failure is what is checked
        message = str(error)
        assert "\n" not in message and "no workflow begins at its tools" in message, message
        # true: no read tool of theirs begins a workflow a shard may follow
        begins = {name: library.patterns_at(name) for name, node in
                  library.graph.nodes.items() if node.effect == "read"}
        assert not any(begins.values()), {n: [w.name for w in ws]
                                          for n, ws in begins.items() if ws}
        return
    _, rows = run_query(synthesized, "select pattern from tasks where verified")
    assert rows, "compose made no verified task and said nothing"
    names = {w.name for w in run_workflows(False)}
    assert all(pattern in names for (pattern,) in rows)

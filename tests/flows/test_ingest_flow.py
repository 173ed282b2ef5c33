"""ingest_flow end to end: real corpus documents, real Prefect, real Dask, real Parquet."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
import yaml

from flows.ingest import ingest_flow
from storage.catalog import run_query
from storage.store import Store
from tests.flows.helpers import start_cli

pytestmark = pytest.mark.slow


def counts(store: Store, run_id: str) -> dict[str, int]:
    columns, rows = run_query(
        store,
        "SELECT (SELECT count(*) FROM specs WHERE run_id = $r) AS specs, "
        "(SELECT count(*) FROM tools WHERE run_id = $r) AS tools, "
        "(SELECT count(DISTINCT name) FROM tools WHERE run_id = $r) AS tool_names, "
        "(SELECT count(*) FROM spec_errors WHERE run_id = $r) AS spec_errors",
        {"r": run_id},
    )
    return dict(zip(columns, rows[0], strict=True))


def test_ingest_flow_smoke_on_the_real_corpus(prefect_harness, store: Store, corpus: Path):
    summary = ingest_flow(
        source=str(corpus), limit=24, run_id="smoke", shard_size=8, home=str(store.home)
    )
    assert (summary["documents"], summary["shards"], summary["ran"]) == (24, 3, 3)
    got = counts(store, "smoke")
    assert got["specs"] + got["spec_errors"] == 24
    assert got["specs"] >= 20 and got["tools"] > 100
    assert got["tool_names"] == got["tools"]  # tool names are unique across the world
    again = ingest_flow(
        source=str(corpus), limit=24, run_id="smoke", shard_size=8, home=str(store.home)
    )
    assert (again["ran"], again["skipped"]) == (0, 3)
    assert counts(store, "smoke") == got


def test_ingest_flow_on_a_users_own_folder(prefect_harness, store: Store, tmp_path: Path):
    folder = tmp_path / "mine"
    (folder / "crm").mkdir(parents=True)
    (folder / "crm" / "contacts.yaml").write_text(
        yaml.safe_dump(
            {
                "openapi": "3.0.3",
                "info": {"title": "Contacts", "version": "1"},
                "paths": {
                    "/contacts": {
                        "get": {"summary": "List contacts", "responses": {"200": {}}},
                        "post": {"summary": "Create a contact", "responses": {"201": {}}},
                    },
                    "/contacts/{id}": {
                        "parameters": [
                            {"name": "id", "in": "path", "required": True, "schema": {}}
                        ],
                        "delete": {"summary": "Delete a contact", "responses": {"204": {}}},
                    },
                },
            }
        )
    )
    (folder / "weather.json").write_text(
        json.dumps(
            [
                {
                    "name": "get_forecast",
                    "description": "Forecast for a city",
                    "parameters": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}},
                        "required": ["city"],
                    },
                }
            ]
        )
    )
    (folder / "broken.json").write_text("{not json")
    ingest_flow(source=str(folder), run_id="mine", home=str(store.home))
    _, tools = run_query(
        store, "select source, effect, resource from tools where run_id = 'mine' order by source"
    )
    assert tools == [
        ("functions:weather#get_forecast", "read", "forecasts"),
        ("openapi:crm/contacts#DELETE /contacts/{id}", "delete", "contacts"),
        ("openapi:crm/contacts#GET /contacts", "read", "contacts"),
        ("openapi:crm/contacts#POST /contacts", "create", "contacts"),
    ]
    _, errors = run_query(store, "select document, reason from spec_errors")
    assert [document for document, _ in errors] == ["broken.json"]
    assert errors[0][1]



def test_sigkill_part_way_then_rerun_gives_the_uninterrupted_counts(
    prefect_harness, tmp_path: Path, corpus: Path
):
    from prefect.settings import PREFECT_API_URL

    store = Store.open(tmp_path / "home")
    env = os.environ | {
        "COMPOWORLD_HOME": str(store.home),
        "PREFECT_API_URL": PREFECT_API_URL.value(),  # the session's test server
    }
    args = ["--source", str(corpus), "--limit", "160", "--shard-size", "4"]
    manifest = store.partition("stage_runs", "killed")

    process = start_cli("ingest", [*args, "--run-id", "killed"], env)
    deadline = time.monotonic() + 180
    while not (manifest.exists() and len(list(manifest.glob("*.parquet"))) >= 3):
        assert process.poll() is None, process.stdout.read()
        assert time.monotonic() < deadline, "no shard finished in time"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done_before = len(store.manifest("killed", "ingest"))
    assert 3 <= done_before < 40, "the kill must land part way through the 40 shards"

    resumed = start_cli("ingest", [*args, "--run-id", "killed"], env)
    output, _ = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, output
    assert "already done" in output

    clean = start_cli("ingest", [*args, "--run-id", "clean"], env)
    output, _ = clean.communicate(timeout=300)
    assert clean.returncode == 0, output

    assert counts(store, "killed") == counts(store, "clean")
    assert counts(store, "clean")["specs"] + counts(store, "clean")["spec_errors"] == 160
    _, rows = run_query(
        store, "select run_id, count(*) from stage_runs where status = 'done' group by 1 order by 1"
    )
    assert rows == [("clean", 40), ("killed", 40)]

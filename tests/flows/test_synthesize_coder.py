"""synthesize --coder: an action the world model ran generically gets a handler from a
coding model, verified in the
sandbox, stored with its hash, and run in the sandbox again when a world mounts it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compoworld.cli import app
from compoworld.compose.library import ServiceLibrary
from compoworld.services.sandbox import SandboxedHandler, source_hash
from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.catalog import run_query
from storage.stats import implementation_shares
from storage.store import Store
from tests.scripted_llm import ScriptedLLM
from tests.services.sandbox_helpers import disarmed

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).resolve().parent.parent / "services" / "fixtures" / "notes.yaml"
SHARE = "notes__share_note"
CRASHING = "```python\ndef handler(state, arguments):\n    return 1 / 0\n```"
GOOD_SOURCE = (  # a share is recorded: a write that changes nothing fails verification
    "def handler(state, arguments):\n"
    "    note = state.get('notes', arguments['noteId'])\n"
    "    state.put('shares', {'id': state.new_id('shares'), 'noteId': note['id'],\n"
    "                         'email': arguments['email'], 'status': 'shared'})\n"
    "    return {'noteId': note['id'], 'email': arguments['email'], 'status': 'shared'}\n"
)


def coder_replies(messages: list[dict]) -> str:
    """A crashing handler first; after the feedback, a good one."""
    answered = sum(1 for m in messages if m["role"] == "assistant")
    return CRASHING if answered == 0 else f"```python\n{GOOD_SOURCE}```"


@pytest.fixture(scope="module")
def coded_run(tmp_path_factory, prefect_harness):
    folder = tmp_path_factory.mktemp("notes")
    shutil.copy(FIXTURE, folder / "notes.yaml")
    store = Store.open(folder / "home")
    home = str(store.home)
    ingest_flow(source=str(folder), run_id="plain", home=home)
    ingest_flow(source=str(folder), run_id="coded", home=home)
    synthesize_flow(run_id="plain", services=None, home=home)
    with ScriptedLLM(coder_replies) as llm:
        synthesize_flow(run_id="coded", services=None, coder=llm.base_url,
                        coder_model="scripted", coder_attempts=3, home=home)
        requests = list(llm.requests)
    return store, requests


def builds(store: Store, run_id: str) -> dict[str, dict]:
    return {r["name"]: r for r in store.read("tool_builds", run_id)}


def test_without_a_coder_the_action_stays_modeled(coded_run):
    store, _ = coded_run
    plain = builds(store, "plain")
    assert plain[SHARE]["implementation"] == "modeled"  # the world model logs it
    assert plain[SHARE]["source"] is None
    assert store.read("tool_codings", "plain") == []


def test_the_second_candidate_is_kept_after_the_first_failed_its_checks(coded_run):
    store, requests = coded_run
    build = builds(store, "coded")[SHARE]
    assert build["implementation"] == "coded" and build["mounted"]
    assert build["source"] == GOOD_SOURCE
    assert build["source_hash"] == source_hash(GOOD_SOURCE)
    assert "coded by scripted in 2 attempt(s)" in build["reason"]
    attempts = sorted(store.read("tool_codings", "coded"), key=lambda r: r["attempt"])
    assert [(a["attempt"], a["passed"], a["outcome"]) for a in attempts] == [
        (1, False, "coded"), (2, True, "coded")]
    assert "ZeroDivisionError" in attempts[0]["failures"]
    assert attempts[1]["source_hash"] == build["source_hash"]
    assert all(a["prompt_tokens"] > 0 and a["completion_tokens"] > 0 for a in attempts)
    # The feedback named the failure: the second request carries it.
    assert len(requests) == 2
    assert "ZeroDivisionError" in json.dumps(requests[1]["messages"][-1])
    # The compiled tools were never sent to the coder.
    assert {a["name"] for a in attempts} == {SHARE}


def test_the_coded_tools_checks_are_recorded_and_passed(coded_run):
    store, _ = coded_run
    _, rows = run_query(store, "select \"check\", passed from tool_checks where run_id = 'coded' "
                               "and tool = $tool and implementation = 'coded'", {"tool": SHARE})
    checks = dict(rows)
    assert checks and all(checks.values())
    assert "unknown_id_404" in checks


def test_a_mounted_coded_tool_runs_in_the_sandbox(coded_run):
    store, _ = coded_run
    library = ServiceLibrary.from_store(store, "coded")
    template = library.template("notes", 0)
    assert isinstance(template.tools[SHARE].handler, SandboxedHandler)
    world = library.world(0)
    notes = world.call("notes__list_notes", {})
    note_id = notes["data"]["notes"][0]["id"]
    shared = world.call(SHARE, {"noteId": note_id, "email": "ana@example.com"})
    assert shared == {"success": True, "data": {"noteId": note_id, "email": "ana@example.com",
                                                "status": "shared"}}
    missing = world.call(SHARE, {"noteId": "no-such-note", "email": "ana@example.com"})
    assert missing["error"]["code"] == 404


def test_stats_report_the_share_of_each_implementation(coded_run):
    store, _ = coded_run
    shares = {(r["run_id"], r["implementation"]): r for r in implementation_shares(store)}
    assert shares[("coded", "coded")]["tools"] == 1
    assert shares[("coded", "compiled")]["tools"] == 3
    assert shares[("coded", "coded")]["share"] == pytest.approx(0.25)
    assert ("coded", "simulated") not in shares and ("coded", "modeled") not in shares
    assert shares[("plain", "modeled")]["tools"] == 1
    result = CliRunner().invoke(app, ["stats", "--home", str(store.home), "-f", "json"])
    assert result.exit_code == 0 and '"implementation": "coded"' in result.output


def test_a_coder_without_a_model_is_refused(coded_run):
    store, _ = coded_run
    with pytest.raises(ValueError, match="coder-model"):
        synthesize_flow(run_id="coded", coder="http://127.0.0.1:9/v1", home=str(store.home))


@pytest.fixture(scope="module")
def escaping_run(tmp_path_factory, prefect_harness):
    """synthesize --coder against an endpoint whose first handler escapes the audit hook and
    runs `touch` (the review's end-to-end finding); its second is the good one."""
    folder = tmp_path_factory.mktemp("escape")
    shutil.copy(FIXTURE, folder / "notes.yaml")
    target = folder / "escaped"
    touch = f"    os.system('touch {target}')"
    escaping = f"```python\n{disarmed(touch)}```"
    store = Store.open(folder / "home")
    ingest_flow(source=str(folder), run_id="escape", home=str(store.home))

    def replies(messages: list[dict]) -> str:
        answered = sum(1 for m in messages if m["role"] == "assistant")
        return escaping if answered == 0 else f"```python\n{GOOD_SOURCE}```"

    with ScriptedLLM(replies) as llm:
        synthesize_flow(run_id="escape", services=None, coder=llm.base_url,
                        coder_model="scripted", coder_attempts=3, home=str(store.home))
    return store, target


def test_an_escaping_candidate_touches_nothing_and_its_violation_is_recorded(escaping_run):
    store, target = escaping_run
    assert not target.exists()
    attempts = sorted(store.read("tool_codings", "escape"), key=lambda r: r["attempt"])
    assert [(a["attempt"], a["passed"], a["violation"]) for a in attempts] == [
        (1, False, "forbidden_operation"), (2, True, None)]
    assert "seccomp" in attempts[0]["failures"]
    assert builds(store, "escape")[SHARE]["source"] == GOOD_SOURCE

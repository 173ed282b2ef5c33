"""The coding agent: scripted candidates through the sandboxed check loop, then SmolLM2."""

from __future__ import annotations

import copy
import os
from collections import Counter
from pathlib import Path

import pytest

from compoworld.llm import LLMClient, LLMError
from compoworld.services.builtin import build_builtin, example_state
from compoworld.services.coder import (
    NO_CODE,
    Attempt,
    code_service,
    code_tool,
    coding_prompt,
    extract_code,
    feedback_message,
    llm_proposer,
)
from compoworld.services.runtime import Service, Tool
from compoworld.services.sandbox import Limits, source_hash
from compoworld.specs.records import ToolSpec
from compoworld.world.state import State
from tests.services.helpers import notes_service as service_of
from tests.services.helpers import value_for
from tests.services.sandbox_helpers import disarmed

LIMITS = Limits(call_timeout=1.0, memory_mb=256)
NOTE = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "title": {"type": "string", "minLength": 1}},
    "required": ["id", "title"],
    "additionalProperties": False,
    "x-id-field": "id",
}
ID = {"id": {"type": "string"}}
TITLE = {"title": {"type": "string", "minLength": 1}}


def _spec(name: str, effect: str, properties: dict, required: list, returns: dict) -> ToolSpec:
    types = {p: "notes.notes.id" if p == "id" else "title" for p in properties}
    return ToolSpec(
        service="notes", name=f"notes__{name}", description=f"{name.replace('_', ' ')}.",
        effect=effect, resource="notes", source=f"test:{name}", param_types=types,
        returns=returns, parameters={"type": "object", "properties": properties,
                                     "required": required, "additionalProperties": False},
    )


def _create(state: State, args: dict) -> dict:
    return copy.deepcopy(state.put("notes", {"id": state.new_id("notes"), **args}))


def _simulated(state: State, args: dict) -> dict:
    return {}


def notes_service() -> Service:
    """Notes with a real create and two `simulated` tools (get, rename) to be coded."""
    tools = {}
    for name, effect, props, required, handler, kind in [
        ("create_note", "create", TITLE, ["title"], _create, "builtin"),
        ("get_note", "read", ID, ["id"], _simulated, "simulated"),
        ("rename_note", "update", ID | TITLE, ["id", "title"], _simulated, "simulated"),
    ]:
        spec = _spec(name, effect, props, required, NOTE)
        tools[spec.name] = Tool(spec, kind, handler)
    return service_of(tools, NOTE, "Short notes.")



def block(source: str, words: str = "Here is the handler:") -> str:
    return f"{words}\n```python\n{source}```\nIt raises NotFound for unknown ids."


GOOD_GET = """\
def handler(state, arguments):
    return dict(state.get("notes", arguments["id"]))
"""
WRONG_GET = """\
def handler(state, arguments):
    records = state.records("notes")
    return dict(records[sorted(records)[0]])
"""
GOOD_RENAME = """\
def handler(state, arguments):
    note = dict(state.get("notes", arguments["id"]), title=arguments["title"])
    state.put("notes", note)
    return note
"""
CRASH = "def handler(state, arguments):\n    return 1 / 0\n"
LOOP = "def handler(state, arguments):\n    while True:\n        pass\n"
SOCKET = "import socket\n\ndef handler(state, arguments):\n    return socket.gethostname()\n"
OPEN = "def handler(state, arguments):\n    open({path!r}, 'w').write('x')\n    return {{}}\n"
PATHLIB = ("def handler(state, arguments):\n"
           "    __import__('pathlib').Path({path!r}).write_text('x')\n    return {{}}\n")
MEMORY = "def handler(state, arguments):\n    hog = b'x' * (600 * 2**20)\n    return len(hog)\n"


class Scripted:
    """A proposer that answers with the given replies in order and keeps what it saw."""

    def __init__(self, *replies: str | Exception) -> None:
        self.replies = list(replies)
        self.seen: list[list[dict]] = []

    def __call__(self, messages: list[dict]) -> tuple[str, int, int]:
        self.seen.append(copy.deepcopy(messages))
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply, 100, 20


def children() -> set[int]:
    """Live child processes of this process (from /proc; zombies count: nobody reaped them)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.add(int(entry.name))
    return found


@pytest.fixture
def unharmed():
    """Asserts the test leaves no worker processes behind and the state untouched."""
    before = children()
    yield
    assert children() - before == set()


def run(proposer: Scripted, tool: str = "notes__get_note", attempts: int = 3):
    service = notes_service()
    digest, table = service.state.digest(), dict(service.tools)
    result = code_tool(service, tool, proposer, seed=3, value_for=value_for,
                       attempts=attempts, limits=LIMITS)
    assert service.state.digest() == digest and service.tools == table  # caller's service kept
    assert service.tools[tool].implementation == "simulated"
    return result


def test_a_good_handler_is_coded_at_the_first_attempt(unharmed):
    proposer = Scripted(block(GOOD_GET))
    result = run(proposer)
    assert result.outcome == "coded" and result.reason is None
    assert result.source == GOOD_GET and result.source_hash == source_hash(GOOD_GET)
    [attempt] = result.attempts
    assert attempt.passed and attempt.failures == {} and attempt.violation is None
    assert (result.prompt_tokens, result.completion_tokens) == (100, 20)
    prompt = "\n".join(m["content"] for m in proposer.seen[0])
    for needle in ("notes__get_note", "x-id-field", "state.new_id", "NotFound", "Conflict",
                   "Raise before you mutate", "JSON Schema", "def block_number", "def handler"):
        assert needle in prompt


def test_a_wrong_handler_gets_its_failed_checks_back_and_the_fix_is_coded(unharmed):
    proposer = Scripted(block(WRONG_GET), block(GOOD_GET))
    result = run(proposer)
    assert result.outcome == "coded" and len(result.attempts) == 2
    first, second = result.attempts
    assert not first.passed and "unknown_id_404" in first.failures and second.passed
    assert result.prompt_tokens == 200
    retry = proposer.seen[1]
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[2]["content"] == block(WRONG_GET)
    assert "unknown_id_404" in retry[3]["content"] and "def handler" in retry[3]["content"]


def test_a_handler_that_always_crashes_stays_simulated(unharmed):
    result = run(Scripted(block(CRASH), block(CRASH)), attempts=2)
    assert result.outcome == "simulated" and len(result.attempts) == 2
    assert result.source is None and result.source_hash is None
    assert "ZeroDivisionError" in result.reason
    assert not any(a.passed for a in result.attempts)


@pytest.mark.parametrize(
    ("source", "kind"),
    [(LOOP, "timeout"), (SOCKET, "forbidden_import"), (MEMORY, "memory")],
    ids=["loop", "socket", "memory"],
)
def test_a_sandbox_violation_is_recorded_and_rejects_the_candidate(unharmed, source, kind):
    result = run(Scripted(block(source)), attempts=1)
    [attempt] = result.attempts
    assert result.outcome == "simulated" and not attempt.passed
    assert attempt.violation == kind and kind in result.reason


@pytest.mark.parametrize("template", [OPEN, PATHLIB], ids=["open", "pathlib"])
def test_a_handler_that_writes_a_file_is_stopped(unharmed, tmp_path: Path, template: str):
    target = tmp_path / "escaped.txt"
    result = run(Scripted(block(template.format(path=str(target)))), attempts=1)
    [attempt] = result.attempts
    assert result.outcome == "simulated" and attempt.violation is not None
    assert not target.exists()


def test_a_reply_without_code_is_a_failed_attempt(unharmed):
    proposer = Scripted("I would look the note up by its id.", block(GOOD_GET))
    result = run(proposer)
    first, second = result.attempts
    assert first.source is None and first.failures == NO_CODE and second.passed
    assert NO_CODE in proposer.seen[1][3]["content"]


def test_an_endpoint_error_ends_the_loop_without_a_crash(unharmed):
    result = run(Scripted(block(WRONG_GET), LLMError("http://x failed 4 times")))
    assert result.outcome == "simulated" and len(result.attempts) == 1
    assert result.reason.startswith("endpoint") and "failed 4 times" in result.reason


def test_code_service_returns_a_new_service_with_the_accepted_tools_coded(unharmed):
    service = notes_service()
    proposer = Scripted(block(GOOD_GET), "no idea", block(GOOD_RENAME))
    coded, results = code_service(service, ["notes__get_note", "notes__rename_note"],
                                  proposer, seed=3, value_for=value_for, limits=LIMITS)
    try:
        assert [(r.tool, r.outcome, len(r.attempts)) for r in results] == [
            ("notes__get_note", "coded", 1), ("notes__rename_note", "coded", 2)]
        assert {n: t.implementation for n, t in coded.tools.items()} == {
            "notes__create_note": "builtin", "notes__get_note": "coded",
            "notes__rename_note": "coded"}
        assert service.tools["notes__get_note"].implementation == "simulated"
        assert coded.call("notes__rename_note", {"id": "not_0001", "title": "new"}) == {
            "success": True, "data": {"id": "not_0001", "title": "new"}}
        assert coded.call("notes__get_note", {"id": "nope"})["error"]["code"] == 404
    finally:
        for name in ("notes__get_note", "notes__rename_note"):
            coded.tools[name].handler.close()


def test_a_run_is_deterministic_for_the_same_replies(unharmed):
    replies = [block(WRONG_GET), block(CRASH), block(GOOD_GET)]
    first, second = run(Scripted(*replies)), run(Scripted(*replies))
    assert first == second and first.outcome == "coded" and len(first.attempts) == 3


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("```python\ndef handler(s, a):\n    return 1\n```", "def handler(s, a):\n    return 1\n"),
        ("text\n```\ndef handler(s, a): pass\n```\n```python\nx = 1\n```",
         "def handler(s, a): pass\n"),
        ("```json\n{}\n```\n```py\ndef handler(s, a): pass\n```", "def handler(s, a): pass\n"),
        ("  def handler(s, a):\n    return 2", "def handler(s, a):\n    return 2\n"),
        ("```python\ndef handler(s, a):\n    return [", "def handler(s, a):\n    return [\n"),
        ("Use state.get to find it.", None),
        ("```python\n\n```", None),
    ],
)
def test_extract_code(reply: str, code: str | None):
    assert extract_code(reply) == code


def test_feedback_names_the_violation_and_every_failed_check():
    attempt = Attempt(2, "x", 1, 1, False, {"sandbox": "timeout: slow", "deterministic": "d"},
                      "timeout")
    text = feedback_message(attempt)["content"]
    assert "attempt 2" in text and "timeout" in text and "- deterministic: d" in text


# --- against the real local model ---------------------------------------------------------


@pytest.fixture(scope="module")
def server():
    from compoworld.serve import LLMServer

    with LLMServer() as running:
        yield running


@pytest.mark.slow
def test_smollm2_codes_or_leaves_simulated_two_crm_tools(server, unharmed):
    from compoworld.services.synthesize import value_for as world_values

    # crm, not sms: the prompt's examples are sms tools, which would give the answer away
    service = build_builtin("crm", example_state("crm", 5))
    names = ["crm__get_contact", "crm__list_deals"]
    for name in names:
        service.tools[name] = Tool(service.tools[name].spec, "simulated", _simulated)
    assert all(len(str(coding_prompt(service, n))) < 12_000 for n in names)  # fits n_ctx
    # generous: a 2-core box running other suites takes minutes for the first prompt
    client = LLMClient(server.base_url, server.model, timeout=600, max_retries=0)
    coded, results = code_service(service, names, llm_proposer(client, max_tokens=300),
                                  seed=5, value_for=world_values, attempts=2, limits=LIMITS)
    try:
        assert [r.tool for r in results] == names
        for result in results:
            assert result.outcome in ("coded", "simulated")
            assert result.attempts and not (result.reason or "").startswith("endpoint")
            assert len(result.attempts) == 2 or result.attempts[-1].passed
            assert all(a.prompt_tokens > 0 and a.completion_tokens > 0 for a in result.attempts)
            assert result.outcome == "coded" or result.reason
            assert coded.tools[result.tool].implementation == (
                "coded" if result.outcome == "coded" else "simulated")
        attempts = [a for r in results for a in r.attempts]
        checks = Counter(c for a in attempts if isinstance(a.failures, dict) for c in a.failures)
        print(f"\nSmolLM2: {sum(a.source is not None for a in attempts)}/{len(attempts)} "
              f"attempts had code; outcomes {[r.outcome for r in results]}; "
              f"failed checks {dict(checks)}; violations {[a.violation for a in attempts]}; "
              f"reasons {[r.reason and r.reason[:160] for r in results]}")
    finally:
        for result in results:
            if result.outcome == "coded":
                coded.tools[result.tool].handler.close()


def test_an_escaping_handler_is_rejected_and_runs_nothing(unharmed, tmp_path: Path):
    target = tmp_path / "escaped"
    source = disarmed("    os.system('touch " + str(target) + "')")
    result = run(Scripted(block(source)), attempts=1)
    [attempt] = result.attempts
    assert result.outcome == "simulated" and attempt.violation == "forbidden_operation"
    assert not target.exists()


def test_the_coder_refuses_before_asking_when_the_sandbox_is_missing(unharmed, monkeypatch):
    from compoworld.services.coder_stage import code_simulated
    from compoworld.services.sandbox import SandboxUnavailable
    from tests.scripted_llm import ScriptedLLM

    monkeypatch.setenv("COMPOWORLD_BWRAP", "/nonexistent/bwrap")
    proposer = Scripted(block(GOOD_GET))
    with pytest.raises(SandboxUnavailable, match="needs bubblewrap at /nonexistent/bwrap"):
        run(proposer)
    assert proposer.seen == []  # the model was never asked
    with ScriptedLLM(lambda messages: block(GOOD_GET)) as llm:
        coder = {"base_url": llm.base_url, "model": "scripted", "attempts": 1,
                 "max_tools": None, "max_tokens": 100, "timeout": 5.0}
        with pytest.raises(SandboxUnavailable, match="bubblewrap"):
            code_simulated(notes_service(), coder, 3, {}, [], {})
        assert llm.requests == []

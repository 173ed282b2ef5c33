"""Coded handlers in the sandbox: good, wrong, failing and hostile candidates.

Every candidate runs through `SandboxedHandler` directly and, where the protocol matters,
through a real `Service`, whose `call` must answer with a result and never raise. After
each hostile candidate the factory must be unharmed: the file it aimed at does not exist
and no worker process is left behind.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from compoworld.services.runtime import NotFound, Service, State, Tool, ToolError
from compoworld.services.sandbox import (
    ALLOWED_MODULES,
    Limits,
    SandboxedHandler,
    SandboxViolation,
    source_hash,
)
from compoworld.specs.records import ServiceSpec, ToolSpec
from tests.services.sandbox_helpers import (
    REAL_BUILTINS,
    WRAP_CLOSE,
    sandbox_processes,
)

CONTACT = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                   "email": {"type": "string"}},
    "required": ["id", "name", "email"],
    "additionalProperties": False,
}
SCHEMAS = {"contacts": CONTACT}
FAST = Limits(call_timeout=1.0)

GOOD = """
def handler(state, arguments):
    record = {"id": state.new_id("contacts"), "name": arguments["name"],
              "email": arguments.get("email", "")}
    return state.put("contacts", record)
"""
WRONG = """
def handler(state, arguments):
    return ["not", "a", "contact"]
"""
RAISES_NOT_FOUND = """
def handler(state, arguments):
    state.put("contacts", {"id": state.new_id("contacts"), "name": "half", "email": ""})
    raise NotFound(f"no contact named {arguments['name']!r}")
"""
CRASHES = """
def handler(state, arguments):
    return 1 / 0
"""
LOOPS_WHEN_ASKED = """
def handler(state, arguments):
    while arguments.get("name") == "loop":
        pass
    return "fine"
"""
USES_THE_STDLIB = """
import collections, datetime, decimal, enum, hashlib, json, re, statistics, typing, uuid

Pair = collections.namedtuple("Pair", "a b")
Color = enum.Enum("Color", "RED GREEN")
T = typing.TypeVar("T")

def handler(state, arguments):
    day = datetime.datetime.strptime("2024-02-03", "%Y-%m-%d").date().isoformat()
    return {"day": day, "mean": statistics.mean([1, 2]), "pair": list(Pair(1, 2)),
            "sum": str(decimal.Decimal("1.1") + 1), "uuid": len(str(uuid.uuid4())),
            "digest": hashlib.sha256(b"x").hexdigest()[:8], "idna": "b\\u00fccher".encode(
            "idna").decode(), "red": Color.RED.name, "json": json.dumps({"a": 1}),
            "match": bool(re.match(r"\\d+", "42")), "cp1252": list("\u00e9".encode("cp1252"))}
"""


def hostile(body: str) -> str:
    """A handler whose body is one hostile statement (the target path is `arguments['to']`)."""
    return f"def handler(state, arguments):\n    {body}\n    return 'done'\n"


_BEFORE: set[int] = set()
_MADE: list[SandboxedHandler] = []


@pytest.fixture(autouse=True)
def _workers_before_the_test() -> None:
    """Workers that other tests' live handlers hold (a mounted world's templates stay
    cached for the session) are not this test's to count."""
    _MADE.clear()
    _BEFORE.clear()
    _BEFORE.update(_workers())


def children() -> list[int]:
    """Process ids of the sandbox processes this test started and left running."""
    return sorted(set(_workers()) - _BEFORE)


def _workers() -> list[int]:
    """Worker processes under this process (bwrap and what it runs), and every process in
    a pid namespace a worker of this test ran in (where anything it forked would be)."""
    namespaces = {n for h in _MADE for n in getattr(h, "worker_namespaces", [])}
    return sandbox_processes(namespaces)


@pytest.fixture
def sandbox() -> Iterator[Callable[..., SandboxedHandler]]:
    def make(source: str, limits: Limits = FAST) -> SandboxedHandler:
        _MADE.append(SandboxedHandler(source, limits=limits))  # schemas: the state's
        return _MADE[-1]

    yield make
    for handler in _MADE:
        handler.close()
    assert children() == []


def make_state() -> State:
    state = State(SCHEMAS)
    state.put("contacts", {"id": "con_0001", "name": "Ann", "email": "ann@example.com"})
    state.next_ids["contacts"] = 1
    return state


def make_service(handler: SandboxedHandler) -> Service:
    tool = ToolSpec(
        service="crm", name="crm__create_contact", description="Create a contact.",
        effect="create", resource="contacts", source="test", returns={},
        parameters={"type": "object", "properties": {"name": {"type": "string"},
                                                     "email": {"type": "string"}},
                    "required": ["name"]},
    )
    spec = ServiceSpec(name="crm", title="CRM", description="", domain="other", source="test",
                       resources=SCHEMAS, tools=[tool])
    state = make_state()
    return Service(spec, {tool.name: Tool(tool, "coded", handler)}, state)


def violation(handler: SandboxedHandler, arguments: dict | None = None) -> SandboxViolation:
    state = make_state()
    before = state.digest()
    with pytest.raises(SandboxViolation) as caught:
        handler(state, arguments or {"name": "x"})
    assert state.digest() == before
    assert handler.violations[-1] is caught.value
    assert children() == []  # the worker was killed with its whole process group
    return caught.value


def test_good_handler_updates_the_state_in_place(sandbox):
    handler = sandbox(GOOD)
    state = make_state()
    record = handler(state, {"name": "Bo", "email": "bo@example.com"})
    assert record == {"id": "con_0002", "name": "Bo", "email": "bo@example.com"}
    assert state.get("contacts", "con_0002") == record
    assert state.next_ids == {"contacts": 2}
    assert handler(state, {"name": "Cy"})["id"] == "con_0003"  # the same worker, again
    assert handler.calls == 2 and handler.violations == []


def test_good_handler_through_a_service(sandbox):
    service = make_service(sandbox(GOOD))
    result = service.call("crm__create_contact", {"name": "Bo"})
    assert result == {"success": True, "data": {"id": "con_0002", "name": "Bo", "email": ""}}
    assert set(service.state.records("contacts")) == {"con_0001", "con_0002"}
    assert service.call("crm__create_contact", {})["error"]["code"] == 400  # schema first


def test_state_put_still_validates_in_the_worker(sandbox):
    handler = sandbox('def handler(state, arguments):\n    return state.put("contacts", {"id": 1})')
    with pytest.raises(ToolError) as caught:
        handler(make_state(), {})
    assert caught.value.code == 422


def test_wrong_shape_still_comes_back(sandbox):
    service = make_service(sandbox(WRONG))
    assert service.call("crm__create_contact", {"name": "Bo"}) == {
        "success": True, "data": ["not", "a", "contact"]}


def test_not_found_is_a_404_and_leaves_the_state_alone(sandbox):
    handler = sandbox(RAISES_NOT_FOUND)
    state = make_state()
    before = state.digest()
    with pytest.raises(NotFound, match="no contact named 'Zed'"):
        handler(state, {"name": "Zed"})
    assert state.digest() == before
    service = make_service(handler)
    result = service.call("crm__create_contact", {"name": "Zed"})
    assert result["error"]["code"] == 404 and service.state.next_ids == {"contacts": 1}


def test_custom_tool_error_code_survives(sandbox):
    source = ("class Gone(ToolError):\n    code = 410\n\n"
              "def handler(state, arguments):\n    raise Gone('archived')\n")
    with pytest.raises(ToolError) as caught:
        sandbox(source)(make_state(), {})
    assert (caught.value.code, caught.value.message) == (410, "archived")


def test_integers_beyond_64_bits_come_back_exact(sandbox):
    assert sandbox("def handler(state, arguments):\n    return 2 ** 70\n")(make_state(), {}) == (
        2 ** 70)


def test_crash_is_a_500_not_a_violation(sandbox):
    handler = sandbox(CRASHES)
    result = make_service(handler).call("crm__create_contact", {"name": "Bo"})
    assert result["error"]["code"] == 500
    assert "ZeroDivisionError" in result["error"]["message"]
    assert handler.violations == []
    with pytest.raises(ToolError, match="ZeroDivisionError"):
        handler(make_state(), {})  # the worker survives an ordinary exception


def test_source_failing_to_load_answers_500(sandbox):
    handler = sandbox("undefined_name + 1\ndef handler(state, arguments):\n    return 1\n")
    with pytest.raises(ToolError, match="NameError") as caught:
        handler(make_state(), {})
    assert caught.value.code == 500 and handler.violations == []


def test_stdlib_modules_work_under_the_hook(sandbox):
    data = sandbox(USES_THE_STDLIB)(make_state(), {})
    assert data["day"] == "2024-02-03" and data["idna"] == "xn--bcher-kva"
    assert data["pair"] == [1, 2] and data["red"] == "RED" and data["match"] is True
    assert data["cp1252"] == [233]  # a codec loaded lazily, from the standard library
    assert {"json", "re", "datetime", "collections"} <= ALLOWED_MODULES


def test_endless_loop_times_out_and_the_next_call_gets_a_fresh_worker(sandbox):
    handler = sandbox(LOOPS_WHEN_ASKED)
    assert handler(make_state(), {"name": "warm"}) == "fine"
    started = time.monotonic()
    caught = violation(handler, {"name": "loop"})
    assert caught.kind == "timeout"
    assert time.monotonic() - started < FAST.call_timeout + 1
    assert handler(make_state(), {"name": "again"}) == "fine"
    result = make_service(handler).call("crm__create_contact", {"name": "loop"})
    assert result["error"]["code"] == 500 and "timeout" in result["error"]["message"]


def test_cpu_burn_is_killed_by_the_cpu_limit(sandbox):
    limits = Limits(cpu_seconds=0.5, call_timeout=8.0)
    started = time.monotonic()
    assert violation(sandbox(LOOPS_WHEN_ASKED, limits), {"name": "loop"}).kind == "cpu"
    assert time.monotonic() - started < limits.call_timeout  # the CPU limit struck first


BURN = "def handler(state, arguments):\n    for _ in range(arguments['n']):\n        pass\n"


def test_the_cpu_budget_is_per_call(sandbox):
    """Calls of ~0.15 s CPU each add up past a lifetime limit of 1 s; none is killed."""
    n, started = 200_000, time.process_time()
    exec(BURN + "handler(None, {'n': n})", {"n": n})  # our own code: calibrates the loop
    n = int(n * 0.15 / max(time.process_time() - started, 1e-3))
    handler = sandbox(BURN, Limits(cpu_seconds=0.5, call_timeout=5.0))
    for _ in range(8):
        handler(make_state(), {"n": n})
    assert handler.violations == []


@pytest.mark.parametrize("body, kind", [
    ("import socket", "forbidden_import"),
    ("__import__('os').system('touch ' + arguments['to'])", "forbidden_import"),
    ("open(arguments['to'], 'w').write('x')", "forbidden_operation"),
    ("return open('/etc/passwd').read()", "forbidden_operation"),
    ("import importlib; importlib.import_module('subprocess')", "forbidden_import"),
    ("from . import sibling", "forbidden_import"),
    ("exec('import os')", "forbidden_operation"),
    ("try:\n        import socket\n    except ImportError:\n        pass", "forbidden_import"),
])
def test_forbidden_code_is_a_violation(sandbox, tmp_path, body, kind):
    target = tmp_path / "pwned"
    handler = sandbox(hostile(body))
    caught = violation(handler, {"name": "x", "to": str(target)})
    assert caught.kind == kind and "not allowed" in caught.message
    assert not target.exists()


# Escapes from the restricted builtins reach the real ones; the audit hook reports them.


@pytest.mark.parametrize("body", [
    f"{REAL_BUILTINS}['open'](arguments['to'], 'w').write('x')",
    f"return {REAL_BUILTINS}['open']('/etc/passwd').read()",
    f"{REAL_BUILTINS}['__import__']('subprocess').run(['touch', arguments['to']])",
    f"{REAL_BUILTINS}['__import__']('socket').create_connection(('127.0.0.1', 9))",
    f"{REAL_BUILTINS}['__import__']('ctypes')",
    f"{WRAP_CLOSE}['system']('touch ' + arguments['to'])",
    f"{WRAP_CLOSE}['posix_spawn']('/usr/bin/touch', ['touch', arguments['to']], {{}})",
    f"{WRAP_CLOSE}['fork']()",
    f"{WRAP_CLOSE}['remove'](arguments['victim'])",
    f"{WRAP_CLOSE}['kill']({os.getpid()}, 0)",
    f"{WRAP_CLOSE}['sys'].modules['_imp'].create_dynamic(type('S', (), "
    "{'name': '_posixsubprocess', 'origin': '/x.so'})())",
    f"{WRAP_CLOSE}['sys'].modules['resource'].setrlimit(9, (-1, -1))",  # RLIMIT_AS
])
def test_escaped_builtins_are_stopped_by_the_audit_hook(sandbox, tmp_path, body):
    target, victim = tmp_path / "pwned", tmp_path / "victim"
    victim.write_text("keep me")
    caught = violation(sandbox(hostile(body)), {"name": "x", "to": str(target),
                                                "victim": str(victim)})
    assert caught.kind in ("forbidden_import", "forbidden_operation"), caught
    assert not target.exists() and victim.read_text() == "keep me"


@pytest.mark.parametrize("call", ["_thread'].start_new_thread(len, ())",
                                  "_signal'].signal(24, 1)"])
def test_threads_and_signal_handlers_are_out_of_reach(sandbox, call):
    handler = sandbox(hostile(f"{WRAP_CLOSE}['sys'].modules['{call}"))
    with pytest.raises(ToolError, match="AttributeError"):
        handler(make_state(), {})


def test_worker_exit_is_a_crash_with_its_stderr(sandbox):
    body = (f"{WRAP_CLOSE}['sys'].stderr.write('dying now\\n'); "
            f"{WRAP_CLOSE}['sys'].stderr.flush(); {WRAP_CLOSE}['_exit'](3)")
    caught = violation(sandbox(hostile(body)))
    assert caught.kind == "crash" and "status 3" in caught.message and "dying now" in caught.message


def test_forged_protocol_lines_are_a_violation(sandbox):
    body = ("for fd in range(3, 8):\n        try:\n"
            f"            {WRAP_CLOSE}['write'](fd, b'garbage\\n')\n"
            "        except OSError:\n            pass")
    assert violation(sandbox(hostile(body))).kind == "protocol"


def test_allocating_too_much_is_a_memory_violation(sandbox):
    source = ("def handler(state, arguments):\n"
              "    return len(bytearray(2_000_000_000 if arguments['name'] == 'big' else 10))\n")
    handler = sandbox(source, Limits(memory_mb=256))
    assert violation(handler, {"name": "big"}).kind == "memory"
    assert handler(make_state(), {"name": "small"}) == 10  # on a fresh worker


def test_syntax_error_is_a_violation_and_is_not_retried(sandbox):
    handler = sandbox("def handler(state, arguments) return 1")
    assert violation(handler).kind == "syntax"
    assert violation(handler).kind == "syntax"
    assert len(handler.violations) == 2 and handler.calls == 2


def test_endless_loop_while_loading_times_out(sandbox):
    caught = violation(sandbox("while True:\n    pass\n" + GOOD))
    assert caught.kind == "timeout" and "loading the source" in caught.message


def test_source_without_handler_is_a_violation(sandbox):
    assert violation(sandbox("def other(state, arguments):\n    return 1\n")).kind == (
        "missing_handler")


def test_forbidden_import_at_module_level(sandbox):
    assert violation(sandbox("import socket\n" + GOOD)).kind == "forbidden_import"


def test_violation_through_a_service_is_a_500(sandbox):
    service = make_service(sandbox(hostile("import socket")))
    result = service.call("crm__create_contact", {"name": "Bo"})
    assert result["error"]["code"] == 500
    assert "import of 'socket' is not allowed" in result["error"]["message"]
    assert service.state.records("contacts").keys() == {"con_0001"}


def test_print_does_not_break_the_protocol(sandbox):
    source = ("def handler(state, arguments):\n    print('noise')\n"
              f"    {REAL_BUILTINS}['print']('more noise')\n    return 'quiet'\n")
    assert sandbox(source)(make_state(), {}) == "quiet"


def test_close_is_idempotent_and_a_context_manager(sandbox):
    with SandboxedHandler(GOOD, SCHEMAS) as handler:
        _MADE.append(handler)
        handler(make_state(), {"name": "Bo"})
        assert len(children()) == 3  # bwrap, its pid namespace's init, the worker
    assert children() == []
    handler.close()


def test_source_hash_is_sha256_of_the_text():
    assert source_hash("x") == (
        "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881")

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

import pytest

from compoworld.services.runtime import Service, Tool
from compoworld.services.sandbox import (
    ALLOWED_MODULES,
    Limits,
    SandboxedHandler,
    SandboxViolation,
    source_hash,
)
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.world.state import NotFound, State, ToolError
from tests.conftest import REPO
from tests.services.sandbox_helpers import (
    REAL_BUILTINS,
    WORKER_MODULE,
    WRAP_CLOSE,
    disarmed,
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


# --- The review's escapes: the audit hook switched off, then the OS must hold. ---------------
# Each rebinds the worker's own tables (through a different handle) and then acts; the
# target must stay untouched and the violation be recorded with its kind.
REBIND = f"sys_ = {WRAP_CLOSE}['sys']\n    sys_.modules['{WORKER_MODULE}']._REFUSED_EVENTS = ()"
ROUTES = {
    "wrap_close": f"    {REBIND}\n    os = sys_.modules['os']",
    "traceback_frame": ("    try:\n        1 / 0\n    except ZeroDivisionError as error:\n"
                        "        g = error.__traceback__.tb_frame.f_back.f_globals\n"
                        "    g['_REFUSED_EVENTS'] = ()\n    os = g['os']"),
    "generator_frame": ("    def peek():\n        yield me.gi_frame.f_back.f_back.f_globals\n"
                        "    me = peek()\n    g = next(me)\n    g['_REFUSED_EVENTS'] = ()\n"
                        "    os = g['os']"),
    "closure_cell": ("    real_import = __builtins__['__import__'].__closure__\n"
                     "    cells = dict(zip(__builtins__['__import__'].__code__.co_freevars, "
                     "real_import))\n"
                     "    cells['allowed'].cell_contents = frozenset({'os', 'sys'}) | "
                     "cells['allowed'].cell_contents\n"
                     "    import os, sys as sys_\n"
                     f"    sys_.modules['{WORKER_MODULE}']._REFUSED_EVENTS = ()"),
    "gc_objects": (f"    sys_ = {WRAP_CLOSE}['sys']\n"
                   "    gc = sys_.modules['_imp'].create_builtin(type('S', (), "
                   "{'name': 'gc'})())\n"
                   "    g = [o for o in gc.get_objects() if type(o) is dict and "
                   "'_REFUSED_EVENTS' in o][0]\n    g['_REFUSED_EVENTS'] = ()\n    os = g['os']"),
    "realpath_globals": (f"    p = {WRAP_CLOSE}['path'].realpath.__globals__\n"
                         f"    p['sys'].modules['{WORKER_MODULE}']._REFUSED_EVENTS = ()\n"
                         "    os = p['os']"),
}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_rebinding_the_hook_then_running_the_shell_is_stopped(sandbox, tmp_path, route):
    target = tmp_path / "escaped"
    source = (f"def handler(state, arguments):\n{ROUTES[route]}\n"
              "    os.system('touch ' + arguments['to'])\n    return 'done'\n")
    caught = violation(sandbox(source), {"name": "x", "to": str(target)})
    assert caught.kind == "forbidden_operation", caught
    assert not target.exists()


@pytest.mark.parametrize("body", [
    "    os.posix_spawn('/usr/bin/touch', ['touch', arguments['to']], {})",
    "    if os.fork() == 0:\n        os.system('touch ' + arguments['to'])\n        os._exit(0)",
    "    B['open'](arguments['to'], 'w').write('x')",
    "    os.close(os.open(arguments['to'], os.O_CREAT | os.O_RDONLY))",
    "    B['open'](arguments['victim'], 'r+').truncate(0)",
    "    os.truncate(arguments['victim'], 0)",
    "    os.unlink(arguments['victim'])",
    "    os.mkdir(arguments['to'])",
])
def test_processes_and_file_changes_are_refused_by_the_os(sandbox, tmp_path, body):
    target, victim = tmp_path / "pwned", tmp_path / "victim"
    victim.write_text("keep me")
    caught = violation(sandbox(disarmed(body)), {"name": "x", "to": str(target),
                                                 "victim": str(victim)})
    assert caught.kind == "forbidden_operation", caught
    assert not target.exists() and victim.read_text() == "keep me"


def test_a_setsid_daemon_does_not_outlive_the_worker(sandbox):
    body = ("    if os.fork() == 0:\n        os.setsid()\n"
            "        while True:\n            pass")
    assert violation(sandbox(disarmed(body))).kind == "forbidden_operation"
    # `violation` and the fixture prove no process is left, in the worker's namespace or not


def test_host_files_and_the_parents_environment_are_not_readable(sandbox, monkeypatch):
    secret = f"s3cret-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("COMPOWORLD_TEST_SECRET", secret)
    body = ("    found = []\n"
            "    for path in ['/etc/passwd', f\"/proc/{arguments['pid']}/environ\", "
            "'/proc/self/environ']:\n"
            "        try:\n            found.append(B['open'](path, 'rb').read())\n"
            "        except OSError as error:\n            found.append(repr(error))\n"
            "    found.append(repr(os.environ))\n    return repr(found)")
    handler = sandbox(disarmed(body))
    state = make_state()
    try:
        seen = handler(state, {"name": "x", "pid": os.getpid()})
    except (SandboxViolation, ToolError) as error:
        seen = str(error)
    assert "root:x:0:0" not in seen and secret not in seen
    assert handler.violations and handler.violations[-1].kind == "forbidden_operation"


def test_no_connection_reaches_a_listening_socket(sandbox):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.5)
        port = server.getsockname()[1]
        body = ("    s = B['__import__']('socket')\n"
                f"    s.create_connection(('127.0.0.1', {port}), timeout=1).sendall(b'x')")
        assert violation(sandbox(disarmed(body))).kind == "forbidden_operation"
        with pytest.raises(TimeoutError):
            server.accept()


def test_signals_to_other_processes_are_refused(sandbox):
    import subprocess

    victim = subprocess.Popen(["sleep", "30"])
    try:
        body = ("    sig = sys_.modules['signal'] if 'signal' in sys_.modules else "
                "B['__import__']('signal')\n"
                "    fd = os.pidfd_open(arguments['victim'])\n"
                "    sig.pidfd_send_signal(fd, 9)\n"
                "    os.kill(arguments['parent'], 0)")
        caught = violation(sandbox(disarmed(body)), {"name": "x", "victim": victim.pid,
                                                      "parent": os.getpid()})
        assert caught.kind == "forbidden_operation"
        assert victim.poll() is None  # still alive
    finally:
        victim.kill()
        victim.wait()


def test_threads_are_refused_even_from_a_fresh_thread_module(sandbox):
    body = ("    t = sys_.modules['_imp'].create_builtin(type('S', (), {'name': '_thread'})())\n"
            "    t.start_new_thread(len, ((),))")
    assert violation(sandbox(disarmed(body))).kind == "forbidden_operation"


def test_priority_and_affinity_of_the_parent_are_untouched(sandbox):
    nice, affinity = os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0)
    body = ("    os.setpriority(os.PRIO_PROCESS, arguments['parent'], 19)\n"
            "    os.sched_setaffinity(arguments['parent'], {0})")
    try:
        caught = violation(sandbox(disarmed(body)), {"name": "x", "parent": os.getpid()})
        assert caught.kind == "forbidden_operation"
        assert os.getpriority(os.PRIO_PROCESS, 0) == nice
        assert os.sched_getaffinity(0) == affinity
    finally:  # against a sandbox that let it through
        os.setpriority(os.PRIO_PROCESS, 0, nice)
        os.sched_setaffinity(0, affinity)


def test_host_file_metadata_does_not_leak(sandbox, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("x" * 12345)
    link = tmp_path / "link"
    link.symlink_to(secret)
    body = ("    return [list(os.stat(arguments['file'])), os.readlink(arguments['link']), "
            "os.listdir(arguments['folder'])]")
    handler = sandbox(disarmed(body))
    with pytest.raises((ToolError, SandboxViolation)) as caught:
        handler(make_state(), {"name": "x", "file": str(secret), "link": str(link),
                               "folder": str(tmp_path)})
    assert "12345" not in str(caught.value) and "secret.txt" not in str(caught.value)
    assert "FileNotFoundError" in str(caught.value) or caught.type is SandboxViolation


HOST_FOLDERS = ("/etc", "/proc", "/home", "/tmp", "/dev", "/sys", "/var", str(REPO / ".git"))


def test_the_worker_runs_unprivileged_in_an_empty_root(sandbox, tmp_path):
    # A folder above the checkout (a clone under /tmp) exists, holding only the way down to
    # the worker's files: a file the test makes beside that way is not there.
    marker = tmp_path / "host-file"
    marker.write_text("host")
    probes = (*HOST_FOLDERS, str(marker))
    source = ("def handler(state, arguments):\n"
              f"    os = {WRAP_CLOSE}['sys'].modules['os']\n"  # stat and getuid are not audited
              "    return [os.getuid(), os.getgid(), os.getgroups(), "
              f"[p for p in {probes!r} if os.path.exists(p)]]\n")
    uid, gid, groups, visible = sandbox(source)(make_state(), {})
    way_down = {str(folder) for folder in REPO.parents}
    assert (uid, gid, groups, visible) == (65534, 65534, [],
                                          [p for p in HOST_FOLDERS if p in way_down])


FORGED = ('{"ok": "forged", "state": {"collections": {"contacts": {}}, "next_ids": {}}}\\n')
FORGE = ("    for fd in range(3, 9):\n        try:\n"
         f"            os.write(fd, b'{FORGED}')\n"
         "        except OSError:\n            pass")


def test_a_forged_reply_line_is_not_accepted(sandbox):
    handler = sandbox(disarmed(FORGE))
    state = make_state()
    with pytest.raises(SandboxViolation) as caught:
        handler(state, {"name": "x"})
    assert caught.value.kind == "protocol"
    assert state.records("contacts").keys() == {"con_0001"}


def test_a_forged_line_does_not_shift_later_replies(sandbox):
    # os.write is not audited: no hook needs switching off to forge a line
    source = ("def handler(state, arguments):\n"
              f"    os = {WRAP_CLOSE}['sys'].modules['os']\n"
              "    if arguments['forge']:\n" + FORGE.replace("\n", "\n    ").replace(
                  "    for", "        for", 1) + "\n    return arguments['n']\n")
    handler = sandbox(source)
    results = []
    for n, forge in ((1, True), (2, False), (3, False)):
        try:
            results.append(handler(make_state(), {"name": "x", "n": n, "forge": forge}))
        except SandboxViolation as error:
            results.append(error.kind)
    assert results == ["protocol", 2, 3]


@pytest.mark.parametrize("body, problem", [
    ("    state.collections['contacts']['con_0009'] = {'id': 'con_0009', 'name': 5}",
     "invalid record"),
    ("    state.collections['contacts']['con_0009'] = {'id': 'con_0001', 'name': 'a', "
     "'email': ''}", "does not carry that id"),
    ("    state.collections['evil'] = {}", "set of collections"),
    ("    state.next_ids['contacts'] = 'con_0100'", "id counter"),
    ("    state.next_ids['contacts'] = 0", "id counter"),
    ("    state.next_ids['evil'] = 3", "id counters"),
])
def test_returned_state_must_be_valid_state(sandbox, body, problem):
    source = f"def handler(state, arguments):\n{body}\n    return 'done'\n"
    caught = violation(sandbox(source))
    assert caught.kind == "protocol" and problem in caught.message, caught


def test_a_deeply_nested_reply_is_refused_without_recursion_errors(sandbox):
    deep = "    value = []\n    for _ in range(150):\n        value = [value]\n    return value"
    assert violation(sandbox(f"def handler(state, arguments):\n{deep}\n")).kind == "protocol"
    line = " " + "[" * 100_000 + "]" * 100_000 + "\\n"
    body = (f"    line = b'{line[:1]}' + b'[' * 100_000 + b']' * 100_000 + b'\\n'\n"
            "    for fd in range(3, 9):\n        try:\n            os.write(fd, line)\n"
            "        except OSError:\n            pass")
    assert violation(sandbox(disarmed(body))).kind == "protocol"


def test_a_result_too_large_is_a_memory_violation_not_a_crash(sandbox):
    source = "def handler(state, arguments):\n    return 'x' * (36 << 20)\n"
    assert violation(sandbox(source, Limits(call_timeout=10.0))).kind == "memory"


def test_nan_and_infinity_are_refused_not_turned_into_null(sandbox):
    for value in ("float('nan')", "[1.0, float('inf')]", "{'a': -float('inf')}"):
        handler = sandbox(f"def handler(state, arguments):\n    return {value}\n")
        with pytest.raises(ToolError, match="not JSON data") as caught:
            handler(make_state(), {})
        assert caught.value.code == 500


def test_without_bubblewrap_the_sandbox_refuses_to_run(monkeypatch):
    from compoworld.services.sandbox import SandboxUnavailable, sandbox_unavailable

    monkeypatch.setenv("COMPOWORLD_BWRAP", "/nonexistent/bwrap")
    assert "bubblewrap" in (sandbox_unavailable() or "")
    with pytest.raises(SandboxUnavailable, match="bubblewrap at /nonexistent/bwrap"):
        SandboxedHandler(GOOD, SCHEMAS)


def test_this_machine_provides_every_layer():
    """`make test` runs the sandbox with its real isolation; a machine that cannot must say
    so here, loudly, rather than skip."""
    from compoworld.services.sandbox import sandbox_unavailable

    assert sandbox_unavailable() is None

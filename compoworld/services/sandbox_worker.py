"""The sandbox's worker process: runs one coded handler's source, one JSON line per call.

Started by `sandbox.SandboxedHandler` inside bubblewrap (`sandbox_isolation.worker_command`:
`python -I -S -B -c <boot> <settings JSON> <sys.path entries>`); the factory imports this
module only for its constants and codec. Boot, all trusted: imports and preloads, rlimits,
the switch to uid/gid 65534 when started as root, then the seccomp filter the parent built;
only then is any input read. Lines: worker `{"booted"}`; parent `{"nonce", "source",
"schemas"}`; worker `{"nonce", "ready"}` or `{"nonce", "violation": {"kind", "message"}}`;
per call parent `{"nonce", "state", "arguments"}`, worker `{"nonce", "ok", "state"}`,
`{"nonce", "error": {"code", "message"}}` or `{"nonce", "violation"}`. The nonce is the
parent's, new for every line it sends.

The boundary is the OS (namespaces, uid, seccomp, rlimits). The audit hook, the restricted
builtins and the check that the hook was not tampered with only REPORT what a candidate
tried, so that its violation gets a kind; they are Python and can be undone by Python.
Replies are written with the standard json module, not orjson: it refuses NaN and Infinity,
raises MemoryError when the memory limit strikes (orjson segfaults) and keeps big integers.
"""
from __future__ import annotations

import builtins
import importlib
import json
import math
import os
import resource
import sys
import traceback
import types
from collections.abc import Callable
from typing import Any, BinaryIO

import orjson

ALLOWED_MODULES = frozenset({
    "json", "math", "re", "datetime", "decimal", "uuid", "hashlib", "itertools", "collections",
    "functools", "string", "random", "copy", "statistics", "typing", "dataclasses", "enum",
    "operator", "bisect", "heapq", "textwrap", "unicodedata",
})
# What allowed modules import lazily (strptime, codecs, reduce), harmless. C code imports
# them through the caller's `__import__` (datetime.strptime does), so the source may too.
_INTERNAL = frozenset({"_strptime", "locale", "_locale", "calendar", "encodings", "stringprep",
                       "copyreg", "warnings"})
_PRELOAD = ("collections.abc", "_strptime", "encodings.idna", "encodings.latin_1")
_REFUSED_EVENTS = (
    "socket.", "subprocess.", "os.", "shutil.", "ctypes.", "fcntl.", "mmap.", "pty.", "signal.",
    "resource.", "_thread.", "sys.addaudithook", "webbrowser.", "syslog.", "winreg.",
)
_LISTINGS = frozenset({"os.listdir", "os.scandir"})  # the import system lists stdlib folders
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Python 3.11 audits neither new threads (root ignores RLIMIT_NPROC) nor signal dispositions
# (ignoring SIGXCPU voids the CPU limit); the worker needs neither, so it drops them.
_DROPPED = {"_thread": ("start_new_thread", "start_new"), "_signal": ("signal", "pthread_sigmask")}
_STUBBED = ("open", "exec", "eval", "compile", "input", "breakpoint")  # calling one is reported
_REMOVED = (*_STUBBED, "help", "exit", "quit")


def dumps(value: Any) -> bytes:
    """One protocol line. orjson refuses integers beyond 64 bits; json writes those lines,
    led by a space that tells `loads` to read them with json (orjson would make floats)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS) + b"\n"
    except TypeError:
        return b" " + json.dumps(value, separators=(",", ":")).encode() + b"\n"


def loads(line: bytes) -> Any:
    """The value of one protocol line."""
    return json.loads(line) if line[:1] == b" " else orjson.loads(line)


def _import_runtime() -> types.ModuleType:
    # Typed state, its errors and validators live in world/state.py, which imports neither
    # pydantic nor the specs (~0.25 s, most of a start): a worker start stays near 60 ms.
    return importlib.import_module("compoworld.world.state")


def _arm_cpu(cpu_seconds: float) -> None:
    """Soft RLIMIT_CPU at "used so far + cpu_seconds", before each call (a per-call budget;
    SIGXCPU's default action kills even a loop stuck in C code). The worker does it itself:
    the parent lacks CAP_SYS_RESOURCE on these machines, so it cannot prlimit uid 65534.
    The filter lets only this limit change; a handler raising it only loses the `cpu` kind
    (the wall clock still kills it)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(usage.ru_utime + usage.ru_stime + cpu_seconds)
    resource.setrlimit(resource.RLIMIT_CPU,
                       (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _set_limits(cpu_seconds: float, memory_mb: int) -> None:
    _arm_cpu(cpu_seconds)
    for limit, value in ((resource.RLIMIT_AS, memory_mb << 20), (resource.RLIMIT_FSIZE, 0),
                         (resource.RLIMIT_CORE, 0), (resource.RLIMIT_NPROC, 0),
                         (resource.RLIMIT_NOFILE, 16)):
        _, hard = resource.getrlimit(limit)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(limit, (value, value))


def _drop_privileges(uid: int, gid: int) -> None:
    """Become uid/gid `uid`/`gid` with no supplementary groups; as root this also clears
    every capability. Under a user namespace bwrap has already mapped us to them."""
    if os.getuid() == 0:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid) or \
            not set(os.getgroups()) <= {gid}:  # unmapped groups show as the overflow gid
        raise SystemExit("the sandbox worker could not drop its privileges")


def _load_seccomp(program: bytes) -> int:
    """Install the parent's BPF filter (no_new_privs first, as the kernel requires) and
    return the no_new_privs flag as the kernel reports it. Through ctypes: Python has no
    prctl. ctypes leaves sys.modules afterwards; only the filter is a boundary."""
    import ctypes

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    code = ctypes.create_string_buffer(program, len(program))
    filter_program = Program(len(program) // 8, ctypes.addressof(code))
    # PR_SET_NO_NEW_PRIVS = 38, PR_GET_NO_NEW_PRIVS = 39, PR_SET_SECCOMP = 22, FILTER = 2
    no_new_privs = libc.prctl(38, 1, 0, 0, 0) == 0 and libc.prctl(39, 0, 0, 0, 0)
    if not no_new_privs or libc.prctl(22, 2, ctypes.byref(filter_program), 0, 0) != 0:
        raise SystemExit(f"the sandbox worker could not load its seccomp filter: "
                         f"{os.strerror(ctypes.get_errno())}")
    for name in [m for m in sys.modules if m == "ctypes" or m.startswith(("ctypes.", "_ctypes"))]:
        del sys.modules[name]
    return no_new_privs


def _audit_hook(record: list[tuple[str, str]]) -> Callable[[str, tuple[Any, ...]], None]:
    """A hook refusing side effects; each refusal is also recorded, so a handler that
    swallows the exception is still reported."""
    root = os.path.realpath(os.path.dirname(os.__file__)) + os.sep  # stdlib, lib-dynload too
    allowed = ALLOWED_MODULES | _INTERNAL

    def refuse(kind: str, message: str) -> None:
        record.append((kind, message))
        raise PermissionError(message)

    def readable(path: Any) -> bool:  # only the standard library (what imports read)
        if type(path) not in (str, bytes):  # no __fspath__ that answers twice differently
            return False
        return (os.path.realpath(os.fsdecode(path)) + os.sep).startswith(root)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "import":
            if str(args[0]).partition(".")[0] not in allowed:
                refuse("forbidden_import", f"import of {args[0]!r} is not allowed")
        elif event == "open":
            path, mode, flags = args
            if (isinstance(flags, int) and flags & _WRITE_FLAGS) or set(mode or "") & set("wax+"):
                refuse("forbidden_operation", f"opening {path!r} for writing is not allowed")
            if type(path) is not int and not readable(path):
                refuse("forbidden_operation", f"reading {path!r} is not allowed")
        elif event in _LISTINGS:
            if not readable(args[0]):
                refuse("forbidden_operation", f"listing {args[0]!r} is not allowed")
        elif event == "resource.setrlimit" and args[0] == resource.RLIMIT_CPU:
            pass  # the worker re-arms its CPU budget per call (see `_arm_cpu`)
        elif event.startswith(_REFUSED_EVENTS):
            refuse("forbidden_operation", f"{event} is not allowed in a coded handler")

    return hook


def _fingerprint(*functions: Any) -> tuple[Any, ...]:
    """What the report depends on: the functions' code and closures (recursively), this
    module's tables and the os functions the hook calls. Compared after each call, so a
    handler that rebinds them (to silence the hook) is reported, though not stopped."""
    seen: list[Any] = [ALLOWED_MODULES, _INTERNAL, _REFUSED_EVENTS, _LISTINGS, _WRITE_FLAGS,
                       os.path.realpath, os.path.dirname, os.fsdecode, os.sep, builtins.__import__]
    todo, visited = list(functions), set()
    while todo:
        function = todo.pop()
        visited.add(id(function))
        seen += [function, function.__code__, function.__defaults__]
        for cell in function.__closure__ or ():
            value = cell.cell_contents
            seen.append(value)
            if isinstance(value, types.FunctionType) and id(value) not in visited:
                todo.append(value)
    return tuple(seen)


def _tampered(expected: tuple[Any, ...], functions: tuple[Any, ...]) -> bool:
    try:
        found = _fingerprint(*functions)
    except Exception:  # noqa: BLE001 - a closure emptied or replaced by the handler
        return True
    return len(found) != len(expected) or any(a is not b for a, b in zip(found, expected,
                                                                          strict=True))


def _namespace(runtime: types.ModuleType, record: list[tuple[str, str]]) -> dict[str, Any]:
    """Globals for the source: restricted builtins plus the runtime's errors."""
    real_import, allowed = builtins.__import__, ALLOWED_MODULES | _INTERNAL

    def restricted_import(name: str, globals: Any = None, locals: Any = None,
                          fromlist: Any = (), level: int = 0) -> Any:
        if level or name.partition(".")[0] not in allowed:
            record.append(("forbidden_import", f"import of {name!r} is not allowed"))
            raise ImportError(f"import of {name!r} is not allowed")
        return real_import(name, globals, locals, fromlist, level)

    def forbidden(name: str) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            record.append(("forbidden_operation", f"calling {name}() is not allowed"))
            raise PermissionError(f"calling {name}() is not allowed")
        return refuse

    safe = {k: v for k, v in vars(builtins).items() if k not in _REMOVED and k[:2] != "__"}
    safe.update({name: forbidden(name) for name in _STUBBED})
    safe.update(__build_class__=builtins.__build_class__, __import__=restricted_import,
                __name__="builtins", print=lambda *args, **kwargs: None)  # stdout is ours
    errors = ("ToolError", "BadRequest", "NotFound", "Conflict", "Unprocessable")
    return {"__builtins__": safe, "__name__": "coded_handler",
            **{name: getattr(runtime, name) for name in errors}}


def _describe(error: BaseException) -> str:
    try:
        return f"{type(error).__name__}: {error}"
    except Exception:  # noqa: BLE001 - a hostile __str__
        return type(error).__name__


def _load(source: str, runtime: types.ModuleType, record: list[tuple[str, str]]) -> Any:
    """The source's `handler`, or a violation reply (dict) when it cannot be had."""
    try:
        code = compile(source, "<coded handler>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        return {"violation": {"kind": "syntax", "message": f"the source does not compile: "
                              f"{_describe(error)}"}}
    namespace = _namespace(runtime, record)
    try:
        exec(code, namespace)
    except MemoryError:
        record.append(("memory", "loading the source ran out of memory"))
    except BaseException as error:  # noqa: BLE001 - every call then answers with it (500)
        failure = f"the handler source failed to load: {_describe(error)}"

        def broken(state: Any, arguments: Any) -> Any:
            raise runtime.ToolError(failure)

        namespace["handler"] = broken
    if record:
        return {"violation": {"kind": record[0][0], "message": record[0][1]}}
    if not callable(namespace.get("handler")):
        return {"violation": {"kind": "missing_handler",
                              "message": "the source defines no function named `handler`"}}
    return namespace["handler"]


def reply_line(nonce: str, message: dict[str, Any]) -> bytes:
    """One reply line: the nonce first, then the message, in strict JSON (see the module
    doc for why json, not orjson)."""
    return json.dumps({"nonce": nonce, **message}, separators=(",", ":"),
                      allow_nan=False).encode() + b"\n"


def _call(handler: Any, request: Any, runtime: types.ModuleType, schemas: dict[str, Any],
          record: list[tuple[str, str]], max_reply: int) -> bytes:
    """One call's reply line; a violation recorded during the call wins over its result."""
    nonce, reply = str(request.get("nonce")), b""
    try:
        dump = request["state"]
        # Built directly rather than by State.load: the records were just parsed, a deep
        # copy would only cost time.
        state = runtime.State(schemas, dump["collections"], dump["next_ids"])
        data = handler(state, request["arguments"])
    except MemoryError:
        record.append(("memory", "the handler ran out of memory (MemoryError)"))
    except runtime.ToolError as error:
        code = error.code if type(error.code) is int else 500
        reply = reply_line(nonce, {"error": {"code": code,
                                             "message": str(getattr(error, "message", ""))}})
    except BaseException as error:  # noqa: BLE001 - a bug in the handler: a 500, no violation
        reply = reply_line(nonce, {"error": {"code": 500, "message": _describe(error)}})
    else:
        try:
            reply = reply_line(nonce, {"ok": data, "state": {"collections": state.collections,
                                                             "next_ids": state.next_ids}})
        except MemoryError:
            record.append(("memory", "the handler's result and state ran out of memory as "
                                     "JSON (MemoryError)"))
        except (ValueError, TypeError, RecursionError) as error:
            reply = reply_line(nonce, {"error": {"code": 500, "message": (
                f"the handler's result or state is not JSON data ({_describe(error)}); return "
                "dicts, lists, strings, finite numbers, booleans and None")}})
        except BaseException as error:  # noqa: BLE001 - e.g. a hostile dict subclass
            reply = reply_line(nonce, {"error": {"code": 500, "message": _describe(error)}})
        if len(reply) > max_reply:
            record.append(("memory", f"the handler's result and state take {len(reply) >> 20} "
                                     f"MiB as JSON, more than the {max_reply >> 20} MiB allowed"))
    if record:
        return reply_line(nonce, {"violation": {"kind": record[0][0], "message": record[0][1]}})
    return reply


def _probe(outbox: BinaryIO, no_new_privs: int) -> None:
    """Report what the sandbox made of this process, then make a forbidden system call:
    the parent checks the report and that seccomp killed us (SIGSYS)."""
    _send(outbox, json.dumps({
        "uid": os.getuid(), "gid": os.getgid(), "groups": sorted(set(os.getgroups()) - {
            os.getgid()}), "no_new_privs": no_new_privs, "root": sorted(os.listdir("/")),
    }).encode() + b"\n")
    os.kill(os.getpid(), 0)
    os._exit(3)  # not reached while the filter holds


def preload() -> types.ModuleType:
    """Import everything a handler may use (before any limit or filter): the runtime, the
    allowed modules and what they load lazily. Returns the runtime module."""
    runtime = _import_runtime()
    for name in (*sorted(ALLOWED_MODULES), *_PRELOAD, "ctypes"):
        importlib.import_module(name)
    return runtime


def main(settings_line: str) -> None:
    """Boot (see the module doc), then serve one handler until stdin closes."""
    settings = json.loads(settings_line)
    inbox, outbox = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    os.dup2(2, 0)  # reading stdin fails (a write end): the requests are not there
    os.dup2(2, 1)  # anything the source writes to stdout lands in stderr, not the protocol
    sys.stdout = sys.stderr
    runtime = preload()
    uuid = sys.modules["uuid"]
    # uuid1 would ask libuuid, which opens a socket to uuidd (refused): give it Python's
    # time-based path and a random node, as on a machine without a MAC address.
    uuid._generate_time_safe, uuid._node = None, uuid._random_getnode()
    for module, names in _DROPPED.items():
        for name in names:
            delattr(sys.modules[module], name)
    if not settings.get("probe"):
        _set_limits(settings["cpu_seconds"], settings["memory_mb"])
    _drop_privileges(settings["uid"], settings["gid"])
    no_new_privs = _load_seccomp(bytes.fromhex(settings["seccomp"]))
    if settings.get("probe"):
        _probe(outbox, no_new_privs)
    _send(outbox, b'{"booted":true}\n')
    try:
        _serve(inbox, outbox, runtime, settings["max_reply"], settings["cpu_seconds"])
    except BaseException:  # noqa: BLE001 - a worker bug: say so on stderr, then exit
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(70)
    os._exit(0)  # no interpreter shutdown: it would restore signal handlers (refused)


_TAMPERED = {"violation": {"kind": "forbidden_operation", "message": (
    "the handler changed the sandbox worker's own code or data (its audit hook); "
    "that is not allowed")}}


def _serve(inbox: BinaryIO, outbox: BinaryIO, runtime: types.ModuleType, max_reply: int,
           cpu_seconds: float) -> None:
    init = loads(inbox.readline() or b"null")
    if not isinstance(init, dict):
        return
    nonce, schemas = str(init.get("nonce")), init["schemas"]
    for schema in schemas.values():  # compiled now: validators are made with exec/imports
        runtime.compile_validator(schema)
    record: list[tuple[str, str]] = []
    hook = _audit_hook(record)
    sys.addaudithook(hook)  # kept by the interpreter only: no handle to undo it
    functions = (hook, _namespace, _fingerprint, _tampered, _call)
    expected = _fingerprint(*functions)  # before the source's own module code runs
    handler = _load(init["source"], runtime, record)
    if not isinstance(handler, dict) and _tampered(expected, functions):
        handler = _TAMPERED
    if isinstance(handler, dict):
        _send(outbox, reply_line(nonce, handler))
        return
    _send(outbox, reply_line(nonce, {"ready": True}))
    for line in inbox:
        record.clear()
        request = loads(line)
        _arm_cpu(cpu_seconds)
        reply = _call(handler, request, runtime, schemas, record, max_reply)
        if _tampered(expected, functions):
            reply = reply_line(str(request.get("nonce")), _TAMPERED)
        _send(outbox, reply)


def _send(outbox: BinaryIO, line: bytes) -> None:
    outbox.write(line)
    outbox.flush()

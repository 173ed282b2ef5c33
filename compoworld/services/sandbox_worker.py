"""The sandbox's worker process: runs one coded handler's source, one JSON line per call.

Started by `sandbox.SandboxedHandler` (`python -I -S -B -c <boot> <sys.path entries>`); the
factory imports this module only for its constants and codec. Lines: worker `{"booted"}`;
parent `{"source", "schemas", "cpu_seconds", "memory_mb"}`; worker `{"ready"}` or
`{"violation": {"kind", "message"}}`; per call parent `{"state", "arguments"}`, worker
`{"ok", "state"}`, `{"error": {"code", "message"}}` or `{"violation"}`. Defences, outermost
first: rlimits, an audit hook refusing side effects (files, network, processes, os calls,
new imports), restricted builtins. Introspection stays: namedtuple and Enum need frames.
"""
from __future__ import annotations

import builtins
import importlib
import json
import math
import os
import resource
import sys
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
    # runtime needs ServiceSpec/ToolSpec only as annotations; the real module loads pydantic
    # (~0.25 s, most of a start), so stand-ins keep a worker start near 60 ms.
    specs, records = types.ModuleType("compoworld.specs"), types.ModuleType("records")
    specs.__path__ = []
    records.ServiceSpec = records.ToolSpec = type("SpecStandIn", (), {})
    sys.modules.setdefault("compoworld.specs", specs)
    sys.modules.setdefault("compoworld.specs.records", records)
    return importlib.import_module("compoworld.services.runtime")


def _set_limits(cpu_seconds: float, memory_mb: int) -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    # Soft CPU limit only: the parent raises it before each call (per-call budget); SIGXCPU's
    # default action kills even a loop stuck in C code.
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(usage.ru_utime + usage.ru_stime + cpu_seconds)
    resource.setrlimit(resource.RLIMIT_CPU,
                       (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    # NPROC 0 stops fork/threads for an unprivileged user (root is exempt by the kernel).
    for limit, value in ((resource.RLIMIT_AS, memory_mb << 20), (resource.RLIMIT_FSIZE, 0),
                         (resource.RLIMIT_CORE, 0), (resource.RLIMIT_NPROC, 0),
                         (resource.RLIMIT_NOFILE, 16)):
        _, hard = resource.getrlimit(limit)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(limit, (value, value))


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
        elif event.startswith(_REFUSED_EVENTS):
            refuse("forbidden_operation", f"{event} is not allowed in a coded handler")

    return hook


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


def _call(handler: Any, request: Any, runtime: types.ModuleType, schemas: dict[str, Any],
          record: list[tuple[str, str]]) -> bytes:
    """One call's reply line; a violation recorded during the call wins over its result."""
    reply = b""
    try:
        dump = request["state"]
        # Built directly rather than by State.load: the records were just parsed, a deep
        # copy would only cost time.
        state = runtime.State(schemas, dump["collections"], dump["next_ids"])
        data = handler(state, request["arguments"])
        reply = dumps({"ok": data, "state": {"collections": state.collections,
                                             "next_ids": state.next_ids}})
    except MemoryError:
        record.append(("memory", "the handler ran out of memory (MemoryError)"))
    except runtime.ToolError as error:
        code = error.code if type(error.code) is int else 500
        reply = dumps({"error": {"code": code, "message": str(getattr(error, "message", ""))}})
    except BaseException as error:  # noqa: BLE001 - a bug in the handler: a 500, no violation
        reply = dumps({"error": {"code": 500, "message": _describe(error)}})
    if record:
        return dumps({"violation": {"kind": record[0][0], "message": record[0][1]}})
    return reply


def main() -> None:
    """Serve one handler until stdin closes."""
    inbox, outbox = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # anything the source writes to stdout lands in stderr, not the protocol
    sys.stdout = sys.stderr
    runtime = _import_runtime()
    for name in (*sorted(ALLOWED_MODULES), *_PRELOAD):
        importlib.import_module(name)
    for module, names in _DROPPED.items():
        for name in names:
            delattr(sys.modules[module], name)
    _send(outbox, b'{"booted":true}\n')
    init = loads(inbox.readline() or b"null")
    if not isinstance(init, dict):
        return
    schemas = init["schemas"]
    for schema in schemas.values():  # compiled now: validators are made with exec/imports
        runtime.compile_validator(schema)
    record: list[tuple[str, str]] = []
    _set_limits(init["cpu_seconds"], init["memory_mb"])
    sys.addaudithook(_audit_hook(record))  # kept by the interpreter only: no handle to undo it
    handler = _load(init["source"], runtime, record)
    if isinstance(handler, dict):
        _send(outbox, dumps(handler))
        return
    _send(outbox, b'{"ready":true}\n')
    for line in inbox:
        record.clear()
        _send(outbox, _call(handler, loads(line), runtime, schemas, record))


def _send(outbox: BinaryIO, line: bytes) -> None:
    outbox.write(line)
    outbox.flush()

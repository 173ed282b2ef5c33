"""Sandboxed coded handlers: LLM-written handler source, run in a locked-down worker process.

A coded tool's handler is Python source text; it never runs in the factory's process.
`SandboxedHandler(source)` has the handler signature: each call ships the state's records
and the arguments as one JSON line to a persistent worker (`sandbox_worker.py`), and puts
the worker's resulting state back into the caller's `State`, in place, only when the
handler returned normally. The worker confines the source (rlimits, an audit hook,
restricted builtins); this side adds a wall clock per call and kills the worker's whole
process group on a timeout or any violation. The next call starts a fresh worker.

Measured on a busy 2-core box: a worker start 60-100 ms (~70 ms of CPU); a call 0.15-0.3 ms
with a small state, ~3 ms with 1,000 records (the whole state crosses as JSON both ways).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import math
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compoworld.services.runtime import (
    BadRequest,
    Conflict,
    NotFound,
    State,
    ToolError,
    Unprocessable,
)
from compoworld.services.sandbox_worker import ALLOWED_MODULES, dumps, loads

__all__ = ["ALLOWED_MODULES", "Limits", "SandboxViolation", "SandboxedHandler", "source_hash"]

KINDS = frozenset({"forbidden_import", "forbidden_operation", "timeout", "memory", "cpu",
                   "crash", "syntax", "missing_handler", "protocol"})
_ERRORS: dict[int, type[ToolError]] = {400: BadRequest, 404: NotFound, 409: Conflict,
                                       422: Unprocessable}
_BOOT = ("import sys; sys.path[:0] = sys.argv[1:]; "
         "from compoworld.services.sandbox_worker import main; main()")
_MAX_REPLY = 64 << 20  # a reply beyond this is a runaway handler, not data
_STDERR_TAIL = 2000


@dataclass(frozen=True, slots=True)
class Limits:
    """What one worker may use.

    `cpu_seconds` is a per-call budget: the worker's soft RLIMIT_CPU is re-armed at
    "used so far + cpu_seconds" (whole seconds, rounded up) before each call, so a long-lived
    worker is not killed by the sum of many innocent calls.
    """

    cpu_seconds: float = 2.0
    memory_mb: int = 512
    call_timeout: float = 5.0
    startup_timeout: float = 20.0


class SandboxViolation(RuntimeError):
    """Generated code did something forbidden, ran too long, or broke its worker."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def source_hash(source: str) -> str:
    """SHA-256 hex digest of the source text (utf-8)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


@functools.cache
def _worker_path() -> tuple[str, ...]:
    """sys.path of the worker (it runs with -I -S): the repo root and the folders of
    runtime's dependencies, nothing else."""
    folders = [str(Path(__file__).resolve().parents[2])]
    for name in ("orjson", "fastjsonschema", "jsonschema"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            folders.append(str(Path(spec.origin).resolve().parents[1]))
    return tuple(dict.fromkeys(folders))


class SandboxedHandler:
    """Callable with the handler signature: runs `source`'s `handler(state, arguments)` in a
    worker subprocess. Raises the `ToolError` (by code) the handler raised, a `ToolError`
    coded 500 for any other exception of the handler, and `SandboxViolation` for anything
    forbidden, too slow or fatal. `schemas` default to those of the first call's state."""

    def __init__(self, source: str, schemas: dict[str, dict] | None = None,
                 limits: Limits = Limits()) -> None:  # noqa: B008 - frozen, safe to share
        self.source = source
        self.schemas = schemas
        self.limits = limits
        self.violations: list[SandboxViolation] = []
        self.calls = 0
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: str | None = None
        self._pending = bytearray()
        self._stderr = b""
        self._poll = select.poll()
        self._fixed: SandboxViolation | None = None  # syntax/missing handler: no restart helps

    def __call__(self, state: State, arguments: dict) -> Any:
        with self._lock:
            self.calls += 1
            if self._fixed is not None:
                raise self._fail(self._fixed.kind, self._fixed.message)
            if self._process is None:
                self._start(state.schemas if self.schemas is None else self.schemas)
            self._rearm_cpu()
            deadline = time.monotonic() + self.limits.call_timeout
            self._send({"state": {"collections": state.collections, "next_ids": state.next_ids},
                        "arguments": arguments}, deadline, "the handler")
            reply = self._receive(deadline, "the handler")
            if "ok" in reply:
                new = reply.get("state")
                if not (isinstance(new, dict) and isinstance(new.get("collections"), dict)
                        and isinstance(new.get("next_ids"), dict)):
                    raise self._fail("protocol", "the worker's reply holds no valid state")
                state.collections, state.next_ids = new["collections"], new["next_ids"]
                return reply["ok"]
            error = reply.get("error")
            if not isinstance(error, dict):
                raise self._fail("protocol", f"unexpected reply keys {sorted(reply)}")
            raise _tool_error(error)

    def close(self) -> None:
        """Stop the worker (the next call would start a new one)."""
        with self._lock:
            self._stop()

    def __enter__(self) -> SandboxedHandler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self._stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown: nothing left to do
            pass

    def _start(self, schemas: dict[str, Any]) -> None:
        self._folder = tempfile.mkdtemp(prefix="compoworld-sandbox-")  # stays empty
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-B", "-c", _BOOT, *_worker_path()],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self._folder, env={"PATH": os.environ.get("PATH", os.defpath)},
                close_fds=True, start_new_session=True,
            )
        except OSError as error:
            raise self._fail("crash", f"the worker could not start: {error}") from None
        assert self._process.stdin and self._process.stdout and self._process.stderr
        os.set_blocking(self._process.stdin.fileno(), False)  # writes obey the deadline
        self._pending.clear()
        self._stderr = b""
        self._poll = select.poll()
        self._poll.register(self._process.stdout.fileno(), select.POLLIN)
        self._poll.register(self._process.stderr.fileno(), select.POLLIN)
        deadline = time.monotonic() + self.limits.startup_timeout
        self._send({"source": self.source, "schemas": schemas,
                    "cpu_seconds": self.limits.cpu_seconds, "memory_mb": self.limits.memory_mb},
                   deadline, "the worker's start")
        if self._receive(deadline, "the worker's start").get("booted") is not True:
            raise self._fail("protocol", "the worker did not report its start")
        deadline = time.monotonic() + self.limits.call_timeout
        if self._receive(deadline, "loading the source").get("ready") is not True:
            raise self._fail("protocol", "the worker did not report the source loaded")

    def _rearm_cpu(self) -> None:
        """Give this call its own CPU budget (see `Limits`); Linux only, else lifetime."""
        assert self._process is not None
        pid = self._process.pid
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
            used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            _, hard = resource.prlimit(pid, resource.RLIMIT_CPU)
            soft = math.ceil(used + self.limits.cpu_seconds)
            soft = soft if hard == resource.RLIM_INFINITY else min(soft, hard)
            resource.prlimit(pid, resource.RLIMIT_CPU, (soft, hard))
        except (OSError, AttributeError, ValueError, IndexError):
            pass

    def _send(self, message: dict[str, Any], deadline: float, what: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        data, fd = memoryview(dumps(message)), self._process.stdin.fileno()
        writable = select.poll()
        writable.register(fd, select.POLLOUT)
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._timeout(what)
            if writable.poll(remaining * 1000):
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    continue
                except OSError:  # broken pipe: the worker is gone
                    raise self._died() from None

    def _receive(self, deadline: float, what: str) -> dict[str, Any]:
        assert self._process is not None and self._process.stdout and self._process.stderr
        err = self._process.stderr.fileno()
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._timeout(what)
            for fd, _ in self._poll.poll(remaining * 1000):
                chunk = os.read(fd, 1 << 20)
                if fd == err:
                    self._stderr = (self._stderr + chunk)[-_STDERR_TAIL:]
                    if not chunk:
                        self._poll.unregister(err)
                elif not chunk:
                    raise self._died()
                elif len(self._pending) + len(chunk) > _MAX_REPLY:
                    raise self._fail("protocol", f"a reply larger than {_MAX_REPLY >> 20} MiB")
                else:
                    self._pending += chunk
        end = self._pending.index(b"\n")
        line = bytes(self._pending[:end])
        del self._pending[:end + 1]
        try:
            reply = loads(line)
        except ValueError:
            raise self._fail("protocol", f"the worker wrote a line that is not JSON: "
                                         f"{line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise self._fail("protocol", f"the worker wrote {line[:200]!r}")
        violation = reply.get("violation")
        if violation is not None:
            kind = violation.get("kind") if isinstance(violation, dict) else None
            if kind not in KINDS:
                raise self._fail("protocol", f"unknown violation {violation!r:.200}")
            failure = self._fail(kind, str(violation.get("message", "")))
            if kind in ("syntax", "missing_handler"):
                self._fixed = failure
            raise failure
        return reply

    def _timeout(self, what: str) -> SandboxViolation:
        return self._fail("timeout", f"{what} ran past its wall-clock limit; its worker was "
                                     "killed")

    def _died(self) -> SandboxViolation:
        """The violation for a worker that exited on its own."""
        assert self._process is not None and self._process.stderr is not None
        try:
            code = self._process.wait(timeout=1)
            self._stderr = (self._stderr + self._process.stderr.read())[-_STDERR_TAIL:]
        except subprocess.TimeoutExpired:
            code = None
        if code in (-signal.SIGXCPU, -signal.SIGKILL):
            return self._fail("cpu", f"the handler used more than its {self.limits.cpu_seconds} "
                                     f"s of CPU; killed by {_signal_name(-code)}")
        how = f"signal {_signal_name(-code)}" if code and code < 0 else f"status {code}"
        tail = self._stderr.decode("utf-8", "replace").strip()[-500:]
        return self._fail("crash", f"the worker died ({how}): {tail or 'no output'}")

    def _fail(self, kind: str, message: str) -> SandboxViolation:
        """Record a violation and stop the worker; the caller raises what this returns."""
        failure = SandboxViolation(kind, message)
        self.violations.append(failure)
        self._stop()
        return failure

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.returncode is None:  # not reaped yet, so its group id is still its own
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            process.wait()
            for pipe in (process.stdin, process.stdout, process.stderr):
                if pipe is not None:
                    pipe.close()
        folder, self._folder = self._folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def _tool_error(error: dict[str, Any]) -> ToolError:
    """The handler's error as the `ToolError` subclass of its code (500s stay `ToolError`)."""
    code, message = error.get("code"), str(error.get("message", ""))
    kind = _ERRORS.get(code) if isinstance(code, int) else None
    if kind is not None:
        return kind(message)
    failure = ToolError(message)
    failure.code = code if isinstance(code, int) else 500
    return failure

"""Sandboxed coded handlers: LLM-written handler source, run in an isolated worker process.

A coded tool's handler is Python source text; it never runs in the factory's process.
`SandboxedHandler(source)` has the handler signature: each call ships the state's records
and the arguments as one JSON line to a persistent worker (`sandbox_worker.py`) and puts the
worker's resulting state back into the caller's `State`, in place, only when the handler
returned normally and the reply passed every check (`sandbox_reply`).

Layers, outermost first (`sandbox_isolation` says how each is built and why): bubblewrap
namespaces (no network, own pid/ipc/uts/mount namespaces, a read-only root with only the
interpreter, the standard library and the worker's files), uid/gid 65534 without
capabilities and with no_new_privs, a seccomp filter that kills the worker on any process,
network, signal or file-changing system call, rlimits (CPU per call, address space, no
file writes, 16 fds, no core), and this side's wall clock per call. An audit hook and
restricted builtins in the worker only report what a candidate tried, so that its violation
has a kind. Each line the parent sends carries a fresh random nonce; a reply must be exactly
one line carrying it. Any violation kills the worker's whole pid namespace (its init dies,
the kernel kills the rest); the next call starts a fresh worker. When a layer cannot be had
here, `SandboxedHandler` raises `SandboxUnavailable` with the reason before anything runs.

Measured on this project's 2-core box (load ~2.5), medians of 8 workers, 400 small and
160 large calls, the audit-hook sandbox before and this one after: a worker start (with its
first call) 79-103 ms before, 130 ms now (bwrap's namespaces and mounts, the uid switch and
the seccomp load); a call with 3 records 0.16 ms before, 0.21 ms now; with 1,000 records
1.3 ms before, 5.7 ms now (the worker writes its reply with json instead of orjson, ~3 ms,
and the parent compares every record with its own and validates the changed ones). The
first worker of a process also pays ~0.9 s once: listing the files to bind (an import
probe and `ldd`) and the trial worker of `sandbox_unavailable`.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import select
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from compoworld.services.sandbox_isolation import (
    SandboxUnavailable,
    require_sandbox,
    sandbox_unavailable,
    worker_command,
)
from compoworld.services.sandbox_reply import BadReply, check_depth, checked_state, parse_line
from compoworld.services.sandbox_worker import ALLOWED_MODULES, dumps
from compoworld.world.state import BadRequest, Conflict, NotFound, State, ToolError, Unprocessable

__all__ = ["ALLOWED_MODULES", "Limits", "SandboxUnavailable", "SandboxViolation",
           "SandboxedHandler", "require_sandbox", "sandbox_unavailable", "source_hash"]

KINDS = frozenset({"forbidden_import", "forbidden_operation", "timeout", "memory", "cpu",
                   "crash", "syntax", "missing_handler", "protocol"})
_ERRORS: dict[int, type[ToolError]] = {400: BadRequest, 404: NotFound, 409: Conflict,
                                       422: Unprocessable}
_STDERR_TAIL = 2000
_REPLY_KEYS = ({"nonce", "ok", "state"}, {"nonce", "error"}, {"nonce", "ready"})


@dataclass(frozen=True, slots=True)
class Limits:
    """What one worker may use.

    `cpu_seconds` is a per-call budget: the worker re-arms its soft RLIMIT_CPU at
    "used so far + cpu_seconds" (whole seconds, rounded up) before each call, so a long-lived
    worker is not killed by the sum of many innocent calls. `reply_mb` caps one reply (the
    result and the whole state, as JSON).
    """

    cpu_seconds: float = 2.0
    memory_mb: int = 512
    call_timeout: float = 5.0
    startup_timeout: float = 20.0
    reply_mb: int = 32


class SandboxViolation(RuntimeError):
    """Generated code did something forbidden, ran too long, or broke its worker."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def source_hash(source: str) -> str:
    """SHA-256 hex digest of the source text (utf-8)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


_SPAWNERS: dict[int, ThreadPoolExecutor] = {}


def _spawn(command: list[str], **options: Any) -> subprocess.Popen[bytes]:
    """Start `command` from one long-lived thread per process: --die-with-parent follows
    the thread that forked bwrap, and a Dask or Prefect thread that ends would take every
    worker it started with it."""
    spawner = _SPAWNERS.get(os.getpid())
    if spawner is None:  # one per pid: a forked child's copy has no thread behind it
        spawner = _SPAWNERS.setdefault(os.getpid(), ThreadPoolExecutor(
            1, thread_name_prefix="sandbox-spawner"))
    return spawner.submit(subprocess.Popen, command, **options).result()


class SandboxedHandler:
    """Callable with the handler signature: runs `source`'s `handler(state, arguments)` in a
    sandboxed worker. Raises the `ToolError` (by code) the handler raised, a `ToolError`
    coded 500 for any other exception of the handler, `SandboxViolation` for anything
    forbidden, too slow, too big or fatal, and `SandboxUnavailable` (at once) when this
    machine cannot sandbox. `schemas` default to those of the first call's state.
    `worker_namespaces` lists the pid namespace of every worker it started."""

    def __init__(self, source: str, schemas: dict[str, dict] | None = None,
                 limits: Limits = Limits()) -> None:  # noqa: B008 - frozen, safe to share
        require_sandbox()
        self.source = source
        self.schemas = schemas
        self.limits = limits
        self.violations: list[SandboxViolation] = []
        self.worker_namespaces: list[int] = []
        self.calls = 0
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._info = -1  # read end of bwrap's --info-fd
        self._init_fd = -1  # pidfd of the pid namespace's init
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
            elif self._pending or self._readable():
                raise self._fail("protocol", "the worker wrote a line no call asked for")
            nonce = secrets.token_hex(16)
            deadline = time.monotonic() + self.limits.call_timeout
            self._send({"nonce": nonce, "state": {"collections": state.collections,
                                                  "next_ids": state.next_ids},
                        "arguments": arguments}, deadline, "the handler")
            reply = self._receive(deadline, "the handler", nonce)
            if "ok" in reply:
                try:
                    check_depth(reply["ok"], "the handler's result")
                    collections, next_ids = checked_state(state, reply["state"])
                except BadReply as error:
                    raise self._fail("protocol", str(error)) from None
                state.collections, state.next_ids = collections, next_ids
                return reply["ok"]
            error = reply.get("error")
            if not isinstance(error, dict):
                raise self._fail("protocol", "the worker's reply holds neither a result nor "
                                             "an error object")
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
        settings = {"cpu_seconds": self.limits.cpu_seconds, "memory_mb": self.limits.memory_mb,
                    "max_reply": self.limits.reply_mb << 20}
        self._info, info_write = os.pipe()
        try:
            self._process = _spawn(
                worker_command(settings, info_write), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={}, close_fds=True,
                pass_fds=(info_write,), start_new_session=True)
        except OSError as error:
            raise self._fail("crash", f"the worker could not start: {error}") from None
        finally:
            os.close(info_write)
        assert self._process.stdin and self._process.stdout and self._process.stderr
        os.set_blocking(self._process.stdin.fileno(), False)  # writes obey the deadline
        self._pending.clear()
        self._stderr = b""
        self._poll = select.poll()
        self._poll.register(self._process.stdout.fileno(), select.POLLIN)
        self._poll.register(self._process.stderr.fileno(), select.POLLIN)
        deadline = time.monotonic() + self.limits.startup_timeout
        if self._receive(deadline, "the worker's start", None).get("booted") is not True:
            raise self._fail("protocol", "the worker did not report its start")
        self._find_worker(deadline)
        nonce = secrets.token_hex(16)
        self._send({"nonce": nonce, "source": self.source, "schemas": schemas}, deadline,
                   "the worker's start")
        deadline = time.monotonic() + self.limits.call_timeout
        if self._receive(deadline, "loading the source", nonce).get("ready") is not True:
            raise self._fail("protocol", "the worker did not report the source loaded")

    def _find_worker(self, deadline: float) -> None:
        """A pidfd of the pid namespace's init (from bwrap's --info-fd), taken while it still
        runs: the worker has reported its boot, and the init waits for the worker."""
        data = b""
        while not data.endswith(b"}") and time.monotonic() < deadline:
            select.select([self._info], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(self._info, 4096)
            if not chunk:
                break
            data += chunk.strip()
        try:
            info = json.loads(data)
            init = int(info["child-pid"])
            self.worker_namespaces.append(int(info["pid-namespace"]))
            self._init_fd = os.pidfd_open(init)
        except (ValueError, KeyError, IndexError, OSError) as error:
            raise self._fail("crash", f"bubblewrap did not say where the worker runs: "
                                      f"{error}") from None

    def _readable(self) -> bool:
        assert self._process is not None and self._process.stdout is not None
        return bool(select.select([self._process.stdout.fileno()], [], [], 0)[0])

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

    def _receive(self, deadline: float, what: str, nonce: str | None) -> dict[str, Any]:
        """The one reply line to the message sent with `nonce` (None: the boot line)."""
        assert self._process is not None and self._process.stdout and self._process.stderr
        err, cap = self._process.stderr.fileno(), (self.limits.reply_mb << 20) + 4096
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
                elif len(self._pending) + len(chunk) > cap:
                    raise self._fail("protocol", f"a reply larger than {cap >> 20} MiB")
                else:
                    self._pending += chunk
        end = self._pending.index(b"\n")
        line = bytes(self._pending[:end])
        del self._pending[:end + 1]
        try:
            reply = parse_line(line)
        except BadReply as error:
            raise self._fail("protocol", str(error)) from None
        if self._pending:
            raise self._fail("protocol", "the worker wrote more than one line for one call")
        if nonce is None:
            return reply
        if reply.get("nonce") != nonce:
            raise self._fail("protocol", "a reply line that does not answer this call (forged "
                                         "or stale)")
        violation = reply.get("violation")
        if violation is not None:
            kind = violation.get("kind") if isinstance(violation, dict) else None
            if kind not in KINDS:
                raise self._fail("protocol", f"unknown violation {violation!r:.200}")
            failure = self._fail(kind, str(violation.get("message", "")))
            if kind in ("syntax", "missing_handler"):
                self._fixed = failure
            raise failure
        if set(reply) not in _REPLY_KEYS:
            raise self._fail("protocol", f"unexpected reply keys {sorted(reply)!r:.200}")
        return reply

    def _timeout(self, what: str) -> SandboxViolation:
        return self._fail("timeout", f"{what} ran past its wall-clock limit; its worker was "
                                     "killed")

    def _died(self) -> SandboxViolation:
        """The violation for a worker that exited on its own (bwrap passes a signal on as
        128 + its number)."""
        assert self._process is not None and self._process.stderr is not None
        try:
            code = self._process.wait(timeout=1)
            self._stderr = (self._stderr + self._process.stderr.read())[-_STDERR_TAIL:]
        except subprocess.TimeoutExpired:
            code = None
        number = -code if code is not None and code < 0 else code - 128 if code and \
            code > 128 else None
        if number == signal.SIGSYS:
            return self._fail("forbidden_operation", "the handler made a system call the "
                              "sandbox forbids (process, network, signal or file change); "
                              "seccomp killed its worker")
        if number in (signal.SIGXCPU, signal.SIGKILL):
            return self._fail("cpu", f"the handler used more than its {self.limits.cpu_seconds} "
                                     f"s of CPU; killed by {_signal_name(number)}")
        how = f"signal {_signal_name(number)}" if number else f"status {code}"
        tail = self._stderr.decode("utf-8", "replace").strip()[-500:]
        return self._fail("crash", f"the worker died ({how}): {tail or 'no output'}")

    def _fail(self, kind: str, message: str) -> SandboxViolation:
        """Record a violation and stop the worker; the caller raises what this returns."""
        failure = SandboxViolation(kind, message)
        self.violations.append(failure)
        self._stop()
        return failure

    def _stop(self) -> None:
        """Kill the pid namespace's init (the kernel then kills everything in it) and bwrap,
        and wait until the namespace is empty."""
        process, self._process = self._process, None
        if self._init_fd >= 0:
            try:
                signal.pidfd_send_signal(self._init_fd, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if process is not None:
            try:  # bwrap reaps the dead init and exits; killed first, the init is orphaned
                process.wait(timeout=2 if self._init_fd >= 0 else 0)
            except subprocess.TimeoutExpired:
                pass
            if process.returncode is None:  # not reaped yet, so its group id is still its own
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            process.wait()
            for pipe in (process.stdin, process.stdout, process.stderr):
                if pipe is not None:
                    pipe.close()
        if self._init_fd >= 0:  # readable once the init has exited, after its namespace died
            select.select([self._init_fd], [], [], 5)
        for fd in (self._init_fd, self._info):
            if fd >= 0:
                os.close(fd)
        self._init_fd = self._info = -1


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

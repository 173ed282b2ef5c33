"""The temporary Prefect server of a `compoworld` command: started once, on purpose, and tied
to the command's life.

Without PREFECT_API_URL, Prefect starts a server subprocess (`SubprocessASGIServer`) the
first time a flow needs its API, and gives it 20 s to answer. Three things go wrong with that:

- the first start on a machine runs the database migrations, which under load take longer
  than 20 s (`Timed out while attempting to connect to ephemeral Prefect API server`);
- two commands that share one PREFECT_HOME migrate and open the same SQLite file at the
  same moment, and one of them fails the same way;
- a command killed with SIGKILL leaves the server running, re-parented to pid 1, holding its
  port and the database.

`temporary_server()` starts that server itself, before any flow runs: under an exclusive
lock on `PREFECT_HOME` (so concurrent commands migrate and start one after the other), with
a generous timeout (`STARTUP_TIMEOUT`, unless the user set
PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS in the environment or a profile), and with
PR_SET_PDEATHSIG so the kernel kills the server when the command dies. It registers the
server where Prefect looks for its own (the `None` key, as `prefect_test_harness` does), so
every client, event and log worker of the command uses it instead of starting another.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import prefect
from prefect.events.worker import EventsWorker
from prefect.logging.handlers import APILogWorker
from prefect.server.api.server import SubprocessASGIServer
from prefect.settings import get_current_settings

STARTUP_TIMEOUT = 300  # s: a first start migrates the database; under load that took 107 s
TIMEOUT_SETTING = "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"
LOCK_NAME = "compoworld-server.lock"
PR_SET_PDEATHSIG = 1  # linux/prctl.h


class ServerStartFailed(RuntimeError):
    """The temporary Prefect server did not answer in time, or exited while starting."""


def _die_with_parent(parent: int) -> Callable[[], None] | None:
    """A preexec_fn that has the kernel SIGKILL the child when `parent` exits (Linux); None
    where prctl is not available. libc is loaded here, before the fork: the child only
    makes the one call."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return preexec


class ParentBoundServer(SubprocessASGIServer):
    """Prefect's temporary server subprocess, killed by the kernel when its parent dies.

    The process is the one `SubprocessASGIServer._run_uvicorn_command` of prefect 3.9.1
    starts (same command, same environment); the only addition is `preexec_fn`, which that
    method has no way to pass. PR_SET_PDEATHSIG fires when the thread that forked exits, so
    `start()` must run on the main thread (as `temporary_server` does)."""

    # Instances of its own: Prefect's registry would hand back a plain server for port None.
    _instances: dict[int | None, SubprocessASGIServer] = {}

    def _run_uvicorn_command(self) -> subprocess.Popen[Any]:
        server_env = {
            "PREFECT_UI_ENABLED": "0",
            "PREFECT__SERVER_EPHEMERAL": "1",
            "PREFECT__SERVER_FINAL": "1",
        }
        return subprocess.Popen(
            args=[
                sys.executable, "-m", "uvicorn",
                "--app-dir", str(prefect.__module_path__.parent),
                "--factory", "prefect.server.api.server:create_app",
                "--host", "127.0.0.1", "--port", str(self.port),
                "--log-level", "error", "--lifespan", "on",
            ],
            env={
                **os.environ,
                **server_env,
                **get_current_settings().to_environment_variables(exclude_unset=True),
            },
            preexec_fn=_die_with_parent(os.getpid()),
        )


def startup_timeout() -> int:
    """Seconds to wait for the server: the user's PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS
    (environment or profile) when set, else `STARTUP_TIMEOUT` (Prefect's own default, 20 s,
    is too short for a first start under load)."""
    ephemeral = get_current_settings().server.ephemeral
    if "startup_timeout_seconds" in ephemeral.model_fields_set:
        return ephemeral.startup_timeout_seconds
    return STARTUP_TIMEOUT


@contextmanager
def _home_lock() -> Iterator[None]:
    """An exclusive lock on PREFECT_HOME, held while one command migrates and starts."""
    home = Path(get_current_settings().home)
    home.mkdir(parents=True, exist_ok=True)
    with open(home / LOCK_NAME, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        yield


@contextmanager
def temporary_server() -> Iterator[str | None]:
    """The API the command's flows use: PREFECT_API_URL when set (nothing is started), else a
    temporary server started here and stopped on exit (or killed with the command).
    Yields the API URL; raises ServerStartFailed with one sentence when it does not start."""
    settings = get_current_settings()
    if settings.api.url:
        yield settings.api.url
        return
    server = ParentBoundServer()
    timeout = startup_timeout()
    previous = SubprocessASGIServer._instances.get(None)
    try:
        with _home_lock():
            try:
                server.start(timeout=timeout)
            except RuntimeError as error:
                if "Timed out" not in str(error):
                    raise
                raise ServerStartFailed(
                    f"the temporary Prefect server did not answer within {timeout} s (a first "
                    f"start migrates its database): run `prefect server database upgrade -y` "
                    f"once, or set {TIMEOUT_SETTING} higher, then rerun"
                ) from None
        SubprocessASGIServer._instances[None] = server  # where Prefect's clients look
        yield server.api_url
    finally:
        # Send the logs and events still queued while there is a server to take them.
        APILogWorker.drain_all(timeout=10)
        EventsWorker.drain_all(timeout=10)
        server.stop()
        if previous is not None:
            SubprocessASGIServer._instances[None] = previous
        else:
            SubprocessASGIServer._instances.pop(None, None)

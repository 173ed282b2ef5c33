"""The temporary Prefect server of a `compoworld` command (flows/server.py): it starts on a
fresh PREFECT_HOME, two commands can share one, it dies with a SIGKILLed command, a start
that times out is one line; and flow runs started without a run id are named after it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage.store import Store
from tests.flows.helpers import start_cli

pytestmark = pytest.mark.slow

INGEST = ["--source", "builtin", "--shard-size", "5"]


def fresh_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A command's environment with a PREFECT_HOME nothing has used and no API URL, so the
    command starts its own temporary server (and migrates a new database)."""
    env = os.environ | {"PREFECT_HOME": str(tmp_path / "prefect"), "COMPOWORLD_WORKERS": "1",
                        "COMPOWORLD_HOME": str(tmp_path / "home")} | extra
    env.pop("PREFECT_API_URL", None)
    return env


def server_children(pid: int) -> list[int]:
    """Pids of the Prefect server processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid and b"prefect.server.api.server:create_app" in cmdline:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not: it holds no port and no database)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_two_commands_on_one_fresh_prefect_home_both_succeed(tmp_path: Path):
    env = fresh_env(tmp_path)
    commands = [start_cli("ingest", [*INGEST, "--run-id", f"r{i}"], env) for i in range(2)]
    outputs = [command.communicate(timeout=600)[0] for command in commands]
    for command, output in zip(commands, outputs, strict=True):
        assert command.returncode == 0, output
        assert "ingest r" in output
    store = Store.open(tmp_path / "home")
    assert all(store.manifest(f"r{i}", "ingest") for i in range(2))


def test_a_sigkilled_command_takes_its_prefect_server_with_it(tmp_path: Path):
    process = start_cli("ingest", [*INGEST, "--run-id", "killed"], fresh_env(tmp_path))
    try:
        deadline = time.monotonic() + 300
        while not (servers := server_children(process.pid)):
            assert process.poll() is None, process.stdout.read()
            assert time.monotonic() < deadline, "the command started no Prefect server"
            time.sleep(0.1)
        os.kill(process.pid, signal.SIGKILL)  # the command alone, not its process group
        process.wait()
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in servers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in servers), "the Prefect server outlived its command"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # whatever else it started (Dask workers)
        except ProcessLookupError:
            pass


def test_a_server_that_does_not_start_in_time_is_one_line(tmp_path: Path):
    env = fresh_env(tmp_path, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="1")
    result = subprocess.run([sys.executable, "-m", "compoworld.cli", "ingest", *INGEST],
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr
    errors = [line for line in result.stderr.splitlines() if "error" in line.lower()]
    assert len(errors) == 1, result.stderr
    assert "did not answer within 1 s" in errors[0]
    assert "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS" in errors[0]
    assert "Traceback" not in result.stderr


def test_runs_without_a_run_id_are_named_after_the_run_id_they_use(prefect_harness,
                                                                   store: Store):
    from prefect import get_client

    from flows.compose import NothingToCompose, compose_flow
    from flows.export import export_flow
    from flows.regenerate import regenerate_flow

    today = datetime.now(UTC).strftime("%Y-%m-%d")
    with pytest.raises(NothingToCompose):
        compose_flow(home=str(store.home))
    export_flow(kind="rl", home=str(store.home))  # an empty RL set, exported
    with pytest.raises(ValueError):  # an unknown source fails the first stage at once
        regenerate_flow(source="no-such-source", home=str(store.home))
    with get_client(sync_client=True) as client:
        names = {run.name for run in client.read_flow_runs(limit=200)}
    assert {f"compose-{today}", f"export-{today}-rl", f"regenerate-{today}"} <= names
    assert not any("None" in name for name in names), names

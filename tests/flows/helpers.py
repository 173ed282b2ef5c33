"""What several flow tests share: a store with composed tasks over the built-in services, a
free local port, and the `compoworld` command in a process group of its own."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from flows.compose import compose_flow
from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.store import Store


def composed_builtin_store(folder: Path, run_id: str, tasks: int, per_shard: int,
                           walks: str = "free") -> Store:
    """Ingest, synthesize and compose the built-in services into a new store. Free walks
    by default: ten services hold too few distinct workflow chains for the task counts
    these fixtures need (tests/compose/test_patterns.py covers patterned walks)."""
    store = Store.open(folder / "home")
    home = str(store.home)
    ingest_flow(source="builtin", run_id=run_id, home=home)
    synthesize_flow(run_id=run_id, services=None, shard_size=5, home=home)
    compose_flow(run_id=run_id, tasks=tasks, tasks_per_shard=per_shard, walks=walks,
                 home=home)
    return store


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (for a server to start, or a dead URL)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_cli(command: str, args: list[str], env: dict[str, str]) -> subprocess.Popen:
    """`compoworld <command> <args>` in its own process group, so that one SIGKILL of the
    group takes its Dask workers too; stdout and stderr together, as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "compoworld.cli", command, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def wait_for_shards(manifest: Path, stage: str, shards: int,
                    check: Callable[[], None] = lambda: None, timeout: float = 300) -> None:
    """Return once `shards` manifest files of `stage` exist in the manifest folder
    `manifest`; `check` is called while waiting and raises when the writer has stopped."""
    deadline = time.monotonic() + timeout
    while len(list(manifest.glob(f"{stage}-*.parquet"))) < shards:
        check()
        assert time.monotonic() < deadline, f"{stage} did not start in time"
        time.sleep(0.05)


def kill_after_shards(process: subprocess.Popen, manifest: Path, stage: str, shards: int,
                      timeout: float = 300) -> None:
    """SIGKILL `process`'s whole group once `shards` manifest files of `stage` exist in the
    manifest folder `manifest`: a crash part way through a stage."""

    def alive() -> None:
        assert process.poll() is None, process.stdout.read()

    wait_for_shards(manifest, stage, shards, alive, timeout)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def descendants(client, flow_run_id) -> list:
    """Every flow run below `flow_run_id` (subflows, their subflows, ...)."""
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterParentFlowRunId

    found, frontier = [], [flow_run_id]
    while frontier:
        children = client.read_flow_runs(flow_run_filter=FlowRunFilter(
            parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=frontier)))
        found += children
        frontier = [child.id for child in children]
    return found

"""Stages on an existing Dask cluster (`--dask-address`): a `dask scheduler` and two
`dask worker` processes started the way a user starts them on their machines."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from flows.ingest import ingest_flow
from flows.synthesize import synthesize_flow
from storage.stats import table_digests
from storage.store import Store
from tests.conftest import REPO
from tests.flows.helpers import free_port

pytestmark = pytest.mark.slow

DASK = str(REPO / ".venv" / "bin" / "dask")



@dataclass
class Cluster:
    address: str
    logs: list[Path]

    @contextmanager
    def logs_on_failure(self) -> Iterator[None]:
        """Print the scheduler's and the workers' logs when the block fails."""
        try:
            yield
        except BaseException:
            for log in self.logs:
                print(f"===== {log} =====\n{log.read_text(errors='replace')[-10000:]}")
            raise


@pytest.fixture(scope="module")
def cluster(prefect_harness, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A scheduler and two single-threaded workers, each its own process group, whose task
    runs report to the session's Prefect test server; all killed at the end."""
    from distributed import Client
    from prefect.settings import PREFECT_API_URL

    folder = tmp_path_factory.mktemp("dask")
    address = f"tcp://127.0.0.1:{free_port()}"
    env = os.environ | {
        "PREFECT_API_URL": PREFECT_API_URL.value(),  # the session's test server
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
    }
    commands = {
        "scheduler": [DASK, "scheduler", "--host", "127.0.0.1", "--port",
                      address.rsplit(":", 1)[1], "--no-dashboard"],
        **{
            name: [DASK, "worker", address, "--nthreads", "1", "--nworkers", "1",
                   "--name", name, "--no-dashboard"]
            for name in ("worker-a", "worker-b")
        },
    }
    processes: list[subprocess.Popen] = []
    cluster = Cluster(address, [folder / f"{name}.log" for name in commands])
    try:
        for command, log in zip(commands.values(), cluster.logs, strict=True):
            with log.open("w") as sink:
                processes.append(
                    subprocess.Popen(command, cwd=REPO, env=env, stdout=sink,
                                     stderr=subprocess.STDOUT, start_new_session=True)
                )
        with cluster.logs_on_failure(), Client(address, timeout="120s") as client:
            client.wait_for_workers(2, timeout=180)
        yield cluster
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 15
        for process in processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the nanny's worker process too
            except ProcessLookupError:
                pass
            process.wait()


def test_shards_run_on_both_workers_and_the_tables_match_a_local_cluster(
    cluster: Cluster, store: Store
):
    from distributed import Client

    home = str(store.home)
    with cluster.logs_on_failure(), Client(cluster.address) as client:
        client.get_task_stream()  # installs the scheduler's task-stream plugin from now on
        ingest_flow(source="builtin", run_id="dask", shard_size=2, dask_address=cluster.address,
                    home=home)
        summary = synthesize_flow(run_id="dask", services=None, shard_size=2,
                                  dask_address=cluster.address, home=home)
        names = {
            address: info["name"] for address, info in client.scheduler_info()["workers"].items()
        }
        shards = Counter(
            names[record["worker"]]
            for record in client.get_task_stream()
            if str(record["key"]).startswith("run_shard")
        )
    assert summary["ran"] == summary["shards"] >= 4
    assert set(shards) == {"worker-a", "worker-b"}, shards
    assert shards.total() == len(store.manifest("dask", "ingest")) + summary["shards"]

    # The same stages on a LocalCluster (no address) write the same tables.
    ingest_flow(source="builtin", run_id="local", shard_size=2, home=home)
    synthesize_flow(run_id="local", services=None, shard_size=2, home=home)
    on_cluster, on_local = table_digests(store, "dask"), table_digests(store, "local")
    assert {"specs", "tool_specs", "services", "tool_builds", "stage_runs"} <= set(on_cluster)
    assert on_cluster == on_local

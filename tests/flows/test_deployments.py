"""The deployments as `make ui` serves them: a real Prefect server, `prefect deploy --all` of
prefect.yaml, and a process worker, all started by scripts/ui.sh; the regenerate deployment
run the way the UI's Run button runs it, and its nightly schedule."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
import yaml

from storage.stats import run_summary
from storage.store import Store
from tests.conftest import REPO
from tests.flows.helpers import descendants, free_port, wait_for_shards

pytestmark = pytest.mark.slow

# The test's worker polls only this queue of the `cpu` pool, so that it never picks up a
# nightly run (scheduled on the default queue) should the test run at 02:00 UTC.
QUEUE = "ui-test"
SMALL_RUN = {"source": "builtin", "services": None, "tasks": 40, "rl_tasks": 10,
             "walks": "free"}  # ten services hold too few distinct workflow chains for 40


def session_processes(session: int) -> list[int]:
    """Every process of a session: ui.sh gives the server and the worker process groups of
    their own, but they stay in the session the test started it in."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # fields after the name: state, ppid, pgrp, session
            pids.append(int(stat.parent.name))
    return pids


@dataclass
class Ui:
    api: str
    home: Path
    logs: list[Path]

    @contextmanager
    def logs_on_failure(self) -> Iterator[None]:
        """Print ui.sh's output (worker and flow-run logs), the server's and deploy's logs
        when the block fails: pytest shows them with the failure."""
        try:
            yield
        except BaseException:
            for log in self.logs:
                if log.exists():
                    print(f"===== {log} =====\n{log.read_text(errors='replace')[-20000:]}")
            raise

    def client(self):
        from prefect.client.orchestration import SyncPrefectClient

        return SyncPrefectClient(self.api)


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ui]:
    """scripts/ui.sh (what `make ui` runs) on a free port, with its own PREFECT_HOME and a
    store in a temporary folder; stopped, with everything it started, at the end."""
    folder = tmp_path_factory.mktemp("ui")
    port, prefect_home, store_home = free_port(), folder / "prefect", folder / "store"
    env = os.environ | {
        "PORT": str(port),
        "PREFECT_HOME": str(prefect_home),
        "COMPOWORLD_HOME": str(store_home),  # what flow runs write when not told otherwise
        "UI_WORK_QUEUE": QUEUE,
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    }
    env.pop("PREFECT_API_URL", None)  # ui.sh points every command at its own server
    output = folder / "ui.log"
    ui = Ui(
        api=f"http://127.0.0.1:{port}/api",
        home=store_home,
        logs=[output, prefect_home / "server.log", prefect_home / "deploy.log"],
    )
    with output.open("w") as sink:
        process = subprocess.Popen(
            [str(REPO / "scripts" / "ui.sh")],
            cwd=REPO,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        with ui.logs_on_failure():
            deadline = time.monotonic() + 420  # server start, two pools, six deployments
            while "Prefect UI: http://" not in output.read_text():
                assert process.poll() is None, "scripts/ui.sh exited"
                assert time.monotonic() < deadline, "scripts/ui.sh was not ready in time"
                time.sleep(0.5)
        yield ui
    finally:
        process.terminate()  # its trap stops the worker's and the server's process groups
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
        for pid in session_processes(process.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait()


def test_run_on_regenerate_runs_every_stage_as_a_subflow(ui: Ui, tmp_path: Path):
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterParentFlowRunId
    from prefect.deployments import run_deployment
    from prefect.settings import PREFECT_API_URL, temporary_settings

    home = Store.open(tmp_path / "home").home
    with ui.logs_on_failure(), temporary_settings({PREFECT_API_URL: ui.api}):
        run = run_deployment(
            "regenerate/regenerate",
            parameters=SMALL_RUN | {"home": str(home), "run_id": "ui"},
            work_queue_name=QUEUE,
            timeout=600,
            poll_interval=2,
        )
        assert run.state is not None and run.state.is_completed(), run.state
        counts = run_summary(Store.open(home), "ui")
        assert counts["tasks"] > 0 and counts["sft_rows"] > 0 and counts["rl_tasks"] > 0, counts

        with ui.client() as client:
            children = client.read_flow_runs(
                flow_run_filter=FlowRunFilter(
                    parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[run.id])
                )
            )
            stages = Counter(client.read_flow(child.flow_id).name for child in children)
        assert stages == {
            "ingest": 1, "synthesize": 1, "compose": 1, "rollout": 2, "export": 2,
        }
        assert all(child.state and child.state.is_completed() for child in children)


def test_every_deployment_exists_and_regenerate_is_scheduled_nightly(ui: Ui):
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterDeploymentId,
        FlowRunFilterState,
        FlowRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType
    from prefect.client.schemas.sorting import FlowRunSort

    config = yaml.safe_load((REPO / "prefect.yaml").read_text())
    with ui.logs_on_failure(), ui.client() as client:
        deployments = client.read_deployments()
        assert {d.name for d in deployments} == {d["name"] for d in config["deployments"]}
        pools = {d.name: d.work_pool_name for d in deployments}
        assert pools == {d["name"]: d["work_pool"]["name"] for d in config["deployments"]}
        assert {client.read_work_pool(name).type for name in ("cpu", "gpu")} == {"process"}

        nightly = client.read_deployment_by_name("regenerate/regenerate")
        assert [(s.schedule.cron, s.schedule.timezone, s.active) for s in nightly.schedules] == [
            ("0 2 * * *", "UTC", True)
        ]
        # The server's scheduler service creates the runs shortly after the deployment.
        deadline = time.monotonic() + 120
        while True:
            scheduled = [
                run
                for run in client.read_flow_runs(
                    flow_run_filter=FlowRunFilter(
                        deployment_id=FlowRunFilterDeploymentId(any_=[nightly.id]),
                        state=FlowRunFilterState(
                            type=FlowRunFilterStateType(any_=[StateType.SCHEDULED])
                        ),
                    ),
                    sort=FlowRunSort.EXPECTED_START_TIME_ASC,
                )
                if run.auto_scheduled
            ]
            if len(scheduled) >= 2 or time.monotonic() > deadline:
                break
            time.sleep(2)
        starts = [run.expected_start_time.astimezone(UTC) for run in scheduled]
        assert len(starts) >= 2, "the scheduler created no nightly runs"
        assert all((t.hour, t.minute, t.second) == (2, 0, 0) for t in starts), starts
        assert all(b - a == timedelta(days=1) for a, b in pairwise(starts)), starts
        # The first is the next 02:00 (or today's, gone Late while this test ran).
        now = datetime.now(UTC)
        assert now - timedelta(days=1) < starts[0] <= now + timedelta(days=1), starts
        assert all(run.parameters == {} for run in scheduled)  # the flow's defaults


def test_retry_from_the_ui_reruns_only_the_unfinished_shards(ui: Ui, tmp_path: Path):
    from prefect.deployments import run_deployment
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.states import Scheduled

    dead = f"http://127.0.0.1:{free_port()}/v1"  # an endpoint that is down
    store = Store.open(tmp_path / "home")
    parameters = SMALL_RUN | {"home": str(store.home), "run_id": "retry", "rl_policy": "openai",
                              "base_url": dead, "model": "m", "rl_tasks": 2, "rl_group_size": 2}
    with ui.logs_on_failure(), temporary_settings({PREFECT_API_URL: ui.api}):
        run = run_deployment("regenerate/regenerate", parameters=parameters,
                             work_queue_name=QUEUE, timeout=600, poll_interval=2)
        assert run.state is not None and run.state.is_failed(), run.state
        before = finished_shards(store)
        assert {"ingest", "synthesize", "compose", "rollout-reference-gateway"} <= set(before)

        with ui.client() as client:  # what the UI's Retry button does
            client.set_flow_run_state(run.id, Scheduled(name="AwaitingRetry"), force=True)
            deadline = time.monotonic() + 600
            while True:
                state = client.read_flow_run(run.id).state
                if state.is_final() and state.timestamp > run.state.timestamp:
                    break
                assert time.monotonic() < deadline, f"the retry did not finish: {state}"
                time.sleep(2)
        assert state.is_failed()  # the endpoint is still down
        after = finished_shards(store)
        done = {stage: rows for stage, rows in before.items() if "openai" not in stage}
        assert {stage: after[stage] for stage in done} == done  # not one shard ran again
        [(_, first, first_at)] = before["rollout-openai-m-tools-gateway"]
        [(_, second, second_at)] = after["rollout-openai-m-tools-gateway"]
        assert first == second == "failed" and second_at > first_at  # this one ran again


def finished_shards(store: Store) -> dict[str, list[tuple[int, str, datetime]]]:
    """Per stage of run `retry`: (shard, status, finished_at) of every recorded shard."""
    from storage.catalog import run_query

    _, rows = run_query(store, "select stage, shard, status, finished_at from stage_runs "
                               "where run_id = 'retry' order by stage, shard")
    shards: dict[str, list[tuple[int, str, datetime]]] = {}
    for stage, shard, status, finished in rows:
        shards.setdefault(stage, []).append((shard, status, finished))
    return shards


def process_tree(pid: int) -> list[int]:
    """`pid` and every process below it (its Dask nannies and their workers)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    tree, frontier = [], [pid]
    while frontier:
        tree += frontier
        frontier = [child for parent in frontier for child in children.get(parent, [])]
    return tree


def wait_for_final(client, flow_run_id, after: datetime | None = None, timeout: float = 600):
    """The flow run's state once it is final (and newer than `after`, when given)."""
    deadline = time.monotonic() + timeout
    while True:
        state = client.read_flow_run(flow_run_id).state
        if state is not None and state.is_final() and (after is None or state.timestamp > after):
            return state
        assert time.monotonic() < deadline, f"the flow run did not finish: {state}"
        time.sleep(1)


def wait_for_worker_line(log: Path, offset: int, text: str, timeout: float = 120) -> None:
    """Wait until a line of the worker (`prefect.flow_runs.worker`) that contains `text`
    appears in `log` past byte `offset`."""
    deadline = time.monotonic() + timeout
    while True:
        with log.open("rb") as stream:
            stream.seek(offset)
            lines = stream.read().decode(errors="replace").splitlines()
        if any("prefect.flow_runs.worker" in line and text in line for line in lines):
            return
        assert time.monotonic() < deadline, f"the worker logged no line with {text!r}"
        time.sleep(0.5)


def test_a_crashed_regenerate_retried_from_the_ui_leaves_no_subflow_running(
    ui: Ui, tmp_path: Path
):
    """The report: the flow-run process of a regenerate run dies in compose (the worker marks
    the run Crashed), Retry is pressed in the UI, the retry completes in a new process, and
    the `compose-shards` subflow of the crashed attempt stayed Running for good."""
    from prefect.deployments import run_deployment
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.states import Scheduled

    store = Store.open(tmp_path / "home")
    parameters = SMALL_RUN | {"home": str(store.home), "run_id": "crash", "tasks_per_shard": 4}
    with ui.logs_on_failure(), temporary_settings({PREFECT_API_URL: ui.api}), \
            ui.client() as client:
        run = run_deployment("regenerate/regenerate", parameters=parameters,
                             work_queue_name=QUEUE, timeout=0)

        def running() -> None:
            state = client.read_flow_run(run.id).state
            assert state is None or not state.is_final(), state

        wait_for_shards(store.partition("stage_runs", "crash"), "compose", 2, running, 600)
        offset = ui.logs[0].stat().st_size
        pid = client.read_flow_run(run.id).infrastructure_pid
        assert pid, "the worker recorded no process for the flow run"
        for member in process_tree(int(str(pid).rsplit(":", 1)[-1])):
            try:
                os.kill(member, signal.SIGKILL)  # the run's process dies (OOM, a reboot)
            except ProcessLookupError:
                pass
        crashed = wait_for_final(client, run.id, timeout=120)
        assert crashed.is_crashed(), crashed
        # Prefect 3.9.1 reports a crash twice: its executor at once, then the worker once
        # it has reaped the process (seconds later under load), which overwrites a Retry
        # pressed in between with Crashed. Press Retry after the worker's report, as a person
        # would.
        wait_for_worker_line(ui.logs[0], offset, "exceeded its memory allocation")
        done = store.manifest("crash", "compose")
        planned = next(iter(done.values()))["shards"]
        assert len(done) < planned, "the kill must land part way through compose"

        client.set_flow_run_state(run.id, Scheduled(name="AwaitingRetry"), force=True)
        retried = wait_for_final(client, run.id, after=crashed.timestamp)
        assert retried.is_completed(), retried
        left = [(r.name, r.state.name) for r in descendants(client, run.id)
                if not r.state.is_final()]
        assert left == []
        compose = store.manifest("crash", "compose")
        assert len(compose) == planned
        assert all(row["status"] == "done" for row in compose.values())

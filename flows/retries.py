"""Close what a dead attempt of a flow run left open, before its retry fans out again.

Prefect matches a subflow call to the subflow run of an earlier attempt by a counter of calls
of that flow in the parent (its tracking task run's dynamic key). A stage flow calls the
`shards` subflow once per stage that has work left, so on a retry a stage that is already
done (compose's `graph`) shifts the count: the retry's `compose-shards` gets the key of the
crashed attempt's finished `graph-shards` and a new run, and the crashed attempt's
`compose-shards`, whose process died, is never visited again and shows Running for good.

So a rerun first marks Crashed every subflow run of this flow run that is not final, with the
task run tracking it and its own unfinished task runs. Stage flows wait for every subflow
they start, so at that point an unfinished one can only belong to an attempt that died.
"""

from __future__ import annotations

from uuid import UUID

from prefect.client.orchestration import SyncPrefectClient, get_client
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterId,
    FlowRunFilterParentFlowRunId,
    FlowRunFilterState,
    FlowRunFilterStateType,
    TaskRunFilter,
    TaskRunFilterState,
    TaskRunFilterStateType,
)
from prefect.client.schemas.objects import TERMINAL_STATES, StateType
from prefect.context import FlowRunContext
from prefect.states import Crashed

RETRIED = "Its parent flow run was retried after this run's process died; the retry reran it."
UNFINISHED = sorted(set(StateType) - TERMINAL_STATES)


def crash_abandoned_subflows() -> list[str]:
    """On a rerun of the current flow run, mark Crashed the subflow runs (and their task runs)
    that its earlier attempts left unfinished; returns their names. Does nothing on a first
    attempt or outside a flow run."""
    context = FlowRunContext.get()
    if context is None or context.flow_run is None or context.flow_run.run_count <= 1:
        return []
    with get_client(sync_client=True) as client:
        return _crash_children(client, context.flow_run.id)


def _crash_children(client: SyncPrefectClient, flow_run_id: UUID) -> list[str]:
    children = client.read_flow_runs(flow_run_filter=FlowRunFilter(
        parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[flow_run_id]),
        state=FlowRunFilterState(type=FlowRunFilterStateType(any_=UNFINISHED))))
    crashed: list[str] = []
    for child in children:
        crashed += _crash_children(client, child.id)  # its own subflows died with it
        _crash_task_runs(client, child.id)
        client.set_flow_run_state(child.id, Crashed(message=RETRIED), force=True)
        if child.parent_task_run_id:
            # Its tracking task final and not completed: the retry's call starts a new run.
            client.set_task_run_state(child.parent_task_run_id, Crashed(message=RETRIED),
                                      force=True)
        crashed.append(child.name)
    return crashed


def _crash_task_runs(client: SyncPrefectClient, flow_run_id: UUID) -> None:
    seen: set[UUID] = set()
    while True:  # the server answers at most 200 a page; crashed ones leave the filter
        task_runs = [run for run in client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])),
            task_run_filter=TaskRunFilter(
                state=TaskRunFilterState(type=TaskRunFilterStateType(any_=UNFINISHED))))
            if run.id not in seen]
        if not task_runs:
            return
        for task_run in task_runs:
            client.set_task_run_state(task_run.id, Crashed(message=RETRIED), force=True)
            seen.add(task_run.id)

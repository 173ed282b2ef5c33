"""Flow run names that show the run id a flow works on, even when none was given.

A `flow_run_name` template such as "regenerate-{run_id}" formats the parameter as passed, so
every run started without a run id (the UI's Quick run, every nightly run) was named
`regenerate-None`. `resolved_run_id` is the one rule every flow applies to its `run_id`, and
`run_name` names the flow run with what it returns.
"""

from __future__ import annotations

from collections.abc import Callable

from prefect.runtime import flow_run

from compoworld.settings import default_run_id


def resolved_run_id(run_id: str | None) -> str:
    """`run_id`, else the UTC date of the flow run's scheduled start (today outside a flow
    run): a nightly run retried the next day resumes the same run id."""
    return run_id or default_run_id(flow_run.scheduled_start_time)


def run_name(flow_name: str, *suffixes: str) -> Callable[[], str]:
    """A `flow_run_name` callable: `<flow_name>-<resolved run id>[-<parameter>...]`, with the
    values of the `suffixes` parameters (e.g. `rollout-2026-11-29-reference`)."""

    def name() -> str:
        parameters = flow_run.parameters
        values = [str(parameters.get(suffix)) for suffix in suffixes]
        return "-".join([flow_name, resolved_run_id(parameters.get("run_id")), *values])

    return name

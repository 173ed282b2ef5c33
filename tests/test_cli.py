"""The `compoworld` command: help everywhere, clear one-line errors, nothing half-written."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from compoworld.cli import app

# Imported here, not in the test that uses them: Prefect binds its console log handler to the
# stderr of the moment it is imported, and a test's capsys stream is closed after it.
from flows.compose import compose_flow
from flows.ingest import ingest_flow
from flows.regenerate import summary_markdown
from flows.synthesize import synthesize_flow
from storage.store import Store

runner = CliRunner()
COMMANDS = sorted(get_command(app).commands)


def test_the_cli_has_the_issue_commands():
    assert {"ingest", "sql", "stats", "fetch"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str):
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Usage" in result.output
    assert get_command(app).commands[command].help, f"{command} has no help text"


def test_top_level_help_lists_commands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.output


def run_cli(*args: str, home: Path, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess:
    env = os.environ | {"COMPOWORLD_HOME": str(home)} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "compoworld.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_unknown_source_is_one_line_and_writes_nothing(tmp_path: Path):
    home = tmp_path / "home"
    result = run_cli("ingest", "--source", "no-such-thing", home=home)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown source 'no-such-thing'" in lines[0]
    assert not home.exists()


def test_empty_folder_is_refused(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    result = run_cli("ingest", "--source", str(tmp_path / "empty"), home=tmp_path / "home")
    assert result.returncode == 2
    assert "no .json, .yaml or .yml documents" in result.stderr
    assert not (tmp_path / "home").exists()


def test_unreadable_user_file_is_refused_before_anything_runs(tmp_path: Path):
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "ok.json").write_text(json.dumps([{"name": "get_x", "parameters": {}}]))
    (folder / "bad.json").write_bytes(b"\xff\xfe\x00binary")  # not text: cannot be read
    result = run_cli("ingest", "--source", str(folder), home=tmp_path / "home")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "bad.json" in result.stderr
    assert not (tmp_path / "home").exists()


def test_bad_sql_is_one_line_with_exit_2(tmp_path: Path):
    result = run_cli("sql", "selec nothing", home=tmp_path / "home")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("compoworld: error: bad query:")


@pytest.mark.parametrize("fmt", ["csv", "json", "table"])
def test_sql_formats(tmp_path: Path, fmt: str):
    store = Store.open(tmp_path / "home")
    result = runner.invoke(
        app, ["sql", "select 1 as a, 'x' as b", "--format", fmt, "--home", str(store.home)]
    )
    assert result.exit_code == 0, result.output
    if fmt == "csv":
        assert result.output.splitlines() == ["a,b", "1,x"]
    elif fmt == "json":
        assert json.loads(result.output) == [{"a": 1, "b": "x"}]
    else:
        assert "a" in result.output and "x" in result.output


def test_stats_on_an_empty_store_says_so(tmp_path: Path):
    result = runner.invoke(app, ["stats", "--home", str(tmp_path / "home")])
    assert result.exit_code == 0
    assert "nothing stored yet" in result.output


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_sql_is_one_line_with_exit_2(tmp_path: Path, query: str):
    result = run_cli("sql", query, home=tmp_path / "home")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("compoworld: error:"), result.stderr


@pytest.mark.parametrize("command", [["ingest", "--source", "builtin"], ["synthesize"],
                                     ["compose"], ["rollout"], ["export", "sft"],
                                     ["regenerate", "--source", "builtin"]])
def test_a_bad_run_id_is_refused_before_prefect_starts(tmp_path: Path, command: list[str]):
    prefect_home = tmp_path / "prefect"
    env = {"PREFECT_HOME": str(prefect_home), "PREFECT_API_URL": ""}
    result = run_cli(*command, "--run-id", "no/such/run", home=tmp_path / "home", env=env)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "invalid run id 'no/such/run'" in lines[0], result.stderr
    assert not prefect_home.exists(), "a Prefect server was started for a run id it refuses"


def test_a_damaged_store_file_is_one_line_not_a_traceback(tmp_path: Path):
    from compoworld.shards import plan_shards

    store = Store.open(tmp_path / "home")
    [shard] = plan_shards(run_id="r", stage="demo", items=["x"], shard_size=1, params={},
                          work="m:f")
    store.write_shard(shard, {"spec_errors": [{"document": "a.json", "reason": "bad",
                                               "source": "s"}]})
    store.record(shard, status="done", rows=1, seconds=0.1)
    [damaged] = store.partition("spec_errors", "r").glob("*.parquet")
    damaged.write_bytes(b"PAR1 this is no longer a parquet file PAR1")
    result = run_cli("sql", "select count(*) from spec_errors", home=store.home)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("compoworld: error:"), result.stderr
    assert damaged.name in lines[0]
    result = run_cli("stats", home=store.home)  # names the file, and shows the rest
    assert "Traceback" not in result.stderr and damaged.name in result.stderr, result.stderr


def test_csv_lines_end_with_a_newline_only(tmp_path: Path):
    # Bytes from a real process: CliRunner and text mode both turn \r\n into \n.
    result = subprocess.run(
        [sys.executable, "-m", "compoworld.cli", "sql", "select 1 as a, 'x' as b union all "
         "select 2, 'y'", "--format", "csv", "--home", str(tmp_path / "home")],
        capture_output=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"a,b\n1,x\n2,y\n"


def test_every_sql_hint_the_cli_prints_runs_on_a_real_store(tmp_path: Path, capsys):
    """Each summary's hints, pasted into a shell as printed, are queries the store answers."""
    from compoworld import cli
    from storage.catalog import run_query
    from storage.stats import run_summary

    store = Store.open(tmp_path / "home")
    home = str(store.home)
    # The flows' plain functions: the same stages in a process pool, no Prefect needed.
    ingest_flow.fn(source="builtin", run_id="hints", home=home)
    synthesize_flow.fn(run_id="hints", services=None, shard_size=5, home=home)
    compose_flow.fn(run_id="hints", tasks=4, tasks_per_shard=4, home=home)
    shards = {"ran": 1, "skipped": 0, "seconds": 1.0}
    cli._print_ingest_summary(store, "hints", shards | {"documents": 10})
    cli._print_synthesize_summary(store, "hints", shards)
    cli._print_compose_summary(store, "hints", shards)
    summary = {"run_id": "hints", "home": home, "counts": run_summary(store, "hints"),
               "seconds": {"ingest": 1.0}}
    cli._print_regenerate_summary(store, "hints", summary)
    printed = capsys.readouterr()
    hints = [line.split(": ", 1)[1] for line in (printed.out + printed.err).splitlines()
             if "compoworld sql " in line]
    hints += [line.split("`")[1] for line in summary_markdown(summary).splitlines()
              if "compoworld sql " in line]
    assert len(hints) == 7, hints
    said = " ".join(printed.err.split())  # (the console wraps long lines)
    assert re.search(r"breadth: \d+ of \d+ workflows in \d+ domains", said), said
    assert re.search(r"\d+ of \d+ mounted services required by a task", said), said
    for hint in hints:
        program, command, query = shlex.split(hint)
        assert (program, command) == ("compoworld", "sql")
        run_query(store, query)  # raises QueryError on a query the store cannot answer


def test_the_rollout_summary_counts_only_the_stage_this_command_ran(tmp_path: Path):
    from compoworld import cli
    from compoworld.shards import plan_shards

    store = Store.open(tmp_path / "home")
    # Two models rolled out with the same policy (openai) and mode: two stages of one run.
    for stage, rollouts, score in (("rollout-openai-a-tools-gateway", 6, 1.0),
                                   ("rollout-openai-b-tools-gateway", 2, 0.5)):
        [shard] = plan_shards(run_id="r", stage=stage, items=["t"], shard_size=1, params={},
                              work="m:f")
        rows = [{"task_id": "t", "group_id": "g", "rollout_idx": i, "policy": "openai",
                 "mode": "gateway", "score": score, "rubric_score": score,
                 "status": "ok"} for i in range(rollouts)]
        store.write_shard(shard, {"rollouts": rows})
        store.record(shard, status="done", rows=rollouts, seconds=0.1)
    counts = cli._rollout_counts(store, "r", "rollout-openai-b-tools-gateway", 1)
    assert counts == {"rollouts": 2, "score": 0.5, "rubric": 0.5, "infra": 0}


COMPOSE_COMMANDS = [["compose"], ["regenerate", "--source", "builtin"]]


@pytest.mark.parametrize("command", COMPOSE_COMMANDS)
@pytest.mark.parametrize("args, message", [
    (["--judge-url", "http://127.0.0.1:9/v1"], "give both --judge-url and --judge-model, or"),
    (["--judge-model", "m"], "give both --judge-url and --judge-model, or neither"),
    (["--instruction-style", "casual"], "'casual' is not one of 'goal', 'steps', 'mixed'"),
    (["--judge-threshold", "6"], "--judge-threshold"),
    (["--edge-threshold", "1.5"], "--edge-threshold"),
])
def test_bad_compose_options_are_refused_before_prefect_starts(
    tmp_path: Path, command: list[str], args: list[str], message: str
):
    prefect_home = tmp_path / "prefect"
    env = {"PREFECT_HOME": str(prefect_home), "PREFECT_API_URL": ""}
    result = run_cli(*command, *args, home=tmp_path / "home", env=env)
    assert result.returncode == 2, result.stderr
    plain = " ".join(result.stderr.translate(dict.fromkeys(map(ord, "│╭╮╰╯─"), " ")).split())
    assert message in plain, result.stderr  # click's errors come in a wrapped rich box
    assert "Traceback" not in result.stderr
    assert not prefect_home.exists(), "a Prefect server was started for options it refuses"


@pytest.mark.parametrize("command", ["compose", "regenerate"])
def test_compose_option_defaults_are_the_librarys(command: str):
    from compoworld.cli import InstructionStyle
    from compoworld.compose.judge import DEFAULT_THRESHOLD
    from compoworld.compose.stage import FOR_EACH, INSTRUCTION_STYLES
    from compoworld.graph.depgraph import EDGE_THRESHOLD

    defaults = {p.name: p.default for p in get_command(app).commands[command].params}
    assert defaults["judge_threshold"] == DEFAULT_THRESHOLD
    assert defaults["edge_threshold"] == EDGE_THRESHOLD
    assert defaults["instruction_style"] == "goal"
    assert tuple(InstructionStyle) == INSTRUCTION_STYLES
    assert defaults["judge_url"] is None and defaults["judge_model"] is None
    assert defaults["trial_workflows"] is False  # (workflows on trial wait to be asked for)
    assert defaults["for_each"] == FOR_EACH


class Captured(Exception):
    """Raised by the stand-in for `run_flow`, with the parameters the command passed."""


@pytest.mark.parametrize("command", COMPOSE_COMMANDS)
def test_compose_options_reach_the_compose_flow(tmp_path: Path, monkeypatch, command):
    from compoworld import cli
    from flows.regenerate import stage_plan

    def capture(flow, **parameters):
        raise Captured(parameters)

    monkeypatch.setattr(cli, "run_flow", capture)
    result = runner.invoke(app, [*command, "--instruction-style", "steps", "--edge-threshold",
                                 "0.7", "--judge-url", "http://judge/v1", "--judge-model", "j",
                                 "--judge-threshold", "4", "--trial-workflows",
                                 "--for-each", "0.4", "--home", str(tmp_path / "home")])
    assert isinstance(result.exception, Captured), result.output
    [parameters] = result.exception.args
    options = {"instruction_style": "steps", "edge_threshold": 0.7,
               "judge_url": "http://judge/v1", "judge_model": "j", "judge_threshold": 4.0,
               "trial_workflows": True, "for_each": 0.4}
    assert {key: parameters[key] for key in options} == options
    if command[0] == "regenerate":  # ... and regenerate hands them to its compose stage
        keep = {"source", "limit", "services", "tasks", "seed", "tasks_per_shard", "policy",
                "group_size", "rollout_tasks", "rl_policy", "rl_group_size", "rl_tasks",
                "mode", "base_url", "model", "action_mode", *options}
        plan = stage_plan(**{key: parameters[key] for key in keep})
        [compose] = [params for name, _, params in plan if name == "compose"]
        assert {key: compose[key] for key in options} == options


def test_workflows_lists_definitions_and_probes_them_on_a_run(tmp_path: Path):
    """`compoworld workflows` lists every definition; with --probe it tries each on a run's
    library and says which verified and why the others did not."""
    from compoworld.compose.workflows import WORKFLOWS

    listed = runner.invoke(app, ["workflows", "-f", "json"])
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    assert {row["workflow"] for row in rows} == {w.name for w in WORKFLOWS}
    unknown = runner.invoke(app, ["workflows", "-w", "no_such_workflow"])
    assert unknown.exit_code == 2 and "no workflow is named no_such_workflow" in unknown.output

    store = Store.open(tmp_path / "home")
    home = str(store.home)
    ingest_flow.fn(source="builtin", run_id="probe", home=home)
    synthesize_flow.fn(run_id="probe", services=None, shard_size=5, home=home)
    probed = runner.invoke(app, ["workflows", "--probe", "6", "--run-id", "probe", "--home",
                                 home, "-w", "lead_welcome", "-w", "venue_event", "-f", "json"])
    assert probed.exit_code == 0, probed.output
    by_name = {row["workflow"]: row for row in json.loads(probed.stdout)}
    assert by_name["lead_welcome"]["verified"] >= 1 and by_name["lead_welcome"]["apps"]
    assert by_name["venue_event"]["verified"] == 0 and by_name["venue_event"]["why not"]

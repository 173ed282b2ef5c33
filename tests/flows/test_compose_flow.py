"""compose_flow end to end under Prefect and Dask, and an independent re-verification of
the stored tasks from Parquet alone."""

from __future__ import annotations

import json
import random

import orjson
import pyarrow.parquet as pq
import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Criterion
from compoworld.reward.rubric import evaluate_rubric
from flows.compose import NothingToCompose, compose_flow
from storage.catalog import run_query
from storage.store import Store
from tests.flows.helpers import composed_builtin_store

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def composed(prefect_harness, tmp_path_factory) -> Store:
    store = composed_builtin_store(tmp_path_factory.mktemp("compose"), "c", tasks=24,
                                   per_shard=12)
    _, rows = run_query(store, "select stage, count(*) from stage_runs where status = 'done' "
                               "group by 1 order by 1")
    assert dict(rows)["compose"] == 2 and dict(rows)["graph"] == 1
    return store


def test_compose_writes_verified_tasks_graph_and_walks(composed: Store):
    _, rows = run_query(
        composed,
        "select count(*) filter (where verified), count(*) filter (where verified and "
        "n_services >= 2), count(distinct (signature, world_seed)) filter (where verified) "
        "from tasks",
    )
    assert rows == [(24, 24, 24)]  # (a shard keeps no two alike; two worlds may share one)
    _, rows = run_query(composed, "select count(*), count(*) filter (where outcome = "
                                  "'verified') from walks")
    walks, verified = rows[0]
    assert verified == 24 and walks >= 24
    _, rows = run_query(composed, "select edges, cross_service_edges, stored_edges from "
                                  "graph_stats")
    edges, cross, stored = rows[0]
    assert 0 < cross < edges and 0 < stored <= edges
    _, rows = run_query(composed, "select count(*) from graph_edges where cross_service")
    assert rows[0][0] > 0
    # every task row that failed a check says which one
    _, rows = run_query(
        composed,
        "select count(*) from tasks where not verified and replay_deterministic and "
        "gold_passes and start_fails and no_hidden_leak and visible_stated and "
        "cross_service and within_budget and \"unique\"",
    )
    assert rows == [(0,)]


def test_rerun_with_the_same_run_id_runs_nothing(composed: Store):
    again = compose_flow(run_id="c", tasks=24, tasks_per_shard=12, walks="free",
                         home=str(composed.home))
    assert (again["ran"], again["skipped"], again["graph"]["ran"]) == (0, 2, 0)


def test_stored_tasks_reverify_from_parquet_alone(composed: Store):
    """Rebuild each task's world from its seed, replay the gold calls, evaluate the rubric:
    independent of the composer's own verification code."""
    folder = composed.tables_dir / "tasks" / "run_id=c"
    rows = [r for path in sorted(folder.glob("*.parquet"))
            for r in pq.read_table(path).to_pylist() if r["verified"]]
    sample = random.Random(0).sample(rows, 10)
    library = ServiceLibrary.from_store(composed, "c")
    for row in sample:
        world = library.world(row["world_seed"])
        for call in orjson.loads(row["gold_calls"]):
            result = world.call(call["tool"], call["arguments"])
            assert result == {"success": True, "data": call["result"]}
        start, end = world.states(row["services"])
        rubric = [Criterion.model_validate(c) for c in orjson.loads(row["rubric"])]
        answer = " ".join(str(a["value"]) for a in orjson.loads(row["answer"]))
        assert all(evaluate_rubric(rubric, start, end, answer))
        on_start = evaluate_rubric(rubric, start, start, "")
        assert not any(p for c, p in zip(rubric, on_start, strict=True) if not c.noop_passes)
        for value in orjson.loads(row["hidden_values"]):
            assert not (isinstance(value, str) and len(value) >= 3
                        and value.lower() in row["instruction"].lower())
        assert len(set(row["services"])) >= 2 and not set(row["distractors"]) & set(
            row["services"])


def test_compose_without_synthesize_is_refused(prefect_harness, store: Store):
    with pytest.raises(NothingToCompose, match="compoworld synthesize --run-id none"):
        compose_flow(run_id="none", home=str(store.home))


def test_style_and_judge_reach_the_compose_shards(tmp_path):
    """`instruction_style` and the judge's endpoint and threshold travel from the flow to
    the shards: every task is written in steps, each task passing every check is rated by
    the (scripted) judge, and those rated below the threshold are recorded, not verified,
    and not counted toward the tasks asked for."""
    from flows.ingest import ingest_flow
    from flows.synthesize import synthesize_flow
    from tests.compose.test_judge import ratings_in_turn
    from tests.scripted_llm import ScriptedLLM

    home = str(Store.open(tmp_path / "home").home)
    ingest_flow.fn(source="builtin", run_id="j", home=home)
    synthesize_flow.fn(run_id="j", services=None, shard_size=5, home=home)
    with ScriptedLLM(ratings_in_turn()) as llm:
        # free walks: ten built-in services hold too few distinct workflow chains for a
        # quota that the judge's drops must still let the shard fill
        compose_flow.fn(run_id="j", tasks=6, tasks_per_shard=6, instruction_style="steps",
                        judge_url=llm.base_url, judge_model="scripted", judge_threshold=3.0,
                        home=home, walks="free")
    store = Store.open(home)
    _, rows = run_query(store, "select instruction_style, verified, judged_kept, "
                               "judge_realism, judge_link_sense, judge_reason, judge_error, "
                               "gold_passes and \"unique\" from tasks")
    assert {style for style, *_ in rows} == {"steps"}
    judged = [row for row in rows if row[2] is not None]
    assert len(judged) == len(llm.requests) and all(row[-1] for row in judged)
    for _, verified, kept, realism, link_sense, reason, error, _ in judged:
        assert error is None and reason == f"rated {realism:g}" and realism == link_sense
        assert kept == (realism >= 3.0) and verified == kept
    assert sum(1 for row in rows if row[1]) == 6  # the quota counts kept tasks only
    _, [(dropped,)] = run_query(store, "select count(*) from walks where outcome = "
                                       "'judged below threshold'")
    assert dropped == sum(1 for row in judged if not row[2]) > 0


def test_a_default_compose_run_walks_workflow_patterns(prefect_harness, tmp_path_factory):
    """The stage's default: every verified task follows a workflow pattern, records its
    pattern, domain and goal style, and the stored edges carry their scores; a review pack
    may hold one workflow's tasks alone."""
    from typer.testing import CliRunner

    from compoworld.cli import app

    store = composed_builtin_store(tmp_path_factory.mktemp("patterned"), "p", tasks=6,
                                   per_shard=6, walks="pattern")
    _, rows = run_query(store, "select count(*), count(*) filter (where pattern is not null "
                        "and domain is not null and instruction_style = 'goal') from tasks "
                        "where verified")
    assert rows[0][0] >= 3 and rows[0][0] == rows[0][1]
    _, rows = run_query(store, "select count(*), count(*) filter (where score between 0 and 1),"
                        " count(*) filter (where score >= 0.6) from graph_edges")
    edges, scored, kept = rows[0]
    assert edges > 0 and scored == edges and 0 < kept < edges
    # one workflow's tasks alone (`review-pack --workflow`), to judge it before it leaves
    # its trial
    _, rows = run_query(store, "select pattern, count(*) from tasks where verified "
                        "and pattern is not null group by 1 order by 2 desc, 1")
    name, count = rows[0]
    out = tmp_path_factory.mktemp("pack") / "one.md"
    result = CliRunner().invoke(app, ["review-pack", "--run-id", "p", "--workflow", name,
                                      "-o", str(out), "--home", str(store.home)])
    assert result.exit_code == 0, result.output
    _, mine = run_query(store, "select instruction from tasks where verified and "
                        "pattern = $p", {"p": name})
    text = out.read_text()
    assert count <= 40 and text.count("\n## Task ") == count  # (all of them: a small run)
    assert all(i.replace("\n", "\n> ") in text for (i,) in mine)
    unknown = CliRunner().invoke(app, ["review-pack", "--run-id", "p", "--workflow", "nope",
                                       "--home", str(store.home)])
    assert unknown.exit_code == 2 and "no workflow named nope" in unknown.output


def test_a_review_pack_shows_a_seeded_sample_of_verified_tasks(composed: Store, tmp_path):
    """`compoworld review-pack` writes N verified tasks as Markdown, each with its services,
    request, gold calls and checks; the same seed gives the same pack, another another."""
    from typer.testing import CliRunner

    from compoworld.cli import app

    def pack(seed: int) -> str:
        out = tmp_path / f"pack{seed}.md"
        result = CliRunner().invoke(app, ["review-pack", "--run-id", "c", "--tasks", "5",
                                          "--seed", str(seed), "-o", str(out),
                                          "--home", str(composed.home)])
        assert result.exit_code == 0, result.output
        return out.read_text()

    text = pack(3)
    assert text.count("\n## Task ") == 5 and text.count("Gold calls:") == 5
    _, rows = run_query(composed, "select instruction, rubric from tasks where verified")
    shown = [(i, r) for i, r in rows if i.replace("\n", "\n> ") in text]
    assert len(shown) == 5
    for _, rubric in shown:  # every check of a shown task is listed
        assert all(c["description"] in text for c in json.loads(rubric))
    assert pack(3) == text and pack(4) != text
    missing = CliRunner().invoke(app, ["review-pack", "--run-id", "nope",
                                       "--home", str(composed.home)])
    assert missing.exit_code == 2 and "no verified tasks" in missing.output
    # (a run composed without --for-each holds no task that chooses its records)
    chosen = CliRunner().invoke(app, ["review-pack", "--run-id", "c", "--chosen",
                                      "--home", str(composed.home)])
    assert chosen.exit_code == 2 and "that choose their records" in chosen.output
    # a job is named by its parts, and `--jobs` samples only jobs
    jobs = CliRunner().invoke(app, ["review-pack", "--run-id", "c", "--jobs",
                                    "--home", str(composed.home)])
    _, rows = run_query(composed, "select pattern from tasks where verified")
    held = [p for (p,) in rows if p and "_then_" in p]
    assert (jobs.exit_code == 0 and all(f"Task {i}" in jobs.output
                                        for i in range(1, len(held) + 1))) if held else \
        (jobs.exit_code == 2 and "that are jobs" in jobs.output), jobs.output
    named = CliRunner().invoke(app, ["review-pack", "--run-id", "c", "-w",
                                     "lead_to_contact_then_contact_deal",
                                     "--home", str(composed.home)])
    assert named.exit_code == 2 and "no workflow named" not in named.output

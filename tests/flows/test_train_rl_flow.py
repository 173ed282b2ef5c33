"""train_rl_flow on the CPU: two iterations of serve -> rollout -> CFRR -> GRPO -> save."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from flows.train_rl import train_rl_flow
from models.rl import task_window
from storage.catalog import run_query

pytestmark = pytest.mark.slow

SETTINGS = {"iterations": 2, "tasks_per_iteration": 3, "group_size": 3, "max_steps": 3,
            "max_tokens": 32}


@pytest.fixture(scope="module")
def trained(sft_run, tiny_model):
    store, run_id, _ = sft_run
    return train_rl_flow(run_id=run_id, base_checkpoint=str(tiny_model),
                         home=str(store.home), **SETTINGS)


def test_two_iterations_roll_out_score_update_and_save(trained, sft_run):
    store, run_id, _ = sft_run
    iterations = trained["iterations"]
    assert [m["iteration"] for m in iterations] == [0, 1]
    for metrics in iterations:
        assert metrics["rollouts"] == 3 * 3 and metrics["infra_errors"] == 0
        for key in ("mean_reward", "completion_rate", "loss", "kl", "grad_norm"):
            assert math.isfinite(metrics[key]), key
        assert metrics["tokens_trained"] > 0
        assert (Path(metrics["checkpoint"]) / "config.json").is_file()
    # Each iteration rolled out a different batch of tasks, under its own model name.
    _, rows = run_query(store, "select model, count(distinct task_id), count(*) from "
                               "rollouts where run_id = $run and policy = 'openai' "
                               "group by model order by model", {"run": run_id})
    assert [(model[-4:], tasks, n) for model, tasks, n in rows] == [("-it0", 3, 9),
                                                                    ("-it1", 3, 9)]
    assert trained["checkpoint"] == iterations[-1]["checkpoint"]


def test_iteration_two_serves_iteration_one_checkpoint(trained):
    first, second = trained["iterations"]
    log = (Path(second["checkpoint"]).parent / "recipe.log").read_text()
    assert f"checkpoint_dir={first['checkpoint']}" in log
    assert Path(first["checkpoint"]).parent.name == "iter0"


def test_metrics_are_in_parquet_and_in_the_prefect_run(trained, sft_run):
    store, run_id, _ = sft_run
    _, rows = run_query(store, "select iteration, mean_reward, completion_rate, kl, loss "
                               "from training_metrics where training_id = $id "
                               "order by iteration", {"id": trained["training_id"]})
    assert [r[0] for r in rows] == [0, 1]
    assert rows[1][1] == pytest.approx(trained["iterations"][1]["mean_reward"])
    _, runs = run_query(store, "select kind, steps, losses from training_runs "
                               "where training_id = $id", {"id": trained["training_id"]})
    assert runs == [("rl", 2, [m["loss"] for m in trained["iterations"]])]

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    async def latest():
        async with get_client() as client:
            return await client.read_artifacts(artifact_filter=ArtifactFilter(
                key=ArtifactFilterKey(any_=["train-rl-metrics"])))

    import asyncio

    artifacts = asyncio.run(latest())
    table = json.loads(max(artifacts, key=lambda a: a.created).data)
    assert [row["iteration"] for row in table] == [0, 1]


def test_a_rerun_resumes_after_the_last_finished_iteration(trained, sft_run, tiny_model):
    store, run_id, _ = sft_run
    first, second = trained["iterations"]
    first_log = Path(first["checkpoint"]).parent / "recipe.log"
    before = first_log.stat().st_mtime_ns
    # Forget the run's summary and its second iteration, as if it died in iteration two.
    manifest = store.partition("stage_runs", run_id)
    for name in (trained["training_id"], f"{trained['training_id']}-it1"):
        (manifest / f"train-{name}-00000.parquet").unlink()
    again = train_rl_flow(run_id=run_id, base_checkpoint=str(tiny_model),
                          home=str(store.home), **SETTINGS)
    assert first_log.stat().st_mtime_ns == before  # iteration one was not redone
    assert [m["iteration"] for m in again["iterations"]] == [0, 1]
    assert again["iterations"][1]["finished_at"] > second["finished_at"]


def test_bad_inputs_are_refused_before_anything_runs(sft_run, tmp_path):
    store, run_id, _ = sft_run
    with pytest.raises(FileNotFoundError, match="compoworld train-sft"):
        train_rl_flow(run_id=run_id, base_checkpoint=str(tmp_path), home=str(store.home))
    with pytest.raises(ValueError, match="group_size >= 2"):
        train_rl_flow(run_id=run_id, base_checkpoint=str(tmp_path), group_size=1,
                      home=str(store.home))


@pytest.mark.parametrize(("total", "per", "iteration", "window"), [
    (10, 4, 0, (0, 4)), (10, 4, 1, (4, 4)), (10, 4, 2, (0, 4)), (3, 5, 1, (0, 3)),
])
def test_task_windows_walk_through_the_task_set(total, per, iteration, window):
    assert task_window(total, per, iteration) == window

"""train_sft_flow on the CPU: torchtune trains the tiny model on exported trajectories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from flows.train_sft import train_sft_flow
from storage.catalog import run_query

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def trained(sft_run):
    store, run_id, _ = sft_run
    # 16 trajectories, 2 a step: three epochs make 24 steps.
    return train_sft_flow(run_id=run_id, overrides=["epochs=3"], home=str(store.home))


def test_the_loss_falls_over_a_few_dozen_steps(trained):
    losses = trained["losses"]
    assert trained["steps"] == len(losses) >= 20
    assert all(torch.isfinite(torch.tensor(losses)))
    first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
    assert last < 0.7 * first, losses


def test_the_checkpoint_reloads_in_transformers_and_generates(trained):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    checkpoint = Path(trained["checkpoint"])
    model = AutoModelForCausalLM.from_pretrained(checkpoint)
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    base = AutoModelForCausalLM.from_pretrained(trained["base_checkpoint"])
    assert not torch.equal(model.model.embed_tokens.weight, base.model.embed_tokens.weight)
    prompt = tokenizer.apply_chat_template([{"role": "user", "content": "hello"}],
                                           add_generation_prompt=True, return_tensors="pt")
    ids = prompt["input_ids"] if not torch.is_tensor(prompt) else prompt
    out = model.generate(ids, max_new_tokens=5, do_sample=False)
    assert out.shape[1] > ids.shape[1]


def test_the_run_is_recorded_with_its_config_and_data_digest(trained, sft_run):
    store, run_id, path = sft_run
    from models.data import file_digest

    assert trained["data_digest"] == file_digest(path)
    assert trained["samples"] == sum(1 for _ in path.open())
    config = json.loads(trained["config"])
    assert config["dataset"]["source"] == str(path)
    assert config["epochs"] == 3
    _, rows = run_query(store, "select training_id, kind, steps, final_loss from "
                               "training_runs where run_id = $run", {"run": run_id})
    assert (trained["training_id"], "sft", trained["steps"], trained["final_loss"]) in rows


def test_a_rerun_with_the_same_inputs_does_not_train_again(trained, sft_run):
    store, run_id, _ = sft_run
    log = Path(trained["checkpoint"]).parent / "recipe.log"
    before = log.stat().st_mtime_ns
    again = train_sft_flow(run_id=run_id, overrides=["epochs=3"], home=str(store.home))
    assert again["training_id"] == trained["training_id"]
    assert again["checkpoint"] == trained["checkpoint"]
    assert log.stat().st_mtime_ns == before  # the recipe did not run
    _, rows = run_query(store, "select count(*) from training_runs where training_id = $id",
                        {"id": trained["training_id"]})
    assert rows == [(1,)]


def test_an_unknown_config_names_the_configs_there_are(sft_run):
    store, run_id, _ = sft_run
    with pytest.raises(FileNotFoundError, match="tiny_full"):
        train_sft_flow(run_id=run_id, config="nonesuch", home=str(store.home))

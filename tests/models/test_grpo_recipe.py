"""The GRPO-CFRR recipe end to end on the tiny model: one update saves a Hugging Face folder
that transformers reloads, moves log-probs the way the advantages say, is deterministic,
runs from the command line, and names a missing rollouts file."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchtune")
transformers = pytest.importorskip("transformers")

from omegaconf import DictConfig, OmegaConf  # noqa: E402
from safetensors.torch import load_file  # noqa: E402

from models.data import tokenize_conversation  # noqa: E402
from models.recipes.grpo_cfrr import GRPOCFRRRecipe, RolloutsError  # noqa: E402
from models.tiny import build_tiny_model  # noqa: E402
from models.tokenizer import load_tokenizer  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "models" / "configs" / "grpo_cfrr_tiny.yaml"
TOOLS = [
    {"type": "function", "function": {
        "name": "weather__get_forecast", "description": "The forecast for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "notes__create_note", "description": "Create a note with a title.",
        "parameters": {"type": "object", "properties": {"title": {"type": "string"},
                                                        "body": {"type": "string"}},
                       "required": ["title"]}}},
]
CASES = [  # (user request, tool, arguments, tool result, final answer)
    ("What is the weather in Paris?", "weather__get_forecast", {"city": "Paris"},
     {"success": True, "data": {"sky": "sunny", "high": 24}}, "Paris is sunny, 24 C."),
    ("Note that the meeting moved to Monday.", "notes__create_note",
     {"title": "Meeting", "body": "Moved to Monday"},
     {"success": True, "data": {"id": "note_1"}}, "Saved the note note_1."),
    ("Will it rain in Oslo?", "weather__get_forecast", {"city": "Oslo"},
     {"success": True, "data": {"sky": "rain", "high": 9}}, "Yes, rain in Oslo, 9 C."),
    ("Remember to buy milk.", "notes__create_note", {"title": "Milk"},
     {"success": True, "data": {"id": "note_2"}}, "Done: note note_2."),
    ("Forecast for Lima please.", "weather__get_forecast", {"city": "Lima"},
     {"success": False, "error": {"code": 404, "message": "unknown city"}},
     "I could not find Lima."),
    ("Write down: call Ana.", "notes__create_note", {"title": "Call Ana"},
     {"success": True, "data": {"id": "note_3"}}, "Noted as note_3."),
]


def conversation(user: str, tool: str, args: dict[str, Any], result: dict[str, Any],
                 answer: str) -> dict[str, Any]:
    """One OpenAI-format trajectory: a call, its result, an answer."""
    return {"tools": TOOLS, "messages": [
        {"role": "system", "content": "You are a helpful assistant with tools."},
        {"role": "user", "content": user},
        {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function",
            "function": {"name": tool, "arguments": json.dumps(args)}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": tool, "content": json.dumps(result)},
        {"role": "assistant", "content": answer},
    ]}


TRAJECTORIES = [conversation(*case) for case in CASES]
# 2 groups x 2 rollouts; in each group the first rollout did better.
ROLLOUTS = [
    {"group_id": f"g{g}", "task_id": f"t{g}", "rollout_idx": i, "advantage": adv,
     "reward": 0.5 + adv / 2, **TRAJECTORIES[2 * g + i]}
    for g in range(2) for i, adv in enumerate((1.0, -1.0))
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny"), TRAJECTORIES, seed=0)


@pytest.fixture(scope="module")
def rollouts_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rollouts") / "rollouts.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROLLOUTS))
    return path


def overrides(tiny: Path, rollouts: Path, out: Path) -> list[str]:
    return [f"checkpoint_dir={tiny}", f"ref_checkpoint_dir={tiny}", f"rollouts={rollouts}",
            f"output_dir={out}"]


def run_recipe(*args: str) -> Path:
    cfg = OmegaConf.merge(OmegaConf.load(CONFIG), OmegaConf.from_dotlist(list(args)))
    assert isinstance(cfg, DictConfig)
    recipe = GRPOCFRRRecipe(cfg)
    recipe.setup(cfg)
    recipe.train()
    recipe.save_checkpoint()
    recipe.cleanup()
    return Path(cfg.output_dir)


def assistant_logprob(folder: Path, tokenizer_dir: Path, rollout: dict[str, Any]) -> float:
    """Summed log-prob of a rollout's assistant tokens under the HF model in `folder`."""
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
    tokens, mask = tokenize_conversation(load_tokenizer(str(tokenizer_dir)),
                                         rollout["messages"], rollout["tools"], "json-action")
    ids = torch.tensor([tokens])
    with torch.no_grad():
        logp = torch.log_softmax(model(ids).logits[0, :-1].float(), dim=-1)
    picked = logp.gather(-1, ids[0, 1:, None])[:, 0]
    return float(picked[torch.tensor(mask[1:])].sum())


@pytest.fixture(scope="module")
def trained(tiny: Path, rollouts_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_recipe(*overrides(tiny, rollouts_file, tmp_path_factory.mktemp("out")))


def test_update_saves_a_reloadable_checkpoint_that_follows_the_advantages(
        tiny: Path, trained: Path) -> None:
    saved = trained / "epoch_0"
    assert (saved / "config.json").is_file() and (saved / "tokenizer.json").is_file()
    transformers.AutoModelForCausalLM.from_pretrained(saved)
    before = load_file(tiny / "model.safetensors")
    after = load_file(next(saved.glob("*.safetensors")))
    assert before.keys() == after.keys()
    assert any(not torch.equal(before[k], after[k]) for k in before)

    metrics = json.loads((trained / "metrics.json").read_text())
    assert metrics["samples"] == 4 and metrics["dropped"] == 0 and metrics["steps"] >= 1
    assert math.isfinite(metrics["loss"]) and math.isfinite(metrics["kl"])
    assert len(metrics["losses"]) == metrics["steps"] and metrics["tokens_trained"] > 0
    assert metrics["advantage_mean"] == 0.0 and metrics["reward_mean"] == 0.5

    for rollout in ROLLOUTS:
        gain = (assistant_logprob(saved, tiny, rollout)
                - assistant_logprob(tiny, tiny, rollout))
        assert gain * rollout["advantage"] > 0, (rollout["group_id"], rollout["advantage"])


def test_same_seed_gives_the_same_weights(tiny: Path, rollouts_file: Path, trained: Path,
                                          tmp_path: Path) -> None:
    again = run_recipe(*overrides(tiny, rollouts_file, tmp_path / "again"))
    first = load_file(next((trained / "epoch_0").glob("*.safetensors")))
    second = load_file(next((again / "epoch_0").glob("*.safetensors")))
    assert all(torch.equal(first[k], second[k]) for k in first)


def test_all_zero_advantages_without_kl_still_save(tiny: Path, tmp_path: Path) -> None:
    rollouts = tmp_path / "flat.jsonl"
    rollouts.write_text("".join(json.dumps({**r, "advantage": 0.0}) + "\n" for r in ROLLOUTS))
    out = run_recipe(*overrides(tiny, rollouts, tmp_path / "out"), "kl_coef=0")
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["loss"] == 0.0 and (out / "epoch_0" / "config.json").is_file()


@pytest.mark.slow
def test_command_line_runs(tiny: Path, rollouts_file: Path, tmp_path: Path) -> None:
    """Also the memory options the 7B config turns on: activation checkpointing, chunked
    logits."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "models/recipes/grpo_cfrr.py", "--config", str(CONFIG),
         *overrides(tiny, rollouts_file, tmp_path / "cli"), "ppo_epochs=2",
         "enable_activation_checkpointing=True", "num_output_chunks=2"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads((tmp_path / "cli" / "metrics.json").read_text())["steps"] == 2


def test_missing_rollouts_file_is_named(tiny: Path, tmp_path: Path) -> None:
    with pytest.raises(RolloutsError, match="no rollouts file at .*nowhere.jsonl"):
        run_recipe(*overrides(tiny, tmp_path / "nowhere.jsonl", tmp_path / "out"))


def test_empty_rollouts_file_and_unknown_format_are_clear(tiny: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(RolloutsError, match="holds no rollouts"):
        run_recipe(*overrides(tiny, empty, tmp_path / "out"))
    with pytest.raises(ValueError, match="unknown chat format 'chatgpt'"):
        run_recipe(*overrides(tiny, empty, tmp_path / "out"), "chat_format=chatgpt")

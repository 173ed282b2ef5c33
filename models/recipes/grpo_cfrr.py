"""GRPO with CFRR advantages, one device: ONE policy update of one RL iteration.

The rollout flow serves the current checkpoint, collects rollout groups, scores them with
CFRR and writes one JSONL line per rollout (``advantage`` already computed, infra errors
already left out). This recipe turns that file into one update and saves the new policy as
a complete Hugging Face folder, ``output_dir/epoch_0/``, which the next iteration serves.

    tune run models/recipes/grpo_cfrr.py --config models/configs/grpo_cfrr_tiny.yaml \
        checkpoint_dir=CKPT ref_checkpoint_dir=REF rollouts=FILE.jsonl output_dir=OUT

``output_dir/metrics.json`` is written last, after the checkpoint: its presence means done.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import torch
from omegaconf import DictConfig
from torch import Tensor, nn
from torchtune import config, modules, training, utils
from torchtune.recipe_interfaces import FTRecipeInterface

from models.chat import check_format
from models.data import tokenize_conversation
from models.recipes.grpo_core import grpo_step, pad_batch, token_logprobs

log = utils.get_logger("INFO")


class RolloutsError(ValueError):
    """A rollouts file that is missing, empty or malformed."""


def read_rollouts(path: str | Path) -> list[dict[str, Any]]:
    """The rollouts of a JSONL file, one object per line; each needs ``messages`` and
    ``advantage``."""
    file = Path(path)
    if not file.is_file():
        raise RolloutsError(f"no rollouts file at {path}: give rollouts=FILE.jsonl")
    rollouts = []
    with file.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            missing = {"messages", "advantage"} - set(row)
            if missing:
                raise RolloutsError(f"{path}:{number} lacks {sorted(missing)}")
            rollouts.append(row)
    if not rollouts:
        raise RolloutsError(f"{path} holds no rollouts: nothing to train on")
    return rollouts


def checkpoint_files(folder: str | Path) -> list[str]:
    """Every ``*.safetensors`` weight file of a checkpoint folder, sorted: what a
    ``checkpoint_files: null`` checkpointer loads (a base model has ``model.safetensors``,
    a torchtune save ``model-00001-of-00001.safetensors``)."""
    names = sorted(p.name for p in Path(folder).glob("*.safetensors")
                   if not p.name.startswith("adapter"))
    if not names:
        raise FileNotFoundError(f"no *.safetensors weights in {folder}")
    return names


class GRPOCFRRRecipe(FTRecipeInterface):
    """One GRPO update on CFRR-scored rollouts: behaviour log-probs from the policy as
    loaded, then ``ppo_epochs`` shuffled passes in minibatches of ``batch_size`` (gradient
    accumulation over ``micro_batch_size``), a KL penalty to a frozen reference unless
    ``kl_coef`` is 0, and the updated policy saved through the checkpointer."""

    def __init__(self, cfg: DictConfig) -> None:
        self._device = utils.get_device(device=cfg.device)
        self._dtype = training.get_dtype(cfg.dtype, device=self._device)
        self._output_dir = Path(cfg.output_dir)
        self._fmt = check_format(cfg.chat_format)
        self._kl_coef = float(cfg.kl_coef)
        for key in ("ppo_epochs", "batch_size"):
            if int(cfg[key]) < 1:
                raise ValueError(f"{key} must be at least 1, got {cfg[key]}")
        self._seed = training.set_seed(seed=cfg.seed)
        self._metrics: dict[str, Any] = {}

    def _load(self, cfg_ckpt: DictConfig) -> tuple[Any, dict[str, Any]]:
        files = cfg_ckpt.get("checkpoint_files") or checkpoint_files(cfg_ckpt.checkpoint_dir)
        checkpointer = config.instantiate(cfg_ckpt, checkpoint_files=list(files))
        return checkpointer, checkpointer.load_checkpoint()[training.MODEL_KEY]

    def _build_model(self, cfg: DictConfig, state: dict[str, Any]) -> nn.Module:
        with training.set_default_dtype(self._dtype), self._device:
            model = config.instantiate(cfg.model)
        model.load_state_dict(state)
        training.validate_expected_param_dtype(model.named_parameters(), dtype=self._dtype)
        if cfg.get("num_output_chunks", 0):
            # Logits in chunks: token_logprobs never holds the full [B, T, V] in float32.
            model.set_num_output_chunks(cfg.num_output_chunks)
        return model

    def setup(self, cfg: DictConfig) -> None:
        """Read and tokenize the rollouts, then load the policy, reference and optimizer."""
        rollouts = read_rollouts(cfg.rollouts)
        self._metric_logger = config.instantiate(cfg.metric_logger)
        self._tokenizer = config.instantiate(cfg.tokenizer)
        self._samples: list[dict[str, Any]] = []
        dropped = 0
        for row in rollouts:
            tokens, mask = tokenize_conversation(self._tokenizer, row["messages"],
                                                 row.get("tools") or [], self._fmt,
                                                 cfg.max_seq_len)
            if not any(mask):
                dropped += 1
                continue
            self._samples.append({"tokens": tokens, "mask": mask,
                                  "advantage": float(row["advantage"]),
                                  "reward": row.get("reward")})
        if not self._samples:
            raise RolloutsError(f"none of the {dropped} rollouts in {cfg.rollouts} has an "
                                f"assistant token within max_seq_len={cfg.max_seq_len}")
        self._metrics.update(samples=len(self._samples), dropped=dropped,
                             groups=len({row.get("group_id") for row in rollouts}))

        self._checkpointer, state = self._load(cfg.checkpointer)
        self._model = self._build_model(cfg, state)
        if cfg.get("enable_activation_checkpointing", False):
            training.set_activation_checkpointing(
                self._model, auto_wrap_policy={modules.TransformerSelfAttentionLayer})
        self._ref_model: nn.Module | None = None
        if self._kl_coef != 0:
            _, ref_state = self._load(cfg.ref_checkpointer)
            self._ref_model = self._build_model(cfg, ref_state).eval().requires_grad_(False)
        self._optimizer = config.instantiate(cfg.optimizer, self._model.parameters())
        self._cfg = cfg

    def _batch(self, rows: list[dict[str, Any]]) -> dict[str, Tensor]:
        tokens, mask = pad_batch([(r["tokens"], r["mask"]) for r in rows],
                                 self._tokenizer.pad_id)
        batch = {"tokens": tokens, "mask": mask,
                 "advantages": torch.tensor([r["advantage"] for r in rows])}
        if all("old_logp" in r for r in rows):
            old = torch.zeros(tokens.shape, dtype=torch.float32)
            for i, r in enumerate(rows):
                old[i, : len(r["old_logp"])] = r["old_logp"]
            batch["old_logp"] = old
        return {k: v.to(self._device) for k, v in batch.items()}

    def train(self) -> None:
        """Behaviour log-probs, then ``ppo_epochs`` passes of ``grpo_step``."""
        cfg, samples = self._cfg, self._samples
        micro = cfg.get("micro_batch_size") or cfg.batch_size
        start = time.perf_counter()
        # The checkpoint being trained is the one vLLM served for these rollouts, so its
        # log-probs before any update are the behaviour policy's. vLLM's own sampled-token
        # logprobs could replace this pass later (one forward over every rollout saved).
        self._model.eval()
        with torch.no_grad():
            for first in range(0, len(samples), micro):
                rows = samples[first : first + micro]
                tokens = self._batch(rows)["tokens"]
                logp = token_logprobs(self._model, tokens).float().cpu()
                for i, row in enumerate(rows):
                    row["old_logp"] = logp[i, : len(row["tokens"])]
        self._model.train()

        generator = torch.Generator().manual_seed(cfg.seed)
        steps: list[dict[str, float]] = []
        tokens_total = 0
        for _ in range(cfg.ppo_epochs):
            order = torch.randperm(len(samples), generator=generator).tolist()
            for first in range(0, len(order), cfg.batch_size):
                rows = [samples[i] for i in order[first : first + cfg.batch_size]]
                stats = grpo_step(self._model, self._optimizer, self._batch(rows),
                                  ref_model=self._ref_model, clip_eps=cfg.clip_eps,
                                  kl_coef=self._kl_coef, max_grad_norm=cfg.max_grad_norm,
                                  micro_batch_size=micro)
                tokens_total += sum(len(r["tokens"]) for r in rows)
                steps.append(stats)
                self._metric_logger.log_dict(stats, step=len(steps))
        seconds = time.perf_counter() - start

        def mean(key: str) -> float:
            return sum(s[key] for s in steps) / len(steps)

        trained = sum(sum(s["mask"]) for s in samples) * cfg.ppo_epochs
        rewards = [float(s["reward"]) for s in samples if s["reward"] is not None]
        self._metrics.update(
            tokens_trained=trained, tokens_total=tokens_total, steps=len(steps),
            loss=mean("loss"), kl=mean("kl"), clip_fraction=mean("clip_fraction"),
            grad_norm=mean("grad_norm"),
            advantage_mean=sum(s["advantage"] for s in samples) / len(samples),
            reward_mean=sum(rewards) / len(rewards) if rewards else None,
            seconds=seconds, tokens_per_second=tokens_total / max(seconds, 1e-9),
            losses=[s["loss"] for s in steps])
        if self._device.type == "cuda":
            peak = torch.cuda.max_memory_allocated(self._device)
            self._metrics["peak_memory_gib"] = peak / 2**30

    def save_checkpoint(self, epoch: int = 0) -> None:
        """Save the policy as ``output_dir/epoch_{epoch}/`` (weights, config, tokenizer),
        then ``output_dir/metrics.json``."""
        self._checkpointer.save_checkpoint({training.MODEL_KEY: self._model.state_dict()},
                                           epoch=epoch)
        self._metrics["checkpoint"] = str(self._output_dir / f"epoch_{epoch}")
        (self._output_dir / "metrics.json").write_text(json.dumps(self._metrics, indent=2))
        log.info("GRPO-CFRR update saved: %s", json.dumps(
            {k: v for k, v in self._metrics.items() if k != "losses"}))

    def cleanup(self) -> None:
        """Close the metric logger."""
        self._metric_logger.close()


@config.parse
def recipe_main(cfg: DictConfig) -> None:
    """Entry point: ``tune run`` / ``python`` with ``--config FILE.yaml key=value ...``."""
    config.log_config(recipe_name="GRPOCFRRRecipe", cfg=cfg)
    recipe = GRPOCFRRRecipe(cfg)
    recipe.setup(cfg)
    recipe.train()
    recipe.save_checkpoint(epoch=0)
    recipe.cleanup()


if __name__ == "__main__":
    sys.exit(recipe_main())

"""The tiny test model: a randomly initialised Qwen2-shaped decoder (2 layers, 64 wide) with
a byte-level BPE tokenizer trained here on the project's own trajectories, saved in Hugging
Face form (config.json, model.safetensors, tokenizer.json) so that torchtune's HF
checkpointer, transformers and our checkpoint server all load it. Nothing is downloaded.

The `models/configs/tiny_*.yaml` configs spell the same shape out (`TINY_SHAPE`); a test
checks that they agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from models.chat import FORMATS, render
from models.tokenizer import train_tokenizer

# torchtune's `qwen2` builder arguments; the HF config below is derived from them.
TINY_SHAPE: dict[str, Any] = {
    "vocab_size": 2048, "num_layers": 2, "num_heads": 4, "num_kv_heads": 2,
    "embed_dim": 64, "intermediate_dim": 256, "max_seq_len": 4096, "norm_eps": 1e-6,
    "rope_base": 1_000_000.0, "tie_word_embeddings": False,
}


def corpus_texts(trajectories: list[dict[str, Any]]) -> Iterator[str]:
    """What the tokenizer learns from: every trajectory rendered in every chat format."""
    for trajectory in trajectories:
        for fmt in FORMATS:
            yield "".join(s.text for s in render(trajectory["messages"],
                                                 trajectory.get("tools") or [], fmt))


def hf_config(shape: dict[str, Any]) -> Any:
    """The transformers `Qwen2Config` of a torchtune `qwen2` shape."""
    from transformers import Qwen2Config

    return Qwen2Config(
        vocab_size=shape["vocab_size"], hidden_size=shape["embed_dim"],
        intermediate_size=shape["intermediate_dim"], num_hidden_layers=shape["num_layers"],
        num_attention_heads=shape["num_heads"], num_key_value_heads=shape["num_kv_heads"],
        max_position_embeddings=shape["max_seq_len"], rms_norm_eps=shape["norm_eps"],
        rope_theta=shape["rope_base"], tie_word_embeddings=shape["tie_word_embeddings"],
        dtype="float32", bos_token_id=None, eos_token_id=2, pad_token_id=0,
    )


def build_tiny_model(folder: Path, trajectories: list[dict[str, Any]], seed: int = 0) -> Path:
    """Train the tokenizer on `trajectories`, initialise the model from `seed` and save
    both under `folder` (the same seed and trajectories give the same files)."""
    import torch
    from transformers import Qwen2ForCausalLM

    if not trajectories:
        raise ValueError("the tiny tokenizer needs trajectories to learn from")
    folder = Path(folder)
    tokenizer = train_tokenizer(corpus_texts(trajectories),
                                TINY_SHAPE["vocab_size"] - 8, folder)
    if tokenizer.vocab_size > TINY_SHAPE["vocab_size"]:
        raise AssertionError(f"tokenizer has {tokenizer.vocab_size} tokens, model "
                             f"{TINY_SHAPE['vocab_size']}")
    config = hf_config(TINY_SHAPE)
    config.eos_token_id, config.pad_token_id = tokenizer.eos_id, tokenizer.pad_id
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.stop_ids
    model.generation_config.pad_token_id = tokenizer.pad_id
    model.save_pretrained(folder)
    return folder

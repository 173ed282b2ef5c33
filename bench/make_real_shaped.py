"""A randomly initialised model of Qwen2.5-0.5B's shape, for GPU throughput checks.

Qwen2.5-0.5B's dimensions (896 wide, 24 layers, 14 heads, 2 KV heads, MLP 4864, tied
embeddings) with the tiny model's vocabulary: a byte-level BPE trained here on the given
trajectories and padded to `TINY_SHAPE["vocab_size"]` (2048). Saved in Hugging Face form
(config.json, model.safetensors, tokenizer.json), so `full_finetune_single_device` with the
tiny config and the model overrides below trains it. Nothing is downloaded.

    python bench/make_real_shaped.py OUT_DIR TRAJECTORIES.jsonl   # build the model
    python bench/make_real_shaped.py --overrides                   # print tune overrides
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from models.tiny import TINY_SHAPE

# torchtune `qwen2` builder arguments (torchtune.models.qwen2_5.qwen2_5_0_5b's, but the vocab).
REAL_SHAPED: dict[str, Any] = {
    "vocab_size": TINY_SHAPE["vocab_size"], "num_layers": 24, "num_heads": 14,
    "num_kv_heads": 2, "embed_dim": 896, "intermediate_dim": 4864, "max_seq_len": 32768,
    "norm_eps": 1e-6, "rope_base": 1_000_000.0, "tie_word_embeddings": True,
}


def overrides() -> list[str]:
    """`tune run` overrides that turn the tiny configs' `model:` into this shape."""
    return [f"model.{key}={value}" for key, value in REAL_SHAPED.items()]


def build(folder: Path, trajectories: list[dict[str, Any]], seed: int = 0) -> Path:
    """Train the tokenizer on `trajectories`, initialise the model from `seed` (bf16) and
    save both under `folder`."""
    import torch
    from transformers import Qwen2ForCausalLM

    from models.tiny import corpus_texts, hf_config
    from models.tokenizer import train_tokenizer

    if not trajectories:
        raise ValueError("the tokenizer needs trajectories to learn from")
    folder = Path(folder)
    tokenizer = train_tokenizer(corpus_texts(trajectories), REAL_SHAPED["vocab_size"] - 8,
                                folder)
    config = hf_config(REAL_SHAPED)
    config.eos_token_id, config.pad_token_id = tokenizer.eos_id, tokenizer.pad_id
    config.dtype = "bfloat16"
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config).to(torch.bfloat16)
    model.generation_config.eos_token_id = tokenizer.stop_ids
    model.generation_config.pad_token_id = tokenizer.pad_id
    model.save_pretrained(folder)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, help="folder to write the model to")
    parser.add_argument("trajectories", nargs="?", help="CompoWorld SFT JSONL")
    parser.add_argument("--overrides", action="store_true",
                        help="print the tune run overrides of this shape and exit")
    args = parser.parse_args()
    if args.overrides:
        print(" ".join(overrides()))
        return
    if args.out is None or args.trajectories is None:
        parser.error("give OUT_DIR and TRAJECTORIES.jsonl (or --overrides)")
    from models.data import read_trajectories

    folder = build(args.out, read_trajectories(args.trajectories))
    print(f"real-shaped model in {folder}")


if __name__ == "__main__":
    main()

"""Dataset adapters: CompoWorld trajectories -> token ids and labels for torchtune.

A trajectory is the released format: `{"messages": [...], "tools": [...], ...}` with OpenAI
chat messages (one JSONL line, or one row of the `sft` table). It is rendered in the model
family's chat format (`models/chat.py`) and tokenized segment by segment, so every token
knows whether it was said by the assistant. `labels` equal `tokens` on assistant tokens
and torchtune's ignore index everywhere else: the loss is on assistant turns only
(torchtune's recipes shift the labels themselves).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from torch.utils.data import Dataset
from torchtune.data import CROSS_ENTROPY_IGNORE_IDX

from models.chat import ChatFormat, check_format, render
from models.tokenizer import ChatTokenizer


def tokenize_conversation(tokenizer: ChatTokenizer, messages: list[dict[str, Any]],
                          tools: list[dict[str, Any]], fmt: ChatFormat,
                          max_seq_len: int | None = None) -> tuple[list[int], list[bool]]:
    """Token ids of a rendered conversation and, per token, whether it is trained
    (cut to `max_seq_len` tokens when given)."""
    tokens: list[int] = []
    mask: list[bool] = []
    for segment in render(messages, tools, fmt):
        ids = tokenizer.encode(segment.text)
        tokens += ids
        mask += [segment.trained] * len(ids)
    if max_seq_len is not None:
        tokens, mask = tokens[:max_seq_len], mask[:max_seq_len]
    return tokens, mask


def read_trajectories(source: str | Path, run_id: str | None = None) -> list[dict[str, Any]]:
    """Trajectories from a CompoWorld JSONL file, or from the `sft` table of a store (a
    `COMPOWORLD_HOME` folder; `run_id` required)."""
    path = Path(source)
    if path.is_file():
        with path.open(encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()]
    if path.is_dir():
        if not run_id:
            raise ValueError(f"{source} is a store: give the run id of its sft table")
        from storage.store import Store

        rows = Store.open(path).read("sft", run_id)
        return [{"messages": json.loads(r["messages"]), "tools": json.loads(r["tools"])}
                for r in sorted(rows, key=lambda r: (r["task_id"], r["policy"],
                                                     r["rollout_idx"]))]
    raise FileNotFoundError(f"no trajectories at {source}: give a .jsonl file or a store")


def file_digest(path: str | Path) -> str:
    """sha256 of a file's bytes: what a training run records as its data digest."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class SFTDataset(Dataset):
    """Tokenized trajectories; item `i` is `{"tokens": [...], "labels": [...]}`.
    Trajectories with no assistant token left after cutting are dropped (`dropped`)."""

    def __init__(self, tokenizer: ChatTokenizer, trajectories: list[dict[str, Any]],
                 fmt: ChatFormat, max_seq_len: int | None = None):
        self.samples: list[dict[str, list[int]]] = []
        self.dropped = 0
        for trajectory in trajectories:
            tokens, mask = tokenize_conversation(tokenizer, trajectory["messages"],
                                                 trajectory.get("tools") or [], fmt,
                                                 max_seq_len)
            if not any(mask):
                self.dropped += 1
                continue
            labels = [t if m else CROSS_ENTROPY_IGNORE_IDX for t, m in zip(tokens, mask,
                                                                           strict=True)]
            self.samples.append({"tokens": tokens, "labels": labels})
        if not self.samples:
            raise ValueError("no trajectory has an assistant token to train on "
                             f"({self.dropped} dropped: raise max_seq_len?)")

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, index: int) -> dict[str, list[int]]:
        return self.samples[index]


def sft_dataset(tokenizer: ChatTokenizer, source: str, chat_format: str = "qwen",
                run_id: str | None = None, max_seq_len: int | None = None,
                packed: bool = False) -> SFTDataset:
    """The `dataset:` component of our SFT configs: CompoWorld JSONL (or a store's `sft`
    table) rendered in `chat_format` (`qwen` or `json-action`), cut to `max_seq_len`
    (default: the tokenizer's)."""
    if packed:
        raise ValueError("packed datasets are not supported: set dataset.packed=False")
    fmt = check_format(chat_format)
    return SFTDataset(tokenizer, read_trajectories(source, run_id), fmt,
                      max_seq_len or tokenizer.max_seq_len)

"""Tokenizers: one torchtune-compatible wrapper over any Hugging Face `tokenizer.json`, and
the training of the tiny model's byte-level BPE on the project's own data.

The same wrapper serves the tiny model in tests and Qwen2.5 in production (its
`tokenizer.json` carries the ChatML and tool tokens as added tokens), so datasets, the RL
recipe and the checkpoint server tokenize one way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

from models.chat import CONTROL_TOKENS, END_OF_TEXT, IM_END, TOOL_TOKENS


class TokenizerError(ValueError):
    """A tokenizer folder that lacks what we need."""


class ChatTokenizer:
    """What torchtune's recipes and our own code need from a tokenizer: `encode`, `decode`,
    `pad_id`, `eos_id`, `stop_ids` and `max_seq_len`."""

    def __init__(self, path: str | Path, max_seq_len: int | None = None):
        folder = Path(path)
        file = folder / "tokenizer.json" if folder.is_dir() else folder
        if not file.is_file():
            raise TokenizerError(f"no tokenizer.json at {path}")
        self.path = file.parent
        self.tokenizer = Tokenizer.from_file(str(file))
        self.max_seq_len = max_seq_len
        ids = {token: self.tokenizer.token_to_id(token) for token in (END_OF_TEXT, IM_END)}
        missing = [token for token, id_ in ids.items() if id_ is None]
        if missing:
            raise TokenizerError(f"{file} has no {', '.join(missing)} token: not a ChatML "
                                 "tokenizer")
        self.pad_id = ids[END_OF_TEXT]
        self.eos_id = ids[IM_END]
        self.stop_ids = [ids[IM_END], ids[END_OF_TEXT]]
        self.vocab_size = self.tokenizer.get_vocab_size(with_added_tokens=True)

    def encode(self, text: str, add_bos: bool = False, add_eos: bool = False) -> list[int]:
        """Token ids of `text`; special tokens written in the text map to their ids. There
        is no BOS in ChatML; `add_eos` appends `<|im_end|>`."""
        ids = self.tokenizer.encode(text, add_special_tokens=False).ids
        return ids + [self.eos_id] if add_eos else ids

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        """The text of `ids` (control tokens dropped unless asked for)."""
        return self.tokenizer.decode(list(ids), skip_special_tokens=skip_special_tokens)


def load_tokenizer(path: str, max_seq_len: int | None = None) -> ChatTokenizer:
    """The `tokenizer:` component of our torchtune configs: the folder of a checkpoint (or
    its `tokenizer.json`)."""
    return ChatTokenizer(path, max_seq_len)


def train_tokenizer(texts: Iterable[str], vocab_size: int, folder: Path) -> ChatTokenizer:
    """Train a byte-level BPE on `texts` (deterministic for the same texts), with the
    ChatML control tokens first and the tool markers after them, and save it in Hugging
    Face form: `tokenizer.json` and a `tokenizer_config.json` naming the special tokens
    and the ChatML chat template, so `transformers.AutoTokenizer` loads it too."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=2, show_progress=False,
        special_tokens=list(CONTROL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(texts, trainer=trainer)
    # Tool markers are whole tokens but, as in Qwen2.5, stay in decoded text: the server
    # parses calls out of it.
    tokenizer.add_tokens([AddedToken(token, special=False, normalized=False)
                          for token in TOOL_TOKENS])
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": None, "eos_token": IM_END, "pad_token": END_OF_TEXT,
        "unk_token": None, "model_max_length": 32768, "clean_up_tokenization_spaces": False,
        "chat_template": CHATML_TEMPLATE,
    }, indent=2))
    return ChatTokenizer(folder)


# Plain ChatML (the json-action format's wrapping), for tools that apply a chat template.
CHATML_TEMPLATE = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
    "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

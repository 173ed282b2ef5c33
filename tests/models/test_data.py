"""Dataset adapters: real exported trajectories rendered, tokenized, decoded and masked."""

from __future__ import annotations

import json

import pytest
import torch
from torchtune.data import CROSS_ENTROPY_IGNORE_IDX, padded_collate_sft

from compoworld.rollout.openai_policy import JSON_ACTION_RULES, json_action_messages
from models.chat import IM_END, IM_START, parse_reply, prompt_text, render
from models.data import SFTDataset, read_trajectories, sft_dataset, tokenize_conversation
from models.tokenizer import TokenizerError, load_tokenizer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def trajectories(sft_run):
    return read_trajectories(sft_run[2])


@pytest.fixture(scope="module")
def tokenizer(tiny_model):
    return load_tokenizer(str(tiny_model))


def _spans(tokens, mask, trained):
    """Runs of consecutive tokens whose mask equals `trained`."""
    spans, current = [], []
    for token, flag in zip(tokens, mask, strict=True):
        if flag == trained:
            current.append(token)
        elif current:
            spans.append(current)
            current = []
    return spans + ([current] if current else [])


def test_qwen_format_trains_on_exactly_the_assistant_turns(trajectories, tokenizer):
    trajectory = trajectories[0]
    messages = trajectory["messages"]
    tokens, mask = tokenize_conversation(tokenizer, messages, trajectory["tools"], "qwen")
    trained = [tokenizer.decode(s, skip_special_tokens=False)
               for s in _spans(tokens, mask, True)]
    assistants = [m for m in messages if m["role"] == "assistant"]
    assert len(trained) == len(assistants)
    for text, message in zip(trained, assistants, strict=True):
        assert text.endswith(IM_END)  # the model learns to end its turn
        assert IM_START not in text
        calls = message.get("tool_calls") or []
        for call in calls:
            body = {"name": call["function"]["name"],
                    "arguments": json.loads(call["function"]["arguments"])}
            assert f"<tool_call>\n{json.dumps(body, ensure_ascii=False)}\n</tool_call>" in text
        if not calls:
            assert text == message["content"] + IM_END
    context = tokenizer.decode(tokens, skip_special_tokens=False)
    assert context.startswith(f"{IM_START}system\n{messages[0]['content']}")
    assert "<tools>" in context and '"name": "list_services"' in context
    # Tool results are context, never trained.
    for message in messages:
        if message["role"] == "tool":
            assert f"<tool_response>\n{message['content']}\n</tool_response>" in context
            assert all(message["content"] not in text for text in trained)


def test_json_action_training_text_is_exactly_what_the_policy_is_served(trajectories,
                                                                        tokenizer):
    trajectory = trajectories[1]
    messages, tools = trajectory["messages"], trajectory["tools"]
    tokens, mask = tokenize_conversation(tokenizer, messages, tools, "json-action")
    full = tokenizer.decode(tokens, skip_special_tokens=False)
    assert JSON_ACTION_RULES.strip() in full
    for index, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        # What OpenAIPolicy sends for this turn, as the checkpoint server renders it.
        served = prompt_text(json_action_messages(messages[:index], tools), None, None)
        assert full.startswith(served)
        reply = json_action_messages(messages[:index + 1], tools)[-1]["content"]
        assert full[len(served):].startswith(reply + IM_END)
        if message.get("tool_calls"):
            assert json.loads(reply)["tool"] == message["tool_calls"][0]["function"]["name"]


def test_labels_ignore_everything_but_assistant_tokens(trajectories, tokenizer):
    dataset = SFTDataset(tokenizer, trajectories[:4], "qwen")
    for sample, trajectory in zip(dataset.samples, trajectories[:4], strict=True):
        tokens, mask = tokenize_conversation(tokenizer, trajectory["messages"],
                                             trajectory["tools"], "qwen")
        assert sample["tokens"] == tokens
        assert [label != CROSS_ENTROPY_IGNORE_IDX for label in sample["labels"]] == mask
        assert all(label == token for label, token, m in
                   zip(sample["labels"], tokens, mask, strict=True) if m)
        assert 0 < sum(mask) < len(mask) / 2
    batch = padded_collate_sft([dataset[0], dataset[1]], padding_idx=tokenizer.pad_id)
    assert batch["tokens"].shape == batch["labels"].shape
    assert batch["tokens"].dtype == torch.long


def test_the_dataset_component_reads_jsonl_or_the_sft_table(sft_run, tokenizer):
    store, run_id, path = sft_run
    from_file = sft_dataset(tokenizer, str(path), chat_format="json-action")
    from_table = sft_dataset(tokenizer, str(store.home), chat_format="json-action",
                             run_id=run_id)
    assert sorted(s["tokens"] for s in from_file.samples) == \
        sorted(s["tokens"] for s in from_table.samples)
    with pytest.raises(ValueError, match="run id"):
        sft_dataset(tokenizer, str(store.home))
    with pytest.raises(ValueError, match="unknown chat format"):
        sft_dataset(tokenizer, str(path), chat_format="llama3")
    with pytest.raises(FileNotFoundError):
        sft_dataset(tokenizer, str(path) + ".missing")


def test_cutting_to_max_seq_len_drops_samples_left_without_an_assistant_token(
        trajectories, tokenizer):
    system_tokens = len(tokenizer.encode(render(trajectories[0]["messages"],
                                                trajectories[0]["tools"], "qwen")[0].text))
    with pytest.raises(ValueError, match="no trajectory has an assistant token"):
        SFTDataset(tokenizer, trajectories[:3], "qwen", max_seq_len=system_tokens)
    cut = SFTDataset(tokenizer, trajectories[:3], "qwen", max_seq_len=system_tokens + 400)
    assert all(len(s["tokens"]) <= system_tokens + 400 for s in cut.samples)


def test_a_rendered_tool_call_parses_back_into_the_same_call(trajectories):
    message = next(m for m in trajectories[0]["messages"] if m.get("tool_calls"))
    text = "".join(s.text for s in render([{"role": "system", "content": "s"}, message],
                                          [], "qwen") if s.trained)
    parsed = parse_reply(text, "qwen", step=3)
    assert parsed["tool_calls"][0]["function"]["name"] == \
        message["tool_calls"][0]["function"]["name"]
    assert json.loads(parsed["tool_calls"][0]["function"]["arguments"]) == \
        json.loads(message["tool_calls"][0]["function"]["arguments"])
    assert parse_reply("no call here", "qwen") == {"role": "assistant",
                                                   "content": "no call here"}
    assert parse_reply("<tool_call>\nnot json\n</tool_call>", "qwen")["content"]


def test_a_folder_without_a_chatml_tokenizer_is_refused(tmp_path):
    with pytest.raises(TokenizerError, match="no tokenizer.json"):
        load_tokenizer(str(tmp_path))

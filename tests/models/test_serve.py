"""The checkpoint server: a tiny random model served over the OpenAI API, reached through the
`openai` client, `LLMClient` and the rollout policy."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import openai
import pytest

from compoworld.llm import LLMClient
from compoworld.rollout.openai_policy import OpenAIPolicy
from compoworld.serve import ServerError
from models.serve import CheckpointServer, Generation, chat_completion, check_checkpoint
from models.tiny import build_tiny_model

TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "Current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "convert_currency", "description": "Convert an amount between currencies.",
        "parameters": {"type": "object", "properties": {
            "amount": {"type": "number"}, "source": {"type": "string"},
            "target": {"type": "string"}}, "required": ["amount", "source", "target"]}}},
]
CASES = [
    ("What is the weather in {city}?", "get_weather", {"city": "{city}"},
     '{{"city": "{city}", "temperature_c": 18, "sky": "cloudy"}}',
     "It is 18 degrees and cloudy in {city}."),
    ("How much is 20 EUR in USD? I am flying to {city}.", "convert_currency",
     {"amount": 20, "source": "EUR", "target": "USD"}, '{{"amount": 21.7, "currency": "USD"}}',
     "20 EUR is about 21.70 USD. Have a good trip to {city}!"),
]
CITIES = ["Paris", "Lisbon", "Berlin", "Oslo", "Madrid", "Vienna", "Prague", "Dublin"]


def trajectory(index: int) -> dict[str, Any]:
    """One hand-written OpenAI-format conversation: a question, a call, its result, an
    answer."""
    question, tool, arguments, result, reply = CASES[index % len(CASES)]
    city = CITIES[index % len(CITIES)]
    arguments = {key: value.format(city=city) if isinstance(value, str) else value
                 for key, value in arguments.items()}
    call_id = f"call_{index}"
    return {"tools": TOOLS, "messages": [
        {"role": "system", "content": "You are a helpful travel assistant. Use the tools."},
        {"role": "user", "content": question.format(city=city)},
        {"role": "assistant", "content": None, "tool_calls": [{
            "id": call_id, "type": "function",
            "function": {"name": tool, "arguments": json.dumps(arguments)}}]},
        {"role": "tool", "tool_call_id": call_id, "name": tool,
         "content": result.format(city=city)},
        {"role": "assistant", "content": reply.format(city=city)},
    ]}


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny") / "tiny-policy"
    return build_tiny_model(folder, [trajectory(i) for i in range(16)], seed=0)


@pytest.fixture(scope="module")
def server(checkpoint: Path):
    # One thread: a 64-wide model gains nothing from two, and on a busy machine OpenMP's
    # hand-offs made decoding 5-20x slower (12-58 tokens/s against 250-370 with one).
    with CheckpointServer(checkpoint, threads=1) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: CheckpointServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="none", max_retries=0, timeout=60)


def ask(client: openai.OpenAI, server: CheckpointServer, **request: Any) -> Any:
    messages = trajectory(0)["messages"][:2]
    return client.chat.completions.create(
        model=server.model, **({"messages": messages, "max_tokens": 8} | request))


def test_models_lists_the_checkpoint_under_its_folder_name(server: CheckpointServer):
    with urllib.request.urlopen(f"{server.base_url}/models", timeout=10) as response:
        listing = json.load(response)
    assert server.model == "tiny-policy"
    assert listing["data"] == [{"id": "tiny-policy", "object": "model",
                                "owned_by": "compoworld"}]


def test_a_chat_completion_parses_with_the_openai_client(client, server):
    completion = ask(client, server, tools=TOOLS, tool_choice="auto", seed=1)
    choice = completion.choices[0]
    assert choice.message.role == "assistant"
    assert choice.finish_reason in ("stop", "length", "tool_calls")
    assert completion.model == "tiny-policy"
    usage = completion.usage
    assert usage.prompt_tokens > 0 and 0 < usage.completion_tokens <= 8
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens


def test_the_same_seed_gives_the_same_reply(client, server):
    first, second = (ask(client, server, seed=7, temperature=1.0, max_tokens=12)
                     for _ in range(2))
    assert first.choices[0].message.content == second.choices[0].message.content
    greedy = {ask(client, server, temperature=0, max_tokens=12).choices[0].message.content
              for _ in range(2)}
    assert len(greedy) == 1


def test_tool_call_blocks_become_openai_tool_calls():
    text = ('Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": '
            '{"city": "Oslo"}}\n</tool_call>')
    response = chat_completion(Generation(text, 40, 20, cut=False, step=3), "tiny", "qwen")
    completion = openai.types.chat.ChatCompletion.model_validate(response)
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Let me check."
    call = choice.message.tool_calls[0]
    assert (call.id, call.function.name) == ("call_3_0", "get_weather")
    assert json.loads(call.function.arguments) == {"city": "Oslo"}
    plain = chat_completion(Generation(text, 40, 20, cut=True, step=3), "tiny", None)
    assert plain["choices"][0]["finish_reason"] == "length"
    assert "tool_calls" not in plain["choices"][0]["message"]


def test_a_prompt_longer_than_the_context_is_cut_from_the_left(client, server):
    # Distinct numbers so that the BPE cannot merge them: well over 4096 tokens.
    long = " ".join(str(n) for n in range(6000))
    completion = ask(client, server, max_tokens=4, messages=[
        {"role": "system", "content": "Be brief."}, {"role": "user", "content": long}])
    assert completion.usage.prompt_tokens == 4096 - 4
    assert "4096" in server.log_tail(50) and "keeping the last 4092" in server.log_tail(50)


def test_a_bad_body_is_answered_400(client, server):
    with pytest.raises(openai.BadRequestError, match="messages"):
        client.chat.completions.create(model=server.model, messages=[])
    request = urllib.request.Request(f"{server.base_url}/chat/completions", data=b"{not json",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=10)
    assert error.value.code == 400
    assert json.load(error.value)["error"]["type"] == "invalid_request_error"
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{server.base_url}/nothing", timeout=10)
    assert missing.value.code == 404


def test_the_json_action_policy_acts_through_llm_client(server: CheckpointServer):
    client = LLMClient(server.base_url, server.model, timeout=60, max_retries=0)
    policy = OpenAIPolicy(client, "json-action", max_tokens=16, seed=3)
    action = asyncio.run(policy.act(trajectory(1)["messages"][:2], TOOLS))
    assert action.message["role"] == "assistant"
    assert action.prompt_tokens > 0 and action.completion_tokens > 0
    assert action.error  # a random model does not write a JSON action


def test_a_folder_that_is_not_a_checkpoint_is_refused(tmp_path: Path):
    with pytest.raises(ServerError, match="does not exist"):
        CheckpointServer(tmp_path / "missing")
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(ServerError, match="no config.json"):
        check_checkpoint(tmp_path)

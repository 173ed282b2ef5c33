"""The `openai` policy: any OpenAI-compatible chat endpoint (vLLM, a llama.cpp server).

Two ways to get actions out of a model:

- `tools`: native tool calls (`tools=...`, `tool_choice="auto"`), for models whose chat
  template has tool tokens (Qwen, Llama 3.1+, Hermes; vLLM with `--enable-auto-tool-choice
  --tool-call-parser hermes`).
- `json-action`: for small models that do not emit tool calls. The tools are described in
  the system message and every reply is constrained with `response_format` to one JSON
  object, `{"tool": NAME, "arguments": {...}}` or `{"answer": TEXT}`. The reply is turned
  into the same assistant message a native tool call gives (so the trajectory, the SFT
  export and scoring see one format); a reply that is not such an object is handed back
  to the model as an error it can correct, never a crash.

The client is synchronous; calls run in a worker thread so episodes overlap. An `LLMError`
(the client already retried timeouts, 429 and 5xx with backoff) becomes `InfraError`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

from compoworld.llm import LLMClient, LLMError
from compoworld.rollout.episode import InfraError
from compoworld.rollout.policies import Action

ActionMode = Literal["tools", "json-action"]
# Bounded on purpose: a grammar constrains the reply's shape but does not make a small model
# stop, and with open objects and strings it rambles until `max_tokens` cuts the JSON.
ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "tool": {"type": "string", "maxLength": 80},
                "arguments": {
                    "type": "object",
                    "additionalProperties": {"anyOf": [
                        {"type": "string", "maxLength": 120}, {"type": "number"},
                        {"type": "boolean"},
                    ]},
                    "maxProperties": 8,
                },
            },
            "required": ["tool", "arguments"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"answer": {"type": "string", "maxLength": 400}},
            "required": ["answer"],
            "additionalProperties": False,
        },
    ]
}
JSON_ACTION_RULES = """
Reply with exactly one JSON object and nothing else:
- to call a tool: {"tool": "<tool name>", "arguments": {<arguments>}}
- to finish: {"answer": "<your final answer to the user>"}
Tools:
"""


def describe_tools(tools: list[dict[str, Any]]) -> str:
    """The tools as the json-action prompt lists them: name, description, parameters."""
    lines = []
    for tool in tools:
        function = tool["function"]
        params = json.dumps(function.get("parameters", {}), separators=(",", ":"))
        lines.append(f"- {function['name']}: {function.get('description', '')[:200]} "
                     f"parameters: {params[:600]}")
    return "\n".join(lines)


def parse_action(text: str, step: int) -> tuple[dict[str, Any], str | None]:
    """An assistant message from a json-action reply, and the problem if it is unusable."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    try:
        reply = json.loads(text)
    except json.JSONDecodeError as error:
        return message, f"Your reply was not valid JSON ({error.msg}). Reply with one JSON " \
                        "object: a tool call or an answer."
    if not isinstance(reply, dict):
        return message, "Your reply must be one JSON object, not a list or a value."
    if isinstance(reply.get("tool"), str) and reply["tool"]:
        arguments = reply.get("arguments", {})
        if not isinstance(arguments, dict):
            return message, "`arguments` must be a JSON object of parameter names to values."
        call = {"id": f"call_{step}", "type": "function",
                "function": {"name": reply["tool"], "arguments": json.dumps(arguments)}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}, None
    if isinstance(reply.get("answer"), str):
        return {"role": "assistant", "content": reply["answer"]}, None
    return message, 'Give either "tool" (with "arguments") or "answer".'


class OpenAIPolicy:
    """A policy backed by an OpenAI-compatible endpoint."""

    name = "openai"

    def __init__(self, client: LLMClient, action_mode: ActionMode = "tools", *,
                 temperature: float = 0.7, max_tokens: int = 512, seed: int | None = None):
        if action_mode not in ("tools", "json-action"):
            raise ValueError(f"action_mode must be 'tools' or 'json-action', not {action_mode!r}")
        self.client = client
        self.model = client.model
        self.action_mode = action_mode
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed
        self.steps = 0

    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Action:
        """One model turn, as an assistant message."""
        self.steps += 1
        request: dict[str, Any] = {"temperature": self.temperature,
                                   "max_tokens": self.max_tokens}
        if self.seed is not None:
            request["seed"] = self.seed + self.steps
        if self.action_mode == "tools":
            request |= {"messages": messages, "tools": tools, "tool_choice": "auto"}
        else:
            request |= {"messages": json_action_messages(messages, tools),
                        "response_format": {"type": "json_object", "schema": ACTION_SCHEMA}}
        try:
            completion = await asyncio.to_thread(self.client.create, **request)
        except LLMError as error:
            raise InfraError(str(error)) from error
        usage = getattr(completion, "usage", None)
        tokens = (getattr(usage, "prompt_tokens", 0) or 0,
                  getattr(usage, "completion_tokens", 0) or 0)
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise InfraError(f"{self.client.base_url} returned no choices")
        reply = choices[0].message
        if self.action_mode == "json-action":
            message, problem = parse_action(reply.content or "", self.steps)
            return Action(message, tokens[0], tokens[1], error=problem)
        message = {"role": "assistant", "content": reply.content}
        calls = [call.model_dump(exclude_none=True) for call in (reply.tool_calls or [])]
        if calls:
            message["tool_calls"] = calls
        return Action(message, tokens[0], tokens[1])


def json_action_messages(messages: list[dict[str, Any]],
                         tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A conversation as a model without tool tokens sees it in json-action mode: the
    rules and the tools appended to the system message, calls and results as text turns.
    The training side (`models/chat.py`) renders SFT and RL samples through this too, so
    a model is trained on exactly the prompts it is served."""
    system = messages[0]["content"] + JSON_ACTION_RULES + describe_tools(tools)
    return [{"role": "system", "content": system}, *_as_text(messages[1:])]


def _as_text(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """History for a model without tool tokens: tool calls and results as plain turns."""
    plain = []
    for message in messages:
        if message["role"] == "tool":
            plain.append({"role": "user",
                          "content": f"Result of {message.get('name', 'the tool')}: "
                                     f"{message['content']}"})
        elif message["role"] == "assistant" and message.get("tool_calls"):
            function = message["tool_calls"][0]["function"]
            arguments = json.loads(function["arguments"] or "{}")
            plain.append({"role": "assistant", "content": json.dumps(
                {"tool": function["name"], "arguments": arguments})})
        else:
            plain.append({"role": message["role"], "content": message.get("content") or ""})
    return plain

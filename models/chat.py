"""Chat formats: an OpenAI-format trajectory as the text a model is trained on and served.

Every model we train speaks ChatML (`<|im_start|>role\\n...<|im_end|>\\n`: Qwen2/2.5 and the
tiny test model). Tool calls and results go in one of two formats:

- `qwen`: Qwen2.5's own tool format (what its chat template renders and vLLM's `hermes`
  parser reads back): the tools as JSON lines inside `<tools></tools>` in the system turn,
  each call as `<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>` in the
  assistant turn, results as `<tool_response>` blocks in a user turn.
- `json-action`: for models without tool tokens, exactly what the rollout policy's
  json-action mode sends (`compoworld.rollout.openai_policy.json_action_messages`): rules
  and tools in the system turn, each call as one JSON object `{"tool": ..., "arguments":
  ...}`, results as user turns.

`render` splits a conversation into segments marked trained or not: only what an assistant
says (its text, its calls and the `<|im_end|>` that ends its turn) is trained; the system
prompt, the user, tool results and the `<|im_start|>assistant\\n` header are context.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from compoworld.rollout.openai_policy import json_action_messages

ChatFormat = Literal["qwen", "json-action"]
FORMATS: tuple[str, ...] = ("qwen", "json-action")
IM_START, IM_END, END_OF_TEXT = "<|im_start|>", "<|im_end|>", "<|endoftext|>"
TOOL_CALL, TOOL_CALL_END = "<tool_call>", "</tool_call>"
TOOL_RESPONSE, TOOL_RESPONSE_END = "<tool_response>", "</tool_response>"
# Control tokens (never in decoded text) and tool markers (kept in decoded text, as Qwen2.5
# marks them), in the order the tiny tokenizer gives them ids.
CONTROL_TOKENS = (END_OF_TEXT, IM_START, IM_END)
TOOL_TOKENS = (TOOL_CALL, TOOL_CALL_END, TOOL_RESPONSE, TOOL_RESPONSE_END)
QWEN_TOOLS_PREAMBLE = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
QWEN_TOOLS_CLOSING = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of rendered text and whether the model is trained to produce it."""

    text: str
    trained: bool


def check_format(fmt: str) -> ChatFormat:
    """`fmt` if it is a chat format we render, else a ValueError that lists them."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown chat format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return fmt  # type: ignore[return-value]


def render(messages: list[dict[str, Any]], tools: list[dict[str, Any]],
           fmt: ChatFormat) -> list[Segment]:
    """The segments of a whole conversation in `fmt`."""
    check_format(fmt)
    if not messages or messages[0].get("role") != "system":
        raise ValueError("a conversation starts with a system message")
    if fmt == "json-action":
        return chatml(json_action_messages(messages, tools))
    return _qwen(messages, tools)


def prompt_text(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                fmt: ChatFormat | None) -> str:
    """The text a model continues to produce its next turn: the conversation, then an
    open assistant header. `fmt` None renders the messages as plain ChatML turns (what a
    json-action request already is); `qwen` with tools adds the tool preamble."""
    if fmt is None:
        segments = chatml(messages)
    else:
        segments = render(messages, tools or [], fmt)
    return "".join(s.text for s in segments) + f"{IM_START}assistant\n"


def parse_reply(text: str, fmt: ChatFormat | None, step: int = 0) -> dict[str, Any]:
    """The assistant message a generated turn stands for. In `qwen` format every
    `<tool_call>` block with a JSON object becomes an OpenAI tool call (the text before
    the first block stays the content); in other formats the text is the content."""
    text = text.split(IM_END, 1)[0]
    if fmt != "qwen" or TOOL_CALL not in text:
        return {"role": "assistant", "content": text}
    content, *blocks = text.split(TOOL_CALL)
    calls = []
    for index, block in enumerate(blocks):
        try:
            call = json.loads(block.split(TOOL_CALL_END, 1)[0].strip())
        except json.JSONDecodeError:
            continue
        if isinstance(call, dict) and isinstance(call.get("name"), str):
            arguments = call.get("arguments", {})
            calls.append({"id": f"call_{step}_{index}", "type": "function", "function": {
                "name": call["name"],
                "arguments": json.dumps(arguments if isinstance(arguments, dict) else {})}})
    if not calls:
        return {"role": "assistant", "content": text}
    return {"role": "assistant", "content": content.strip() or None, "tool_calls": calls}


def chatml(messages: list[dict[str, Any]]) -> list[Segment]:
    """Plain ChatML turns; assistant text is trained."""
    segments = []
    for message in messages:
        role, content = message["role"], message.get("content") or ""
        if role == "assistant":
            segments += [Segment(f"{IM_START}assistant\n", False),
                         Segment(f"{content}{IM_END}", True), Segment("\n", False)]
        else:
            segments.append(Segment(f"{IM_START}{role}\n{content}{IM_END}\n", False))
    return segments


def _qwen(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[Segment]:
    system = messages[0].get("content") or ""
    if tools:
        lines = "".join("\n" + json.dumps(tool, ensure_ascii=False) for tool in tools)
        system += QWEN_TOOLS_PREAMBLE + lines + QWEN_TOOLS_CLOSING
    segments = [Segment(f"{IM_START}system\n{system}{IM_END}\n", False)]
    rest = messages[1:]
    for index, message in enumerate(rest):
        role = message["role"]
        if role == "assistant":
            segments += [Segment(f"{IM_START}assistant\n", False),
                         Segment(_qwen_assistant(message) + IM_END, True),
                         Segment("\n", False)]
        elif role == "tool":
            # Consecutive results share one user turn, as in Qwen2.5's template.
            opens = index == 0 or rest[index - 1]["role"] != "tool"
            closes = index == len(rest) - 1 or rest[index + 1]["role"] != "tool"
            text = (f"{IM_START}user" if opens else "") + \
                f"\n{TOOL_RESPONSE}\n{message.get('content') or ''}\n{TOOL_RESPONSE_END}"
            segments.append(Segment(text + (f"{IM_END}\n" if closes else ""), False))
        else:
            segments.append(Segment(
                f"{IM_START}{role}\n{message.get('content') or ''}{IM_END}\n", False))
    return segments


def _qwen_assistant(message: dict[str, Any]) -> str:
    text = message.get("content") or ""
    for call in message.get("tool_calls") or []:
        function = call["function"]
        arguments = function.get("arguments") or "{}"
        if isinstance(arguments, str):
            arguments = json.loads(arguments)
        body = json.dumps({"name": function["name"], "arguments": arguments},
                          ensure_ascii=False)
        text += ("\n" if text else "") + f"{TOOL_CALL}\n{body}\n{TOOL_CALL_END}"
    return text

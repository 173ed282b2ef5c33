"""Optional LLM paraphrase of a template instruction, with strict acceptance.

A paraphrase is kept only when every visible value is still stated (verbatim as
`render_value` writes it, or a date as a person says it: `naming.stated`; case-sensitive),
no hidden value appears (case-insensitive; see `leaked_values`), and its length is sane;
otherwise the template text stands. The model is reached through
`compoworld.llm.LLMClient.chat` (or anything with the same `chat` method).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from compoworld.compose.instruction import render_value
from compoworld.compose.naming import stated
from compoworld.compose.values import mentions
from compoworld.llm import LLMError

MIN_CHARS = 20
MAX_CHARS = 8000
MAX_GROWTH = 4.0  # a paraphrase may be at most this many times as long as the original
MIN_SHRINK = 0.3  # ... and at least this fraction of it

SYSTEM = (
    "You rewrite task requests that a user sends to an assistant with tools. Rewrite the "
    "request in natural, varied English, as the user would write it. Keep every step, "
    "every condition and every house rule. Copy every value in double quotes exactly, "
    "character for character. Do not add values, names, ids or steps. Answer with the "
    "rewritten request only."
)
_PREAMBLE = re.compile(r"^(sure|here|okay|ok|certainly|rewritten|paraphrase)\b[^\n]*:\s*\n",
                       re.IGNORECASE)


class ChatClient(Protocol):
    """What a paraphraser needs of a client: `LLMClient.chat`."""

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0,
        max_tokens: int = 1024,
        seed: int | None = None,
    ) -> str: ...


def missing_values(text: str, visible: list[Any]) -> list[Any]:
    """The visible values `text` does not state (`naming.stated`, case-sensitive)."""
    return [value for value in visible if not stated(value, text)]


def leaked_values(text: str, hidden: list[Any]) -> list[Any]:
    """The hidden values that can be read in `text`.

    Strings (and the rendering of objects and lists) of 3 characters or more count when
    found anywhere, case-insensitively; numbers of 3 characters or more when not inside a
    longer number (`100` is not in `1000`). Shorter values, booleans and nulls are too
    common to tell a leak from chance (`2` in "the 2 invoices"). The task verifier reads
    leaks the same way, so a paraphrase accepted here passes it too.
    """
    return [value for value in hidden if mentions(text, value)]


def accept_paraphrase(
    candidate: str, visible: list[Any], hidden: list[Any], *, original: str | None = None
) -> str | None:
    """Why `candidate` is rejected, or None when it may replace the instruction.

    Rejected when empty or too short, too long (over `MAX_CHARS`, or over `MAX_GROWTH`
    times `original`, under `MIN_SHRINK` times it), missing a visible value, or leaking a
    hidden one.
    """
    text = candidate.strip()
    if len(text) < MIN_CHARS:
        return f"too short ({len(text)} characters)"
    if len(text) > MAX_CHARS or (original and len(text) > MAX_GROWTH * len(original)):
        return f"too long ({len(text)} characters)"
    if original and len(text) < MIN_SHRINK * len(original.strip()):
        return f"too short ({len(text)} characters for {len(original.strip())})"
    if missing := missing_values(text, visible):
        return f"visible value missing: {_show(missing[0])}"
    if leaked := leaked_values(text, hidden):
        return f"hidden value present: {_show(leaked[0])}"
    return None


def paraphrase_instruction(
    instruction: str,
    visible: list[Any],
    hidden: list[Any],
    client: ChatClient,
    *,
    attempts: int = 2,
    temperature: float = 0.7,
    seed: int | None = None,
) -> tuple[str, str | None]:
    """Ask `client` to reword `instruction`; returns (text, None) when a paraphrase passes
    `accept_paraphrase`, else (instruction, why the last try failed).

    A rejected try is shown to the model with the reason before the next one. An `LLMError`
    ends the attempts at once (the client has already retried).
    """
    values = "\n".join(f"- {render_value(v)}" for v in visible) or "- (none)"
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"Request:\n{instruction}\n\nValues to keep exactly:\n"
                                    f"{values}"},
    ]
    reason = "no attempt made"
    for attempt in range(attempts):
        try:
            reply = client.chat(
                messages, temperature=temperature, max_tokens=_token_budget(instruction),
                seed=None if seed is None else seed + attempt,
            )
        except LLMError as error:
            return instruction, f"llm error: {error}"
        text = clean_reply(reply)
        reason = accept_paraphrase(text, visible, hidden, original=instruction)
        if reason is None:
            return text, None
        messages += [
            {"role": "assistant", "content": reply},
            {"role": "user", "content": f"That rewrite was rejected: {reason}. Rewrite the "
                                        "original request again."},
        ]
    return instruction, f"rejected after {attempts} attempts: {reason}"


def clean_reply(reply: str) -> str:
    """A model's reply without code fences, a `Here is ...:` preamble or wrapping quotes."""
    text = reply.strip()
    if text.startswith("```") and text.endswith("```") and len(text) > 6:
        text = text[3:-3].split("\n", 1)[-1] if "\n" in text[3:-3] else text[3:-3]
    text = _PREAMBLE.sub("", text.strip(), count=1).strip()
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'" and text.count(text[0]) == 2:
        text = text[1:-1].strip()
    return text


def _token_budget(instruction: str) -> int:
    return min(4096, 256 + len(instruction) // 2)  # ~4 characters a token, room to grow


def _show(value: Any) -> str:
    text = render_value(value)
    return text if len(text) <= 60 else text[:57] + "..."

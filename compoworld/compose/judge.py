"""The optional task judge: an LLM rates a composed task for realism and link sense.

`judge_task` shows a model (any OpenAI-compatible endpoint, through `LLMClient.chat`) the
task's instruction, the titles of its services and a compact view of the gold chain (each
call, and where each carried value came from), and asks for two ratings from 1 to 5:

- realism: would a real person send this request to an assistant?
- link sense: do the values that move between services make sense (the same person's
  email becoming a recipient, not a timestamp becoming an unrelated filter)?

The reply must be a JSON object `{"realism", "link_sense", "reason"}`. A reply that does not
parse, or rates outside 1-5, and an `LLMError` from the client, give a `Judgement` with
`error` set and no ratings: the judge never raises for a bad reply, and `keep` keeps such a
task (the judge is optional; an outage must not drop data), while its row records why.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from compoworld.compose.arguments import call_arguments
from compoworld.compose.instruction import render_value
from compoworld.compose.paraphrase import ChatClient
from compoworld.compose.records import Task
from compoworld.llm import LLMError

DEFAULT_THRESHOLD = 3.0  # both ratings at least this, or the task is dropped
MAX_REASON = 300  # characters of the model's reason that are kept
MAX_VALUE = 60  # characters of one value shown in the chain view
MAX_TOKENS = 160

SYSTEM = (
    "You review tasks for a training set of assistants that use tools. A task is a request "
    "a user sends to an assistant, solved by a chain of tool calls across services. Rate "
    "the task on two scales from 1 (worst) to 5 (best):\n"
    "- realism: would a real person plausibly ask for this, with these services together?\n"
    "- link_sense: do the values carried from one call into a later one make sense (the "
    "same person, record or amount), rather than only sharing a format?\n"
    'Answer with one JSON object: {"realism": <1-5>, "link_sense": <1-5>, "reason": '
    '"<one short sentence>"}.'
)

# Bounded (closed object, short reason) so that a small model cannot ramble past
# max_tokens inside the grammar (compoworld/serve.py).
RATING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "realism": {"type": "integer", "enum": [1, 2, 3, 4, 5]},
        "link_sense": {"type": "integer", "enum": [1, 2, 3, 4, 5]},
        "reason": {"type": "string", "maxLength": 200},
    },
    "required": ["realism", "link_sense", "reason"],
    "additionalProperties": False,
}

_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")


@dataclass(frozen=True, slots=True)
class Judgement:
    """The judge's ratings of one task (None with `error` set when there are none)."""

    realism: float | None
    link_sense: float | None
    reason: str
    error: str | None = None


def keep(judgement: Judgement, threshold: float) -> bool:
    """Whether a judged task is kept: both ratings at least `threshold`, or no ratings at
    all because the judge failed (recorded in the row, never a reason to drop data)."""
    if judgement.realism is None or judgement.link_sense is None:
        return True
    return judgement.realism >= threshold and judgement.link_sense >= threshold


def chain_view(task: Task, titles: Mapping[str, str] | None = None) -> str:
    """The gold chain in a few lines: each call with its arguments, a carried value with
    the step and field it came from, then the values the answer must report."""
    titles = titles or {}
    lines = []
    for index, call in enumerate(task.gold_calls, start=1):
        arguments = []
        for name, value in call_arguments(call).items():
            binding = call.bindings.get(name)
            shown = _short(render_value(value))
            if binding is not None and binding.kind == "hidden" and binding.step is not None:
                shown += f" (from step {binding.step + 1}: {binding.field})"
            arguments.append(f"{name}={shown}")
        service = titles.get(call.service, call.service)
        lines.append(f"{index}. [{service}] {call.tool} ({call.effect})"
                     + (": " + ", ".join(arguments) if arguments else ""))
    for item in task.answer:
        lines.append(f"report: {item.label} (step {item.step + 1}: {item.path})")
    return "\n".join(lines)


def judge_messages(task: Task, titles: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """The chat messages that ask for the ratings of `task`."""
    titles = titles or {}
    services = ", ".join(dict.fromkeys(titles.get(name, name) for name in task.services))
    user = (f"Services: {services}\n\nRequest:\n{task.instruction}\n\n"
            f"Tool calls that solve it:\n{chain_view(task, titles)}")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def judge_task(
    task: Task, client: ChatClient, *, seed: int, titles: Mapping[str, str] | None = None
) -> Judgement:
    """Ask `client` to rate `task` (`titles`: service name -> title, for the prompt).
    Never raises for a failed call or a bad reply: the `Judgement` says what went wrong."""
    try:
        reply = client.chat(
            judge_messages(task, titles),
            response_format={"type": "json_object", "schema": RATING_SCHEMA},
            temperature=0, max_tokens=MAX_TOKENS, seed=seed,
        )
    except LLMError as error:
        return Judgement(None, None, "", f"llm error: {error}")
    return parse_judgement(reply)


def parse_judgement(reply: str) -> Judgement:
    """The ratings in a model's reply: a JSON object, possibly fenced or with text around
    it. Ratings may be integers, floats or numeric strings, each within 1-5."""
    data = _json_object(reply)
    if data is None:
        return Judgement(None, None, "", f"reply is not a JSON object: {_short(reply)}")
    ratings = {}
    for key in ("realism", "link_sense"):
        rating = _number(data.get(key))
        if rating is None:
            return Judgement(None, None, "", f"no numeric {key} in reply: {_short(reply)}")
        if not 1 <= rating <= 5:
            return Judgement(None, None, "", f"{key} {rating:g} is outside 1-5")
        ratings[key] = rating
    reason = data.get("reason")
    reason = reason.strip()[:MAX_REASON] if isinstance(reason, str) else ""
    return Judgement(ratings["realism"], ratings["link_sense"], reason)


def _json_object(reply: str) -> dict[str, Any] | None:
    text = _FENCE.sub("", reply.strip())
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start:end + 1])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):  # a bool is an int to Python, never a rating
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE - 3] + "..."

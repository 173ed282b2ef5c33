"""The LLM world model: a language model answers simulated calls; the offline model backs it.

`respond(tool, arguments, state_summary)`:
1. a cached answer for (world seed, tool, canonical arguments) is returned as it is, so the
   same call always gives the same answer within a world (verification, gold replay and
   every rollout see one world), whatever the state summary says by then;
2. otherwise the model is asked (tool name, description, returns schema, arguments and a
   compact state summary; `response_format` JSON) and the reply is parsed and validated
   against `tool.returns` with jsonschema (formats checked); an unparsable or invalid reply
   is sent back with the first error and asked again, `attempts` times in all;
3. when no attempt gives a valid answer, or the client gives up (`LLMError`), the offline
   model answers instead.
Whichever answer is final goes into the cache. JSON mode returns objects, so a tool whose
result is not an object is asked for `{"result": <value>}` and unwrapped.
"""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from compoworld.llm import LLMError
from compoworld.specs.records import ToolSpec
from compoworld.world.state import Handler, State
from compoworld.worldmodel.cache import ResponseCache, cache_key
from compoworld.worldmodel.offline import OfflineWorldModel, summarize_state

SCHEMA_CHARS = 6_000
SUMMARY_CHARS = 2_000
REPLY_CHARS = 2_000

SYSTEM_PROMPT = (
    "You are the backend of a software service. Given one tool call, reply with the "
    "tool's result as a single JSON object and nothing else. The result must validate "
    "against the JSON Schema in `returns`. Use realistic, specific values that agree with "
    "the arguments and the state summary; never placeholders such as 'string' or 'foo'."
)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


class ChatClient(Protocol):
    """What the world model needs from a client (`compoworld.llm.LLMClient` has it)."""

    def chat(self, messages: list[dict[str, Any]], **options: Any) -> str: ...


class LLMWorldModel:
    """World model backed by a language model, an offline fallback and a response cache."""

    def __init__(
        self,
        client: ChatClient,
        fallback: OfflineWorldModel,
        cache: ResponseCache,
        attempts: int = 2,
        *,
        max_tokens: int = 1024,
    ) -> None:
        self.client = client
        self.fallback = fallback
        self.cache = cache
        self.attempts = attempts
        self.max_tokens = max_tokens
        self.world_seed = fallback.world_seed
        self.stats = {"cached": 0, "model": 0, "fallback": 0, "invalid": 0}
        self._validators: dict[str, Draft202012Validator] = {}

    def respond(
        self, tool: ToolSpec, arguments: dict[str, Any] | None, state_summary: dict | None = None
    ) -> Any:
        """The (cached) answer to one simulated call, valid against `tool.returns`."""
        arguments = arguments or {}
        key = cache_key(self.world_seed, tool.name, arguments)
        if key in self.cache:
            self.stats["cached"] += 1
            return self.cache.get(key)
        found, value = self._ask(tool, arguments, state_summary)
        if found:
            self.stats["model"] += 1
        else:
            self.stats["fallback"] += 1
            value = self.fallback.respond(tool, arguments, state_summary)
        self.cache.put(key, value)
        return self.cache.get(key)

    def handler_for(self, tool: ToolSpec) -> Handler:
        """A runtime handler that answers with `respond` and a summary of the state."""

        def handler(state: State, arguments: dict[str, Any]) -> Any:
            return self.respond(tool, arguments, summarize_state(state))

        return handler

    def _ask(self, tool: ToolSpec, arguments: dict, summary: dict | None) -> tuple[bool, Any]:
        wrapped = not _is_object(tool.returns)
        messages = build_messages(tool, arguments, summary, wrapped=wrapped)
        for _ in range(self.attempts):
            try:
                reply = self.client.chat(
                    messages, response_format={"type": "json_object"}, temperature=0,
                    max_tokens=self.max_tokens,
                )
            except LLMError:
                return False, None  # the client already retried: fall back now
            value, problem = parse_reply(reply, wrapped=wrapped)
            if problem is None:
                problem = self._problem(tool, value)
            if problem is None:
                return True, value
            self.stats["invalid"] += 1
            messages = [
                *messages,
                {"role": "assistant", "content": reply[:REPLY_CHARS]},
                {"role": "user", "content": f"That reply is not valid: {problem}. Reply "
                                            "again with the corrected JSON only."},
            ]
        return False, None

    def _problem(self, tool: ToolSpec, value: Any) -> str | None:
        validator = self._validators.get(tool.name)
        if validator is None:
            validator = self._validators[tool.name] = Draft202012Validator(
                tool.returns or {}, format_checker=Draft202012Validator.FORMAT_CHECKER
            )
        try:
            error = best_match(validator.iter_errors(value))
        except Exception as failure:  # noqa: BLE001 - a schema jsonschema cannot apply
            return f"the schema cannot be checked ({type(failure).__name__})"
        if error is None:
            return None
        where = "/".join(str(part) for part in error.absolute_path) or "the result"
        return f"at {where}: {error.message[:300]}"


def build_messages(
    tool: ToolSpec, arguments: dict[str, Any], summary: dict | None, *, wrapped: bool = False
) -> list[dict[str, str]]:
    """The chat messages that ask for one tool result."""
    request = {
        "tool": tool.name,
        "description": tool.description,
        "returns": _schema_for_prompt(tool.returns or {}),
        "arguments": arguments,
        "state": _cut(summary or {}, SUMMARY_CHARS),
    }
    text = json.dumps(request, separators=(",", ":"), ensure_ascii=False, default=str)
    if wrapped:
        text += '\nThe result is not an object: reply with {"result": <the result>}.'
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": text}]


def parse_reply(reply: str, *, wrapped: bool = False) -> tuple[Any, str | None]:
    """The JSON value in a reply (code fences and surrounding prose tolerated), or a
    problem sentence."""
    text = _FENCE.sub("", reply.strip())
    try:
        value = json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")
        try:
            value = json.loads(text[start:end + 1]) if 0 <= start < end else None
        except ValueError:
            value = None
        if value is None:
            return None, "it is not valid JSON"
    if wrapped:
        if not isinstance(value, dict) or "result" not in value:
            return None, 'it must be an object {"result": ...}'
        value = value["result"]
    return value, None


def _is_object(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "object" or (kind is None and "properties" in schema)


def _schema_for_prompt(schema: dict[str, Any]) -> Any:
    """The schema, or when it is too long for a small model's context, a sketch of it."""
    if len(json.dumps(schema, default=str)) <= SCHEMA_CHARS:
        return schema
    return _cut(_sketch(schema, 2), SCHEMA_CHARS)


def _sketch(schema: Any, levels: int) -> Any:
    if not isinstance(schema, dict):
        return schema
    out = {k: schema[k] for k in ("type", "format", "enum", "required") if k in schema}
    if isinstance(schema.get("items"), dict):
        out["items"] = _sketch(schema["items"], levels)
    props = schema.get("properties")
    if isinstance(props, dict):
        out["properties"] = {
            name: _sketch(sub, levels - 1) if levels > 0 else {"type": sub.get("type")}
            for name, sub in props.items() if isinstance(sub, dict)
        }
    return out


def _cut(value: Any, limit: int) -> Any:
    text = json.dumps(value, default=str)
    return value if len(text) <= limit else text[:limit] + "...(cut)"

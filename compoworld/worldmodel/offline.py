"""The offline world model: deterministic, schema-valid responses for `simulated` tools.

`respond(tool, arguments)` draws the result from `tool.returns` with `value_from_schema`,
seeded by SHA-256 of (world seed, tool name, canonical JSON of the arguments): the same
call in the same world always gives the same answer, and another call (usually) another.
Arguments are echoed into same-named result fields where they validate
(`get_weather(city="Paris")` answers about Paris), and an argument that names a pool
entity (an email, a person's name, a city, a company) anchors the matching fields of the
result on that entity, so the answer agrees with the rest of the world. The answer does
not depend on the service's state: responses stay a pure function of the call.

Per tool, the returns schema is compiled once (a `ValuePlan` and a fastjsonschema
validator), so a call costs tens of microseconds. Every answer is validated; if an echo
makes it invalid the call is drawn again without echoes, and a schema the generator cannot
satisfy raises `WorldModelError` (the dispatcher reports it as a 500).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from compoworld.graph.semtypes import split_words
from compoworld.specs.records import ToolSpec
from compoworld.world.anchors import find_anchor, index_pool
from compoworld.world.clock import NOW_TEXT
from compoworld.world.schemavalues import ValuePlan, compile_schema
from compoworld.world.seeding import Pool
from compoworld.world.seeds import derive_seed
from compoworld.world.state import Handler, State, canonical_json, output_check

SUMMARY_IDS = 5
ANSWERS = 20_000  # answers kept per world model (oldest dropped first)


class WorldModelError(RuntimeError):
    """The world model could not produce a valid response."""


@dataclass(slots=True)
class _Compiled:
    plan: ValuePlan
    check: Callable[[Any], str | None]  # the problem with a value, None when it is valid


def summarize_state(state: State | None) -> dict[str, Any]:
    """A compact view of a state for prompts: per collection, the count and a few ids."""
    if state is None:
        return {}
    return {
        name: {"count": len(records), "ids": list(records)[:SUMMARY_IDS]}
        for name, records in state.collections.items()
    }


class OfflineWorldModel:
    """Deterministic world model: needs no network, same call -> same answer."""

    def __init__(self, world_seed: int, pool: Pool | None = None) -> None:
        self.world_seed = world_seed
        self.pool = pool
        self._index = index_pool(pool)
        self._compiled: dict[str, _Compiled] = {}
        # answers by (tool, canonical arguments), as JSON bytes: drawing and validating one
        # costs ~300 µs, a repeat (verification, gold replay, a rollout group) ~5 µs
        self._answers: dict[tuple[str, bytes], bytes] = {}

    def _compile(self, tool: ToolSpec) -> _Compiled:
        found = self._compiled.get(tool.name)
        if found is None:
            plan = compile_schema(tool.returns, service=tool.service, resource=tool.resource)
            found = self._compiled[tool.name] = _Compiled(plan, output_check(tool.returns))
        return found

    def respond(
        self, tool: ToolSpec, arguments: dict[str, Any] | None, state_summary: dict | None = None
    ) -> Any:
        """The result of one simulated call (valid against `tool.returns`).

        `state_summary` is accepted for the common world-model interface and ignored: the
        offline answer depends only on the world seed, the tool and the arguments.
        """
        arguments = arguments or {}
        key = canonical_json(arguments)
        cached = self._answers.get((tool.name, key))
        if cached is not None:  # a pure function of the call: the same answer, copied
            return orjson.loads(cached)
        value = self._draw(tool, arguments, key)
        try:
            stored = orjson.dumps(value)
        except TypeError:  # an integer past 64 bits: answered, not kept
            return value
        if len(self._answers) >= ANSWERS:
            del self._answers[next(iter(self._answers))]
        self._answers[(tool.name, key)] = stored
        return value

    def _draw(self, tool: ToolSpec, arguments: dict[str, Any], key: bytes) -> Any:
        compiled = self._compile(tool)
        anchor = find_anchor(arguments.values(), self._index)
        overrides = _echoes(arguments) or None
        for attempt in range(3):
            rng = random.Random(derive_seed(self.world_seed, tool.name, key, attempt))
            value = compiled.plan(rng, pool=self.pool, anchor=anchor, overrides=overrides)
            problem = compiled.check(value)
            if problem is None:
                done = succeeded(value)  # an answer is a success: the world served the call
                if tool.effect != "read":  # a write's one result, inside its envelope too
                    done = _one_result(_enveloped(done), arguments)
                if _sends(tool):  # a message it sent is on its way, in a word its schema takes
                    done = next((sent for word in _SENT if (sent := _on_its_way(done, word))
                                 is done or compiled.check(sent) is None), done)
                    told = _as_sent(done, arguments, tool.returns)  # ... sent now, as asked
                    done = told if compiled.check(told) is None else done
                return done if done is not value and compiled.check(done) is None else value
            overrides = None  # an echo may be what broke it: draw again without
        raise WorldModelError(f"no valid response for {tool.name}: {problem}")

    def handler_for(self, tool: ToolSpec) -> Handler:
        """A runtime handler (`handler(state, arguments)`) that answers with `respond`."""

        def handler(state: State, arguments: dict[str, Any]) -> Any:
            return self.respond(tool, arguments)

        return handler


_REFUSALS = frozenset({"reject", "rejection", "bounce", "failure"})
_FAILED = frozenset({"failed", "failure", "error", "errored", "rejected", "declined",
                     "timedout", "timed_out", "timeout", "aborted"})


def _echoes(arguments: dict[str, Any]) -> dict[str, Any]:
    """What an answer may echo of its call, by field name: the arguments, and the values
    inside their objects by their own names (Mandrill's `message.to[0].email` as the
    `email` of its send result, never a drawn stranger's), where no argument has the name."""
    out = dict(arguments)

    def leaves(value: Any, depth: int) -> None:
        if isinstance(value, list):
            if value and isinstance(value[0], dict):
                leaves(value[0], depth)
            return
        if not isinstance(value, dict) or depth == 0:
            return
        for key, inner in value.items():
            if isinstance(inner, dict | list):
                leaves(inner, depth - 1)
            elif key not in out and inner is not None and split_words(key) not in (
                    ["id"], ["type"]):  # (a body's MIME `type` is no result's type)
                out[key] = inner

    for value in arguments.values():
        leaves(value, 4)
    return out


_ENVELOPES = ("data", "result", "response")


def _enveloped(value: Any) -> Any:
    """`succeeded` inside a write's envelope too (Telnyx's `{"data": {..., "errors": [...]}}`
    for a text it sent)."""
    if not isinstance(value, dict):
        return value
    inner = {key: succeeded(value[key]) for key in _ENVELOPES if isinstance(value.get(key), dict)}
    return value if all(inner[k] is value[k] for k in inner) else {**value, **inner}


def _one_result(value: Any, arguments: dict[str, Any]) -> Any:
    """A write's list of results, one per item it was given: a send to one recipient has one
    result, not three echoing the same address with three statuses (Mandrill's)."""
    given = max((len(v) for v in arguments.values() if isinstance(v, list)), default=1)
    nested = [len(inner) for v in arguments.values() if isinstance(v, dict)
              for inner in v.values() if isinstance(inner, list)]
    given = max([given, *nested]) if nested else given
    if isinstance(value, list) and len(value) > given and all(isinstance(v, dict) for v in value):
        return value[:given]
    return value


# Statuses that say a message never went, or went nowhere: a send's drawn answer with one
# contradicts the send (SMS Works answered a text with "archived", "suspended" and
# "inactive"; Telnyx with "delivery_failed", a word of `_FAILED`). A contact made
# "inactive" is no failure: only a send's answer is mended.
_STALLED = frozenset("archived suspended inactive cancelled canceled deleted disabled blocked "
                     "expired undelivered undeliverable bounced paused draft unknown".split())
_SENT = ("sent", "queued", "accepted", "delivered", "completed")
_SEND_WORDS = frozenset("send sms text email mail message messages".split())


def _sends(tool: ToolSpec) -> bool:
    """Whether a write sends a message (`send_message`, `create_sms`, `messages_add`)."""
    words = set(split_words(tool.name.split("__")[-1]))
    return tool.effect != "read" and bool(words & _SEND_WORDS) and bool(
        words & {"send", "create", "add", "post", "sms"})


# What a send's answer says of the send itself. Telnyx answered a text with three drawn
# attachments, a `received_at` a year after its `sent_at`, seven parts and a recipient of
# `[{}]`: a message sent now went now, with what its call gave it, to whom the call said.
_WHEN = frozenset("sent completed received delivered queued created updated submitted "
                  "scheduled".split())
_STAMP = frozenset("at on date time timestamp".split())
_ATTACHED = frozenset("media attachment attachments files".split())
_PARTS = frozenset("parts segments".split())
_ENDPOINT = {"email": ("email", "address"), "phone": ("phone", "number")}
_NUMBER = re.compile(r"^\+?[\d\s().-]{6,}$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")


def _as_sent(value: Any, arguments: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A send's answer as the send was: its times now, no attachment the call did not
    give, one part, and its recipient and sender objects holding the call's address
    (`to: "+8180..."` answered `to: [{"phone_number": "+8180..."}]`). A copy."""
    given = {word for key in _argument_keys(arguments) for word in split_words(key)}

    def mend(item: Any, at: dict[str, Any]) -> Any:
        if isinstance(item, list):
            inner = at.get("items") if isinstance(at.get("items"), dict) else {}
            return [mend(entry, inner) for entry in item]
        if not isinstance(item, dict):
            return item
        props = at.get("properties") if isinstance(at.get("properties"), dict) else {}
        out = {}
        for key, field in item.items():
            words, sub = set(split_words(key)), props.get(key) or {}
            if isinstance(field, str) and words & _WHEN and words & _STAMP \
                    and (_INSTANT.match(field) or _DAY.match(field)):
                out[key] = NOW_TEXT if _INSTANT.match(field) else NOW_TEXT[:10]
            elif isinstance(field, list) and words & _ATTACHED and not given & _ATTACHED:
                out[key] = []
            elif isinstance(field, int) and not isinstance(field, bool) and words & _PARTS:
                out[key] = 1
            elif isinstance(arguments.get(key), str) and isinstance(field, dict | list):
                out[key] = _endpoint(field, sub, arguments[key])
            else:
                out[key] = mend(field, sub if isinstance(sub, dict) else {})
        return out

    return mend(value, schema)


def _endpoint(field: Any, schema: dict[str, Any], address: str) -> Any:
    """A recipient or sender object (or a list of them) of a send's answer holding the
    `address` its call gave, in the field its schema names for one (`phone_number`)."""
    if isinstance(field, list):
        inner = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return [_endpoint(entry, inner, address) for entry in field]
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    kind = "email" if "@" in address else "phone" if _NUMBER.match(address) else ""
    if not kind:
        return field  # a sender's name ("Maplewood") is no number
    words = _ENDPOINT[kind]
    slot = next((key for key in sorted(props) if set(split_words(key)) & set(words)
                 and (props[key] or {}).get("type") in (None, "string")), None)
    if not isinstance(field, dict) or slot is None:
        return field
    return {**field, slot: address}


def _argument_keys(value: Any) -> list[str]:
    """Every key of a call's arguments, nested ones too (`message.attachments`)."""
    if isinstance(value, list):
        return [key for item in value for key in _argument_keys(item)]
    if not isinstance(value, dict):
        return []
    return [*value, *(key for inner in value.values() for key in _argument_keys(inner))]


def _on_its_way(value: Any, word: str) -> Any:
    """`value` with each stalled status (its own, its items', its envelope's) as `word`; the
    same object where none stalls."""
    if isinstance(value, list):
        items = [_on_its_way(item, word) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, field in value.items():
        if split_words(key)[-1:] in (["status"], ["state"]) and isinstance(field, str) \
                and (field.lower() in _STALLED or set(split_words(field)) & _FAILED):
            out[key] = word
        else:
            out[key] = _on_its_way(field, word)
    return value if all(out[k] is value[k] for k in value) else out


def succeeded(value: Any) -> Any:
    """A drawn answer without the failure its schema allows: `"success": true`, no error
    message or code (`{"ErrorCode": 16, "ErrorMessage": ...}`), a status that is not
    "Failed". A copy, or `value` itself when it says no failure. (A schema that insists on
    the failure keeps it: the caller re-checks the copy.)"""
    if isinstance(value, list):  # (one result per recipient: each a success)
        items = [succeeded(item) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, field in value.items():
        words = split_words(key)
        if key in ("success", "ok") and field is False:
            out[key] = True
        elif words[:1] in (["error"], ["errors"]) and field not in (None, "", [], {}, 0, False):
            continue
        elif set(words) & _REFUSALS and field not in (None, "", [], {}, 0, False):
            if isinstance(field, str):  # (no `reject_reason` "Out of stock" on a sent
                out[key] = ""  # email; a field its schema requires is kept, empty)
        elif words[-1:] in (["status"], ["state"]) and isinstance(field, str) \
                and field.lower() in _FAILED:
            out[key] = "completed"
        else:
            out[key] = field
    return value if out == value else out

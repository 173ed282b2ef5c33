"""Scripted policies: they act through the same messages and tools an LLM sees.

- `ReferencePolicy` plays the gold calls in order, one per turn. Hidden argument values
  are read from the tool results in the conversation (the item a selector names is looked
  up in the observed list), never from the gold arguments; visible values are the gold
  literals, which the instruction states. Then it answers with every asked-for value.
- `NoisyPolicy` is the reference with seeded mistakes (wrong argument, skipped step, early
  stop, extra reads, wrong answer), so the rollouts of one group pass different criteria.
- `RandomPolicy` makes a few random calls with schema-drawn arguments, then gives up.

Scripted policies keep no state between turns: the turn is the number of assistant
messages so far, and call ids (`call_<turn>`) tie each tool message to its turn, so one
instance can replay any conversation. In `direct` mode a tool is named as the environment
exposes it (`exposed_name`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from compoworld.compose.arguments import call_arguments, nest
from compoworld.compose.instruction import render_value
from compoworld.compose.records import Selector, Task
from compoworld.compose.references import in_item
from compoworld.compose.values import value_at
from compoworld.reward.rubric import json_equal
from compoworld.rollout.env import META_TOOLS, exposed_name
from compoworld.rollout.records import Mode
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeds import derive_seed

GIVE_UP = "I could not complete the task."
NO_MISTAKE = 0.3  # share of noisy episodes played exactly as the reference
MISTAKES = ("wrong_argument", "skipped_step", "early_stop", "extra_calls", "wrong_answer")
MISSING = object()


@dataclass(frozen=True, slots=True)
class Action:
    """One policy turn: an OpenAI assistant message (no `tool_calls` key for a final
    answer), the tokens it cost, and `error` when the output was unusable (the episode
    hands it back to the policy as a user message)."""

    message: dict[str, Any]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str | None = None


class Policy(Protocol):
    """Anything that answers a conversation with the next assistant message."""

    name: str
    model: str | None

    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
                  ) -> Action: ...


@dataclass(frozen=True, slots=True)
class Turn:
    """One scripted turn: a gold call (maybe with one argument changed), a look at a tool's
    schema, an extra read, or the final answer (maybe without the values)."""

    kind: Literal["gold", "list", "describe", "extra", "answer"]
    step: int = -1
    tool: str = ""
    change: tuple[str, Any] | None = None
    withhold: bool = False


def assistant(content: str | None, calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An assistant message; a final answer has no `tool_calls` key."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return message


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One OpenAI tool call (arguments as a JSON string)."""
    return {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}


def turn_of(messages: list[dict[str, Any]]) -> int:
    """The index of the next assistant turn."""
    return sum(1 for message in messages if message.get("role") == "assistant")


def observed(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The `data` of every successful tool result, by tool call id."""
    found: dict[str, Any] = {}
    for message in messages:
        if message.get("role") != "tool":
            continue
        try:
            result = json.loads(message.get("content") or "")
        except ValueError:
            result = None
        if isinstance(result, dict) and result.get("success") is True:
            found[message.get("tool_call_id", "")] = result.get("data")
    return found


def same_type(value: Any, like: Any) -> Any:
    """A discovered value in the JSON type its parameter takes (the schema says it: a
    string id `"42"` from a number 42, a number from a digit string), as an agent reads
    the type off the tool's schema; types are not hidden, values are. An address found
    for a parameter that takes a list of them goes in as a list of one (Gmail's
    `to: ["ann@x.org"]`)."""
    if isinstance(like, list) and len(like) == 1 and not isinstance(value, list | dict):
        return [same_type(value, like[0])]
    if isinstance(like, str) and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(like, int) and not isinstance(like, bool) and isinstance(value, str) \
            and value.lstrip("-").isdigit():
        return int(value)
    return value


def discover(results: dict[int, Any], step: int | None, path: str | None,
             selector: Selector | None) -> Any:
    """A value of an observed result (`MISSING` when it cannot be found): with a selector,
    in the item of the path's list (`in_item`: the innermost, or the record whose own first
    email it is) whose `selector.field` is `selector.value`; else at `path` itself."""
    if step not in results or path is None:
        return MISSING
    data = results[step]
    try:
        where = in_item(path) if selector is not None else None
        if where is None:
            return value_at(data, path)
        items = value_at(data, where[0])
        if not isinstance(items, list):
            return MISSING
        for item in items:
            try:
                named = value_at(item, selector.field)
            except KeyError:
                continue
            if json_equal(named, selector.value):
                return value_at(item, where[2])
    except KeyError:
        pass
    return MISSING


def draw_arguments(schema: Any, rng: random.Random) -> dict[str, Any]:
    """Arguments drawn from a parameters schema ({} when nothing usable comes out)."""
    try:
        value = value_from_schema(schema or {"type": "object"}, rng)
        json.dumps(value)
    except Exception:  # noqa: BLE001 - a schema the sampler cannot handle: no arguments
        return {}
    return value if isinstance(value, dict) else {}


class ReferencePolicy:
    """Plays the gold solution, discovering hidden values as an agent would."""

    name = "reference"
    model: str | None = None

    def __init__(self, task: Task, mode: Mode = "direct") -> None:
        self.task = task
        self.mode = mode
        self.seed = 0  # seeds the arguments of extra reads (only noisy scripts have them)
        self.rollout_idx = 0
        gold = [Turn("gold", step=i) for i in range(len(task.gold_calls))]
        self.script = self.discover([*gold, Turn("answer")])

    def discover(self, script: list[Turn]) -> list[Turn]:
        """In gateway mode, look around as an agent must: list a service's tools before
        its first call, and describe a tool before its first call."""
        if self.mode != "gateway":
            return script
        listed: set[str] = set()
        described: set[str] = set()
        out: list[Turn] = []
        for turn in script:
            if turn.kind == "describe":
                described.add(turn.tool)
            if turn.kind == "gold":
                call = self.task.gold_calls[turn.step]
                if call.service not in listed:
                    listed.add(call.service)
                    out.append(Turn("list", tool=call.service))
                if call.tool not in described:
                    described.add(call.tool)
                    out.append(Turn("describe", tool=call.tool))
            out.append(turn)
        return out

    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Action:
        """The next scripted turn, filled in from what the conversation shows."""
        return Action(self.next_message(messages, tools))

    def next_message(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
                     ) -> dict[str, Any]:
        """The assistant message of the current turn."""
        turn = turn_of(messages)
        if turn >= len(self.script):
            return assistant("Done.")
        plan, seen = self.script[turn], observed(messages)
        results = {item.step: seen[f"call_{t}"] for t, item in enumerate(self.script)
                   if item.kind == "gold" and f"call_{t}" in seen}
        call_id = f"call_{turn}"
        if plan.kind == "answer":
            return assistant(self.answer_text(results, plan.withhold))
        if plan.kind == "gold":
            call = self.task.gold_calls[plan.step]
            return self._call(call_id, call.tool, self.arguments(plan, results))
        if plan.kind == "describe":
            return assistant(None, [tool_call(call_id, "describe_tool", {"tool": plan.tool})])
        if plan.kind == "list":
            return assistant(None, [tool_call(call_id, "list_tools", {"service": plan.tool})])
        return self._call(call_id, plan.tool, self._extra_arguments(turn, plan, seen, tools))

    def arguments(self, plan: Turn, results: dict[int, Any]) -> dict[str, Any]:
        """A gold call's arguments: visible ones as stated, hidden ones as observed (left
        out when they cannot be found), then the plan's change if any."""
        call = self.task.gold_calls[plan.step]
        arguments: dict[str, Any] = {}
        for param, gold in call_arguments(call).items():
            binding = call.bindings.get(param)
            if binding is None or binding.kind in ("visible", "free", "aside"):
                arguments[param] = gold
                continue
            value = discover(results, binding.step, binding.path, binding.selector)
            if value is not MISSING:
                arguments[param] = same_type(value, gold)
        if plan.change is not None:
            arguments[plan.change[0]] = plan.change[1]
        return nest(arguments, call.arguments, call.arguments)  # (a path's value in its
        # object; a top-level name is one whatever it reads like)

    def answer_text(self, results: dict[int, Any], withhold: bool = False) -> str:
        """The final answer: every asked-for value found, or none when withheld."""
        if not self.task.answer:
            return "Done."
        if withhold:
            return "Done. I have completed the task."
        parts = []
        for item in self.task.answer:
            value = discover(results, item.step, item.path, item.selector)
            parts.append(f"I could not find {item.label}" if value is MISSING
                         else f"{item.label} is {render_value(value)}")
        return "Done. Here is what you asked for: " + "; ".join(parts) + "."

    def _call(self, call_id: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if self.mode == "gateway":
            call = tool_call(call_id, "call_tool", {"tool_name": tool, "arguments": arguments})
        else:
            call = tool_call(call_id, exposed_name(tool), arguments)
        return assistant(None, [call])

    def _extra_arguments(self, turn: int, plan: Turn, seen: dict[str, Any],
                         tools: list[dict[str, Any]]) -> dict[str, Any]:
        """Arguments for an extra read, drawn from the schema the agent can see: in its
        tool list (direct), or in the `describe_tool` result of the turn before."""
        if self.mode == "gateway":
            described = seen.get(f"call_{turn - 1}")
            schema = described.get("parameters") if isinstance(described, dict) else None
        else:
            name = exposed_name(plan.tool)
            schema = next((t["function"].get("parameters") for t in tools
                           if t.get("function", {}).get("name") == name), None)
        seed = derive_seed("extra", self.seed, self.task.task_id, self.rollout_idx, turn)
        return draw_arguments(schema, random.Random(seed))


class NoisyPolicy(ReferencePolicy):
    """The reference with seeded mistakes; `mistakes` lists the ones this episode makes."""

    name = "noisy"

    def __init__(self, task: Task, mode: Mode, seed: int, rollout_idx: int) -> None:
        super().__init__(task, mode)
        self.seed = seed
        self.rollout_idx = rollout_idx
        self.mistakes: list[str] = []
        rng = random.Random(derive_seed("noisy", seed, task.task_id, rollout_idx))
        if rng.random() >= NO_MISTAKE:
            self._make_mistakes(rng)

    def _make_mistakes(self, rng: random.Random) -> None:
        calls = self.task.gold_calls
        writable = [(i, param) for i, call in enumerate(calls) if call.effect != "read"
                    for param, binding in call.bindings.items()
                    if binding.kind == "visible"
                    and _perturbable(call_arguments(call).get(param))]
        reads = sorted({call.tool for call in calls if call.effect == "read"})
        possible = {"wrong_argument": bool(writable), "skipped_step": bool(calls),
                    "early_stop": bool(calls), "extra_calls": bool(reads),
                    "wrong_answer": bool(self.task.answer)}
        options = [kind for kind in MISTAKES if possible[kind]]
        chosen = set(rng.sample(options, min(len(options), rng.choice((1, 1, 2)))))
        gold = [Turn("gold", step=i) for i in range(len(calls))]
        answer = Turn("answer")
        if "wrong_argument" in chosen:
            step, param = rng.choice(writable)
            value = _perturb(call_arguments(calls[step])[param], rng)
            gold[step] = replace(gold[step], change=(param, value))
        if "skipped_step" in chosen:
            del gold[rng.randrange(len(gold))]
        if "early_stop" in chosen and gold:
            gold = gold[:rng.randrange(len(gold))]
        if "extra_calls" in chosen:
            for _ in range(rng.randint(1, 2)):
                tool = rng.choice(reads)
                extra = [Turn("describe", tool=tool)] if self.mode == "gateway" else []
                at = rng.randint(0, len(gold))
                gold[at:at] = [*extra, Turn("extra", tool=tool)]
        if "wrong_answer" in chosen:
            answer = Turn("answer", withhold=True)
        self.mistakes = [kind for kind in MISTAKES if kind in chosen]
        self.script = self.discover([*gold, answer])


def _perturbable(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _perturb(value: Any, rng: random.Random) -> Any:
    """A different value of the same type."""
    if isinstance(value, str):
        return f"{value} {rng.choice(('draft', 'old', 'copy', 'v2'))}"
    if isinstance(value, int):
        return value + rng.choice((-3, -1, 1, 2, 7))
    return round(value + rng.choice((-10.5, -1.25, 0.75, 3.5, 12.0)), 2)


class RandomPolicy:
    """A few random calls with schema-drawn arguments, then it gives up. In the gateway
    view it lists services, lists one service's tools, describes one and calls it."""

    name = "random"
    model: str | None = None

    def __init__(self, seed: int, rollout_idx: int, max_calls: int = 3) -> None:
        self.seed = seed
        self.rollout_idx = rollout_idx
        self.calls = random.Random(derive_seed("random", seed, rollout_idx)).randint(
            1, max_calls)

    async def act(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Action:
        """The next random call, or the final answer."""
        turn = turn_of(messages)
        rng = random.Random(derive_seed("random", self.seed, self.rollout_idx, turn))
        names = [t.get("function", {}).get("name", "") for t in tools]
        if set(names) == set(META_TOOLS):
            call = self._gateway(turn, observed(messages).get(f"call_{turn - 1}"), rng)
        elif turn < self.calls and tools:
            function = rng.choice(tools)["function"]
            call = (function["name"], draw_arguments(function.get("parameters"), rng))
        else:
            call = None
        if call is None:
            return Action(assistant(GIVE_UP))
        return Action(assistant(None, [tool_call(f"call_{turn}", *call)]))

    @staticmethod
    def _gateway(turn: int, last: Any, rng: random.Random) -> tuple[str, dict] | None:
        """list_services, list_tools, describe_tool, call_tool; None (give up) when the
        previous result is not what the next step needs."""
        try:
            if turn == 0:
                return "list_services", {}
            if turn == 1:
                return "list_tools", {"service": rng.choice(last)["name"]}
            if turn == 2:
                return "describe_tool", {"tool": rng.choice(last)["name"]}
            if turn == 3:
                return "call_tool", {"tool_name": last["name"],
                                     "arguments": draw_arguments(last.get("parameters"), rng)}
        except (AttributeError, IndexError, KeyError, TypeError):
            pass
        return None

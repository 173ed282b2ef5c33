"""Template instructions for composed tasks: the user turn that asks for a gold chain.

`write_instruction` writes it in one of `INSTRUCTION_STYLES`:

- `goal` (the default, goal.py): what the user wants done and the facts they know; reads
  that only find something become references, the writes and the report are the goal;
- `steps`: every call dictated in order ("First, find the contact ... Then send ..."), the
  easy end of a curriculum;
- `mixed`: goal or steps per task, drawn from the rng (`resolve_style`).

In every style a visible argument appears verbatim (`render_value`), a hidden one is named
by reference ("the email of the contact in CRM whose first name is "Alice""), and answer
values are asked for by label, never shown. Phrasing varies with `rng`; the same rng state
gives the same text. `visible_values` / `hidden_values` list what the composer stores
beside the task.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from compoworld.compose.arguments import call_arguments
from compoworld.compose.goal import write_goal
from compoworld.compose.naming import (
    GENERIC,
    PREPOSITIONS,
    article,
    cap,
    dedupe,
    field_words,
    is_control,
    is_key,
    join_words,
    param_words,
    plural_words,
    quote,
    render_value,
    selector_words,
    tool_noun,
    tool_words,
)
from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector
from compoworld.compose.references import free_note, names
from compoworld.compose.scenario import write_scenario
from compoworld.compose.values import mentions
from compoworld.compose.workflow import Workflow
from compoworld.graph.semtypes import split_words

__all__ = ["INSTRUCTION_STYLES", "hidden_values", "render_value", "resolve_style",
           "visible_values", "write_instruction"]

INSTRUCTION_STYLES = ("goal", "steps", "mixed")
_DONE = {"read": "found", "create": "created", "update": "updated", "delete": "deleted"}

_FRAMES = (
    "", "", "I run support at a small company and we keep our records in {titles}.",
    "On behalf of our operations team, here is a task in {titles}.",
    "I'm the office manager here, and I need some help with {titles}.",
    "I look after our accounts in {titles}.",
)
_LEADS = ("", "Here is what I need.", "Please do the following.", "Can you help me with this?")
_RULES = (
    "Do not change anything you were not asked to change.",
    "Do not guess values: look them up with the tools.",
    "Use the exact values I give you.",
    "Do not ask me for confirmation; just do it.",
)


def visible_values(calls: list[GoldCall], answer: list[AnswerItem]) -> list[Any]:
    """Every visible argument and selector value, in call order, without duplicates."""
    values = [value if b.kind == "visible" else b.selector.value
              for call in calls for param, value in call_arguments(call).items()
              if (b := call.bindings.get(param))
              and (b.kind == "visible" or b.selector is not None)]
    values += [item.selector.value for item in answer if item.selector is not None]
    return dedupe(values)


def hidden_values(calls: list[GoldCall], answer: list[AnswerItem]) -> list[Any]:
    """Every hidden argument value and answer value, in order, without duplicates. An
    argument the user states anyway (the email a person was named by, carried into the
    new user, or the first name of a person named in full) hides nothing; an answer
    always does."""
    stated = [render_value(v) for v in visible_values(calls, answer)]
    values = [value for call in calls for param, value in call_arguments(call).items()
              if (b := call.bindings.get(param)) is not None and b.kind == "hidden"
              and not any(render_value(value) == text or mentions(text, value)
                          for text in stated)]
    return dedupe(values + [item.value for item in answer])


def resolve_style(style: str, rng: random.Random) -> str:
    """The style one task is written in: `style` itself, or for `mixed` goal or steps with
    even odds (one draw of `rng`). An unknown style is a ValueError naming the choices."""
    if style not in INSTRUCTION_STYLES:
        raise ValueError(f"unknown instruction style {style!r}: choose one of "
                         f"{', '.join(INSTRUCTION_STYLES)}")
    if style == "mixed":
        return "goal" if rng.random() < 0.5 else "steps"
    return style


def write_instruction(
    calls: list[GoldCall],
    answer: list[AnswerItem],
    titles: Mapping[str, str],
    rng: random.Random,
    *,
    tool_descriptions: Mapping[str, str] | None = None,
    style: str = "goal",
    purpose: str | None = None,
    resources: Mapping[str, str | None] | None = None,
    gist: str = "",
    pattern: Workflow | None = None,
    domains: Mapping[str, str | None] | None = None,
) -> str:
    """The user turn asking for the gold chain `calls` and for the `answer` values.

    `titles` maps a service name to its title (the name itself when missing). `style` is
    one of `INSTRUCTION_STYLES`. The goal style names each record by its collection when
    `resources` (tool -> resource) says it, and opens with `purpose` (a workflow's short
    phrase, "welcome a new lead") when given; `gist` says what a message the agent writes
    itself (a `free` argument) is about ("that their refund is on its way"). A chain walked
    from a workflow `pattern` is asked for as that workflow (compose/scenario.py) when its
    shape allows. The steps
    style may add a short hint from `tool_descriptions` (tool -> description) to tools
    whose name alone says little.
    Arguments without a binding are left out. Pure: the text depends only on the
    arguments and the rng state.
    """
    style = resolve_style(style, rng)
    if not calls:
        raise ValueError("an instruction needs at least one gold call")
    if style == "goal":
        if pattern is not None:
            text = write_scenario(calls, answer, titles, rng, pattern, resources=resources,
                                  domains=domains)
            if text is not None:
                return text
        return write_goal(calls, answer, titles, rng, resources=resources, purpose=purpose,
                          gist=gist)
    return _write_steps(calls, answer, titles, rng, tool_descriptions or {}, gist)


def _write_steps(calls: list[GoldCall], answer: list[AnswerItem], titles: Mapping[str, str],
                 rng: random.Random, descriptions: Mapping[str, str], gist: str = "") -> str:
    """Every call dictated in order, with a stock opening and, half the time, house rules."""
    writer = _Writer(calls, titles, rng, descriptions, gist)
    steps = [writer.step(call) for call in calls]
    services = dedupe([writer.title(call.service) for call in calls])
    opening = [rng.choice(_FRAMES).format(titles=join_words(services, rng)), rng.choice(_LEADS)]
    paragraphs = [" ".join(p for p in opening if p), _layout(steps, rng)]
    labels = [writer.answer_label(item) for item in answer]
    report = ""
    if labels:
        report = rng.choice(("Report {} in your final answer.",
                             "In your final answer, report {}.",
                             "When you are done, tell me {}.")).format(join_words(labels, rng))
    if rng.random() < 0.5:  # house rules, with the report as the last rule
        rules = rng.sample(_RULES, rng.randint(1, 2)) + ([report] if report else [])
        lead = rng.choice(("Follow the house rules below:", "House rules:"))
        paragraphs.append("\n".join([lead, *(f"- {rule}" for rule in rules)]))
    else:
        paragraphs.append(report)
    return "\n\n".join(p for p in paragraphs if p)


class _Writer:
    """Sentence templates over one chain: names things, renders arguments."""

    def __init__(self, calls: list[GoldCall], titles: Mapping[str, str], rng: random.Random,
                 descriptions: Mapping[str, str], gist: str = "") -> None:
        self.calls, self.titles, self.rng, self.descriptions = calls, titles, rng, descriptions
        self.gist = gist  # what a text the agent writes itself (a `free` argument) says

    def title(self, service: str) -> str:
        return self.titles.get(service) or service

    def step(self, call: GoldCall) -> str:
        """One call as an imperative clause (no capital, no full stop)."""
        verb, noun = tool_words(call.tool, call.effect)
        title, pick, effect = self.title(call.service), self.rng.choice, call.effect
        args = [(p, b, v) for p, v in call_arguments(call).items()
                if (b := call.bindings.get(p)) and b.kind != "aside"]
        thing = _noun(call)
        if effect == "read":
            name = " ".join(noun) if plural_words(noun) else thing
            text = pick(("find the {n} in {t}", "look up the {n} in {t}", "check the {n} in {t}",
                         "search {t} for the {n}") if args else
                        ("list the {n} in {t}", "go through the {n} in {t}"))
            return text.format(n=name, t=title) + self._filters(args, thing)
        generic = verb in GENERIC.get(effect, ()) or (verb == "post" and effect == "create") \
            or (not verb and effect in ("create", "update", "delete"))
        keys = [a for a in args if effect != "create" and is_key(a[0], a[1].type, thing)]
        rest = [a for a in args if a not in keys]
        target = self._target(keys, thing, title)
        if generic and effect == "create":
            text = pick(("create {a} in {t}", "add {a} to {t}", "make a new {n} in {t}",
                         "set up a new {n} in {t}")).format(a=article(thing), n=thing, t=title)
        elif generic and effect == "update":
            text = pick(("update {x}", "edit {x}", "change {x}")).format(x=target)
            if rest:
                changes = [self._value(p, b, v, change=True) for p, b, v in rest]
                return text + pick((": set {}", ", setting {}")).format(
                    join_words(changes, self.rng))
        elif generic and effect == "delete":
            text = pick(("delete {x}", "remove {x}")).format(x=target)
        elif not verb:
            text, rest = f"use the {' '.join(noun)} in {title}", args
        elif not noun or noun[0] in PREPOSITIONS:
            text, rest = f"use {title} to {' '.join([verb, *noun])}", args
        elif keys:
            text = f"{verb} {target}"
        else:
            text = f"{verb} {' '.join(noun) if plural_words(noun) else article(thing)} in {title}"
        hint = _hint(self.descriptions.get(call.tool) or "")
        if hint and not generic and self.rng.random() < 0.5:
            text += f" ({hint})"
        if rest:
            values = [self._value(p, b, v) for p, b, v in rest]
            text += pick((" with {}", ", with {}")).format(join_words(values, self.rng))
        return text

    def _filters(self, args: list[tuple[str, Binding, Any]], noun: str) -> str:
        """` whose company is "Acme", using the email of the contact ...` for a read."""
        paging = [a for a in args if a[1].kind == "visible" and is_control(a[0])]
        control = [f"{param_words(p, noun)} {quote(v)}" for p, _, v in paging]
        clauses = self._whose([a for a in args if a not in paging], noun, self._using)
        clauses += [f"with {join_words(control, self.rng)}"] if control else []
        return " " + ", ".join(clauses) if clauses else ""

    def _whose(self, args: list[tuple[str, Binding, Any]], noun: str, refer: Any) -> list[str]:
        """`whose a is "x" and b is 2`, then one `refer(param, binding, noun)` per hidden arg."""
        shown = [f"{param_words(p, noun)} is {quote(v)}" for p, b, v in args
                 if b.kind == "visible"]
        refs = [refer(p, b, noun) for p, b, _ in args if b.kind != "visible"]
        return ([f"whose {join_words(shown, self.rng)}"] if shown else []) + refs

    def _using(self, param: str, binding: Binding, noun: str) -> str:
        ref, words = self.reference(binding), param_words(param, noun)
        if field_words(binding.field or binding.path or "") in (words, ""):
            return f"using {ref}"
        return self.rng.choice(("using {} as the {}", "with {} as the {}")).format(ref, words)

    def _target(self, keys: list[tuple[str, Binding, Any]], noun: str, title: str) -> str:
        """The record a write works on: `the contact you found in CRM`, or by its keys."""
        if len(keys) == 1 and (binding := keys[0][1]).kind == "hidden":
            source = self._source(binding)
            if source and _noun(source) == noun and field_words(binding.field or "") == "id":
                return self.reference(binding, whole=True)
        clauses = self._whose(keys, noun, lambda p, b, n: f"identified by {self.reference(b)}")
        return " ".join([f"the {noun} in {title}", *clauses])

    def _value(self, param: str, binding: Binding, value: Any, *, change: bool = False) -> str:
        """`subject "Hi"` / `email set to the email of ...`; `city to "Paris"` for a change;
        `a short message of your own saying ...` for text the agent writes (never its value)."""
        if binding.kind == "free":
            return free_note(self.gist, param_words(param, ""),
                             names([value] if isinstance(value, str) else [], self.calls))
        words = param_words(param, "")  # `channel id`, even for a channel: no noun is named
        shown = quote(value) if binding.kind == "visible" else self.reference(binding)
        if change:
            return f"{words} to {shown}"
        if binding.kind == "visible" and self.rng.random() < 0.5:
            return f"{words} {shown}"
        return f"{words} set to {shown}"

    def _source(self, binding: Binding) -> GoldCall | None:
        step = binding.step
        return self.calls[step] if step is not None and 0 <= step < len(self.calls) else None

    def reference(self, binding: Binding, *, whole: bool = False) -> str:
        """A hidden value by reference: `the email of the contact you found in CRM`."""
        source = self._source(binding)
        if source is None:
            return f"the right {' '.join(split_words(binding.type)) or 'value'} (look it up)"
        thing = self._thing(source, binding.selector)
        field = field_words(binding.field or binding.path or "")
        return thing if whole or not field else f"the {field} of {thing}"

    def _thing(self, source: GoldCall, selector: Selector | None) -> str:
        noun, title = _noun(source), self.title(source.service)
        if selector is not None:
            return f"the {noun} in {title} whose {_selector_words(selector)}"
        done = _DONE.get(source.effect)
        return f"the {noun} you {done} in {title}" if done else f"the {noun} {title} returned"

    def answer_label(self, item: AnswerItem) -> str:
        """What to report: the label, plus which list item it is about."""
        if item.selector is None:
            return item.label
        in_chain = 0 <= item.step < len(self.calls)
        noun = _noun(self.calls[item.step]) if in_chain else "record"
        return f"{item.label} for the {noun} whose {_selector_words(item.selector)}"


def _noun(call: GoldCall) -> str:
    return tool_noun(call.tool, call.effect)


def _selector_words(selector: Selector) -> str:
    return selector_words(selector.field, selector.value)


def _hint(description: str) -> str:
    """The first sentence of a description, when short and free of values (no digits/quotes)."""
    first = description.strip().split(". ")[0].rstrip(".").strip()
    if not first or len(first) > 80 or re.search(r"[\d\"'`]", first):
        return ""
    return first[0].lower() + first[1:]


def _layout(steps: list[str], rng: random.Random) -> str:
    """Steps as prose with connectors, or as a numbered list."""
    if len(steps) == 1:
        return cap(rng.choice(("Please {}.", "{}.", "I need you to {}.")).format(steps[0]))
    if rng.random() < 0.3:
        return "\n".join(f"{i}. {cap(s)}." for i, s in enumerate(steps, 1))
    middles, lasts = ("Then", "Next,", "After that,"), ("Finally,", "Lastly,", "Then")
    words = [rng.choice(("First,", "To start,"))]
    for _ in steps[1:-1]:  # no connector twice in a row
        words.append(rng.choice([m for m in middles if m != words[-1]]))
    words.append(rng.choice([w for w in lasts if w != words[-1]]))
    return " ".join(f"{w} {s}." for w, s in zip(words, steps, strict=True))

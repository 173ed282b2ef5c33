"""Template instructions for composed tasks: the user turn that asks for a gold chain.

`write_instruction` states the goal through visible values and the wanted effects only: a
visible argument appears verbatim (`render_value`), a hidden one is named by reference ("the
email of the contact you found in CRM", or "... of the contact in CRM whose first name is
"Alice"" for one item of a list), and answer values are asked for by label, never shown.
Phrasing, role framing and house rules vary with `rng`; the same rng state gives the same
text. `visible_values` / `hidden_values` list what the composer stores beside the task.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector
from compoworld.graph.semtypes import is_entity_id, is_plural, singularize, split_words

_GENERIC = {
    "read": {"get", "list", "search", "find", "fetch", "retrieve", "read", "query", "lookup",
             "show", "describe", "view"},
    "create": {"create", "add", "new", "insert"},
    "update": {"update", "patch", "put", "edit", "modify", "set", "change"},
    "delete": {"delete", "remove", "destroy", "del"},
}
_VERBS = set().union(*_GENERIC.values()) | {"post"}
_PREPOSITIONS = {"by", "for", "with", "from", "in", "of", "to", "on", "at", "into", "as"}
_CONTAINERS = {"data", "items", "results", "records", "value", "values", "entries", "list",
               "response", "body", "result", "objects", "content"}
_PARAM_ALIASES = {"to": "recipient", "q": "search text", "cc": "cc address",
                  "from": "sender"}
_CONTROL = {"limit", "page", "offset", "per", "size", "sort", "order", "cursor", "after",
            "before", "expand", "fields", "include", "format", "max", "top", "skip"}
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


def render_value(value: Any) -> str:
    """How a value appears in an instruction: a string as it is, anything else as sorted JSON.

    The verifier checks a visible value's presence with the same function.
    """
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def visible_values(calls: list[GoldCall], answer: list[AnswerItem]) -> list[Any]:
    """Every visible argument and selector value, in call order, without duplicates."""
    values = [value if b.kind == "visible" else b.selector.value
              for call in calls for param, value in call.arguments.items()
              if (b := call.bindings.get(param))
              and (b.kind == "visible" or b.selector is not None)]
    values += [item.selector.value for item in answer if item.selector is not None]
    return _dedupe(values)


def hidden_values(calls: list[GoldCall], answer: list[AnswerItem]) -> list[Any]:
    """Every hidden argument value and answer value, in order, without duplicates."""
    values = [value for call in calls for param, value in call.arguments.items()
              if (b := call.bindings.get(param)) is not None and b.kind == "hidden"]
    return _dedupe(values + [item.value for item in answer])


def write_instruction(
    calls: list[GoldCall],
    answer: list[AnswerItem],
    titles: Mapping[str, str],
    rng: random.Random,
    *,
    tool_descriptions: Mapping[str, str] | None = None,
    style: str = "steps",
) -> str:
    """The user turn asking for the gold chain `calls` and for the `answer` values.

    `titles` maps a service name to its title (the name itself when missing);
    `tool_descriptions` (tool -> description) optionally adds a short hint to tools whose
    name alone says little. Arguments without a binding are left out. Pure: the text
    depends only on the arguments and the rng state.
    """
    if not calls:
        raise ValueError("an instruction needs at least one gold call")
    writer = _Writer(calls, titles, rng, tool_descriptions or {})
    steps = [writer.step(call) for call in calls]
    services = _dedupe([writer.title(call.service) for call in calls])
    opening = [rng.choice(_FRAMES).format(titles=_join(services, rng)), rng.choice(_LEADS)]
    paragraphs = [" ".join(p for p in opening if p), _layout(steps, rng)]
    labels = [writer.answer_label(item) for item in answer]
    report = ""
    if labels:
        report = rng.choice(("Report {} in your final answer.",
                             "In your final answer, report {}.",
                             "When you are done, tell me {}.")).format(_join(labels, rng))
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
                 descriptions: Mapping[str, str]) -> None:
        self.calls, self.titles, self.rng, self.descriptions = calls, titles, rng, descriptions

    def title(self, service: str) -> str:
        return self.titles.get(service) or service

    def step(self, call: GoldCall) -> str:
        """One call as an imperative clause (no capital, no full stop)."""
        verb, noun = _tool_words(call.tool, call.effect)
        title, pick, effect = self.title(call.service), self.rng.choice, call.effect
        args = [(p, b, v) for p, v in call.arguments.items() if (b := call.bindings.get(p))]
        thing = _tool_noun(call)
        if effect == "read":
            name = " ".join(noun) if _plural(noun) else thing
            text = pick(("find the {n} in {t}", "look up the {n} in {t}", "check the {n} in {t}",
                         "search {t} for the {n}") if args else
                        ("list the {n} in {t}", "go through the {n} in {t}"))
            return text.format(n=name, t=title) + self._filters(args, thing)
        generic = verb in _GENERIC.get(effect, ()) or (verb == "post" and effect == "create") \
            or (not verb and effect in ("create", "update", "delete"))
        keys = [a for a in args if effect != "create" and _is_key(a[0], a[1], thing)]
        rest = [a for a in args if a not in keys]
        target = self._target(keys, thing, title)
        if generic and effect == "create":
            text = pick(("create {a} in {t}", "add {a} to {t}", "make a new {n} in {t}",
                         "set up a new {n} in {t}")).format(a=_article(thing), n=thing, t=title)
        elif generic and effect == "update":
            text = pick(("update {x}", "edit {x}", "change {x}")).format(x=target)
            if rest:
                changes = [self._value(p, b, v, change=True) for p, b, v in rest]
                return text + pick((": set {}", ", setting {}")).format(_join(changes, self.rng))
        elif generic and effect == "delete":
            text = pick(("delete {x}", "remove {x}")).format(x=target)
        elif not verb:
            text, rest = f"use the {' '.join(noun)} in {title}", args
        elif not noun or noun[0] in _PREPOSITIONS:
            text, rest = f"use {title} to {' '.join([verb, *noun])}", args
        elif keys:
            text = f"{verb} {target}"
        else:
            text = f"{verb} {' '.join(noun) if _plural(noun) else _article(thing)} in {title}"
        hint = _hint(self.descriptions.get(call.tool) or "")
        if hint and not generic and self.rng.random() < 0.5:
            text += f" ({hint})"
        if rest:
            values = [self._value(p, b, v) for p, b, v in rest]
            text += pick((" with {}", ", with {}")).format(_join(values, self.rng))
        return text

    def _filters(self, args: list[tuple[str, Binding, Any]], noun: str) -> str:
        """` whose company is "Acme", using the email of the contact ...` for a read."""
        paging = [a for a in args if a[1].kind == "visible" and _is_control(a[0])]
        control = [f"{_param_words(p, noun)} {_quote(v)}" for p, _, v in paging]
        clauses = self._whose([a for a in args if a not in paging], noun, self._using)
        clauses += [f"with {_join(control, self.rng)}"] if control else []
        return " " + ", ".join(clauses) if clauses else ""

    def _whose(self, args: list[tuple[str, Binding, Any]], noun: str, refer: Any) -> list[str]:
        """`whose a is "x" and b is 2`, then one `refer(param, binding, noun)` per hidden arg."""
        shown = [f"{_param_words(p, noun)} is {_quote(v)}" for p, b, v in args
                 if b.kind == "visible"]
        refs = [refer(p, b, noun) for p, b, _ in args if b.kind != "visible"]
        return ([f"whose {_join(shown, self.rng)}"] if shown else []) + refs

    def _using(self, param: str, binding: Binding, noun: str) -> str:
        ref, words = self.reference(binding), _param_words(param, noun)
        if _field_words(binding.field or binding.path or "") in (words, ""):
            return f"using {ref}"
        return self.rng.choice(("using {} as the {}", "with {} as the {}")).format(ref, words)

    def _target(self, keys: list[tuple[str, Binding, Any]], noun: str, title: str) -> str:
        """The record a write works on: `the contact you found in CRM`, or by its keys."""
        if len(keys) == 1 and (binding := keys[0][1]).kind == "hidden":
            source = self._source(binding)
            if source and _tool_noun(source) == noun and _field_words(binding.field or "") == "id":
                return self.reference(binding, whole=True)
        clauses = self._whose(keys, noun, lambda p, b, n: f"identified by {self.reference(b)}")
        return " ".join([f"the {noun} in {title}", *clauses])

    def _value(self, param: str, binding: Binding, value: Any, *, change: bool = False) -> str:
        """`subject "Hi"` / `email set to the email of ...`; `city to "Paris"` for a change."""
        words = _param_words(param, "")  # `channel id`, even for a channel: no noun is named
        shown = _quote(value) if binding.kind == "visible" else self.reference(binding)
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
        field = _field_words(binding.field or binding.path or "")
        return thing if whole or not field else f"the {field} of {thing}"

    def _thing(self, source: GoldCall, selector: Selector | None) -> str:
        noun, title = _tool_noun(source), self.title(source.service)
        if selector is not None:
            return f"the {noun} in {title} whose {_selector_words(selector)}"
        done = _DONE.get(source.effect)
        return f"the {noun} you {done} in {title}" if done else f"the {noun} {title} returned"

    def answer_label(self, item: AnswerItem) -> str:
        """What to report: the label, plus which list item it is about."""
        if item.selector is None:
            return item.label
        in_chain = 0 <= item.step < len(self.calls)
        noun = _tool_noun(self.calls[item.step]) if in_chain else "record"
        return f"{item.label} for the {noun} whose {_selector_words(item.selector)}"


def _tool_words(tool: str, effect: str) -> tuple[str, list[str]]:
    """`stripe_com__post_customers` -> (`post`, [`customers`]); `invite_to_channel` keeps its
    preposition (`invite`, [`to`, `channel`]); the verb is "" when there is none."""
    words = [w for w in split_words(tool.rsplit("__", 1)[-1]) if not w.isdigit() and w != "v"]
    if len(words) > 1 and words[-1] in _VERBS and words[0] not in _VERBS:
        words = [words[-1], *words[:-1]]  # `customers_list` -> `list customers`
    has_verb = bool(words) and (words[0] in _VERBS or (  # a lone non-read word is a verb
        effect != "read" and (len(words) > 1 or not is_plural(words[0]))))
    verb, noun = (words[0], words[1:]) if has_verb else ("", words)
    if not (noun and noun[0] in _PREPOSITIONS):
        noun = noun[: next((i for i, w in enumerate(noun) if w in _PREPOSITIONS), len(noun))]
    # `get_customers_customer` -> `customer`, `accounts_account_persons` -> `account persons`
    noun = [w for i, w in enumerate(noun)
            if i + 1 == len(noun) or singularize(w) != singularize(noun[i + 1])]
    return verb, noun


def _tool_noun(call: GoldCall) -> str:
    """The singular thing a call works on: `contact`, `customer`, `channel`."""
    noun = _tool_words(call.tool, call.effect)[1]
    if noun and noun[0] in _PREPOSITIONS:
        noun = noun[1:]
    return " ".join(noun[:-1] + [singularize(noun[-1])]) if noun else "record"


def _plural(words: list[str]) -> bool:
    return bool(words) and is_plural(words[-1]) and singularize(words[-1]) != words[-1]


def _is_key(param: str, binding: Binding, noun: str) -> bool:
    """Whether an argument names the record a write works on (its own id)."""
    if is_entity_id(binding.type):
        return singularize(binding.type.split(".")[1].split("_")[-1]) == noun.split()[-1]
    words = split_words(param)
    return words in (["id"], [*split_words(noun), "id"])


def _is_control(param: str) -> bool:
    """Paging and sorting parameters: `limit 10`, not `whose limit is 10`."""
    return bool(_CONTROL.intersection(split_words(param)))


def _param_words(param: str, noun: str) -> str:
    if param in _PARAM_ALIASES:
        return _PARAM_ALIASES[param]
    words, head = split_words(param), split_words(noun)
    if head and len(words) > len(head) and words[: len(head)] == head:
        words = words[len(head):]  # `contact_id` of a contact -> `id`
    return " ".join(words) or param


def _field_words(field: str) -> str:
    """`data[].email` -> `email`; `owner.id` -> `owner id`; containers are dropped."""
    parts = [p for p in re.split(r"[.\[\]]+", field) if p and not p.isdigit()]
    kept = [p for p in parts if p.lower() not in _CONTAINERS] or parts[-1:]
    if not kept:
        return ""
    words = split_words(kept[-1])
    if words in (["id"], ["ids"]) and len(kept) > 1:
        words = [singularize(w) for w in split_words(kept[-2])] + words
    return " ".join(words)


def _selector_words(selector: Selector) -> str:
    return f"{' '.join(split_words(selector.field)) or selector.field} is {_quote(selector.value)}"


def _quote(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else render_value(value)


def _article(noun: str) -> str:
    vowel = noun[:1] in "aeio" or (noun[:1] == "u" and not noun.startswith(("us", "un", "ur")))
    return f"{'an' if vowel else 'a'} {noun}"


def _hint(description: str) -> str:
    """The first sentence of a description, when short and free of values (no digits/quotes)."""
    first = description.strip().split(". ")[0].rstrip(".").strip()
    if not first or len(first) > 80 or re.search(r"[\d\"'`]", first):
        return ""
    return first[0].lower() + first[1:]


def _join(items: list[str], rng: random.Random) -> str:
    if len(items) < 2:
        return "".join(items)
    last = rng.choice((" and ", ", and ")) if len(items) > 2 else " and "
    return ", ".join(items[:-1]) + last + items[-1]


def _layout(steps: list[str], rng: random.Random) -> str:
    """Steps as prose with connectors, or as a numbered list."""
    if len(steps) == 1:
        return _cap(rng.choice(("Please {}.", "{}.", "I need you to {}.")).format(steps[0]))
    if rng.random() < 0.3:
        return "\n".join(f"{i}. {_cap(s)}." for i, s in enumerate(steps, 1))
    middles, lasts = ("Then", "Next,", "After that,"), ("Finally,", "Lastly,", "Then")
    words = [rng.choice(("First,", "To start,"))]
    for _ in steps[1:-1]:  # no connector twice in a row
        words.append(rng.choice([m for m in middles if m != words[-1]]))
    words.append(rng.choice([w for w in lasts if w != words[-1]]))
    return " ".join(f"{w} {s}." for w, s in zip(words, steps, strict=True))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _dedupe(values: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for value in values:
        key = json.dumps(value, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out

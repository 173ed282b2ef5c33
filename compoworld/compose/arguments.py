"""A call's arguments as the walk binds them: by parameter, nested ones by concrete path.

Many tools take what a workflow carries inside an object: Mandrill sends to
`message.to[0].email`, SendGrid to `personalizations[0].to[0].email`, a calendar invites
`attendees[0].email`. The walk binds such a leaf as a parameter of its own (its binding is
keyed by the path), and the call sends them nested (`nest`). Whatever reads a gold call by
its bindings reads `named(call)`: each bound path's value, and every other argument as it
was sent.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from compoworld.compose.records import Binding, GoldCall
from compoworld.compose.values import value_at


def is_path(param: str) -> bool:
    """Whether a name reads as a path into an object (`message.subject`). Some APIs' own
    top-level names read so too (Twilio's `Bindings.Email.Address`, `filter[status]`): a
    name a call or a tool has at its top level is never a path (`nest`, `named`)."""
    return "." in param or "[" in param


def head(param: str) -> str:
    """The top-level parameter a path lies in (`message.to[0].email` -> `message`)."""
    return param.split(".", 1)[0].split("[", 1)[0]


def _segments(path: str) -> list[str | int]:
    out: list[str | int] = []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        if name:
            out.append(name)
        while rest:
            number, _, rest = rest.partition("]")
            rest = rest.removeprefix("[")
            out.append(int(number) if number.isdigit() else number)
    return out


def set_at(target: dict[str, Any], path: str, value: Any) -> None:
    """Put `value` at a concrete path of `target`, making the objects and list items on the
    way (a list is cut to the item the path names: one recipient, not a drawn three)."""
    segments = _segments(path)
    node: Any = target
    for here, after in zip(segments, segments[1:], strict=False):
        empty: Any = [] if isinstance(after, int) else {}
        if isinstance(here, int):
            while len(node) <= here:
                node.append(copy.deepcopy(empty))
            del node[here + 1:]
            if not isinstance(node[here], type(empty)):
                node[here] = empty
            node = node[here]
        else:
            if not isinstance(node.get(here), type(empty)):
                node[here] = empty
            node = node[here]
    last = segments[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
        del node[last + 1:]
    node[last] = value


def schema_at(parameters: dict[str, Any], path: str) -> dict[str, Any]:
    """The schema of the parameter (or nested leaf) at `path` of a tool's parameters."""
    node: Any = parameters
    for segment in _segments(path):
        if isinstance(segment, int):
            node = node.get("items") if isinstance(node, dict) else None
        else:
            node = (node.get("properties") or {}).get(segment) if isinstance(node, dict) \
                else None
        if not isinstance(node, dict):
            return {}
    return node


def nest(flat: dict[str, Any], top: Collection[str], base: dict[str, Any] | None = None
         ) -> dict[str, Any]:
    """The arguments a call sends: each path's value put into its object parameter, over
    the parameter's own value where one was drawn (what else the object requires) or, from
    `base` (a gold call's arguments), where `flat` has none. `top`: the tool's top-level
    parameters, which stay as they are whatever their names."""
    paths = {n for n in flat if is_path(n) and n not in top}
    out = {name: copy.deepcopy(value) for name, value in flat.items() if name not in paths}
    for name in sorted(paths, key=lambda n: (n.count("."), n)):
        holder = head(name)
        if holder not in out and base is not None and holder in base:
            out[holder] = copy.deepcopy(base[holder])
        if not isinstance(out.get(holder), dict | list):
            out.pop(holder, None)
        set_at(out, name, copy.deepcopy(flat[name]))
    return out


def named(arguments: dict[str, Any], bindings: dict[str, Binding]) -> dict[str, Any]:
    """A call's arguments by the names its bindings use: the value of each bound path, and
    every top-level argument that holds no bound path, as sent."""
    out: dict[str, Any] = {}
    paths = [p for p in bindings if is_path(p) and p not in arguments]
    heads = {head(p) for p in paths}
    for name, value in arguments.items():
        if name not in heads:
            out[name] = value
    for param in paths:
        try:
            out[param] = value_at(arguments, param)
        except KeyError:
            continue
    return out


def call_arguments(call: GoldCall) -> dict[str, Any]:
    """`named` of a gold call."""
    return named(call.arguments, call.bindings)


def required_part(schema: dict[str, Any], value: Any) -> Any:
    """What of a drawn object value its schema requires (recursively; a list cut to its
    first item): the base a nested parameter's bound leaves go into, so that a message
    carries the recipient it was given, not three drawn ones beside them."""
    if isinstance(value, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return [required_part(items, value[0])] if value else []
    if not isinstance(value, dict):
        return value
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    return {key: required_part(props.get(key) or {}, value[key])
            for key in schema.get("required") or [] if key in value}

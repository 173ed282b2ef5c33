"""Deriving tools from typed methods: schemas from signatures, text from docstrings.

A tool is written once, as a typed method with a Google-style docstring (tau2-bench), and
everything else is derived from it:

- `parameters`: a pydantic model built from the signature (str, int, float, bool, lists,
  `Literal[...]` -> `enum`, `X | None = None` -> optional and nullable, pydantic models),
  each property described by its `Args:` entry; no extra arguments allowed;
- `description`: the docstring's first paragraph; `returns`: the JSON Schema of the return
  annotation (a record model, `list[Model]`, ...), described by the `Returns:` section;
- `effect` and `resource` from the `@tool(effect=..., resource=...)` decorator.

Schemas are made self-contained (`$defs` inlined, pydantic's generated titles dropped) and
`X | None` becomes a type list (`["string", "null"]`) rather than an `anyOf`, so the
runtime's validator, the semantic typer and the world seeder read them directly. A tool
without a docstring, a type hint or a description of every parameter is a `TypeError`
when it is derived: nothing is written twice, and nothing is left undescribed.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model

from compoworld.graph.semtypes import split_words
from compoworld.services.builtin.common import Record
from compoworld.specs.records import Effect

F = TypeVar("F", bound=Callable[..., Any])

_SECTION = re.compile(r"^(Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Notes?):$")
_ARG = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class ToolMark:
    """What `@tool` records on a method."""

    effect: Effect
    resource: str | None


def tool(effect: Effect, resource: str | None = None) -> Callable[[F], F]:
    """Mark a toolkit method as a tool with an effect and the collection it works on."""

    def mark(method: F) -> F:
        method.__tool__ = ToolMark(effect, resource)  # type: ignore[attr-defined]
        return method

    return mark


@dataclass(frozen=True, slots=True)
class Docstring:
    """The parts of a Google-style docstring that tools use."""

    summary: str
    args: dict[str, str]
    returns: str


def parse_docstring(doc: str | None) -> Docstring:
    """First paragraph, `Args:` entries (continuation lines joined) and `Returns:` text."""
    summary: list[str] = []
    args: dict[str, str] = {}
    returns: list[str] = []
    section: str | None = None
    current: str | None = None
    arg_indent: int | None = None
    for line in inspect.cleandoc(doc or "").splitlines():
        text = line.strip()
        heading = _SECTION.match(text) if line == text else None
        if heading:
            section, current, arg_indent = heading.group(1), None, None
        elif section is None:
            summary.append(text)
        elif section in ("Args", "Arguments", "Parameters") and text:
            indent = len(line) - len(line.lstrip())
            entry = _ARG.match(text)
            if entry and (arg_indent is None or indent <= arg_indent):
                arg_indent, current = indent, entry.group(1)
                args[current] = entry.group(2)
            elif current:
                args[current] = f"{args[current]} {text}".strip()
        elif section == "Returns" and text:
            returns.append(text)
    paragraph: list[str] = []
    for text in summary:
        if not text and paragraph:
            break
        paragraph.append(text)
    return Docstring(" ".join(t for t in paragraph if t), args, " ".join(returns))


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A self-contained copy: `$defs` refs inlined, titles dropped, `X | None` a type list."""
    defs = schema.get("$defs", {})
    return _clean({k: v for k, v in schema.items() if k != "$defs"}, defs, ())


def _clean(node: Any, defs: dict[str, Any], stack: tuple[str, ...]) -> Any:
    if not isinstance(node, dict):
        return node
    node = {k: v for k, v in node.items() if k != "title"}
    ref = node.pop("$ref", None)
    if ref is not None:
        name = ref.rsplit("/", 1)[-1]
        if name in stack:
            raise TypeError(f"recursive model {name} cannot be inlined in a tool schema")
        node = {**_clean(defs[name], defs, (*stack, name)), **node}
    if isinstance(node.get("properties"), dict):
        node["properties"] = {k: _clean(v, defs, stack) for k, v in node["properties"].items()}
    for key in ("items", "additionalProperties", "not"):
        if isinstance(node.get(key), dict):
            node[key] = _clean(node[key], defs, stack)
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        if isinstance(node.get(key), list):
            node[key] = [_clean(branch, defs, stack) for branch in node[key]]
    if isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
        node = {**node.pop("allOf")[0], **node}
    branches = node.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
        other = next(b for b in branches if b != {"type": "null"})
        if isinstance(other.get("type"), str):
            del node["anyOf"]
            node = {**other, **node, "type": [other["type"], "null"]}
            if "enum" in node:
                node["enum"] = [*node["enum"], None]
    return node


@dataclass(frozen=True, slots=True)
class ToolDef:
    """A tool derived from one toolkit method."""

    method: str
    description: str
    parameters: dict[str, Any]
    returns: dict[str, Any]
    effect: Effect
    resource: str | None
    arguments: type[BaseModel]
    result: TypeAdapter[Any]


def derive_tool(method: Callable[..., Any]) -> ToolDef:
    """Derive a tool's schemas and description from a method's signature and docstring."""
    mark: ToolMark = method.__tool__  # type: ignore[attr-defined]
    where = method.__qualname__
    doc = parse_docstring(method.__doc__)
    if not doc.summary:
        raise TypeError(f"{where}: a tool needs a docstring; its first paragraph describes it")
    hints = typing.get_type_hints(method, include_extras=True)
    fields: dict[str, Any] = {}
    for name, param in list(inspect.signature(method).parameters.items())[1:]:
        if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            raise TypeError(f"{where}: *args and **kwargs cannot be tool parameters")
        if name not in doc.args or not doc.args[name]:
            raise TypeError(f"{where}: parameter {name!r} needs a description under Args:")
        if name not in hints:
            raise TypeError(f"{where}: parameter {name!r} needs a type hint")
        default = ... if param.default is param.empty else param.default
        fields[name] = (hints[name], Field(default, description=doc.args[name]))
    if "return" not in hints:
        raise TypeError(f"{where}: a tool needs a return annotation")
    model_name = "".join(w.title() for w in split_words(method.__name__)) + "Arguments"
    arguments = create_model(  # type: ignore[call-overload]
        model_name, __config__=ConfigDict(extra="forbid"), **fields
    )
    result = TypeAdapter(hints["return"])
    returns = clean_schema(result.json_schema(mode="serialization"))
    if doc.returns:
        returns["description"] = doc.returns
    return ToolDef(
        method=method.__name__,
        description=doc.summary,
        parameters=clean_schema(arguments.model_json_schema()),
        returns=returns,
        effect=mark.effect,
        resource=mark.resource,
        arguments=arguments,
        result=result,
    )


def record_schema(model: type[Record]) -> dict[str, Any]:
    """A collection's record schema (every field required), with `x-id-field: id`."""
    return {**clean_schema(model.model_json_schema(mode="serialization")), "x-id-field": "id"}


def explain(error: ValidationError) -> str:
    """The first problem of a pydantic error as a plain phrase naming the field."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "value"
    return f"invalid {where}: {first['msg']}"

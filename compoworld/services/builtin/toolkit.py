"""The toolkit base class: a hand-written service whose `@tool` methods are its tools.

Subclasses declare `name`, `title`, `domain` and `resources` (collection -> record model)
and write typed, documented tool methods; `derive.py` turns each into a `ToolDef`, and
`Toolkit.spec()` / `Toolkit.build(state)` give the `ServiceSpec` and the mounted `Service`.

Each call builds a fresh toolkit over the state the runtime passes in (so a service's
state can be swapped, as verification does), converts the arguments (already checked
against the schema) with the arguments model, runs the method and dumps its result to
JSON: callers get copies, never references into the state. Helpers (`load`, `changed`,
`commit`) make the "raise before you mutate" rule the easy path: `commit` validates every
record it is given before writing any.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from pydantic import ValidationError

from compoworld.graph.semtypes import singularize, split_words
from compoworld.services.builtin.common import Person, Record, world
from compoworld.services.builtin.derive import (
    ToolDef,
    derive_tool,
    explain,
    parse_docstring,
    record_schema,
    tool,
)
from compoworld.services.runtime import Service, Tool
from compoworld.specs.fields import param_types, return_types
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.world.state import BadRequest, NotFound, State, Unprocessable

__all__ = ["Toolkit", "tool", "tool_defs"]

R = TypeVar("R", bound=Record)
_LIST_VERBS = ("list", "search", "find")


class Toolkit:
    """Base of a hand-written service: its `@tool` methods are the tools.

    Subclasses set `name`, `title`, `domain` and `resources` (collection -> record model),
    write their tools, and `seed` an example state. The class docstring's first paragraph
    is the service description.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    domain: ClassVar[str] = "other"
    resources: ClassVar[dict[str, type[Record]]] = {}

    def __init__(self, state: State) -> None:
        self.state = state

    # --- the world the tools act in ---------------------------------------------------

    @property
    def now(self) -> datetime:
        """The world's fixed current time (UTC)."""
        return datetime.fromisoformat(world(self.state.collections)["now"])

    @property
    def user_email(self) -> str:
        """Email address of the user the tools act for."""
        return world(self.state.collections)["user_email"]

    @property
    def user_phone(self) -> str:
        """Phone number of the user the tools act for."""
        return world(self.state.collections)["user_phone"]

    # --- records ------------------------------------------------------------------------

    def load(self, collection: str, record_id: str) -> Any:
        """One record as its model; `NotFound` saying which tool lists the ids."""
        record = self.state.collections.get(collection, {}).get(str(record_id))
        if record is None:
            words = split_words(collection)
            noun = " ".join([*words[:-1], singularize(words[-1])])
            raise NotFound(f"No {noun} has id {record_id!r}. {self._finder(collection)}")
        return self.resources[collection].model_validate(record)

    def scan(self, collection: str) -> list[Any]:
        """Every record of a collection as models, in id order."""
        records = self.state.collections.get(collection, {})
        model = self.resources[collection]
        return [model.model_validate(records[key]) for key in sorted(records)]

    def new_id(self, collection: str) -> str:
        """The collection's next id (deterministic)."""
        return self.state.new_id(collection)

    def changed(self, record: R, **changes: Any) -> R:
        """A validated copy of a record with some fields changed (`Unprocessable` if bad)."""
        try:
            return type(record).model_validate({**record.model_dump(), **changes})
        except ValidationError as error:
            raise Unprocessable(explain(error)) from None

    def commit(self, *writes: tuple[str, Record]) -> None:
        """Store records; all are validated before any is written."""
        dumped = [(collection, rec.model_dump(mode="json")) for collection, rec in writes]
        for collection, data in dumped:
            self.state.validate(collection, data)
        for collection, data in dumped:
            self.state.put(collection, data)

    def remove(self, collection: str, record_id: str) -> None:
        """Delete a record (load it first: this assumes it exists)."""
        self.state.delete(collection, record_id)

    def take(self, collection: str, record_id: str) -> Any:
        """Load a record and delete it; returns what was deleted (NotFound if it is not there)."""
        record = self.load(collection, record_id)
        self.remove(collection, record_id)
        return record

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """Fill the state with a small example dataset (subclasses write this)."""
        raise NotImplementedError

    def _finder(self, collection: str) -> str:
        for found in tool_defs(type(self)):
            if found.resource == collection and found.method.split("_")[0] in _LIST_VERBS:
                return f"Call {self.name}__{found.method} to see the ids that exist."
        return "Check the id and try again."

    # --- specs and services -------------------------------------------------------------

    @classmethod
    def spec(cls) -> ServiceSpec:
        """The service's spec (a fresh copy; derived once per class)."""
        return _spec(cls).model_copy(deep=True)

    @classmethod
    def build(cls, state: State | None = None) -> Service:
        """A mounted service over `state` (an empty state when None); tools are builtin."""
        spec = cls.spec()
        defs = {f"{cls.name}__{d.method}": d for d in tool_defs(cls)}
        tools = {
            t.name: Tool(spec=t, implementation="builtin", handler=_handler(cls, defs[t.name]))
            for t in spec.tools
        }
        return Service(spec, tools, state)


@functools.cache
def tool_defs(cls: type[Toolkit]) -> tuple[ToolDef, ...]:
    """A toolkit's tools in definition order (derived once per class)."""
    seen: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for name, attr in vars(klass).items():
            if hasattr(attr, "__tool__") and not name.startswith("_"):
                seen[name] = getattr(cls, name)
    return tuple(derive_tool(method) for method in seen.values())


@functools.cache
def _spec(cls: type[Toolkit]) -> ServiceSpec:
    tools = []
    for d in tool_defs(cls):
        tools.append(ToolSpec(
            service=cls.name,
            name=f"{cls.name}__{d.method}",
            description=d.description,
            parameters=copy.deepcopy(d.parameters),
            returns=copy.deepcopy(d.returns),
            effect=d.effect,
            resource=d.resource,
            source=f"builtin:{cls.name}#{d.method}",
            param_types=param_types(d.parameters, service=cls.name, resource=d.resource,
                                    owners={}),
            return_types=return_types(d.returns, service=cls.name, resource=d.resource),
        ))
    return ServiceSpec(
        name=cls.name,
        title=cls.title,
        description=parse_docstring(cls.__doc__).summary,
        domain=cls.domain,
        source=f"builtin:{cls.name}",
        resources={name: record_schema(model) for name, model in cls.resources.items()},
        tools=tools,
    )


def _handler(cls: type[Toolkit], definition: ToolDef) -> Callable[[State, dict[str, Any]], Any]:
    def handle(state: State, arguments: dict[str, Any]) -> Any:
        try:
            parsed = definition.arguments.model_validate(arguments)
        except ValidationError as error:
            raise BadRequest(explain(error)) from None
        method = getattr(cls(state), definition.method)
        counters = dict(state.next_ids)
        try:
            result = method(**{name: getattr(parsed, name) for name in type(parsed).model_fields})
        except BaseException:
            # Tools take ids before their last check; a rejected call must not use them up.
            state.next_ids.clear()
            state.next_ids.update(counters)
            raise
        return definition.result.dump_python(result, mode="json")

    return handle

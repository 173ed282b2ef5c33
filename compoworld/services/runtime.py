"""The service runtime: typed state, tools, and the one call protocol (DESIGN.md).

`Service.call(tool, arguments)` returns exactly `{"success": true, "data": ...}` or
`{"success": false, "error": {"code": ..., "message": ...}}`. Arguments are validated
against the tool's JSON Schema first (400 naming the bad parameter). Handlers raise
`ToolError`s (`NotFound`, `Conflict`, ...); this module's dispatcher is the only place that
turns them into error results, and no exception ever escapes `call`.

A handler is `handler(state, arguments) -> data`. It must raise before it mutates, so a
rejected call leaves the state as it was; `State.put` validates a record against its
collection's schema before storing it, which keeps that promise for schema errors too.
Validation uses fastjsonschema (compiled lazily per tool, ~2 µs a call) because a call
must cost tens of microseconds, not the ~100 µs of a generic validator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.world.state import Handler, State, ToolError, compile_validator

Implementation = Literal["compiled", "modeled", "coded", "builtin", "simulated"]


@dataclass(slots=True)
class Tool:
    """A callable tool: its spec, how it is implemented, and its handler."""

    spec: ToolSpec
    implementation: Implementation
    handler: Handler
    _validate: Callable[[Any], Any] | None = field(default=None, repr=False)

    def validate(self, arguments: Any) -> None:
        """Check arguments against the tool's parameters schema (`BadRequest` if bad)."""
        if self._validate is None:
            self._validate = compile_validator(self.spec.parameters)
        self._validate(arguments)


def _plain_json(value: Any) -> bool:
    """Whether a value survives JSON unchanged: no inf/nan, no integer beyond 64 bits.

    Such values would be stored as they are and then break (or collide in) the digest.
    """
    try:
        return orjson.loads(orjson.dumps(value)) == value
    except (TypeError, orjson.JSONEncodeError):
        return False


def ok(data: Any) -> dict[str, Any]:
    """A success result."""
    return {"success": True, "data": data}


def error(code: int, message: str) -> dict[str, Any]:
    """An error result."""
    return {"success": False, "error": {"code": code, "message": message}}


class Service:
    """A mounted service: spec, tools and a state. `call` is its only entry point."""

    __slots__ = ("spec", "tools", "state")

    def __init__(self, spec: ServiceSpec, tools: dict[str, Tool], state: State | None = None):
        self.spec = spec
        self.tools = tools
        self.state = state if state is not None else State(dict(spec.resources))

    @property
    def name(self) -> str:
        return self.spec.name

    def call(self, tool: str, arguments: Any = None) -> dict[str, Any]:
        """Run one tool call and answer with the protocol; never raises."""
        try:
            found = self.tools.get(tool)
            if found is None:
                return error(404, f"{self.name} has no tool named {tool!r}; list its tools first")
            arguments = {} if arguments is None else arguments
            if not isinstance(arguments, dict):
                return error(400, "arguments must be a JSON object of parameter names to values")
            if not _plain_json(arguments):
                return error(400, "arguments must be plain JSON: numbers finite and within 64 bits")
            found.validate(arguments)
            counters = dict(self.state.next_ids)
            try:
                return ok(found.handler(self.state, arguments))
            except ToolError:
                self.state.next_ids = counters  # an id drawn by a rejected call is not used up
                raise
        except ToolError as failure:
            return error(failure.code, failure.message)
        except Exception as failure:  # noqa: BLE001 - the protocol's promise: nothing escapes
            return error(500, f"internal error in {tool}: {type(failure).__name__}: {failure}")

"""The environment an agent acts in: one task's services in a private world, seen as OpenAI
function tools in one of two views (DESIGN.md, "The call protocol").

- `direct`: every tool of every mounted service is a function. OpenAI names must match
  `^[a-zA-Z0-9_-]{1,64}$`; a name that does not is exposed under a stable alias
  (`exposed_name`), and `names` / `real` map the two ways.
- `gateway`: four meta-tools only (`list_services`, `list_tools`, `describe_tool`,
  `call_tool`); tools keep their real names there, since they travel as strings.

`execute` returns the tool message content: the compact JSON of a protocol result. It
never raises: bad JSON, unknown names and internal failures all become error results whose
message says what to do next. Services and tools are listed sorted by name, so their order
never tells the agent which services the task needs.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from typing import Any

import orjson

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.rollout.records import Mode
from compoworld.services.runtime import error, ok
from compoworld.specs.records import ToolSpec
from compoworld.world.state import State

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
DESCRIPTION_CHARS = 300
META_TOOLS = ("list_services", "list_tools", "describe_tool", "call_tool")


def exposed_name(name: str) -> str:
    """The OpenAI function name of a tool: the name itself when it fits the pattern, else
    `<first 51 chars, other characters as _>_<12 hex of its sha256>` (stable, 64 chars)."""
    if NAME_PATTERN.match(name):
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:12]
    return f"{re.sub(r'[^a-zA-Z0-9_-]', '_', name)[:51]}_{digest}"


def trim(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """A description cut at a word boundary to at most `limit` characters."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 3].rsplit(" ", 1)[0] or text[: limit - 3]
    return cut + "..."


def object_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """A tool's parameters as an OpenAI-valid object schema."""
    schema = dict(parameters or {})
    schema["type"] = "object"
    schema.setdefault("properties", {})
    return schema


def function(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """One OpenAI function tool."""
    return {"type": "function",
            "function": {"name": name, "description": description, "parameters": parameters}}


GATEWAY_TOOLS = [
    function("list_services", "List the services you can use: name, title and description.",
             {"type": "object", "properties": {}}),
    function("list_tools", "List the tools of one service: names and descriptions.",
             {"type": "object", "properties": {"service": {
                 "type": "string", "description": "A service name from list_services."}},
              "required": ["service"]}),
    function("describe_tool", "Describe one tool: what it does and its parameters (JSON "
             "Schema).",
             {"type": "object", "properties": {"tool": {
                 "type": "string", "description": "A tool name from list_tools."}},
              "required": ["tool"]}),
    function("call_tool", "Call one tool with its arguments; returns the tool's result.",
             {"type": "object", "properties": {
                 "tool_name": {"type": "string", "description": "A tool name from list_tools."},
                 "arguments": {"type": "object",
                               "description": "The tool's arguments, as describe_tool gives "
                               "them."}},
              "required": ["tool_name", "arguments"]}),
]


def dump(result: dict[str, Any]) -> str:
    """Compact JSON of a protocol result."""
    try:
        return orjson.dumps(result, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # e.g. an integer beyond 64 bits
        return json.dumps(result, separators=(",", ":"), default=str)


class Environment:
    """One task's world for one episode: its services and distractors mounted privately."""

    def __init__(self, task: Task, library: ServiceLibrary, mode: Mode = "direct") -> None:
        if mode not in ("direct", "gateway"):
            raise ValueError(f"mode must be 'direct' or 'gateway', not {mode!r}")
        self.task = task
        self.mode = mode
        self.world = library.world(task.world_seed, task.world_patch)
        self.infos = library.infos
        self.services = sorted(set(task.services) | set(task.distractors))
        self.catalog: dict[str, ToolSpec] = {}
        for name in self.services:
            for tool_name, tool in sorted(self.world.service(name).tools.items()):
                self.catalog[tool_name] = tool.spec
        self.names = {tool: exposed_name(tool) for tool in self.catalog}
        self.real = {alias: tool for tool, alias in self.names.items()}
        self.tools = copy.deepcopy(GATEWAY_TOOLS) if mode == "gateway" else [
            function(self.names[tool], trim(spec.description), object_schema(spec.parameters))
            for tool, spec in self.catalog.items()
        ]
        self.n_tool_calls = 0
        self.n_real_tool_calls = 0

    def execute(self, name: str, arguments: str | dict[str, Any] | None) -> str:
        """Run one tool call; the tool message content (compact JSON). Never raises."""
        self.n_tool_calls += 1
        try:
            parsed, failed = parse_arguments(arguments)
            if parsed is None:
                return dump(failed)
            if self.mode == "gateway":
                return dump(self._meta(name, parsed))
            tool = self.real.get(name)
            if tool is None:
                return dump(error(404, f"there is no tool named {name!r}; call one of the "
                                       "functions in your tool list, spelled exactly"))
            return dump(self._call(tool, parsed))
        except Exception as failure:  # noqa: BLE001 - an agent's call never breaks a rollout
            return dump(error(500, f"internal error in {name}: {type(failure).__name__}"))

    def _call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.n_real_tool_calls += 1
        return self.world.service(self.catalog[tool].service).call(tool, arguments)

    def _meta(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        if name == "list_services":
            infos = [(s, self.infos.get(s)) for s in self.services]
            return ok([{"name": s, "title": info.app if info else s,
                        "description": trim(info.description if info else "")}
                       for s, info in infos])
        if name == "list_tools":
            service = arguments.get("service")
            if service not in self.services:
                return error(404, f"there is no service named {service!r}; call "
                                  "list_services to see the service names")
            return ok([{"name": tool, "description": trim(spec.description)}
                       for tool, spec in self.catalog.items() if spec.service == service])
        if name == "describe_tool":
            tool = self._lookup(arguments.get("tool"))
            if tool is None:
                return self._no_tool(arguments.get("tool"))
            spec = self.catalog[tool]
            return ok({"name": tool, "service": spec.service, "description": spec.description,
                       "parameters": object_schema(spec.parameters)})
        if name == "call_tool":
            tool = self._lookup(arguments.get("tool_name"))
            if tool is None:
                return self._no_tool(arguments.get("tool_name"))
            inner, failed = parse_arguments(arguments.get("arguments"))
            return failed if inner is None else self._call(tool, inner)
        return error(404, f"there is no tool named {name!r}; the tools are list_services, "
                          "list_tools, describe_tool and call_tool: call list_services first")

    def _lookup(self, tool: Any) -> str | None:
        if not isinstance(tool, str):
            return None
        return tool if tool in self.catalog else self.real.get(tool)

    @staticmethod
    def _no_tool(tool: Any) -> dict[str, Any]:
        return error(404, f"there is no tool named {tool!r}; call list_services, then "
                          "list_tools(service) to see the tool names")

    def states(self) -> tuple[dict[str, State], dict[str, State]]:
        """Start and current states of the task's services (what the rubric reads)."""
        return self.world.states(self.task.services)


Parsed = tuple[dict[str, Any], None] | tuple[None, dict[str, Any]]


def parse_arguments(arguments: Any) -> Parsed:
    """`(arguments, None)`, or `(None, error result)` saying how to fix them. A JSON string
    is parsed; an empty one or None stands for no arguments."""
    if arguments is None:
        return {}, None
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}, None
        try:
            arguments = json.loads(arguments)
        except ValueError as failure:
            return None, error(400, f"the arguments are not valid JSON ({failure}); send one JSON "
                              'object of parameter names to values, e.g. {"name": "value"}')
    if not isinstance(arguments, dict):
        return None, error(400, "the arguments must be a JSON object of parameter names to "
                                f"values, not {type(arguments).__name__}")
    return arguments, None

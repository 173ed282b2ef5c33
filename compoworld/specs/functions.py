"""Load a list of OpenAI-style function definitions (one file = one service).

Each entry is `{"name", "description", "parameters"}` or the chat-completions wrapper
`{"type": "function", "function": {...}}`. The effect comes from the name's first word
(get/list/search/find/... -> read, create/add/new/insert -> create, update/set/edit/...
-> update, delete/remove -> delete, anything else -> action); the resource is the object
noun after the verb, pluralised (`get_weather_forecast` -> `weather_forecasts`,
`send_email` -> `emails`); `returns` is `{}` (unknown). Sources: the service is
`functions:<doc_id>`, each tool `functions:<doc_id>#<function name>`.
"""

from __future__ import annotations

import json
from typing import Any

from compoworld.graph.semtypes import pluralize, split_words
from compoworld.specs.errors import SpecLoadError, one_line_reasons
from compoworld.specs.fields import param_types
from compoworld.specs.limits import NO_DEADLINE, Deadline
from compoworld.specs.paths import KNOWN_VERBS, verb_effect
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.specs.refs import SchemaResolver
from compoworld.specs.text import TOOL_NAME_RE, clean_text, service_name, snake_words

_SCHEMA_DEPTH = 4


@one_line_reasons
def load_function_list(items: list, doc_id: str, *,
                       deadline: Deadline = NO_DEADLINE) -> ServiceSpec:
    """Turn a list of function definitions into one ServiceSpec; SpecLoadError if bad
    (or if it runs past `deadline`)."""
    return _load(items, doc_id, deadline)


def _load(items: Any, doc_id: str, deadline: Deadline) -> ServiceSpec:
    if not isinstance(items, list) or not items:
        raise SpecLoadError("a function list must be a non-empty JSON/YAML list")
    service = service_name(doc_id)
    tools: list[ToolSpec] = []
    seen: set[str] = set()
    for index, entry in enumerate(items):
        spec = _unwrap(entry, index)
        part = snake_words(spec["name"])
        if not part:
            raise SpecLoadError(f"entry {index}: name {spec['name']!r} has no letters or digits")
        if part in seen:
            raise SpecLoadError(f"entry {index}: duplicate function name {spec['name']!r}")
        seen.add(part)
        name = f"{service}__{part}"
        if not TOOL_NAME_RE.match(name):
            raise SpecLoadError(f"entry {index}: cannot make a valid tool name from it")
        # Functions may carry `$defs` refs of their own: resolve them against the schema.
        parameters = SchemaResolver(spec["parameters"], deadline).resolve(spec["parameters"],
                                                                          _SCHEMA_DEPTH)
        parameters = json.loads(json.dumps({"type": "object", "properties": {},
                                            **parameters}, default=str))
        words = split_words(spec["name"])
        resource = _resource(words)
        tools.append(ToolSpec(
            service=service,
            name=name,
            description=clean_text(spec.get("description")) or spec["name"],
            parameters=parameters,
            returns={},
            effect=verb_effect(words),
            resource=resource,
            source=f"functions:{doc_id}#{spec['name']}",
            param_types=param_types(parameters, service=service, resource=resource,
                                    owners={}),
        ))
    title = doc_id.rsplit("/", 1)[-1]
    return ServiceSpec(
        name=service,
        title=title,
        description=f"Functions from {doc_id}.",
        domain="other",
        source=f"functions:{doc_id}",
        tools=tools,
    )


def _unwrap(entry: Any, index: int) -> dict[str, Any]:
    """The function definition of one entry, checked; SpecLoadError names the entry."""
    if isinstance(entry, dict) and isinstance(entry.get("function"), dict):
        entry = entry["function"]
    if not isinstance(entry, dict):
        raise SpecLoadError(f"entry {index}: not an object")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SpecLoadError(f"entry {index}: missing `name`")
    parameters = entry.get("parameters", {"type": "object", "properties": {}})
    if not isinstance(parameters, dict) or parameters.get("type", "object") != "object":
        raise SpecLoadError(f"entry {index} ({name}): `parameters` is not an object schema")
    if "properties" in parameters and not isinstance(parameters["properties"], dict):
        raise SpecLoadError(f"entry {index} ({name}): `parameters.properties` is not an object")
    return {**entry, "parameters": parameters}


def _resource(words: list[str]) -> str | None:
    """The object noun after a leading verb, pluralised: `create_contact` -> `contacts`."""
    if words and words[0] in KNOWN_VERBS:
        words = words[1:]
    if words and words[0] in ("batch", "bulk"):
        words = words[1:]
    if not words:
        return None
    return "_".join([*words[:-1], pluralize(words[-1])])

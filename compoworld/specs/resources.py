"""Record schemas for every collection a spec names, derived from what the spec does say.

A collection's record schema is best taken from the record a read-by-id or a create returns
(openapi.py). Many services say less: a list whose items are the records, an update that
answers with the record, only request bodies, or (function lists) only parameters. Without
a record schema a collection gets no typed state and its tools no world that remembers, so
`derive_resources` fills the gaps, in this order of trust:

1. `list item`: the objects a list read returns (a bare array, or the array under
   `data`/`items`/`results`/the collection's own name...);
2. `result`: any other tool's record-shaped result for the collection (update, action);
3. `request`: the fields of the requests that make or change a record (create, update:
   their parameters without the path and header knobs), merged;
4. `parameters`: the scalar parameters of every tool of the collection, as a last resort
   (a `list_files(folder, owner)` gives files a folder and an owner).

Each derived schema carries `x-derived` (how) and an id field (`x-id-field`, added when
the source names none); properties are kept as the spec wrote them, nothing is required
beyond the id, so records seeded from it validate and an agent's create can name any
subset of them.
"""

from __future__ import annotations

import json
from typing import Any

from compoworld.graph.semtypes import plainness, pluralize, singularize, snake_case, split_words
from compoworld.specs.fields import record_schema
from compoworld.specs.records import ToolSpec

# Envelope properties that hold a list's records, in order of preference (the collection's
# own name is tried right after the first three: `list_keys`).
LIST_KEYS = ("data", "items", "results", "value", "values", "records", "entries", "list",
             "elements", "hits", "rows", "objects", "nodes", "content", "result")


def list_keys(collection: str) -> tuple[str, ...]:
    """The snake_case property names a list of `collection` records may sit under, in
    order of preference (what `list_items` here and the compiler's `list_shape` try)."""
    own = snake_case(collection)
    return (*LIST_KEYS[:3], own, singularize(own), pluralize(own), *LIST_KEYS[3:])
_SCALARS = frozenset({"string", "integer", "number", "boolean"})
MAX_FIELDS = 60  # a derived record keeps at most this many fields


def derive_resources(tools: list[ToolSpec], known: dict[str, dict[str, Any]]
                     ) -> dict[str, dict[str, Any]]:
    """Record schemas for the collections the tools name that `known` lacks.

    Returns only the new collections (so `known | derive_resources(...)` is the whole set);
    a collection nothing can be said about still gets an id-only schema under
    `x-derived: "name"`.
    """
    by_resource: dict[str, list[ToolSpec]] = {}
    for tool in tools:
        if tool.resource and tool.resource not in known:
            by_resource.setdefault(tool.resource, []).append(tool)
    out: dict[str, dict[str, Any]] = {}
    for resource, group in by_resource.items():
        shown = _from_lists(group, resource) or _from_results(group, resource)
        schema = _as_people(resource, _with_requests(shown, group, resource) if shown
                            else _from_requests(group, resource)
                            or _from_parameters(group, resource))
        schema["required"] = list(dict.fromkeys([*schema["required"],
                                                 *_read_required(group, resource, schema)]))
        out[resource] = json.loads(json.dumps(schema))
    return out


# Collections whose records are people: a list of them says who each one is. (No `agent`:
# a CI server's agents are machines.)
_PEOPLE = frozenset("user member person people employee staff teammate collaborator contact "
                    "attendee participant guest subscriber customer".split())


def _as_people(resource: str, schema: dict[str, Any]) -> dict[str, Any]:
    """`schema`, with a person's `name` and `email` where the collection holds people and
    nothing the spec says names one. Slack's MCP server lists users, and Trello's lists a
    board's members, with no result schema and no create: their users were bare ids, so no
    workflow could find a colleague there."""
    words = split_words(resource)
    props = _object_props(schema)
    if not words or singularize(words[-1]) not in _PEOPLE or any(
            {"name", "email", "username", "login"} & set(split_words(key)) for key in props):
        return schema
    return {**schema, "properties": {
        **props, "name": {"type": "string", "description": "The person's full name."},
        "email": {"type": "string", "format": "email",
                  "description": "The person's email address."}}}


def _read_required(group: list[ToolSpec], resource: str, schema: dict[str, Any]) -> list[str]:
    """The record's fields a read of the collection says every record it returns has (its
    result's, or its list items', `required`): a record seeded without one would make that
    read return what its own schema rejects (a message with no `channel` fetched by a
    `get_message` that requires one)."""
    props = _object_props(schema)
    out: list[str] = []
    for tool in group:
        if tool.effect != "read":
            continue
        for record in (list_items(tool.returns, resource),
                       unwrap_record(tool.returns, resource)):
            wanted = record.get("required") if isinstance(record, dict) else None
            if isinstance(wanted, list):
                out += [name for name in wanted if isinstance(name, str) and name in props]
    return out


def _derived(props: dict[str, Any], resource: str, how: str) -> dict[str, Any]:
    props = dict(list(props.items())[:MAX_FIELDS])
    schema = record_schema({"type": "object", "properties": props}, resource)
    if schema is None:
        schema = {"type": "object", "properties": {"id": {"type": "string"}},
                  "x-id-field": "id"}
    id_field = schema["x-id-field"]
    return {**schema, "required": [id_field], "x-derived": how}


def _object_props(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {}
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


_RECORD_KEYS = ("data", "result", "item", "record", "entity", "object", "payload",
                "response")
# What an envelope may hold beside its record: notes on the call, never the record's own
# (Square's `{"customer": {...}, "errors": [...]}`)
_ENVELOPE_NOTES = frozenset({"errors", "error", "warnings", "messages", "meta", "links",
                             "_links", "metadata"})


def unwrap_record(returns: Any, resource: str) -> Any:
    """The record inside an envelope, else `returns` itself: the envelope is how the record
    is returned, not the record. An envelope is one object property (`{"Bridge": {...}}`),
    or a `data`/`result`/<resource> object beside scalar metadata (Apideck's
    `{"status_code", "status", "data": {...}}`) or notes on the call (Square's
    `{"customer": {...}, "errors": [...]}`)."""
    props = _object_props(returns)
    own = snake_case(singularize(resource))
    for name, inner in props.items():
        key = snake_case(name)
        if (key in _RECORD_KEYS or key == own) and len(_object_props(inner)) >= 2 and all(
                (isinstance(s, dict) and s.get("type") in _SCALARS)
                or snake_case(other) in _ENVELOPE_NOTES
                for other, s in props.items() if other != name):
            return inner
    if len(props) != 1:
        return returns
    (name, inner), = props.items()
    words = split_words(name)
    own = split_words(singularize(resource))
    wraps = snake_case(name) in LIST_KEYS or words[-1:] == own[-1:]
    items = inner.get("items") if isinstance(inner, dict) and inner.get("type") == "array" \
        else None
    if (wraps or split_words(singularize(name))[-1:] == own[-1:]) and \
            len(_object_props(items)) >= 2:
        return items  # a list of one: Xero's contact comes back as `{"Contacts": [{...}]}`
    if _object_props(inner) and inner.get("type", "object") == "object" and (
            wraps or len(_object_props(inner)) >= 2):
        return inner
    return returns


def bare_envelope(returns: Any) -> bool:
    """Whether a result is an envelope whose record object tells none of the record's fields
    (api2cart's create answers `{"result": {"customer_id": ...}, "return_code": 0,
    "return_message": ""}`): taken as the customers' record schema, every customer held a
    `result` and a `return_code` and no name or email."""
    props = _object_props(returns)
    return any(snake_case(name) in _RECORD_KEYS and isinstance(inner, dict)
               and inner.get("type", "object") == "object"
               and len(_object_props(inner)) < 2 and all(
                   (isinstance(s, dict) and s.get("type") in _SCALARS)
                   or snake_case(other) in _ENVELOPE_NOTES
                   for other, s in props.items() if other != name)
               for name, inner in props.items())


def list_items(returns: Any, resource: str) -> dict[str, Any] | None:
    """The item schema of the records a list result holds; None when it holds none."""
    if not isinstance(returns, dict):
        return None
    if returns.get("type") == "array":
        items = returns.get("items")
        return items if _object_props(items) else None
    props = _object_props(returns)
    arrays = {snake_case(name): sub for name, sub in props.items()
              if isinstance(sub, dict) and sub.get("type") == "array"}
    for key in list_keys(resource):
        items = arrays.get(key, {}).get("items")
        if _object_props(items):
            return items
    if not arrays:  # one envelope down: api2cart's {"result": {"subscribers": [...]}}
        outer = list_envelope(returns)
        if outer is not None:
            return list_items(props[outer], resource)
    return None


# The names of an envelope object a list may sit one level inside (api2cart's `result`,
# `response`, `data`): a list under a record's own object (a config's `avatar.extensions`)
# is no list of the collection.
_LIST_ENVELOPES = frozenset(LIST_KEYS) | {"response", "payload", "body"}


def list_envelope(returns: dict[str, Any]) -> str | None:
    """The property of a result with no list of its own that holds an object with one
    (`result` of `{"result": {"subscribers": [...], "total_count": 2}, "return_code": 0}`):
    where its records are, one level down; None when there is none."""
    props = _object_props(returns)
    if any(isinstance(s, dict) and s.get("type") == "array" for s in props.values()):
        return None
    return next((name for name, sub in props.items()
                 if snake_case(name) in _LIST_ENVELOPES and isinstance(sub, dict)
                 and any(isinstance(s, dict) and s.get("type") == "array"
                         for s in _object_props(sub).values())), None)


def _from_lists(group: list[ToolSpec], resource: str) -> dict[str, Any] | None:
    """The record a list of the collection holds, from its plainest list first (api2cart's
    `customer_list` before `customer_attribute_list`, whose items are attributes)."""
    for tool in sorted(group, key=lambda t: plainness(t.name)):
        if tool.effect == "read":
            items = list_items(tool.returns, resource)
            if items is not None:
                return _derived(_object_props(items), resource, "list item")
    return None


def _from_results(group: list[ToolSpec], resource: str) -> dict[str, Any] | None:
    for tool in group:
        props = _object_props(tool.returns)
        # a bare record, not an envelope of one list or one status flag
        if len(props) >= 2 and sum(1 for s in props.values()
                                   if isinstance(s, dict) and s.get("type") in _SCALARS) >= 2:
            return _derived(props, resource, "result")
    return None


def _request_fields(tool: ToolSpec, resource: str) -> dict[str, Any]:
    own_id = {"id", *(f"{w}_id" for w in [snake_case(singularize(resource))])}
    out = {}
    for name, sub in _object_props(tool.parameters).items():
        if not isinstance(sub, dict) or snake_case(name) in own_id:
            continue
        if name.lower().startswith(("x-", "$")) or "authorization" in name.lower():
            continue
        out[name] = sub
    return out


def _with_requests(schema: dict[str, Any], group: list[ToolSpec], resource: str
                   ) -> dict[str, Any]:
    """A record schema taken from what a list or a result shows, with the plain fields its
    create takes that it lacks: a record holds what it was made with. Linear's milestone
    result shows `{id, name, ...}`, so a milestone made for a project (`projectId`) kept
    no project, and no check could see the project it was made for."""
    props = schema["properties"]
    for tool in group:
        if tool.effect != "create":
            continue
        for name, sub in _request_fields(tool, resource).items():
            if name not in props and (sub.get("type") in _SCALARS or (
                    sub.get("type") == "array" and isinstance(sub.get("items"), dict)
                    and sub["items"].get("type") in _SCALARS)):
                props[name] = {k: v for k, v in sub.items() if k != "default"}
    return schema


def _from_requests(group: list[ToolSpec], resource: str) -> dict[str, Any] | None:
    props: dict[str, Any] = {}
    for tool in group:
        if tool.effect in ("create", "update"):
            for name, sub in _request_fields(tool, resource).items():
                props.setdefault(name, sub)
    return _derived(props, resource, "request") if props else None


def _from_parameters(group: list[ToolSpec], resource: str) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for tool in group:
        for name, sub in _request_fields(tool, resource).items():
            words = split_words(name)
            if sub.get("type") in _SCALARS and words and words[-1] not in ("limit", "offset",
                                                                          "page", "cursor"):
                props.setdefault(name, {k: v for k, v in sub.items() if k != "default"})
    return _derived(props, resource, "parameters" if props else "name")

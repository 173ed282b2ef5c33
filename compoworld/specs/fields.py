"""Semantic types of a tool's parameters and returned fields, and entity record schemas."""

from __future__ import annotations

from collections import deque
from typing import Any

from compoworld.graph.semtypes import (
    KEY_WORDS,
    entity_id_type,
    semantic_type,
    singularize,
    split_words,
)

MAX_RETURN_DEPTH = 3
MAX_RETURN_FIELDS = 100

# Envelope properties whose items are still the tool's own resource.
_WRAPPERS = frozenset(
    "data items results result value values records response payload entries list objects "
    "content body elements hits nodes node edges rows collection item record entry element "
    "row object edge".split()
)


def _singular_words(noun: str) -> list[str]:
    words = split_words(noun)
    if words:
        words[-1] = singularize(words[-1])
    return words


def param_types(
    parameters: dict[str, Any],
    *,
    service: str,
    resource: str | None,
    owners: dict[str, str],
) -> dict[str, str]:
    """Type of each top-level parameter; a path param that keys a collection is its id.

    `owners` maps a path parameter to the collection segment just before it, so
    `/customers/{customer}` and `/repos/{owner}/{repo}` type `customer` and `repo` as
    `<service>.customers.id` and `<service>.repos.id` (but `owner` by its name), and
    Google Tasks' `/lists/{tasklist}/tasks` types `tasklist` as `<service>.lists.id`: one
    word ending in the collection's noun names one of it (typed by its name, a string, no
    list of a task list's tasks could be reached from the list of task lists).
    """
    out: dict[str, str] = {}
    props = parameters.get("properties") or {}
    for name, schema in props.items():
        prefix, _, rest = name.partition("_")
        if prefix in ("body", "query") and rest in props:
            name_for_type = rest  # renamed on a clash: type it by its own name
        else:
            name_for_type = name
        owner = owners.get(name)
        if owner and _keys_collection(name, owner):
            out[name] = entity_id_type(service, owner)
        else:
            out[name] = semantic_type(name_for_type, schema, service=service, resource=resource)
    return out


def _keys_collection(name: str, owner: str) -> bool:
    words, single = split_words(name), _singular_words(owner)
    if not words or not single:
        return False
    return words == ["id"] or words[: len(single)] == single or (
        len(words) == 2 and words[0] == single[-1] and words[1] in KEY_WORDS
    ) or (len(words) == 1 and len(words[0]) > len(single[-1])
          and words[0].endswith(single[-1]))


def return_types(
    schema: dict[str, Any], *, service: str, resource: str | None
) -> dict[str, str]:
    """Type of each leaf field of a result by dotted path (`data[].email`), shallow first.

    Only leaves (not objects or arrays of objects) are listed, at most 3 property names
    deep and 100 paths. Inside a property named after a thing (`customer`), an `id` is
    that thing's id; envelopes (`data`, `items`, `results`, ...) keep the tool's resource.
    """
    out: dict[str, str] = {}
    queue: deque[tuple[str, str, dict[str, Any], str | None, int]] = deque(
        [("", "", schema, resource, 0)]
    )
    while queue and len(out) < MAX_RETURN_FIELDS:
        path, name, node, owner, level = queue.popleft()
        if not isinstance(node, dict):
            continue
        if "items" in node and isinstance(node["items"], dict):
            item_name = "_".join(_singular_words(name)) if name else name
            queue.appendleft((f"{path}[]", item_name, node["items"], owner, level))
            continue
        props = node.get("properties")
        if isinstance(props, dict):
            if level >= MAX_RETURN_DEPTH:
                continue
            for key, sub in props.items():
                child = owner if not name or name in _WRAPPERS else name
                sub_path = f"{path}.{key}" if path else key
                queue.append((sub_path, key, sub, child, level + 1))
            continue
        if "type" not in node and ("oneOf" in node or "anyOf" in node):
            continue
        if path and node.get("type") not in ("object", "array"):
            out[path] = semantic_type(name, node, service=service, resource=owner)
    return out


def record_schema(schema: dict[str, Any], resource: str) -> dict[str, Any] | None:
    """A collection's record schema with an id field named in `x-id-field`; None if not
    an object with properties.

    The id field is the first existing property named `id`, `<singular>_id` (any style:
    `contactId`), `uuid`, `<singular>_uuid`, `guid`, `key`, `<singular>_key`, `sid` or
    `<singular>_sid`; when there is none, `"id": {"type": "string"}` is added.
    """
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict) or not props:
        return None
    single = _singular_words(resource)
    wanted: list[list[str]] = []
    for word in KEY_WORDS:
        wanted += [[word], [*single, word]]
    by_words = {tuple(split_words(name)): name for name in reversed(list(props))}
    id_field = next((by_words[tuple(w)] for w in wanted if tuple(w) in by_words), None)
    out = dict(schema)
    if id_field is None:
        id_field = "id"
        out["properties"] = {"id": {"type": "string"}, **props}
    out["x-id-field"] = id_field
    return out


MAX_PARAM_DEPTH = 3  # property names deep, the top-level parameter's included


def nested_param_types(
    parameters: dict[str, Any], *, service: str, resource: str | None
) -> dict[str, str]:
    """Type of each leaf inside an object parameter, by concrete path: Mandrill's
    `message.to[0].email`, SendGrid's `personalizations[0].to[0].email`, a calendar's
    `attendees[0].email`. A list of objects is addressed by its first item: a message
    goes to one recipient, an event has one guest. A leaf is typed by its own name, and
    inside a property named after a thing by that thing (`customer.id`); a generic leaf
    (`value`, `content`) of a message's body (`content[0].value`) is its text."""
    out: dict[str, str] = {}
    props = parameters.get("properties") or {}
    for name, schema in props.items():
        if not isinstance(schema, dict):
            continue
        if not _holds_objects(schema):
            continue
        queue: deque[tuple[str, str, dict[str, Any], int]] = deque([(name, name, schema, 1)])
        while queue:
            path, key, node, level = queue.popleft()
            items = node.get("items")
            if node.get("type") == "array" and isinstance(items, dict):
                if isinstance(items.get("properties"), dict):
                    queue.appendleft((f"{path}[0]", key, items, level))
                continue
            sub = node.get("properties")
            if isinstance(sub, dict):
                if level >= MAX_PARAM_DEPTH and path != name:
                    continue
                for child, schema_of in sub.items():
                    if isinstance(schema_of, dict):
                        queue.append((f"{path}.{child}", child, schema_of, level + 1))
                continue
            if path == name or "type" not in node:
                continue  # (an untyped leaf, Mandrill's `auto_text`, is no known value)
            owner = path.rsplit(".", 1)[0].rsplit(".", 1)[-1].split("[")[0]
            typed = semantic_type(_body_leaf(owner, key), node, service=service,
                                  resource=owner if owner not in _WRAPPERS else resource)
            out[path] = typed
    return out


_BODY_PARENTS = frozenset("content contents body message text".split())
_BODY_LEAVES = frozenset("value content".split())


_PERSON_PARENTS = frozenset("to from sender recipient recipients attendees guests invitees "
                            "participants".split())


def _body_leaf(owner: str, key: str) -> str:
    """The name a nested leaf is typed by: `text` for a message body's generic `value`,
    `person_name` for the `name` of a message's recipient (`to[0].name`)."""
    if key in _BODY_LEAVES and owner in _BODY_PARENTS:
        return "text"
    if split_words(key) in (["name"], ["display", "name"]) and owner in _PERSON_PARENTS:
        return "full_name"
    return key


def _holds_objects(schema: dict[str, Any]) -> bool:
    items = schema.get("items")
    return isinstance(schema.get("properties"), dict) or (
        isinstance(items, dict) and isinstance(items.get("properties"), dict))


def nested_required(parameters: dict[str, Any]) -> set[str]:
    """The concrete paths of `nested_param_types` a call cannot leave out: every property
    on the way is required (`personalizations[0].to[0].email`)."""
    out: set[str] = set()

    def walk(path: str, node: dict[str, Any], level: int) -> None:
        items = node.get("items")
        if node.get("type") == "array" and isinstance(items, dict):
            walk(f"{path}[0]", items, level)
            return
        sub = node.get("properties")
        if not isinstance(sub, dict) or level > MAX_PARAM_DEPTH:
            if path.count(".") or "[" in path:
                out.add(path)
            return
        for child in node.get("required") or []:
            if isinstance(sub.get(child), dict):
                walk(f"{path}.{child}", sub[child], level + 1)

    props = parameters.get("properties") or {}
    for name in parameters.get("required") or []:
        if isinstance(props.get(name), dict) and _holds_objects(props[name]):
            walk(name, props[name], 1)
    return out

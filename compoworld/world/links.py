"""A nested record's key to its parent is the parent's own id.

Avaza's company held `"CompanyID": 23` and a contact in its `Contacts` list with
`"CompanyIDFK": 59`; a Square customer's `cards[]` named another customer in their
`customer_id`. A child's field that points at the record it sits in, `<Parent>IDFK` beside
the parent's `<Parent>ID`, or a field of the parent's id type (`customer_id` in a
customer's cards), is set to the parent's id once the parent has one: by the object
sampler when it draws the record, and by the seeder when it gives the record its id.
"""

from __future__ import annotations

from typing import Any

from compoworld.graph.semtypes import json_type, semantic_type, singularize, split_words
from compoworld.world.leafplans import Check

# child key -> its keys to the parent -> (the key's schema, its check)
Links = dict[str, dict[str, tuple[dict[str, Any], Check]]]


def parent_links(props: dict[str, Any], id_key: str, id_type: str, service: str) -> Links:
    """The keys of each child object (or list of objects) of a record that point at the
    record itself, given its id field `id_key` of entity type `id_type`."""
    own = split_words(id_key)
    names = ([*own[:-1], own[-1] + "fk"], [*own, "fk"]) if own else ()
    links: Links = {}
    for child, sub in props.items():
        if not isinstance(sub, dict):
            continue
        item, resource = sub, child
        if json_type(sub) == "array" and isinstance(sub.get("items"), dict):
            words = split_words(child)
            item = sub["items"]
            resource = "_".join([*words[:-1], singularize(words[-1])]) if words else child
        inner = item.get("properties")
        if not isinstance(inner, dict):
            continue
        keys = {key: (schema, Check(schema)) for key, schema in inner.items()
                if isinstance(schema, dict)
                and split_words(key) != ["id"] and json_type(schema) in ("string", "integer")
                and (split_words(key) in names or semantic_type(
                    key, schema, service=service, resource=resource) == id_type)}
        if keys:
            links[child] = keys
    return links


def link_children(out: dict[str, Any], id_key: str, links: Links,
                  fixed: Any = ()) -> None:
    """Set each child's keys to the parent (`links`) to `out[id_key]`, as each key's
    schema types it; children in `fixed` (the caller's) keep theirs."""
    value = out.get(id_key)
    if value is None:
        return
    for child, keys in links.items():
        if child in fixed:
            continue
        found = out.get(child)
        for item in found if isinstance(found, list) else [found]:
            if isinstance(item, dict):
                for key, (schema, check) in keys.items():
                    linked = convert_id(value, schema)
                    if key in item and check(linked):
                        item[key] = linked


def convert_id(value: Any, schema: dict[str, Any]) -> Any:
    """An id as a field of `schema`'s type holds it (`"3"` or 3)."""
    kind = json_type(schema)
    if kind == "string":
        return str(value)
    if kind in ("integer", "number") and isinstance(value, str):
        digits = "".join(ch for ch in value if ch.isdigit())
        return int(digits) if digits else value
    return value

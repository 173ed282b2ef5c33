"""A REST record's own `uri` is its API path, not a web site.

Twilio's account read `"uri": "https://www.wayne-foods.com"`: a `uri` field was drawn as a
URL, and a URL field of a record names its company's site. In an API resource, `uri` is the
record's own path (`/2010-04-01/Accounts/AC123.json`), and `subresource_uris` maps each
list under it to its path. `own_paths` finds each collection's get-by-id path in the
service's tools (`openapi:twilio.com/api#GET /2010-04-01/Accounts/{Sid}.json`) and the
lists under it; `path_rule` writes them into a seeded record, filling the path's
parameters from the record (its id, its `account_sid` for `{AccountSid}`), and leaves an
optional `uri` out where no such path fills.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compoworld.graph.semtypes import split_words
from compoworld.specs.records import ServiceSpec

_PARAM = re.compile(r"\{([^}]+)\}")
# the last segment of a get-by-id path: one parameter, maybe with an extension (`.json`)
_BY_ID = re.compile(r"/\{[^}]+\}(\.[a-z]+)?$")
# a list under a record's path: one more segment, no parameter
_CHILD = re.compile(r"/([A-Za-z][A-Za-z0-9_-]*)(\.[a-z]+)?$")
URI_KEY = "uri"
SUBRESOURCES_KEY = "subresource_uris"


@dataclass(frozen=True, slots=True)
class OwnPath:
    """A collection's get-by-id path and the lists under it (their keys and paths)."""

    path: str
    children: tuple[tuple[str, str], ...] = ()


def _get_path(source: str) -> str | None:
    """The path of a tool that came from `GET <path>` of an OpenAPI document."""
    _, _, operation = source.partition("#")
    method, _, path = operation.partition(" ")
    return path if method.upper() == "GET" and path.startswith("/") else None


def own_paths(spec: ServiceSpec) -> dict[str, OwnPath]:
    """Each collection's get-by-id path (the first read tool of the collection whose path
    ends in one parameter), with the lists one segment under it."""
    gets = [(tool.resource, path) for tool in spec.tools
            if tool.effect == "read" and (path := _get_path(tool.source)) is not None]
    out: dict[str, OwnPath] = {}
    for resource, path in gets:
        match = _BY_ID.search(path)
        if resource is None or resource in out or match is None:
            continue
        stem = path[:match.start()] + path[match.start():].removesuffix(match.group(1) or "")
        children, shape = [], _shape(stem)
        for _, other in gets:  # (its parameter may be named otherwise there: `{AccountSid}`)
            child = _CHILD.fullmatch(_shape(other)[len(shape):]) if _shape(other).startswith(
                shape + "/") else None
            if child is not None:
                children.append(("_".join(split_words(child.group(1))), other))
        out[resource] = OwnPath(path, tuple(dict.fromkeys(children)))
    return out


def _shape(path: str) -> str:
    return _PARAM.sub("{}", path)


def _fill(path: str, record: dict[str, Any], id_key: str) -> str | None:
    """`path` with its parameters from the record: the last one its id, the others its
    fields of the same words (`{AccountSid}` <- `account_sid`); None where one is missing."""
    names = _PARAM.findall(path)
    by_words = {tuple(split_words(key)): value for key, value in record.items()
                if isinstance(value, str | int) and not isinstance(value, bool)}
    values = {}
    for index, name in enumerate(names):
        value = record.get(id_key) if index == len(names) - 1 else by_words.get(
            tuple(split_words(name)))
        if value is None:
            return None
        values[name] = str(value)
    return _PARAM.sub(lambda m: values[m.group(1)], path)


def path_rule(own: OwnPath | None, props: dict[str, Any], required: frozenset[str], id_key: str,
              checks: dict[str, Callable[[Any], bool]]
              ) -> Callable[[dict[str, Any]], None] | None:
    """A rule that writes a record's `uri` (and `subresource_uris`) as its API paths, or
    leaves out an optional `uri` where the record has none; None when it has no such
    fields. `checks` say whether the record's schema takes a value, by key."""
    subs = props.get(SUBRESOURCES_KEY)
    wants_subs = isinstance(subs, dict) and own is not None and bool(own.children)
    if URI_KEY not in props and not wants_subs:
        return None

    def rule(record: dict[str, Any]) -> None:
        path = _fill(own.path, record, id_key) if own is not None else None
        if URI_KEY in props:
            if path is not None and checks[URI_KEY](path):
                record[URI_KEY] = path
            elif URI_KEY not in required:
                record.pop(URI_KEY, None)
        if wants_subs and isinstance(record.get(SUBRESOURCES_KEY), dict):
            found = {key: _fill(child, record, id_key) for key, child in own.children}
            found = {key: value for key, value in found.items() if value is not None}
            if found and checks[SUBRESOURCES_KEY](found):
                record[SUBRESOURCES_KEY] = found

    return rule

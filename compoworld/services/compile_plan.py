"""One tool's REST plan, read from its method, path, parameters and record schema.

`plan_tool(tool, resources)` returns a `RestPlan` (rest.py runs it) or raises
`CompileRefusal(code, reason)`. The rules, in the order they apply:

- Operation: effect `read` -> `get` when the path ends in a parameter, else `list`;
  `create` / `update` / `delete` as they are (update and delete need a key). A trailing
  one-word custom method maps to its verb: `search list query find filter browse` ->
  list, `get fetch retrieve read show view describe lookup` -> get, create / update /
  delete verbs (paths.py) -> themselves. Other custom methods, effect `action` and RPC
  paths are refused.
- Path keys: of the parameters after a collection segment, the one that names it (`id`,
  `contactId`, `contact_id`, `contact`, `contact_key`, ...) else the last. It is looked
  up by the id, or by the field it names when it names one (`issue_number` -> `number`,
  `username`), or - when it is a string and the id an integer - by the first of `name
  slug login username key handle code full_name` the record has. Other path parameters
  (`{owner}`, `/{tenant}/...`) only scope the URL and are ignored.
- Parents: every keyed collection before the last; the child's link field is an existing
  `contact_id` / `contactId` / `contact` property, else `contact_id`.
- References: other arguments whose semantic type (`ToolSpec.param_types`) is the id of
  another collection with a schema (`company_id` -> companies) must name a record (404).
- Record fields: arguments named like a record field (also `body_<field>`, any naming
  style), except path parameters, link fields and - for update - the id field.
- List parameters, by snake_case name, first match wins: page size `limit per_page
  page_size max_results max_items top size max count first page_limit num_results
  max_records`; offset `offset skip start start_index`; page number `page page_number
  page_index page_no` (1-based unless its schema's minimum or default is 0); cursor
  `cursor page_token next_page_token next_token continuation_token marker starting_after
  after start_cursor page_cursor continuation`. Then a record field -> equality (`eq`), a
  plural (`ids`, `statuses`) or array parameter -> membership (`in`), a name-like string
  field (`name`, `*_title`, `subject`, `description`, ...) -> substring (`contains`); else
  `q query search filter keyword keywords term search_term search_query text
  search_text` -> substring over all string fields (`search`). Others are ignored.
- Create fill: required record fields the tool has no argument for get a valid value
  (rest_shapes.filler: the server sets them); a required field it does take gets the
  argument's `default` when the caller leaves it out, else stays missing (422). Fields a
  server sets (created.server_fields: created/updated stamps of now, a fresh status,
  counters at zero) are filled when the call leaves them out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from compoworld.graph.semtypes import (
    KEY_WORDS,
    entity_id_type,
    json_type,
    singularize,
    snake_case,
    split_words,
)
from compoworld.services.created import envelope_extras, server_fields
from compoworld.services.rest import Key, RestPlan
from compoworld.services.rest_list import Filter, Paging
from compoworld.services.rest_shapes import (
    UNFILLABLE,
    filler,
    list_shape,
    looks_like_record,
    record_shape,
    required_fillers,
)
from compoworld.specs.infra import is_infrastructure
from compoworld.specs.paths import CREATE_VERBS, DELETE_VERBS, UPDATE_VERBS, PathShape, analyze_path
from compoworld.specs.records import ToolSpec

_LIST_VERBS = frozenset({"search", "list", "query", "find", "filter", "browse"})
_GET_VERBS = frozenset({"get", "fetch", "retrieve", "read", "show", "view", "describe",
                        "lookup"})
_LIMIT = frozenset({"limit", "per_page", "page_size", "max_results", "max_items", "top",
                    "size", "max", "count", "first", "page_limit", "num_results",
                    "max_records"})
_OFFSET = frozenset({"offset", "skip", "start", "start_index"})
_PAGE = frozenset({"page", "page_number", "page_index", "page_no"})
_CURSOR = frozenset({"cursor", "page_token", "next_page_token", "next_token",
                     "continuation_token", "marker", "starting_after", "after",
                     "start_cursor", "page_cursor", "continuation"})
_SEARCH = frozenset({"q", "query", "search", "filter", "keyword", "keywords", "term",
                     "search_term", "search_query", "text", "search_text"})
_NAME_WORDS = frozenset({"name", "title", "subject", "label", "summary", "description",
                         "text", "body", "note", "notes", "comment", "message", "content",
                         "headline", "caption"})
_NATURAL_KEYS = ("name", "slug", "login", "username", "key", "handle", "code", "full_name")
_PARAM = re.compile(r"\{([^}]*)\}")


class CompileRefusal(Exception):
    """Why a tool is not compiled: a short `code` and a plain-sentence `reason`."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def plan_tool(tool: ToolSpec, resources: dict[str, dict[str, Any]]) -> RestPlan:
    """The REST plan of one tool; `CompileRefusal` when there is none."""
    head, _, where = tool.source.partition("#")
    method, _, path = where.partition(" ")
    if not head.startswith("openapi:") or not path.startswith("/"):
        raise CompileRefusal("not_http", "not an HTTP operation: its source names no method "
                             "and path")
    shape = analyze_path(path)
    operation = _operation(tool, method, shape)
    collection = tool.resource
    if not collection:
        raise CompileRefusal("no_resource", f"{method} {path} names no entity collection")
    record = resources.get(collection)
    if record is None:
        raise CompileRefusal("no_record_schema", f"collection `{collection}` has no record "
                             "schema (no read-by-id or create result with properties)")
    if len(set(shape.nouns)) != len(shape.nouns):
        raise CompileRefusal("repeated_collection", f"a collection repeats in {path}")
    props = tool.parameters.get("properties") or {}
    path_params = [p.strip("+*") for p in _PARAM.findall(path.split("?", 1)[0])]
    owned: dict[str, list[str]] = {}
    for name in path_params:
        if name in shape.param_owner:
            owned.setdefault(shape.param_owner[name], []).append(name)
    parents = tuple(_parent(noun, owned[noun], resources, record, props)
                    for noun in shape.nouns[:-1] if owned.get(noun))
    key = None
    if shape.ends_with_param:
        key = _key(collection, owned.get(collection, []), record, props, checked=True)
    elif operation in ("get", "update", "delete"):
        raise CompileRefusal("no_id", f"{method} {path} names no single {collection} record")
    id_field = record.get("x-id-field", "id")
    links = {p.link for p in parents}
    skip = (links | {id_field}) if operation == "update" else links
    fields = _record_fields(props, record, set(path_params), skip)
    plan = RestPlan(operation, collection, id_field, key=key, parents=parents, fields=fields,
                    refs=_references(tool, resources, set(path_params)))
    if operation == "list":
        listing = list_shape(tool.returns, collection)
        if listing is None:
            raise CompileRefusal("not_a_list", f"GET {path} on a collection returns no list")
        inner = tool.returns["properties"][listing.within] if listing.within else tool.returns
        listing = replace(listing, extras=envelope_extras(listing.extras, inner, operation,
                                                          collection),
                          outer=envelope_extras(listing.outer, tool.returns, operation,
                                                collection))
        filters, paging = _list_params(props, record, set(path_params))
        return replace(plan, listing=listing, filters=filters, paging=paging)
    shape = record_shape(tool.returns, record)
    plan = replace(plan, record=replace(shape, extras=envelope_extras(
        shape.extras, tool.returns, operation, collection)))
    if operation == "create":
        return replace(plan, fill=_fill(record, props, fields, links, key, collection))
    if operation == "delete" and not (looks_like_record(tool.returns, record)
                                      or plan.record.wrap or plan.record.as_list):
        return replace(plan, deleted=required_fillers(tool.returns, {"deleted", "id"}))
    return plan


def _operation(tool: ToolSpec, method: str, shape: PathShape) -> str:
    if shape.rpc:
        raise CompileRefusal("rpc", "RPC-style operation (`Action=` / `X-Amz-Target`): no "
                             "REST path to derive its effect on state from")
    if tool.effect == "action":
        verb = " ".join(shape.action) or method.lower()
        raise CompileRefusal("action", f"custom action `{verb}`: its effect on state cannot "
                             "be derived")
    ends = shape.ends_with_param
    if shape.action:
        verb = shape.action[0] if len(shape.action) == 1 else ""
        for verbs, operation, wants_key in ((_LIST_VERBS, "list", False),
                                            (_GET_VERBS, "get", True),
                                            (CREATE_VERBS, "create", False),
                                            (UPDATE_VERBS, "update", True),
                                            (DELETE_VERBS, "delete", True)):
            if verb in verbs and ends == wants_key:
                return operation
        raise CompileRefusal("custom_method", f"custom method `{'_'.join(shape.action)}` is "
                             "not a plain REST verb")
    if tool.effect == "read":
        return "get" if ends else "list"
    return tool.effect


def _singular_words(noun: str) -> list[str]:
    words = split_words(noun)
    return [*words[:-1], singularize(words[-1])] if words else words


def names_collection(param: str, noun: str) -> bool:
    """`id`, `contactId`, `contact_id`, `contact`, `contact_key`... name `contacts`."""
    words, single = split_words(param), _singular_words(noun)
    return bool(words and single) and (
        words == ["id"] or words == single
        or (words[:-1] == single and words[-1] in KEY_WORDS)
        or (len(words) == 2 and words[0] == single[-1] and words[1] in KEY_WORDS)
    )


def _scalar(schema: Any) -> str:
    return json_type(schema) if isinstance(schema, dict) else "string"


def _field_named(param: str, noun: str, record: dict[str, Any]) -> str | None:
    """The non-id record field a key parameter names (`issue_number` -> `number`)."""
    props = record.get("properties") or {}
    by_snake = {snake_case(p): p for p in props}
    words, single = split_words(param), _singular_words(noun)
    rest = words[len(single):] if words[:len(single)] == single else words
    for candidate in ("_".join(rest), "_".join(words)):
        field = by_snake.get(candidate)
        if field and field != record.get("x-id-field", "id") and _scalar(props[field]) in (
                "string", "integer", "number"):
            return field
    return None


def _key(noun: str, params: list[str], record: dict[str, Any] | None,
         props: dict[str, Any], *, checked: bool) -> Key:
    if not params:
        raise CompileRefusal("no_id", f"no path parameter names a {noun} record")
    named = [p for p in params if names_collection(p, noun)]
    param = named[0] if named else params[-1]
    if param not in props:
        raise CompileRefusal("undeclared_param", f"path parameter `{param}` is not declared")
    if record is None:
        return Key(noun, param, "id", None, checked)
    id_field = record.get("x-id-field", "id")
    fields = record.get("properties") or {}
    field = None
    if not named or split_words(param)[-1] not in KEY_WORDS:
        field = _field_named(param, noun, record)
    if field is None and _scalar(props[param]) == "string" and \
            _scalar(fields.get(id_field, {})) == "integer":
        field = next((f for f in _NATURAL_KEYS if f in fields
                      and _scalar(fields[f]) == "string"), None)
    return Key(noun, param, id_field, field, checked)


def _parent(noun: str, params: list[str], resources: dict[str, dict[str, Any]],
            child: dict[str, Any], props: dict[str, Any]) -> Key:
    parent = resources.get(noun)
    key = _key(noun, params, parent, props, checked=parent is not None)
    link, link_type = _link_field(noun, child)
    return replace(key, link=link, link_type=link_type)


def _link_field(noun: str, child: dict[str, Any]) -> tuple[str, str]:
    """The child's field for a parent's id: an existing one, else `<parent>_id`."""
    props = child.get("properties") or {}
    single = "_".join(_singular_words(noun))
    by_snake = {snake_case(p): p for p in props}
    for candidate in (f"{single}_id", single, *(f"{single}_{w}" for w in KEY_WORDS[1:])):
        field = by_snake.get(candidate)
        if field and isinstance(props[field], dict):
            kind = json_type(props[field])
            if kind in ("string", "integer"):
                return field, kind if "type" in props[field] else ""
    return f"{single}_id", ""


def _references(tool: ToolSpec, resources: dict[str, dict[str, Any]],
                path_params: set[str]) -> tuple[tuple[str, str], ...]:
    """(argument, collection) for arguments typed as ids of another known collection."""
    collections = {entity_id_type(tool.service, c): c for c in resources}
    return tuple(
        (param, collections[kind]) for param, kind in tool.param_types.items()
        if param not in path_params and collections.get(kind) not in (None, tool.resource)
        and param in (tool.parameters.get("properties") or {})
    )


def _record_fields(props: dict[str, Any], record: dict[str, Any], path_params: set[str],
                   skip: set[str]) -> tuple[tuple[str, str], ...]:
    """(argument, record field) for the arguments that are fields of the record."""
    fields = record.get("properties") or {}
    by_snake = {snake_case(f): f for f in fields}
    out = []
    for arg in props:
        if arg in path_params:
            continue
        name = arg
        while name not in fields and name.startswith(("body_", "query_")):
            name = name.split("_", 1)[1]
        field = name if name in fields else by_snake.get(snake_case(name))
        if field and field not in skip:
            out.append((arg, field))
    return tuple(out)


def _list_params(props: dict[str, Any], record: dict[str, Any],
                 path_params: set[str]) -> tuple[tuple[Filter, ...], Paging]:
    fields = record.get("properties") or {}
    by_snake = {snake_case(f): f for f in fields}
    roles: dict[str, str] = {}
    filters = []
    for param, schema in props.items():
        if param in path_params:
            continue
        schema = schema if isinstance(schema, dict) else {}
        snake, kind = snake_case(param), json_type(schema)
        role = next((r for r, names in (("limit", _LIMIT), ("offset", _OFFSET),
                                        ("page", _PAGE), ("cursor", _CURSOR))
                     if snake in names), None)
        numeric = kind in ("integer", "number") or (
            kind == "string" and not schema.get("format") and not schema.get("enum"))
        if role and role not in roles and (role == "cursor" or numeric):
            roles[role] = param
            continue
        if is_infrastructure(param, schema):
            continue  # `format=json` names no record field to filter on
        field = by_snake.get(snake) or by_snake.get(singularize(snake)) or (
            by_snake.get(f"{snake}fk") if snake.endswith("_id") else None)  # (Avaza's
        # `ProjectID` filters on its sections' `ProjectIDFK`: a project's sections, not all)
        if field is None:
            if snake in _SEARCH and kind == "string":
                filters.append(Filter(param, "", "search"))
        elif kind == "array" or field != by_snake.get(snake):
            filters.append(Filter(param, field, "in"))
        elif _scalar(fields[field]) == "string" and split_words(field)[-1:] and \
                split_words(field)[-1] in _NAME_WORDS:
            filters.append(Filter(param, field, "contains"))
        else:
            filters.append(Filter(param, field, "eq"))
    page = props.get(roles.get("page", ""), {})
    zero_based = isinstance(page, dict) and 0 in (page.get("minimum"), page.get("default"))
    limit = props.get(roles.get("limit", ""), {})
    default = limit.get("default") if isinstance(limit, dict) else None
    paging = Paging(
        limit=roles.get("limit"),
        default_limit=default if type(default) is int and default > 0 else None,
        offset=roles.get("offset"), page=roles.get("page"),
        page_base=0 if zero_based else 1, cursor=roles.get("cursor"),
    )
    return tuple(filters), paging


def _fill(record: dict[str, Any], props: dict[str, Any], fields: tuple[tuple[str, str], ...],
          links: set[str], key: Key | None, collection: str) -> tuple[tuple[str, Any], ...]:
    """(field, value) for record fields a create call may leave unset: required ones, and
    what a server sets (created.server_fields: stamps of now, a fresh status, counters)."""
    schemas = record.get("properties") or {}
    given = {field: arg for arg, field in fields}
    skip = {record.get("x-id-field", "id"), *links, *([key.field] if key and key.field else [])}
    server = {f: v for f, v in server_fields(record, collection, set()) if f not in skip}
    out = []
    for field in record.get("required") or ():
        if field in skip or field not in schemas:
            continue
        if field in given:
            arg_schema = props.get(given[field])
            if isinstance(arg_schema, dict) and "default" in arg_schema:
                out.append((field, arg_schema["default"]))
                server.pop(field, None)
            continue
        value = server.pop(field) if field in server else filler(schemas[field])
        if value is UNFILLABLE:
            raise CompileRefusal("unfillable_field", f"record field `{field}` is required, "
                                 "no argument supplies it and no valid value is known")
        out.append((field, value))
    return (*out, *server.items())

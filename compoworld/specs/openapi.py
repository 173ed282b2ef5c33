"""Load one OpenAPI 3.0/3.1 document into a ServiceSpec: one ToolSpec per operation.

- parameters: path, query and body merged into one JSON Schema object; header and cookie
  parameters are dropped, and so are Google's standard query parameters (`alt`,
  `fields`, `quotaUser`, ...) in operations that carry `$.xgafv`; path-level parameters
  apply to every operation, op-level ones override them by (name, in). A JSON (else the
  first) request body that is an object with properties is merged at the top level (its
  read-only properties skipped, its required properties required even when the body is
  not marked required; a name already taken by a path/query parameter gets `body_`); an
  empty object body adds nothing; any other body is one `body` property.
- returns: the schema of the first response with content among 200, 201, other 2xx (in
  code order), `2XX`, `default`; `{}` when none.
- schemas go through `SchemaResolver` (refs.py). If the parameters or the result of one
  tool serializes to more than 24,000 characters, it is resolved again one nesting level
  shallower, down to top-level properties only, and as a last resort cut to top-level
  names and types (`x-truncated`), so no tool carries more than ~48 KB.
- names: `<service>__<operationId snake_cased, cut to 60 characters keeping its first and
  last words>`, or a verb_object
  name from method and path (paths.py) when there is no operationId; duplicates within a
  service get `_2`, `_3`, ... in document order (names that occur once are never renamed).
- effect and resource: paths.py. Records of each collection: the result of the first
  read-by-id operation of that collection, else of the first create (fields.py).
"""

from __future__ import annotations

import json
import pickle
from collections import Counter
from typing import Any

from compoworld.specs.categories import corpus_category
from compoworld.specs.errors import SpecLoadError, one_line_reasons
from compoworld.specs.fields import param_types, record_schema, return_types
from compoworld.specs.infra import relax_infrastructure
from compoworld.specs.limits import NO_DEADLINE, Deadline
from compoworld.specs.paths import analyze_path, default_tool_name, infer_effect
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.specs.refs import SchemaResolver, is_object_schema
from compoworld.specs.resources import bare_envelope, derive_resources, unwrap_record
from compoworld.specs.text import TOOL_NAME_RE, clean_text, join_text, service_name, snake_words

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_DEPTH = 4
SCHEMA_CHARS = 24_000
PARAM_DESCRIPTION_CHARS = 300
# Google's standard query parameters (format, auth, tracing): transport, not arguments.
GOOGLE_SYSTEM_PARAMS = frozenset({
    "$.xgafv", "access_token", "alt", "callback", "fields", "key", "oauth_token",
    "prettyPrint", "quotaUser", "upload_protocol", "uploadType",
})


@one_line_reasons
def load_openapi(document: dict, doc_id: str, *,
                 deadline: Deadline = NO_DEADLINE) -> ServiceSpec:
    """Turn one OpenAPI 3 document into a ServiceSpec; SpecLoadError if it is unusable.

    Every failure, expected or not, comes out as a SpecLoadError with a one-line reason,
    so one messy document never stops a flow; so does running past `deadline`.
    """
    return _load(document, doc_id, deadline)


def _load(document: Any, doc_id: str, deadline: Deadline) -> ServiceSpec:
    if not isinstance(document, dict):
        raise SpecLoadError(f"document is a {type(document).__name__}, not an object")
    if "openapi" not in document:
        if "swagger" in document:
            raise SpecLoadError("Swagger 2.0 is not supported; convert to OpenAPI 3")
        raise SpecLoadError("no `openapi` key: not an OpenAPI 3 document")
    if not str(document["openapi"]).startswith("3"):
        raise SpecLoadError(f"unsupported OpenAPI version {str(document['openapi'])[:20]!r}")
    paths = document.get("paths")
    if not isinstance(paths, dict) or not paths:
        raise SpecLoadError("no operations: `paths` is empty or missing")
    info = document.get("info") if isinstance(document.get("info"), dict) else {}
    service = service_name(doc_id)
    resolver = SchemaResolver(document, deadline)
    drafts: list[dict[str, Any]] = []
    for path, item in paths.items():
        item = resolver.deref(item)
        if not isinstance(path, str) or not isinstance(item, dict):
            continue
        for method, op in item.items():
            if str(method).lower() in METHODS and isinstance(op, dict):
                deadline.check()
                drafts.append(
                    _draft(resolver, service, doc_id, path, str(method).lower(), op, item,
                           api_version=_version(info))
                )
    if not drafts:
        raise SpecLoadError("no operations under `paths`")
    read_by_id = [d.pop("read_by_id") for d in drafts]
    parts = _dedupe([d.pop("base") for d in drafts])
    tools = [ToolSpec(name=f"{service}__{part}", **d) for part, d in zip(parts, drafts,
                                                                         strict=True)]
    bad = next((t.name for t in tools if not TOOL_NAME_RE.match(t.name)), None)
    if bad:
        raise SpecLoadError(f"generated an invalid tool name {bad!r}")
    domain = corpus_category(doc_id, info.get("x-apisguru-categories"))
    title = clean_text(info.get("title"), 200) or doc_id
    return ServiceSpec(
        name=service,
        title=title,
        description=clean_text(info.get("description")) or title,
        domain=snake_words(str(domain), 40) or "other",
        source=f"openapi:{doc_id}",
        resources=_with_derived(tools, _resources(tools, read_by_id)),
        tools=tools,
    )


def _version(info: dict[str, Any]) -> str | None:
    version = info.get("version")
    return str(version) if isinstance(version, str | int | float) else None


def _draft(resolver: SchemaResolver, service: str, doc_id: str, path: str, method: str,
           op: dict[str, Any], item: dict[str, Any], *, api_version: str | None = None
           ) -> dict[str, Any]:
    """Everything of one tool except its final (deduplicated) name. Infrastructure
    parameters (auth keys, api versions, formats, paging: specs/infra.py) are optional with
    a default: the environment fills them, they are never task facts."""
    shape = analyze_path(path)
    op_id = op.get("operationId")
    effect = infer_effect(method, path, op_id if isinstance(op_id, str) else None)
    resource = shape.nouns[-1] if shape.nouns else None
    base = snake_words(op_id) if isinstance(op_id, str) else ""
    base = base or snake_words(default_tool_name(method, path)) or method
    parameters = relax_infrastructure(
        _shrink(resolver, lambda depth: _parameters(resolver, op, item, depth)),
        api_version=api_version)
    returns = _shrink(resolver, lambda depth: _returns(resolver, op, depth))
    return {
        "base": base,
        "service": service,
        "description": join_text(op.get("summary"), op.get("description"))
        or f"{method.upper()} {path}",
        "parameters": parameters,
        "returns": returns,
        "effect": effect,
        "resource": resource,
        "source": f"openapi:{doc_id}#{method.upper()} {path}",
        "param_types": param_types(parameters, service=service, resource=resource,
                                   owners=shape.param_owner),
        "return_types": return_types(returns, service=service, resource=resource),
        "read_by_id": effect == "read" and shape.ends_with_param and not shape.action,
    }


def _shrink(resolver: SchemaResolver, build: Any) -> dict[str, Any]:
    """Build at the full depth; retry shallower while the result is too large.

    The result is a fresh copy (resolved schemas share sub-dicts between tools): a tool
    owns its schemas. pickle copies ten times faster than a JSON round trip; values are
    JSON-safe already (refs.json_safe).
    """
    for depth in range(MAX_DEPTH, -1, -1):
        schema = build(depth)
        if resolver.size(schema) <= SCHEMA_CHARS:
            break
    else:
        schema = _bare(schema)
    return pickle.loads(pickle.dumps(schema, protocol=pickle.HIGHEST_PROTOCOL))


def _parameters(resolver: SchemaResolver, op: dict[str, Any], item: dict[str, Any],
                depth: int) -> dict[str, Any]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for raw in [*_as_list(item.get("parameters")), *_as_list(op.get("parameters"))]:
        param = resolver.deref(raw)
        if isinstance(param, dict) and isinstance(param.get("name"), str):
            merged[(param["name"], str(param.get("in")))] = param
    google = ("$.xgafv", "query") in merged
    props: dict[str, Any] = {}
    required: list[str] = []
    for (name, where), param in merged.items():
        if where not in ("path", "query"):
            continue  # header-less: headers and cookies are the transport's business
        if google and name in GOOGLE_SYSTEM_PARAMS and param.get("required") is not True:
            continue
        schema = param.get("schema")
        if schema is None:
            schema = _media_schema(param.get("content"))
        prop = dict(resolver.resolve(schema, depth - 1))
        text = clean_text(param.get("description"), PARAM_DESCRIPTION_CHARS)
        if text:
            prop["description"] = text
        key = _free(props, name, where)
        props[key] = prop
        if where == "path" or param.get("required") is True:
            required.append(key)
    body = resolver.deref(op.get("requestBody"))
    content = body.get("content") if isinstance(body, dict) else None
    schema = _media_schema(content)
    if schema is not None:
        _add_body(props, required, resolver.resolve(schema, depth), body.get("required") is True)
    return {"type": "object", "properties": props, "required": list(dict.fromkeys(required))}


def _add_body(props: dict[str, Any], required: list[str], body: dict[str, Any],
              body_required: bool) -> None:
    """Merge an object body's properties at the top level, else add it as `body`."""
    fields = body.get("properties")
    if is_object_schema(body) and isinstance(fields, dict) and fields:
        needed = set(body.get("required") or [])
        for name, prop in fields.items():
            if isinstance(prop, dict) and prop.get("readOnly") is True:
                continue  # the server sets it; a caller cannot
            key = _free(props, name, "body")
            props[key] = prop
            if name in needed:
                required.append(key)
    elif is_object_schema(body) and not fields and not body.get("additionalProperties"):
        return  # an empty object body (Stripe sends one on every GET) takes no argument
    else:
        key = _free(props, "body", "request")
        props[key] = body
        if body_required:
            required.append(key)


def _returns(resolver: SchemaResolver, op: dict[str, Any], depth: int) -> dict[str, Any]:
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return {}
    codes = [str(c) for c in responses]
    ordered = [c for c in ("200", "201") if c in codes]
    ordered += sorted(c for c in codes if c.startswith("2") and c[1:].isdigit()
                      and c not in ordered)
    ordered += [c for c in codes if c.upper() == "2XX"] + [c for c in codes if c == "default"]
    by_code = {str(c): r for c, r in responses.items()}
    for code in ordered:
        response = resolver.deref(by_code[code])
        if isinstance(response, dict):
            schema = _media_schema(response.get("content"))
            if schema is not None:
                return resolver.resolve(schema, depth)
    return {}


def _media_schema(content: Any) -> Any:
    """The schema of `application/json`, else of any `*json*` type, else of the first."""
    if not isinstance(content, dict) or not content:
        return None
    types = [str(t) for t in content]
    chosen = next((t for t in types if t.split(";")[0].strip() == "application/json"), None)
    chosen = chosen or next((t for t in types if "json" in t.lower()), types[0])
    media = {str(t): m for t, m in content.items()}[chosen]
    return media.get("schema") if isinstance(media, dict) else None


def _free(props: dict[str, Any], name: str, prefix: str) -> str:
    """`name`, or `<prefix>_name` (repeated) when that is taken."""
    while name in props:
        name = f"{prefix}_{name}"
    return name


def _bare(schema: dict[str, Any]) -> dict[str, Any]:
    """Last resort for a schema still too large: top-level names and types only."""
    props = schema.get("properties")
    if isinstance(props, dict):
        out = {k: v for k, v in schema.items() if k in ("type", "required")}
        out["properties"] = {
            name: {"type": sub["type"]} if isinstance(sub, dict) and "type" in sub else {}
            for name, sub in props.items()
        }
        return {**out, "x-truncated": True}
    if isinstance(schema.get("items"), dict):
        return {"type": "array", "items": _bare(schema["items"])}
    return {"x-truncated": True}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dedupe(bases: list[str]) -> list[str]:
    """Names that occur once stay; repeats get `_2`, `_3`... not clashing with any name."""
    taken, counts, seen = set(bases), Counter(bases), set()
    out = []
    for base in bases:
        if counts[base] == 1 or base not in seen:
            seen.add(base)
            out.append(base)
            continue
        n = 2
        while f"{base}_{n}" in taken:
            n += 1
        taken.add(f"{base}_{n}")
        out.append(f"{base}_{n}")
    return out


def _with_derived(tools: list[ToolSpec], resources: dict[str, dict[str, Any]]
                  ) -> dict[str, dict[str, Any]]:
    return resources | derive_resources(tools, resources)


def _resources(tools: list[ToolSpec], read_by_id: list[bool]) -> dict[str, dict[str, Any]]:
    """Collection -> record schema from its read-by-id result, else its create result."""
    out: dict[str, dict[str, Any]] = {}
    for wanted in ("read", "create"):
        for tool, by_id in zip(tools, read_by_id, strict=True):
            if tool.resource is None or tool.resource in out or tool.effect != wanted:
                continue
            if wanted == "read" and not by_id:
                continue
            if bare_envelope(tool.returns):
                continue  # (its record's fields are for a list or a read to tell)
            record = record_schema(unwrap_record(tool.returns, tool.resource), tool.resource)
            if record is not None:
                out[tool.resource] = json.loads(json.dumps(record))
    return out

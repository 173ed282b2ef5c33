"""The deterministic compiler: REST semantics over a service's typed state (DESIGN.md).

`compile_service(spec, simulate)` gives each tool of an OpenAPI-derived service either a
`compiled` handler (real create / get / list / update / delete over `State`, rest.py) or,
when its semantics cannot be derived from method and path, `simulate(tool_spec)`
(`simulated`). `compile_report(spec)` says per tool which, the REST operation, and why
(`CompileDecision`): what the synthesize stage writes to `tools.implementation` and its
reason column; its `keys` name, per compiled tool, the parameters the handler resolves to
records and their collections (better than guessing from `param_types`, whose entity
names can differ from the path's collection names: `creditAccountId` vs `accounts`).
Planning is pure and cheap (Stripe's 452 tools: ~0.1 s), so the two may be called
separately.

How one tool is planned (operation, path keys, parents, fields, list parameters, create
fill) is compile_plan.py's docstring; how a call runs is rest.py's. Service-wide
decisions live here:

- New ids follow what the service says about them: an integer when the record's id field
  is an integer; a UUID when it or a path parameter that looks records up by id has
  format uuid; the `pattern` of either when a simple sample of it exists (`ZS` + 32 hex);
  a string of digits when those path parameters are integers; else `State.new_id`.
- A field some path parameter looks records up by (`/employees/{number}`) is a natural
  key: a create that repeats its value is a 409, and an integer one left out is the next
  free number.
- Sub-resource link fields the child's record schema lacks (`contact_id`) are added to
  the compiled service's record schemas, so `additionalProperties: false` still validates:
  the returned `Service.spec` is then a copy of `spec` with those `resources`.

Simulated tools carry one of these `CompileDecision.code`s: `not_http` (no method and
path in the source: function lists), `rpc` (`/#Action=`, `X-Amz-Target`), `action`
(effect `action`), `custom_method` (a trailing verb that is not a plain one-word REST
verb), `no_resource`, `no_record_schema` (the collection has no record schema),
`no_id` (update/delete/get of no single record), `repeated_collection`
(`/folders/{a}/folders/{b}`), `undeclared_param` (a path key missing from the
parameters), `not_a_list` (GET on a collection whose result is an object without an
array), `unfillable_field` (a create whose record needs a field nobody can supply),
`write_only` (a create/update/delete of a collection that no compiled tool reads back: an
action in disguise, like `POST /Destiny2/Actions/Items/EquipItem`).

Not derived, by design: a create whose arguments cannot make a valid record is still
compiled (its calls answer 422); verification finds it and falls back to simulation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from compoworld.graph.semtypes import entity_id_type, json_type
from compoworld.services.compile_plan import CompileRefusal, plan_tool
from compoworld.services.created import CreatedRecord
from compoworld.services.modeled import (
    ACTION_LOG,
    Respond,
    action_handler,
    create_plan,
    is_action,
    model_plan,
    record_refs,
    singleton_handler,
    singleton_shape,
    stateless_reason,
    status_change,
)
from compoworld.services.rest import RestPlan, build_handler
from compoworld.services.rest_shapes import RecordShape, pattern_sample
from compoworld.services.runtime import Implementation, Service, Tool
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.world.state import Handler, State

Simulate = Callable[[ToolSpec], Handler]


@dataclass(frozen=True, slots=True)
class CompileDecision:
    """How one tool is implemented and why."""

    implementation: Implementation  # compiled | modeled | simulated
    operation: str  # create | get | list | update | delete | action; "" when simulated
    code: str  # `compiled`, `modeled`, `modeled_action`, or the short key of why not
    reason: str  # one plain sentence
    keys: tuple[tuple[str, str], ...] = ()  # (parameter, collection) for every argument
    # the handler resolves to a record: path keys, parents, references


@dataclass(frozen=True, slots=True)
class Modeled:
    """A refused tool the stateful world model runs (modeled.py): a record operation
    re-planned as REST (`plan`), or an action over the records `refs` name."""

    refusal: CompileRefusal
    plan: RestPlan | None = None
    refs: tuple[tuple[str, str], ...] = ()
    status: tuple[str, str] | None = None
    singleton: RecordShape | None = None  # a read of the collection's one record


Plan = RestPlan | Modeled | CompileRefusal


def compile_service(spec: ServiceSpec, simulate: Simulate, respond: Respond | None = None
                    ) -> Service:
    """A runnable service: compiled REST tools over typed state, modeled tools (modeled.py)
    over the same state, the rest simulated (stateless) by `simulate`.

    Actions are modeled only with a `respond` (the world model's answer function); without
    one they are simulated. Its spec is `spec` with the link fields sub-resources store
    added to the record schemas (the same object when none is missing); its state is empty.
    """
    plans, key_schemas = _plan_service(spec)
    rest = [p.plan if isinstance(p, Modeled) else p for p in plans.values()]
    resources = _with_id_types(_with_links(spec.resources, rest),
                               _id_param_schemas(spec, key_schemas))
    if resources != spec.resources:
        spec = spec.model_copy(update={"resources": resources})
    tools = {}
    for tool in spec.tools:
        plan = plans[tool.name]
        if isinstance(plan, RestPlan):
            tools[tool.name] = Tool(tool, "compiled", build_handler(plan))
        elif isinstance(plan, Modeled) and plan.plan is not None:
            tools[tool.name] = Tool(tool, "modeled", build_handler(plan.plan))
        elif isinstance(plan, Modeled) and plan.singleton is not None:
            handler = singleton_handler(tool.resource or "", plan.singleton)
            tools[tool.name] = Tool(tool, "modeled", handler)
        elif isinstance(plan, Modeled) and respond is not None:
            handler = action_handler(tool, plan.refs, respond, plan.status,
                                     created_record(tool, resources))
            tools[tool.name] = Tool(tool, "modeled", handler)
        else:
            tools[tool.name] = Tool(tool, "simulated", simulate(tool))
    return Service(spec, tools, State(spec.resources))


def action_tool(spec: ServiceSpec, tool: ToolSpec, respond: Respond) -> Tool:
    """`tool` modeled as an action (modeled.py) over `spec`'s collections: what a write
    whose compiled semantics failed verification becomes, so it still leaves its mark."""
    handler = action_handler(tool, record_refs(tool, spec.resources), respond,
                             status_change(tool, spec.resources),
                             created_record(tool, spec.resources))
    return Tool(tool, "modeled", handler)


def created_record(tool: ToolSpec, resources: dict[str, dict[str, Any]]
                   ) -> CreatedRecord | None:
    """How a create modeled as an action stores and answers its record (created.py)."""
    plan = create_plan(tool, resources)
    if plan is None:
        return None
    kind, pattern = _id_kind(resources[plan.collection], [])
    return CreatedRecord(replace(plan, id_kind=kind, id_pattern=pattern), tool,
                         resources[plan.collection])


def compile_report(spec: ServiceSpec) -> dict[str, CompileDecision]:
    """Per tool name: compiled, modeled or simulated, the operation, and the reason."""
    out = {}
    tools = {t.name: t for t in spec.tools}
    for name, plan in _plan_service(spec)[0].items():
        if isinstance(plan, Modeled) and plan.plan is not None:
            rest = plan.plan
            keys = tuple((k.param, k.collection) for k in (*rest.parents, rest.key) if k)
            out[name] = CompileDecision(
                "modeled", rest.operation, "modeled",
                f"{_explain(rest)} (inferred from its name and schemas: {plan.refusal.reason})",
                keys + rest.refs)
        elif isinstance(plan, Modeled) and plan.singleton is not None:
            out[name] = CompileDecision(
                "modeled", "get", "modeled_singleton",
                f"get the one {tools[name].resource} record ({plan.refusal.reason})")
        elif isinstance(plan, Modeled):
            what = f"; sets {plan.status[0]} to {plan.status[1]!r}" if plan.status else ""
            out[name] = CompileDecision(
                "modeled", "action", "modeled_action",
                f"action: logs an event in `{ACTION_LOG}`{what} ({plan.refusal.reason})",
                plan.refs)
        elif isinstance(plan, RestPlan):
            keys = tuple((k.param, k.collection) for k in (*plan.parents, plan.key) if k)
            out[name] = CompileDecision("compiled", plan.operation, "compiled", _explain(plan),
                                        keys + plan.refs)
        else:
            out[name] = CompileDecision("simulated", "", plan.code,
                                        stateless_reason(tools[name], plan))
    return out


def _plan_service(spec: ServiceSpec
                  ) -> tuple[dict[str, Plan], dict[str, list[dict[str, Any]]]]:
    """Every tool's plan, and per collection the schemas of the parameters that look its
    records up by id."""
    plans: dict[str, Plan] = {}
    for tool in spec.tools:
        try:
            plans[tool.name] = plan_tool(tool, spec.resources)
        except CompileRefusal as refusal:
            inferred = model_plan(tool, spec.resources, refusal)
            single = None if inferred else singleton_shape(tool, spec.resources, refusal)
            plans[tool.name] = (Modeled(refusal, inferred) if inferred else
                                Modeled(refusal, singleton=single) if single else refusal)
    # A collection no tool reads back is not REST-shaped: its "create" is an action in
    # disguise (`POST /Actions/Items/EquipItem`, `POST /invocations`).
    readable = {p.collection for p in map(_rest, plans.values())
                if p is not None and p.operation in ("get", "list")}
    for name, plan in plans.items():
        rest = _rest(plan)
        if rest is not None and rest.collection not in readable:
            plans[name] = CompileRefusal(
                "write_only", f"no tool of the service reads `{rest.collection}` back, so "
                f"this {rest.operation} is likely an action")
    tools = {t.name: t for t in spec.tools}
    for name, plan in plans.items():
        if isinstance(plan, CompileRefusal) and is_action(tools[name]):
            plans[name] = Modeled(plan, None, record_refs(tools[name], spec.resources),
                                  status_change(tools[name], spec.resources))
    # What the path parameters say about each collection's ids and natural keys.
    key_schemas: dict[str, list[dict[str, Any]]] = {}
    natural: dict[str, dict[str, str]] = {}
    for tool in spec.tools:
        plan = _rest(plans[tool.name])
        if plan is None:
            continue
        props = tool.parameters.get("properties") or {}
        for key in (*plan.parents, *([plan.key] if plan.key else [])):
            if not key.checked:
                continue
            if key.field is None:
                if plan.operation != "create":  # a create's own key is the caller's id
                    key_schemas.setdefault(key.collection, []).append(props.get(key.param) or {})
            else:
                schema = spec.resources[key.collection]["properties"].get(key.field)
                kind = json_type(schema) if isinstance(schema, dict) else "string"
                natural.setdefault(key.collection, {})[key.field] = kind
    for name, found in plans.items():
        plan = _rest(found)
        if plan is not None and plan.operation == "create":
            kind, pattern = _id_kind(spec.resources[plan.collection],
                                     key_schemas.get(plan.collection, []))
            plan = replace(plan, id_kind=kind, id_pattern=pattern,
                           natural=tuple(natural.get(plan.collection, {}).items()))
            plans[name] = replace(found, plan=plan) if isinstance(found, Modeled) else plan
    return plans, key_schemas


def _rest(plan: Plan) -> RestPlan | None:
    """The REST plan a tool runs on (compiled, or modeled as a record operation)."""
    if isinstance(plan, Modeled):
        return plan.plan
    return plan if isinstance(plan, RestPlan) else None


def _id_kind(record: dict[str, Any], key_schemas: list[dict[str, Any]]) -> tuple[str, str]:
    """How new ids look: (`integer` | `uuid` | `pattern` | `digits` | `string`, pattern)."""
    schema = (record.get("properties") or {}).get(record.get("x-id-field", "id"), {})
    schema = schema if isinstance(schema, dict) else {}
    if "type" in schema and json_type(schema) in ("integer", "number"):
        return "integer", ""
    schemas = [schema, *(s for s in key_schemas if isinstance(s, dict))]
    if any(str(s.get("format", "")).lower() in ("uuid", "guid") for s in schemas):
        return "uuid", ""
    for candidate in schemas:
        pattern = candidate.get("pattern")
        if isinstance(pattern, str) and pattern_sample(pattern, 1) not in (
                None, pattern_sample(pattern, 2)):  # it must give many distinct ids
            return "pattern", pattern
    if any("type" in s and json_type(s) == "integer" for s in schemas[1:]):
        return "digits", ""
    return "string", ""


_ID_CONSTRAINTS = ("type", "format", "pattern", "minLength", "maxLength")


def _id_param_schemas(spec: ServiceSpec, key_schemas: dict[str, list[dict[str, Any]]]
                      ) -> dict[str, list[dict[str, Any]]]:
    """Per collection, the schemas of every parameter that takes one of its ids: the path
    keys the plans resolve, and any parameter typed as the collection's id."""
    out = {name: list(schemas) for name, schemas in key_schemas.items()}
    types = {entity_id_type(spec.name, c): c for c in spec.resources}
    for tool in spec.tools:
        props = tool.parameters.get("properties") or {}
        for param, kind in tool.param_types.items():
            if kind in types and isinstance(props.get(param), dict):
                out.setdefault(types[kind], []).append(props[param])
    return out


def _with_id_types(resources: dict[str, dict[str, Any]],
                   key_schemas: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Record schemas whose untyped id field (or a derived record's plain-string one) takes
    the type, format, pattern and length of the parameters that take its ids (`/media/{id}`
    with an integer `id`): seeded ids then fit the tools that take them, as new ids do."""
    out = dict(resources)
    for collection, schemas in key_schemas.items():
        record = out.get(collection)
        typed = [s for s in schemas if isinstance(s, dict) and "type" in s]
        if record is None or not typed:
            continue
        props = record.get("properties") or {}
        id_field = record.get("x-id-field", "id")
        own = props.get(id_field) if isinstance(props.get(id_field), dict) else {}
        if any(k in own for k in ("format", "pattern", "enum")) or json_type(own) != "string":
            continue
        wanted = _agreed(typed)
        integer = wanted.get("type") in ("integer", "number")
        if "type" in own and "x-derived" not in record and integer:
            # the service's own records say string ids, its tools integers: digit strings
            out[collection] = {**record, "properties": {**props, id_field: {
                **own, "x-digits": True}}}
            continue
        if wanted in ({}, {"type": "string"}):
            continue
        out[collection] = {**record, "properties": {**props, id_field: {**own, **wanted}}}
    return out


def _agreed(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    """The id constraints every schema that states one agrees on (a type all share; a
    format, pattern or length no other schema contradicts)."""
    out: dict[str, Any] = {}
    for key in _ID_CONSTRAINTS:
        values = [s[key] for s in schemas if key in s]
        if values and all(v == values[0] for v in values) and (
                key != "type" or len(values) == len(schemas)):
            out[key] = values[0]
    if out.get("type") != "string":  # string constraints only fit string ids
        out = {k: v for k, v in out.items() if k == "type"}
    return out


def _with_links(resources: dict[str, dict[str, Any]],
                plans: Any) -> dict[str, dict[str, Any]]:
    """Record schemas plus the link fields that compiled sub-resource tools store."""
    out = dict(resources)
    for plan in plans:
        if not isinstance(plan, RestPlan):
            continue
        for parent in plan.parents:
            schema = out[plan.collection]
            props = schema.get("properties") or {}
            if parent.link not in props:
                added = {"description": f"Id of the parent {parent.collection} record.",
                         "x-parent": parent.collection}
                # required, so every seeded child names its parent (and lists under a
                # parent find their records); creates set it from the path
                required = [*schema.get("required", []), parent.link]
                out[plan.collection] = {**schema, "properties": {**props, parent.link: added},
                                        "required": required}
    return out


def _explain(plan: RestPlan) -> str:
    """One sentence saying what a compiled tool does."""
    text = f"{plan.operation} {plan.collection}"
    if plan.key is not None:
        text += f" by {plan.key.param}" + (f" (= {plan.key.field})" if plan.key.field else "")
    if plan.parents:
        text += " under " + ", ".join(f"{p.collection} ({p.param})" for p in plan.parents)
    if plan.filters:
        text += "; filters: " + ", ".join(f"{f.param} ({f.mode})" for f in plan.filters)
    paging = [p for p in (plan.paging.limit, plan.paging.offset, plan.paging.page,
                          plan.paging.cursor) if p]
    if paging:
        text += "; paging: " + ", ".join(paging)
    return text

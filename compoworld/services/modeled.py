"""The stateful world model: tools the REST compiler cannot plan still work on typed state.

The compiler derives a tool's semantics from its HTTP method and path. Function lists and
MCP tools have neither, RPC APIs hide the verb in `Action=`, and many REST tools are custom
actions (`POST /invoices/{id}/send`). Such a tool is `modeled` when what it does to the
state can be inferred from its spec instead, in one of two ways:

- **A record operation.** Its effect (read/create/update/delete, from the verb of its name
  or operation), its collection (`tool.resource`, whose record schema `specs.resources`
  derives when the spec gives none) and, for get/update/delete, the parameter that names
  one record (typed as the collection's id, or named like it: `invoice_id`, `id`) are
  enough to re-plan it as REST: `GET /{collection}/{key}` etc. It then runs on the same
  engine as compiled tools (rest.py), so reads answer from stored records (or 404), a
  list applies its filters, and writes change records: a create is read back by any get.
- **An action** (send, trigger, approve, convert, a write with no record to change). It
  checks that the records its id arguments name exist (404 otherwise), appends an event
  record to the service's `action_log` collection (`{"id", "tool", "at", ...its
  arguments}`) and answers from the world model, which sees the records it touched. A
  rubric can then check that "an SMS was sent to +33... saying ...".

- **The one record** of a collection a read with no key returns (`GET /account`,
  `GET /status`): the first stored record, in the read's shape.

What stays stateless is a read with nothing to remember: a lookup or computation of
its arguments (convert, validate, quote, geocode, a report of no collection). Those keep
the `simulated` kind and the reason (`stateless_reason`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import entity_id_type, split_words
from compoworld.services.compile_plan import CompileRefusal, names_collection, plan_tool
from compoworld.services.created import CreatedRecord
from compoworld.services.rest import RestPlan, record_out
from compoworld.services.rest_shapes import RecordShape, looks_like_record, record_shape
from compoworld.specs.records import ToolSpec
from compoworld.world.clock import NOW_TEXT
from compoworld.world.state import Handler, NotFound, State

ACTION_LOG = "action_log"  # the collection every action of a service appends an event to
_METHODS = {"get": "GET", "list": "GET", "create": "POST", "update": "PATCH",
            "delete": "DELETE"}
# Refusals a record operation may still be inferred for (the others say the REST shape is
# there but the record is not: those become actions when they write).
_REPLAN = frozenset({"not_http", "rpc", "custom_method", "repeated_collection",
                     "undeclared_param", "no_id", "not_a_list"})
Respond = Callable[[ToolSpec, dict[str, Any], dict[str, Any] | None], Any]


def key_param(tool: ToolSpec, collection: str) -> str | None:
    """The parameter naming one record of `collection`: typed as its id, else named so."""
    wanted = entity_id_type(tool.service, collection)
    props = tool.parameters.get("properties") or {}
    typed = [p for p, t in tool.param_types.items() if t == wanted and p in props]
    if typed:
        return sorted(typed, key=lambda p: (split_words(p) != ["id"], p))[0]
    return next((p for p in props if names_collection(p, collection)), None)


def model_plan(tool: ToolSpec, resources: dict[str, dict[str, Any]],
               refusal: CompileRefusal) -> RestPlan | None:
    """The REST plan of a refused tool whose record operation can be inferred, else None."""
    collection = tool.resource
    if refusal.code not in _REPLAN or not collection or collection not in resources:
        return None
    if tool.effect == "action":
        return None
    key = key_param(tool, collection)
    operation = ("get" if key else "list") if tool.effect == "read" else tool.effect
    if operation in ("get", "list") and not _structured(tool.returns):
        return None  # a rendering (text, an image, a file's bytes), not a record
    if operation in ("update", "delete") and key is None:
        return None
    path = f"/{collection}" + (f"/{{{key}}}" if key and operation != "list" else "")
    pseudo = tool.model_copy(update={"source": f"openapi:modeled#{_METHODS[operation]} {path}"})
    try:
        plan = plan_tool(pseudo, resources)
    except CompileRefusal:
        return None
    return plan if plan.operation == operation else None


def create_plan(tool: ToolSpec, resources: dict[str, dict[str, Any]]) -> RestPlan | None:
    """How a create modeled as an action stores its record (`POST /{collection}`), or None
    when it names no collection with a record schema."""
    if tool.effect != "create" or not tool.resource or tool.resource not in resources:
        return None
    pseudo = tool.model_copy(update={"source": f"openapi:modeled#POST /{tool.resource}"})
    try:
        plan = plan_tool(pseudo, resources)
    except CompileRefusal:
        return None
    return plan if plan.operation == "create" else None


def _structured(returns: dict[str, Any]) -> bool:
    """Whether a result can hold records: unspecified, an object or an array."""
    meaningful = returns.keys() - {"description", "title", "x-truncated"}
    return not meaningful or returns.get("type", "object") in ("object", "array")


def singleton_shape(tool: ToolSpec, resources: dict[str, dict[str, Any]],
                    refusal: CompileRefusal) -> RecordShape | None:
    """How a read with no key returns the one record of its collection (`GET /account`,
    `GET /status`): its record shape when the result is that record, else None."""
    record = resources.get(tool.resource or "")
    if tool.effect != "read" or record is None or refusal.code not in ("not_a_list", "no_id"):
        return None
    if key_param(tool, tool.resource or "") or not _structured(tool.returns):
        return None
    shape = record_shape(tool.returns, record)
    if shape.wrap is None and not shape.as_list and not looks_like_record(tool.returns, record):
        return None
    return shape


def singleton_handler(collection: str, shape: RecordShape) -> Handler:
    """A read of the one (first) record of `collection`: a 404 while there is none."""
    out = record_out(shape)

    def handler(state: State, arguments: dict[str, Any]) -> Any:
        records = state.collections.get(collection) or {}
        if not records:
            raise NotFound(f"no {collection} record exists yet")
        return out(records[min(records)])

    return handler


def is_action(tool: ToolSpec) -> bool:
    """Whether a refused tool is modeled as an action (it writes: it has an effect)."""
    return tool.effect != "read"


def stateless_reason(tool: ToolSpec, refusal: CompileRefusal) -> str:
    """Why a refused read stays a pure function of its arguments (recorded with the tool)."""
    if not tool.resource:
        return f"stateless: {refusal.reason}; a lookup with no collection to read"
    return (f"stateless: {refusal.reason}; a lookup or computation over its arguments, "
            f"not a read of stored `{tool.resource}` records")


def record_refs(tool: ToolSpec, resources: dict[str, dict[str, Any]]
                ) -> tuple[tuple[str, str], ...]:
    """(argument, collection) for every argument typed as the id of a known collection."""
    collections = {entity_id_type(tool.service, c): c for c in resources}
    props = tool.parameters.get("properties") or {}
    return tuple(sorted((p, collections[t]) for p, t in tool.param_types.items()
                        if t in collections and p in props))


# The status an action leaves its own record in (`close_ticket` -> the ticket is closed).
_STATUS_AFTER = {"close": "closed", "cancel": "cancelled", "approve": "approved",
                 "archive": "archived", "void": "void", "reject": "rejected",
                 "complete": "completed", "publish": "published", "activate": "active",
                 "deactivate": "inactive", "resolve": "resolved", "lock": "locked",
                 "unlock": "unlocked", "pause": "paused", "resume": "active",
                 "suspend": "suspended", "send": "sent", "submit": "submitted",
                 "accept": "accepted", "decline": "declined", "confirm": "confirmed",
                 "enable": "enabled", "disable": "disabled", "finalize": "finalized",
                 "refund": "refunded", "pay": "paid", "ship": "shipped", "block": "blocked",
                 "unblock": "active", "verify": "verified", "start": "started",
                 "stop": "stopped", "open": "open", "reopen": "open"}
_STATUS_FIELDS = ("status", "state")


def status_change(tool: ToolSpec, resources: dict[str, dict[str, Any]]
                  ) -> tuple[str, str] | None:
    """(field, value) an action sets on the record of its own collection, when its verb
    names a status the record's schema allows (`cancel_event` -> `status: "cancelled"`)."""
    words = split_words(tool.name.split("__", 1)[-1])
    value = next((_STATUS_AFTER[w] for w in words[:2] if w in _STATUS_AFTER), None)
    record = resources.get(tool.resource or "")
    if value is None or record is None:
        return None
    props = record.get("properties") or {}
    for field in _STATUS_FIELDS:
        schema = props.get(field)
        if not isinstance(schema, dict) or schema.get("type", "string") != "string":
            continue
        enum = schema.get("enum")
        if enum is None or value in enum:
            return field, value
    return None


def action_handler(tool: ToolSpec, refs: tuple[tuple[str, str], ...], respond: Respond,
                   status: tuple[str, str] | None = None,
                   created: CreatedRecord | None = None) -> Handler:
    """An action's handler: check the records it names, log the event (and set the status
    of its own record when `status` says so; store the record a create makes, and answer
    with it, when `created` says how), answer."""
    short = tool.name.split("__", 1)[-1]
    own = next((p for p, c in refs if c == tool.resource), None) if status else None

    def handler(state: State, arguments: dict[str, Any]) -> Any:
        touched = {param: state.get(collection, arguments[param])
                   for param, collection in refs if param in arguments}  # 404 first
        answer = respond(tool, arguments, {"records": touched} if touched else None)
        if created is not None:  # what was sent and what the server sets, nothing drawn
            answer = created(state, arguments, answer)
        if own in touched and status is not None:
            state.put(tool.resource or "", {**touched[own], status[0]: status[1]})
        event = {"id": state.new_id(ACTION_LOG), "tool": short, "at": NOW_TEXT}
        event.update((k, v) for k, v in arguments.items() if k not in event)
        state.put(ACTION_LOG, event)
        return answer

    return handler

"""Service verification: generated conformance checks for every tool of a service.

Every check runs on a fresh copy of the service's seeded start state, so checks never
see each other's writes. Per tool:

- `accepts_valid_arguments`  arguments built from the schema (existing ids for id
                             parameters) succeed;
- `returns_valid`            the result validates against the tool's `returns` schema;
- `deterministic`            the same call on two fresh copies gives the same result and
                             the same state digest;
- `rejects_invalid_arguments` a missing required or wrongly typed argument is a 400;
- `unknown_id_404`           (tools with an id parameter, not simulated) an unknown id
                             is a 404;
- `rejection_keeps_state`    rejected calls leave the state digest unchanged;
- `read_is_pure`             (effect `read`) a successful read changes nothing;
- `write_changes_state`      (every other effect) a successful write or action changes the
                             state (a record, or an event in the action log).

Per collection, over its compiled and modeled tools (each tool involved gets the check):

- `create_then_get`          what create returned, get returns;
- `update_changes_named_fields`  update changes no field it was not given;
- `delete_then_get_404`      after delete, get is a 404;
- `list_reflects_writes`     list grows by one after create, shrinks by one after delete.

A tool passes when all its checks pass; the synthesize stage mounts only tools that pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compoworld.graph.semtypes import entity_id_type, is_entity_id, snake_case, split_words
from compoworld.services.runtime import Service
from compoworld.world.state import State, ToolError, compile_validator, diff, output_check

ValueFor = Callable[[dict[str, Any], random.Random, str], Any]
UNKNOWN_ID = "no-such-id-404"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check of one tool: passed or not, and a sentence saying what was seen."""

    tool: str
    check: str
    passed: bool
    detail: str = ""


def id_params(service: Service, tool: str) -> list[str]:
    """Parameters of `tool` that hold an id of one of the service's collections."""
    spec = service.tools[tool].spec
    ids = {entity_id_type(service.name, c): c for c in service.state.schemas}
    return [p for p, t in spec.param_types.items() if t in ids]


def _collection_of(service: Service, tool: str, param: str) -> str | None:
    wanted = service.tools[tool].spec.param_types.get(param)
    return next(
        (c for c in service.state.schemas if entity_id_type(service.name, c) == wanted), None
    )


def build_arguments(
    service: Service, state: State, tool: str, rng: random.Random, value_for: ValueFor,
    optional: bool = False,
) -> dict[str, Any]:
    """Valid-looking arguments: existing ids for id params, generated values for the
    required others (and for the optional ones too with `optional`).

    When the tool works on a child collection under a parent (`/contacts/{id}/notes/{n}`),
    the parent id is taken from the chosen child's link field (`x-parent`), so the pair
    belongs together.
    """
    spec = service.tools[tool].spec
    properties = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    arguments: dict[str, Any] = {}
    keys: dict[str, str] = {}
    for name in sorted(properties):
        collection = _collection_of(service, tool, name)
        if collection is not None and state.records(collection):
            keys[name] = collection
            arguments[name] = _typed_id(properties[name], sorted(state.records(collection))[0])
        elif name in required or (optional and collection is None):
            arguments[name] = value_for(properties[name], rng, name)
    child_param = next((p for p, c in keys.items() if c == spec.resource), None)
    child = None
    if child_param is not None:
        child = state.records(spec.resource)[str(arguments[child_param])]
    elif spec.resource and state.records(spec.resource):
        # a list or create under a parent: the parents of a record that exists, so the
        # list has something to show
        child = state.records(spec.resource)[sorted(state.records(spec.resource))[0]]
    if child is not None:
        fields = state.schemas.get(spec.resource, {}).get("properties", {})
        by_snake = {snake_case(f): f for f in fields}
        for param, collection in keys.items():
            link = next((f for f, s in fields.items() if s.get("x-parent") == collection),
                        None) or by_snake.get(snake_case(param))
            if param != child_param and link and child.get(link) is not None and \
                    str(child[link]) in state.records(collection):
                arguments[param] = _typed_id(properties[param], str(child[link]))
        # a read's parents with no collection of their own (`/applications/{ApplicationId}
        # /...`) and required filters: the chosen record's own values, so it is the one
        # named (a write keeps its drawn values: they are what it changes)
        stems = {_stem(f): f for f in fields}
        for param in sorted(required - set(keys)) if spec.effect == "read" else ():
            field = stems.get(_stem(param))
            value = child.get(field) if field else None
            if value is not None and _fits(value, properties.get(param)):
                arguments[param] = value
    return arguments


_ID_SUFFIXES = ("id", "identifier", "key", "code", "uuid")


def _stem(name: str) -> tuple[str, ...]:
    """A name's words without a trailing id word (`ApplicationIdentifier` and
    `application_id` are both `("application",)`)."""
    words = split_words(name)
    return tuple(words[:-1] if len(words) > 1 and words[-1] in _ID_SUFFIXES else words)


def _fits(value: Any, schema: Any) -> bool:
    try:
        compile_validator({"type": "object", "properties": {"v": schema or {}}})({"v": value})
    except ToolError:
        return False
    return True


def _unknown_id(
    schema: dict[str, Any], existing: dict[str, Any], rng: random.Random, value_for: ValueFor
) -> Any:
    """An id no record has, shaped like the parameter's schema (pattern, format, type)."""
    for _ in range(5):
        candidate = value_for(schema, rng, "id")
        if candidate is not None and str(candidate) not in existing:
            return candidate
    return 987654321 if schema.get("type") == "integer" else UNKNOWN_ID


def _typed_id(schema: dict[str, Any], record_id: str) -> Any:
    if schema.get("type") == "integer" and record_id.lstrip("-").isdigit():
        return int(record_id)
    return record_id


def _call(service: Service, start: State, tool: str, arguments: Any) -> tuple[dict, State]:
    """Call `tool` on a fresh copy of `start`; returns the result and the state after."""
    service.state = start.copy()
    return service.call(tool, arguments), service.state


def _invalid_arguments(schema: dict[str, Any], valid: dict[str, Any]) -> tuple[Any, str]:
    required = sorted(schema.get("required", []))
    if required:
        return {k: v for k, v in valid.items() if k != required[0]}, f"without {required[0]!r}"
    for name, prop in sorted(schema.get("properties", {}).items()):
        if prop.get("type") in ("string", "integer", "number", "boolean", "array"):
            wrong = {"unexpected": "object"} if prop["type"] != "object" else "text"
            return valid | {name: wrong}, f"with {name!r} of the wrong type"
    return ["not", "an", "object"], "with a list instead of an object"


def check_tool(
    service: Service, start: State, tool: str, seed: int, value_for: ValueFor
) -> list[CheckResult]:
    """The per-tool checks of one tool against the start state `start`."""
    spec = service.tools[tool].spec
    results: list[CheckResult] = []

    def record(check: str, passed: bool, detail: str = "") -> None:
        results.append(CheckResult(tool, check, bool(passed), detail[:500]))

    arguments = build_arguments(service, start, tool, random.Random(seed), value_for)
    first, after = _call(service, start, tool, arguments)
    record("accepts_valid_arguments", first["success"], "" if first["success"] else str(first))
    if first["success"]:
        problem = output_check(spec.returns)(first["data"])
        record("returns_valid", problem is None, problem or "")
        changed = diff(start, after)
        if spec.effect == "read":
            record("read_is_pure", not changed, f"changed {sorted(changed)}" if changed else "")
        else:  # a world agrees with itself: a write that "succeeds" leaves its mark
            marked = bool(changed) or _changes_with_more(service, start, tool, seed,
                                                         value_for)
            record("write_changes_state", marked,
                   "" if marked else f"a successful {spec.effect} changed nothing")
    second, again = _call(service, start, tool, arguments)
    same = second == first and again.digest() == after.digest()
    record("deterministic", same, "" if same else "two identical calls differed")

    digest = start.digest()
    bad, how = _invalid_arguments(spec.parameters, arguments)
    rejected, state = _call(service, start, tool, bad)
    code = None if rejected["success"] else rejected["error"]["code"]
    record("rejects_invalid_arguments", code == 400, f"call {how} gave {code or 'success'}")
    kept = state.digest() == digest
    rng = random.Random(seed)
    # A world model answers every well-formed call; only real handlers know unknown ids.
    keyed = id_params(service, tool) if service.tools[tool].implementation != "simulated" else []
    for param in keyed:
        existing = start.records(_collection_of(service, tool, param) or "")
        schema = spec.parameters["properties"][param]
        unknown = arguments | {param: _unknown_id(schema, existing, rng, value_for)}
        missing, state = _call(service, start, tool, unknown)
        code = None if missing["success"] else missing["error"]["code"]
        record("unknown_id_404", code == 404, f"unknown {param} gave {code or 'success'}")
        kept = kept and state.digest() == digest
    record("rejection_keeps_state", kept, "" if kept else "a rejected call changed the state")
    return results


def _changes_with_more(service: Service, start: State, tool: str, seed: int,
                       value_for: ValueFor) -> bool:
    """Whether the write changes the state once its optional fields are given too (an
    update called with only its key rightly changes nothing); three draws, since a drawn
    value may equal the stored one."""
    for attempt in range(3):
        rng = random.Random(seed + 7919 * (attempt + 1))
        arguments = build_arguments(service, start, tool, rng, value_for, optional=True)
        props = service.tools[tool].spec.parameters.get("properties") or {}
        for name in arguments:  # enums: another value each draw (a default repeats itself)
            enum = props.get(name, {}).get("enum") if isinstance(props.get(name), dict) else None
            if isinstance(enum, list) and enum:
                arguments[name] = enum[(attempt + 1) % len(enum)]
        result, after = _call(service, start, tool, arguments)
        if result["success"] and diff(start, after):
            return True
    return False


def _required(service: Service, tool: str) -> set[str]:
    return set(service.tools[tool].spec.parameters.get("required") or ())


def _id_param(service: Service, tool: str, collection: str) -> str | None:
    wanted = entity_id_type(service.name, collection)
    params = service.tools[tool].spec.param_types
    return next((p for p, t in sorted(params.items()) if t == wanted), None)


def _listing(service: Service, lister: str, listed: dict[str, Any],
             record: dict[str, Any]) -> dict[str, Any]:
    """The arguments of `lister` that list `record`: each parameter it requires given the
    record's value of the field of its name, or of the field its list answers with the same
    type (Avaza lists sections by `ProjectID`, which a section holds as `ProjectIDFK`).
    Matched by name alone, the list was of another project's sections, the deleted one
    seemed to stay, and the list and the delete of sections were both left out."""
    spec = service.tools[lister].spec
    out = dict(listed)
    for param in listed:
        kind = spec.param_types.get(param, "")
        if param in record:
            out[param] = record[param]
        elif is_entity_id(kind):
            field = next((path.rpartition("[].")[2] for path, type_name
                          in sorted(spec.return_types.items()) if type_name == kind
                          and path.rpartition("[].")[2] in record
                          and "." not in path.rpartition("[].")[2]), None)
            if field is not None:
                out[param] = record[field]
    return out


def _list_size(service: Service, tool: str | None, arguments: dict[str, Any]) -> int | None:
    if tool is None:
        return None
    result = service.call(tool, arguments)
    data = result.get("data") if result["success"] else None
    if isinstance(data, dict):
        data = next((v for v in data.values() if isinstance(v, list)), None)
    return len(data) if isinstance(data, list) else None


def check_collection(
    service: Service, start: State, collection: str, seed: int, value_for: ValueFor
) -> list[CheckResult]:
    """Create/get/update/delete/list checks over the compiled and modeled tools of one
    collection."""
    tools = sorted(
        name
        for name, tool in service.tools.items()
        if tool.spec.resource == collection and tool.implementation in ("compiled", "modeled")
    )
    by_role: dict[str, list[str]] = {role: [] for role in ("create", "get", "list", "update")}
    by_role["delete"] = []
    for name in tools:
        effect, keyed = service.tools[name].spec.effect, _id_param(service, name, collection)
        role = {"read": "get" if keyed else "list"}.get(effect, effect)
        if role in by_role and (keyed or role in ("create", "list")):
            by_role[role].append(name)
    get = by_role["get"][0] if by_role["get"] else None
    # the plainest list: fewest required parameters (`list_tickets` before
    # `find_tickets_by_requester`), called with only those, so no filter hides a change
    lister = min(by_role["list"], key=lambda n: (len(_required(service, n)), n), default=None)
    id_field = start.id_field(collection)
    results: list[CheckResult] = []

    def args(tool: str) -> dict[str, Any]:
        return build_arguments(service, service.state, tool, random.Random(seed), value_for)

    def list_args(tool: str) -> dict[str, Any]:
        return {k: v for k, v in args(tool).items() if k in _required(service, tool)}

    def record(tools: list[str | None], check: str, passed: bool, detail: str = "") -> None:
        results.extend(CheckResult(t, check, passed, detail[:500]) for t in tools if t)

    def get_by_id(record_id: Any) -> dict[str, Any]:
        return service.call(get, args(get) | {_id_param(service, get, collection): record_id})

    for create in by_role["create"]:
        service.state = start.copy()
        listed = list_args(lister) if lister else {}  # the same list before and after
        before = _list_size(service, lister, listed) if lister else None
        made = service.call(create, args(create))
        if not made["success"] or not isinstance(made["data"], dict):
            continue  # accepts_valid_arguments already records the failure
        new_id = made["data"].get(id_field)
        if get and new_id is not None:
            got = get_by_id(new_id)
            data = got.get("data") if got["success"] else None
            same = isinstance(data, dict) and all(data.get(k) == v for k, v in made["data"].items())
            record([create, get], "create_then_get", same, "" if same else f"get gave {got}")
        if before is not None:
            after = _list_size(service, lister, listed)
            grew = after == before + 1 or after == before  # a full page may hide the new one
            record([create, lister], "list_reflects_writes", grew, f"{before} -> {after}")
    for delete in by_role["delete"]:
        service.state = start.copy()
        arguments = args(delete)
        key = _id_param(service, delete, collection)
        listed = list_args(lister) if lister else {}  # (the state changes: no second draw)
        doomed = start.records(collection).get(str(arguments.get(key)), {})
        listed = _listing(service, lister, listed, doomed) if lister else listed
        before = _list_size(service, lister, listed) if lister else None
        if key not in arguments or not service.call(delete, arguments)["success"]:
            continue
        if get:
            gone = get_by_id(arguments[key])
            code = None if gone["success"] else gone["error"]["code"]
            record([delete, get], "delete_then_get_404", code == 404, f"get gave {code}")
        if before is not None:
            after = _list_size(service, lister, listed)
            shrank = after == before - 1
            record([delete, lister], "list_reflects_writes", shrank, f"{before} -> {after}")
    for update in by_role["update"]:
        service.state = start.copy()
        snapshot = service.state.copy()
        arguments = args(update)
        if not service.call(update, arguments)["success"]:
            continue
        changes = diff(snapshot, service.state).get(collection, {})
        touched = {f for entry in changes.get("updated", []) for f in entry["fields"]}
        extra = sorted(touched - set(arguments) - {"updated_at", "updatedAt", "modified"})
        record([update], "update_changes_named_fields", not extra, f"also changed {extra}")
    return results


def verify_service(
    service: Service, seed: int, value_for: ValueFor
) -> list[CheckResult]:
    """Run every check of every tool of `service` from its current (start) state.

    The service's state is restored to the start state afterwards.
    """
    start = service.state
    results: list[CheckResult] = []
    try:
        for offset, tool in enumerate(sorted(service.tools)):
            results.extend(check_tool(service, start, tool, seed + offset, value_for))
        for collection in sorted(start.schemas):
            results.extend(check_collection(service, start, collection, seed, value_for))
    finally:
        service.state = start
    return results


def failed_tools(results: list[CheckResult]) -> dict[str, str]:
    """Tool -> the first failed check and its detail, for every tool with a failure."""
    failures: dict[str, str] = {}
    for result in results:
        if not result.passed and result.tool not in failures:
            failures[result.tool] = f"{result.check}: {result.detail}".strip(": ")
    return failures

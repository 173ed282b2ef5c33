"""Handlers with REST semantics over typed state, built from a compile-time `RestPlan`.

Everything a call needs (collection, id parameter, field lists, result shape) is fixed in
the plan, so a call does dict lookups and nothing else: no path parsing, no regex.

Promises every handler keeps (runtime.py's contract):
- it raises `NotFound` / `Conflict` / `BadRequest` / `Unprocessable` before it changes
  anything, so a rejected call leaves `state.digest()` as it was (a create whose record
  fails validation also puts back the id counter that `State.new_id` moved);
- it returns copies, never the state's own records or lists.

Lookups: a path parameter names a record by its id (a dict lookup) and, when that finds
nothing and the plan names a field, by that field (`/repos/{owner}/{repo}` -> `name`,
`/employees/{number}` -> `number`: a scan), so both the ids other tools return and the
natural keys people type work. Ids compare as text: `5` finds the record whose id is `"5"`.
Other arguments typed as ids of another collection (`customer_id` in a create) must name
an existing record too (404), as the call protocol promises.
Parents (`/contacts/{contactId}/notes`) must exist when their collection has a schema; the
child stores the parent's id in a link field (`contact_id`); a child read through a parent
must carry that parent's id (a record without the link field is not checked).
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compoworld.services.rest_list import Filter, Paging, matcher, window
from compoworld.services.rest_shapes import ListShape, RecordShape, pattern_sampler
from compoworld.world.state import Conflict, Handler, NotFound, State, ToolError

_ATOMS = frozenset({str, int, float, bool, type(None)})
_MISSING = object()
_ID_TRIES = 1000  # a narrow id pattern can run out of values


@dataclass(frozen=True, slots=True)
class Key:
    """A path parameter that names one record of a collection."""

    collection: str
    param: str
    id_field: str
    field: str | None = None  # a field it may name instead of the id (tried after the id)
    checked: bool = True  # the collection has a schema, so the record must exist
    link: str = ""  # parents: the child's field that holds this parent's id
    link_type: str = ""  # parents: `string` / `integer` when the link field is typed


@dataclass(frozen=True, slots=True)
class RestPlan:
    """Everything one compiled tool does, decided at compile time."""

    operation: str  # create | get | list | update | delete
    collection: str
    id_field: str
    id_kind: str = "string"  # string | integer | uuid | pattern | digits: new ids' look
    id_pattern: str = ""  # id_kind `pattern`: the regex new ids must match
    natural: tuple[tuple[str, str], ...] = ()  # create: (field, JSON type) of natural keys
    key: Key | None = None  # the record the path names (create: a client-chosen key)
    parents: tuple[Key, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()  # (argument, record field)
    fill: tuple[tuple[str, Any], ...] = ()  # create: (field, value) when not given
    refs: tuple[tuple[str, str], ...] = ()  # (argument, collection) it must name a record of
    filters: tuple[Filter, ...] = ()
    paging: Paging = Paging()
    record: RecordShape = RecordShape()
    listing: ListShape = ListShape()
    deleted: tuple[tuple[str, Any], ...] | None = None  # delete: the answer's extra fields;
    # None: answer with the deleted record instead of `{"deleted": true, "id": ...}`


def clone(value: Any) -> Any:
    """A deep copy of a JSON value (several times faster than `copy.deepcopy`)."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else clone(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else clone(v) for v in value]
    return value if kind in _ATOMS else copy.deepcopy(value)


def same(a: Any, b: Any) -> bool:
    """Equal ids: `5` and `"5"` are the same id."""
    return a == b or (a is not None and b is not None and type(a) is not type(b)
                      and str(a) == str(b))


def build_handler(plan: RestPlan) -> Handler:
    """The handler that runs `plan`."""
    return _BUILDERS[plan.operation](plan)


def _records(state: State, collection: str) -> dict[str, dict[str, Any]]:
    """A collection's records without creating it (`State.records` would: a rejected call
    must not add an empty collection to the digest)."""
    return state.collections.get(collection) or {}


def _find(state: State, key: Key, value: Any) -> tuple[str, dict[str, Any]]:
    records = _records(state, key.collection)
    found = records.get(str(value))
    if found is not None:
        return str(value), found
    if key.field is not None:
        for record_key, record in records.items():
            if same(record.get(key.field), value):
                return record_key, record
    raise NotFound(f"no {key.collection} record has {key.param} {value!r}; list "
                   f"{key.collection} to see the ones that exist")


def _linked(state: State, args: dict[str, Any], parents: tuple[Key, ...]) -> list[Any]:
    """(parent key, parent id) per parent; `NotFound` when a checked parent is missing."""
    links = []
    for parent in parents:
        value = args[parent.param]
        if parent.checked:
            value = _find(state, parent, value)[1].get(parent.id_field, value)
        if parent.link_type == "string" and type(value) is not str:
            value = str(value)
        elif parent.link_type == "integer" and type(value) is str and value.isdigit():
            value = int(value)
        links.append((parent, value))
    return links


def _referenced(state: State, args: dict[str, Any], refs: tuple[tuple[str, str], ...]) -> None:
    for param, collection in refs:
        value = args.get(param)
        if value is not None and str(value) not in _records(state, collection):
            raise NotFound(f"no {collection} record has id {value!r} (given as {param}); "
                           f"list {collection} to see the ones that exist")


def _target(state: State, args: dict[str, Any], plan: RestPlan) -> tuple[str, dict[str, Any]]:
    if plan.refs:
        _referenced(state, args, plan.refs)
    links = _linked(state, args, plan.parents) if plan.parents else ()
    key = plan.key
    assert key is not None  # the compiler gives get/update/delete a key
    found = _find(state, key, args[key.param])
    for parent, parent_id in links:
        if parent.link in found[1] and not same(found[1][parent.link], parent_id):
            raise NotFound(f"{key.collection} record {args[key.param]!r} does not belong to "
                           f"{parent.collection} {args[parent.param]!r}")
    return found


def _copier(keep: frozenset[str] | None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """`clone`, or a clone of only the fields in `keep`."""
    if keep is None:
        return clone
    return lambda record: {k: clone(v) for k, v in record.items() if k in keep}


def record_out(shape: RecordShape) -> Callable[[dict[str, Any]], Any]:
    copy_record = _copier(shape.keep)
    if shape.as_list:
        return lambda record: [copy_record(record)]
    if shape.wrap is None:
        return copy_record
    wrap, extras = shape.wrap, shape.extras

    def wrapped(record: dict[str, Any]) -> dict[str, Any]:
        return {wrap: copy_record(record), **{name: clone(value) for name, value in extras}}

    return wrapped


def _make_get(plan: RestPlan) -> Handler:
    out = record_out(plan.record)

    def get(state: State, args: dict[str, Any]) -> Any:
        return out(_target(state, args, plan)[1])

    return get


def _make_update(plan: RestPlan) -> Handler:
    out, fields, collection = record_out(plan.record), plan.fields, plan.collection

    def update(state: State, args: dict[str, Any]) -> Any:
        record = _target(state, args, plan)[1]
        changes = {field: clone(args[arg]) for arg, field in fields if arg in args}
        if not changes:
            return out(record)
        merged = {**record, **changes}
        state.put(collection, merged)  # validates before it stores: a 422 changes nothing
        return out(merged)

    return update


def _make_delete(plan: RestPlan) -> Handler:
    out, extras, id_field = record_out(plan.record), plan.deleted, plan.id_field

    def delete(state: State, args: dict[str, Any]) -> Any:
        record_key, record = _target(state, args, plan)
        state.delete(plan.collection, record_key)
        if extras is None:
            return out(record)  # no longer in the state: nothing shares it
        answer = {name: clone(value) for name, value in extras}
        answer.update(deleted=True, id=record.get(id_field, record_key))
        if id_field in answer:
            answer[id_field] = answer["id"]
        return answer

    return delete


def _make_create(plan: RestPlan) -> Handler:
    out, collection, id_field, kind = (
        record_out(plan.record), plan.collection, plan.id_field, plan.id_kind)
    fields, fill, key, parents = plan.fields, plan.fill, plan.key, plan.parents
    natural, refs = plan.natural, plan.refs
    sample = pattern_sampler(plan.id_pattern) if kind == "pattern" else None

    def create(state: State, args: dict[str, Any]) -> Any:
        if refs:
            _referenced(state, args, refs)
        links = _linked(state, args, parents) if parents else ()
        record = {field: clone(args[arg]) for arg, field in fields if arg in args}
        for parent, parent_id in links:
            record[parent.link] = parent_id
        records = _records(state, collection)
        if key is not None:  # a client-chosen key in the path (`PUT /buckets/{name}`)
            value = args[key.param]
            if key.field is not None:
                if any(same(r.get(key.field), value) for r in records.values()):
                    raise Conflict(f"a {collection} record with {key.param} {value!r} "
                                   "already exists; pick another or update that one")
                record[key.field] = value
            else:
                record[id_field] = int(value) if kind == "integer" and str(value).isdigit() \
                    else value
        for field, field_kind in natural:
            value = record.get(field)
            if value is None:
                if field_kind == "integer":  # the next free number, like an id
                    taken = [v for r in records.values() if type(v := r.get(field)) is int]
                    record[field] = max(taken, default=0) + 1
            elif any(same(r.get(field), value) for r in records.values()):
                raise Conflict(f"a {collection} record with {field} {value!r} already "
                               "exists; pick another or update that one")
        for field, value in fill:
            if field not in record:
                record[field] = clone(value)
        given = record.get(id_field)
        if given is not None:
            if str(given) in records:
                raise Conflict(f"a {collection} record with {id_field} {given!r} already "
                               "exists; pick another id or update that record")
            state.put(collection, record)
            return out(record)
        counter = state.next_ids.get(collection, _MISSING)
        try:
            record[id_field] = _new_id(state, collection, kind, sample, records)
            state.put(collection, record)
        except ToolError:
            if counter is _MISSING:
                state.next_ids.pop(collection, None)
            else:
                state.next_ids[collection] = counter
            raise
        return out(record)

    return create


def _new_id(state: State, collection: str, kind: str,
            sample: Callable[[int], str | None] | None, records: dict[str, Any]) -> Any:
    """The next free id from the collection's counter, typed as the schema wants."""
    for _ in range(_ID_TRIES):
        text = state.new_id(collection)
        if kind == "integer":
            value: Any = int(text.rsplit("_", 1)[1])
        elif kind == "digits":
            value = text.rsplit("_", 1)[1].lstrip("0")
        elif sample is not None:
            value = sample(int(text.rsplit("_", 1)[1])) or text
        elif kind == "uuid":
            value = str(uuid.uuid5(uuid.NAMESPACE_URL, f"compoworld:{collection}/{text}"))
        else:
            value = text
        if str(value) not in records:  # a seeded world may hold ids of its own
            return value
    raise Conflict(f"no free id left for a new {collection} record")


def _make_list(plan: RestPlan) -> Handler:
    collection, id_field, filters, paging, parents, refs = (
        plan.collection, plan.id_field, plan.filters, plan.paging, plan.parents, plan.refs)
    shape = plan.listing
    copy_record = _copier(shape.keep)

    def listing(state: State, args: dict[str, Any]) -> Any:
        if refs:
            _referenced(state, args, refs)
        matches = list(_records(state, collection).values())
        for parent, parent_id in _linked(state, args, parents) if parents else ():
            link = parent.link
            matches = [r for r in matches if same(r.get(link), parent_id)]
        for rule in filters:
            if args.get(rule.param) is not None:
                test = matcher(rule, args[rule.param])
                matches = [r for r in matches if test(r)]
        start, size = window(args, paging, matches, id_field)
        page = matches[start:start + size] if size is not None else matches[start:]
        if shape.kind == "ids":
            return [record.get(id_field) for record in page]
        items = [copy_record(record) for record in page]
        if shape.kind == "list":
            return items
        answer: dict[str, Any] = {shape.wrap or "data": items}
        more = start + len(page) < len(matches)
        if shape.total:
            answer[shape.total] = len(matches)
        if shape.more:
            answer[shape.more] = more
        if shape.next and more and page:
            answer[shape.next] = str(page[-1].get(id_field))
        for name, value in shape.extras:
            answer.setdefault(name, clone(value))
        if shape.within is not None:  # (one envelope down: `{"result": {...}, "code": 0}`)
            answer = {shape.within: answer, **{name: clone(value) for name, value in shape.outer}}
        return answer

    return listing


_BUILDERS: dict[str, Callable[[RestPlan], Handler]] = {
    "create": _make_create, "get": _make_get, "list": _make_list,
    "update": _make_update, "delete": _make_delete,
}

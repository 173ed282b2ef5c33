"""Load a list of function definitions (one file = one service): OpenAI or MCP style.

Each entry is `{"name", "description", "parameters"}`, the chat-completions wrapper
`{"type": "function", "function": {...}}`, or an MCP `tools/list` entry
`{"name", "description", "inputSchema"[, "outputSchema"]}` (a whole `{"tools": [...]}`
result is accepted too, and may say the service's `title`, `description`, `license` and
`domain`, its corpus category (specs/categories.py), as a benchmark's tool set does:
specs/benchmarks.py). `returns` is the `outputSchema` when
there is one (else see rule 5 below).
Sources: the service is `functions:<doc_id>`, each tool `functions:<doc_id>#<name>`.

A function list says nothing of HTTP, so what a tool does is read from its name, then its
parameters and description, in two passes.

Per function: the name's verb (`get_invoice`); a leading namespace word before a verb is
dropped (`messaging_get_status`), a trailing verb is moved first (`orders_delete`); a name
with no verb takes the first word of its description (`Lists ...` -> list). The effect is
the verb's (paths.py: get/list/search/find/download... -> read, create/add/new ->
create, update/set/rename... -> update, delete/remove -> delete, anything else -> action).
The resource is the object noun, pluralised, up to a preposition
(`find_customers_by_email` -> `customers`, `remove_attendee_from_event` -> `attendees`,
`reply_to_message` -> `messages`: nothing before `to`), without a trailing `details`/`info`.

Over the service (the *collections* are the resources that a read, create, update or
delete names):

1. A computation (`is_computation`: convert, validate, calculate, geocode, translate,
   format, parse, estimate, quote, ... with no id of one of the service's collections) is
   a `read` of no resource: a pure function of its arguments.
2. A tool other than a create whose noun is no collection acts on the collection whose id
   it takes (`send_reminder(ticket_id)` -> `tickets`: the reminder is an event about the
   ticket, so an unknown ticket is a 404 and the action is logged against it), else on the
   first collection its description names (`send_sms`: "an SMS text message" ->
   `messages`); a compound noun ending in a collection is that collection
   (`get_ticket_comments` -> `comments`).
3. A producing action (send, upload, record, post, schedule, book, ...) of a collection
   that does not name one of its records makes one: `create` (`upload_file` -> files,
   `record_payment` -> payments, `send_sms` -> messages); with its record's id
   (`send_invoice(invoice_id)`) it stays an action on that record.
4. The parameter naming one record of the tool's own collection (`invoice_id`, `id`,
   `invoiceKey`) is typed as that collection's id; so is a qualified id of a collection of
   the service (`parent_folder_id` -> `<service>.folders.id`,
   `primary_customer_id` -> `<service>.customers.id`); a qualified id of the tool's own
   collection only on an action (`list_folders(parent_folder_id)` lists, it does not get
   the parent).
5. A read, create or update that declares no result returns its collection's record
   (derived by specs/resources.py), a read with no key an array of them: that is what the
   world that runs it answers, and what lets its outputs feed other tools.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from compoworld.graph.semtypes import (
    KEY_WORDS,
    entity_id_type,
    is_entity_id,
    pluralize,
    singularize,
    split_words,
)
from compoworld.specs.errors import SpecLoadError, one_line_reasons
from compoworld.specs.fields import param_types, return_types
from compoworld.specs.infra import relax_infrastructure
from compoworld.specs.limits import NO_DEADLINE, Deadline
from compoworld.specs.paths import KNOWN_VERBS, verb_effect
from compoworld.specs.records import Effect, ServiceSpec, ToolSpec
from compoworld.specs.refs import SchemaResolver
from compoworld.specs.resources import derive_resources
from compoworld.specs.text import (
    SERVICE_NAME_RE,
    TOOL_NAME_RE,
    clean_text,
    service_name,
    snake_words,
)

_SCHEMA_DEPTH = 4
# Verbs of pure functions of their arguments (when they name no record of the service).
COMPUTATION_VERBS = frozenset("convert validate calculate compute quote geocode translate "
                              "format parse estimate normalize summarize".split())
# Verbs whose action leaves a record behind when it names none: sending a message makes one.
_PRODUCING = frozenset("send upload record log post schedule book issue place submit "
                       "import".split())
# Verbs paths.py does not know that function names use; effect by paths.verb_effect, except
# `download` (reading a file's content).
_EXTRA_VERBS = frozenset("ship record log post schedule book issue place remind reschedule "
                         "dispatch".split()) | COMPUTATION_VERBS
_READ_EXTRA = frozenset({"download", "return"})
_VERBS = KNOWN_VERBS | _EXTRA_VERBS | _READ_EXTRA
_PREPOSITIONS = frozenset("by for to from in into of on with via using at".split())
_QUALIFIERS = frozenset("details detail info information".split())


@one_line_reasons
def load_function_list(items: list, doc_id: str, *,
                       deadline: Deadline = NO_DEADLINE) -> ServiceSpec:
    """Turn a list of function definitions into one ServiceSpec; SpecLoadError if bad
    (or if it runs past `deadline`)."""
    return _load(items, doc_id, deadline)


def is_computation(tool: ToolSpec) -> bool:
    """Whether a tool is a pure function of its arguments: its verb computes (convert,
    validate, calculate, geocode, ...) and no argument is the id of one of its service's
    collections (`calculate_invoice_total(invoice_id)` reads stored state)."""
    verb, _ = _verb_and_object(split_words(tool.name.split("__", 1)[-1]), tool.description)
    own = f"{tool.service}."
    return verb in COMPUTATION_VERBS and not any(
        is_entity_id(t) and t.startswith(own) for t in tool.param_types.values())


@dataclass(slots=True)
class _Draft:
    """One function read on its own, before the service's collections are known."""

    spec: dict[str, Any]
    part: str
    parameters: dict[str, Any]
    verb: str | None
    effect: Effect
    resource: str | None


def _load(items: Any, doc_id: str, deadline: Deadline) -> ServiceSpec:
    about: dict[str, str] = {}
    if isinstance(items, dict) and isinstance(items.get("tools"), list):
        about = _about(items)
        items = items["tools"]  # an MCP `tools/list` result
    if not isinstance(items, list) or not items:
        raise SpecLoadError("a function list must be a non-empty JSON/YAML list")
    service = service_name(doc_id)
    drafts: list[_Draft] = []
    seen: set[str] = set()
    for index, entry in enumerate(items):
        spec = _unwrap(entry, index)
        part = snake_words(spec["name"])
        if not part:
            raise SpecLoadError(f"entry {index}: name {spec['name']!r} has no letters or digits")
        if part in seen:
            raise SpecLoadError(f"entry {index}: duplicate function name {spec['name']!r}")
        seen.add(part)
        if not TOOL_NAME_RE.match(f"{service}__{part}"):
            raise SpecLoadError(f"entry {index}: cannot make a valid tool name from it")
        parameters = relax_infrastructure(_resolved({"type": "object", "properties": {}},
                                                    spec["parameters"], deadline))
        description = clean_text(spec.get("description")) or spec["name"]
        verb, words = _verb_and_object(split_words(spec["name"]), description)
        effect: Effect = "read" if verb in _READ_EXTRA else verb_effect([verb or ""])
        drafts.append(_Draft({**spec, "description": description}, part, parameters, verb,
                             effect, _noun(words)))
    counts = Counter(d.resource for d in drafts if d.resource and d.effect != "action"
                     and d.verb not in COMPUTATION_VERBS)
    tools = [_settle(d, doc_id, service, counts, deadline) for d in drafts]
    resources = derive_resources(tools, {})
    return ServiceSpec(
        name=service,
        title=about.get("title") or doc_id.rsplit("/", 1)[-1],
        description=about.get("description") or f"Functions from {doc_id}.",
        domain=about.get("domain") or "other",
        source=f"functions:{doc_id}",
        license=about.get("license"),
        resources=resources,
        tools=[_with_returns(t, resources) for t in tools],
    )


def _about(document: dict[str, Any]) -> dict[str, str]:
    """What a `{"tools": [...]}` document says of its service: `title`, `description`,
    `license` and `domain`, each a non-empty string, the domain a snake_case word (an MCP
    result carries none of them)."""
    about = {}
    for key in ("title", "description", "license", "domain"):
        value = document.get(key)
        if value is not None and (not isinstance(value, str) or not clean_text(value)):
            raise SpecLoadError(f"`{key}` is not a non-empty string")
        if value is not None:
            about[key] = clean_text(value)
    if "domain" in about and not SERVICE_NAME_RE.match(about["domain"]):
        raise SpecLoadError(f"`domain` {about['domain']!r} is not a snake_case category")
    return about


def _with_returns(tool: ToolSpec, resources: dict[str, dict[str, Any]]) -> ToolSpec:
    """The tool with its result typed: a record operation that declares no result answers
    with the record of its collection (a list: an array of them), as the world that runs it
    stores them; actions and deletes keep `{}` (their answer is the world model's)."""
    returns = tool.returns
    record = resources.get(tool.resource or "")
    if not returns and record is not None and tool.effect in ("read", "create", "update"):
        own_id = entity_id_type(tool.service, tool.resource or "")
        keyed = any(t == own_id for t in tool.param_types.values())
        returns = record if tool.effect != "read" or keyed else {"type": "array",
                                                                 "items": record}
    types = return_types(returns, service=tool.service, resource=tool.resource)
    return tool.model_copy(update={"returns": returns, "return_types": types})


def _resolved(base: dict[str, Any], schema: dict[str, Any], deadline: Deadline
              ) -> dict[str, Any]:
    # Functions may carry `$defs` refs of their own: resolve them against the schema.
    resolved = SchemaResolver(schema, deadline).resolve(schema, _SCHEMA_DEPTH)
    return json.loads(json.dumps({**base, **resolved}, default=str))


def _settle(draft: _Draft, doc_id: str, service: str, counts: Counter[str],
            deadline: Deadline) -> ToolSpec:
    """The ToolSpec of one function, now that the service's collections (`counts`: how
    many reads and writes name each) are known (rules 1-4 of the module docstring)."""
    spec, effect, resource = draft.spec, draft.effect, draft.resource
    collections = set(counts)
    # the collections some other function names: this one's own noun is no evidence
    mine = effect != "action" and draft.verb not in COMPUTATION_VERBS
    others = {c for c, n in counts.items() if n > (mine and c == resource)}
    props = draft.parameters.get("properties") or {}
    refs = {p: c for p in props if (c := _collection_of(p, collections))}
    if draft.verb in COMPUTATION_VERBS and not refs:
        effect, resource = "read", None
    elif effect != "create" and resource not in others:
        resource = _attached(resource, refs, spec["description"], others)
    own_keys = [p for p in props if resource and _names_record(p, resource)]
    if (effect == "action" and draft.verb in _PRODUCING and resource in collections
            and not own_keys):
        effect = "create"
    types = param_types(draft.parameters, service=service, resource=resource, owners={})
    if resource is not None:
        # A qualified id of the tool's own collection (`parent_folder_id` of folders) is
        # typed so only on an action, which checks every record it names: on a read,
        # update or delete it would read as the record the call is about, and a create
        # checks only the ids of other collections.
        types |= {p: entity_id_type(service, c) for p, c in refs.items()
                  if c != resource or effect == "action"}
        if effect != "create":
            types |= {p: entity_id_type(service, resource) for p in own_keys}
    returns = spec.get("outputSchema")
    return ToolSpec(
        service=service,
        name=f"{service}__{draft.part}",
        description=spec["description"],
        parameters=draft.parameters,
        returns=_resolved({}, returns, deadline) if isinstance(returns, dict) else {},
        effect=effect,
        resource=resource,
        source=f"functions:{doc_id}#{spec['name']}",
        param_types=types,
    )


def _unwrap(entry: Any, index: int) -> dict[str, Any]:
    """The function definition of one entry, checked; SpecLoadError names the entry.

    MCP's `inputSchema` is read as `parameters`."""
    if isinstance(entry, dict) and isinstance(entry.get("function"), dict):
        entry = entry["function"]
    if not isinstance(entry, dict):
        raise SpecLoadError(f"entry {index}: not an object")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SpecLoadError(f"entry {index}: missing `name`")
    key = "parameters" if "parameters" in entry or "inputSchema" not in entry else "inputSchema"
    parameters = entry.get(key, {"type": "object", "properties": {}})
    if not isinstance(parameters, dict) or parameters.get("type", "object") != "object":
        raise SpecLoadError(f"entry {index} ({name}): `{key}` is not an object schema")
    if "properties" in parameters and not isinstance(parameters["properties"], dict):
        raise SpecLoadError(f"entry {index} ({name}): `{key}.properties` is not an object")
    output = entry.get("outputSchema")
    if output is not None and not isinstance(output, dict):
        raise SpecLoadError(f"entry {index} ({name}): `outputSchema` is not an object")
    return {**entry, "parameters": parameters}


def _verb_and_object(words: list[str], description: str) -> tuple[str | None, list[str]]:
    """The verb of a function name and the words of its object (module docstring)."""
    if len(words) > 2 and words[0] not in _VERBS and words[1] in _VERBS:
        words = words[1:]  # a namespace: `messaging_get_delivery_status`
    if words and words[0] in _VERBS:
        verb, rest = words[0], words[1:]
    elif len(words) > 1 and words[-1] in _VERBS:
        verb, rest = words[-1], words[:-1]  # `orders_delete`
    else:
        verb, rest = _description_verb(description), words
    if verb in ("batch", "bulk", "mass") and rest and rest[0] in _VERBS:
        verb, rest = rest[0], rest[1:]
    return verb, rest


def _description_verb(description: str) -> str | None:
    """The verb a description opens with, in its base form (`Lists ...` -> `list`)."""
    first = split_words(description)[:1]
    if not first:
        return None
    word = first[0]
    for base in (word, word[:-3] + "y" if word.endswith("ies") else "",
                 word[:-2] if word.endswith("es") else "", word[:-1]):
        if base in _VERBS:
            return base
    return None


def _noun(words: list[str]) -> str | None:
    """The collection an object phrase names: up to a preposition, pluralised."""
    cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS), len(words))
    words = words[:cut] or words[cut + 1:]
    if len(words) > 1 and words[-1] in _QUALIFIERS:
        words = words[:-1]
    if not words:
        return None
    return "_".join([*words[:-1], pluralize(words[-1])])


def _attached(resource: str | None, refs: dict[str, str], description: str,
              others: set[str]) -> str | None:
    """The collection a tool whose noun is no collection works on (rule 2), else its noun."""
    words = (resource or "").split("_")
    for i in range(1, len(words)):
        if "_".join(words[i:]) in others:  # `ticket_comments` -> `comments`
            return "_".join(words[i:])
    named = {c for c in refs.values() if c in others}
    if len(named) == 1:
        return named.pop()
    for word in split_words(description):
        if pluralize(word) in others:
            return pluralize(word)
    return resource


def _singular_words(collection: str) -> list[str]:
    words = split_words(collection)
    return [*words[:-1], singularize(words[-1])] if words else []


def _names_record(param: str, collection: str) -> bool:
    """Whether a parameter names one record of `collection`: `id`, `invoice_id`,
    `invoiceKey`, `line_item_uuid`."""
    words = split_words(param)
    return words == ["id"] or (len(words) > 1 and words[-1] in KEY_WORDS
                               and words[:-1] == _singular_words(collection))


def _collection_of(param: str, collections: set[str]) -> str | None:
    """The service collection whose id a `<noun>_id` parameter carries, by its whole noun
    or its last word (`parent_folder_id` -> `folders`); None for other parameters."""
    words = split_words(param)
    if len(words) < 2 or words[-1] not in KEY_WORDS:
        return None
    for noun in (words[:-1], words[-2:-1]):
        collection = "_".join([*noun[:-1], pluralize(noun[-1])])
        if collection in collections:
            return collection
    return None

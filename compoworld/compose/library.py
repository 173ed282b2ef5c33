"""The service library of a run: the synthesized services, rebuilt on demand in any world.

Synthesis stores, per tool, how it was built (`tool_builds`: implementation, mounted, the
final parameter types) but not the services themselves: a service is a pure function of
its spec and a world seed, so it is rebuilt (`build_service`) wherever it is needed, with
exactly the tools synthesis mounted and each tool's recorded implementation (a compiled
tool that failed verification is simulated here too; a coded tool's stored source runs in
the sandbox, as it did when it was verified). Tasks record only their world seed;
this is how the composer, the task verifier and the rollouts all see the same world.

A `LazyWorld` mounts services as calls reach them, each on a private copy of the
template's start state, so composing a task copies only the states it touches.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from compoworld.compose.naming import app_name
from compoworld.compose.patterns import (
    NON_WORK_DOMAINS,
    Apps,
    business_shares,
    feasible,
    keeps_calendar,
    keeps_customers,
    keeps_tickets,
    patterns_from,
    public_sector,
    tool_entity,
)
from compoworld.compose.references import is_sender
from compoworld.compose.workflow import Workflow, may_follow
from compoworld.compose.workflows import DEFAULT_WORKFLOWS
from compoworld.graph.depgraph import CONTENT_TYPES, DependencyGraph, ToolNode, is_link_type
from compoworld.services.compiler import action_tool
from compoworld.services.runtime import Service, Tool, error
from compoworld.services.selection import narrowed_spec
from compoworld.services.synthesize import build_service
from compoworld.specs.categories import keeps_staff
from compoworld.specs.fields import nested_param_types, nested_required
from compoworld.specs.infra import infrastructure_names
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.world.seeding import Pool, draw_pool
from compoworld.world.state import State, canonical_json

SpecLoader = Callable[[list[str]], dict[str, ServiceSpec]]
MAX_TEMPLATES = 4096
_TEMPLATES: dict[tuple[str, int, str], Service] = {}


def forget_world(seed: int) -> int:
    """Drop every template of world `seed` from this process's `_TEMPLATES` (how many):
    for a world no later work here walks, e.g. a finished compose shard's own. A template
    holds its service's parsed spec and start state (~2 MB for a compose shard's services),
    so keeping every shard's world until `MAX_TEMPLATES` grew a Dask worker by ~180 MB a
    shard. Anything still using the world mounts its services again (the same start state:
    a template is a pure function of its spec and seed)."""
    keys = [key for key in _TEMPLATES if key[1] == seed]
    for key in keys:
        _TEMPLATES.pop(key, None)
    return len(keys)


@dataclass(frozen=True, slots=True)
class ServiceInfo:
    """What distractor choice and instructions need to know about a service."""

    name: str
    title: str
    domain: str
    description: str

    @property
    def app(self) -> str:
        """The app's name as a person says it (`Avaza`, not `Avaza API Documentation`):
        how requests name the service, and how the agent's service list titles it."""
        return app_name(self.name, self.title)


def tool_node(spec: ToolSpec, implementation: str, param_types: dict[str, str] | None = None
              ) -> ToolNode:
    """The graph node of one mounted tool. Infrastructure parameters (specs/infra.py) are
    left out of its inputs: no edge leads into an api key, a callback or a page size."""
    types = spec.param_types if param_types is None else param_types
    infra = set(infrastructure_names(spec.parameters))
    nested = nested_params(spec)
    required = set(spec.parameters.get("required", [])) | (
        nested_required(spec.parameters) & nested.keys())
    return ToolNode(
        name=spec.name,
        service=spec.service,
        effect=spec.effect,
        implementation=implementation,
        resource=spec.resource,
        params={p: t for p, t in types.items() if p not in infra} | nested,
        required=tuple(sorted(required)),
        outputs=spec.return_types,
        description=spec.description,
    )


# The objects a write's nested values are bound inside: who a message or an invitation goes
# to (and from), what it says (WhatsApp's `text.body`), a new customer, an event's times.
# The rest (attachments, tracking settings, an event's organizer) keep what the call's draw
# gave them.
_NESTED_HOLDERS = frozenset("message messages personalizations to from sender recipient "
                            "recipients content text attendees guests invitees participants "
                            "customer contact person start end events".split())


def nested_params(spec: ToolSpec) -> dict[str, str]:
    """The link- or content-typed leaves inside a write's object parameters that a walk
    binds by path (`message.to[0].email`: specs/fields.py `nested_param_types`)."""
    if spec.effect == "read":
        return {}
    types = nested_param_types(spec.parameters, service=spec.service, resource=spec.resource)
    top = spec.parameters.get("properties") or {}
    # an event's `start` takes its time, not also the day of an all-day event (Google's
    # `start.date` beside `start.dateTime`: a booking stated both, and one went undrawn)
    types = {path: kind for path, kind in types.items()
             if not (kind == "date" and {f"{path}Time", f"{path}_time"} & types.keys())}
    return {path: kind for path, kind in types.items()
            if (is_link_type(kind) or kind in CONTENT_TYPES)
            and path.rsplit(".", 1)[-1] not in top  # (SendGrid's one `subject`, not two)
            and all(part.split("[")[0] in _NESTED_HOLDERS for part in path.split(".")[:-1])}


def tool_nodes(specs: Iterable[dict[str, Any]], builds: Iterable[dict[str, Any]]) -> list[ToolNode]:
    """Graph nodes of the mounted tools, from `tool_specs` rows and `tool_builds` rows."""
    mounted = {row["name"]: row for row in builds if row["mounted"]}
    nodes = []
    for row in specs:
        build = mounted.get(row["name"])
        if build is None:
            continue
        spec = ToolSpec.model_construct(
            name=row["name"], service=row["service"], effect=row["effect"],
            resource=row["resource"], parameters=orjson.loads(row["parameters"]),
            return_types=orjson.loads(row["return_types"]),
            param_types=orjson.loads(row["param_types"]),
            description=row.get("description") or "",
        )
        types = orjson.loads(build["param_types"]) if build.get("param_types") else None
        nodes.append(tool_node(spec, build["implementation"], types))
    return nodes


@dataclass(slots=True)
class ServiceLibrary:
    """Mounted services of one run: the graph over their tools, and templates per world."""

    graph: DependencyGraph
    infos: dict[str, ServiceInfo]
    load_specs: SpecLoader
    _specs: dict[str, ServiceSpec] = field(default_factory=dict)
    _fingerprints: dict[str, str] = field(default_factory=dict)
    _pools: dict[int, Pool] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # coded tool -> handler source
    _plans: dict[str, list[Workflow]] = field(default_factory=dict)
    _apps: Apps | None = None
    _meaning: dict[str, float] = field(default_factory=dict)
    _makers: dict[str, frozenset[str]] = field(default_factory=dict)
    # the workflows walks may follow (`use_workflows`): by default those not on trial
    workflows: tuple[Workflow, ...] = DEFAULT_WORKFLOWS

    def meaning(self, service: str) -> float:
        """How much a service is a business app: the share of its tools on a business
        entity (a contact, an invoice, a meeting: graph/roles.py), squared, with a floor so
        that no service is never drawn."""
        if not self._meaning:
            self._meaning.update((name, max(0.02, share ** 2)) for name, share
                                 in business_shares(self.graph.nodes.values()).items())
        return self._meaning.get(service, 0.02)

    def patterns_at(self, start: str) -> list[Workflow]:
        """The workflow patterns a walk from `start` can follow past its first step (none
        from an app of a category no workflow runs through, `work_apps`; none about a
        customer from an app that keeps no customers, `Apps.allow`)."""
        if start not in self._plans:
            node = self.graph.nodes[start]
            self._plans[start] = [p for p in patterns_from(node, self.workflows)
                                  if self.apps().allow(node.service, p.steps[0])
                                  and feasible(self.graph, start, p, self.apps().allow)]
        return self._plans[start]

    def followers(self, start: str, first: Workflow) -> list[Workflow]:
        """The workflows a walk from `start` that made `first` (a workflow or a job) may go
        on into as one job (`workflow.may_follow`): those `start` begins too."""
        return [then for then in self.patterns_at(start) if may_follow(first, then)]

    def use_workflows(self, workflows: tuple[Workflow, ...]) -> None:
        """Let walks follow `workflows` (e.g. those on trial as well) from now on."""
        if workflows != self.workflows:
            self.workflows = workflows
            self._plans.clear()

    def makers(self, entity: str) -> frozenset[str]:
        """The services with a tool that creates a record of `entity` (`event`: the apps a
        meeting can be booked in)."""
        if entity not in self._makers:
            self._makers[entity] = frozenset(
                node.service for node in self.graph.nodes.values()
                if node.effect == "create" and tool_entity(node) == entity)
        return self._makers[entity]

    def senders(self, kind: str) -> frozenset[str]:
        """The services with a tool that sends a message to an address of type `kind`
        (`email`, `phone`): the apps a task's email or text could go out through (a
        comment on an issue reaches no address)."""
        key = f"senders:{kind}"
        if key not in self._makers:
            self._makers[key] = frozenset(
                node.service for node in self.graph.nodes.values()
                if node.effect in ("create", "action") and tool_entity(node) == "message"
                and any(t == kind and not is_sender(p, t) for p, t in node.params.items()))
        return self._makers[key]

    def work_apps(self) -> frozenset[str]:
        """The services whose corpus category is one people run business workflows in."""
        return self.apps().work

    def apps(self) -> Apps:
        """The work apps, those of them that keep customers (`keeps_customers`), those
        that keep a calendar, and those that keep the business's tickets (`keeps_tickets`)."""
        if self._apps is None:
            work = frozenset(name for name, info in self.infos.items()
                             if info.domain not in NON_WORK_DOMAINS
                             and not public_sector(name))
            self._apps = Apps(work, frozenset(
                name for name in work if keeps_customers(
                    self.infos[name].domain, self.infos[name].app, self.infos[name].description)),
                calendars=frozenset(name for name in work if keeps_calendar(
                    self.infos[name].domain, self.infos[name].app)),
                desks=frozenset(name for name in work if keeps_tickets(
                    self.infos[name].domain, self.infos[name].app)),
                staff=frozenset(name for name in work if keeps_staff(
                    self.infos[name].domain, self.infos[name].app)),
                categories={name: info.domain or "" for name, info in self.infos.items()})
        return self._apps

    @classmethod
    def from_store(cls, store: Any, run_id: str) -> ServiceLibrary:
        """The verified services of run `run_id` (tool specs, builds and service rows)."""
        builds = store.read("tool_builds", run_id, columns=[
            "name", "implementation", "mounted", "param_types", "source"])
        specs = store.read("tool_specs", run_id, columns=[
            "service", "name", "description", "effect", "resource", "parameters",
            "param_types", "return_types"])
        rows = store.read("services", run_id, columns=["service", "title", "domain", "verified",
                                                       "tool_subset"])
        subsets = {r["service"]: r["tool_subset"] for r in rows if r.get("tool_subset")}
        texts = {r["service"]: r["description"] or "" for r in store.read(
            "specs", run_id, columns=["service", "description"])}
        infos = {
            r["service"]: ServiceInfo(r["service"], r["title"], r["domain"],
                                      texts.get(r["service"], ""))
            for r in rows if r["verified"]
        }
        nodes = [n for n in tool_nodes(specs, builds) if n.service in infos]

        raw: dict[str, str] = {}

        def load(names: list[str]) -> dict[str, ServiceSpec]:
            if not raw:  # one scan for every verified service: a scan per service costs ~0.1 s
                raw.update((r["service"], r["spec"]) for r in store.read(
                    "specs", run_id, columns=["service", "spec"], where=("service", sorted(infos))))
            # a large API is mounted as the working subset synthesis built and verified
            return {n: narrowed_spec(ServiceSpec.model_validate_json(raw[n]), subsets.get(n))
                    for n in names if n in raw}

        sources = {b["name"]: b["source"] for b in builds
                   if b["mounted"] and b["implementation"] == "coded" and b["source"]}
        return cls(DependencyGraph.build(nodes), infos, load, sources=sources)

    @classmethod
    def from_specs(cls, specs: Iterable[ServiceSpec], seed: int = 0) -> ServiceLibrary:
        """Every tool of `specs` mounted as built in world `seed`, unverified: a library
        without a store, for tests and benchmarks."""
        by_name = {spec.name: spec for spec in specs}
        nodes = []
        for spec in by_name.values():
            service, _reasons, _model = build_service(spec, seed)
            nodes += [tool_node(t.spec, t.implementation) for t in service.tools.values()]
        infos = {s.name: ServiceInfo(s.name, s.title, s.domain, s.description)
                 for s in by_name.values()}
        return cls(DependencyGraph.build(nodes), infos,
                   lambda names: {n: by_name[n] for n in names if n in by_name})

    def spec(self, name: str) -> ServiceSpec:
        """The spec of one service (loaded once)."""
        if name not in self._specs:
            self._specs.update(self.load_specs([name]))
        if name not in self._specs:
            raise KeyError(f"service {name!r} is not in the library")
        return self._specs[name]

    def pool(self, seed: int) -> Pool:
        """The world's pool of people, companies and places (drawn once per seed)."""
        if seed not in self._pools:
            self._pools[seed] = draw_pool(seed)
        return self._pools[seed]

    def template(self, name: str, seed: int) -> Service:
        """The service as mounted in world `seed`, holding its start state (never mutate:
        `LazyWorld` works on copies).

        Templates are kept per process (`_TEMPLATES`), keyed by the service's mounted tools
        and the seed, so a Dask worker mounts a service once for all the shards it runs:
        mounting (compile, seed, validator compiles) is most of a shard's cost.
        """
        key = (name, seed, self._fingerprint(name))
        found = _TEMPLATES.get(key)
        if found is None:
            if len(_TEMPLATES) >= MAX_TEMPLATES:
                del _TEMPLATES[next(iter(_TEMPLATES))]
            found = _TEMPLATES[key] = self._mount(name, seed)
        return found

    def _fingerprint(self, name: str) -> str:
        if not self._fingerprints:
            by_service: dict[str, list[ToolNode]] = {}
            for node in self.graph.nodes.values():
                by_service.setdefault(node.service, []).append(node)
            self._fingerprints.update(
                (service, hashlib.sha256(canonical_json([
                    (n.name, n.implementation, n.params, n.outputs, n.required,
                     self.sources.get(n.name)) for n in nodes
                ])).hexdigest()[:16])
                for service, nodes in by_service.items()
            )
        return self._fingerprints.get(name, "")

    def _mount(self, name: str, seed: int) -> Service:
        service, _reasons, model = build_service(self.spec(name), seed)
        tools: dict[str, Tool] = {}
        for tool_name, tool in service.tools.items():
            node = self.graph.nodes.get(tool_name)
            if node is None:
                continue  # not mounted by synthesis
            if node.implementation == "simulated" and tool.implementation != "simulated":
                tool = Tool(tool.spec, "simulated", model.handler_for(tool.spec))
            elif node.implementation == "modeled" and tool.implementation == "compiled":
                tool = action_tool(service.spec, tool.spec, model.respond)  # as verified
            elif node.implementation == "coded":
                # Generated code runs in the sandbox here too, exactly as it was verified.
                from compoworld.services.sandbox import SandboxedHandler

                handler = SandboxedHandler(self.sources[tool_name], service.state.schemas)
                tool = Tool(tool.spec, "coded", handler)
            tools[tool_name] = tool
        return Service(service.spec, tools, service.state)

    def world(self, seed: int, patch: Iterable[dict[str, Any]] = ()) -> LazyWorld:
        """A fresh world over this library: services mount when a call first reaches them.
        `patch` (a task's `world_patch`) sets fields of its records before anything runs."""
        return LazyWorld(self, seed, patch)


class LazyWorld:
    """Private copies of the services a run of calls touches, in world `seed`, with the
    fields `patch` sets (each `{service, collection, id, field, value}`: the near-misses a
    selection's world holds, `compose/each.py`) set in its start state."""

    def __init__(self, library: ServiceLibrary, seed: int,
                 patch: Iterable[dict[str, Any]] = ()) -> None:
        self.library = library
        self.seed = seed
        self.patch = [dict(entry) for entry in patch]
        self.services: dict[str, Service] = {}
        self._starts: dict[str, State] = {}

    @property
    def pool(self) -> Pool:
        """The world's pool (visible literals are drawn from it)."""
        return self.library.pool(self.seed)

    def service(self, name: str) -> Service:
        """The world's copy of service `name` (mounted on first use)."""
        found = self.services.get(name)
        if found is None:
            template = self.library.template(name, self.seed)
            found = Service(template.spec, template.tools, self.start(name).copy())
            self.services[name] = found
        return found

    def call(self, tool: str, arguments: Any) -> dict[str, Any]:
        """One call through the protocol (404 for a tool no mounted service has)."""
        node = self.library.graph.nodes.get(tool)
        if node is None:
            return error(404, f"no mounted tool is named {tool!r}; list the tools first")
        return self.service(node.service).call(tool, arguments)

    def start(self, name: str) -> State:
        """The start state of a service in this world (read-only): its template's, with the
        fields of `patch` set."""
        state = self.library.template(name, self.seed).state
        mine = [entry for entry in self.patch if entry["service"] == name]
        if not mine:
            return state
        if name not in self._starts:
            patched = state.copy()
            for entry in mine:
                patched.records(entry["collection"])[str(entry["id"])][entry["field"]] = \
                    entry["value"]
            self._starts[name] = patched
        return self._starts[name]

    def states(self, names: Iterable[str]) -> tuple[dict[str, State], dict[str, State]]:
        """Start and current states of the named services (mounting them if needed)."""
        names = list(names)
        return ({n: self.start(n) for n in names}, {n: self.service(n).state for n in names})

    def digest(self) -> str:
        """Digest of every touched service's state."""
        digests = {name: s.state.digest() for name, s in self.services.items()}
        return hashlib.sha256(canonical_json(digests)).hexdigest()


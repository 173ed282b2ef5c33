"""The dependency graph: which tool's output can feed which tool's input (DESIGN.md, "Graph,
walk, task").

Nodes are mounted tools. An edge `A.field -> B.param` exists when the field's semantic type
equals the parameter's and the type is a *link type*: an entity id (`crm.contacts.id`,
which only ever links tools of one service: list -> get -> update) or one of the shared
interface types in `LINK_TYPES` (email, person name, phone, url, date, money, ...), which
link services. Free text, titles and plain JSON types never make edges: everything would
link to everything.

The graph is an index by type (`producers[type]`, `consumers[type]`), built in one pass
over the tools' fields, so building it is linear in the number of fields. Edges are
implicit: the walk asks `consumers(type)` directly. The edge *count* is quadratic in the
size of the big shared-type buckets (the whole corpus has ~1.5 billion shared-type pairs,
`title` alone a billion), so counts and degrees are computed from the bucket sizes
(`stats`), never by listing pairs, and `edges()` lists every entity-id edge but at most
`fanout` consumers per (producer field, shared type), picked in a stable hashed order with
cross-service consumers first: that sample is what `graph_edges` stores and networkx gets.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from compoworld.graph.roles import edge_score
from compoworld.graph.semtypes import is_entity_id

LINK_TYPES = frozenset({
    "email", "phone", "url", "person_name", "first_name", "last_name", "username", "company",
    "city", "address", "postal_code", "country", "currency", "money", "date", "datetime",
    "filename",
})
# Content types: a record's title or body links only into a step that takes it ("a GitHub
# issue becomes a Linear issue with the same description"), never as a shared interface of
# every service (the title bucket alone is about a billion pairs): they are indexed as
# consumers for those steps to ask for, and make no stored edge.
CONTENT_TYPES = frozenset({"title", "text"})
FANOUT = 8  # stored consumers per (producer field, shared type)
EDGE_THRESHOLD = 0.6  # edges scoring below this (graph/roles.py) are never walked


def is_link_type(type_name: str) -> bool:
    """Whether values of this semantic type make edges (entity ids and shared interfaces)."""
    return type_name in LINK_TYPES or is_entity_id(type_name)


@dataclass(frozen=True, slots=True)
class ToolNode:
    """One mounted tool as the graph sees it."""

    name: str
    service: str
    effect: str
    implementation: str
    resource: str | None
    params: dict[str, str]  # parameter -> semantic type
    required: tuple[str, ...]
    outputs: dict[str, str]  # typed path of a returned field (`data[].email`) -> type
    description: str = ""

    @property
    def writes(self) -> bool:
        """Whether a call changes the service's state (simulated tools change nothing)."""
        return self.effect != "read" and self.implementation in (
            "compiled", "modeled", "builtin", "coded")


@dataclass(frozen=True, slots=True)
class Edge:
    """`source.field -> target.param`, both of semantic type `type`."""

    source: str
    field: str
    target: str
    param: str
    type: str
    cross_service: bool
    score: float = 1.0  # graph/roles.py: how well the field's meaning fits the parameter


@dataclass(slots=True)
class DependencyGraph:
    """Tools indexed by the link types of their outputs and inputs."""

    nodes: dict[str, ToolNode]
    producers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # (tool, field)
    consumers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # (tool, param)
    # linked_consumers' answers: walks ask the same few thousand links again and again
    _linked: dict[tuple[str, str, str, float], list[tuple[str, str]]] = field(
        default_factory=dict, repr=False, compare=False)
    # what code walking the graph derives from it (compose/walk.py `_per_graph`), by table:
    # kept here so it dies with the graph (a module table keyed by graph kept every graph)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, tools: Iterable[ToolNode]) -> DependencyGraph:
        """Index every tool's link-typed outputs and parameters (one pass, sorted)."""
        nodes = {tool.name: tool for tool in sorted(tools, key=lambda t: t.name)}
        producers: dict[str, list[tuple[str, str]]] = defaultdict(list)
        consumers: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for tool in nodes.values():
            for path, kind in sorted(tool.outputs.items()):
                if is_link_type(kind):
                    producers[kind].append((tool.name, path))
            for param, kind in sorted(tool.params.items()):
                if is_link_type(kind) or kind in CONTENT_TYPES:
                    consumers[kind].append((tool.name, param))
        return cls(nodes, dict(producers), dict(consumers))

    def consumers_of(self, type_name: str) -> list[tuple[str, str]]:
        """Every (tool, parameter) that takes a value of `type_name`."""
        return self.consumers.get(type_name, [])

    def score(self, source: str, field: str, target: str, param: str, type_name: str) -> float:
        """The score of the edge `source.field -> target.param` (graph/roles.py)."""
        return edge_score(field, self.nodes[source].resource, param,
                          self.nodes[target].resource, type_name)

    def linked_consumers(self, source: str, field: str, type_name: str,
                         threshold: float = EDGE_THRESHOLD) -> list[tuple[str, str]]:
        """The (tool, parameter) pairs a value of `source.field` may feed: the consumers of
        its type whose edge scores at least `threshold`."""
        key = (source, field, type_name, threshold)
        found = self._linked.get(key)
        if found is None:
            found = self._linked[key] = [
                (target, param) for target, param in self.consumers_of(type_name)
                if target != source
                and self.score(source, field, target, param, type_name) >= threshold]
        return found

    def successors(self, tool: str) -> Iterator[Edge]:
        """Every edge out of `tool` (all of them: used by walks, not for whole-graph lists)."""
        source = self.nodes[tool]
        for path, kind in sorted(source.outputs.items()):
            if not is_link_type(kind):
                continue
            for target, param in self.consumers_of(kind):
                if target != tool:
                    cross = self.nodes[target].service != source.service
                    yield Edge(tool, path, target, param, kind, cross,
                               self.score(tool, path, target, param, kind))

    def edges(self, fanout: int = FANOUT) -> Iterator[Edge]:
        """Every entity-id edge, and up to `fanout` shared-type consumers per producer field
        (cross-service first): the stored sample of the graph.

        Each type's consumers are put in a stable hashed order once; a producer field reads
        that order from its own hashed offset, so the sample costs O(fanout) per field
        (sorting every bucket for every producer took most of a minute on 12k tools).
        """
        for kind in sorted(self.producers):
            takers = self.consumers_of(kind)
            if not takers:
                continue
            if is_entity_id(kind):
                for source, path in self.producers[kind]:
                    service = self.nodes[source].service
                    for target, param in takers:
                        if target != source:
                            cross = self.nodes[target].service != service
                            yield Edge(source, path, target, param, kind, cross, 1.0)
                continue
            order = sorted(takers, key=lambda t: _rank(kind, *t))
            for source, path in self.producers[kind]:
                service = self.nodes[source].service
                offset = int.from_bytes(_rank(source, path), "big") % len(order)
                cross: list[tuple[str, str]] = []
                same: list[tuple[str, str]] = []
                for target, param in chain(order[offset:], order[:offset]):
                    if target == source:
                        continue
                    if self.nodes[target].service != service:
                        cross.append((target, param))
                        if len(cross) == fanout:
                            break
                    elif len(same) < fanout:
                        same.append((target, param))
                for target, param in (cross + same)[:fanout]:
                    yield Edge(source, path, target, param, kind,
                               self.nodes[target].service != service,
                               self.score(source, path, target, param, kind))

    def to_networkx(self, fanout: int = FANOUT) -> Any:
        """A networkx MultiDiGraph of the stored edge sample (nodes carry service, effect)."""
        import networkx as nx

        graph = nx.MultiDiGraph()
        for node in self.nodes.values():
            graph.add_node(node.name, service=node.service, effect=node.effect)
        for edge in self.edges(fanout):
            graph.add_edge(edge.source, edge.target, field=edge.field, param=edge.param,
                           type=edge.type, cross_service=edge.cross_service, score=edge.score)
        return graph

    def stats(self) -> dict[str, Any]:
        """Exact counts from the bucket sizes: nodes, edges, cross-service edges, services
        linked to another one, service pairs, and the out-/in-degree distributions."""
        edges = cross = 0
        out_degree: Counter[str] = Counter()
        in_degree: Counter[str] = Counter()
        pairs: set[tuple[str, str]] = set()
        for kind, made in self.producers.items():
            taken = self.consumers_of(kind)
            if not taken:
                continue
            by_service = Counter(self.nodes[t].service for t, _ in taken)
            by_tool = Counter(t for t, _ in taken)
            for source, _path in made:
                service = self.nodes[source].service
                links = len(taken) - by_tool.get(source, 0)
                edges += links
                cross += len(taken) - by_service[service]
                out_degree[source] += links
            made_by_tool = Counter(t for t, _ in made)
            for target, _param in taken:
                in_degree[target] += len(made) - made_by_tool.get(target, 0)
            if not is_entity_id(kind):
                producing = {self.nodes[t].service for t, _ in made}
                pairs.update((a, b) for a in producing for b in by_service if a != b)
        linked = {a for a, _ in pairs} | {b for _, b in pairs}
        return {
            "nodes": len(self.nodes),
            "services": len({n.service for n in self.nodes.values()}),
            "edges": edges,
            "cross_service_edges": cross,
            "connected_services": len(linked),
            "service_pairs": len({tuple(sorted(p)) for p in pairs}),
            "out_degree": _quantiles([out_degree.get(n, 0) for n in self.nodes]),
            "in_degree": _quantiles([in_degree.get(n, 0) for n in self.nodes]),
        }


def _rank(*parts: str) -> bytes:
    return hashlib.sha256("\0".join(parts).encode()).digest()[:8]


def _quantiles(values: list[int]) -> dict[str, float]:
    if not values:
        return {"min": 0, "median": 0, "p90": 0, "max": 0, "mean": 0.0, "zero": 0}
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"min": ordered[0], "median": at(0.5), "p90": at(0.9), "max": ordered[-1],
            "mean": round(sum(ordered) / len(ordered), 2), "zero": ordered.count(0)}

"""The dependency graph: edge typing, exact statistics, the stored edge sample, networkx."""

from __future__ import annotations

import pytest

from compoworld.graph.depgraph import DependencyGraph, ToolNode, is_link_type


def node(name: str, service: str, effect: str = "read", params=None, outputs=None,
         implementation: str = "compiled") -> ToolNode:
    return ToolNode(name=name, service=service, effect=effect, implementation=implementation,
                    resource=None, params=params or {}, required=tuple(params or {}),
                    outputs=outputs or {})


@pytest.fixture
def graph() -> DependencyGraph:
    return DependencyGraph.build([
        node("crm__list_contacts", "crm",
             outputs={"[].id": "crm.contacts.id", "[].email": "email", "[].note": "text",
                      "[].job_title": "title", "[].age": "integer"}),
        node("crm__get_contact", "crm", params={"contact_id": "crm.contacts.id"},
             outputs={"id": "crm.contacts.id", "email": "email"}),
        node("crm__delete_contact", "crm", "delete", params={"contact_id": "crm.contacts.id"}),
        node("mail__send", "mail", "create",
             params={"to": "email", "body": "text", "subject": "title"}),
        node("shop__orders", "shop", params={"customer_email": "email", "count": "integer"},
             outputs={"data[].id": "shop.orders.id"}),
    ])


def test_edges_link_ids_within_a_service_and_shared_types_across(graph: DependencyGraph):
    edges = {(e.source, e.field, e.target, e.param, e.type, e.cross_service)
             for e in graph.edges()}
    assert ("crm__list_contacts", "[].id", "crm__get_contact", "contact_id",
            "crm.contacts.id", False) in edges
    assert ("crm__list_contacts", "[].email", "mail__send", "to", "email", True) in edges
    assert ("crm__get_contact", "email", "shop__orders", "customer_email", "email", True) in edges
    # free text, titles and plain JSON types never link anything
    assert not any(e.type in ("text", "title", "integer") for e in graph.edges())
    # no tool feeds itself
    assert not any(e.source == e.target for e in graph.edges())


def test_link_types():
    assert is_link_type("email") and is_link_type("crm.contacts.id") and is_link_type("money")
    assert not any(is_link_type(t) for t in ("text", "title", "string", "integer", "boolean"))


def test_exact_stats_match_the_full_edge_list(graph: DependencyGraph):
    edges = list(graph.edges(fanout=10_000))
    stats = graph.stats()
    assert stats["edges"] == len(edges) == 7
    assert stats["cross_service_edges"] == sum(e.cross_service for e in edges) == 4
    assert stats["nodes"] == 5 and stats["services"] == 3
    assert stats["connected_services"] == 3  # crm -> mail, crm -> shop
    assert stats["service_pairs"] == 2
    assert stats["out_degree"]["max"] == 4  # list_contacts: 2 id edges + 2 email edges
    assert stats["in_degree"]["zero"] == 1  # list_contacts takes nothing


def test_successors_lists_every_edge_out_of_a_tool(graph: DependencyGraph):
    out = {(e.target, e.param) for e in graph.successors("crm__get_contact")}
    assert out == {("crm__delete_contact", "contact_id"), ("mail__send", "to"),
                   ("shop__orders", "customer_email")}


def test_shared_type_fanout_is_capped_cross_service_first():
    producers = [node(f"a__read{i}", "a", outputs={"email": "email"}) for i in range(3)]
    consumers = [node(f"b__take{i}", "b", params={"email": "email"}) for i in range(20)]
    same = [node(f"a__take{i}", "a", params={"email": "email"}) for i in range(20)]
    ids = [node(f"a__get{i}", "a", params={"x_id": "a.xs.id"}) for i in range(20)]
    lister = node("a__list", "a", outputs={"[].id": "a.xs.id"})
    graph = DependencyGraph.build(producers + consumers + same + ids + [lister])
    sample = list(graph.edges(fanout=5))
    per_field = {}
    for edge in sample:
        if edge.type == "email":
            per_field.setdefault(edge.source, []).append(edge)
    assert all(len(v) == 5 and all(e.cross_service for e in v) for v in per_field.values())
    # entity-id edges are never capped
    assert sum(1 for e in sample if e.type == "a.xs.id") == 20
    # the exact count still sees every pair
    assert graph.stats()["edges"] == 3 * 40 + 20
    # the sample is stable
    assert sample == list(graph.edges(fanout=5))


def test_networkx_view_carries_the_edge_attributes(graph: DependencyGraph):
    nx_graph = graph.to_networkx(fanout=10_000)
    assert nx_graph.number_of_nodes() == 5 and nx_graph.number_of_edges() == 7
    data = nx_graph.get_edge_data("crm__list_contacts", "mail__send")
    assert [d["param"] for d in data.values()] == ["to"]
    assert nx_graph.nodes["mail__send"]["service"] == "mail"


def test_simulated_writes_do_not_count_as_writes():
    assert node("x__send", "x", "create").writes
    assert not node("x__send", "x", "create", implementation="simulated").writes
    assert not node("x__get", "x").writes


def test_content_types_are_asked_for_but_make_no_stored_edge():
    """Titles and bodies feed only the workflow steps that take them: the graph indexes
    their consumers, and lists no title edge (the title bucket alone is about a billion
    pairs on the whole corpus)."""
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    reader = ToolNode(name="gh__list_issues", service="gh", effect="read",
                      implementation="modeled", resource="issues", params={}, required=(),
                      outputs={"[].id": "gh.issues.id", "[].title": "title", "[].body": "text"})
    maker = ToolNode(name="lin__create_issue", service="lin", effect="create",
                     implementation="modeled", resource="issues",
                     params={"title": "title", "description": "text"}, required=("title",),
                     outputs={"id": "lin.issues.id"})
    graph = DependencyGraph.build([reader, maker])
    assert graph.linked_consumers("gh__list_issues", "[].body", "text") == [
        ("lin__create_issue", "description")]
    assert graph.linked_consumers("gh__list_issues", "[].title", "title") == [
        ("lin__create_issue", "title")]
    assert not [e for e in graph.edges() if e.type in ("title", "text")]

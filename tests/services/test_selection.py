"""The default service selection: deterministic, work apps first, ranked by business surface,
large APIs mounted as a working subset."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from compoworld.services.selection import (
    CEILING_TOOLS,
    NON_WORK_CATEGORIES,
    SUBSET_COLLECTION_TOOLS,
    SUBSET_MIN_TOOLS,
    SUBSET_TOOLS,
    is_work,
    narrowed_spec,
    rank_key,
    select_library,
    select_services,
    selection_digest,
    shards_with_selection,
    size_filtered,
    subset_tools,
)


def candidate(name: str, n_tools: int, crud: float) -> dict:
    return {"service": name, "n_tools": n_tools, "crud_share": crud}


CANDIDATES = [
    candidate("tiny", 3, 1.0),
    candidate("huge", 500, 1.0),
    candidate("b_rest", 20, 0.95),
    candidate("a_rest", 12, 0.97),
    candidate("rpc", 40, 0.1),
    candidate("mixed", 30, 0.5),
]


def test_selects_best_ranked_within_tool_bounds_sorted_by_name():
    assert select_services(CANDIDATES, 2) == ["a_rest", "b_rest"]
    assert select_services(CANDIDATES, 3) == ["a_rest", "b_rest", "mixed"]
    assert select_services(CANDIDATES, 10) == ["a_rest", "b_rest", "mixed", "rpc"]


def test_order_of_candidates_does_not_matter():
    assert select_services(CANDIDATES[::-1], 3) == select_services(CANDIDATES, 3)


def test_none_takes_every_service():
    assert select_services(CANDIDATES, None) == sorted(c["service"] for c in CANDIDATES)


def test_count_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        select_services(CANDIDATES, 0)


# --- work apps first, large APIs as a working subset ----------------------------------------

def api(name: str, collections: dict[str | None, int], *, domain: str = "other",
        source: str | None = None, effect: str = "read") -> dict:
    """A candidate row as `storage.queries.service_candidates` gives it: `count` tools on
    each collection (None: tools on no collection), in name order."""
    rows = sorted((f"{name}__{collection or 'action'}_{k:03d}", collection)
                  for collection, count in collections.items() for k in range(count))
    effects = [effect if collection else "action" for _, collection in rows]
    crud = sum(e != "action" for e in effects) / len(rows)
    return {"service": name, "n_tools": len(rows), "crud_share": crud, "domain": domain,
            "source": source or f"openapi:{name}.example", "tools": [n for n, _ in rows],
            "resources": [c for _, c in rows], "effects": effects}


LARGE = api("bigcrm", {"customers": 40, "invoices": 12, "tickets": 9, "payments": 7,
                       "webhooks": 150, "settings": 60, None: 30})


def test_a_large_api_yields_a_subset_of_its_main_collections_within_bounds():
    [chosen] = select_library([LARGE], 5)
    assert chosen.service == "bigcrm" and chosen.tools is not None
    assert SUBSET_MIN_TOOLS <= len(chosen.tools) <= SUBSET_TOOLS < LARGE["n_tools"]
    collection = dict(zip(LARGE["tools"], LARGE["resources"], strict=True))
    kept = Counter(collection[name] for name in chosen.tools)
    # only business-entity collections, each of them, none past its share
    assert set(kept) == {"customers", "invoices", "tickets", "payments"}
    assert max(kept.values()) <= SUBSET_COLLECTION_TOOLS
    assert kept["invoices"] == 12 and kept["tickets"] == 9
    assert f"{len(chosen.tools)} of {LARGE['n_tools']} tools" in chosen.reason
    assert "customers" in chosen.reason and "webhooks" not in chosen.reason


def test_the_subset_is_the_same_every_time_whatever_the_order_of_the_tools():
    first = select_library([LARGE], 5)[0].tools
    rows = list(zip(LARGE["tools"], LARGE["resources"], LARGE["effects"], strict=True))
    random.Random(7).shuffle(rows)
    shuffled = LARGE | {key: [row[i] for row in rows]
                        for i, key in enumerate(("tools", "resources", "effects"))}
    assert select_library([shuffled], 5)[0].tools == first
    assert select_library([LARGE], 5)[0].tools == first


def test_a_large_api_with_few_entity_tools_is_filled_from_its_largest_collections():
    sparse = api("ops", {"contacts": 6, "webhooks": 150, "settings": 60, "logs": 3})
    [chosen] = select_library([sparse], 5)
    collection = dict(zip(sparse["tools"], sparse["resources"], strict=True))
    kept = Counter(collection[name] for name in chosen.tools)
    assert len(chosen.tools) == SUBSET_MIN_TOOLS and kept["contacts"] == 6
    assert "logs" not in kept  # the largest collections fill, not the smallest


def test_an_api_over_the_ceiling_or_without_its_tool_list_is_left_out_and_said():
    huge = api("graph", {"users": CEILING_TOOLS + 1})
    nameless = {k: v for k, v in LARGE.items() if k not in ("tools", "effects")}
    assert select_library([huge, nameless], 5) == []
    assert size_filtered([huge, nameless]) == \
        f"2 of 2 ingested services (2 with more than {CEILING_TOOLS})"
    assert size_filtered([LARGE]) is None


def test_a_small_api_is_mounted_whole():
    [chosen] = select_library([api("small", {"contacts": 12})], 5)
    assert chosen.tools is None and "12 of 12 tools on business entities" in chosen.reason


@pytest.mark.parametrize("api_name", ["gmail", "calendar", "sheets", "drive", "people"])
def test_a_google_workspace_api_is_a_work_app_whatever_its_corpus_category(api_name: str):
    google = api(f"googleapis_com_{api_name}", {"settings": 20}, domain="analytics",
                 source=f"openapi:googleapis.com/{api_name}")
    best = [api(f"crm{i}", {"contacts": 20}, effect="create") for i in range(3)]
    assert is_work(google)
    assert rank_key(google) < min(rank_key(c) for c in best)  # a work app comes first
    assert select_library([google, *best], 1)[0].service == google["service"]


def test_an_open_data_service_comes_after_every_work_app():
    # a perfect open-data API against weak work services: it still comes last
    open_data = api("stats_gov", {"contacts": 30}, domain="open_data", effect="create")
    work = [api(f"tool{i}", {"widgets": 10, None: 10}) for i in range(4)]
    work.append(api("gmail", {None: 10}, domain="analytics",
                    source="openapi:googleapis.com/gmail"))
    ranked = sorted([open_data, *work], key=rank_key)
    assert ranked[-1] is open_data
    assert "stats_gov" not in select_services([open_data, *work], len(work))
    # taken only when too few others exist, and said so
    [last] = [s for s in select_library([open_data, *work], 10) if s.service == "stats_gov"]
    assert "non-work category open_data" in last.reason


def test_the_non_work_categories_are_compose_s():
    from compoworld.compose.patterns import NON_WORK_DOMAINS

    assert NON_WORK_CATEGORIES == NON_WORK_DOMAINS


def test_a_narrowed_spec_holds_only_the_subset_and_its_collections():
    from compoworld.specs.openapi import load_openapi
    from tests.services.helpers import api_document

    spec = load_openapi(api_document({"customers": 3, "settings": 2}), "big.example")
    keep = [t.name for t in spec.tools if t.resource == "customers"][:2]
    narrowed = narrowed_spec(spec, keep)
    assert [t.name for t in narrowed.tools] == keep and list(narrowed.resources) == ["customers"]
    assert narrowed_spec(spec, None) is spec


def test_of_several_versions_of_one_api_only_the_best_ranked_is_taken():
    main = api("github_com_api", {"issues": 10, "comments": 10},
               source="openapi:github.com/api.github.com")
    # the same operations (`issues_000`...) under another version of GitHub's own API
    version = api("github_com_ghes", {"issues": 10, "comments": 10},
                  source="openapi:github.com/ghes-3.8")
    # the same operation names at another provider: another app
    other = api("gitlab_com", {"issues": 10, "comments": 10}, source="openapi:gitlab.com")
    assert select_services([main, version, other], 10) == ["github_com_api", "gitlab_com"]
    assert select_services([version, other], 10) == ["github_com_ghes", "gitlab_com"]


def test_each_shard_is_told_only_its_own_services_and_gets_the_subset_back():
    from compoworld.shards import plan_shards
    from compoworld.specs.openapi import load_openapi
    from tests.services.helpers import api_document

    chosen = select_library([LARGE, api("small", {"contacts": 12})], 5)
    shards = shards_with_selection(plan_shards(
        run_id="r", stage="synthesize", items=[s.service for s in chosen], shard_size=1,
        params={"selection": selection_digest(chosen)}, work="m:f"), chosen)
    told = [shard.params["selection"] for shard in shards]
    assert [list(t) for t in told] == [["bigcrm"], ["small"]]
    assert "at" not in told[1]["small"] and told[1]["small"]["reason"]
    # positions name the subset's tools among the spec's own, whatever their order there
    document = api_document({"customers": 3, "settings": 2})
    spec = load_openapi(document, "big.example")
    keep = sorted(t.name for t in spec.tools if t.resource == "customers")
    reversed_spec = spec.model_copy(update={"tools": spec.tools[::-1]})
    at = [i for i, name in enumerate(sorted(t.name for t in spec.tools)) if name in keep]
    assert subset_tools(reversed_spec, at) == keep and subset_tools(spec, None) is None


def test_a_sprawling_collection_keeps_its_plainest_tools():
    """Zoom's `users` collection holds more operations than a subset keeps of one
    collection; cut by name, `user_assistants_*` and `user_settings_*` filled it and its
    list of users (`users`) was left out, so no meeting's host could be looked up by name.
    The plainest names come first."""
    from compoworld.services.selection import working_subset

    names = ["zoom__users", "zoom__user", "zoom__user_create"] + [
        f"zoom__user_assistant_{verb}_{n}" for verb in ("create", "delete")
        for n in range(SUBSET_COLLECTION_TOOLS)]
    effects = ["read", "read", "create"] + ["create", "delete"] * SUBSET_COLLECTION_TOOLS
    chosen, _ = working_subset(names, ["users"] * len(names), effects)
    assert {"zoom__users", "zoom__user", "zoom__user_create"} <= set(chosen)
    assert len(chosen) == SUBSET_COLLECTION_TOOLS


def test_every_main_collection_gets_its_core_before_the_largest_get_more():
    """GitHub's four largest collections (repositories, comments, repos, projects) filled
    its 64 tools when each was taken whole in turn: its issues, pull requests and users
    were left out, and no issue of it could be read or filed."""
    from compoworld.services.selection import SUBSET_CORE_TOOLS

    github = api("github", {"repositories": 36, "comments": 34, "repos": 27, "projects": 17,
                            "issues": 10, "pulls": 8, "users": 7, "secrets": 32})
    [chosen] = select_library([github], 5, max_tools=100)
    collection = dict(zip(github["tools"], github["resources"], strict=True))
    kept = Counter(collection[name] for name in chosen.tools)
    assert {"issues", "pulls", "users"} <= set(kept) and "secrets" not in kept
    assert min(kept.values()) >= SUBSET_CORE_TOOLS and len(chosen.tools) == SUBSET_TOOLS
    assert kept["repositories"] > SUBSET_CORE_TOOLS  # the largest get the room left


def test_a_version_is_told_by_all_its_tools_and_a_small_api_inside_a_large_is_no_version():
    """GitHub Enterprise Server 2.18 holds 509 operations, most of them api.github.com's
    845: compared by working subsets or by the share of all names alone, it passed as
    another app and both were mounted. Apideck's lead API (5 operations) is all inside its
    CRM (40) and is an app of its own."""
    def names(prefix: str, count: int, start: int = 0) -> list[str]:
        return [f"{prefix}__op_{k:04d}" for k in range(start, start + count)]

    def candidate(service: str, tools: list[str], source: str) -> dict:
        return {"service": service, "n_tools": len(tools), "crud_share": 1.0,
                "domain": "developer_tools", "source": source, "tools": tools,
                "resources": ["issues"] * len(tools), "effects": ["read"] * len(tools)}

    main = candidate("gh_api", names("gh_api", 845), "openapi:github.com/api.github.com")
    # 380 of its 509 operations are api.github.com's: 75% of it, 39% of both together
    ghes = candidate("gh_ghes", names("gh_ghes", 380) + names("gh_ghes", 129, 5000),
                     "openapi:github.com/ghes-2.18")
    assert select_services([main, ghes], 10, max_tools=2000) == ["gh_api"]
    crm = candidate("crm", names("crm", 40), "openapi:apideck.com/crm")
    lead = candidate("lead", names("lead", 5), "openapi:apideck.com/lead")
    assert select_services([crm, lead], 10) == ["crm", "lead"]

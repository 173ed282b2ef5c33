"""Choosing distractor services: unused ones, same domain first, stable for a seed."""

from __future__ import annotations

import pytest

from compoworld.compose.distractors import choose_distractors
from compoworld.compose.library import ServiceInfo


def info(name: str, domain: str, title: str, description: str = "") -> ServiceInfo:
    return ServiceInfo(name=name, title=title, domain=domain, description=description)


INFOS = {s.name: s for s in [
    info("crm", "sales", "Customer contacts", "Contacts, companies and deals."),
    info("email", "communication", "Email", "Send and search email messages."),
    info("pipedrive", "sales", "Pipedrive", "Pipeline boards."),
    info("hubspot", "sales", "HubSpot", "Marketing automation."),
    info("chat", "communication", "Team chat", "Channels and messages."),
    info("sms", "communication", "Text messages", "Send text messages."),
    # Shares the most words with crm, but in another domain.
    info("contacts_book", "storage", "Customer contacts book", "Contacts, companies and deals."),
    info("maps", "travel", "Maps", "Places and routes."),
    info("weather", "travel", "Weather", "Forecasts."),
]}


@pytest.mark.parametrize("used", [["crm"], ["crm", "email"], ["maps", "sms", "hubspot"]])
@pytest.mark.parametrize("k", [0, 1, 3, 20])
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_distractors_are_never_used_services(used: list[str], k: int, seed: int) -> None:
    chosen = choose_distractors(INFOS, used, k, seed)
    assert not set(chosen) & set(used)
    assert len(chosen) == len(set(chosen)) == min(k, len(INFOS) - len(used))
    assert set(chosen) <= set(INFOS)


def test_same_domain_services_come_first() -> None:
    chosen = choose_distractors(INFOS, ["crm"], 2, seed=0)
    assert set(chosen) == {"pipedrive", "hubspot"}  # not contacts_book, despite its words
    everything = choose_distractors(INFOS, ["crm"], 20, seed=0)
    same = [INFOS[name].domain == "sales" for name in everything]
    assert same == sorted(same, reverse=True)


def test_every_used_domain_counts() -> None:
    chosen = choose_distractors(INFOS, ["crm", "maps"], 3, seed=5)
    assert set(chosen) == {"pipedrive", "hubspot", "weather"}


def test_word_overlap_ranks_the_other_domains() -> None:
    everything = choose_distractors(INFOS, ["crm"], 20, seed=0)
    assert everything[2] == "contacts_book"  # first after the two sales services


def test_the_same_seed_gives_the_same_choice() -> None:
    for seed in range(5):
        first = choose_distractors(INFOS, ["crm", "email"], 4, seed)
        assert choose_distractors(dict(reversed(INFOS.items())), ("email", "crm"), 4,
                                  seed) == first


def test_the_seed_breaks_ties() -> None:
    # Services in one other domain, with nothing in common with the used one: all tied.
    tied = {name: info(name, "misc", name.capitalize()) for name in
            ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]}
    infos = {"crm": INFOS["crm"]} | tied
    orders = {tuple(choose_distractors(infos, ["crm"], 6, seed)) for seed in range(20)}
    assert len(orders) > 1
    assert all(set(order) == set(tied) for order in orders)


def test_k_larger_than_available_returns_all_the_rest() -> None:
    chosen = choose_distractors(INFOS, ["crm", "email"], 50, seed=3)
    assert set(chosen) == set(INFOS) - {"crm", "email"}
    assert choose_distractors(INFOS, list(INFOS), 3, seed=3) == []


def test_unknown_used_names_are_ignored() -> None:
    chosen = choose_distractors(INFOS, ["crm", "not_a_service"], 2, seed=0)
    assert set(chosen) == {"pipedrive", "hubspot"}

"""A record's text fits its kind and its state."""

from __future__ import annotations

import random

import pytest

from compoworld.world.schemavalues import value_from_schema
from compoworld.world.texts import _LINES


def test_every_ticket_waits_on_us_never_on_its_customer() -> None:
    """A request asks us to reply to a ticket, so no ticket text says we already did and wait
    on the customer: "we are looking into it" answering a ticket "first reply sent, waiting on
    their answer" replies to a question nobody asked."""
    for line in _LINES["ticket"]:
        said = line.lower()
        assert not any(words in said for words in (
            "reply sent", "waiting on their", "waiting for their answer",
            "waiting on the customer")), line


_PERSON = {"type": "object", "required": ["id", "login", "full_name", "email", "description"],
           "properties": {"id": {"type": "integer"}, "login": {"type": "string"},
                          "full_name": {"type": "string"},
                          "email": {"type": "string", "format": "email"},
                          "description": {"type": "string"}}}
# What only a customer does: buy from us.
_BUYING = ("order", "purchas", "demo", "trade show")


def _notes(resource: str) -> set[str]:
    return {value_from_schema(_PERSON, random.Random(seed), service="gitea",
                              resource=resource)["description"] for seed in range(12)}


@pytest.mark.parametrize("resource", ["users", "team_members", "employees", "staff"])
def test_an_apps_own_people_get_a_colleagues_notes(resource: str) -> None:
    """A code host's user is our colleague, no customer: a Gitea user described as "Usually
    orders at the start of each quarter." was read as a customer's note."""
    notes = _notes(resource)
    assert notes <= set(_LINES["colleague"]), notes
    assert not any(word in note.lower() for note in notes for word in _BUYING), notes


@pytest.mark.parametrize("resource", ["attendees", "guests", "patients"])
def test_other_people_get_no_buying_notes(resource: str) -> None:
    """A meeting's guest or a clinic's patient buys nothing from us either."""
    notes = _notes(resource)
    assert not any(word in note.lower() for note in notes for word in _BUYING), notes


@pytest.mark.parametrize("resource", ["customers", "contacts", "leads", "clients"])
def test_customers_keep_a_customers_notes(resource: str) -> None:
    """A CRM's contact or a shop's customer is told of as a buyer, each in their own words."""
    notes = _notes(resource)
    assert notes <= set(_LINES["customer"]) and len(notes) > 1, notes

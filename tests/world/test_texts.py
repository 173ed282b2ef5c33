"""A record's text fits its kind and its state."""

from __future__ import annotations

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

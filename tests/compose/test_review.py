"""A review pack names each service as the request does, with its document's title."""

from __future__ import annotations

from compoworld.compose.review import render_task


def test_a_pack_names_services_as_the_request_does():
    """"Accounting API" in the service list next to "Codat Accounting" in the request
    reads as a mismatch: the pack shows both."""
    task = {"services": ["codat_io_accounting", "twilio_com_api"], "instruction": "Hi.",
            "gold_calls": [], "answer": [], "rubric": []}
    services = {"codat_io_accounting": {"title": "Accounting API", "domain": "financial"},
                "twilio_com_api": {"title": "Twilio", "domain": "telecom"}}
    text = render_task(1, task, services)
    assert "- Codat Accounting (Accounting API) (financial): " in text, text
    assert "- Twilio (telecom): " in text, text


def test_a_pack_says_the_date_and_time_the_agent_is_told():
    """"Every meeting that is still ahead", "overdue": a reviewer who did not know the
    agent is told the date and time found the selection unjudgeable (3 of 40 tasks)."""
    from compoworld.compose.review import render_pack
    from compoworld.rollout.episode import SYSTEM_PROMPT
    from compoworld.world.clock import NOW_TEXT

    assert "{now}" in SYSTEM_PROMPT
    assert f"current date and time, {NOW_TEXT}" in render_pack([], {}, 1)

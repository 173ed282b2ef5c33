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

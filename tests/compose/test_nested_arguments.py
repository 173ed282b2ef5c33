"""Values bound inside object parameters: Mandrill's `message.to[0].email`, SendGrid's
`personalizations[0].to[0].email`, a calendar's `attendees[0].email`."""

from __future__ import annotations

import random

import pytest

from compoworld.compose.arguments import named, nest, required_part, schema_at, set_at
from compoworld.compose.build import compose_task
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Binding, Task
from compoworld.compose.references import is_sender, is_sender_name
from compoworld.compose.stage import start_tools
from compoworld.compose.verify import Deduper, verify_task
from compoworld.compose.workflows import BY_NAME, WORKFLOWS
from compoworld.reward.rubric import with_leaves
from compoworld.specs.fields import nested_param_types, nested_required

MAIL = {"type": "object", "required": ["personalizations", "from", "content"], "properties": {
    "personalizations": {"type": "array", "items": {
        "type": "object", "required": ["to"], "properties": {
            "to": {"type": "array", "items": {"type": "object", "required": ["email"],
                                              "properties": {"email": {"type": "string"},
                                                             "name": {"type": "string"}}}},
            "cc": {"type": "array", "items": {"type": "object", "properties": {
                "email": {"type": "string"}}}}}}},
    "from": {"type": "object", "required": ["email"], "properties": {
        "email": {"type": "string"}, "name": {"type": "string"}}},
    "content": {"type": "array", "items": {"type": "object", "required": ["type", "value"],
                "properties": {"type": {"type": "string"}, "value": {"type": "string"}}}},
    "subject": {"type": "string"},
    "tracking": {"type": "object", "properties": {"flag": {}}},
}}


def test_nested_leaves_are_typed_by_concrete_path():
    types = nested_param_types(MAIL, service="sendgrid_com", resource="mail")
    assert types["personalizations[0].to[0].email"] == "email"
    assert types["personalizations[0].to[0].name"] == "person_name"  # a recipient's name
    assert types["from.email"] == "email"
    assert types["content[0].value"] == "text"  # a body's generic `value` is its text
    assert "tracking.flag" not in types  # an untyped leaf is no known value
    assert nested_required(MAIL) == {"personalizations[0].to[0].email", "from.email",
                                     "content[0].type", "content[0].value"}


def test_a_path_names_the_sender_of_a_message_inside_its_object():
    assert is_sender("from.email", "email") and is_sender("message.from_email", "email")
    assert is_sender("personalizations[0].from.email", "email")
    assert not is_sender("personalizations[0].to[0].email", "email")
    assert is_sender_name("from.name", "person_name")
    assert not is_sender_name("personalizations[0].to[0].name", "person_name")
    assert not is_sender_name("sender_name", "person_name")  # (top level: as before)


def test_bound_leaves_go_into_their_object_and_read_back_by_path():
    drawn = {"personalizations": [{"to": [{"email": "x@drawn.org", "name": "Drawn"},
                                          {"email": "y@drawn.org"}],
                                   "cc": [{"email": "stranger@drawn.org"}]}]}
    flat = {"personalizations": required_part(MAIL["properties"]["personalizations"],
                                              drawn["personalizations"]),
            "personalizations[0].to[0].email": "ana@lakeside.com", "subject": "Hello"}
    sent = nest(flat, MAIL["properties"])
    # one recipient, the one given: no drawn second recipient, no drawn copy to a stranger
    assert sent == {"subject": "Hello",
                    "personalizations": [{"to": [{"email": "ana@lakeside.com"}]}]}
    bindings = {"personalizations[0].to[0].email": Binding(kind="hidden", type="email"),
                "subject": Binding(kind="visible", type="title")}
    assert named(sent, bindings) == {"subject": "Hello",
                                     "personalizations[0].to[0].email": "ana@lakeside.com"}
    # a top-level name that reads like a path is no path (Twilio's form parameters)
    twilio = {"Bindings.Email.Address": "ana@lakeside.com", "filter[status]": "open"}
    assert nest(twilio, twilio) == twilio
    assert named(twilio, {"Bindings.Email.Address": Binding(kind="hidden", type="email")}
                 ) == twilio
    target: dict = {}
    set_at(target, "message.to[0].email", "a@b.org")
    assert target == {"message": {"to": [{"email": "a@b.org"}]}}
    assert schema_at(MAIL, "from.email") == {"type": "string"}
    assert schema_at(MAIL, "nothing.here") == {}


def test_a_record_is_checked_at_the_leaves_of_its_objects():
    record = {"id": "act_0001", "message": {"to": [{"email": "ana@lakeside.com"}],
                                            "subject": "Hi"}}
    leaves = with_leaves(record)
    assert leaves["message.to[0].email"] == "ana@lakeside.com"
    assert leaves["message.subject"] == "Hi"
    assert leaves["message"] == record["message"]  # (the object itself stays)


@pytest.fixture(scope="module")
def mail_library(corpus) -> ServiceLibrary:
    from compoworld.specs.sources import load_document

    docs = ["billbee.io.json", "mandrillapp.com.json", "sendgrid.com.json"]
    library = ServiceLibrary.from_specs([load_document(corpus, doc) for doc in docs], seed=5)
    library.use_workflows(WORKFLOWS)
    return library


@pytest.mark.slow
@pytest.mark.parametrize("name", ["outage_apology", "card_expiry_notice"])
def test_a_message_goes_out_through_an_email_api_that_takes_its_recipient_nested(
        name, mail_library):
    """Mandrill and SendGrid take the recipient inside an object. Before, neither could send
    a workflow's email; then a Mandrill send "answered" for another address was rejected
    but stayed in the world, so its rubric wanted an email the task never asked for."""
    workflow = BY_NAME[name]
    starts = sorted(s for s in start_tools(mail_library.graph, patterned=True)
                    if workflow in mail_library.patterns_at(s))
    made = [compose_task(mail_library, 7, starts[seed % len(starts)], random.Random(seed),
                         f"t{seed}", patterned=True, workflow=workflow) for seed in range(6)]
    tasks = [t for t in made if isinstance(t, Task)]
    assert len(tasks) >= 3, {str(t) for t in made}
    for task in tasks:
        assert all(verify_task(task, mail_library, Deduper()).values()), task.task_id
        send = task.gold_calls[-1]
        assert send.service in ("mandrillapp_com", "sendgrid_com")
        to = [p for p, b in send.bindings.items() if b.kind == "hidden" and b.type == "email"]
        assert to and all("." in p for p in to), send.bindings  # carried inside its object
        recipients = (send.arguments.get("message") or {}).get("to") or [
            t for p in send.arguments.get("personalizations", []) for t in p["to"]]
        assert len(recipients) == 1, send.arguments  # nobody drawn beside them
        assert "hello@" in task.instruction  # sent from our address, which it names
        creates = [c for c in task.rubric if c.kind == "record_created"]
        assert len(creates) == 1, [c.description for c in task.rubric]  # one email


def test_a_message_s_text_inside_its_object_is_what_it_says():
    """WhatsApp's `send_message` takes its words as `text.body`: with the body out of
    reach every message there said nothing but its recipient, and was no message."""
    from compoworld.compose.library import nested_params
    from compoworld.specs.records import ToolSpec

    spec = ToolSpec(service="whatsapp", name="whatsapp__send_message", description="Send",
                    parameters={"type": "object", "required": ["to"], "properties": {
                        "to": {"type": "string"}, "type": {"type": "string"},
                        "text": {"type": "object", "required": ["body"],
                                 "properties": {"body": {"type": "string"}}},
                        "image": {"type": "object", "properties": {
                            "caption": {"type": "string"}}}}},
                    returns={}, effect="action", resource="messages", source="test")
    nested = nested_params(spec)
    assert nested.get("text.body") == "text"
    assert not any(path.startswith("image.") for path in nested)  # (an attachment's draw)

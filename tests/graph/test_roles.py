"""Edge scores by meaning: the issue's examples of links people make and of links that
only share a JSON type, on both sides of the walk's threshold."""

from __future__ import annotations

import pytest

from compoworld.graph.depgraph import EDGE_THRESHOLD
from compoworld.graph.roles import edge_score, noun_entity, role_of


@pytest.mark.parametrize("source, source_resource, target, target_resource, kind", [
    ("data[].customer_email", "invoices", "to", "messages", "email"),  # same person
    ("data[].email", "contacts", "recipient", "emails", "email"),
    ("website", "companies", "homepage", "organizations", "url"),  # name agreement
    ("data[].amount", "invoices", "amount", "refunds", "money"),  # invoice -> refund
    ("due_date", "invoices", "due_date", "invoices", "date"),
    ("data[].id", "contacts", "contact_id", "contacts", "crm.contacts.id"),  # one service
    ("[].start_time", "meetings", "start", "events", "datetime"),
])
def test_links_people_make_are_walked(source, source_resource, target, target_resource, kind):
    assert edge_score(source, source_resource, target, target_resource, kind) >= EDGE_THRESHOLD


@pytest.mark.parametrize("source, source_resource, target, target_resource, kind", [
    ("images[].created", "images", "valid_not_after", "certificates", "datetime"),
    ("license", "atms", "readme_url", "applications", "url"),
    ("[].updated_at", "feeds", "time_updated", "keys", "datetime"),  # bookkeeping times
    ("data[].email", "customers", "assignee_email", "issues", "email"),  # customer != staff
    ("BudgetAmount", "projects", "price", "products", "money"),
    ("data[].email", "contacts", "title", "tasks", "title"),  # free text: no role at all
    ("data[].email", "contacts", "from_email", "messages", "email"),  # `from` is us
    ("original_image_url", "products", "image_url", "conversations", "url"),
])
def test_coincidences_of_format_are_not(source, source_resource, target, target_resource,
                                        kind):
    assert edge_score(source, source_resource, target, target_resource, kind) < EDGE_THRESHOLD


def test_a_role_comes_from_the_fields_own_words_before_its_collection():
    assert str(role_of("customer_email", "email", "invoices")) == "person.email"
    assert str(role_of("due_date", "date", "invoices")) == "invoice.time:due"
    assert str(role_of("email", "email", "contacts")) == "person.email"
    assert role_of("body", "text", "messages") is None
    assert noun_entity("support_tickets") == "ticket" and noun_entity("widgets") == ""
    assert noun_entity("email_templates") == ""  # the head noun decides


@pytest.mark.parametrize(("noun", "entity"), [
    ("pulls", "pull_request"), ("pull_requests", "pull_request"), ("mergeRequests", "pull_request"),
    ("repos", "repository"), ("releases", "release"), ("channels", "channel"),
    ("folders", "folder"), ("envelopes", "envelope"), ("campaigns", "campaign"),
    ("mailing_lists", "audience"), ("leave_requests", "leave"), ("time_off", "leave"),
    ("expenses", "expense"),
    # a head of two words does not swallow a plain one: a support ticket is a ticket
    ("support_tickets", "ticket"), ("lists_members", "person"),
])
def test_the_ontology_names_the_work_apps_records(noun, entity):
    """GitHub's pulls, a chat app's channels, a signing app's envelopes, an HR app's leave
    requests are entities of their own (a folder is no document to share, an expense no
    customer's payment)."""
    assert noun_entity(noun) == entity


@pytest.mark.parametrize("param", ["reply_to_email", "replyTo", "ReplyTo", "reply_to"])
def test_where_answers_go_is_our_side_never_the_recipient(param):
    """A message's reply-to address is ours: a welcome that put the customer's email only
    into `reply_to_email` (and sent them nothing) was checked as "an email to them"."""
    assert role_of(param, "email", "emails").entity == "staff"
    assert edge_score("[].email", "contacts", param, "emails", "email") < 0.6
    assert role_of("to", "email", "emails").entity == "person"


@pytest.mark.parametrize(("field", "resource"), [
    ("data[].resourceEmail", "appointments"), ("[].host_email", "meetings"),
    ("owner.email", "deals"), ("agent_phone", "tickets")])
def test_a_record_s_resource_host_agent_or_owner_is_our_side(field, resource):
    """A booking's resource is the staff member it books: "Could you tell me its
    resource's phone number? You'll find its resource in Stripe" looked up our own staff
    member among the customers, and reminders went to them as to the customer."""
    kind = "phone" if field.endswith("phone") else "email"
    assert role_of(field, kind, resource).entity == "staff"
    assert edge_score(field, resource, "to", "emails", kind) < 0.6
    assert role_of("data[].email", kind, resource).entity == "person"


def test_content_links_a_record_s_own_title_or_body_to_another_s():
    """"A GitHub issue becomes a Linear issue with the same description": a record's own
    title or body links into another's title, summary or description; a title inside it
    (its milestone's), or a person's description, links nothing."""
    assert edge_score("[].title", "issues", "summary", "tickets", "title") >= 0.6
    assert edge_score("[].body", "issues", "description", "tickets", "text") >= 0.6
    assert edge_score("[].body", "issues", "text", None, "text") >= 0.6  # (a chat post)
    assert edge_score("[].milestone.title", "issues", "title", "tickets", "title") == 0.0
    assert edge_score("[].assignee.description", "issues", "description", "tickets",
                      "text") == 0.0
    assert edge_score("[].title", "issues", "timezone", "tickets", "title") == 0.0
    # a Django-style nested parameter is another record's: a pull request's title went
    # into a GSMTasks task's `order__orderer__name`
    assert edge_score("[].title", "pulls", "order__orderer__name", "tasks", "title") == 0.0

"""Semantic types: formats, field names, entity ids and the shared-type registry."""

from __future__ import annotations

import pytest

from compoworld.graph.semtypes import (
    FALLBACK_TYPES,
    SHARED_TYPES,
    entity_id_type,
    is_entity_id,
    pluralize,
    semantic_type,
    singularize,
    split_words,
)


def typed(name: str, schema: dict | None = None, resource: str | None = None) -> str:
    return semantic_type(name, schema or {"type": "string"}, service="crm", resource=resource)


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("email", "email"), ("date-time", "datetime"), ("date", "date"), ("uri", "url"),
        ("url", "url"), ("uuid", "uuid"), ("ipv4", "ipv4"), ("ipv6", "ipv6"),
        ("hostname", "hostname"), ("time", "time"), ("binary", "string"),
    ],
)
def test_format_decides(fmt: str, expected: str) -> None:
    assert typed("value", {"type": "string", "format": fmt}) == expected


@pytest.mark.parametrize(
    ("name", "schema", "expected"),
    [
        ("email", None, "email"), ("billingEmail", None, "email"),
        ("email_address", None, "email"), ("phone_number", None, "phone"),
        ("country", None, "country"), ("country_code", None, "country"),
        ("currency", None, "currency"), ("amount", {"type": "integer"}, "money"),
        ("unit-price", {"type": "number"}, "money"), ("total", {"type": "number"}, "money"),
        ("total", {"type": "integer"}, "integer"),
        ("messagesTotal", {"type": "integer"}, "integer"),
        ("grand_total", {"type": "integer"}, "money"),
        ("firstName", None, "first_name"), ("last_name", None, "last_name"),
        ("surname", None, "last_name"), ("full_name", None, "person_name"),
        ("company", None, "company"), ("organizationName", None, "company"),
        ("city", None, "city"), ("street_address", None, "address"),
        ("zip", None, "postal_code"), ("postal_code", {"type": "integer"}, "postal_code"),
        ("lat", {"type": "number"}, "latitude"), ("longitude", {"type": "number"}, "longitude"),
        ("locale", None, "language"), ("time_zone", None, "timezone"),
        ("website", None, "url"), ("avatar_url", None, "url"), ("file_name", None, "filename"),
        ("title", None, "title"), ("subject", None, "title"), ("description", None, "text"),
        ("body", None, "text"), ("created_at", None, "datetime"),
        ("created_at", {"type": "integer"}, "integer"), ("ip_address", None, "ipv4"),
        ("username", None, "username"), ("tel", None, "phone"), ("createdOn", None, "datetime"),
        ("requestedOnUtc", None, "datetime"), ("depends_on", None, "string"),
    ],
)
def test_names_decide_when_type_fits(name: str, schema: dict | None, expected: str) -> None:
    assert typed(name, schema) == expected


@pytest.mark.parametrize(
    ("name", "schema", "expected"),
    [
        ("email_verified", {"type": "boolean"}, "boolean"),
        ("email_count", {"type": "integer"}, "integer"),
        ("emails", {"type": "array", "items": {"type": "string"}}, "array"),
        ("address", {"type": "object", "properties": {}}, "object"),
        ("color", None, "string"), ("quantity", {"type": "integer"}, "integer"),
        ("ratio", {"type": "number"}, "number"), ("anything", {}, "string"),
        ("anything", {"properties": {}}, "object"),
        ("maybe", {"type": ["null", "integer"]}, "integer"),
    ],
)
def test_fallbacks_by_json_type(name: str, schema: dict | None, expected: str) -> None:
    assert typed(name, schema) == expected


@pytest.mark.parametrize(
    ("name", "resource", "expected"),
    [
        ("id", "contacts", "crm.contacts.id"),
        ("id", "contact", "crm.contacts.id"),
        ("contactId", None, "crm.contacts.id"),
        ("contact_id", "deals", "crm.contacts.id"),
        ("contact-id", None, "crm.contacts.id"),
        ("companyID", None, "crm.companies.id"),
        ("paymentMethodId", None, "crm.payment_methods.id"),
        ("personId", None, "crm.people.id"),
        ("id", "payment_methods", "crm.payment_methods.id"),
    ],
)
def test_entity_ids(name: str, resource: str | None, expected: str) -> None:
    assert typed(name, {"type": "string", "format": "uuid"}, resource) == expected
    assert is_entity_id(expected)


def test_bare_id_without_resource_and_external_ids_fall_back() -> None:
    assert typed("id", {"type": "integer"}) == "integer"
    assert typed("external_id") == "string"
    assert typed("contact_id", {"type": "boolean"}) == "boolean"


@pytest.mark.parametrize(
    ("resource", "expected"),
    [("users", "person_name"), ("contacts", "person_name"), ("companies", "company"),
     ("projects", "title"), (None, "title")],
)
def test_name_depends_on_the_collection(resource: str | None, expected: str) -> None:
    assert typed("name", resource=resource) == expected
    assert typed("display_name", resource=resource) == expected


def test_names_are_style_insensitive() -> None:
    variants = ["firstName", "first_name", "first-name", "FirstName", "FIRST_NAME"]
    assert {typed(v) for v in variants} == {"first_name"}
    assert split_words("HTTPServerURL2") == ["http", "server", "url", "2"]


@pytest.mark.parametrize(
    ("single", "plural"),
    [("contact", "contacts"), ("company", "companies"), ("address", "addresses"),
     ("person", "people"), ("status", "statuses"), ("box", "boxes"), ("key", "keys")],
)
def test_inflection_round_trips(single: str, plural: str) -> None:
    assert pluralize(single) == plural
    assert pluralize(plural) == plural
    assert singularize(plural) == single


def test_registry_is_a_plain_dict_of_descriptions() -> None:
    assert {"email", "phone", "url", "money", "person_name", "company", "city"} <= set(SHARED_TYPES)
    assert all(isinstance(v, str) and v for v in SHARED_TYPES.values())
    assert not set(SHARED_TYPES) & set(FALLBACK_TYPES)
    every = {typed(n) for n in ["email", "city", "title", "zip", "avatar_url", "dob"]}
    assert every <= set(SHARED_TYPES)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("address", "address"), ("billingAddress", "address"), ("address_line_1", "address"),
     ("mac_address", "string"), ("start_address", "string"), ("ip_address", "ipv4"),
     ("email_address", "email")],
)
def test_only_street_like_addresses_are_addresses(name: str, expected: str) -> None:
    assert typed(name) == expected


@pytest.mark.parametrize(
    "name", ["sender_name", "ownerName", "customer-name", "assignee_name", "payee_name"]
)
def test_role_names_are_person_names(name: str):
    assert semantic_type(name, {"type": "string"}, service="s", resource="things") == "person_name"


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("To", "Recipient email address. Multiple addresses are comma separated.", "email"),
        ("From", "The sender email address.", "email"),
        ("recipient", "E-mail address to share this inbox with.", "email"),
        ("to", "The phone number to send the text to, or its email gateway.", "string"),
        ("To", "Who the message is for.", "string"),
        ("destination", "Telephone number of the recipient", "phone"),
        ("to", "This is the mobile number you want to send your message to.", "phone"),
        ("to", "The phone number that received the message.", "phone"),
        ("ReplyTo", "Reply To override email address.", "string"),  # no end of the message
        ("Cc", "Cc recipient email address.", "string"),  # (nobody the walk writes to)
    ],
)
def test_message_ends_are_typed_by_their_description(name: str, description: str,
                                                     expected: str) -> None:
    # Postmark's `To` is "Recipient email address": an email, so a customer's email
    # reaches it; an SMS API's `destination`, "Telephone number of the recipient", is a
    # phone, so a colleague's number reaches it; one that says both, or names no address,
    # stays a string
    assert typed(name, {"type": "string", "description": description}) == expected


def test_an_event_or_an_issue_is_titled_by_its_summary():
    """Google Calendar's and Jira's `summary` is the record's one-line title: typed as free
    text, a calendar event was seeded with three sentences for a name, and no request
    could name the meeting."""
    assert semantic_type("summary", {"type": "string"}, service="cal", resource="events") \
        == "title"
    assert semantic_type("summary", {"type": "string"}, service="jira", resource="issue") \
        == "title"
    assert semantic_type("summary", {"type": "string"}, service="bi", resource="reports") \
        == "text"


def test_a_foreign_key_named_idfk_is_an_id():
    """Avaza's `ProjectIDFK` is a project's id: typed as a number, a request asked for a
    task "with project idfk 37", an id no person knows."""
    assert semantic_type("ProjectIDFK", {"type": "integer"}, service="avaza",
                         resource="tasks") == entity_id_type("avaza", "project")


def test_a_list_of_recipients_is_typed_by_its_addresses():
    """Gmail's `to: ["ann@x.org"]` and a calendar's `attendees` lists were plain arrays, so
    no found email could go into them, and the mail APIs that take a list of recipients
    (Gmail, ClickSend) were never a workflow's step; a list of tags stays an array."""
    strings = {"type": "string"}
    assert semantic_type("to", {"type": "array", "items": strings, "description":
                                "List of recipient email addresses"}, service="gmail",
                         resource="messages") == "email"
    assert semantic_type("attendees", {"type": "array", "items": {"type": "string",
                                       "format": "email"}}, service="cal",
                         resource="events") == "email"
    assert semantic_type("tags", {"type": "array", "items": strings}, service="cal",
                         resource="events") == "array"
    assert semantic_type("to", {"type": "array", "items": strings, "description":
                                "Phone numbers to text"}, service="sms",
                         resource="messages") == "array"

"""A folder of hand-written function lists (OpenAI plain and wrapped, MCP `inputSchema`):
every function gets the effect, collection and key parameter a reader of its name and
description would give it, and every collection a record schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld.specs import load_function_list
from compoworld.specs.functions import is_computation
from compoworld.specs.records import ServiceSpec, ToolSpec
from compoworld.specs.sources import list_documents, load_document

FOLDER = Path(__file__).parent / "fixtures" / "function_lists"

# (service, function) -> (effect, resource, the parameter(s) typed as that collection's id),
# written by hand from the fixture files.
EXPECTED: dict[tuple[str, str], tuple[str, str | None, str | tuple[str, ...] | None]] = {
    ("helpdesk", "create_ticket"): ("create", "tickets", None),
    ("helpdesk", "get_ticket"): ("read", "tickets", "ticket_id"),
    ("helpdesk", "list_tickets"): ("read", "tickets", None),
    ("helpdesk", "search_tickets"): ("read", "tickets", None),
    ("helpdesk", "find_tickets_by_requester"): ("read", "tickets", None),
    ("helpdesk", "update_ticket"): ("update", "tickets", "ticket_id"),
    ("helpdesk", "close_ticket"): ("action", "tickets", "ticket_id"),
    ("helpdesk", "reopen_ticket"): ("action", "tickets", "ticket_id"),
    ("helpdesk", "assign_ticket"): ("action", "tickets", "ticket_id"),
    ("helpdesk", "escalate_ticket"): ("action", "tickets", "ticket_id"),
    ("helpdesk", "delete_ticket"): ("delete", "tickets", "ticket_id"),
    ("helpdesk", "add_comment"): ("create", "comments", None),
    ("helpdesk", "list_comments"): ("read", "comments", None),
    # a reminder is an event about its ticket: logged against the ticket it names
    ("helpdesk", "send_reminder"): ("action", "tickets", "ticket_id"),
    ("helpdesk", "list_agents"): ("read", "agents", None),
    ("helpdesk", "get_agent"): ("read", "agents", "agent_id"),
    ("invoicing", "create_invoice"): ("create", "invoices", None),
    ("invoicing", "get_invoice"): ("read", "invoices", "invoice_id"),
    ("invoicing", "list_invoices"): ("read", "invoices", None),
    ("invoicing", "update_invoice"): ("update", "invoices", "invoice_id"),
    ("invoicing", "send_invoice"): ("action", "invoices", "invoice_id"),
    ("invoicing", "void_invoice"): ("action", "invoices", "invoice_id"),
    ("invoicing", "delete_invoice"): ("delete", "invoices", "invoice_id"),
    ("invoicing", "add_line_item"): ("create", "line_items", None),
    ("invoicing", "list_line_items"): ("read", "line_items", None),
    ("invoicing", "record_payment"): ("create", "payments", None),
    ("invoicing", "list_payments"): ("read", "payments", None),
    ("invoicing", "get_payment"): ("read", "payments", "payment_id"),
    ("invoicing", "refund_payment"): ("action", "payments", "payment_id"),
    ("crm", "create_customer"): ("create", "customers", None),
    ("crm", "get_customer"): ("read", "customers", "customer_id"),
    ("crm", "find_customers"): ("read", "customers", None),
    ("crm", "list_customers"): ("read", "customers", None),
    ("crm", "update_customer"): ("update", "customers", "customer_id"),
    ("crm", "delete_customer"): ("delete", "customers", "customer_id"),
    # an action checks that every record it names exists
    ("crm", "merge_customers"): ("action", "customers",
                                 ("duplicate_customer_id", "primary_customer_id")),
    ("crm", "tag_customer"): ("action", "customers", "customer_id"),
    ("crm", "add_note"): ("create", "notes", None),
    ("crm", "list_notes"): ("read", "notes", None),
    ("crm", "create_company"): ("create", "companies", None),
    ("crm", "get_company"): ("read", "companies", "company_id"),
    ("crm", "list_companies"): ("read", "companies", None),
    ("crm", "update_company"): ("update", "companies", "company_id"),
    ("files", "upload_file"): ("create", "files", None),
    ("files", "get_file"): ("read", "files", "file_id"),
    ("files", "download_file"): ("read", "files", "file_id"),
    ("files", "list_files"): ("read", "files", None),
    ("files", "search_files"): ("read", "files", None),
    ("files", "rename_file"): ("update", "files", "file_id"),
    ("files", "move_file"): ("action", "files", "file_id"),
    ("files", "archive_file"): ("action", "files", "file_id"),
    ("files", "share_file"): ("action", "files", "file_id"),
    ("files", "delete_file"): ("delete", "files", "file_id"),
    ("files", "create_folder"): ("create", "folders", None),
    ("files", "get_folder"): ("read", "folders", "folder_id"),
    ("files", "list_folders"): ("read", "folders", None),
    ("messaging", "send_sms"): ("create", "messages", None),
    ("messaging", "send_email"): ("create", "messages", None),
    ("messaging", "list_messages"): ("read", "messages", None),
    ("messaging", "get_message"): ("read", "messages", "message_id"),
    ("messaging", "messaging_get_delivery_status"): ("read", "messages", "message_id"),
    ("messaging", "cancel_message"): ("action", "messages", "message_id"),
    ("messaging", "reply_to_message"): ("action", "messages", "message_id"),
    ("messaging", "delete_message"): ("delete", "messages", "message_id"),
    ("messaging", "list_conversations"): ("read", "conversations", None),
    ("messaging", "get_conversation"): ("read", "conversations", "conversation_id"),
    ("calendar", "create_event"): ("create", "events", None),
    ("calendar", "get_event"): ("read", "events", "event_id"),
    ("calendar", "list_events"): ("read", "events", None),
    ("calendar", "update_event"): ("update", "events", "event_id"),
    ("calendar", "cancel_event"): ("action", "events", "event_id"),
    ("calendar", "delete_event"): ("delete", "events", "event_id"),
    ("calendar", "add_attendee"): ("create", "attendees", None),
    ("calendar", "list_attendees"): ("read", "attendees", None),
    ("calendar", "remove_attendee_from_event"): ("delete", "attendees", "attendee_id"),
    ("calendar", "create_calendar"): ("create", "calendars", None),
    ("calendar", "list_calendars"): ("read", "calendars", None),
    ("calendar", "get_calendar"): ("read", "calendars", "calendar_id"),
    ("shop", "create_order"): ("create", "orders", None),
    ("shop", "get_order"): ("read", "orders", "order_id"),
    ("shop", "list_orders"): ("read", "orders", None),
    ("shop", "update_order"): ("update", "orders", "order_id"),
    ("shop", "cancel_order"): ("action", "orders", "order_id"),
    ("shop", "refund_order"): ("action", "orders", "order_id"),
    ("shop", "ship_order"): ("action", "orders", "order_id"),
    ("shop", "orders_delete"): ("delete", "orders", "id"),
    ("shop", "create_product"): ("create", "products", None),
    ("shop", "get_product"): ("read", "products", "product_id"),
    ("shop", "list_products"): ("read", "products", None),
    ("shop", "update_product"): ("update", "products", "product_id"),
    ("utilities", "convert_currency"): ("read", None, None),
    ("utilities", "validate_email"): ("read", None, None),
    ("utilities", "geocode_address"): ("read", None, None),
    ("utilities", "calculate_tax"): ("read", None, None),
    ("utilities", "translate_text"): ("read", None, None),
    ("utilities", "format_phone_number"): ("read", None, None),
    ("utilities", "parse_date"): ("read", None, None),
    ("utilities", "estimate_shipping_cost"): ("read", None, None),
    # a lookup of reference data the world holds, not a computation by its verb
    ("utilities", "get_exchange_rate"): ("read", "exchange_rates", None),
}

# Ids of another collection of the service, by parameter (what a walk carries between tools).
REFERENCES = {
    ("helpdesk", "add_comment", "ticket_id"): "helpdesk.tickets.id",
    ("helpdesk", "list_comments", "ticket_id"): "helpdesk.tickets.id",
    ("invoicing", "record_payment", "invoice_id"): "invoicing.invoices.id",
    ("invoicing", "list_line_items", "invoice_id"): "invoicing.invoices.id",
    ("crm", "merge_customers", "primary_customer_id"): "crm.customers.id",
    ("crm", "merge_customers", "duplicate_customer_id"): "crm.customers.id",
    ("files", "upload_file", "folder_id"): "files.folders.id",
    ("files", "move_file", "folder_id"): "files.folders.id",
    # a qualified id of the tool's own collection: taken for the record a read is about, and
    # unchecked by a create, so typed by its own name
    ("files", "list_folders", "parent_folder_id"): "files.parent_folders.id",
    ("files", "create_folder", "parent_folder_id"): "files.parent_folders.id",
    ("calendar", "create_event", "calendar_id"): "calendar.calendars.id",
    ("calendar", "add_attendee", "event_id"): "calendar.events.id",
}

# Shared interfaces that let a value cross services (a customer's email, phone, money).
SHARED = {
    ("helpdesk", "create_ticket", "requester_email"): "email",
    ("invoicing", "send_invoice", "to"): "email",
    ("invoicing", "create_invoice", "amount"): "money",
    ("invoicing", "create_invoice", "currency"): "currency",
    ("crm", "create_customer", "email"): "email",
    ("crm", "create_customer", "phone"): "phone",
    ("messaging", "send_sms", "phone_number"): "phone",
    ("messaging", "send_email", "to"): "email",
    ("shop", "create_order", "customer_email"): "email",
    ("calendar", "add_attendee", "email"): "email",
    ("files", "share_file", "email"): "email",
    ("utilities", "convert_currency", "amount"): "money",
}


@pytest.fixture(scope="module")
def services() -> dict[str, ServiceSpec]:
    specs = [load_document(FOLDER, doc) for doc in list_documents(FOLDER)]
    return {spec.name: spec for spec in specs}


def _tool(services: dict[str, ServiceSpec], service: str, function: str) -> ToolSpec:
    return next(t for t in services[service].tools if t.name == f"{service}__{function}")


def test_the_fixture_is_a_world_of_services_and_formats(services) -> None:
    assert len(services) == 8
    assert sum(len(s.tools) for s in services.values()) == len(EXPECTED) == 99
    raw = [entry for doc in list_documents(FOLDER)
           for entry in json.loads((FOLDER / doc).read_text())]
    assert {"function" in e for e in raw} == {True, False}  # wrapped and plain
    assert any("inputSchema" in e for e in raw) and any("outputSchema" in e for e in raw)


@pytest.mark.parametrize(("service", "function"), sorted(EXPECTED))
def test_every_function_gets_its_effect_resource_and_key(services, service: str,
                                                         function: str) -> None:
    effect, resource, key = EXPECTED[service, function]
    tool = _tool(services, service, function)
    assert (tool.effect, tool.resource) == (effect, resource)
    own_id = f"{service}.{resource}.id"
    keyed = sorted(p for p, t in tool.param_types.items() if t == own_id)
    assert keyed == sorted([key] if isinstance(key, str) else key or [])
    assert tool.source == f"functions:{service}#{function}"


def test_ids_of_other_collections_and_shared_types_are_typed(services) -> None:
    for (service, function, param), wanted in (REFERENCES | SHARED).items():
        assert _tool(services, service, function).param_types[param] == wanted, (function,
                                                                                   param)


def test_mcp_input_and_output_schemas_are_read(services) -> None:
    sms = _tool(services, "messaging", "send_sms")
    assert sms.parameters["required"] == ["phone_number", "body"]
    message = _tool(services, "messaging", "get_message")
    assert message.returns["properties"]["status"]["enum"][-1] == "cancelled"
    assert message.return_types["to"] == "email"
    # the declared result is the record the other message tools answer with
    assert sms.returns == services["messaging"].resources["messages"]
    # the MCP `tools/list` result object loads the same as its list
    entries = json.loads((FOLDER / "messaging.json").read_text())
    assert load_function_list({"tools": entries}, "messaging") == services["messaging"]


def test_only_the_pure_computations_are_computations(services) -> None:
    found = {(s, t.name.split("__", 1)[1]) for s, spec in services.items() for t in spec.tools
             if is_computation(t)}
    assert found == {k for k, (_, resource, _) in EXPECTED.items()
                     if resource is None}
    assert len(found) == 8


def test_a_computation_over_a_stored_record_is_not_pure() -> None:
    spec = load_function_list([
        {"name": "get_invoice", "parameters": {"type": "object", "properties": {
            "invoice_id": {"type": "string"}}}},
        {"name": "calculate_invoice_total", "description": "Total of an invoice's lines.",
         "parameters": {"type": "object", "properties": {"invoice_id": {"type": "string"}}}},
    ], "billing")
    total = spec.tools[1]
    assert not is_computation(total)
    assert (total.effect, total.resource) == ("action", "invoices")
    assert total.param_types["invoice_id"] == "billing.invoices.id"


@pytest.mark.parametrize(
    ("name", "description", "effect", "resource"),
    [
        ("ticket_details", "Gets the details of a ticket.", "read", "tickets"),
        ("customer_create", "", "create", "customers"),
        ("github_create_issue", "", "create", "issues"),
        ("batch_delete_files", "", "delete", "files"),
        ("lists", "Lists the saved lists.", "read", "lists"),
    ],
)
def test_names_without_a_leading_verb(name: str, description: str, effect: str,
                                      resource: str) -> None:
    spec = load_function_list([{"name": name, "description": description}], "f")
    assert (spec.tools[0].effect, spec.tools[0].resource) == (effect, resource)


def test_each_collection_gets_the_fields_its_create_functions_take(services) -> None:
    """derive_resources (called by the loader) over these tools: every collection a read
    or write names has a record schema; those with a create function hold its fields."""
    for spec in services.values():
        named = {t.resource for t in spec.tools if t.resource}
        assert set(spec.resources) == named
        for tool in spec.tools:
            if tool.effect != "create":
                continue
            record = spec.resources[tool.resource]
            fields = set(record["properties"])
            assert set(tool.parameters["properties"]) <= fields, tool.name
            assert record["x-id-field"] in fields
    tickets = services["helpdesk"].resources["tickets"]
    assert tickets["properties"]["status"]["enum"] == ["open", "pending", "resolved", "closed"]
    assert services["invoicing"].resources["payments"]["properties"]["invoice_id"] == {
        "type": "string"}
    # the messages record comes from get_message's MCP outputSchema, keyed by message_id
    assert services["messaging"].resources["messages"]["x-id-field"] == "message_id"
    # ... and every record has what get_message says every message has: a message seeded
    # with no `channel` made get_message return what its own schema rejects
    get = _tool(services, "messaging", "get_message")
    assert set(get.returns["required"]) <= set(
        services["messaging"].resources["messages"]["required"])


def test_record_operations_return_their_record_and_lists_an_array(services) -> None:
    helpdesk = services["helpdesk"]
    record = helpdesk.resources["tickets"]
    for function in ("get_ticket", "create_ticket", "update_ticket"):
        assert _tool(services, "helpdesk", function).returns == record
    for function in ("list_tickets", "search_tickets", "find_tickets_by_requester"):
        assert _tool(services, "helpdesk", function).returns == {"type": "array",
                                                                 "items": record}
    listed = _tool(services, "helpdesk", "list_tickets").return_types
    assert listed["[].requester_email"] == "email"
    assert listed["[].id"] == "helpdesk.tickets.id"
    for function in ("close_ticket", "send_reminder", "delete_ticket"):
        tool = _tool(services, "helpdesk", function)
        assert (tool.returns, tool.return_types) == ({}, {})
    assert _tool(services, "utilities", "convert_currency").returns == {}


def test_a_compound_noun_ending_in_a_collection_is_that_collection() -> None:
    spec = load_function_list([
        {"name": "create_ticket", "parameters": {"type": "object", "properties": {
            "subject": {"type": "string"}}}},
        {"name": "add_comment", "parameters": {"type": "object", "properties": {
            "ticket_id": {"type": "string"}, "body": {"type": "string"}}}},
        {"name": "get_ticket_comments", "description": "The comments on a ticket.",
         "parameters": {"type": "object", "properties": {"ticket_id": {"type": "string"}}}},
    ], "desk")
    comments = spec.tools[2]
    assert (comments.effect, comments.resource) == ("read", "comments")
    assert comments.param_types["ticket_id"] == "desk.tickets.id"
    assert comments.returns == {"type": "array", "items": spec.resources["comments"]}


def test_a_collection_of_people_says_who_each_one_is() -> None:
    """Slack's MCP server lists users with no result schema and makes none, so its users
    were bare ids and no colleague could be found there: a collection of people that the
    spec names no one in gets a person's name and email. One whose spec names them keeps
    what it says."""
    spec = load_function_list([
        {"name": "slack_get_users", "description": "Get a list of all users in the workspace",
         "parameters": {"type": "object", "properties": {"cursor": {"type": "string"},
                                                         "limit": {"type": "number"}}}},
        {"name": "list_channels", "description": "List channels",
         "parameters": {"type": "object", "properties": {"limit": {"type": "number"}}}},
    ], "slack")
    users = spec.resources["users"]["properties"]
    assert {"name", "email"} <= set(users)
    assert "name" not in spec.resources["channels"]["properties"]  # (no people)
    read = next(t for t in spec.tools if t.name.endswith("slack_get_users"))
    assert {read.return_types[k] for k in ("[].name", "[].email")} == {"person_name", "email"}
    named = load_function_list([
        {"name": "create_member", "description": "Add a member",
         "parameters": {"type": "object", "properties": {"login": {"type": "string"}},
                        "required": ["login"]}}], "club")
    assert set(named.resources["members"]["properties"]) == {"login", "id"}


def test_a_record_holds_what_it_was_made_with() -> None:
    """Linear's milestone result shows `{id, name, description}`: a milestone made for a
    project (`projectId`) kept no project, so every task that made one for a project was
    rejected ("no record it changed holds that value"). A record schema taken from a
    result or a list also takes the plain fields its create takes."""
    spec = load_function_list([
        {"name": "create_milestone", "description": "Create a project milestone",
         "parameters": {"type": "object", "properties": {
             "name": {"type": "string"}, "projectId": {"type": "string"},
             "labelIds": {"type": "array", "items": {"type": "string"}},
             "options": {"type": "object"}}, "required": ["name", "projectId"]},
         "outputSchema": {"type": "object", "properties": {
             "id": {"type": "string"}, "name": {"type": "string"},
             "description": {"type": "string"}}}},
    ], "tracker")
    milestone = spec.resources["milestones"]["properties"]
    assert {"id", "name", "description", "projectId", "labelIds"} <= set(milestone)
    assert "options" not in milestone  # (no nested settings object)

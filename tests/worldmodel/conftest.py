"""Tools with varied result schemas, shared by the world model tests."""

from __future__ import annotations

import pytest

from compoworld.specs.records import ToolSpec


def tool(name: str, returns: dict, parameters: dict | None = None, **extra) -> ToolSpec:
    """A read tool of the `demo` service."""
    return ToolSpec(service="demo", name=f"demo__{name}", description=f"The {name} tool.",
                    parameters=parameters or {"type": "object", "properties": {}},
                    returns=returns, effect="read", source="test", **extra)


S = {"type": "string"}
CONTACT = {"type": "object", "required": ["id", "email", "first_name", "last_name"],
           "properties": {"id": S, "email": {"type": "string", "format": "email"},
                          "first_name": S, "last_name": S, "phone": S,
                          "company": S, "created_at": {"type": "string", "format": "date-time"}}}
WEATHER = tool("get_weather", {
    "type": "object", "required": ["city", "temperature", "conditions"],
    "properties": {"city": S, "country": S, "latitude": {"type": "number"},
                   "longitude": {"type": "number"},
                   "temperature": {"type": "number", "minimum": -40, "maximum": 45},
                   "conditions": {"type": "string", "enum": ["sunny", "cloudy", "rain", "snow"]},
                   "observed_at": {"type": "string", "format": "date-time"}}},
    {"type": "object", "required": ["city"], "properties": {"city": S}})
TOOLS = [
    WEATHER,
    tool("get_contact", CONTACT, {"type": "object", "required": ["email"],
                                  "properties": {"email": S}}, resource="contacts"),
    tool("list_contacts", {"type": "object", "required": ["data"], "properties": {
        "data": {"type": "array", "items": CONTACT}, "has_more": {"type": "boolean"},
        "next_url": {"type": "string", "format": "uri"}}},
        {"type": "object", "properties": {"limit": {"type": "integer"}}}, resource="contacts"),
    tool("list_tags", {"type": "array", "items": {"type": "string"}}),
    tool("count_items", {"type": "integer", "minimum": 0}),
    tool("ping", {}),
    tool("get_invoice", {"type": "object", "additionalProperties": False,
                         "required": ["id", "total", "currency", "lines", "status"],
                         "properties": {
                             "id": {"type": "integer"},
                             "total": {"type": "integer", "minimum": 0},
                             "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                             "status": {"enum": ["draft", "open", "paid"]},
                             "customer": {"type": "object", "x-truncated": True},
                             "lines": {"type": "array", "minItems": 1, "items": {
                                 "type": "object", "required": ["description", "amount"],
                                 "properties": {"description": S,
                                                "amount": {"type": "integer"}}}},
                             "payment": {"oneOf": [
                                 {"type": "object", "required": ["card_last4"],
                                  "properties": {"card_last4": {"type": "string",
                                                                "pattern": r"^\d{4}$"}}},
                                 {"type": "null"}]}}},
         {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
         resource="invoices"),
]


@pytest.fixture
def tools() -> list[ToolSpec]:
    return TOOLS

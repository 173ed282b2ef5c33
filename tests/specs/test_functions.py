"""Loading OpenAI-style function lists."""

from __future__ import annotations

import json

import pytest

from compoworld.specs import SpecLoadError, load_function_list


def test_function_list_loads_plain_and_wrapped_entries(fixtures) -> None:
    items = json.loads((fixtures / "tools.json").read_text())
    spec = load_function_list(items, "assistants/tools")
    assert spec.name.startswith("assistants_tools_")
    assert spec.source == "functions:assistants/tools"
    names = [t.name.split("__", 1)[1] for t in spec.tools]
    assert names == ["get_weather", "create_contact", "send_email"]
    assert [t.effect for t in spec.tools] == ["read", "create", "action"]
    assert [t.resource for t in spec.tools] == ["weather", "contacts", "emails"]
    # undeclared results: a record operation answers with its collection's record (a list
    # read with an array of them), an action's answer stays the world model's
    weather_record, contact_record = spec.resources["weather"], spec.resources["contacts"]
    assert [t.returns for t in spec.tools] == [
        {"type": "array", "items": weather_record}, contact_record, {}]
    assert [t.source for t in spec.tools] == [
        "functions:assistants/tools#get_weather", "functions:assistants/tools#createContact",
        "functions:assistants/tools#send_email",
    ]
    weather, contact, email = spec.tools
    assert weather.parameters["required"] == ["city"]
    assert weather.param_types == {"city": "city", "unit": "string"}
    assert contact.parameters["properties"]["address"]["properties"]["city"] == {"type": "string"}
    assert email.parameters == {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("name", "effect"),
    [
        ("get_user", "read"), ("listOrders", "read"), ("search_flights", "read"),
        ("find-hotels", "read"), ("create_invoice", "create"), ("add_item", "create"),
        ("new_note", "create"), ("update_profile", "update"), ("set_status", "update"),
        ("edit_post", "update"), ("delete_file", "delete"), ("remove_member", "delete"),
        ("book_flight", "action"), ("weather", "action"),
    ],
)
def test_effect_from_name_verb(name: str, effect: str) -> None:
    spec = load_function_list([{"name": name, "parameters": {"type": "object"}}], "f")
    assert spec.tools[0].effect == effect


@pytest.mark.parametrize(
    ("items", "reason"),
    [
        ([], "non-empty"),
        ({"name": "x"}, "non-empty"),
        ([{"name": "ok"}, {"description": "no name"}], "entry 1: missing `name`"),
        ([{"name": "a", "parameters": {"type": "string"}}], "entry 0 (a): `parameters` is not"),
        ([{"name": "a", "parameters": []}], "entry 0 (a): `parameters` is not"),
        ([3], "entry 0: not an object"),
        ([{"name": "a"}, {"name": "A"}], "entry 1: duplicate function name"),
        ([{"name": "!!!"}], "entry 0: name '!!!' has no letters"),
    ],
)
def test_bad_entries_name_their_index(items: object, reason: str) -> None:
    with pytest.raises(SpecLoadError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        load_function_list(items, "f")  # type: ignore[arg-type]

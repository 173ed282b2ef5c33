"""Steps-style template instructions: visible values verbatim, hidden values never, varied
phrasing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from compoworld.compose.instruction import (
    hidden_values,
    render_value,
    visible_values,
    write_instruction,
)
from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector

TITLES = {"crm": "CRM", "email": "Email", "stripe_com": "Stripe", "chat": "Team Chat",
          "payments": "Payments", "sheets": "Spreadsheets"}
CONTACTS = [
    {"id": "ct_0001", "first_name": "Alice", "email": "alice.smith@acme.com"},
    {"id": "ct_0002", "first_name": "Bruno", "email": "bruno.kowalski@acme.com"},
]
CUSTOMERS = {"data": [
    {"id": "cus_A1xx", "email": "ann.lee@example.org", "name": "Ann Lee"},
    {"id": "cus_B2yy", "email": "bo.chen@example.org", "name": "Bo Chen"},
]}


def visible(type_: str = "string") -> Binding:
    return Binding(kind="visible", type=type_)


def hidden(step: int, field: str, path: str, type_: str = "string",
           selector: Selector | None = None) -> Binding:
    return Binding(kind="hidden", type=type_, step=step, field=field, path=path,
                   selector=selector)


def crm_to_email() -> tuple[list[GoldCall], list[AnswerItem]]:
    """Search CRM contacts by company, then email one of them (found by first name)."""
    calls = [
        GoldCall(tool="crm__search_contacts", service="crm", effect="read",
                 arguments={"company": "Acme Corp"}, bindings={"company": visible("company")},
                 result=CONTACTS),
        GoldCall(tool="email__send_email", service="email", effect="create",
                 arguments={"to": "bruno.kowalski@acme.com", "subject": "Quarterly review",
                            "body": "See you on Monday."},
                 bindings={"to": hidden(0, "[].email", "[1].email", "email",
                                        Selector(field="first_name", value="Bruno")),
                           "subject": visible("title"), "body": visible("text")},
                 result={"id": "msg_0042"}),
    ]
    return calls, [AnswerItem(step=1, path="id", label="the id of the sent email",
                              value="msg_0042")]


def stripe_to_crm() -> tuple[list[GoldCall], list[AnswerItem]]:
    """A Stripe-like `data[]` list, a contact made from one customer, then edits."""
    contact_id = hidden(1, "id", "id", "crm.contacts.id")
    calls = [
        GoldCall(tool="stripe_com__get_customers", service="stripe_com", effect="read",
                 arguments={"limit": 25}, bindings={"limit": visible("integer")},
                 result=CUSTOMERS),
        GoldCall(tool="crm__create_contact", service="crm", effect="create",
                 arguments={"first_name": "Bo", "last_name": "Chen",
                            "email": "bo.chen@example.org"},
                 bindings={"first_name": visible("first_name"), "last_name": visible("last_name"),
                           "email": hidden(0, "data[].email", "data[1].email", "email",
                                           Selector(field="name", value="Bo Chen"))},
                 result={"id": "ct_0009"}),
        GoldCall(tool="crm__update_contact", service="crm", effect="update",
                 arguments={"contact_id": "ct_0009", "city": "Lisbon"},
                 bindings={"contact_id": contact_id, "city": visible("city")}, result={}),
        GoldCall(tool="chat__invite_to_channel", service="chat", effect="update",
                 arguments={"channel_id": "ch_0077", "email": "bo.chen@example.org"},
                 bindings={"channel_id": visible("chat.channels.id"),
                           "email": hidden(1, "email", "email", "email")}, result={}),
        GoldCall(tool="payments__transfer_funds", service="payments", effect="action",
                 arguments={"amount": 1250.75, "to_account_id": "acc_0005"},
                 bindings={"amount": visible("money"),
                           "to_account_id": visible("payments.accounts.id")},
                 result={"id": "tr_0001"}),
        GoldCall(tool="crm__delete_contact", service="crm", effect="delete",
                 arguments={"contact_id": "ct_0009"}, bindings={"contact_id": contact_id},
                 result={}),
    ]
    answer = [AnswerItem(step=0, path="data[1].id", label="the customer id", value="cus_B2yy",
                         selector=Selector(field="name", value="Bo Chen"))]
    return calls, answer


CHAINS = {"crm_to_email": crm_to_email, "stripe_to_crm": stripe_to_crm}


def write(calls: list[GoldCall], answer: list[AnswerItem], seed: int, **kwargs: Any) -> str:
    """The steps-style text (these tests pin that style; tests/compose/test_goal.py covers
    the goal style, the default)."""
    kwargs.setdefault("style", "steps")
    return write_instruction(calls, answer, TITLES, random.Random(seed), **kwargs)


@pytest.mark.parametrize("chain", CHAINS)
@pytest.mark.parametrize("seed", range(40))
def test_visible_values_present_hidden_values_absent(chain: str, seed: int):
    calls, answer = CHAINS[chain]()
    text = write(calls, answer, seed)
    for value in visible_values(calls, answer):
        assert render_value(value) in text, (value, text)
    for value in hidden_values(calls, answer):
        assert render_value(value).lower() not in text.lower(), (value, text)


def test_value_lists():
    calls, answer = stripe_to_crm()
    assert visible_values(calls, answer) == [
        25, "Bo", "Chen", "Bo Chen", "Lisbon", "ch_0077", 1250.75, "acc_0005"]
    assert hidden_values(calls, answer) == ["bo.chen@example.org", "ct_0009", "cus_B2yy"]


def test_hidden_inputs_are_named_by_reference():
    calls, answer = crm_to_email()
    text = write(calls, answer, 0)
    assert 'the email of the contact in CRM whose first name is "Bruno"' in text
    assert "the id of the sent email" in text and "final answer" in text


def test_list_item_answers_name_their_item():
    calls, answer = stripe_to_crm()
    text = write(calls, answer, 3)
    assert 'the customer id for the customer whose name is "Bo Chen"' in text
    assert "the contact you created in CRM" in text
    assert "limit 25" in text and "whose limit" not in text


def test_same_seed_same_text_other_seeds_vary():
    calls, answer = crm_to_email()
    assert write(calls, answer, 7) == write(calls, answer, 7)
    texts = {write(calls, answer, seed) for seed in range(20)}
    assert len(texts) >= 10
    assert any("house rules" in t.lower() for t in texts)
    assert any("house rules" not in t.lower() for t in texts)


def test_object_values_render_as_sorted_json():
    columns = [{"type": "string", "name": "email"}, {"name": "amount", "type": "number"}]
    calls = [GoldCall(tool="sheets__create_spreadsheet", service="sheets", effect="create",
                      arguments={"title": "Payouts", "columns": columns},
                      bindings={"title": visible("title"), "columns": visible("array")},
                      result={"id": "sh_1"})]
    text = write(calls, [], 1)
    assert render_value(columns) == (
        '[{"name": "email", "type": "string"}, {"name": "amount", "type": "number"}]')
    assert render_value(columns) in text and '"Payouts"' in text
    assert "a spreadsheet" in text and "Spreadsheets" in text


def test_arguments_without_binding_are_left_out():
    calls, answer = crm_to_email()
    calls[0].arguments["city"] = "Reykjavik"
    text = write(calls, answer, 2)
    assert "Reykjavik" not in text
    assert "Reykjavik" not in visible_values(calls, answer)


def test_tool_description_hint_is_optional():
    calls, answer = stripe_to_crm()
    hints = {"payments__transfer_funds": "Move money between two accounts."}
    texts = [write(calls, answer, seed, tool_descriptions=hints) for seed in range(20)]
    assert any("move money between two accounts" in t for t in texts)


def test_no_calls_is_an_error():
    with pytest.raises(ValueError, match="at least one"):
        write([], [], 0)


@pytest.mark.parametrize(
    "tool, effect, phrase, absent",
    [
        ("stripe_com__post_customers", "create", " customer ", "post"),
        ("stripe_com__customers_list", "read", "the customers", "list"),
        ("stripe_com__GetV1CustomersCustomer", "read", "the customer ", "v1"),
        ("chat__invite_to_channel", "update", "use team chat to invite to channel", "record "),
        ("payments__transfer_funds", "action", "transfer funds in payments", "fund "),
    ],
)
def test_tool_names_become_phrases(tool: str, effect: str, phrase: str, absent: str):
    service = tool.split("__")[0]
    calls = [GoldCall(tool=tool, service=service, effect=effect, arguments={"name": "Ada"},
                      bindings={"name": visible()}, result={})]
    for seed in range(5):
        text = write(calls, [], seed).lower()
        assert phrase in text and absent not in text, text


def test_a_value_the_user_states_is_no_hidden_value():
    """The name a customer was found by, carried into the new contact, hides nothing (the
    instruction may say it); the answer is still hidden."""
    calls, answer = stripe_to_crm()
    calls[1].arguments["name"] = "Bo Chen"
    calls[1].bindings["name"] = hidden(0, "data[].name", "data[1].name", "person_name",
                                       Selector(field="name", value="Bo Chen"))
    assert "Bo Chen" in visible_values(calls, answer)
    assert hidden_values(calls, answer) == ["bo.chen@example.org", "ct_0009", "cus_B2yy"]

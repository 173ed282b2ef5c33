"""Typed values in a result: where they are, how the item holding them is named, and
whether a text mentions them."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.compose.records import Selector
from compoworld.compose.values import Found, find_values, mentions, usable, value_at

CONTACTS = {
    "data": [
        {"id": "con_0001", "code": "AX-17", "name": "Ana Ruiz", "email": "ana@acme.test"},
        {"id": "con_0002", "code": "BX-22", "name": "Bo Lind", "email": "bo@acme.test"},
        {"id": "con_0003", "code": "CX-35", "name": "Cy Moss", "email": "cy@acme.test"},
    ],
    "total": 3,
}


def paths(found: list[Found]) -> list[str]:
    return [item.path for item in found]


def test_top_level_field() -> None:
    result = {"id": "con_0001", "email": "ana@acme.test", "name": "Ana"}
    assert find_values(result, {"email": "email"}) == [
        Found("email", "email", "ana@acme.test", "email", None)]


def test_object_field() -> None:
    result = {"id": "iss_0001", "owner": {"email": "ana@acme.test", "login": "ana"}}
    assert find_values(result, {"owner.email": "email"}) == [
        Found("owner.email", "owner.email", "ana@acme.test", "email", None)]


def test_missing_fields_give_nothing() -> None:
    outputs = {"owner.email": "email", "data[].id": "x.id", "nope": "string"}
    assert find_values({"owner": "not an object", "data": {"id": "x"}}, outputs) == []


def test_list_items_are_named_by_a_unique_sibling() -> None:
    found = find_values(CONTACTS, {"data[].id": "crm.contacts.id"})
    assert paths(found) == ["data[0].id", "data[1].id", "data[2].id"]
    assert [f.value for f in found] == ["con_0001", "con_0002", "con_0003"]
    # "code" is unique and sorts first, but an opaque code does not name an item in words.
    assert [f.selector for f in found] == [
        Selector(field="name", value="Ana Ruiz"), Selector(field="name", value="Bo Lind"),
        Selector(field="name", value="Cy Moss")]


def test_a_typed_naming_field_is_preferred() -> None:
    outputs = {"data[].id": "crm.contacts.id", "data[].email": "email"}
    selectors = [f.selector for f in find_values(CONTACTS, outputs) if f.field == "data[].id"]
    assert [s.field for s in selectors] == ["email"] * 3
    # The value itself never names its own item.
    email_selectors = [f.selector for f in find_values(CONTACTS, outputs)
                       if f.field == "data[].email"]
    assert [s.field for s in email_selectors] == ["name"] * 3


def test_a_shared_name_falls_back_to_the_next_naming_field() -> None:
    result = [{"id": "a1x", "name": "Ana", "title": "Lead"},
              {"id": "b2y", "name": "Ana", "title": "Chair"}]
    found = find_values(result, {"[].id": "x.id"})
    assert paths(found) == ["[0].id", "[1].id"]
    assert [f.selector for f in found] == [Selector(field="title", value="Lead"),
                                           Selector(field="title", value="Chair")]


def test_items_without_a_unique_naming_field_are_left_out() -> None:
    result = {"data": [
        {"id": "con_0001", "code": "AX-17", "name": "Ana Ruiz"},
        {"id": "con_0002", "code": "BX-22", "name": "Ana Ruiz"},
        {"id": "con_0003", "code": "CX-35", "name": "Cy Moss"},
        {"id": "con_0004", "code": "DX-41"},
    ]}
    found = find_values(result, {"data[].id": "crm.contacts.id"})
    assert paths(found) == ["data[2].id"]
    assert found[0].selector == Selector(field="name", value="Cy Moss")


def test_a_list_of_one_item_needs_no_selector() -> None:
    result = {"data": [{"id": "con_0001", "code": "AX-17"}]}
    assert find_values(result, {"data[].id": "crm.contacts.id"}) == [
        Found("data[].id", "data[0].id", "con_0001", "crm.contacts.id", None)]


def test_a_list_inside_an_item_of_several_is_skipped() -> None:
    outputs = {"data[].tags[]": "string"}
    several = {"data": [{"name": "Ana Ruiz", "tags": ["vip"]},
                        {"name": "Bo Lind", "tags": ["new"]}]}
    assert find_values(several, outputs) == []
    one = {"data": [{"name": "Ana Ruiz", "tags": ["vip"]}]}
    assert paths(find_values(one, outputs)) == ["data[0].tags[0]"]


def test_a_record_s_first_email_in_an_item_of_several_is_its_own() -> None:
    """Apideck keeps a lead's emails as `emails: [{email, type}]`: the first is the lead's
    own, named by the lead (their second, and an address's contact, stay out), and the
    record it is of is the lead's item."""
    from compoworld.compose.references import item_head
    from compoworld.compose.walk import _parent

    outputs = {"data[].emails[].email": "email", "data[].addresses[].email": "email",
               "data[].name": "person_name"}
    leads = {"data": [
        {"name": "Ana Ruiz", "emails": [{"email": "ana@acme.test"}, {"email": "ana@gmail.com"}],
         "addresses": [{"email": "tara@acme.test"}]},
        {"name": "Bo Lind", "emails": [{"email": "bo@acme.test"}]}]}
    found = [f for f in find_values(leads, outputs) if f.type == "email"]
    assert [(f.path, f.value, f.selector) for f in found] == [
        ("data[0].emails[0].email", "ana@acme.test", Selector(field="name", value="Ana Ruiz")),
        ("data[1].emails[0].email", "bo@acme.test", Selector(field="name", value="Bo Lind"))]
    assert item_head("data[0].emails[0].email") == "data[0]"
    assert item_head("data[0].addresses[0].email") == "data[0].addresses[0]"
    assert _parent("data[0].emails[0].email") == _parent("data[0].name") == "data[0]"


@pytest.mark.parametrize("value", [True, False, None, "", "   ", "x", "y" * 201, [1], {"a": 1}])
def test_unusable_values(value: Any) -> None:
    assert not usable(value)
    assert find_values({"v": value}, {"v": "string"}) == []


@pytest.mark.parametrize("value", [0, 42, 3.5, "ab", "Ana Ruiz", "y" * 200])
def test_usable_values(value: Any) -> None:
    assert usable(value)
    assert [f.value for f in find_values({"v": value}, {"v": "string"})] == [value]


def test_every_found_path_leads_back_to_its_value() -> None:
    outputs = {"data[].id": "crm.contacts.id", "data[].email": "email", "total": "integer"}
    found = find_values(CONTACTS, outputs)
    assert len(found) == 7
    assert all(value_at(CONTACTS, f.path) == f.value for f in found)


def test_value_at_follows_a_concrete_path() -> None:
    assert value_at(CONTACTS, "data[2].email") == "cy@acme.test"
    assert value_at(CONTACTS, "total") == 3
    assert value_at([["a", "b"], ["c"]], "[0][1]") == "b"
    assert value_at(CONTACTS, "") is CONTACTS


@pytest.mark.parametrize("path", ["data[3].email", "data[0].phone", "missing", "data.email",
                                  "total.value", "data[0][0]", "[0]"])
def test_value_at_raises_key_error_on_a_bad_path(path: str) -> None:
    with pytest.raises(KeyError):
        value_at(CONTACTS, path)


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("Write to ANA@ACME.TEST today", "ana@acme.test", True),
    ("the contact Ana Ruiz", "ana ruiz", True),
    ("the contact Ana Ruiz", "Bo Lind", False),
    ("order 4471 is late", 4471, True),
    ("order 4471.", 4471, True),
    ("order 44712 is late", 4471, False),
    ("order 94471 is late", 4471, False),
    ("order 1.4471 is late", 4471, False),
    ("costs 12.5 dollars", 12.5, True),
    ("costs 112.5 dollars", 12.5, False),
    ("the 12 invoices", 12, False),  # numbers of 1-2 digits are too common to count
    ("plan ab", "ab", False),  # so are strings of 1-2 characters
    ("True or None", True, False),
    ("True or None", None, False),
])
def test_mentions(text: str, value: Any, expected: bool) -> None:
    assert mentions(text, value) is expected


def test_nobody_names_a_company_by_its_fax_or_phone() -> None:
    """A company whose only unique text is its fax or phone is not selected by either
    ("the company whose phone is ..." is nobody's way to name one)."""
    items = [{"id": f"c{i}", "name": "Acme", "fax": f"+1415555012{i}", "phone": f"+1212555010{i}"}
             for i in range(3)]
    found = find_values({"data": items}, {"data[].id": "crm.companies.id",
                                          "data[].fax": "phone", "data[].phone": "phone"})
    assert all(item.selector is None for item in found)
    named = [dict(item, name=f"Acme {i}") for i, item in enumerate(items)]
    found = find_values({"data": named}, {"data[].id": "crm.companies.id",
                                          "data[].fax": "phone", "data[].phone": "phone"})
    assert {item.selector.field for item in found if item.selector is not None} == {"name"}


def test_a_name_no_other_item_shares_names_its_own_item() -> None:
    """A company with no other field to name it by is the one named so: its name can be
    carried ("Fabrikam (a partner in Billingo)"), while a shared name names nothing."""
    items = [{"id": f"c{i}", "name": name, "phone": f"+1212555010{i}"}
             for i, name in enumerate(["Fabrikam", "Hooli", "Hooli"])]
    found = find_values({"data": items}, {"data[].id": "crm.companies.id",
                                          "data[].name": "company", "data[].phone": "phone"})
    named = {f.path: f.selector for f in found if f.field == "data[].name"}
    assert named["data[0].name"] == Selector(field="name", value="Fabrikam")
    assert "data[1].name" not in named and "data[2].name" not in named


def test_an_item_without_a_name_is_named_by_who_it_is_from() -> None:
    """A bank transfer or a charge has no name of its own: a list of them gave nothing a
    request could name one by, so no walk began at Plaid's transfers. A person's name one
    level down (`user.legal_name`) names the item; an opaque code there does not."""
    transfers = {"transfers": [
        {"id": "tra_1", "amount": "6.09", "user": {"legal_name": "Oscar Smith", "code": "X1"}},
        {"id": "tra_2", "amount": "8.10", "user": {"legal_name": "Liam Patel", "code": "X2"}},
    ]}
    outputs = {"transfers[].id": "bank.transfers.id", "transfers[].amount": "money",
               "transfers[].user.legal_name": "person_name", "transfers[].user.code": "string"}
    found = [f for f in find_values(transfers, outputs) if f.field == "transfers[].amount"]
    assert [f.selector for f in found] == [
        Selector(field="user.legal_name", value="Oscar Smith"),
        Selector(field="user.legal_name", value="Liam Patel")]
    coded = {"transfers[].id": "bank.transfers.id", "transfers[].amount": "money",
             "transfers[].user.legal_name": "string", "transfers[].user.code": "string"}
    assert find_values(transfers, coded) == []  # (no naming type: nothing names them)
    shared = {"transfers": [dict(t, user={"legal_name": "Oscar Smith"})
                            for t in transfers["transfers"]]}
    assert find_values(shared, outputs) == []  # (two transfers from Oscar: neither named)


CHARGES = {"data": [  # Stripe's charges: no name or title, only whom the receipt went to
    {"id": "ch_1", "receipt_email": "ana@acme.test", "receipt_number": "CHA-2024-7132",
     "card_number": "CRD-4242-0001", "failure_code": "CHA-4577"},
    {"id": "ch_2", "receipt_email": "bo@acme.test", "receipt_number": "CHA-2025-6270",
     "card_number": "CRD-4242-0002", "failure_code": "CHA-4578"},
]}


def test_a_document_is_named_by_its_number() -> None:
    # The receipt's email is what a reply goes to; with no other naming field the list
    # left it out, so no workflow could send a Stripe customer their receipt.
    found = find_values(CHARGES, {"data[].receipt_email": "email"})
    assert [f.selector for f in found] == [
        Selector(field="receipt_number", value="CHA-2024-7132"),
        Selector(field="receipt_number", value="CHA-2025-6270")]


def test_no_card_or_error_code_names_a_document() -> None:
    # "the charge whose card number is ..." or "... whose failure code is ..." is no way
    # anyone names a charge: without its receipt number, the list names none.
    charges = {"data": [{k: v for k, v in item.items() if k != "receipt_number"}
                        for item in CHARGES["data"]]}
    assert find_values(charges, {"data[].receipt_email": "email"}) == []
    # nor is a word like a number: a document's number is a code
    charges = {"data": [dict(item, receipt_number=str(n)) for n, item in
                        enumerate(charges["data"])]}
    assert find_values(charges, {"data[].receipt_email": "email"}) == []



def test_a_lookup_names_the_one_item_of_its_list() -> None:
    """A project with one section lists it alone, unnamed (a read of the only item needs
    no name), but a task filed there must still say which section: "the section titled
    "Backlog"". A lookup names it by a field of its own."""
    from compoworld.compose.values import named_alone

    result = {"Sections": [{"SectionID": 7, "Title": "Backlog", "ProjectIDFK": 82}]}
    outputs = {"Sections[].SectionID": "app.sections.id", "Sections[].Title": "title"}
    alone = [f for f in find_values(result, outputs) if f.type == "app.sections.id"]
    assert alone[0].selector is None
    named = named_alone(result, alone[0], outputs)
    assert named.selector == Selector(field="Title", value="Backlog")
    assert named.value == 7 and named.path == "Sections[0].SectionID"

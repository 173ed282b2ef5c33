"""Building a rubric from a gold run: one criterion per change and answer value, a guard."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from compoworld.compose.records import AnswerItem, Binding, Criterion, GoldCall
from compoworld.compose.rubric import build_rubric
from compoworld.compose.workflow import Workflow
from compoworld.services.builtin import build_builtin, builtin_spec, example_state
from compoworld.services.runtime import Service
from compoworld.world.state import State

SEED = 7
TITLES = {"crm": "CRM", "email": "Email"}
NEW_CONTACT = {"first_name": "Ada", "last_name": "Quill", "email": "ada.quill@acme.test",
               "company": "Acme"}


@dataclass
class GoldRun:
    """A gold run over crm and email: its states, calls, answer and the ids it touched."""

    start: dict[str, State]
    end: dict[str, State]
    calls: list[GoldCall]
    answer: list[AnswerItem]
    updated_id: str
    deleted_id: str
    other_id: str


def _call(svc: Service, tool: str, calls: list[GoldCall], **arguments: Any) -> Any:
    effect = next(t.effect for t in builtin_spec(svc.name).tools if t.name == tool)
    result = svc.call(tool, arguments)
    assert result["success"], result
    calls.append(GoldCall(tool=tool, service=svc.name, effect=effect, arguments=arguments,
                          bindings={}, result=result["data"]))
    return result["data"]


def gold_run(seed: int = SEED) -> GoldRun:
    """Create a contact and a deal with it, update and delete contacts, send an email."""
    start = {name: example_state(name, seed) for name in ("crm", "email")}
    end = {name: state.copy() for name, state in start.items()}
    crm, email = build_builtin("crm", end["crm"]), build_builtin("email", end["email"])
    contacts = sorted(start["crm"].records("contacts"))
    with_deals = {deal["contact_id"] for deal in start["crm"].records("deals").values()}
    free = [cid for cid in contacts if cid not in with_deals]
    updated_id, deleted_id, other_id = free[0], free[1], free[2]
    calls: list[GoldCall] = []
    _call(crm, "crm__get_contact", calls, contact_id=updated_id)
    created = _call(crm, "crm__create_contact", calls, **NEW_CONTACT)
    _call(crm, "crm__create_deal", calls, contact_id=created["id"], title="Acme pilot",
          amount=1250.5, currency="EUR")
    _call(crm, "crm__update_contact", calls, contact_id=updated_id, city="Berlin")
    _call(crm, "crm__delete_contact", calls, contact_id=deleted_id)
    _call(email, "email__send_email", calls, to=NEW_CONTACT["email"], subject="Welcome",
          body="Hello Ada, welcome aboard.")
    address = start["crm"].records("contacts")[updated_id]["email"]
    answer = [
        AnswerItem(step=0, path="email", label="the contact's email", value=address),
        AnswerItem(step=2, path="amount", label="the deal amount", value=1250.5),
    ]
    return GoldRun(start, end, calls, answer, updated_id, deleted_id, other_id)


@pytest.fixture
def run() -> GoldRun:
    return gold_run()


@pytest.fixture
def rubric(run: GoldRun) -> list[Criterion]:
    return build_rubric(run.start, run.end, run.calls, run.answer, TITLES)


def by_kind(rubric: list[Criterion], kind: str) -> list[Criterion]:
    return [criterion for criterion in rubric if criterion.kind == kind]


def test_ids_and_order_are_deterministic(run: GoldRun, rubric: list[Criterion]) -> None:
    assert [c.id for c in rubric] == [f"c{i}" for i in range(len(rubric))]
    assert [(c.kind, c.service, c.params.get("collection")) for c in rubric] == [
        ("record_created", "crm", "contacts"),
        ("field_equals", "crm", "contacts"),
        ("record_deleted", "crm", "contacts"),
        ("record_created", "crm", "deals"),
        ("record_created", "email", "messages"),
        ("answer_contains", None, None),
        ("answer_contains", None, None),
        ("no_collateral_change", None, None),
    ]
    again = build_rubric(run.start, run.end, run.calls, run.answer, TITLES)
    assert [c.model_dump() for c in again] == [c.model_dump() for c in rubric]


def test_created_records_keep_the_fields_the_calls_gave(rubric: list[Criterion]) -> None:
    contact, deal, message = by_kind(rubric, "record_created")
    assert contact.params == {"collection": "contacts", "fields": NEW_CONTACT}
    # The deal's contact_id is an id the run generated: an agent's run may number it
    # differently, so it is no key field.
    assert deal.params["fields"] == {"title": "Acme pilot", "amount": 1250.5, "currency": "EUR"}
    # `to` is a list holding the argument; sender, folder, timestamps are the service's.
    assert message.params["fields"] == {"to": [NEW_CONTACT["email"]], "subject": "Welcome",
                                        "body": "Hello Ada, welcome aboard."}
    assert contact.description == ("A contact is created in CRM with first name 'Ada', last "
                                   "name 'Quill', email 'ada.quill@acme.test' and company 'Acme'.")


def test_updates_deletes_and_answers(run: GoldRun, rubric: list[Criterion]) -> None:
    (update,) = by_kind(rubric, "field_equals")
    assert update.params == {"collection": "contacts", "id": run.updated_id,
                             "fields": {"city": "Berlin"}}
    person = run.start["crm"].records("contacts")[run.updated_id]
    name = f"{person['first_name']} {person['last_name']}"
    assert update.description.startswith(f"The contact {run.updated_id} ({name})")
    assert update.description.endswith("in CRM has city 'Berlin'.")
    (delete,) = by_kind(rubric, "record_deleted")
    assert delete.params == {"collection": "contacts", "id": run.deleted_id}
    assert delete.description.endswith("is deleted from CRM.")
    email, amount = by_kind(rubric, "answer_contains")
    assert email.params["value"] == run.answer[0].value
    assert email.params["label"] == "the contact's email"
    assert amount.description.startswith("The final answer reports the deal amount (1250.5)")
    assert ("none of the other candidates" in amount.description) == bool(
        amount.params["competitors"])  # (an answer that names another fails: said so)
    assert email.service is None


def test_guard_allows_exactly_the_gold_changes(run: GoldRun, rubric: list[Criterion]) -> None:
    guard = rubric[-1]
    assert guard.kind == "no_collateral_change" and guard.noop_passes
    assert guard.params == {"allowed": {
        "crm": {"contacts": {"created": 1, "updated": [run.updated_id],
                             "deleted": [run.deleted_id]},
                "deals": {"created": 1, "updated": [], "deleted": []}},
        "email": {"messages": {"created": 1, "updated": [], "deleted": []}},
    }}
    assert not any(c.noop_passes for c in rubric[:-1])


def _hand_state(records: dict[str, dict[str, Any]]) -> State:
    return State({"notes": {"type": "object"}}, {"notes": records})


def _note_call(arguments: dict[str, Any], effect: str = "update", result: Any = None
               ) -> GoldCall:
    return GoldCall(tool="notes__edit", service="notes", effect=effect, arguments=arguments,
                    bindings={}, result=result)


def test_auto_maintained_fields_are_left_out_unless_given() -> None:
    before = {"n1": {"id": "n1", "title": "Old", "updated_at": "2025-03-01T00:00:00Z",
                     "version": 3}}
    after = {"n1": {"id": "n1", "title": "New", "updated_at": "2025-03-03T09:00:00Z",
                    "version": 4}}
    start, end = {"notes": _hand_state(before)}, {"notes": _hand_state(after)}
    rubric = build_rubric(start, end, [_note_call({"id": "n1", "title": "New"})], [], {})
    assert rubric[0].params["fields"] == {"title": "New"}
    given = _note_call({"id": "n1", "title": "New", "version": 4})
    assert build_rubric(start, end, [given], [], {})[0].params["fields"] == {
        "title": "New", "version": 4}
    only_auto = {"n1": {**before["n1"], "updated_at": "2025-03-03T09:00:00Z"}}
    touch = _note_call({"id": "n1"})  # the one write naming n1: its change is the update
    rubric = build_rubric(start, {"notes": _hand_state(only_auto)}, [touch], [], {})
    assert rubric[0].params["fields"] == {"updated_at": "2025-03-03T09:00:00Z"}


def test_nested_object_arguments_and_fallback_fields() -> None:
    created = {"n1": {"id": "n1", "owner_id": "u9", "title": "Plan", "color": "red",
                      "created_at": "2025-03-03T09:00:00Z", "pinned": False,
                      "folder": "inbox", "kind": "memo", "extra": "more"}}
    start, end = {"notes": _hand_state({})}, {"notes": _hand_state(created)}
    call = _note_call({"body": {"title": "Plan", "pinned": False}, "flag": False}, "create")
    # `pinned` is given by name; the unrelated `flag` False does not make booleans key.
    assert build_rubric(start, end, [call], [], {})[0].params["fields"] == {
        "title": "Plan", "pinned": False}
    # The create gave nothing the record holds: the first three plain string fields stand in.
    bare = _note_call({}, "create", result={"id": "n1"})
    fallback = build_rubric(start, end, [bare], [], {"notes": "Notes"})[0]
    assert fallback.params["fields"] == {"title": "Plan", "color": "red", "folder": "inbox"}
    assert fallback.description.startswith("A note is created in Notes with title 'Plan'")


def test_refuses_unmatched_states_and_unanswerable_values(run: GoldRun) -> None:
    with pytest.raises(ValueError, match="different services"):
        build_rubric(run.start, {"crm": run.end["crm"]}, run.calls, [], TITLES)
    flag = AnswerItem(step=0, path="ok", label="whether it worked", value=True)
    with pytest.raises(ValueError, match="boolean, null or empty"):
        build_rubric(run.start, run.end, run.calls, [flag], TITLES)
    blank = flag.model_copy(update={"value": ""})
    with pytest.raises(ValueError, match="boolean, null or empty"):
        build_rubric(run.start, run.end, run.calls, [blank], TITLES)


def test_a_made_record_is_named_as_one_thing_with_its_article():
    """`suppliers_post` makes "A supplier", a user is "A user", an order "An order"."""
    from compoworld.compose.rubric import _made
    from compoworld.services.modeled import ACTION_LOG

    assert _made("", {"tool": "suppliers_post"}, ACTION_LOG, "Books") == (
        "A supplier is created in Books")
    assert _made("user", {}, "users", "LMS") == "A user is created in LMS"
    assert _made("order", {}, "orders", "Shop") == "An order is created in Shop"
    assert _made("", {"tool": "send_messages"}, ACTION_LOG, "Texts") == (
        "A message is sent through Texts")


def test_a_create_that_also_logs_its_call_is_checked_once() -> None:
    """An action that stores the customer it makes and logs its call (Billbee's
    `customer_create`) changes two collections; the record's criterion checks it, and
    the logged event gets none of its own (it read as the same sentence twice).
    The guard still allows the event. A logged event that no record checks keeps its own
    criterion."""
    from compoworld.reward.rubric import evaluate_rubric
    from compoworld.services.modeled import ACTION_LOG

    schemas = {"customers": {"type": "object"}, ACTION_LOG: {"type": "object"}}
    sent = {"Name": "Pablo Nowak", "Email": "pablo.nowak@acme.com", "ShopId": "s1"}
    record = {"id": 6, "name": "Pablo Nowak", "email": "pablo.nowak@acme.com",
              "shop_id": "s1"}
    event = {"id": "e1", "tool": "customer_create", "at": "2025-03-03T09:00:00Z", **sent}
    start = {"shop": State(schemas, {"customers": {}, ACTION_LOG: {}})}
    end = {"shop": State(schemas, {"customers": {"6": record}, ACTION_LOG: {"e1": event}})}
    call = GoldCall(tool="shop__customer_create", service="shop", effect="action",
                    arguments=sent, bindings={}, result={"Data": record})
    rubric = build_rubric(start, end, [call], [], {"shop": "Shop"})
    made = by_kind(rubric, "record_created")
    assert [c.params["collection"] for c in made] == ["customers"], rubric
    assert made[0].params["fields"] == {"email": "pablo.nowak@acme.com", "name": "Pablo Nowak",
                                        "shop_id": "s1"}
    guard = by_kind(rubric, "no_collateral_change")[0]
    assert guard.params["allowed"]["shop"][ACTION_LOG]["created"] == 1
    assert all(evaluate_rubric(rubric, start, end, ""))
    only_event = {"shop": State(schemas, {"customers": {}, ACTION_LOG: {"e1": event}})}
    alone = by_kind(build_rubric(start, only_event, [call], [], {"shop": "Shop"}),
                    "record_created")
    assert [c.params["collection"] for c in alone] == [ACTION_LOG]


def test_a_send_whose_record_only_echoes_its_recipient_is_checked_once() -> None:
    """Postmark's `send_email` logs the call (sender, recipient, text) and stores an `email`
    record of `{To, id}`: the log's criterion checks the send, and the echo gets none of its
    own (a second "An email is created in Postmark with To ..." read as the same check
    twice); the guard still allows both."""
    from compoworld.reward.rubric import evaluate_rubric
    from compoworld.services.modeled import ACTION_LOG

    schemas = {"email": {"type": "object"}, ACTION_LOG: {"type": "object"}}
    sent = {"To": "ana.ruiz@acme.com", "From": "hello@contoso.com",
            "TextBody": "Hi Ana, here is your receipt."}
    echo = {"id": "ema_0006", "To": "ana.ruiz@acme.com"}
    event = {"id": "act_0001", "tool": "send_email", "at": "2025-03-03T09:00:00Z", **sent}
    start = {"mail": State(schemas, {"email": {}, ACTION_LOG: {}})}
    end = {"mail": State(schemas, {"email": {"ema_0006": echo},
                                   ACTION_LOG: {"act_0001": event}})}
    call = GoldCall(tool="mail__send_email", service="mail", effect="create",
                    arguments=sent, bindings={}, result=echo)
    rubric = build_rubric(start, end, [call], [], {"mail": "Postmark"})
    made = by_kind(rubric, "record_created")
    assert [c.params["collection"] for c in made] == [ACTION_LOG], rubric
    assert made[0].description.startswith("An email is sent through Postmark")
    guard = by_kind(rubric, "no_collateral_change")[0]
    assert guard.params["allowed"]["mail"]["email"]["created"] == 1
    assert all(evaluate_rubric(rubric, start, end, ""))


def test_a_detail_the_reference_fills_in_aside_is_neither_checked_nor_the_agent_s_words():
    """A meeting's notes ("Account review") and time zone the request leaves to the agent:
    no key field of the booking's check and no text it must write."""
    from compoworld.compose.rubric import _argument_values

    booked = GoldCall(tool="book__create_appointment", service="book", effect="create",
                      arguments={"email": "ann@x.org", "notes": "Account review",
                                 "timezoneName": "Asia/Tokyo", "body": "Hi Ann"},
                      bindings={"email": Binding(kind="visible", type="email"),
                                "notes": Binding(kind="aside", type="text"),
                                "timezoneName": Binding(kind="aside", type="title"),
                                "body": Binding(kind="free", type="text")},
                      result={"id": "a1"})
    given, own = _argument_values([booked], "book")
    assert given == [("email", "ann@x.org")]
    assert own == {("body", "Hi Ann")}


def test_what_a_booking_is_for_is_checked_by_its_words_in_any_field() -> None:
    """"Book an account review with them": a booking with the right person and time but
    no word of what it is for was passed as done (a reviewer read the unchecked purpose in
    eight tasks of forty). The check takes "account" or "review" in any of the booking's
    fields, as the title the agent gives it or its notes."""
    from compoworld.compose.records import PURPOSE
    from compoworld.reward.rubric import evaluate_rubric

    schemas = {"appointments": {"type": "object"}}
    booked = {"email": "ann@x.org", "startDateTime": "2025-03-10T09:00:00Z",
              "notes": "Account review"}
    call = GoldCall(tool="book__create_appointment", service="book", effect="create",
                    arguments=booked,
                    bindings={"email": Binding(kind="visible", type="email"),
                              "startDateTime": Binding(kind="visible", type="datetime"),
                              "notes": Binding(kind="aside", type=PURPOSE)},
                    result={"id": "a1", **booked})
    start = {"book": State(schemas, {"appointments": {}})}

    def ended(record: dict[str, Any]) -> dict[str, State]:
        return {"book": State(schemas, {"appointments": {"a1": {"id": "a1", **record}}})}

    rubric = build_rubric(start, ended(booked), [call], [], {"book": "OnSched"})
    made = by_kind(rubric, "record_created")[0]
    assert "notes" not in made.params["fields"]  # (its exact words are the agent's)
    assert {"account", "review", "reviews"} <= set(made.params["about"])
    assert "saying what it is for" in made.description
    assert all(evaluate_rubric(rubric, start, ended(booked), ""))
    titled = {**{k: v for k, v in booked.items() if k != "notes"},
              "title": "Yearly account reviews"}
    assert evaluate_rubric(rubric, start, ended(titled), "")[0]
    bare = {k: v for k, v in booked.items() if k != "notes"}
    assert not evaluate_rubric(rubric, start, ended(bare), "")[0]


def test_a_booking_title_s_plain_words_are_not_its_purpose() -> None:
    from compoworld.compose.rubric import purpose_words

    assert purpose_words("Intro call") == ["intro", "intros"]
    assert "call" not in purpose_words("Customer feedback call")
    assert purpose_words("Consultation") == ["consultation", "consultations"]


def test_a_contact_detail_may_sit_only_in_another_field_of_the_same_party() -> None:
    """A customer's email may sit in `customerEmail` as well as `email`, never in a
    booking's `resourceEmail` (its staff member's), nor a phone in a
    fax line, nor a contact's name in the owner's."""
    from compoworld.compose.rubric import _alternatives

    kinds = {"email": "email", "resourceEmail": "email", "customerEmail": "email",
             "phone": "phone", "mobile": "phone", "fax": "phone",
             "contactName": "person_name", "customerName": "person_name",
             "ownerName": "person_name"}
    assert _alternatives({"email": "a@b.io", "phone": "+1", "contactName": "Ana Ruiz"},
                         kinds) == {"email": ["customerEmail"], "phone": ["mobile"],
                                    "contactName": ["customerName"]}
    assert _alternatives({"resourceEmail": "staff@b.io"}, kinds) == {}
    assert _alternatives({"fax": "+1"}, kinds) == {}


def test_a_booking_is_checked_for_a_word_its_request_says():
    """"Book a call about their payments" was checked for "billing", a word the request
    never said: each purpose's check words include one of the request's own."""
    import re

    from compoworld.compose.rubric import purpose_words
    from compoworld.compose.situations import MEETINGS

    for purposes in MEETINGS.values():
        for purpose in purposes:
            said = set(re.findall(r"[a-z]+(?:-[a-z]+)*", purpose.what.lower()))
            assert said & set(purpose_words(purpose.title)), purpose


def test_a_message_is_checked_for_its_workflow_s_own_words():
    """"Text them asking them to return their laptop before their last day" was checked
    only for "saying something (two words at least)": a workflow whose gist says none of
    the shared topics names its own words (`Workflow.says`), and the check wants one."""
    from compoworld.compose.workflows import BY_NAME
    from compoworld.reward.rubric import evaluate_rubric

    schemas = {"messages": {"type": "object"}}
    sent = {"to": "+15550100", "body": "Hi Ana, please return your laptop by Friday."}
    call = GoldCall(tool="sms__create_message", service="sms", effect="create",
                    arguments=sent, bindings={"to": Binding(kind="visible", type="phone"),
                                              "body": Binding(kind="free", type="text")},
                    result={"id": "m1", **sent})
    start = {"sms": State(schemas, {"messages": {}})}

    def ended(body: str) -> dict[str, State]:
        return {"sms": State(schemas, {"messages": {"m1": {"id": "m1", **sent,
                                                           "body": body}}})}

    says = BY_NAME["laptop_return"].says
    rubric = build_rubric(start, ended(sent["body"]), [call], [], {"sms": "Twilio"}, says=says)
    made = by_kind(rubric, "record_created")[0]
    assert made.params["topic"] == ["laptop"] and '"laptop"' in made.description
    assert not evaluate_rubric(rubric, start, ended("Hi Ana, see you on Friday!"), "")[0]
    plain = by_kind(build_rubric(start, ended(sent["body"]), [call], [], {"sms": "Twilio"}),
                    "record_created")[0]
    assert "topic" not in plain.params
    # its own words come before a shared topic the text also says: a payslip notice that
    # says "is ready" was checked for "set" or "ready", and passed with no payslip in it
    ready = "Hi Ana, your February payslip is ready to view."
    told = call.model_copy(update={"arguments": {**sent, "body": ready}})
    notice = by_kind(build_rubric(start, ended(ready), [told], [], {"sms": "Twilio"},
                                  says=BY_NAME["payslip_notice"].says), "record_created")[0]
    assert notice.params["topic"] == ["payslip"]
    assert not evaluate_rubric([notice], start, ended("Hi Ana, all set and ready!"), "")[0]


def test_a_title_the_request_states_is_kept_or_the_task_is_refused():
    """"Create a project in Avaza with title "Quarterly hiring plan"": the service kept only
    the project's company, so the check could not hold the title the request named, and
    a project of any title passed. A stated title no record keeps refuses the task."""
    schemas = {"projects": {"type": "object"}}
    company = Binding(kind="hidden", type="company", step=0, field="[].company_name",
                      path="[0].company_name")
    asked = {"CompanyName": "Silverline Travel", "ProjectTitle": "Quarterly hiring plan"}
    call = GoldCall(tool="pm__project_post", service="pm", effect="create", arguments=asked,
                    bindings={"CompanyName": company,
                              "ProjectTitle": Binding(kind="visible", type="title")},
                    result={"ProjectID": 6})
    start = {"pm": State(schemas, {"projects": {}})}

    def ended(record: dict) -> dict[str, State]:
        return {"pm": State(schemas, {"projects": {"6": {"ProjectID": 6, **record}}})}

    with pytest.raises(ValueError, match="title"):
        build_rubric(start, ended({"CompanyName": "Silverline Travel"}), [call], [],
                     {"pm": "Avaza"})
    rubric = build_rubric(start, ended(asked), [call], [], {"pm": "Avaza"})
    assert by_kind(rubric, "record_created")[0].params["fields"]["ProjectTitle"] == \
        "Quarterly hiring plan"


def test_a_body_carried_into_a_post_may_come_with_words_around_it():
    """An issue's body posted to a channel was checked as the post's whole text, so a post
    that put the issue's title before its body failed an agent that did what was asked."""
    from compoworld.reward.rubric import evaluate_rubric

    body = "The customer cannot reset their password from the mobile app."
    schemas = {"messages": {"type": "object"}}
    call = GoldCall(tool="chat__post_message", service="chat", effect="action",
                    arguments={"channel": "support", "text": body},
                    bindings={"channel": Binding(kind="visible", type="string"),
                              "text": Binding(kind="hidden", type="text", step=0,
                                              field="[].body", path="[0].body")},
                    result={"ok": True})
    start = {"chat": State(schemas, {"messages": {}})}

    def ended(text: str) -> dict[str, State]:
        return {"chat": State(schemas, {"messages": {"m1": {"id": "m1", "channel": "support",
                                                            "text": text}}})}

    rubric = build_rubric(start, ended(body), [call], [], {"chat": "Slack"})
    made = by_kind(rubric, "record_created")[0]
    assert made.params["contains"] == ["text"]
    assert f"its text containing '{body}'" in made.description  # (not "with text '...'")
    assert evaluate_rubric(rubric, start, ended(f"Password reset request: {body}"), "")[0]
    assert not evaluate_rubric(rubric, start, ended("Password reset request"), "")[0]


def test_what_the_environment_fills_in_is_no_check():
    """Every ClickSend task's check wanted "from.email address id 1", a sender the request
    never names and the environment fills in: an argument that is infrastructure (our
    sender's id, an api key) is left out of the checks."""
    schemas = {"emails": {"type": "object"}}
    sent = {"to": ["ann@lee.org"], "body": "Your laptop is ready.",
            "from.email_address_id": 1}
    call = GoldCall(tool="mail__email_send", service="mail", effect="action", arguments=sent,
                    bindings={"to": Binding(kind="hidden", type="email", step=0,
                                            field="[].email", path="[0].email"),
                              "body": Binding(kind="free", type="text")},
                    result={"id": "e1"})
    start = {"mail": State(schemas, {"emails": {}})}
    end = {"mail": State(schemas, {"emails": {"e1": {"id": "e1", **sent}}})}
    made = by_kind(build_rubric(start, end, [call], [], {"mail": "ClickSend"}),
                   "record_created")[0]
    assert "from.email_address_id" not in made.params["fields"]
    assert made.params["fields"]["to"] == ["ann@lee.org"]


def test_a_message_passes_on_the_facts_its_workflow_tells():
    """An offsite invitation was checked for "offsite" alone, so a message with the wrong
    date passed: a workflow's `tells` ("April 10") are checked where its message says them."""
    from compoworld.compose.workflows import BY_NAME
    from compoworld.reward.rubric import evaluate_rubric

    offsite = BY_NAME["offsite_rsvp"]
    body = "Hi Ana, asking whether you will join the team offsite on April 10."
    schemas = {"messages": {"type": "object"}}
    sent = {"to": "ana@ourco.com", "body": body}
    call = GoldCall(tool="mail__send", service="mail", effect="create", arguments=sent,
                    bindings={"to": Binding(kind="hidden", type="email", step=0,
                                            field="[].email", path="[0].email"),
                              "body": Binding(kind="free", type="text")},
                    result={"id": "m1"})
    start = {"mail": State(schemas, {"messages": {}})}

    def ended(text: str) -> dict[str, State]:
        return {"mail": State(schemas, {"messages": {"m1": {"id": "m1", **sent,
                                                            "body": text}}})}

    rubric = build_rubric(start, ended(body), [call], [], {"mail": "Mail"},
                          says=offsite.says, tells=offsite.tells)
    made = by_kind(rubric, "record_created")[0]
    assert "April 10" in made.params["mentions"] and "April 10" in made.description
    assert evaluate_rubric(rubric, start, ended(body), "")[0]
    assert not evaluate_rubric(rubric, start, ended("Join the offsite on May 2?"), "")[0]
    with pytest.raises(ValueError, match="tells"):
        Workflow("x", "hr", "p", offsite.steps, gist="asking them", tells=("April 10",))


def test_a_message_s_words_inside_its_object_are_checked_as_words_not_verbatim():
    """A blind review rejected WhatsApp texts whose check demanded the reference's body
    word for word: the record's own `text: {"body": ...}`, unflattened, had passed for a
    rival of its flattened self, so its free `text.body` became a key field. The agent's
    words are checked as words (the topic), whatever object holds them."""
    from compoworld.reward.rubric import evaluate_rubric

    body = "Hi there, a quick note apologising for yesterday's service outage."
    schemas = {"messages": {"type": "object"}}
    sent = {"to": "+34720975085", "text": {"body": body}}
    call = GoldCall(tool="chat__send_message", service="chat", effect="create",
                    arguments=sent,
                    bindings={"to": Binding(kind="hidden", type="phone", step=0,
                                            field="[].phone", path="[0].phone"),
                              "text.body": Binding(kind="free", type="text")},
                    result={"id": "m1"})
    start = {"chat": State(schemas, {"messages": {}})}

    def ended(text: str) -> dict[str, State]:
        return {"chat": State(schemas, {"messages": {"m1": {"id": "m1", "to": sent["to"],
                                                            "text": {"body": text}}}})}

    rubric = build_rubric(start, ended(body), [call], [], {"chat": "Chat"}, says=("outage",))
    made = by_kind(rubric, "record_created")[0]
    assert made.params["fields"] == {"to": "+34720975085"}
    assert made.params["written"] == ["text.body"]
    assert evaluate_rubric(rubric, start, ended("Sorry about the outage yesterday."), "")[0]
    assert not evaluate_rubric(rubric, start, ended("Thanks for your order!"), "")[0]


def test_a_send_whose_stored_message_says_nothing_is_checked_by_its_event_alone() -> None:
    """WhatsApp's `send_message` logs the call (to, text) and stores a message that holds
    only its id. The stored one's check, "A message is created in WhatsApp Business.",
    checked nothing and repeated the event's, once per send: it is left out. A bare
    record made by a call that logged no event keeps its check (it alone says the call
    was made)."""
    from compoworld.reward.rubric import evaluate_rubric
    from compoworld.services.modeled import ACTION_LOG

    schemas = {"messages": {"type": "object"}, ACTION_LOG: {"type": "object"}}
    sent = {"to": "+351933447269", "text": "Welcome to the team, Diego!"}
    event = {"id": "e1", "tool": "send_message", "at": "2025-03-03T09:00:00Z", **sent}
    start = {"wa": State(schemas, {"messages": {}, ACTION_LOG: {}})}
    end = {"wa": State(schemas, {"messages": {"mes_6": {"id": "mes_6"}},
                                 ACTION_LOG: {"e1": event}})}
    call = GoldCall(tool="wa__send_message", service="wa", effect="action",
                    arguments=sent, bindings={}, result={"id": "mes_6"})
    rubric = build_rubric(start, end, [call], [], {"wa": "WhatsApp Business"})
    made = by_kind(rubric, "record_created")
    assert [c.params["collection"] for c in made] == [ACTION_LOG], rubric
    assert by_kind(rubric, "no_collateral_change")[0].params["allowed"]["wa"][
        "messages"]["created"] == 1
    assert all(evaluate_rubric(rubric, start, end, ""))
    stored_only = {"wa": State(schemas, {"messages": {"mes_6": {"id": "mes_6"}},
                                         ACTION_LOG: {}})}
    alone = by_kind(build_rubric(start, stored_only, [call], [], {"wa": "WhatsApp Business"}),
                    "record_created")
    assert [c.params["collection"] for c in alone] == ["messages"]

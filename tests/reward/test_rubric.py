"""Evaluating a rubric: the gold run passes it all, a do-nothing run only the guard."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.compose.records import Criterion
from compoworld.compose.rubric import build_rubric
from compoworld.reward.rubric import evaluate_criterion, evaluate_rubric, json_equal, value_in_text
from compoworld.services.builtin import build_builtin, example_state
from compoworld.world.state import State
from tests.compose.test_rubric import NEW_CONTACT, TITLES, GoldRun, gold_run

ANSWER = "Done. Their email is {email} and the deal is worth 1,250.50 EUR."


@pytest.fixture
def run() -> GoldRun:
    return gold_run()


@pytest.fixture
def rubric(run: GoldRun) -> list[Criterion]:
    return build_rubric(run.start, run.end, run.calls, run.answer, TITLES)


def answer_of(run: GoldRun) -> str:
    return ANSWER.format(email=run.answer[0].value.upper())


def redo(run: GoldRun, *calls: tuple[str, str, dict[str, Any]]) -> dict[str, State]:
    """The gold end state with more calls made on top of it."""
    end = {name: state.copy() for name, state in run.end.items()}
    for service, tool, arguments in calls:
        result = build_builtin(service, end[service]).call(tool, arguments)
        assert result["success"], result
    return end


def test_gold_run_passes_every_criterion(run: GoldRun, rubric: list[Criterion]) -> None:
    assert evaluate_rubric(rubric, run.start, run.end, answer_of(run)) == [True] * len(rubric)


def test_do_nothing_run_passes_only_the_guard(run: GoldRun, rubric: list[Criterion]) -> None:
    passed = evaluate_rubric(rubric, run.start, run.start, "")
    assert passed == [c.kind == "no_collateral_change" for c in rubric]
    assert passed == [c.noop_passes for c in rubric]


@pytest.mark.parametrize("extra", [
    ("crm", "crm__create_contact", {"first_name": "Bo", "last_name": "Li",
                                    "email": "bo.li@x.test"}),
    ("crm", "crm__update_contact", {"contact_id": "OTHER", "city": "Lima"}),
    ("crm", "crm__delete_contact", {"contact_id": "OTHER"}),
    ("email", "email__mark_email_read", {"message_id": "mes_0001", "read": False}),
])
def test_guard_fails_on_collateral_changes(
    run: GoldRun, rubric: list[Criterion], extra: tuple[str, str, dict[str, Any]]
) -> None:
    service, tool, arguments = extra
    arguments = {k: run.other_id if v == "OTHER" else v for k, v in arguments.items()}
    if tool == "email__mark_email_read":  # make sure the call is a change
        read = run.end["email"].records("messages")["mes_0001"]["read"]
        arguments["read"] = not read
    end = redo(run, (service, tool, arguments))
    passed = evaluate_rubric(rubric, run.start, end, answer_of(run))
    assert passed == [c.kind != "no_collateral_change" for c in rubric]


def test_guard_fails_on_unlisted_or_missing_services(
    run: GoldRun, rubric: list[Criterion]
) -> None:
    guard = rubric[-1]
    calendar = example_state("calendar", 7)
    changed = calendar.copy()
    event = next(iter(changed.records("events")))
    changed.delete("events", event)
    assert not evaluate_criterion(guard, {**run.start, "calendar": calendar},
                                  {**run.end, "calendar": changed}, "")
    assert evaluate_criterion(guard, {**run.start, "calendar": calendar},
                              {**run.end, "calendar": calendar.copy()}, "")
    assert not evaluate_criterion(guard, run.start, {"crm": run.end["crm"]}, "")
    assert not evaluate_criterion(guard, {"crm": run.start["crm"]}, {"crm": run.end["crm"]}, "")


def test_created_record_with_a_wrong_key_field_fails(run: GoldRun,
                                                     rubric: list[Criterion]) -> None:
    contact = rubric[0]
    end = {name: state.copy() for name, state in run.start.items()}
    wrong = {**NEW_CONTACT, "company": "Acme Inc"}
    assert build_builtin("crm", end["crm"]).call("crm__create_contact", wrong)["success"]
    assert not evaluate_criterion(contact, run.start, end, "")
    padded = {**NEW_CONTACT, "company": "  Acme ", "email": "ada.quill@acme.test"}
    end = {name: state.copy() for name, state in run.start.items()}
    assert build_builtin("crm", end["crm"]).call("crm__create_contact", padded)["success"]
    assert evaluate_criterion(contact, run.start, end, "")


def test_a_pre_existing_record_never_counts_as_created(run: GoldRun) -> None:
    existing = run.start["crm"].records("contacts")[run.other_id]
    criterion = Criterion(id="c0", description="", kind="record_created", service="crm",
                          params={"collection": "contacts",
                                  "fields": {"email": existing["email"]}})
    assert not evaluate_criterion(criterion, run.start, run.end, "")
    # Editing an existing record to match is an update, not a creation.
    end = redo(run, ("crm", "crm__update_contact",
                     {"contact_id": run.updated_id, "email": "fresh@new.test"}))
    criterion.params["fields"] = {"email": "fresh@new.test"}
    assert not evaluate_criterion(criterion, run.start, end, "")


def test_field_equals_and_record_deleted_check_the_end_state(
    run: GoldRun, rubric: list[Criterion]
) -> None:
    update = next(c for c in rubric if c.kind == "field_equals")
    delete = next(c for c in rubric if c.kind == "record_deleted")
    moved = redo(run, ("crm", "crm__update_contact",
                       {"contact_id": run.updated_id, "city": "Paris"}))
    assert not evaluate_criterion(update, run.start, moved, "")
    gone = redo(run, ("crm", "crm__delete_contact", {"contact_id": run.updated_id}))
    assert not evaluate_criterion(update, run.start, gone, "")
    # A record that never existed was not deleted by the run.
    never = delete.model_copy(update={"params": {"collection": "contacts", "id": "con_9999"}})
    assert not evaluate_criterion(never, run.start, run.end, "")


@pytest.mark.parametrize(("value", "text", "found"), [
    ("Ada.Quill@acme.test", "write to ada.quill@ACME.test today", True),
    ("New  York", "She lives in new\n york now", True),
    ("Ann", "Joanne signed", False),
    ("Ann", "Ann's deal", True),
    (12, "It costs 12.", True),
    (12, "It costs 123 or 3.12 or 12.5 or 1,120", False),
    (12.0, "twelve: 12 exactly", True),
    (12.0, "12.00", True),
    (12.5, "12.5 units", True),
    (12.5, "12.50 USD", True),
    (12.5, "112.5 units", False),
    (1200, "1,200 people", True),
    ("12", "call 123", False),
    (["a@x.io", "b@x.io"], "a@x.io and b@x.io", True),
    (["a@x.io", "b@x.io"], "only a@x.io", False),
    ([], "anything", False),
    (True, "True", False),
    (None, "None", False),
    ("", "anything", False),
    ("x", None, False),
])
def test_answer_matching(value: Any, text: Any, found: bool) -> None:
    assert value_in_text(value, text) is found


@pytest.mark.parametrize(("left", "right", "equal"), [
    (5, 5.0, True), (True, 1, False), (" Acme ", "Acme", True), ("acme", "Acme", False),
    ({"a": [1, {"b": 2.0}]}, {"a": [1.0, {"b": 2}]}, True), ({"a": 1}, {"a": 1, "b": 2}, False),
    (None, None, True), (None, "", False), ([1, 2], [2, 1], False),
    # one moment however it is written (a request says "12:30 UTC"), never another one
    ("2025-03-12T12:30:00Z", "2025-03-12T12:30:00+00:00", True),
    ("2025-03-12T12:30:00Z", "2025-03-12T13:30:00+01:00", True),
    ("2025-03-12T12:30:00Z", "2025-03-12T12:30", True),
    ("2025-03-12T12:30:00Z", "2025-03-12T12:31:00Z", False),
    ("2025-03-12T12:30:00Z", "2025-03-12T12:30:00+02:00", False),
    ("2025-03-12", "2025-03-12T00:00:00Z", False), ("2025-03-12T12:30:00Z", "soon", False),
])
def test_json_equality(left: Any, right: Any, equal: bool) -> None:
    assert json_equal(left, right) is equal


@pytest.mark.parametrize(("kind", "service", "params"), [
    ("record_created", "crm", {}),
    ("record_created", "crm", {"collection": "contacts", "fields": ["email"]}),
    ("record_created", "nowhere", {"collection": "contacts", "fields": {}}),
    ("record_created", None, {"collection": "contacts", "fields": {}}),
    ("field_equals", "crm", {"collection": "contacts", "id": {"x": 1}, "fields": {"a": 1}}),
    ("field_equals", "crm", {"collection": "contacts", "id": "con_0001", "fields": {}}),
    ("record_deleted", "crm", {"collection": ["contacts"], "id": "con_0001"}),
    ("answer_contains", None, {"label": "no value"}),
    ("answer_contains", None, {"value": "anything", "competitors": "not a list"}),
    ("no_collateral_change", None, {"allowed": "everything"}),
    ("no_collateral_change", None, {}),
    ("no_collateral_change", None, {"allowed": {"crm": {"contacts": {"created": "many"}}}}),
])
def test_malformed_params_fail_without_raising(
    run: GoldRun, kind: str, service: str | None, params: dict[str, Any]
) -> None:
    criterion = Criterion(id="c0", description="bad", kind=kind, service=service, params=params)
    assert evaluate_rubric([criterion], run.start, run.end, "anything") == [False]


def _asked(value: Any, competitors: list[Any] | None = None) -> Criterion:
    params: dict[str, Any] = {"value": value, "label": "the email"}
    if competitors is not None:
        params["competitors"] = competitors
    return Criterion(id="c0", description="reports it", kind="answer_contains", params=params)


@pytest.mark.parametrize(("competitors", "answer", "passes"), [
    (None, "it is ana@x.io, or bo@x.io", True),  # an old rubric: only the value counts
    ([], "it is ana@x.io, or bo@x.io", True),
    (["bo@x.io", "cy@x.io"], "It is ANA@x.io.", True),
    (["bo@x.io", "cy@x.io"], "it is ana@x.io, or bo@x.io", False),
    (["bo@x.io"], '[{"email":"ana@x.io"},{"email":"bo@x.io"}]', False),  # a dump of a list
    (["bo@x.io"], "it is bo@x.io", False),
    ([1250.5], "ana@x.io paid 1,250.50", False),  # competitors match like values do
    ([125], "ana@x.io paid 1250", True),  # digit boundaries: 125 is not inside 1250
])
def test_answer_fails_when_a_competitor_is_stated(
    run: GoldRun, competitors: list[Any] | None, answer: str, passes: bool
) -> None:
    criterion = _asked("ana@x.io", competitors)
    assert evaluate_rubric([criterion], run.start, run.end, answer) == [passes]


def test_built_answer_criteria_fail_on_a_dump_of_every_contact(
    run: GoldRun, rubric: list[Criterion]
) -> None:
    email = next(c for c in rubric if c.kind == "answer_contains")
    contacts = run.end["crm"].records("contacts").values()
    dump = " ".join(str(contact.get("email")) for contact in contacts)
    assert value_in_text(email.params["value"], dump)  # the dump does state the value
    assert not evaluate_criterion(email, run.start, run.end, dump)
    assert evaluate_criterion(email, run.start, run.end, answer_of(run))


# --- a message's own words ----------------------------------------------------------------


def _sent(body: Any) -> tuple[dict[str, State], dict[str, State]]:
    start = State(collections={"messages": {}})
    end = State(collections={"messages": {"m1": {"id": "m1", "To": "+12709238138",
                                                 "Body": body}}})
    return {"sms": start}, {"sms": end}


def _message_created(written: Any) -> Criterion:
    return Criterion(id="c1", kind="record_created", service="sms", description="A message.",
                     params={"collection": "messages", "fields": {"To": "+12709238138"},
                             "written": written})


@pytest.mark.parametrize(("body", "passes"), [
    ("Your refund is on its way.", True), ("Hi there", True),
    ("", False), ("ok", False), (None, False), (["Hi", "there"], False),
])
def test_a_written_field_must_say_something(body: Any, passes: bool) -> None:
    start, end = _sent(body)
    assert evaluate_criterion(_message_created(["Body"]), start, end, "") is passes


def test_a_malformed_written_list_fails_without_raising() -> None:
    start, end = _sent("Your refund is on its way.")
    assert evaluate_criterion(_message_created("Body"), start, end, "") is False
    assert evaluate_criterion(_message_created([1]), start, end, "") is False


def test_a_message_body_the_agent_writes_is_checked_for_words() -> None:
    """The rubric of a sent message names its body as written (any words of the agent's,
    but some), and says what was sent, not that an action log was created."""
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.services.modeled import ACTION_LOG

    event = {"id": "e1", "tool": "send_sms", "at": "2025-01-01T00:00:00Z",
             "to": "+12709238138", "body": "Hello! A quick note about your order."}
    start = {"sms": State(collections={ACTION_LOG: {}})}
    end = {"sms": State(collections={ACTION_LOG: {"e1": event}})}
    calls = [GoldCall(tool="sms__send_sms", service="sms", effect="action",
                      arguments={"to": event["to"], "body": event["body"]},
                      bindings={"to": Binding(kind="hidden", type="phone", step=0, field="phone",
                                              path="phone"),
                                "body": Binding(kind="free", type="text")},
                      result={"id": "e1"})]
    rubric = build_rubric(start, end, calls, [], {"sms": "Texts"})
    created = next(c for c in rubric if c.kind == "record_created")
    assert created.params["written"] == ["body"]
    assert created.description.startswith("A sms is sent through Texts"), created.description
    assert "action log" not in created.description
    silent = {"sms": State(collections={ACTION_LOG: {"e1": {**event, "body": ""}}})}
    assert evaluate_criterion(created, start, end, "") is True
    assert evaluate_criterion(created, start, silent, "") is False


def test_a_contact_s_name_may_sit_in_another_name_field_of_the_record() -> None:
    """A customer created with its name in `customerName` passes a check built from a gold
    call that filled `contactName`: the rubric lists the record's other fields of that kind
    as alternatives. An unrelated field (`notes`) is none, and a wrong name still fails."""
    from compoworld.compose.records import Binding, GoldCall

    schema = {"type": "object", "properties": {
        "id": {"type": "string"}, "contactName": {"type": "string"},
        "customerName": {"type": "string"}, "notes": {"type": "string"},
        "emailAddress": {"type": "string", "format": "email"}}}
    record = {"id": "c1", "contactName": "Ben Ito", "emailAddress": "ben.ito@example.com"}

    def made(**fields: Any) -> dict[str, State]:
        return {"books": State(schemas={"customers": schema},
                               collections={"customers": {"c1": {"id": "c1", **fields}}})}

    start = {"books": State(schemas={"customers": schema})}
    calls = [GoldCall(tool="books__create_customer", service="books", effect="create",
                      arguments={"contactName": "Ben Ito", "emailAddress": record["emailAddress"]},
                      bindings={"contactName": Binding(kind="hidden", type="person_name", step=0,
                                                       field="name", path="name"),
                                "emailAddress": Binding(kind="hidden", type="email", step=0,
                                                        field="email", path="email")},
                      result=record)]
    rubric = build_rubric(start, made(**record), calls, [], {"books": "Books"})
    created = next(c for c in rubric if c.kind == "record_created")
    assert created.params["alternatives"]["contactName"] == ["customerName"]
    assert "notes" not in str(created.params["alternatives"])
    assert "contactName (or customerName) 'Ben Ito'" in created.description, created.description
    other = made(customerName="Ben Ito", emailAddress=record["emailAddress"])
    assert evaluate_criterion(created, start, other, "") is True
    wrong = made(customerName="Ana Ruiz", emailAddress=record["emailAddress"])
    assert evaluate_criterion(created, start, wrong, "") is False
    noted = made(notes="Ben Ito", emailAddress=record["emailAddress"])
    assert evaluate_criterion(created, start, noted, "") is False


def test_an_invoice_s_amount_may_sit_in_its_total_but_never_in_its_tax() -> None:
    """An amount checked in `sub_total` passes in `total` (both are the whole sum), but a
    fee or tax field is no alternative: the amount put there is not what was invoiced."""
    from compoworld.compose.records import Binding, GoldCall

    money = {"type": "number"}
    schema = {"type": "object", "properties": {
        "id": {"type": "string"}, "sub_total": money, "total": money, "tax": money,
        "customer_name": {"type": "string"}}}
    record = {"id": "i1", "sub_total": 24.5, "customer_name": "Ben Ito"}

    def made(**fields: Any) -> dict[str, State]:
        return {"books": State(schemas={"invoices": schema},
                               collections={"invoices": {"i1": {"id": "i1", **fields}}})}

    start = {"books": State(schemas={"invoices": schema})}
    calls = [GoldCall(tool="books__create_invoice", service="books", effect="create",
                      arguments={"sub_total": 24.5, "customer_name": "Ben Ito"},
                      bindings={"sub_total": Binding(kind="hidden", type="money", step=0,
                                                     field="amount", path="amount"),
                                "customer_name": Binding(kind="hidden", type="person_name",
                                                         step=0, field="name", path="name")},
                      result=record)]
    rubric = build_rubric(start, made(**record), calls, [], {"books": "Books"})
    created = next(c for c in rubric if c.kind == "record_created")
    assert created.params["alternatives"]["sub_total"] == ["total"]
    assert evaluate_criterion(created, start, made(total=24.5, customer_name="Ben Ito"),
                              "") is True
    assert evaluate_criterion(created, start, made(tax=24.5, customer_name="Ben Ito"),
                              "") is False


def test_malformed_alternatives_fail_without_raising() -> None:
    start, end = _sent("Your refund is on its way.")
    for alternatives in ({"To": "to"}, ["To"], {"To": [1]}):
        criterion = Criterion(id="c1", kind="record_created", service="sms", description="x",
                              params={"collection": "messages", "fields": {"To": "+12709238138"},
                                      "alternatives": alternatives})
        assert evaluate_criterion(criterion, start, end, "") is False


def test_a_reply_must_name_the_ticket_it_answers() -> None:
    """A message body with `mentions` passes only when it names each stated fact (any case,
    any wording around it); a malformed `mentions` fails without raising."""
    def criterion(mentions: Any) -> Criterion:
        return Criterion(id="c1", kind="record_created", service="sms", description="A reply.",
                         params={"collection": "messages", "fields": {"To": "+12709238138"},
                                 "written": ["Body"], "mentions": mentions})

    named = _sent("Hi Ann, we are fixing the password reset error today.")
    assert evaluate_criterion(criterion(["Password reset error"]), *named, "") is True
    vague = _sent("Hello! A quick note answering your ticket.")
    assert evaluate_criterion(criterion(["Password reset error"]), *vague, "") is False
    assert evaluate_criterion(criterion("Password reset error"), *named, "") is False


def test_the_rubric_asks_a_reply_to_name_the_ticket_the_request_states() -> None:
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.services.modeled import ACTION_LOG

    body = 'Hello! A quick note about "Login delay", answering your ticket.'
    event = {"id": "e1", "tool": "send_sms", "at": "2025-01-01T00:00:00Z",
             "to": "+12709238138", "body": body}
    start = {"sms": State(collections={ACTION_LOG: {}}), "desk": State()}
    end = {"sms": State(collections={ACTION_LOG: {"e1": event}}), "desk": State()}
    calls = [GoldCall(tool="desk__list_tickets", service="desk", effect="read",
                      arguments={"subject": "Login delay"},
                      bindings={"subject": Binding(kind="visible", type="title")},
                      result={"tickets": [{"subject": "Login delay", "phone": event["to"]}]}),
             GoldCall(tool="sms__send_sms", service="sms", effect="action",
                      arguments={"to": event["to"], "body": body},
                      bindings={"to": Binding(kind="hidden", type="phone", step=0,
                                              field="tickets[].phone", path="tickets[0].phone"),
                                "body": Binding(kind="free", type="text")},
                      result={"id": "e1"})]
    rubric = build_rubric(start, end, calls, [], {"sms": "Texts", "desk": "Desk"})
    sent = next(c for c in rubric if c.kind == "record_created")
    assert sent.params["mentions"] == ["Login delay"]
    assert "naming 'Login delay'" in sent.description, sent.description
    vague = {"sms": State(collections={ACTION_LOG: {"e1": {**event, "body": "Hi! Fixed soon."}}}),
             "desk": State()}
    assert evaluate_criterion(sent, start, end, "") is True
    assert evaluate_criterion(sent, start, vague, "") is False


def test_a_welcome_must_say_welcome_not_just_any_two_words() -> None:
    """A message the request asks to welcome someone carries a `topic`: its check passes on
    a body that says "welcome" in any of its forms, whatever else it says, and fails on
    two words that welcome nobody; the description says which words. A malformed `topic`
    fails without raising."""
    from compoworld.compose.patterns import topic_of
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.services.modeled import ACTION_LOG

    body = "Hello Ana! A quick note welcoming you aboard."
    assert topic_of(body) == ["welcome", "welcoming", "welcomed"]
    assert topic_of("Hello! A quick note that your refund is on its way.")[0] == "refund"
    assert topic_of("Hello! A quick note letting you know we are looking into it.") == []
    assert topic_of("Hi Ana, welcome aboard!")[0] == "welcome"  # said any way at all
    event = {"id": "e1", "tool": "send_sms", "at": "2025-01-01T00:00:00Z",
             "to": "+12709238138", "body": body}
    start = {"sms": State(collections={ACTION_LOG: {}})}
    end = {"sms": State(collections={ACTION_LOG: {"e1": event}})}
    calls = [GoldCall(tool="sms__send_sms", service="sms", effect="action",
                      arguments={"to": event["to"], "body": body},
                      bindings={"to": Binding(kind="visible", type="phone"),
                                "body": Binding(kind="free", type="text")},
                      result={"id": "e1"})]
    sent = next(c for c in build_rubric(start, end, calls, [], {"sms": "Texts"})
                if c.kind == "record_created")
    assert sent.params["topic"] == ["welcome", "welcoming", "welcomed"]
    said = 'saying the word "welcome" (or "welcoming", "welcomed")'
    assert said in sent.description, sent.description

    def with_body(text: str) -> dict[str, State]:
        return {"sms": State(collections={ACTION_LOG: {"e1": {**event, "body": text}}})}

    assert evaluate_criterion(sent, start, end, "") is True
    assert evaluate_criterion(sent, start, with_body("Welcome to Acme, Ana!"), "") is True
    assert evaluate_criterion(sent, start, with_body("Hi Ana, glad you're here."), "") is False
    assert evaluate_criterion(sent, start, with_body("Unwelcome news, Ana."), "") is False
    malformed = sent.model_copy(update={"params": {**sent.params, "topic": "welcome"}})
    assert evaluate_criterion(malformed, start, end, "") is False


def test_an_invitation_names_its_meeting_s_day_in_any_common_form() -> None:
    """A date a message must name passes by its day, in ISO or with the month's name, never
    by another day; a text fact still needs its text."""
    from compoworld.reward.rubric import day_forms, fact_in_text

    start = "2026-12-05T10:00:00Z"
    assert day_forms(start)[:2] == ["2026-12-05", "December 5"]
    for said in ("See you on December 5!", "on 5 Dec at 10:00", "Date: 2026-12-05.",
                 "Saturday 5 December 2026"):
        assert fact_in_text(start, said), said
    for said in ("See you on December 15.", "on 25 Dec", "2026-12-06", "soon"):
        assert not fact_in_text(start, said), said
    assert day_forms("Quarterly review") == [] and day_forms("2026-13-05") == []
    assert fact_in_text("Quarterly review", "the quarterly review on Friday")
    criterion = Criterion(id="c1", kind="record_created", service="sms", description="A note.",
                          params={"collection": "messages", "fields": {"To": "+12709238138"},
                                  "written": ["Body"], "mentions": [start]})
    assert evaluate_criterion(criterion, *_sent("Join us on December 5 at 10:00."), "")
    assert not evaluate_criterion(criterion, *_sent("Join us next week, details soon."), "")


def test_an_invitation_names_its_meeting_s_hour_in_any_common_form() -> None:
    """A clock time a message must name (`15:00`) passes as 15:00, 15h00, 3 pm, 3:00pm or
    3 p.m.; never as another hour, a bare number, a price (15.00) or the UTC hour of a
    meeting said in the guest's time (an invitation checked by its day alone passes one
    at the wrong hour)."""
    from compoworld.reward.rubric import clock_forms, clock_in_text, fact_in_text

    for said in ("at 15:00 Sao Paulo time", "at 15h00", "at 3 pm", "3:00pm", "at 3 p.m.",
                 "at 3.00 PM"):
        assert clock_in_text("15:00", said) and fact_in_text("15:00", said), said
    for said in ("at 18:00 UTC", "at 3:15 pm", "on March 15, 2025", "we charged 15.00 USD",
                 "at 3 am", "room 15", None):
        assert not clock_in_text("15:00", said), said
    assert clock_in_text("09:30", "at 9:30 am") and not clock_in_text("09:30", "at 9:30 pm")
    assert clock_forms("15:00") == ["15:00", "3 pm"] and clock_forms("00:30")[1] == "12:30 am"
    criterion = Criterion(id="c1", kind="record_created", service="sms", description="A note.",
                          params={"collection": "messages", "fields": {"To": "+12709238138"},
                                  "written": ["Body"],
                                  "mentions": ["2026-12-05T10:00:00Z", "10:00"]})
    assert evaluate_criterion(criterion, *_sent("Join us on December 5 at 10 am."), "")
    assert not evaluate_criterion(criterion, *_sent("Join us on December 5 at 11:00."), "")


def test_an_action_s_value_may_sit_in_another_parameter_of_its_kind() -> None:
    """A supplier posted through an action (its event logged with its arguments) with the
    phone in `mobile` passes in `phone` too: the tool's other parameters of that kind are
    the alternatives, as a record schema's fields are. A fax parameter is none, nor is a
    field the tool does not take."""
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.services.modeled import ACTION_LOG

    event = {"id": "e1", "tool": "suppliers_post", "at": "2025-01-01T00:00:00Z",
             "name": "Globex", "mobile": "+442079460123"}
    start = {"books": State(collections={ACTION_LOG: {}})}

    def logged(**fields: Any) -> dict[str, State]:
        return {"books": State(collections={ACTION_LOG: {"e1": {**event, **fields}}})}

    calls = [GoldCall(tool="books__suppliers_post", service="books", effect="action",
                      arguments={"name": "Globex", "mobile": event["mobile"]},
                      bindings={"name": Binding(kind="hidden", type="company", step=0,
                                                field="name", path="name"),
                                "mobile": Binding(kind="hidden", type="phone", step=0,
                                                  field="phone", path="phone")},
                      result={"id": "s1"})]
    params = {"books__suppliers_post": {"name": "company", "mobile": "phone", "phone": "phone",
                                        "fax": "phone", "notes": "text"}}
    rubric = build_rubric(start, logged(), calls, [], {"books": "Books"}, params)
    created = next(c for c in rubric if c.kind == "record_created")
    assert created.params["alternatives"] == {"mobile": ["phone"]}
    moved = logged(mobile=None, phone=event["mobile"])
    assert evaluate_criterion(created, start, moved, "") is True
    assert evaluate_criterion(created, start, logged(mobile=None), "") is False
    assert "alternatives" not in next(c for c in build_rubric(
        start, logged(), calls, [], {"books": "Books"}) if c.kind == "record_created").params


def _customer_run(**arguments: Any) -> tuple[list[Criterion], dict[str, State], Any]:
    """An OnSched-like customer created by a tool that takes both `name` and `firstname` +
    `lastname`: the rubric of the gold run, its start state, and a maker of other runs' end
    states (the customer record holding the given fields)."""
    from compoworld.compose.records import Binding, GoldCall

    schema = {"type": "object", "properties": {
        name: {"type": "string"} for name in ("id", "name", "firstname", "lastname", "email")}}

    def made(**fields: Any) -> dict[str, State]:
        return {"book": State(schemas={"customers": schema},
                              collections={"customers": {"cus_1": {"id": "cus_1", **fields}}})}

    start = {"book": State(schemas={"customers": schema})}
    record = {"email": "ana.ruiz@example.com", **arguments}
    calls = [GoldCall(tool="book__create_customer", service="book", effect="create",
                      arguments=record, result={"id": "cus_1", **record},
                      bindings={name: Binding(kind="hidden", type="person_name", step=0,
                                              field=name, path=name) for name in record})]
    params = {"book__create_customer": {"name": "person_name", "firstname": "first_name",
                                        "lastname": "last_name", "email": "email"}}
    rubric = build_rubric(start, made(**record), calls, [], {"book": "OnSched"}, params)
    return rubric, start, made


@pytest.mark.parametrize(("gold", "fields", "passes"), [
    ({"name": "Ana Ruiz"}, {"firstname": "Ana", "lastname": "Ruiz"}, True),
    ({"name": "Ana Ruiz"}, {"firstname": " ana", "lastname": "RUIZ "}, True),
    ({"name": "Ana Ruiz"}, {"name": "Ana Ruiz"}, True),
    ({"name": "Ana Ruiz"}, {"firstname": "Ana", "lastname": "Lopez"}, False),
    ({"name": "Ana Ruiz"}, {"firstname": "Ana"}, False),
    ({"name": "Ana Ruiz"}, {"name": "Ana Lopez", "firstname": "Ana", "lastname": "Ruiz"}, False),
    ({"firstname": "Ana", "lastname": "Ruiz"}, {"name": "Ana Ruiz"}, True),
    ({"firstname": "Ana", "lastname": "Ruiz"}, {"name": "ana  ruiz"}, True),
    ({"firstname": "Ana", "lastname": "Ruiz"}, {"name": "Ana Lopez"}, False),
    ({"firstname": "Ana", "lastname": "Ruiz"}, {"name": "Ana Ruiz", "lastname": "Lopez"}, False),
    ({"name": "Ana Ruiz", "firstname": "Ana", "lastname": "Ruiz"}, {"name": "Ana Ruiz"}, True),
    ({"name": "Ana Ruiz", "firstname": "Ana", "lastname": "Ruiz"},
     {"firstname": "Ana", "lastname": "Ruiz"}, True),
    ({"name": "Ana Ruiz", "firstname": "Ana", "lastname": "Ruiz"},
     {"name": "Ana Ruiz", "firstname": "Eva"}, False),
    ({"lastname": "Ruiz"}, {"name": "Ana Ruiz"}, True),
    ({"lastname": "Ruiz"}, {"name": "Ruiz Ana"}, False),
])
def test_a_person_s_name_passes_in_either_shape_the_create_tool_takes(
        gold: dict[str, str], fields: dict[str, str], passes: bool) -> None:
    """An OnSched customer is as well created with `name` 'Ana Ruiz' as with `firstname`
    'Ana' and `lastname` 'Ruiz' (the tool takes both): a check built from either shape
    passes the other, case and spacing aside; a wrong name, or a checked name field that
    says another name, still fails."""
    rubric, start, made = _customer_run(**gold)
    created = next(c for c in rubric if c.kind == "record_created")
    assert evaluate_rubric(rubric, start, made(email="ana.ruiz@example.com", **gold), "x")[
        :-1] == [True] * (len(rubric) - 1)
    assert created.noop_passes is False
    assert evaluate_criterion(created, start, made(email="ana.ruiz@example.com", **fields),
                              "") is passes
    assert evaluate_criterion(created, start, made(email="bo@example.com", **fields), "") is False


@pytest.mark.parametrize(("gold", "said"), [
    ({"name": "Ana Ruiz"},
     "with email 'ana.ruiz@example.com' and name 'Ana Ruiz' (or firstname 'Ana' and lastname "
     "'Ruiz')."),
    ({"firstname": "Ana", "lastname": "Ruiz"},
     "with email 'ana.ruiz@example.com', firstname 'Ana' and lastname 'Ruiz' (or name "
     "'Ana Ruiz')."),
    ({"name": "Ana Maria Ruiz"},
     "with email 'ana.ruiz@example.com' and name 'Ana Maria Ruiz' (or firstname and lastname "
     "together reading 'Ana Maria Ruiz')."),
    ({"lastname": "Ruiz"},
     "with email 'ana.ruiz@example.com' and lastname 'Ruiz' (or name ending in 'Ruiz')."),
])
def test_a_name_check_says_the_other_shape_it_accepts(gold: dict[str, str], said: str) -> None:
    rubric, _, _ = _customer_run(**gold)
    created = next(c for c in rubric if c.kind == "record_created")
    assert created.description == f"A customer is created in OnSched {said}"


def test_a_name_has_one_shape_where_the_create_tool_takes_one() -> None:
    """Without the create tool's parameters (or with a tool that takes no first and last
    name) the name is checked as given: the record might hold no other shape."""
    from compoworld.compose.records import GoldCall

    start = {"book": State()}
    record = {"id": "cus_1", "name": "Ana Ruiz"}
    end = {"book": State(collections={"customers": {"cus_1": record}})}
    calls = [GoldCall(tool="book__create_customer", service="book", effect="create",
                      arguments={"name": "Ana Ruiz"}, bindings={}, result=record)]
    for params in (None, {"book__create_customer": {"name": "person_name"}}):
        created = next(c for c in build_rubric(start, end, calls, [], {"book": "OnSched"},
                                               params) if c.kind == "record_created")
        assert "name_shapes" not in created.params
        split = {"book": State(collections={"customers": {"cus_1": {
            "id": "cus_1", "firstname": "Ana", "lastname": "Ruiz"}}})}
        assert evaluate_criterion(created, start, split, "") is False


def test_malformed_name_shapes_fail_without_raising() -> None:
    rubric, start, made = _customer_run(name="Ana Ruiz")
    created = next(c for c in rubric if c.kind == "record_created")
    end = made(email="ana.ruiz@example.com", name="Ana Ruiz")
    for shapes in ("name", {"full": "name", "first": "firstname", "last": "lastname"},
                   {"full": ["name"], "first": 1, "last": "lastname"}, {"full": ["name"]}):
        broken = created.model_copy(update={"params": {**created.params, "name_shapes": shapes}})
        assert evaluate_criterion(broken, start, end, "") is False


def test_a_booking_may_name_its_guest_by_their_id_in_the_people_list() -> None:
    """An agent that adds the customer to the booking app first books them by the new id:
    the booking check passes on `customerId` naming a customer with the checked email, and
    fails on an id of somebody else or no id at all."""
    guest = {"id": "cus_0009", "email": "ana@acme.test", "name": "Ana Ruiz"}
    other = {"id": "cus_0001", "email": "bo@acme.test", "name": "Bo Lind"}
    criterion = Criterion(id="c1", kind="record_created", service="book",
                          description="An appointment.", params={
                              "collection": "appointments",
                              "fields": {"email": "ana@acme.test",
                                         "start": "2025-03-10T01:00:00Z"},
                              "by_reference": {"email": {"field": "customerId",
                                                         "collection": "customers",
                                                         "key": "email"}}})
    start = {"book": State(collections={"appointments": {}, "customers": {"cus_0001": other}})}

    def booked(appointment: dict[str, Any]) -> dict[str, State]:
        return {"book": State(collections={
            "appointments": {"a1": {"id": "a1", **appointment}},
            "customers": {"cus_0001": other, "cus_0009": guest}})}

    at = {"start": "2025-03-10T01:00:00Z"}
    assert evaluate_criterion(criterion, start, booked({**at, "customerId": "cus_0009"}), "")
    assert evaluate_criterion(criterion, start, booked({**at, "email": "ana@acme.test"}), "")
    assert not evaluate_criterion(criterion, start, booked({**at, "customerId": "cus_0001"}), "")
    assert not evaluate_criterion(criterion, start, booked(at), "")
    assert not evaluate_criterion(criterion, start, booked({"customerId": "cus_0009",
                                                            "start": "2025-03-11T01:00:00Z"}), "")
    bad = criterion.model_copy(update={"params": {**criterion.params, "by_reference": {
        "email": {"field": "customerId"}}}})
    assert evaluate_criterion(bad, start, booked({**at, "customerId": "cus_0009"}), "") is False


def test_an_amount_is_found_in_the_forms_people_write_it():
    """A check wanted the literal "49 EUR": a message saying "€49" failed a faithful
    agent. An amount in a currency is found with its symbol, its code first, its cents or
    its name, and never inside another number."""
    from compoworld.reward.rubric import fact_in_text

    for said in ("Our plan is now €49 a month.", "now EUR 49.", "just 49 euros",
                 "costs 49.00 EUR", "49€ from April"):
        assert fact_in_text("49 EUR", said), said
    for said in ("costs 149 EUR", "costs €490", "we charge 49", "€4.90"):
        assert not fact_in_text("49 EUR", said), said
    assert fact_in_text("USD 12", "only $12")

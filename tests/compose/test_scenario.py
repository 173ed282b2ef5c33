"""A patterned workflow asked for as a person asks for it: the record it is about named
once, each act in its app with the record's facts, no field mapping, no steps."""

from __future__ import annotations

import random
import re

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.instruction import visible_values, write_instruction
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import AnswerItem, Binding, GoldCall, Selector, Task
from compoworld.compose.scenario import write_scenario
from compoworld.compose.situations import KNOWN, SITUATIONS
from compoworld.compose.stage import start_tools
from compoworld.compose.workflows import BY_NAME
from tests.compose.builtin_tasks import builtin_library
from tests.compose.test_goal import check_goal


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return builtin_library()


@pytest.fixture(scope="module")
def patterned(library: ServiceLibrary) -> list[Task]:
    starts = sorted(start_tools(library.graph, patterned=True))
    made = []
    for index in range(1500):
        rng = random.Random(f"s:{index}")
        task = compose_task(library, 7, rng.choice(starts), rng, f"s{index}", patterned=True)
        if isinstance(task, Task):
            made.append(task)
        if len(made) == 80:
            break
    assert len(made) >= 40
    return made


def scenario(task: Task, library: ServiceLibrary, seed: int) -> str | None:
    titles = {name: library.infos[name].title for name in task.services}
    resources = {c.tool: library.graph.nodes[c.tool].resource for c in task.gold_calls}
    return write_scenario(task.gold_calls, task.answer, titles, random.Random(seed),
                          BY_NAME[task.pattern], resources=resources)


# Words that order steps or name a procedure: a request says why and what, not how.
_PROCEDURE = re.compile(r"\b(first|then|next|once that is done|step|find the|look up|call)\b",
                        re.IGNORECASE)


def test_write_workflows_open_with_their_situation_and_ask_for_outcomes(patterned, library):
    """`We're onboarding Ana Ruiz (a customer in CRM). Please add them ... and send them
    ...`: why the user asks, the subject named once, then the outcomes, never the steps."""
    said = [(t, text) for i, t in enumerate(patterned)
            if (text := scenario(t, library, i)) is not None]
    assert len(said) >= 30
    for task, text in said:
        kind = BY_NAME[task.pattern].situation or "look"
        first = text.split(". ")[0]
        forms = [f for key, said in SITUATIONS.items() if key.split("_")[0] == kind
                 for f in said] + ([f for said in KNOWN.values() for f in said]
                                   if kind == "lead" else [])
        assert any(re.fullmatch(re.sub(r"\\\{\w+\\\}", ".+", re.escape(t.rstrip("."))),
                                first, re.IGNORECASE) for t in forms), text
        assert BY_NAME[task.pattern].purpose not in text, text  # no stock purpose line
        assert " set to " not in text, text  # no `amount set to the amount of ...`
        assert not _PROCEDURE.search(text), text
        check_goal(text, task.gold_calls, task.answer)
        for call in task.gold_calls[1:]:
            if call.effect != "read":
                assert library.infos[call.service].title in text, (call.service, text)


def test_the_subject_is_named_once_then_by_pronoun(patterned, library):
    for index, task in enumerate(patterned):
        text = scenario(task, library, index)
        if text is None:
            continue
        for value in visible_values(task.gold_calls[:1], []):
            assert text.count(str(value)) <= 1, text
        assert any(word in text for word in (" it ", " them ", " its ", " their ")), text


def test_compose_uses_the_scenario_for_goal_style(patterned, library):
    """Every composed workflow's instruction is the scenario's text: a chain of a shape the
    scenario writer does not say (a mid-chain read) is rejected, not handed to goal.py's
    writer, whose field-by-field goal no person says; `write_instruction` still gives that
    writer's goal then."""
    kinds = {"scenario": 0, "goal": 0}
    for task in patterned:
        titles = {name: library.infos[name].title for name in task.services}
        resources = {c.tool: library.graph.nodes[c.tool].resource for c in task.gold_calls}
        pattern = BY_NAME[task.pattern]
        again = write_instruction(task.gold_calls, task.answer, titles, random.Random(1),
                                  style="goal", purpose=pattern.purpose, gist=pattern.gist,
                                  resources=resources, pattern=pattern)
        own = write_scenario(task.gold_calls, task.answer, titles, random.Random(1), pattern,
                             resources=resources)
        kinds["scenario" if own is not None else "goal"] += 1
        assert own is None or again == own
        check_goal(again, task.gold_calls, task.answer)
    assert kinds["scenario"] >= 30 and kinds["goal"] == 0, kinds


def test_requests_never_say_which_field_a_fact_goes_into(patterned, library):
    """`with their name and email address`, `the same amount`: never `its mobile as the
    phone` or `amount set to ...`; the agent maps the facts onto the tool."""
    said = 0
    for index, task in enumerate(patterned):
        text = scenario(task, library, index)
        if text is None:
            continue
        said += 1
        assert " as the " not in text and " set to " not in text, text
    assert said >= 30


def payment_to_books(company: str | None) -> list[GoldCall]:
    """A payment found by its payer's email, booked in an accounting app (in the user's own
    company there, when `company`)."""
    hidden = {"totalAmount": Binding(kind="hidden", type="money", step=0,
                                     field="data[].amount", path="data[0].amount"),
              "currency": Binding(kind="hidden", type="currency", step=0,
                                  field="data[].currency", path="data[0].currency")}
    arguments: dict = {"totalAmount": 120.5, "currency": "EUR"}
    if company:
        hidden["companyId"] = Binding(kind="visible", type="books.companies.id")
        arguments["companyId"] = company
    return [
        GoldCall(tool="pay__list_payments", service="pay", effect="read",
                 arguments={"email": "ann.lee@example.org"},
                 bindings={"email": Binding(kind="visible", type="email")},
                 result={"data": [{"id": "p1", "amount": 120.5, "currency": "EUR",
                                   "email": "ann.lee@example.org"}]}),
        GoldCall(tool="books__create_payment", service="books", effect="create",
                 arguments=arguments, bindings=hidden, result={"id": "pay_9"}),
    ]


@pytest.mark.parametrize("company", [None, "cmp_0042"])
def test_a_booked_payment_is_the_same_amount_and_the_user_s_company_a_setting(company):
    titles = {"pay": "Pay", "books": "Books"}
    resources = {"pay__list_payments": "payments", "books__create_payment": "payments"}
    for seed in range(10):
        text = write_scenario(payment_to_books(company), [], titles, random.Random(seed),
                              BY_NAME["payment_ledger"], resources=resources)
        assert text is not None
        assert "the same amount and currency" in text and "120.5" not in text, text
        assert 'he payment from ann.lee@example.org in Pay' in text, text  # (T or t)
        if company:
            assert text.endswith(('For Books, our company is "cmp_0042".',
                                  'In Books we use company "cmp_0042".')), text
        else:
            assert "our company" not in text


def customer_to_crm(field: str, kind: str, value: str) -> list[GoldCall]:
    """A shop's customer Ann Lee (of Hooli) added as a CRM contact with her name and her
    `field` (of type `kind`)."""
    return [
        GoldCall(tool="shop__list_customers", service="shop", effect="read",
                 arguments={"company": "Hooli"},
                 bindings={"company": Binding(kind="visible", type="company")},
                 result={"data": [{"id": "c1", "name": "Ann Lee", field: value,
                                   "company": "Hooli"}]}),
        GoldCall(tool="crm__create_contact", service="crm", effect="create",
                 arguments={"name": "Ann Lee", field: value},
                 bindings={"name": Binding(kind="hidden", type="person_name", step=0,
                                           field="data[].name", path="data[0].name"),
                           field: Binding(kind="hidden", type=kind, step=0,
                                          field=f"data[].{field}", path=f"data[0].{field}")},
                 result={"id": "con_1"}),
    ]


def test_adding_a_person_lists_none_of_their_details():
    """"Please add them as a contact in CRM": a person's name, email and phone go with them
    unsaid, as anyone adding a contact copies them ("with their name and email address"
    reads as a dictated field list); the check still wants each one."""
    calls = customer_to_crm("email", "email", "ann.lee@example.org")
    titles = {"shop": "Shop", "crm": "CRM"}
    resources = {"shop__list_customers": "customers", "crm__create_contact": "contacts"}
    for seed in range(6):
        text = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["lead_to_contact"],
                              resources=resources)
        assert text is not None
        assert re.search(r"(add|set) them (up )?as a contact in CRM so sales can follow up "
                         r"with them\.", text), text  # (and why: it is a CRM)
        for listed in ("contact details", "email address", "their name", "CRM with"):
            assert listed not in text, text
        assert "Ann Lee" not in text and "ann.lee@example.org" not in text, text


def test_the_customer_behind_an_order_is_kept_in_another_app_and_written_to():
    """order -> customer lookup -> message: the lookup is no step but a fact of where the
    customer's number is kept ("Their phone number is in CRM, under the same email
    address"), and the message goes to `them`, the customer."""
    order = {"id": "o1", "title": "Board Game", "email": "ann.lee@example.org"}
    customer = {"id": "c1", "name": "Ann Lee", "email": "ann.lee@example.org",
                "phone": "+14155550123"}
    calls = [
        GoldCall(tool="shop__list_orders", service="shop", effect="read",
                 arguments={"title": "Board Game"},
                 bindings={"title": Binding(kind="visible", type="title")},
                 result={"data": [order]}),
        GoldCall(tool="crm__list_customers", service="crm", effect="read",
                 arguments={"email": order["email"]},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email")},
                 result={"data": [customer]}),
        GoldCall(tool="sms__send_sms", service="sms", effect="action",
                 arguments={"to": customer["phone"],
                            "body": 'Hello Ann! A quick note about "Board Game", your order.'},
                 bindings={"to": Binding(kind="hidden", type="phone", step=1,
                                         field="data[].phone", path="data[0].phone"),
                           "body": Binding(kind="free", type="text")},
                 result={"sid": "SM1"}),
    ]
    titles = {"shop": "Shop", "crm": "CRM", "sms": "Texts"}
    resources = {"shop__list_orders": "orders", "crm__list_customers": "customers",
                 "sms__send_sms": None}
    for seed in range(8):
        text = write_scenario(calls, [], titles, random.Random(seed),
                              BY_NAME["order_customer_message"], resources=resources)
        assert text is not None
        assert '"Board Game"' in text and "send them a" in text, text
        assert "about their order, mentioning \"Board Game\"" in text, text
        assert re.search(r"their phone number (is )?in CRM.{0,30}same email address", text,
                         re.IGNORECASE), text
        assert not re.search(r"\bfind the\b", text), text
        assert order["email"] not in text and customer["phone"] not in text, text


def test_a_name_and_a_fax_are_said_as_such_not_as_contact_details():
    """"Contact details" promise a name and a way to reach the person (an email or phone);
    a name and a fax number are said as what they are."""
    for text in contact_requests("fax", "phone", "+14155550129", seeds=4):
        assert "contact details" not in text and "fax number" in text, text


def contact_requests(field: str, kind: str, value: str, seeds: int = 6) -> list[str]:
    """The requests for `customer_to_crm(field, kind, value)`, one per seed."""
    calls = customer_to_crm(field, kind, value)
    resources = {"shop__list_customers": "customers", "crm__create_contact": "contacts"}
    texts = [write_scenario(calls, [], {"shop": "Shop", "crm": "CRM"}, random.Random(seed),
                            BY_NAME["lead_to_contact"], resources=resources)
             for seed in range(seeds)]
    assert None not in texts
    return texts


def test_a_copied_event_keeps_its_title_and_time():
    """An event put into another calendar keeps its title and time: the request names the
    event once and asks for the copy "at the same time under its own title"."""
    event = {"id": "e1", "title": "Annual budget review", "start_time": "2025-03-14T10:00:00Z"}
    select = Selector(field="title", value="Annual budget review")
    calls = [
        GoldCall(tool="sales__list_calendar_events", service="sales", effect="read",
                 arguments={}, bindings={},
                 result=[{"id": "e0", "title": "Kickoff", "start_time": "2025-03-10T09:00:00Z"},
                         event]),
        GoldCall(tool="book__create_appointment", service="book", effect="create",
                 arguments={"startDateTime": event["start_time"], "name": event["title"]},
                 bindings={"startDateTime": Binding(kind="hidden", type="datetime", step=0,
                                                    field="[].start_time",
                                                    path="[1].start_time", selector=select),
                           "name": Binding(kind="visible", type="title")},
                 result={"id": "app_1"}),
    ]
    resources = {"sales__list_calendar_events": "calendar_events",
                 "book__create_appointment": "appointments"}
    for seed in range(6):
        text = write_scenario(calls, [], {"sales": "Sales", "book": "Booking"},
                              random.Random(seed), BY_NAME["event_copy"], resources=resources)
        assert text is not None
        assert text.count("Annual budget review") == 1, text
        assert re.search(r"at the same time (under its own title|with the same title|under "
                         r"the same name)", text), text
        assert event["start_time"] not in text, text


def test_an_event_that_is_over_is_followed_up_not_organised():
    """"I'm organising" or "coming up" of a meeting two weeks gone contradicts the world's
    now: an event that is over opens with a follow-up."""
    from compoworld.compose.situations import situation

    pattern = BY_NAME["attendee_message"]
    for seed in range(6):
        past = situation(pattern, '"Budget review"', random.Random(seed), past=True)
        ahead = situation(pattern, '"Budget review"', random.Random(seed))
        assert past in [f.format(s='"Budget review"') for f in SITUATIONS["event_past"]]
        assert ahead in [f.format(s='"Budget review"') for f in SITUATIONS["event"]]


def test_why_a_person_is_added_follows_from_the_app():
    """The books invoice them, a booking app lets them book; an app that says nothing of
    what it is for gets no made-up reason."""
    from compoworld.compose.situations import why_add

    rng = random.Random(0)
    assert why_add("Codat Accounting", "financial", rng).startswith("so we can")
    assert "book" in why_add("OnSched Consumer", "collaboration", rng)
    assert why_add("Paylocity", "payment", rng) == "so they can pay us online"
    assert why_add("Learnifier", "education", rng) == ""
    assert "pay" in why_add("Big Red Cloud", "financial", rng, "supplier")  # (it bills us)


def test_a_meeting_booked_for_an_hour_is_said_as_one_span_and_its_day_named_once():
    """`on Monday, March 10, 2025 from 12:30 to 13:30 UTC`, not `until ... 13:30 UTC on ...
    12:30 UTC`; an invitation's check names that day once."""
    from compoworld.compose.goal import _one_span
    from compoworld.compose.references import mentioned

    assert _one_span(["until Monday, March 10, 2025 at 13:30 UTC",
                      "on Monday, March 10, 2025 at 12:30 UTC"]) == [
        "on Monday, March 10, 2025 from 12:30 to 13:30 UTC"]
    assert _one_span(["until Tuesday, March 11, 2025 at 09:00 UTC",
                      "on Monday, March 10, 2025 at 12:30 UTC"]) == [
        "on Monday, March 10, 2025 at 12:30 UTC", "until Tuesday, March 11, 2025 at 09:00 UTC"]
    booked = GoldCall(tool="cal__create_event", service="cal", effect="create",
                      arguments={"start": "2025-03-10T12:30:00Z", "end": "2025-03-10T13:30:00Z"},
                      bindings={"start": Binding(kind="visible", type="datetime"),
                                "end": Binding(kind="visible", type="datetime")}, result={})
    assert mentioned(["Could you join us on March 10, 2025 at 12:30 UTC?"], [booked]) == [
        "2025-03-10T12:30:00Z"]


def test_an_invitation_s_check_wants_the_hour_it_gives_for_the_stated_start():
    """The clock time a reference invitation gives beside the day of the start the request
    states (the guest's local time) is one more fact its check names; a day the chain only
    read, or a text with no hour, adds none."""
    from compoworld.compose.references import clocks_said

    booked = GoldCall(tool="cal__create_event", service="cal", effect="create",
                      arguments={"start": "2025-03-10T12:30:00Z"},
                      bindings={"start": Binding(kind="visible", type="datetime")}, result={})
    start = ["2025-03-10T12:30:00Z"]
    assert clocks_said(start, ["Join us on March 10, 2025 at 13:30 Paris time."],
                       [booked]) == ["13:30"]
    assert clocks_said(start, ["Join us on March 10 at 12:30 UTC."], [booked]) == ["12:30"]
    assert clocks_said(start, ["Join us on March 10."], [booked]) == []
    read = GoldCall(tool="cal__list_events", service="cal", effect="read", arguments={},
                    bindings={}, result={})
    assert clocks_said(start, ["Join us on March 10, 2025 at 13:30 Paris time."],
                       [read]) == []


def test_a_company_added_elsewhere_keeps_its_name_unsaid():
    """A company copied into the books under the name the request named it by: "add it as
    a supplier", never "under its own title" (said of an event's copy)."""
    select = Selector(field="name", value="Hooli")
    calls = [
        GoldCall(tool="shop__list_partners", service="shop", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "p1", "name": "Hooli",
                                                "phone": "+14155550123"},
                                               {"id": "p2", "name": "Acme",
                                                "phone": "+14155550999"}]}),
        GoldCall(tool="books__create_supplier", service="books", effect="create",
                 arguments={"name": "Hooli", "phone": "+14155550123"},
                 bindings={"name": Binding(kind="visible", type="company"),
                           "phone": Binding(kind="hidden", type="phone", step=0,
                                            field="data[].phone", path="data[0].phone",
                                            selector=select)},
                 result={"id": "sup_1"}),
    ]
    resources = {"shop__list_partners": "partners", "books__create_supplier": "suppliers"}
    for seed in range(6):
        text = write_scenario(calls, [], {"shop": "Shop", "books": "Books"},
                              random.Random(seed), BY_NAME["company_account"],
                              resources=resources)
        assert text is not None
        assert "own title" not in text and "Hooli" in text, text


def test_a_phone_carried_into_a_new_contact_is_asked_for():
    """Name and email go with a person unsaid, a phone does not: a check that wants a phone
    the request never mentioned fails an agent that did what was asked."""
    for text in contact_requests("phone", "phone", "+14155550123"):
        assert "with their phone number" in text and "their name" not in text, text


def test_a_customer_we_have_already_is_not_onboarded():
    """A shop's customer added to the CRM is no one new: the request says what the CRM is
    for them ("Sales would like to stay in touch with ..."), never "onboarding" or "new
    with us" (no customer since 2024 "onboarded"), and the
    message a lead workflow sends them says they are set up, not welcome aboard."""
    from compoworld.compose.situations import SET_UP, gist_for, situation

    for text in contact_requests("email", "email", "ann.lee@example.org"):
        first = text.split(". ")[0] + "."
        assert any(re.fullmatch(re.escape(f).replace(r"\{s\}", ".+"), first)
                   for f in KNOWN["crm"]), text
        assert "onboard" not in text and "new with us" not in text, text
    welcome = BY_NAME["lead_to_contact_welcome"]
    for into in ("booking", "crm", "shop", "payments", "books", ""):  # by email too: lower
        for seed in range(6):  # case, so no form may begin with it
            said = situation(welcome, "ann@x.org", random.Random(seed), into=into,
                             known_customer=True)
            assert "onboard" not in said and not said.startswith("ann@"), said
    assert gist_for(welcome, "customer") == SET_UP
    assert gist_for(welcome, "person") == welcome.gist == "welcoming them aboard"
    assert gist_for(BY_NAME["ticket_reply"], "customer") == BY_NAME["ticket_reply"].gist


def test_whoever_placed_a_named_order_is_reached_by_name():
    """"the customer behind Amara Singh's order" is Amara Singh, named so."""
    from compoworld.compose.situations import situation

    for seed in range(4):
        said = situation(BY_NAME["order_customer"], "Amara Singh's order in ecwid",
                         random.Random(seed))
        assert said in ("I need to reach Amara Singh about their order in ecwid.",
                        "I'd like to get in touch with Amara Singh about their order in "
                        "ecwid."), said


def test_an_order_known_by_its_customer_s_email_is_news_we_send_them():
    """No "A customer wants news of the order from sofia.f@... in ecwid", no enquiry that
    came in by email answered by a text. The order is
    the one they placed, and the update ours to send."""
    from compoworld.compose.situations import situation

    saids = {situation(BY_NAME["order_followup"], "the order from ana@x.io in ecwid",
                       random.Random(seed)) for seed in range(12)}
    assert len(saids) >= 2
    for said in saids:
        assert "ana@x.io" in said and "order" in said and "ecwid" in said, said
        assert not said.startswith("ana") and "order from" not in said, said
        assert not re.search(r"\basked\b|message came in|got a message", said), said
    assert "news of Ana Ruiz's order" in " ".join(
        situation(BY_NAME["order_followup"], "Ana Ruiz's order", random.Random(s))
        for s in range(12))


def test_a_product_put_into_the_books_is_invoiced_not_sold_in_a_store():
    from compoworld.compose.situations import situation

    for seed in range(4):
        books = situation(BY_NAME["product_listing"], '"Desk"', random.Random(seed),
                          into="books")
        shop = situation(BY_NAME["product_listing"], '"Desk"', random.Random(seed),
                         into="shop")
        assert books in [f.format(s='"Desk"') for f in SITUATIONS["product_books"]]
        assert shop in [f.format(s='"Desk"') for f in SITUATIONS["product"]]


def person_to_shop(name: str) -> list[GoldCall]:
    """CRM's person `name` added to a shop as a customer with their email."""
    email = "ann.lee@example.org"
    return [
        GoldCall(tool="crm__list_people", service="crm", effect="read", arguments={},
                 bindings={},
                 result={"data": [{"id": "p1", "name": name, "email": email},
                                  {"id": "p2", "name": "Bo Chen", "email": "bo@example.org"}]}),
        GoldCall(tool="shop__create_customer", service="shop", effect="create",
                 arguments={"email": email},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email",
                                            selector=Selector(field="name", value=name))},
                 result={"id": "c9"}),
    ]


def test_a_person_is_named_as_a_colleague_would_not_labelled():
    """`our CRM contact Ann Lee`, or `Ann Lee` and a sentence of where we keep them: never
    the `Ann Lee (a person in CRM)` label, which reads as a template's."""
    resources = {"crm__list_people": "people", "shop__create_customer": "customers"}
    forms = set()
    for seed in range(12):
        text = write_scenario(person_to_shop("Ann Lee"), [], {"crm": "CRM", "shop": "Shop"},
                              random.Random(seed), BY_NAME["lead_to_contact"],
                              resources=resources)
        assert text is not None and text.count("Ann Lee") == 1, text
        assert not re.search(r"\(an? [\w ]+ in ", text), text
        if "our CRM contact Ann Lee" in text.replace("Our CRM", "our CRM"):
            forms.add("ours")
        else:
            assert re.search(r"(You'll find them in CRM|They're in CRM as a contact|Their "
                             r"details are in CRM)\.", text), text
            forms.add("where")
    assert forms == {"ours", "where"}


def test_a_customer_is_not_copied_from_one_set_of_books_into_another():
    """Big Red Cloud's customer added to Codat "so we can invoice them" is invoiced by the
    first books already: a lead workflow between two accounting apps makes no task."""
    from types import SimpleNamespace

    from compoworld.compose.guards import GUARDS

    def _between_books(library: object, workflow: object, calls: list[GoldCall]) -> bool:
        return "books_to_books" in workflow.guards \
            and GUARDS["books_to_books"].test(library, calls)

    infos = {"brc": SimpleNamespace(app="Big Red Cloud", domain="financial"),
             "codat": SimpleNamespace(app="Codat Accounting", domain="financial"),
             "onsched": SimpleNamespace(app="OnSched Consumer", domain="collaboration"),
             "billbee": SimpleNamespace(app="Billbee", domain="ecommerce")}
    library = SimpleNamespace(infos=infos)
    lead = BY_NAME["lead_to_contact_welcome"]

    def chain(*services: str) -> list[GoldCall]:
        return [GoldCall(tool=f"{s}__t", service=s, effect="read" if i == 0 else "create",
                         arguments={}, bindings={}, result={})
                for i, s in enumerate(services)]

    assert _between_books(library, lead, chain("brc", "codat"))
    assert not _between_books(library, lead, chain("brc", "onsched"))
    assert _between_books(library, BY_NAME["company_account"], chain("brc", "codat"))
    assert not _between_books(library, BY_NAME["event_copy"], chain("brc", "codat"))
    # ... nor set up in a shop, whose customers sign up as they order ("their customer
    # account for orders is ready" in Billbee reads as made up)
    assert _between_books(library, lead, chain("onsched", "billbee"))
    assert not _between_books(library, lead, chain("billbee", "onsched"))


def test_a_person_kept_where_the_act_happens_is_not_placed_twice():
    """"Their details are in OnSched Consumer. Please book ... in OnSched Consumer" says the
    app twice: a subject kept in the app of the first act is `our customer`."""
    calls = person_to_shop("Ann Lee")
    calls[1] = calls[1].model_copy(update={"service": "crm", "tool": "crm__create_customer"})
    resources = {"crm__list_people": "people", "crm__create_customer": "customers"}
    for seed in range(8):
        text = write_scenario(calls, [], {"crm": "CRM"}, random.Random(seed),
                              BY_NAME["lead_to_contact"], resources=resources)
        assert text is not None and "our contact Ann Lee" in text.replace("Our", "our"), text
        assert text.count("CRM") == 1, text


def texted_ann(account: Binding, sid: str, *between: GoldCall) -> list[GoldCall]:
    """A shop's customer Ann Lee texted a welcome from our number +447700900999 in account
    `sid` (bound by `account`), with the reads `between` the two."""
    return [
        GoldCall(tool="shop__list_customers", service="shop", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "c1", "name": "Ann Lee",
                                                "phone": "+447700900123"}]}),
        *between,
        GoldCall(tool="sms__create_message", service="sms", effect="create",
                 arguments={"To": "+447700900123", "From": "+447700900999",
                            "AccountSid": sid, "Body": "Welcome aboard, Ann!"},
                 bindings={"To": Binding(kind="hidden", type="phone", step=0,
                                         field="data[].phone", path="data[0].phone",
                                         selector=Selector(field="name", value="Ann Lee")),
                           "From": Binding(kind="visible", type="phone"),
                           "AccountSid": account,
                           "Body": Binding(kind="free", type="text")},
                 result={"sid": "SM1"}),
    ]


def asked_to_text(calls: list[GoldCall], app: str, seeds: int) -> list[str]:
    """The lead-welcome requests of `texted_ann`'s `calls` in seeds 0 to `seeds` - 1, the
    texting app titled `app`: each one asks for a text."""
    titles = {"shop": "Shop", "sms": app}
    resources = {"shop__list_customers": "customers", "sms__create_message": "messages"}
    texts = []
    for seed in range(seeds):
        text = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["lead_welcome"],
                              resources=resources)
        assert text is not None
        assert re.search(r"\b(text them|send them a text|drop them a text)\b", text), text
        texts.append(text)
    return texts


def test_a_text_is_asked_for_as_a_text_and_its_app_named_with_our_number():
    """"text them ... We text from our Twilio number "+44..." on the "AC..." account": the app is
    named once, where the number is ("send them a message via Twilio ... For Twilio, our
    account is ... and our number is ..." reads as a form's settings)."""
    calls = texted_ann(Binding(kind="visible", type="sms.accounts.id"), "AC42")
    for text in asked_to_text(calls, "Twilio", 12):
        assert text.count("Twilio") == 1 and "via Twilio" not in text, text
        assert re.search(r'(We text from|Texts go out from|Our) (our )?Twilio number '
                         r'(is )?"\+447700900999" on the "AC42" account\.$', text), text


def test_a_text_sent_under_our_name_says_the_name_once_as_ours():
    """Telstra's `from` is the name a text is sent under: drawn as "Annual From" and said as
    "send them a message in Telstra Messaging with sender "Annual From"", it read as made
    up. A sender name is our company's, said once as where our texts go out from."""
    from compoworld.compose.references import is_sender_name
    from compoworld.world.seeding import draw_pool, our_sender_name

    assert is_sender_name("from", "string") and is_sender_name("sender", "string")
    assert not is_sender_name("from", "phone") and not is_sender_name("from_date", "string")
    company = draw_pool(7).us.name
    name = our_sender_name(7, text=True)  # (an SMS sender ID: whole words, 11 at most)
    assert name.isalnum() and len(name) <= 11 and company.replace(" ", "").startswith(name)
    assert our_sender_name(7) == company  # (an email's from-name is the company's)
    calls = texted_ann(Binding(kind="visible", type="sms.accounts.id"), "AC42")
    calls[-1].arguments["From"] = name
    calls[-1].bindings["From"] = Binding(kind="visible", type="string")
    for text in asked_to_text(calls, "Telstra", 8):
        assert text.count(f'"{name}"') == 1 and "with sender" not in text, text
        assert re.search(rf'(texts go out through Telstra under the name|We send our texts '
                         rf'through Telstra as) "{name}"', text), text
        assert '"AC42"' in text, text  # (the account it goes out on, said beside it)
    email = welcome_calls()  # (an email under our name is said as our emails', not texts)
    email[-1].arguments["from.name"] = company
    email[-1].bindings["from.name"] = Binding(kind="visible", type="title")
    text = write_scenario(email, [], {"jira": "Jira Cloud", "mail": "Mailer"},
                          random.Random(1), BY_NAME["colleague_welcome"],
                          resources={"jira__list_users": "users", "mail__send_email": "emails"})
    assert text is not None and "texts" not in text and re.search(
        rf'(emails go out through Mailer under the name|our emails through Mailer as) '
        rf'"{company}"', text), text


def test_a_meeting_in_the_only_app_that_books_them_names_no_app():
    """"Please book them in on Monday ...": where one app of the task books meetings the
    request does not name it (each act naming its app reads as a form); where another
    could, it does."""
    calls = [
        GoldCall(tool="crm__list_contacts", service="crm", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "c1", "name": "Ann Lee",
                                                "email": "ann.lee@example.org"}]}),
        GoldCall(tool="book__create_appointment", service="book", effect="create",
                 arguments={"email": "ann.lee@example.org", "start": "2025-03-10T12:30:00Z",
                            "end": "2025-03-10T13:30:00Z"},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email",
                                            selector=Selector(field="name", value="Ann Lee")),
                           "start": Binding(kind="visible", type="datetime"),
                           "end": Binding(kind="visible", type="datetime")},
                 result={"id": "a1"}),
    ]
    titles = {"crm": "CRM", "book": "Booker"}
    resources = {"crm__list_contacts": "contacts", "book__create_appointment": "appointments"}
    for seed in range(8):
        alone = write_scenario(calls, [], titles, random.Random(seed),
                               BY_NAME["meeting_invite"], resources=resources,
                               sole=frozenset({"book__create_appointment"}))
        shared = write_scenario(calls, [], titles, random.Random(seed),
                                BY_NAME["meeting_invite"], resources=resources)
        assert alone is not None and shared is not None
        assert "Booker" not in alone and "March 10, 2025" in alone, alone
        assert "in Booker" in shared, shared


def welcome_calls() -> list[GoldCall]:
    """A colleague read in a tracker, then a message to their email through a mail app."""
    return [
        GoldCall(tool="jira__list_users", service="jira", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "u1", "displayName": "Rosa Okafor",
                                                "emailAddress": "rosa.okafor@ourco.com"}]}),
        GoldCall(tool="mail__send_email", service="mail", effect="create",
                 arguments={"to": "rosa.okafor@ourco.com", "body": "Welcome aboard, Rosa!"},
                 bindings={"to": Binding(kind="hidden", type="email", step=0,
                                         field="data[].emailAddress",
                                         path="data[0].emailAddress",
                                         selector=Selector(field="displayName",
                                                           value="Rosa Okafor")),
                           "body": Binding(kind="free", type="text")},
                 result={"id": "m1"}),
    ]


def test_a_request_leaves_the_agent_to_find_a_person_and_the_app_that_sends(monkeypatch):
    """"Rosa Okafor starts with us today. They're in Jira Cloud as a user. Please send them a
    message via Google Workspace welcoming them": every app named reads as the plan
    dictated (blind reviewers rated such goals 3 of 5). A person the task's apps hold in one
    app only goes without where they are kept, and a message sent through the only app of
    the task that sends goes without its app; where either could be two, it is said."""
    import compoworld.compose.scenario as scenario

    monkeypatch.setattr(scenario, "FIND_UNSAID", 1.0)
    calls, titles = welcome_calls(), {"jira": "Jira Cloud", "mail": "Mailer"}
    resources = {"jira__list_users": "users", "mail__send_email": "emails"}
    for seed in range(8):
        plain = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["colleague_welcome"],
                               resources=resources, sole=frozenset({"mail__send_email"}),
                               findable=True)
        told = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["colleague_welcome"],
                              resources=resources)
        assert plain is not None and told is not None
        assert "Rosa Okafor" in plain and "Jira" not in plain and "Mailer" not in plain, plain
        assert "Jira Cloud" in told and "Mailer" in told, told
        # said by what it sends, whatever the app calls its records: "drop them a message"
        # (Google Workspace's `messages`) left a team chat's direct message open, which
        # the check, wanting the email, failed
        mailed = write_scenario(calls, [], titles, random.Random(seed),
                                BY_NAME["colleague_welcome"], findable=True,
                                resources=resources | {"mail__send_email": "messages"},
                                sole=frozenset({"mail__send_email"}))
        assert mailed is not None and "email" in mailed and "a message" not in mailed, mailed


def test_a_message_goes_unnamed_only_through_the_one_app_that_reaches_its_address():
    """Where one app of the task's (services and distractors) sends to an email address, an
    email through it goes without its name; a tracker that only comments on issues sends
    nobody an email and does not count, another mail app does."""
    from compoworld.compose.build import _sole_makers
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    def tool(service: str, name: str, params: dict[str, str]) -> ToolNode:
        return ToolNode(name=f"{service}__{name}", service=service, effect="create",
                        implementation="compiled", resource="messages" if "send" in name
                        else "comments", params=params, required=(), outputs={})

    class Library:  # (the two lookups of ServiceLibrary the rule uses, over a small graph)
        makers, senders = ServiceLibrary.makers, ServiceLibrary.senders

        def __init__(self, *tools: ToolNode) -> None:
            self.graph, self._makers = DependencyGraph.build(list(tools)), {}

    mail = tool("mail", "send_email", {"to": "email", "from": "email", "body": "text"})
    jira = tool("jira", "add_comment", {"issue": "jira.issues.id", "body": "text"})
    other = tool("post", "send_email", {"To": "email", "body": "text"})
    call = welcome_calls()[1]
    assert _sole_makers(Library(mail, jira), [call], ["jira", "mail"]) == {"mail__send_email"}
    assert _sole_makers(Library(mail, jira, other), [call], ["jira", "mail", "post"]) == set()


def test_a_person_is_findable_only_where_one_app_of_the_task_holds_them():
    """A name a distractor holds too would leave the agent two people to pick from: then the
    request says where the person is kept."""
    from compoworld.compose.build import _findable
    from compoworld.world.state import State

    class World:
        def __init__(self, states: dict[str, State]) -> None:
            self.held = states

        def states(self, names):
            return {n: self.held[n] for n in names}, {n: self.held[n] for n in names}

    def state(*names: str) -> State:
        return State.load({"collections": {"users": {
            f"u{i}": {"id": f"u{i}", "name": name} for i, name in enumerate(names)}}})

    calls = welcome_calls()
    alone = World({"jira": state("Rosa Okafor"), "mail": state(), "crm": state("Ann Lee")})
    assert _findable(alone, calls, ["jira", "mail", "crm"])
    twice = World({"jira": state("Rosa Okafor"), "mail": state(), "crm": state("Rosa Okafor")})
    assert not _findable(twice, calls, ["jira", "mail", "crm"])


def test_a_copy_into_a_booking_app_blocks_its_slot_and_a_new_colleague_is_inducted():
    """No "I keep two calendars" said of a customer-booking app, no new colleague booked
    "an appointment" in it."""
    from compoworld.compose.situations import situation

    copy = BY_NAME["event_copy"]
    for seed in range(6):
        said = situation(copy, 'the "Budget review" event in CRM', random.Random(seed),
                         into="booking")
        assert "booking system" in said or "book the slot" in said, said
        assert "two calendars" not in said, said
        other = situation(copy, "The event", random.Random(seed), into="crm")
        assert other in [f.format(s="The event") for f in SITUATIONS["copy"]], other
    calls = [
        GoldCall(tool="crm__list_people", service="crm", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "p1", "name": "Ann Lee",
                                                "email": "ann.lee@example.org"}]}),
        GoldCall(tool="lms__create_user", service="lms", effect="create",
                 arguments={"email": "ann.lee@example.org"},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email",
                                            selector=Selector(field="name", value="Ann Lee"))},
                 result={"id": "u1"}),
        GoldCall(tool="book__create_appointment", service="book", effect="create",
                 arguments={"email": "ann.lee@example.org", "start": "2025-03-10T12:30:00Z",
                            "end": "2025-03-10T13:30:00Z"},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email"),
                           "start": Binding(kind="visible", type="datetime"),
                           "end": Binding(kind="visible", type="datetime")},
                 result={"id": "a1"}),
    ]
    titles = {"crm": "CRM", "lms": "Academy", "book": "Booker"}
    resources = {"crm__list_people": "people", "lms__create_user": "users",
                 "book__create_appointment": "appointments"}
    for seed in range(6):
        text = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["new_hire"],
                              resources=resources)
        assert text is not None and re.search(r"onboarding session|induction session",
                                              text), text


def test_a_customer_we_have_is_told_what_the_new_app_changes_for_them():
    """"You're all set up" of a record in our books tells a customer nothing;
    they are told their invoices come from us, that they can book online, pay us, order."""
    from compoworld.compose.notes import reference_note
    from compoworld.compose.patterns import topic_of
    from compoworld.compose.situations import SET_UP, gist_for

    lead = BY_NAME["lead_to_contact_welcome"]
    assert gist_for(lead, "customers", "books") == \
        "letting them know their invoices will come from us directly"
    assert gist_for(lead, "customers", "booking") == \
        "letting them know they can now book with us online"
    assert gist_for(lead, "customers", "") == SET_UP  # (the app not known yet)
    assert gist_for(lead, "leads", "books") == lead.gist  # (a new lead is welcomed)
    for kind, word in (("books", "invoice"), ("booking", "book"), ("shop", "order"),
                       ("payments", "payment")):
        for seed in range(4):
            note = reference_note(gist_for(lead, "customers", kind), {}, "x",
                                  random.Random(seed), name="Ana")
            assert word in topic_of(note), (kind, note)


def test_our_account_looked_up_is_named_by_its_name():
    """`(account "Support")`, never its id: the agent finds the id (real users
    don't recite account IDs)."""
    account = Binding(kind="hidden", type="sms.accounts.id", step=1, field="accounts[].sid",
                      path="accounts[0].sid",
                      selector=Selector(field="friendly_name", value="Support"))
    calls = texted_ann(account, "AC4", GoldCall(
        tool="sms__list_account", service="sms", effect="read", arguments={}, bindings={},
        result={"accounts": [{"sid": "AC4", "friendly_name": "Support"}]}))
    titles = {"shop": "Shop", "sms": "Twilio"}
    resources = {"shop__list_customers": "customers", "sms__list_account": "accounts",
                 "sms__create_message": "messages"}
    for seed in range(6):
        text = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["lead_welcome"],
                              resources=resources)
        assert text is not None and "AC4" not in text, text
        assert text.endswith('"+447700900999" on the "Support" account.'), text
    named = Binding(kind="hidden", type="sms.accounts.id", step=1, field="accounts[].sid",
                    path="accounts[0].sid",
                    selector=Selector(field="friendly_name", value="Support Account"))
    calls = texted_ann(named, "AC4", GoldCall(
        tool="sms__list_account", service="sms", effect="read", arguments={}, bindings={},
        result={"accounts": [{"sid": "AC4", "friendly_name": "Support Account"}]}))
    text = write_scenario(calls, [], titles, random.Random(0), BY_NAME["lead_welcome"],
                          resources=resources)
    assert text is not None and text.endswith('"+447700900999" on our "Support Account".'), text


def test_a_receipt_says_what_was_paid() -> None:
    """A receipt names the amount of the invoice or payment it is for, with its currency
    where the record has one ("Here is your receipt." with no amount is hollow); its
    check then wants that amount. Net, tax and fee amounts are no total, and a
    whole number (GOV.UK Pay's pence) is no amount to say as it stands."""
    from compoworld.compose.notes import reference_note
    from compoworld.compose.references import paid_amount

    invoice = {"Title": "June office supplies", "TotalGross": 306.1, "TotalNet": 257.2,
               "Currency": "USD", "VatAmount": 12.5}
    assert paid_amount(invoice) == ("306.10", "306.10 USD")
    assert paid_amount({"amount": 19.5, "tax": 2.5}) == ("19.50", "19.50")
    assert paid_amount({"amount": 55926, "fee": 1678.0}) == ("", "")
    assert paid_amount({"net_amount": 20.0}) == ("", "")
    assert paid_amount({"TotalGross": 716.24, "TotalNet": 859.47}) == ("", "")  # (a net
    # above its gross is no amount to vouch for)
    assert paid_amount({"total": 999.78, "currency": "JPY"}) == ("", "")  # (no yen cents)
    assert paid_amount({"total": 1200.0, "currency": "jpy"}) == ("1200.00", "1200.00 JPY")
    for seed in range(6):
        text = reference_note("with their receipt", {"type": "string"}, "x",
                              random.Random(seed), name="Ana", amount="306.10 USD")
        assert "306.10 USD" in text and "receipt" in text, text
    plain = reference_note("with their receipt", {"type": "string"}, "x", random.Random(1),
                           name="Ana")
    assert "{amount}" not in plain and "receipt" in plain


def test_an_email_has_a_subject_line_of_its_own() -> None:
    """An email names what it is about in its subject (a Postmark email
    with none reads as spam): by the workflow's gist, with the meeting's or the subject's name where
    there is one, two words at least."""
    from compoworld.compose.notes import _SUBJECTS, reference_subject

    string = {"type": "string"}
    assert reference_subject("with their receipt", string, "x") == "Your receipt"
    assert reference_subject("inviting them to the meeting", string, "x",
                             meeting="Quarterly review") == "Meeting invitation: Quarterly review"
    assert reference_subject("letting them know they can now pay us online", string, "x") \
        == "You're all set"
    assert reference_subject("with their receipt", {"type": "string", "enum": ["a"]}, "a") == "a"
    assert all(len(line.split()) >= 2 for line in _SUBJECTS.values())


def test_an_invitation_is_checked_for_inviting() -> None:
    """An invitation's check wants it to invite, not only to name the day:
    every way the reference invites says a form of "invite" or "join"."""
    from compoworld.compose.notes import _SAYINGS
    from compoworld.compose.patterns import topic_of

    for saying in _SAYINGS["inviting them to the meeting"]:
        text = saying.format(meeting="the meeting", when="March 17, 2025 at 09:00 UTC")
        assert "invite" in topic_of(text), text
        # ... or says it as news: "we've booked a call for you"
        assert {"booked", "scheduled"} <= set(topic_of(text)), text
    assert "scheduled" not in topic_of("Your order is now scheduled for delivery.")


def test_a_meeting_says_what_it_is_for_and_its_time_where_the_guest_is():
    """Not one "meet X to talk about what we can do for them" template for most tasks,
    nor customers in Japan invited "at 14:00 UTC": a
    meeting is booked for a purpose (by where we know the person from), and its time is
    said as theirs (UTC beside it would do the agent's conversion)."""
    from compoworld.compose.naming import stated
    from compoworld.compose.situations import MEETINGS, meeting_purpose
    from compoworld.world.words import make_place

    calls = [
        GoldCall(tool="crm__list_contacts", service="crm", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "c1", "name": "Ann Lee",
                                                "email": "ann.lee@example.org"}]}),
        GoldCall(tool="book__create_appointment", service="book", effect="create",
                 arguments={"email": "ann.lee@example.org", "start": "2025-03-10T01:00:00Z",
                            "end": "2025-03-10T02:00:00Z", "notes": "Intro call"},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email",
                                            selector=Selector(field="name", value="Ann Lee")),
                           "start": Binding(kind="visible", type="datetime"),
                           "end": Binding(kind="visible", type="datetime"),
                           "notes": Binding(kind="aside", type="text")},
                 result={"id": "a1"}),
    ]
    titles = {"crm": "CRM", "book": "Booker"}
    resources = {"crm__list_contacts": "contacts", "book__create_appointment": "appointments"}
    tokyo = make_place(random.Random(0), ("Tokyo", "JP", 35.68, 139.69, "Asia/Tokyo"))
    purpose = MEETINGS["crm"][0]
    for seed in range(8):
        text = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["meeting_invite"],
                              resources=resources, sole=frozenset({"book__create_appointment"}),
                              meeting=purpose, local=tokyo)
        assert text is not None
        assert any(why.format(s="Ann Lee") in text for why in purpose.why), text
        assert re.search(r"(book|set up) an intro call with them", text), text
        assert "on Monday, March 10, 2025 from 10:00 to 11:00 Tokyo time" in text, text
        assert "UTC" not in text and "01:00" not in text, text  # (the agent converts)
        assert all(stated(v, text) for v in ("2025-03-10T01:00:00Z", "2025-03-10T02:00:00Z"))
        assert "Intro call" not in text and "what we can do for them" not in text, text
        plain = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["meeting_invite"],
                               resources=resources, sole=frozenset({"book__create_appointment"}))
        assert plain is not None and "Tokyo" not in plain and "intro call" not in plain
    kinds = {meeting_purpose(kind, random.Random(seed)).title
             for kind in ("crm", "books", "shop") for seed in range(10)}
    assert {"Intro call", "Account review", "Bulk order call"} <= kinds
    assert meeting_purpose("no such kind", random.Random(1)) in MEETINGS[""]


def test_a_unified_api_is_named_as_the_system_it_connects():
    """Not "Our Apideck CRM lead", "They're in Apideck Accounting": the request says
    "our CRM", and never "our our CRM" or "our online store customer"."""
    from compoworld.compose.naming import app_name

    assert app_name("apideck_com_crm", "CRM API") == "our CRM"
    assert app_name("squareup_com", "Square Connect API") == "Square"
    calls = texted_ann(Binding(kind="visible", type="sms.accounts.id"), "AC42")
    titles = {"shop": "our online store", "sms": "Twilio"}
    resources = {"shop__list_customers": "customers", "sms__create_message": "messages"}
    for seed in range(16):
        text = write_scenario(calls, [], titles, random.Random(seed), BY_NAME["lead_welcome"],
                              resources=resources)
        assert text is not None and "our online store" in text.replace("Our", "our"), text
        assert "our our" not in text.lower() and "online store customer" not in text, text


def test_an_invitation_is_asked_for_without_spelling_out_its_day():
    """No "saying which day it is", which spells out what the check looks for; an
    invitation names its meeting's day anyway, and its check still wants the day."""
    ann = Selector(field="name", value="Ann Lee")
    calls = [
        GoldCall(tool="crm__list_contacts", service="crm", effect="read", arguments={},
                 bindings={}, result={"data": [{"id": "c1", "name": "Ann Lee",
                                                "email": "ann.lee@example.org"}]}),
        GoldCall(tool="book__create_appointment", service="book", effect="create",
                 arguments={"email": "ann.lee@example.org", "start": "2025-03-10T12:30:00Z",
                            "end": "2025-03-10T13:30:00Z"},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email",
                                            selector=ann),
                           "start": Binding(kind="visible", type="datetime"),
                           "end": Binding(kind="visible", type="datetime")},
                 result={"id": "a1"}),
        GoldCall(tool="mail__send_email", service="mail", effect="create",
                 arguments={"To": "ann.lee@example.org", "From": "hello@ours.example",
                            "Body": "Hi Ann, you're invited to the meeting on March 10, 2025 "
                                    "at 12:30 UTC."},
                 bindings={"To": Binding(kind="hidden", type="email", step=0,
                                         field="data[].email", path="data[0].email",
                                         selector=ann),
                           "From": Binding(kind="visible", type="email"),
                           "Body": Binding(kind="free", type="text")},
                 result={"id": "m1"}),
    ]
    titles = {"crm": "CRM", "book": "Booker", "mail": "Postmark"}
    resources = {"crm__list_contacts": "contacts", "book__create_appointment": "appointments",
                 "mail__send_email": "emails"}
    for seed in range(8):
        text = write_scenario(calls, [], titles, random.Random(seed),
                              BY_NAME["contact_meeting_message"], resources=resources)
        assert text is not None and re.search(r"invit", text), text
        assert not any(said in text for said in ("which day", "its date", "with the date")), \
            text


def test_a_meeting_s_unnamed_person_is_its_attendee_never_its_contact():
    """"Ivan Silva's appointment is coming up. Please drop its contact a text": a booking's
    plain `email` or `phone` is its attendee's, and a request says so."""
    appointment = {"id": "app_1", "name": "Ivan Silva", "email": "ivan.silva@acme.com",
                   "startDateTime": "2025-03-12T09:00:00Z"}
    calls = [
        GoldCall(tool="book__list_appointments", service="book", effect="read", arguments={},
                 bindings={}, result={"data": [appointment]}),
        GoldCall(tool="mail__send_email", service="mail", effect="create",
                 arguments={"to": "ivan.silva@acme.com", "body": "A reminder of Ivan's visit."},
                 bindings={"to": Binding(kind="hidden", type="email", step=0,
                                         field="data[].email", path="data[0].email",
                                         selector=Selector(field="name", value="Ivan Silva")),
                           "body": Binding(kind="free", type="text")},
                 result={"id": "m1"}),
    ]
    resources = {"book__list_appointments": "appointments", "mail__send_email": "emails"}
    said = [write_scenario(calls, [], {"book": "Booking", "mail": "Mailer"},
                           random.Random(seed), BY_NAME["event_reminder"],
                           resources=resources) for seed in range(6)]
    assert all(text and "the attendee" in text for text in said), said
    assert not any("its contact" in text for text in said if text), said


def test_the_person_of_a_record_is_added_as_them_not_it():
    """The client of an invoice set up as a customer: "add them as a customer", never "set
    it up as a customer" (the invoice's pronoun, said of a person)."""
    select = Selector(field="title", value="Roadmap workshop")
    calls = [
        GoldCall(tool="books__list_invoices", service="books", effect="read", arguments={},
                 bindings={}, result={"data": [
                     {"id": "i1", "title": "Roadmap workshop", "client_email": "ann@lee.org",
                      "client_name": "Ann Lee"},
                     {"id": "i2", "title": "Budget review", "client_email": "bo@kim.org",
                      "client_name": "Bo Kim"}]}),
        GoldCall(tool="pay__create_customer", service="pay", effect="create",
                 arguments={"email": "ann@lee.org", "name": "Ann Lee"},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].client_email",
                                            path="data[0].client_email", selector=select),
                           "name": Binding(kind="hidden", type="person_name", step=0,
                                           field="data[].client_name",
                                           path="data[0].client_name", selector=select)},
                 result={"id": "cus_1"}),
    ]
    resources = {"books__list_invoices": "invoices", "pay__create_customer": "customers"}
    for seed in range(6):
        text = write_scenario(calls, [], {"books": "Books", "pay": "Payments"},
                              random.Random(seed), BY_NAME["client_to_customer"],
                              resources=resources)
        assert text is not None
        assert " them " in text and " it up " not in text and "add it " not in text, text


def test_a_code_host_s_record_is_named_by_its_repository_and_number():
    """"The pull request #43259 of the juliar/mobile-app repository", never "the pull
    request whose owner is "juliar" and pull number is 43259 and repo is "mobile-app"" (a
    list of fields, no way anyone names a pull request)."""
    calls = [
        GoldCall(tool="git__get_pull_request", service="git", effect="read",
                 arguments={"owner": "juliar", "repo": "mobile-app", "pull_number": 43259},
                 bindings={"owner": Binding(kind="visible", type="string"),
                           "repo": Binding(kind="visible", type="string"),
                           "pull_number": Binding(kind="visible", type="number")},
                 result={"id": "pr_1", "title": "Fix login redirect", "state": "open"}),
        GoldCall(tool="todo__create_task", service="todo", effect="create",
                 arguments={"title": "Fix login redirect"},
                 bindings={"title": Binding(kind="hidden", type="title", step=0,
                                            field="title", path="title")},
                 result={"id": "t1"}),
    ]
    resources = {"git__get_pull_request": "pull_requests", "todo__create_task": "tasks"}
    for seed in range(6):
        text = write_scenario(calls, [], {"git": "GitHub", "todo": "Todo"},
                              random.Random(seed), BY_NAME["pull_request_task"],
                              resources=resources)
        assert text is not None
        assert "#43259 of the juliar/mobile-app repository" in text, text
        assert "whose owner" not in text and "repo is" not in text, text


def test_a_person_known_by_their_fullname_is_named_so():
    """"The project member in Avaza whose fullname is "Yusuf Nguyen"" reads as an API's
    field: a `Fullname` (or `displayname`) names the person as their `name` does."""
    select = Selector(field="Fullname", value="Yusuf Nguyen")
    calls = [
        GoldCall(tool="pm__list_members", service="pm", effect="read", arguments={},
                 bindings={}, result={"data": [
                     {"id": "u1", "Fullname": "Yusuf Nguyen", "Email": "yusuf@ourco.com"},
                     {"id": "u2", "Fullname": "Bo Kim", "Email": "bo@ourco.com"}]}),
        GoldCall(tool="mail__send_email", service="mail", effect="create",
                 arguments={"to": "yusuf@ourco.com", "body": "Please return your laptop."},
                 bindings={"to": Binding(kind="hidden", type="email", step=0,
                                         field="data[].Email", path="data[0].Email",
                                         selector=select),
                           "body": Binding(kind="free", type="text")},
                 result={"id": "m1"}),
    ]
    resources = {"pm__list_members": "members", "mail__send_email": "emails"}
    for seed in range(6):
        text = write_scenario(calls, [], {"pm": "Avaza", "mail": "Mail"}, random.Random(seed),
                              BY_NAME["laptop_return"], resources=resources)
        assert text is not None
        assert "Yusuf Nguyen" in text and "fullname" not in text.lower(), text


def test_a_subject_said_as_a_phrase_takes_no_possessive():
    """"The customer with the email address samir@x.org's contract comes up ..." : a
    possessive opening is said of a name, never of a phrase that names the record."""
    from compoworld.compose.situations import situation

    renewal = BY_NAME["renewal_reminder"]
    phrase = "the customer with the email address samir.okafor@x.org"
    for seed in range(8):
        said = situation(renewal, phrase, random.Random(seed))
        assert "x.org's" not in said, said
    assert any("Ana Ruiz's" in situation(renewal, "Ana Ruiz", random.Random(seed))
               for seed in range(8))


def test_a_person_looked_up_elsewhere_is_also_there():
    """"Their details are in Avaza. What is their phone number? They should be in Severa."
    read as a contradiction: the second app also has them."""
    select = Selector(field="name", value="Ana Ruiz")
    email = Binding(kind="hidden", type="email", step=0, field="data[].email",
                    path="data[0].email", selector=select)
    calls = [
        GoldCall(tool="crm__list_contacts", service="crm", effect="read", arguments={},
                 bindings={}, result={"data": [
                     {"id": "c1", "name": "Ana Ruiz", "email": "ana@ruiz.org"},
                     {"id": "c2", "name": "Bo Kim", "email": "bo@kim.org"}]}),
        GoldCall(tool="books__list_customers", service="books", effect="read",
                 arguments={"email": "ana@ruiz.org"}, bindings={"email": email},
                 result={"data": [{"id": "k1", "email": "ana@ruiz.org",
                                   "phone": "+14155550123"}]}),
    ]
    answer = [AnswerItem(step=1, path="data[0].phone", label="the phone",
                         value="+14155550123", selector=None)]
    resources = {"crm__list_contacts": "contacts", "books__list_customers": "customers"}
    said = [text for seed in range(8) if (text := write_scenario(
        calls, answer, {"crm": "CRM", "books": "Books"}, random.Random(seed),
        BY_NAME["contact_lookup"], resources=resources)) is not None]
    assert said
    for text in said:
        assert "also" in text and "should be in Books" not in text, text


def test_a_person_named_in_the_request_is_the_one_written_to():
    """"Victor Horvat's order" whose email was sofia.lee@...: the thanks meant for Victor
    went to Sofia. A chain that writes to an address carried from a record named by a
    person's name that is not theirs is refused; a company's name proves nothing."""
    from compoworld.compose.build import _someone_else

    calls = welcome_calls()
    assert not _someone_else(calls)  # (rosa.okafor@ for Rosa Okafor)
    calls[-1].arguments["to"] = ["sofia.lee@ourco.com"]
    assert _someone_else(calls)
    calls[-1].bindings["to"] = calls[-1].bindings["to"].model_copy(update={
        "selector": Selector(field="company_name", value="Pinecrest Software")})
    assert not _someone_else(calls)

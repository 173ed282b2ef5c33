"""Random walks on the built-in services: determinism, bindings, endings, capabilities."""

from __future__ import annotations

import random
import re

import pytest

from compoworld.compose.build import Rejected, capabilities, compose_task
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Binding, GoldCall
from compoworld.compose.stage import start_tools
from compoworld.compose.values import value_at
from compoworld.compose.walk import WalkConfig, random_walk
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec

SEED = 11


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


def walks(library: ServiceLibrary, count: int = 40):
    starts = sorted(start_tools(library.graph))
    for index in range(count):
        rng = random.Random(index)
        yield random_walk(library.graph, library.world(SEED), rng.choice(starts), rng)


def test_the_same_seed_gives_the_same_walk(library: ServiceLibrary):
    start = sorted(start_tools(library.graph))[0]
    first = random_walk(library.graph, library.world(SEED), start, random.Random(5))
    again = random_walk(library.graph, library.world(SEED), start, random.Random(5))
    assert first == again
    others = [random_walk(library.graph, library.world(SEED), start, random.Random(s))
              for s in range(6, 12)]
    assert any(other.calls != first.calls for other in others)


def test_walks_start_at_a_read_and_end_in_a_write_or_an_answer(library: ServiceLibrary):
    done = [walk for walk in walks(library) if walk.failure is None]
    assert len(done) >= 10
    for walk in done:
        assert walk.calls[0].effect == "read"
        assert 2 <= len(walk.calls) <= 8
        last = walk.calls[-1]
        assert (last.effect != "read") or walk.answer
        if walk.answer:
            item = walk.answer[0]
            assert value_at(walk.calls[item.step].result, item.path) == item.value


def test_hidden_arguments_come_from_earlier_results(library: ServiceLibrary):
    hidden = visible = 0
    for walk in walks(library):
        if walk.failure:
            continue
        for index, call in enumerate(walk.calls):
            assert set(call.bindings) == set(call.arguments)
            for param, binding in call.bindings.items():
                if binding.kind == "hidden":
                    hidden += 1
                    assert binding.step < index
                    source = value_at(walk.calls[binding.step].result, binding.path)
                    assert source == call.arguments[param] or str(source) == str(
                        call.arguments[param])
                else:
                    visible += 1
                    assert binding.step is None and binding.path is None
    assert hidden > 0 and visible > 0


def test_walks_cross_services_when_they_can(library: ServiceLibrary):
    for walk in walks(library):
        if walk.failure is None:
            assert any(walk.calls[b.step].service != c.service
                       for c in walk.calls for b in c.bindings.values() if b.kind == "hidden")


def test_the_length_budget_is_respected(library: ServiceLibrary):
    config = WalkConfig(min_calls=2, max_calls=3, end_on_write=0.0)
    start = sorted(start_tools(library.graph))
    for index in range(20):
        rng = random.Random(index)
        walk = random_walk(library.graph, library.world(SEED), rng.choice(start), rng, config)
        assert len(walk.calls) <= 3


def test_a_tool_nobody_can_start_from_fails_with_a_reason(library: ServiceLibrary):
    lonely = ServiceLibrary.from_specs([builtin_spec("maps")])
    start = sorted(start_tools(lonely.graph))[0]
    made = compose_task(lonely, SEED, start, random.Random(0), "t")
    assert isinstance(made, Rejected) and made.reason


def call(tool: str, service: str, sources: dict[str, int]) -> GoldCall:
    bindings = {p: Binding(kind="hidden", type="email", step=s, field="email", path="email")
                for p, s in sources.items()}
    return GoldCall(tool=tool, service=service, effect="read", arguments=dict.fromkeys(sources, 1),
                    bindings=bindings, result={})


def test_capability_tags():
    chain = [call("a", "a", {}), call("b", "b", {"x": 0}), call("c", "b", {"y": 1})]
    assert capabilities(chain) == ["sequential-dependency", "cross-env-constraint"]
    fan = [call("a", "a", {}), call("b", "a", {"x": 0}), call("c", "a", {"y": 0})]
    assert capabilities(fan) == ["fan-out"]
    join = [call("a", "a", {}), call("b", "b", {}), call("c", "c", {"x": 0, "y": 1})]
    assert capabilities(join) == ["cross-env-constraint", "aggregation"]


def test_a_workflow_s_message_greets_its_person_by_first_name():
    from compoworld.compose.notes import reference_note
    from compoworld.compose.records import GoldCall
    from compoworld.compose.walk import Walk, _first_name

    read = GoldCall(tool="crm__list_customers", service="crm", effect="read", arguments={},
                    bindings={}, result={"data": [{"name": "Hooli", "email": "x@hooli.com"},
                                                  {"name": "Ben Wagner", "lastName": "Ann"}]})
    walk = Walk(calls=[read], subject={0: "data[1]"}, about="person")
    assert _first_name(walk) == "Ben"
    notes = {reference_note("welcoming them aboard", {}, "drawn", random.Random(seed),
                            name="Ben") for seed in range(12)}
    assert len(notes) >= 6  # said in several ways, never one template
    for note in notes:
        assert re.match(r"(Hello|Hi|Dear) Ben\b|Ben,", note) and "elcome" in note, note
    assert reference_note("welcoming them aboard", {"enum": ["a"]}, "a", random.Random(0),
                          name="Ben") == "a"  # (a field of set values keeps its own)
    assert _first_name(Walk(calls=[read], subject={0: "data[0]"}, about="person")) == ""
    assert _first_name(Walk(calls=[read], subject={0: "data[1]"}, about="order")) == ""


def test_a_receipt_greets_the_one_customer_its_invoice_names():
    """No "Hi there" to a customer the invoice names: a message about an invoice,
    order or ticket greets the one person of the world's pool whose email it holds, and
    nobody where it holds two."""
    from compoworld.compose.records import GoldCall
    from compoworld.compose.walk import Walk, _first_name
    from compoworld.world.seeding import draw_pool

    class World:
        pool = draw_pool(4)

    ana, bo = World.pool.customers[:2]
    invoices = GoldCall(tool="books__list_invoices", service="books", effect="read",
                        arguments={}, bindings={}, result={"data": [
                            {"title": "Q3 work", "customer": {"email": ana.email}},
                            {"title": "Q4 work", "email": bo.email, "cc": ana.email}]})
    assert _first_name(Walk(calls=[invoices], subject={0: "data[0]"}, about="invoice"),
                       World()) == ana.first_name
    assert _first_name(Walk(calls=[invoices], subject={0: "data[1]"}, about="invoice"),
                       World()) == ""
    assert _first_name(Walk(calls=[invoices], subject={0: "data[0]"}, about="invoice")) == ""


@pytest.mark.parametrize(("value", "kind", "keeps"), [
    (84470, "integer", True), (84470, "number", False), (844.7, "number", True),
    (844.7, "integer", False), (844.7, "string", True), ("844.70", "integer", True),
])
def test_an_amount_moves_only_between_fields_of_its_units(value, kind, keeps):
    """Integer amounts are minor units, decimals major ones: Velo's 84470 cents are no
    Avaza amount of 84,470."""
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _same_units

    found = Found("data[].amount", "data[0].amount", value, "money", None)
    assert _same_units(found, {"type": kind}) is keeps
    email = Found("data[].email", "data[0].email", 7, "email", None)
    assert _same_units(email, {"type": "number"})  # only amounts have units


def test_a_message_mentions_its_subject_never_the_recipient_s_own_name():
    """An order found by its customer's name is about that person: a note to them names no
    "Julia Lopez"; a ticket's subject is still named."""
    from compoworld.compose.notes import reference_note
    from compoworld.compose.walk import _person_named

    assert _person_named("Julia Lopez") and not _person_named("Delivery issue")
    assert not _person_named("Board Game") and not _person_named("Julia")
    for seed in range(6):
        note = reference_note("about their order", {}, "x", random.Random(seed),
                              name="Julia", title="Delivery issue")
        assert '"Delivery issue"' in note and "Julia" in note and "Lopez" not in note, note


def test_an_invitation_names_the_meeting_booked_before_it_and_its_day():
    """The message of a workflow that booked a meeting names it and says when: the request
    states both, and the rubric asks for them."""
    from compoworld.compose.notes import reference_note
    from compoworld.compose.notes import when as _when
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.compose.walk import Walk, _event_facts
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    node = ToolNode(name="cal__create_event", service="cal", effect="create",
                    implementation="modeled", resource="events",
                    params={"summary": "title", "start": "datetime"},
                    required=("summary",), outputs={})
    graph = DependencyGraph.build([node])
    booked = GoldCall(tool=node.name, service="cal", effect="create",
                      arguments={"summary": "Quarterly review", "start": "2026-12-05T10:00:00Z"},
                      bindings={"summary": Binding(kind="visible", type="title"),
                                "start": Binding(kind="visible", type="datetime")},
                      result={"id": "e1"})
    facts = _event_facts(graph, Walk(calls=[booked], about="person"))
    assert facts == ("Quarterly review", "2026-12-05T10:00:00Z")
    assert _event_facts(graph, Walk(calls=[], about="person")) == ("", "")
    assert _when("2026-12-05T10:00:00Z") == "December 5, 2026 at 10:00 UTC"
    assert _when("2026-12-05T10:00:00+02:00") == "December 5, 2026 at 10:00"
    assert _when("2026-12-05") == "December 5, 2026" and _when("soon") == ""
    for seed in range(6):
        note = reference_note("inviting them to the meeting", {}, "x", random.Random(seed),
                              name="Ana", event=facts)
        assert '"Quarterly review" on December 5, 2026 at 10:00 UTC' in note, note


def test_an_update_says_where_the_order_stands_and_the_request_asks_for_it():
    """A message about an order the workflow read names its status; the request asks for
    "its status" and never states it, and a reminder of an event asks for "its date"."""
    from compoworld.compose.notes import reference_note, status_news
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.compose.references import mentioned, mentioning, status_of, subject_facts

    assert status_of({"id": 1, "status": "shipped"}) == "shipped"
    assert status_of({"state": "awaiting_payment"}) == "" and status_of({"status": 3}) == ""
    both = {"paymentStatus": "paid", "fulfillmentStatus": "shipped", "email": "a@b.io"}
    assert status_of(both) == "shipped"  # where it is on its way, said by its name:
    read = GoldCall(tool="shop__list_orders", service="shop", effect="read", arguments={},
                    bindings={}, result={"orders": [both]})
    sent = GoldCall(tool="sms__send", service="sms", effect="action", arguments={"to": "a"},
                    bindings={"to": Binding(kind="hidden", type="email", step=0,
                                            field="orders[].email", path="orders[0].email")},
                    result={})
    assert subject_facts([read, sent]) == {"shipped": "its fulfillment status"}
    read.result["orders"][0] = {"paymentStatus": "processing", "email": "a@b.io"}
    assert subject_facts([read, sent]) == {"processing": "its payment status"}  # (not
    # "its status" of an order whose neighbours have a fulfillment status too)
    order = {"orders": [{"title": "Board Game", "status": "pending", "email": "a@b.io"},
                        {"title": "Lamp", "status": "shipped", "email": "c@d.io",
                         "deliver_on": "2026-12-09"}]}
    for seed in range(6):
        note = reference_note("with an update on their order", {}, "x", random.Random(seed),
                              title="Lamp", status="shipped")
        assert '"Lamp"' in note and "shipped" in note, note
    for seed in range(6):  # a code is news in words, its word kept (not "RETURNED")
        news = reference_note("with an update on their order", {}, "x", random.Random(seed),
                              title="Lamp", status="RETURNED")
        assert "has been returned" in news and "RETURNED" not in news, news
    assert status_news("awaitingPayment") == "is now awaitingPayment"
    assert status_news("Shipped") == "has shipped" and status_news("") == ""
    calls = [GoldCall(tool="shop__list_orders", service="shop", effect="read",
                      arguments={"title": "Lamp"},
                      bindings={"title": Binding(kind="visible", type="title")}, result=order),
             GoldCall(tool="mail__send", service="mail", effect="action",
                      arguments={"to": "c@d.io", "text": note},
                      bindings={"to": Binding(kind="hidden", type="email", step=0,
                                              field="orders[].email", path="orders[1].email"),
                                "text": Binding(kind="free", type="text")}, result={})]
    assert subject_facts(calls) == {"shipped": "its status"}
    facts = mentioned([note], calls)
    assert facts == ["Lamp", "shipped"]
    assert mentioning(facts, subject_facts(calls)) == ', mentioning "Lamp" and its status'
    assert mentioning(["Team offsite", "2026-12-05T10:00:00Z"]) == (
        ', mentioning "Team offsite" and its date')
    event = {"items": [{"summary": "Team offsite", "start": {"dateTime": "2026-12-05T10:00:00Z"},
                        "email": "c@d.io"}]}
    calls[0] = calls[0].model_copy(update={"result": event})
    calls[1] = calls[1].model_copy(update={"bindings": {**calls[1].bindings, "to": Binding(
        kind="hidden", type="email", step=0, field="items[].email", path="items[0].email")}})
    assert subject_facts(calls) == {"2026-12-05T10:00:00Z": "its date"}


def test_a_text_goes_out_from_our_own_number():
    from compoworld.compose.references import is_sender

    assert is_sender("From", "phone") and is_sender("from_number", "phone")
    assert is_sender("sender", "phone") and not is_sender("To", "phone")
    assert is_sender("From", "email") and not is_sender("To", "email")  # (an email's)
    assert not is_sender("from_date", "datetime")


def test_an_email_goes_out_from_our_own_address():
    """An email is sent from the business's own address (Postmark's `From`), one per world,
    at a company of its own: no customer's company is the sender's."""
    from compoworld.compose.records import Binding
    from compoworld.compose.walk import _bind_sender
    from compoworld.world.seeding import draw_pool, our_address

    service = type("S", (), {"name": "mail"})()
    for world in range(6):
        arguments = {"To": "ana.ruiz@acme.com", "From": None}
        bindings = {"To": Binding(kind="hidden", type="email", step=0, path="x[0].email",
                                  field="email"),
                    "From": Binding(kind="visible", type="email")}
        _bind_sender(service, arguments, bindings, {}, world)
        assert arguments["From"] == our_address(world)
        domain = arguments["From"].split("@")[1]
        assert arguments["From"].startswith("hello@")
        assert domain not in {company.domain for company in draw_pool(world).companies}
    assert len({our_address(world) for world in range(6)}) > 1


def test_our_own_account_at_a_service_is_one_per_world(library: ServiceLibrary):
    """The business's account id at a service (Twilio's `AccountSid`) is drawn once per
    world, as its texting number is: not one number under three account ids."""
    from compoworld.compose.walk import _literal, _own_account
    from compoworld.graph.depgraph import ToolNode

    name = sorted(BUILTIN_SERVICES)[0]
    node = ToolNode(name=f"{name}__send", service=name, effect="create",
                    implementation="builtin", resource=None,
                    params={"AccountSid": f"{name}.accounts.id"}, required=("AccountSid",),
                    outputs={})
    schema = {"type": "string", "pattern": "^AC[0-9a-f]{32}$"}

    def drawn(world_seed: int, draw: int) -> str:
        world = library.world(world_seed)
        random.Random(draw)  # (the walk's own draws do not move it)
        return _literal(world, world.service(name), node, "AccountSid", schema,
                        _own_account(world, world.service(name), node.params["AccountSid"]))

    assert {drawn(3, draw) for draw in range(5)} == {drawn(3, 0)}
    assert len({drawn(seed, 0) for seed in range(5)}) == 5


def test_a_booked_meeting_starts_in_office_hours_after_now_and_ends_an_hour_later():
    from datetime import datetime

    from compoworld.compose.records import Binding
    from compoworld.compose.walk import _book_in_hours
    from compoworld.graph.depgraph import ToolNode
    from compoworld.world.clock import NOW

    node = ToolNode(name="cal__create_event", service="cal", effect="create",
                    implementation="modeled", resource="events",
                    params={"startDateTime": "datetime", "endDate": "date"},
                    required=(), outputs={})
    for seed in range(20):
        arguments = {"startDateTime": "2024-02-11T00:23:00Z", "endDate": "2023-01-01",
                     "note": "x"}
        bindings = {"startDateTime": Binding(kind="visible", type="datetime"),
                    "endDate": Binding(kind="visible", type="date"),
                    "note": Binding(kind="free", type="text")}
        _book_in_hours(node, arguments, bindings, random.Random(seed))
        start = datetime.fromisoformat(arguments["startDateTime"].replace("Z", "+00:00"))
        assert arguments["startDateTime"].endswith(":00Z") and start > NOW, arguments
        assert start.weekday() < 5 and 9 <= start.hour <= 16 and start.minute in (0, 30)
        assert (start - NOW).days <= 16 and arguments["endDate"] == start.date().isoformat()
        assert arguments["note"] == "x"


def test_a_rebooked_time_keeps_the_drawn_value_s_form():
    from datetime import datetime

    from compoworld.compose.walk import _like

    at = datetime(2025, 3, 4, 10, 30)
    assert _like("2024-01-01", at) == "2025-03-04"
    assert _like("2024-01-01T00:23:00Z", at) == "2025-03-04T10:30:00Z"
    assert _like("2024-01-01T00:23:00+02:00", at) == "2025-03-04T10:30:00+02:00"
    assert _like("2024-01-01T00:23:00+0200", at) == "2025-03-04T10:30:00+0200"
    assert _like("2024-01-01T00:23", at) == "2025-03-04T10:30:00"
    assert _like("next week", at) == "next week"


def test_no_lookup_in_another_api_of_the_same_vendor():
    """OnSched Setup's appointment and OnSched Consumer's customers are one vendor's
    records: looking the guest up there finds nothing new; another vendor's app may."""
    from compoworld.compose.walk import _sibling_api
    from compoworld.compose.workflows import BY_NAME

    find = BY_NAME["attendee_message"].steps[1]
    assert _sibling_api(find, "onsched_com_consumer", "onsched_com_setup")
    assert not _sibling_api(find, "salesloft_com", "onsched_com_setup")
    assert not _sibling_api(find, "onsched_com_setup", "onsched_com_setup")
    assert not _sibling_api(BY_NAME["attendee_message"].steps[2], "onsched_com_consumer",
                            "onsched_com_setup")  # (a message may go out through it)
    book = BY_NAME["contact_meeting_message"].steps[1]  # (a Setup customer booked in
    assert _sibling_api(book, "onsched_com_consumer", "onsched_com_setup")  # Consumer)


def test_every_way_of_saying_a_message_names_its_topic():
    """A welcome says "welcome", a set-up note "set" (not a set-up message checked
    only for "two words at least"), in each of its wordings."""
    from compoworld.compose.notes import reference_note
    from compoworld.compose.patterns import topic_of
    from compoworld.compose.situations import SET_UP

    for gist, topic in (("welcoming them aboard", "welcome"), (SET_UP, "set")):
        for seed in range(12):
            note = reference_note(gist, {}, "drawn", random.Random(seed), name="Ana")
            assert topic_of(note)[:1] == [topic], note


def test_a_new_contact_takes_who_they_are_not_every_detail():
    """A patterned write of a person, company or meeting carries an optional value only
    when it says who it is of: a phone or an address is a field list said, or an unasked
    check unsaid."""
    from compoworld.compose.walk import _identity
    from compoworld.graph.depgraph import ToolNode

    def node(resource: str, effect: str = "create") -> ToolNode:
        return ToolNode(name=f"app__{effect}_{resource}", service="app", effect=effect,
                        implementation="builtin", resource=resource, params={},
                        required=(), outputs={})

    for resource in ("contacts", "customers", "appointments"):
        assert _identity(node(resource), "email") and _identity(node(resource), "person_name")
        assert not _identity(node(resource), "phone") and not _identity(node(resource), "city")
        assert not _identity(node(resource), "company")
    assert _identity(node("appointments"), "datetime")  # (a meeting's time is what it is)
    assert _identity(node("companies"), "company") and not _identity(node("companies"), "phone")
    assert _identity(node("companies"), "url")  # a company's account: its website, not its
    assert not _identity(node("companies"), "currency")  # currency
    assert _identity(node("contacts", "read"), "phone") and _identity(node("payments"), "phone")


def test_a_text_goes_out_from_our_number_in_the_recipient_s_country():
    """One sender per service, world and country, not every text crossing a border
    (`+234...` to `+1312...`). It is bound once its recipient is, so it
    is drawn once; with no recipient's phone it is the world's one number."""
    from types import SimpleNamespace

    from compoworld.compose.walk import _bind_sender
    from compoworld.world.words import phone_country

    def sent(to: str | None, world: int) -> str:
        arguments = {"From": None, "To": to}
        bindings = {"From": Binding(kind="visible", type="phone"),
                    "To": Binding(kind="hidden", type="phone", step=0, field="[].phone",
                                  path="[0].phone")}
        _bind_sender(SimpleNamespace(name="twilio"), arguments, bindings,
                     {"From": {"type": "string"}}, world)
        return arguments["From"]

    assert phone_country(sent("+13123019365", 1)) == "US"
    assert phone_country(sent("+351924393955", 1)) == "PT"
    assert sent("+13123019365", 1) == sent("+14155550123", 1)  # one US number a world
    assert sent("+13123019365", 1) != sent("+13123019365", 2)
    fallback = sent(None, 1)  # no recipient's phone: our one number at the service
    assert isinstance(fallback, str) and fallback == sent(None, 1) != sent(None, 2)


def test_a_note_about_a_meeting_that_is_over_follows_it_up():
    """No "heads-up about the meeting on February 17" when now is March 3."""
    from compoworld.compose.notes import reference_note
    from compoworld.world.clock import NOW

    past = f"{NOW.year}-{NOW.month - 1 or 1:02d}-01T10:00:00Z" if NOW.month > 1 else \
        f"{NOW.year - 1}-12-01T10:00:00Z"
    ahead = f"{NOW.year + 1}-01-10T10:00:00Z"
    for seed in range(8):
        before = reference_note("about the event", {}, "x", random.Random(seed), name="Ana",
                                event=("Kickoff", past))
        after = reference_note("about the event", {}, "x", random.Random(seed), name="Ana",
                               event=("Kickoff", ahead))
        assert "heads-up" not in before and ("joining" in before or "follow-up" in before)
        assert '"Kickoff"' in before and '"Kickoff"' in after
        assert "joining" not in after and "follow-up" not in after


def test_a_note_invites_questions_once_and_says_an_order_s_status_as_marked():
    """No "Let us know if there is anything you need. Let us know if you have any
    questions."; no "an update on your order: it is processing."."""
    from compoworld.compose.notes import reference_note

    for seed in range(40):
        note = reference_note("letting them know they're all set up", {}, "x",
                              random.Random(seed), name="Ana")
        asks = sum(any(p in sentence.lower() for p in ("let us know", "reach out",
                                                        "any questions"))
                   for sentence in re.split(r"(?<=[.!?]) ", note))
        assert asks <= 1, note
        update = reference_note("with an update on their order", {}, "x", random.Random(seed),
                                status="processing")
        assert "processing" in update and "it is processing" not in update, update


def test_our_account_is_looked_up_by_its_name_not_said_by_its_id():
    """Twilio's `AccountSid`: the service's list of accounts read, and the first one in use
    whose name no other shares taken (not "(account "AC7cfcca...")" pasted into a
    request). None, and nothing kept, where none is in use and named."""
    from types import SimpleNamespace

    from compoworld.compose.walk import Walk, _our_account
    from compoworld.graph.depgraph import ToolNode

    def node(name: str, effect: str, outputs: dict[str, str]) -> ToolNode:
        return ToolNode(name=name, service="sms", effect=effect, implementation="builtin",
                        resource="accounts" if "account" in name else "messages",
                        params={}, required=(), outputs=outputs)

    lister = node("sms__list_account", "read", {"accounts[].sid": "string",
                                                 "accounts[].friendly_name": "title"})
    send = node("sms__create_message", "create", {})
    graph = SimpleNamespace(nodes={lister.name: lister, send.name: send}, memo={})

    def world(accounts: list[dict]) -> SimpleNamespace:
        spec = SimpleNamespace(parameters={"properties": {"AccountSid": {"type": "string"}}})
        service = SimpleNamespace(tools={send.name: SimpleNamespace(spec=spec)})
        return SimpleNamespace(call=lambda tool, args: {"success": True,
                                                        "data": {"accounts": accounts}},
                               service=lambda name: service)

    accounts = [{"sid": "AC1", "friendly_name": "Main", "status": "closed"},
                {"sid": "AC2", "friendly_name": "Sales", "status": "active"},
                {"sid": "AC3", "friendly_name": "Sales", "status": "active"},
                {"sid": "AC4", "friendly_name": "Support", "status": "active"}]
    walk, found = Walk(), []
    step, value = _our_account(graph, world(accounts), send, "sms.accounts.id", walk, found,
                               set())
    assert value.value == "AC4" and value.path == "accounts[3].sid"
    assert value.selector.field == "friendly_name" and value.selector.value == "Support"
    assert walk.calls[step].tool == "sms__list_account"
    walk, found = Walk(), []
    assert _our_account(graph, world(accounts[:3]), send, "sms.accounts.id", walk, found,
                        set()) is None
    assert walk.calls == [] and found == []
    # ... and a send that would then say the sid ("on the "AC68570f..." account", which
    # nobody says) is no walk, where the service lists its accounts
    import random

    from compoworld.compose.records import Binding
    from compoworld.compose.walk import _look_up_ids

    def look_up(accounts: list[dict]) -> tuple[bool, dict]:
        arguments = {"AccountSid": "AC2"}
        bindings = {"AccountSid": Binding(kind="visible", type="sms.accounts.id")}
        kept = _look_up_ids(graph, world(accounts), send, arguments, bindings, Walk(), [],
                            set(), random.Random(0))
        return kept, bindings["AccountSid"]

    kept, binding = look_up(accounts)
    assert kept and binding.kind == "hidden"
    kept, binding = look_up(accounts[:3])
    assert not kept


def test_a_text_goes_to_a_mobile_of_someone_who_may_be_texted():
    """No text to a `businessPhone` beside a mobile, to people whose record says
    `contact_restrictions: ["message"]`, nor a thank-you to an attendee who declined."""
    from compoworld.compose.values import Found
    from compoworld.compose.walk import Walk, _textable
    from compoworld.graph.depgraph import ToolNode

    send = ToolNode(name="sms__create_message", service="sms", effect="create",
                    implementation="builtin", resource="messages", params={}, required=(),
                    outputs={})

    def ok(item: dict, field: str) -> bool:
        walk = Walk(calls=[GoldCall(tool="crm__list_people", service="crm", effect="read",
                                    arguments={}, bindings={}, result={"data": [item]})])
        found = Found(field=f"data[].{field}", path=f"data[0].{field}", value=item[field],
                      type="phone", selector=None)
        return _textable(walk, 0, found, send)

    person = {"name": "Ann Lee", "mobilePhone": "+447700900123",
              "businessPhone": "+442079460000"}
    assert ok(person, "mobilePhone") and not ok(person, "businessPhone")
    assert not ok({**person, "contact_restrictions": ["message"]}, "mobilePhone")
    assert not ok({**person, "do_not_contact": True}, "mobilePhone")
    assert not ok({**person, "status": "declined"}, "mobilePhone")
    assert ok({**person, "status": "accepted", "contact_restrictions": []}, "mobilePhone")
    both = {"name": "Ben Garcia", "mobile": "+34746798365", "phone": "+34631656302"}
    assert ok(both, "mobile") and not ok(both, "phone")  # (its mobile, if any)
    assert ok({"name": "Ben Garcia", "phone": "+34631656302"}, "phone")


def test_a_note_goes_to_a_colleague_s_own_address_not_their_recovery_address():
    """A VPN notice went to a Google Workspace user's `recoveryEmail`, the address the
    request named them by: the directory lookup did nothing, and an agent that wrote to
    their `primaryEmail` failed the check."""
    from compoworld.compose.values import Found
    from compoworld.compose.walk import Walk, _textable
    from compoworld.graph.depgraph import ToolNode

    send = ToolNode(name="mail__send_email", service="mail", effect="action",
                    implementation="builtin", resource="messages", params={}, required=(),
                    outputs={})
    user = {"primaryEmail": "ana.ruiz@acme.test", "recoveryEmail": "ana.r@acme.test"}
    walk = Walk(calls=[GoldCall(tool="admin__list_users", service="admin", effect="read",
                                arguments={}, bindings={}, result={"users": [user]})])

    def ok(field: str) -> bool:
        found = Found(field=f"users[].{field}", path=f"users[0].{field}", value=user[field],
                      type="email", selector=None)
        return _textable(walk, 0, found, send)

    assert ok("primaryEmail") and not ok("recoveryEmail")


def test_a_company_account_carries_more_than_the_name_the_request_says():
    """A company set up from the record the workflow read takes something of it besides
    the name the request already says: "only the name, already in the request, is
    carried, so the read adds nothing"."""
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.compose.walk import Walk, _substantial
    from compoworld.compose.workflows import BY_NAME
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    read = ToolNode(name="crm__list_companies", service="crm", effect="read",
                    implementation="builtin", resource="companies", params={}, required=(),
                    outputs={"[].name": "company", "[].website": "url"})
    make = ToolNode(name="books__add_company", service="books", effect="create",
                    implementation="builtin", resource="companies",
                    params={"name": "company", "website": "url", "currency": "currency"},
                    required=("name",), outputs={})
    graph = DependencyGraph.build([read, make])
    found = GoldCall(tool=read.name, service="crm", effect="read", arguments={}, bindings={},
                     result=[{"name": "Hooli", "website": "https://hooli.com"}])
    walk = Walk(calls=[found], about="org")
    step = BY_NAME["company_account"].steps[1]
    name = Binding(kind="hidden", type="company", step=0, field="[].name", path="[0].name")
    site = Binding(kind="hidden", type="url", step=0, field="[].website", path="[0].website")
    said = Binding(kind="visible", type="currency")
    assert not _substantial(graph, walk, step, make, {"name": "Hooli", "currency": "EUR"},
                            {"name": name, "currency": said})
    assert _substantial(graph, walk, step, make, {"name": "Hooli", "website": "https://hooli.com"},
                        {"name": name, "website": site})


def test_a_lookup_gives_back_nothing_it_was_looked_up_by() -> None:
    """A customer found by their email gives back that email: a message to it needed no
    lookup ("You'll find their email address in OnSched Consumer (same email address)"),
    so that value carries nothing on; their phone, which the lookup found, does."""
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _looked_up_by

    email, phone = "ana.ruiz@acme.com", "+14155550100"
    lookup = GoldCall(tool="crm__list_customers", service="crm", effect="read",
                      arguments={"email": email},
                      bindings={"email": Binding(kind="hidden", type="email", step=0,
                                                 path="meetings[0].email", field="email")},
                      result={"data": [{"email": email, "phone": phone}]})
    assert _looked_up_by(lookup, Found("data[].email", "data[0].email", email, "email", None))
    assert not _looked_up_by(lookup, Found("data[].phone", "data[0].phone", phone, "phone",
                                           None))
    stated = GoldCall(tool="crm__list_customers", service="crm", effect="read",
                      arguments={"email": email},
                      bindings={"email": Binding(kind="visible", type="email")},
                      result={"data": [{"email": email}]})  # (the user named them: no carry)
    assert not _looked_up_by(stated, Found("data[].email", "data[0].email", email, "email",
                                           None))


def test_a_meeting_is_in_the_guest_s_office_hours_on_one_day_in_utc():
    """No "14:30 UTC" with a +61 contact: that is 01:30 AEDT. A meeting with someone in
    Tokyo, Sydney or Los Angeles starts between 09:00 and 16:30 their time, and the hour
    it lasts is one day in UTC as well (the invitation names that day)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from compoworld.compose.records import Binding
    from compoworld.compose.walk import _book_in_hours
    from compoworld.graph.depgraph import ToolNode

    node = ToolNode(name="cal__create_event", service="cal", effect="create",
                    implementation="modeled", resource="events",
                    params={"startDateTime": "datetime", "endDateTime": "datetime"},
                    required=(), outputs={})
    seen = set()
    for zone in ("Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles", "Europe/Paris"):
        for seed in range(12):
            arguments = {"startDateTime": "2024-02-11T00:23:00Z",
                         "endDateTime": "2024-02-11T00:23:00Z"}
            bindings = {p: Binding(kind="visible", type="datetime") for p in arguments}
            _book_in_hours(node, arguments, bindings, random.Random(seed), zone)
            start, end = (datetime.fromisoformat(arguments[p].replace("Z", "+00:00"))
                          for p in ("startDateTime", "endDateTime"))
            there = start.astimezone(ZoneInfo(zone))
            assert 9 <= there.hour <= 16 and there.minute in (0, 30), (zone, there)
            assert there.weekday() < 5 and there.date() == start.date() == end.date(), (
                zone, start, end)
            seen.add(start.hour)
    assert len(seen) >= 8  # (the hours differ by zone: Tokyo's mornings are UTC's nights)


def test_the_guest_s_time_zone_comes_from_the_pool_person_the_booking_is_with():
    from compoworld.compose.walk import _guest_place
    from compoworld.world.seeding import draw_pool

    class World:
        pool = draw_pool(7)

    person = World.pool.everyone[3]
    assert _guest_place(World(), [person.email]) == person.place
    assert _guest_place(World(), [{"email": person.other_emails[0].upper()}]) == person.place
    assert _guest_place(World(), ["nobody@nowhere.example"]) is None
    assert _guest_place(World(), []) is None


def test_an_invitation_says_the_meeting_s_purpose_and_time_as_the_guest_s():
    from compoworld.compose.notes import local_clock, reference_note, reference_subject
    from compoworld.compose.notes import when as _when

    assert _when("2025-03-10T01:00:00Z", ("Asia/Tokyo", "Tokyo")) == \
        "March 10, 2025 at 10:00 Tokyo time"
    assert local_clock("2025-03-10T01:00:00Z", "Asia/Tokyo") == "10:00"
    assert local_clock("2025-03-10T20:00:00Z", "Asia/Tokyo") == ""  # (the next day there)
    assert _when("2025-03-10T20:00:00Z", ("Asia/Tokyo", "Tokyo")) == \
        "March 10, 2025 at 20:00 UTC"
    for seed in range(6):
        note = reference_note("inviting them to the meeting", {}, "x", random.Random(seed),
                              name="Ana", event=("", "2025-03-10T01:00:00Z"),
                              purpose="a call about their invoices",
                              local=("Asia/Tokyo", "Tokyo"))
        assert "a call about your invoices on March 10, 2025 at 10:00 Tokyo time" in note, note
        assert re.search(r"\b(invite|invited|join)\b", note), note
    assert reference_subject("inviting them to the meeting", {}, "x",
                             meeting="Invoice questions") == "Meeting invitation: Invoice questions"


def test_a_person_added_where_the_tool_takes_both_halves_of_a_name_gets_both():
    """No customer added as {"firstname": "Tomas"} or {"lastname": "Horvat"} where the
    tool takes both and the record has both."""
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.compose.walk import Walk, _substantial
    from compoworld.compose.workflows import BY_NAME
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    read = ToolNode(name="crm__list_leads", service="crm", effect="read",
                    implementation="builtin", resource="leads", params={}, required=(),
                    outputs={"[].first": "first_name", "[].last": "last_name",
                             "[].email": "email"})
    make = ToolNode(name="book__add_customer", service="book", effect="create",
                    implementation="builtin", resource="customers",
                    params={"firstname": "first_name", "lastname": "last_name",
                            "email": "email"}, required=(), outputs={})
    graph = DependencyGraph.build([read, make])
    found = GoldCall(tool=read.name, service="crm", effect="read", arguments={}, bindings={},
                     result=[{"first": "Sofia", "last": "Horvat", "email": "s@h.io"}])
    walk = Walk(calls=[found], about="person")
    step = BY_NAME["lead_to_contact_welcome"].steps[1]

    def carried(field: str, kind: str) -> Binding:
        return Binding(kind="hidden", type=kind, step=0, field=f"[].{field}", path=f"[0].{field}")

    email = carried("email", "email")
    assert not _substantial(graph, walk, step, make, {"lastname": "Horvat", "email": "s@h.io"},
                            {"lastname": carried("last", "last_name"), "email": email})
    assert _substantial(graph, walk, step, make,
                        {"firstname": "Sofia", "lastname": "Horvat", "email": "s@h.io"},
                        {"firstname": carried("first", "first_name"),
                         "lastname": carried("last", "last_name"), "email": email})


def test_a_note_that_customers_can_book_or_pay_online_says_where():
    """No "you can now book your appointments with us online" with no way to book: the
    note gives our booking (or payment) page, at our own domain, and the request says
    where it is."""
    from compoworld.compose.notes import reference_note
    from compoworld.compose.walk import _our_page
    from compoworld.world.seeding import our_address

    class World:
        seed = 12

    page = _our_page(World(), "letting them know they can now book with us online")
    assert page == f"https://www.{our_address(12).partition('@')[2]}/book"
    assert _our_page(World(), "welcoming them aboard") == ""
    for seed in range(6):
        note = reference_note("letting them know they can now book with us online", {}, "x",
                              random.Random(seed), name="Ana", link=page)
        assert page in note and "book" in note, note


def test_only_a_meeting_workflow_books_a_meeting_with_a_purpose():
    """No new colleague's induction noted "Proposal review": a hire's booking is their
    induction."""
    from compoworld.compose.records import GoldCall
    from compoworld.compose.situations import INDUCTION, MEETINGS
    from compoworld.compose.walk import MEETING_SITUATIONS, Walk, _books_meeting, _purpose
    from compoworld.graph.depgraph import ToolNode

    book = ToolNode(name="cal__create_appointment", service="cal", effect="create",
                    implementation="modeled", resource="appointments", params={},
                    required=(), outputs={})
    read = GoldCall(tool="crm__list_contacts", service="crm", effect="read", arguments={},
                    bindings={}, result={"data": []})
    from compoworld.compose.workflows import BY_NAME

    def walk(name: str, calls: list[GoldCall]) -> Walk:
        situation = BY_NAME[name].situation  # (as `random_walk` sets them)
        return Walk(calls=calls, pattern=name, situation=situation,
                    meets=situation if situation in MEETING_SITUATIONS else "")

    assert _books_meeting(walk("contact_meeting_message", [read]), book)
    assert _books_meeting(walk("meeting_invite", [read]), book)
    assert _books_meeting(walk("new_hire", [read]), book)
    assert not _books_meeting(walk("meeting_invite", []), book)
    assert not _books_meeting(walk("lead_to_contact", [read]), book)
    for seed in range(6):
        rng = random.Random(seed)
        assert _purpose(walk("new_hire", [read]), "crm", rng) is INDUCTION
        assert _purpose(walk("meeting_invite", [read]), "crm", rng) in MEETINGS["crm"]


def test_a_post_s_channel_is_a_team_chat_s():
    """Slack's `chat.postMessage` has no collection, and its `channel` was drawn as a
    medium ("post it in Slack, channel "sms""): a message tool's values are a message's."""
    from compoworld.compose.walk import _noun
    from compoworld.graph.depgraph import ToolNode
    from compoworld.world.vocab import maker

    post = ToolNode(name="slack_com__chat_post_message", service="slack_com", effect="action",
                    implementation="modeled", resource=None,
                    params={"channel": "string", "text": "text"}, required=(), outputs={})
    assert _noun(post) == "messages"
    channels = {maker("channel", _noun(post), "channel")(random.Random(seed)) for seed in range(20)}
    assert not channels & {"sms", "email", "phone", "web"}, channels


def test_a_message_carries_its_recipient_never_as_its_sender():
    """A reminder put its guest's address in Mandrill's `from_email`, and its check wanted
    it there: who a message is from is us, never the value the workflow carries."""
    from compoworld.compose.walk import _from_us
    from compoworld.compose.workflows import BY_NAME
    from compoworld.graph.depgraph import ToolNode

    send = ToolNode(name="mandrill__messages_send_raw", service="mandrill", effect="action",
                    implementation="modeled", resource="messages",
                    params={"from_email": "email", "to": "email", "raw_message": "text"},
                    required=(), outputs={})
    step = BY_NAME["event_reminder"].steps[1]
    assert _from_us(step, send, "from_email") and not _from_us(step, send, "to")
    assert _from_us(step, send, "reply_to_email")


def test_a_message_goes_to_the_person_its_record_is_named_by():
    """"The meeting whose recipient email is vera.petrenko@..." and an email to its
    attendee samir.brown@...: the request names one person and messages another."""
    from compoworld.compose.records import Binding, Selector
    from compoworld.compose.walk import _another_person

    by_vera = Selector(field="recipient_email", value="vera.petrenko@acme.com")

    def to(address: str) -> tuple[dict, dict]:
        return {"to": address}, {"to": Binding(kind="hidden", type="email", step=0,
                                                field="[].attendees[].email",
                                                path="[0].attendees[0].email",
                                                selector=by_vera)}

    assert _another_person(*to("samir.brown@lakeside.com"))
    assert not _another_person(*to("vera.petrenko@acme.com"))


def test_a_new_colleague_s_induction_is_booked_and_checked_as_one():
    """A new colleague's induction was booked with no word of what it was for, and its check
    took any event in the slot: a hire's booking has the purpose `INDUCTION`, whose title
    says both words a request may use."""
    from compoworld.compose.rubric import purpose_words
    from compoworld.compose.situations import INDUCTION

    words = purpose_words(INDUCTION.title)
    assert {"induction", "onboarding"} <= set(words) and "and" not in words


def test_a_new_customer_is_one_person_of_the_record_not_two():
    """An invoice holds its sender and its receiver side by side (`senderContactName`,
    `receiverContactEmail`): a customer set up from it took the receiver's email and the
    sender's name ("david.novak@..." named "Carmen Sato")."""
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.compose.walk import Walk, _substantial
    from compoworld.compose.workflows import BY_NAME
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    read = ToolNode(name="books__list_invoices", service="books", effect="read",
                    implementation="builtin", resource="invoices", params={}, required=(),
                    outputs={"[].senderContactName": "person_name",
                             "[].receiverContactName": "person_name",
                             "[].receiverContactEmail": "email"})
    make = ToolNode(name="shop__add_customer", service="shop", effect="create",
                    implementation="builtin", resource="customers",
                    params={"name": "person_name", "email": "email"}, required=(), outputs={})
    graph = DependencyGraph.build([read, make])
    found = GoldCall(tool=read.name, service="books", effect="read", arguments={}, bindings={},
                     result=[{"senderContactName": "Carmen Sato", "receiverContactName":
                              "David Novak", "receiverContactEmail": "david.novak@p.com"}])
    walk = Walk(calls=[found], about="invoice")
    step = BY_NAME["client_to_customer"].steps[1]

    def carried(field: str, kind: str) -> Binding:
        return Binding(kind="hidden", type=kind, step=0, field=f"[].{field}", path=f"[0].{field}")

    email = carried("receiverContactEmail", "email")
    assert not _substantial(graph, walk, step, make,
                            {"name": "Carmen Sato", "email": "david.novak@p.com"},
                            {"name": carried("senderContactName", "person_name"), "email": email})
    assert _substantial(graph, walk, step, make,
                        {"name": "David Novak", "email": "david.novak@p.com"},
                        {"name": carried("receiverContactName", "person_name"), "email": email})


def test_a_workflow_s_next_app_is_drawn_before_its_tool():
    """An app of many tools (an MCP server of all of Google Workspace) took most of the
    messages of a run when every (tool, parameter) weighed alike: each app weighs alike."""
    from compoworld.compose.walk import _by_app
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    def sender(service: str, index: int) -> ToolNode:
        return ToolNode(name=f"{service}__send_{index}", service=service, effect="create",
                        implementation="builtin", resource="messages",
                        params={"to": "email"}, required=("to",), outputs={})

    tools = [sender("suite", i) for i in range(12)] + [sender("mailer", 0)]
    graph = DependencyGraph.build(tools)
    options = [(t.name, "to") for t in tools]
    rng = random.Random(5)
    picks = [graph.nodes[_by_app(graph, options, rng)[0]].service for _ in range(400)]
    assert 150 < picks.count("mailer") < 250  # about half, not one in thirteen
    # a shard whose verified tasks already went through the suite 9 times draws the mailer
    # about 10 times as often: five mail and text apps carried a run's every message
    spread = {"suite": 9}
    picks = [graph.nodes[_by_app(graph, options, rng, spread)[0]].service for _ in range(400)]
    assert picks.count("mailer") > 330, picks.count("mailer")


def test_one_address_goes_into_a_list_of_them():
    """A found email bound to a `to` that takes a list is a list of one."""
    from compoworld.compose.walk import _coerce

    assert _coerce("ann@x.org", {"type": "array", "items": {"type": "string"}}) == ["ann@x.org"]
    assert _coerce(["ann@x.org"], {"type": "array"}) == ["ann@x.org"]
    assert _coerce("ann@x.org", {"type": "string"}) == "ann@x.org"


def test_a_message_shares_no_image_s_link():
    """A Drive file's `iconLink` went into a Slack post's `icon_url` ("send it a message
    with its icon link"): the document was never shared. An image's URL is no link a
    message carries."""
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.compose.steps import send_document
    from compoworld.compose.walk import Walk, _substantial
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    read = ToolNode(name="drive__list_files", service="drive", effect="read",
                    implementation="builtin", resource="files", params={}, required=(),
                    outputs={"[].iconLink": "url", "[].webViewLink": "url",
                             "[].name": "filename"})
    post = ToolNode(name="chat__post_message", service="chat", effect="action",
                    implementation="builtin", resource="messages",
                    params={"icon_url": "url", "text": "text", "channel": "string"},
                    required=("channel",), outputs={})
    graph = DependencyGraph.build([read, post])
    found = GoldCall(tool=read.name, service="drive", effect="read", arguments={}, bindings={},
                     result=[{"iconLink": "https://x/icon.png", "webViewLink": "https://x/d",
                              "name": "plan.pdf"}])
    walk = Walk(calls=[found], about="document")

    def carried(field: str) -> Binding:
        return Binding(kind="hidden", type="url", step=0, field=f"[].{field}",
                       path=f"[0].{field}")

    said = Binding(kind="free", type="text")
    assert not _substantial(graph, walk, send_document(), post,
                            {"icon_url": "https://x/icon.png", "text": "Here it is"},
                            {"icon_url": carried("iconLink"), "text": said})


def test_an_answer_is_no_one_entry_of_a_list_inside_a_record():
    """"What is the to of the email?" picked one of an email's recipients (`[0].to[0]`):
    no single answer, and an agent that dumped every email passed its check. A record's
    own first email (`emails[0]`) still answers."""
    from compoworld.compose.walk import _one_of_many

    assert _one_of_many("[].to[]") and _one_of_many("to[]") and _one_of_many("data[].cc[]")
    assert not _one_of_many("[].emails[].email") and not _one_of_many("[].email")
    assert not _one_of_many("data[].name") and not _one_of_many("items[].title")


def test_a_workflow_carries_a_guest_only_where_the_meeting_has_one():
    """"Thank the attendee" of a meeting whose `guests` are two people: the gold wrote to
    one of them, and nothing in the request said which. A value from a list of people
    inside the record is carried only when it is the list's one entry."""
    from compoworld.compose.records import GoldCall
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _sole_entry

    two = GoldCall(tool="cal__list_events", service="cal", effect="read", arguments={},
                   bindings={}, result=[{"id": "e1", "guests": ["a@x.org", "b@y.org"]}])
    one = GoldCall(tool="cal__list_events", service="cal", effect="read", arguments={},
                   bindings={}, result=[{"id": "e1", "guests": ["a@x.org"]}])
    guest = Found("[].guests[]", "[0].guests[1]", "b@y.org", "email", None)
    only = Found("[].guests[]", "[0].guests[0]", "a@x.org", "email", None)
    own = Found("[].email", "[0].email", "a@x.org", "email", None)
    assert not _sole_entry(two, guest) and _sole_entry(one, only)
    assert _sole_entry(two, own)


def test_a_message_to_a_list_of_addresses_is_to_the_person_named():
    """With recipients as a list (`to: ["vera@x.org"]`), the check that a message goes to
    the person a meeting is named by failed on the list itself (a shard crashed)."""
    from compoworld.compose.records import Binding, Selector
    from compoworld.compose.walk import _another_person

    named = Selector(field="recipient_email", value="vera@x.org")
    to = Binding(kind="hidden", type="email", step=0, field="[].recipient_email",
                 path="[0].recipient_email", selector=named)
    assert not _another_person({"to": ["vera@x.org"]}, {"to": to})
    assert _another_person({"to": ["samir@y.org"]}, {"to": to})
    assert not _another_person({"to": "vera@x.org"}, {"to": to})


def test_a_send_whose_answer_names_another_address_contradicts_it():
    """Telnyx's modeled answer to a text sent to +19174580962 said it went to
    +254718113569 (by "FedEx"): a world whose answer contradicts the call it answers. The
    sender's own number beside the recipient's, or an answer naming no address, is fine."""
    from compoworld.compose.walk import _contradicts

    bindings = {"to": Binding(kind="hidden", type="phone", step=0, field="phone",
                              path="phone"),
                "from": Binding(kind="visible", type="phone")}
    arguments = {"to": "+19174580962", "from": "+14155550100"}
    assert _contradicts(arguments, bindings, {"to": [{"carrier": "FedEx"},
                                                     {"phone_number": "+254718113569"}]})
    assert not _contradicts(arguments, bindings, {"to": [{"phone_number": "+19174580962"}],
                                                  "from": "+14155550100"})
    assert not _contradicts(arguments, bindings, {"id": "msg_1", "from": "+14155550100"})
    emails = {"to": Binding(kind="hidden", type="email", step=0, field="e", path="e")}
    assert not _contradicts({"to": ["ann@x.org"]}, emails, {"to": ["Ann@x.org"]})
    assert _contradicts({"to": ["ann@x.org"]}, emails, {"to": ["bo@x.org"]})
    # a result "sent" to a stranger beside the one recipient (Mandrill's drawn answer)
    assert _contradicts({"to": ["ann@x.org"]}, emails,
                        [{"email": "ann@x.org"}, {"email": "samir@y.org"}])


def test_a_search_term_names_nobody():
    """"The user in GitHub whose q is "roadmap"": a workflow's first read that states a
    free-text search term names its subject by it, which no person does."""
    from compoworld.compose.walk import _searched

    assert _searched({"q": Binding(kind="visible", type="string")})
    assert _searched({"search_term": Binding(kind="visible", type="string")})
    assert not _searched({"email": Binding(kind="visible", type="email")})
    assert not _searched({"q": Binding(kind="free", type="string")})


def test_nobody_dictates_a_record_s_api_address() -> None:
    """GSMTasks' `tasks_create` takes its `account` as the API's URL of an account. A blind
    review rejected a lead's task opened with account "https://www.evergreen-health.com/
    client-invoice-summary": a web page drawn for it, stated as if the user knew it. A
    company's website is a fact a person states; a record's address is not."""
    from compoworld.compose.walk import _sayable

    def visible(kind: str) -> Binding:
        return Binding(kind="visible", type=kind)

    page = "https://www.evergreen-health.com/client-invoice-summary"
    assert not _sayable({"account": page, "name": "Wei Rahman"},
                        {"account": visible("url"), "name": visible("person_name")})
    assert not _sayable({"assignee_url": page}, {"assignee_url": visible("url")})
    assert _sayable({"website": "https://www.meridian-freight.com", "name": "Meridian"},
                    {"website": visible("url"), "name": visible("company")})


def test_a_business_app_is_known_by_its_records_or_its_category():
    """A CRM with many set-up tools (Salesloft: cadences, saved views, imports) keeps a
    company's people all the same, but an app of DAG runs (Airflow, filed `messaging`)
    or a market's data (`financial`) with as few business tools is no home for a lead."""
    from compoworld.compose.patterns import Apps
    from compoworld.compose.walk import _business
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    def tools(service: str, business: int, other: int) -> list[ToolNode]:
        def node(name: str, resource: str) -> ToolNode:
            return ToolNode(name=f"{service}__{name}", service=service, effect="read",
                            implementation="compiled", resource=resource, params={},
                            required=(), outputs={"data[].id": f"{service}.{resource}.id"})
        return [node(f"list_people_{i}", "people") for i in range(business)] + \
            [node(f"list_cadences_{i}", "cadences") for i in range(other)]

    graph = DependencyGraph.build(tools("crm", 3, 9) + tools("dags", 3, 9)
                                  + tools("quotes", 3, 9) + tools("shop", 1, 9)
                                  + tools("desk", 5, 5))
    apps = Apps(work=frozenset({"crm", "dags", "quotes", "shop", "desk"}), customers=frozenset(),
                categories={"crm": "customer_relation", "dags": "messaging",
                            "quotes": "financial", "shop": "ecommerce", "desk": "messaging"})
    assert _business(graph, "crm", apps) and not _business(graph, "crm")
    assert not _business(graph, "dags", apps) and not _business(graph, "quotes", apps)
    assert not _business(graph, "shop", apps)  # a tenth of a shop's tools is too few
    assert _business(graph, "desk", apps) and _business(graph, "desk")


def test_a_record_is_named_by_its_own_title_not_by_a_party_s_detail():
    """A review request was asked to mention "Copperleaf Foods", the company of an order's
    shipping address that the request had found the order by: a message names its subject
    by the subject's own title, never by a detail of the party behind it."""
    from compoworld.compose.records import Selector
    from compoworld.compose.walk import Walk, _subject_title

    def titled(field: str, value: str) -> str:
        walk = Walk(about="order", calls=[GoldCall(
            tool="shop__list_orders", service="shop", effect="read", arguments={},
            bindings={}, result=[{"id": "o1", "name": "Board Game"}])])
        bound = {"to": Binding(kind="hidden", type="email", step=0, field="[].email",
                               path="[0].email", selector=Selector(field=field, value=value))}
        return _subject_title(walk, bound)

    assert titled("name", "Board Game") == "Board Game"
    assert titled("shipping_address.company", "Copperleaf Foods") == ""
    assert titled("billing.city", "Lisbon") == ""


def test_an_id_is_looked_up_in_the_plainest_list_of_its_records():
    """A Zoom meeting's host was looked up among the phone system's users: of the lists
    that hold an id's records, the plainest (`users`) comes first."""
    from compoworld.compose.walk import _listers
    from compoworld.graph.depgraph import DependencyGraph, ToolNode
    from compoworld.graph.semtypes import entity_id_type

    kind = entity_id_type("meet", "users")

    def lister(name: str) -> ToolNode:
        return ToolNode(name=f"meet__{name}", service="meet", effect="read",
                        implementation="compiled", resource="users", params={},
                        required=(), outputs={"users[].id": kind, "users[].email": "email"})

    graph = DependencyGraph.build([lister("list_phone_users"), lister("users"),
                                   lister("list_users")])
    assert _listers(graph, "meet", kind) == ["meet__users", "meet__list_users",
                                             "meet__list_phone_users"]


def test_a_login_is_no_handle_of_another_platform():
    """A new contact's `skypeUsername` was filled with their shop login, and the request
    asked to add them "with their skype user name"; a Twitter handle is no login either."""
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _other_handle

    def found(field: str) -> Found:
        return Found(field=field, path=field, value="umary", type="username", selector=None)
    assert _other_handle(found("result.customer[].login"), "contact.skypeUsername")
    assert _other_handle(found("data[].twitter_handle"), "username")
    assert not _other_handle(found("data[].skype_name"), "contact.skypeUsername")
    assert not _other_handle(found("result.customer[].login"), "username")
    assert not _other_handle(Found(field="data[].email", path="data[0].email",
                                   value="a@b.example", type="email", selector=None),
                             "contact.skypeEmail")


def test_a_follow_up_is_filed_where_its_team_keeps_them():
    """A sales lead's follow-up went into "Internal requests" of "Payroll migration", a
    colleague's RSVP follow-up into "Support requests" of "CRM refresh": a blind review
    read both as made up. A step says where it files what it makes (`Step.filed`), and the
    lookup takes the section or project named by most of those words."""
    from compoworld.compose.records import Selector
    from compoworld.compose.steps import CLIENT_WORK, TEAM_WORK
    from compoworld.compose.values import Found
    from compoworld.compose.walk import Walk, _fitting
    from compoworld.compose.workflows import BY_NAME

    def named(*titles: str) -> list[Found]:
        return [Found(field="[].Title", path=f"[{i}].ID", value=i, type="avaza.sections.id",
                      selector=Selector(field="Title", value=t)) for i, t in enumerate(titles)]

    sections = named("Internal requests", "Client follow-ups", "Team follow-ups",
                     "Support requests")
    walk = Walk(pattern="pricing_info_then_follow_up_task")
    assert [f.selector.value for f in _fitting(sections, walk, CLIENT_WORK)] == \
        ["Client follow-ups"]
    colleague = Walk(pattern="offsite_rsvp_then_colleague_follow_up")
    assert [f.selector.value for f in _fitting(sections, colleague, TEAM_WORK)] == \
        ["Team follow-ups"]
    projects = named("Payroll migration", "CRM refresh", "Website launch")
    assert [f.selector.value for f in _fitting(projects, walk, CLIENT_WORK)] == \
        ["CRM refresh"]
    assert len(_fitting(projects, Walk(pattern="x"))) == 3  # (nothing to prefer: any)
    assert BY_NAME["follow_up_task"].steps[-1].filed == CLIENT_WORK
    assert BY_NAME["colleague_follow_up"].steps[-1].filed == TEAM_WORK
    # where no place says what it is about, none that says it is the other side's: a
    # colleague's contract follow-up went into "Sales follow-ups", a timesheet's into
    # "Support to-dos", and a customer's price-change follow-up into "Payroll migration"
    from compoworld.compose.steps import BACK_OFFICE, CLIENT_DESKS

    lists = named("Sales follow-ups", "Support to-dos", "Q3 backlog")
    contract = Walk(pattern="contract_signature_then_colleague_follow_up")
    assert [f.selector.value for f in _fitting(lists, contract, TEAM_WORK, CLIENT_DESKS)] \
        == ["Q3 backlog"]
    assert _fitting(lists[:2], contract, TEAM_WORK, CLIENT_DESKS)  # (no other: one of them)
    assert [f.selector.value for f in _fitting(named("Payroll migration", "Website launch"),
                                               walk, CLIENT_WORK, BACK_OFFICE)] == \
        ["Website launch"]
    assert BY_NAME["colleague_follow_up"].steps[-1].unfiled == CLIENT_DESKS
    assert BY_NAME["follow_up_task"].steps[-1].unfiled == BACK_OFFICE


def test_nothing_is_filed_in_a_section_that_has_ended():
    """A colleague's follow-up went into an Avaza section whose `EndDate` was in October,
    months before the world's today: a blind review read it as made up. A lookup takes a
    section or project still running, where the list holds one."""
    from compoworld.compose.records import Selector
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _current

    result = {"Sections": [
        {"SectionID": 1, "Title": "Team follow-ups", "EndDate": "2024-10-17T00:00:00Z"},
        {"SectionID": 2, "Title": "Team to-dos", "EndDate": "2025-06-30"},
        {"SectionID": 3, "Title": "Open items"}]}
    named = [Found(field="Sections[].SectionID", path=f"Sections[{i}].SectionID",
                   value=i + 1, type="avaza.sections.id",
                   selector=Selector(field="Title", value=s["Title"]))
             for i, s in enumerate(result["Sections"])]
    assert [f.value for f in _current(named, result)] == [2, 3]
    ended = {"Sections": result["Sections"][:1]}
    assert _current(named[:1], ended) == []  # (none running: the caller keeps them all)


def test_nothing_is_filed_in_a_closed_list():
    """A customer's follow-up card went into the Trello list "Sales List", `"closed":
    true` (archived), and the check pinned it: a blind review rejected the task. A
    lookup takes a list still open."""
    from compoworld.compose.records import Selector
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _current

    result = [{"id": "lis_0001", "name": "Client follow-ups", "closed": False},
              {"id": "lis_0002", "name": "Sales List", "closed": True},
              {"id": "lis_0003", "name": "Backlog"}]
    named = [Found(field="[].id", path=f"[{i}].id", value=item["id"],
                   type="trello.lists.id", selector=Selector(field="name", value=item["name"]))
             for i, item in enumerate(result)]
    assert [f.value for f in _current(named, result)] == ["lis_0001", "lis_0003"]


def test_a_texting_app_of_one_country_texts_no_number_of_another():
    """Telstra's Messaging API ("leveraging Australia's leading mobile network") texted
    +44 and +1 numbers, and The SMS Works (thesmsworks.co.uk) +81 ones: a blind review
    read 7 of 40 tasks so. A global app (Twilio) texts anyone."""
    from types import SimpleNamespace

    from compoworld.compose.values import Found
    from compoworld.compose.walk import _texts_abroad, home_country
    from compoworld.graph.depgraph import ToolNode

    apps = {"telstra": SimpleNamespace(source="openapi:telstra.com", title="Messaging API",
                                       description="SMS on Australia's leading network"),
            "smsworks": SimpleNamespace(source="openapi:thesmsworks.co.uk",
                                        title="The SMS Works API", description="Low-cost SMS"),
            "twilio": SimpleNamespace(source="openapi:twilio.com/api", title="Twilio - Api",
                                      description="This is the public Twilio REST API.")}
    world = SimpleNamespace(service=lambda name: SimpleNamespace(spec=apps[name]))
    assert [home_country(spec) for spec in apps.values()] == ["AU", "GB", None]

    def send(service: str) -> ToolNode:
        return ToolNode(name=f"{service}__send_sms", service=service, effect="create",
                        implementation="compiled", resource="messages",
                        params={"to": "phone"}, required=("to",), outputs={})

    def phone(number: str) -> Found:
        return Found(field="phone", path="phone", value=number, type="phone", selector=None)

    assert _texts_abroad(world, send("telstra"), phone("+447700900123"))
    assert not _texts_abroad(world, send("telstra"), phone("+61412345678"))
    assert _texts_abroad(world, send("smsworks"), phone("+818018272439"))
    assert not _texts_abroad(world, send("twilio"), phone("+818018272439"))

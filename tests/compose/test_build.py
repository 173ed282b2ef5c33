"""compose_task: a walk becomes a task; an optional paraphraser rewrites its instruction."""

from __future__ import annotations

import random

import pytest

from compoworld.compose.build import Rejected, compose_task
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.paraphrase import accept_paraphrase, leaked_values
from compoworld.compose.records import Task
from compoworld.compose.stage import start_tools
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


def first_task(library: ServiceLibrary, paraphrase=None) -> Task:
    """The first task composed (by walk seed) whose template text leaks nothing."""
    starts = sorted(start_tools(library.graph))
    for index in range(100):
        rng = random.Random(index)
        made = compose_task(library, 3, rng.choice(starts), rng, f"t{index}",
                            paraphrase=paraphrase)
        if not isinstance(made, Rejected) and not leaked_values(made.instruction,
                                                                 made.hidden_values):
            return made
    raise AssertionError("no task in 100 walks")


def test_the_same_seed_composes_the_same_task(library: ServiceLibrary):
    assert first_task(library) == first_task(library)


def test_an_accepted_paraphrase_replaces_the_instruction(library: ServiceLibrary):
    plain = first_task(library)
    seen = []

    def reword(text, visible, hidden, seed):
        seen.append(seed)
        candidate = "Kindly handle this: " + text
        return (candidate, None) if accept_paraphrase(candidate, visible, hidden) is None \
            else (text, "rejected")

    task = first_task(library, reword)
    assert task.instruction == "Kindly handle this: " + plain.instruction
    assert task.gold_calls == plain.gold_calls and seen


def test_a_rejected_paraphrase_keeps_the_template(library: ServiceLibrary):
    plain = first_task(library)
    task = first_task(library, lambda text, visible, hidden, seed: (text, "leaks a value"))
    assert task.instruction == plain.instruction


def test_values_of_one_item_share_one_selector():
    """A company's name picked by its fax and its fax by its name would make the request
    state both; every value of one list item is named by the first one's selector."""
    from compoworld.compose.build import _one_selector
    from compoworld.compose.records import Binding, GoldCall, Selector

    by_fax = Selector(field="Fax", value="+48745019359")
    by_name = Selector(field="CompanyName", value="Tailspin Toys")
    call = GoldCall(tool="books__create_supplier", service="books", effect="create",
                    arguments={"name": "Tailspin Toys", "fax": "+48745019359"},
                    bindings={"name": Binding(kind="hidden", type="company", step=0,
                                              field="Companies[].CompanyName",
                                              path="Companies[1].CompanyName", selector=by_fax),
                              "fax": Binding(kind="hidden", type="phone", step=0,
                                             field="Companies[].Fax", path="Companies[1].Fax",
                                             selector=by_name)},
                    result={"id": "s1"})
    _one_selector([call])
    assert [b.selector for b in call.bindings.values()] == [by_fax, by_fax]


def test_an_answer_the_first_read_already_gave_is_known():
    """"The customer name of Kofi Fournier's expense" is Kofi Fournier: his first and last
    name were in the user record the task began at, so no lookup found it."""
    from compoworld.compose.build import _known
    from compoworld.compose.records import GoldCall

    first = GoldCall(tool="pay__list_users", service="pay", effect="read", arguments={},
                     bindings={}, result={"content": [
                         {"firstName": "Willa", "lastName": "Lee", "phone": "+441234"},
                         {"firstName": "Kofi", "lastName": "Fournier",
                          "email": "kofi.fournier@monarch.com"}]})
    assert _known([first], "content[1]", "Kofi Fournier")
    assert _known([first], "content[1]", "kofi.fournier@monarch.com")
    assert not _known([first], "content[1]", "Willa Lee")  # another item's name
    assert not _known([first], "content[1]", "+441234")
    assert not _known([first], "content[1]", 1250.5)


def _flags(guard: str, workflow: str, calls: list, library: object = None) -> bool:
    """Whether `workflow`'s definition holds `guard` and the guard flags the walk `calls`:
    a guard applies to the workflows whose definitions name it, and to no other."""
    from compoworld.compose.guards import GUARDS
    from compoworld.compose.workflows import BY_NAME

    return guard in BY_NAME[workflow].guards and GUARDS[guard].test(library, calls)


def _stale(workflow: str, calls: list) -> bool:
    """Whether a copy of an event, or a reminder of it, is flagged as too late."""
    return _flags("past_copy", workflow, calls) or _flags("event_over", workflow, calls)


def test_an_update_on_an_order_needs_its_status():
    from compoworld.compose.records import Binding, GoldCall

    def chain(order: dict) -> list[GoldCall]:
        return [GoldCall(tool="shop__list_orders", service="shop", effect="read", arguments={},
                         bindings={}, result=[order]),
                GoldCall(tool="sms__send", service="sms", effect="create",
                         arguments={"to": "+14155550123"},
                         bindings={"to": Binding(kind="hidden", type="phone", step=0,
                                                 field="[].phone", path="[0].phone")},
                         result={"sid": "SM1"})]

    with_status = {"id": 1, "phone": "+14155550123", "status": "shipped"}
    without = {"id": 1, "phone": "+14155550123", "reference": "ORD-2024-0042"}
    assert not _flags("no_news", "order_followup", chain(with_status))
    assert _flags("no_news", "order_followup", chain(without))
    assert not _flags("no_news", "ticket_reply", chain(without))  # no order update


def test_an_event_that_is_over_is_neither_copied_nor_reminded_of():
    from compoworld.compose.records import Binding, GoldCall
    from compoworld.world.clock import NOW

    def chain(start: str) -> list[GoldCall]:
        event = {"id": "e1", "title": "Budget review", "start_time": start}
        return [GoldCall(tool="cal__list_events", service="cal", effect="read", arguments={},
                         bindings={}, result=[event]),
                GoldCall(tool="book__create_appointment", service="book", effect="create",
                         arguments={"start": start},
                         bindings={"start": Binding(kind="hidden", type="datetime", step=0,
                                                    field="[].start_time",
                                                    path="[0].start_time")},
                         result={"id": "a1"})]

    past = f"{NOW.year - 1}-02-13T10:00:00Z"
    ahead = f"{NOW.year + 1}-02-13T10:00:00Z"
    for name in ("event_copy", "event_reminder"):
        assert _stale(name, chain(past)) and not _stale(name, chain(ahead))
    assert not _stale("attendee_message", chain(past))  # (a follow-up may be)


def test_a_copied_event_carries_both_its_start_and_its_end():
    """An event copied "at the same time" into a calendar that takes a start and an end
    carries both (a copy holding only its end time says no time)."""
    from types import SimpleNamespace

    from compoworld.compose.records import Binding, GoldCall
    from compoworld.graph.depgraph import ToolNode

    def node(name: str, params: dict[str, str]) -> ToolNode:
        return ToolNode(name=name, service=name.split("__")[0], effect="create",
                        implementation="builtin", resource="appointments", params=params,
                        required=(), outputs={})

    def chain(carried: list[str], offered: dict[str, str]) -> tuple[object, list[GoldCall]]:
        event = {"id": "e1", "title": "Budget review", "start_time": "2025-03-10T10:00:00Z",
                 "end_time": "2025-03-10T11:00:00Z"}
        bindings = {p: Binding(kind="hidden", type="datetime", step=0, field=f"[].{p}_time",
                               path=f"[0].{p}_time") for p in carried}
        calls = [GoldCall(tool="cal__list_events", service="cal", effect="read", arguments={},
                          bindings={}, result=[event]),
                 GoldCall(tool="book__create_appointment", service="book", effect="create",
                          arguments={p: event[f"{p}_time"] for p in carried},
                          bindings=bindings, result={"id": "a1"})]
        nodes = {"book__create_appointment": node("book__create_appointment", offered)}
        return SimpleNamespace(graph=SimpleNamespace(nodes=nodes)), calls

    def half(carried: list[str], offered: dict[str, str], name: str = "event_copy") -> bool:
        library, calls = chain(carried, offered)
        return _flags("half_span", name, calls, library)

    both = {"start": "datetime", "end": "datetime", "title": "text"}
    assert half(["end"], both) and half(["start"], both)
    assert not half(["start", "end"], both)
    assert not half(["start"], {"start": "datetime", "title": "text"})  # (takes a start alone)
    assert not half(["end"], both, "attendee_message")  # (no copy)


def test_no_amount_is_relabelled_and_no_write_needs_two_account_ids():
    """A price carried into a currency the request makes up (39 "IDR" for a board game)
    and a write that needs two of our account ids said (Codat's company and connection)
    are rejected (no user says them)."""
    from compoworld.compose.build import _plumbing, _relabelled
    from compoworld.compose.records import Binding, GoldCall

    def write(**bindings: Binding) -> list[GoldCall]:
        return [GoldCall(tool="shop__list_products", service="shop", effect="read",
                         arguments={}, bindings={}, result=[{"id": "p1", "price": 39.0}]),
                GoldCall(tool="books__create_item", service="books", effect="create",
                         arguments=dict.fromkeys(bindings, "x"), bindings=bindings,
                         result={"id": "i1"})]

    carried = Binding(kind="hidden", type="money", step=0, field="[].price",
                      path="[0].price")
    assert _relabelled(write(price=carried, currency=Binding(kind="visible", type="currency")))
    assert not _relabelled(write(price=carried, currency=Binding(
        kind="hidden", type="currency", step=0, field="[].currency", path="[0].currency")))
    assert not _relabelled(write(price=carried))
    company = Binding(kind="visible", type="books.companies.id")
    connection = Binding(kind="visible", type="books.connections.id")
    assert _plumbing(write(companyId=company, connectionId=connection))
    assert not _plumbing(write(companyId=company))


def test_no_slot_under_way_is_blocked_and_no_closed_ticket_is_waiting():
    """No meeting of 08:45-09:15 "blocked out" at 09:00; no "a customer is waiting" on an
    inactive ticket."""
    from datetime import timedelta

    from compoworld.compose.records import Binding, GoldCall
    from compoworld.world.clock import NOW

    def chain(record: dict) -> list[GoldCall]:
        return [GoldCall(tool="cal__list_events", service="cal", effect="read", arguments={},
                         bindings={}, result=[record]),
                GoldCall(tool="book__create_appointment", service="book", effect="create",
                         arguments={"title": "x"},
                         bindings={"title": Binding(kind="hidden", type="title", step=0,
                                                    field="[].title", path="[0].title")},
                         result={"id": "a1"})]

    def at(minutes: int) -> str:
        return (NOW + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")

    copy = "event_copy"
    assert _stale(copy, chain({"title": "Sync", "start_time": at(-15)}))
    assert not _stale(copy, chain({"title": "Sync", "start_time": at(60 * 24)}))
    reply = "ticket_reply"
    assert _flags("ticket_closed", reply, chain({"subject": "Login delay", "status": "inactive"}))
    assert not _flags("ticket_closed", reply, chain({"subject": "Login delay", "status": "open"}))
    for parked in ("suspended", "pending", "on_hold", "On hold"):  # (parked: none waits)
        assert _flags("ticket_closed", reply,
                      chain({"subject": "Login delay", "status": parked})), parked
    assert not _flags("ticket_closed", reply,
                      chain({"subject": "Login delay", "status": "in_progress"}))
    assert _flags("ticket_closed", reply, chain({"subject": "Login delay", "status": "open",
                                   "closedAt": "2024-06-14T14:05:00Z"}))  # (closed: none waits)
    assert not _flags("ticket_closed", reply, chain({"subject": "Login delay", "status": "open",
                                       "closedAt": None}))
    # "Refund problem needs more eyes on it", of a GitHub issue whose state is closed: a
    # blind review rejected it, since nobody asks the team to look at a settled issue
    share = "issue_to_channel"
    assert _flags("ticket_closed", share, chain({"title": "Refund problem", "state": "closed"}))
    assert not _flags("ticket_closed", share, chain({"title": "Refund problem",
                                                     "state": "open"}))


def test_a_booking_allows_the_guest_to_be_added_first() -> None:
    """An agent that adds the customer to the booking app before booking them did what was
    asked ("nothing else changes" must not fail it): the guard allows one new
    person in the people lists of each app a meeting is booked in, says so, and still
    fails two, or a person added anywhere else."""
    from types import SimpleNamespace

    from compoworld.compose.build import _guest_first
    from compoworld.compose.records import Criterion, GoldCall
    from compoworld.reward.rubric import evaluate_criterion
    from compoworld.world.state import State

    schemas = {"customers": {"type": "object"}, "appointments": {"type": "object"},
               "notes": {"type": "object"}}
    start = State(schemas, {"customers": {}, "appointments": {}, "notes": {}})
    end = State(schemas, {"customers": {}, "appointments": {"a1": {"id": "a1"}}, "notes": {}})
    node = SimpleNamespace(resource="appointments", name="book__create_appointment")
    library = SimpleNamespace(graph=SimpleNamespace(nodes={node.name: node}),
                              infos={"book": SimpleNamespace(app="Bookings")})
    call = GoldCall(tool=node.name, service="book", effect="create", arguments={},
                    bindings={}, result={"id": "a1"})
    guard = Criterion(id="c1", kind="no_collateral_change", service=None,
                      description="Nothing else changes.",
                      params={"allowed": {"book": {"appointments": {"created": 1}}}})
    rubric = _guest_first(library, [call], {"book": end}, [guard])
    allowed = rubric[-1].params["allowed"]["book"]
    assert allowed["customers"] == {"created": 1} and allowed["appointments"] == {"created": 1}
    assert "adding the person to Bookings before booking them is fine" in rubric[-1].description

    def run(customers: int, notes: int = 0) -> bool:
        state = State(schemas, {
            "customers": {f"c{i}": {"id": f"c{i}"} for i in range(customers)},
            "appointments": {"a1": {"id": "a1"}},
            "notes": {f"n{i}": {"id": f"n{i}"} for i in range(notes)}})
        return evaluate_criterion(rubric[-1], {"book": start}, {"book": state}, "")

    assert run(0) and run(1)
    assert not run(2) and not run(0, notes=1)
    assert guard.params["allowed"]["book"] == {"appointments": {"created": 1}}  # (a copy)


def test_a_booking_check_takes_the_guest_by_their_id_where_they_were_added_first() -> None:
    """An agent that adds the customer to the booking app first books them by the new id,
    which a check of their email alone failed."""
    from types import SimpleNamespace

    from compoworld.compose.build import _guest_first
    from compoworld.compose.records import Criterion, GoldCall
    from compoworld.world.state import State

    schemas = {"customers": {"type": "object", "properties": {"id": {}, "email": {}}},
               "appointments": {"type": "object"}}
    end = State(schemas, {"customers": {}, "appointments": {"a1": {"id": "a1"}}})
    node = SimpleNamespace(resource="appointments", name="book__create_appointment",
                           params={"customerId": "book.customers.id", "email": "email"})
    library = SimpleNamespace(graph=SimpleNamespace(nodes={node.name: node}),
                              infos={"book": SimpleNamespace(app="Bookings")})
    call = GoldCall(tool=node.name, service="book", effect="create",
                    arguments={"email": "ana@acme.test"}, bindings={}, result={"id": "a1"})
    booking = Criterion(id="c1", kind="record_created", service="book",
                        description="An appointment is created in Bookings with customerId "
                                    "'cus_0004' and email 'ana@acme.test'.",
                        params={"collection": "appointments",
                                "fields": {"customerId": "cus_0004", "email": "ana@acme.test"}})
    guard = Criterion(id="c2", kind="no_collateral_change", service=None,
                      description="Nothing else changes.",
                      params={"allowed": {"book": {"appointments": {"created": 1}}}})
    checked, _ = _guest_first(library, [call], {"book": end}, [booking, guard])
    assert checked.params["by_reference"] == {
        "email": {"field": "customerId", "collection": "customers", "key": "email"}}
    assert checked.params["fields"] == {"email": "ana@acme.test"}  # (either names them)
    assert checked.description == (
        "An appointment is created in Bookings with email 'ana@acme.test'. The booking may "
        "name the person by customerId instead of email: the customer in Bookings with that "
        "email.")
    assert "by_reference" not in booking.params  # (a copy)


@pytest.mark.parametrize(("status", "unsettled"), [
    ("PAID", False), ("succeeded", False), ("Draft", True), ("unpaid", True),
    ("overdue", True), ("refunded", True)])
def test_no_receipt_goes_out_for_what_is_not_paid(status: str, unsettled: bool) -> None:
    """A receipt (or a payment confirmation) is sent for an invoice or payment its record
    says is paid: an unpaid, draft or refunded one is no reason for one; a payment only
    booked in the ledger, with no message, is not held to it."""
    from compoworld.compose.records import Binding, GoldCall

    invoice = {"id": "inv_1", "title": "Q4 consulting", "status": status,
               "email": "ana.ruiz@acme.com"}
    read = GoldCall(tool="books__list_invoices", service="books", effect="read",
                    arguments={}, bindings={}, result={"invoices": [invoice]})
    send = GoldCall(tool="mail__send_email", service="mail", effect="create",
                    arguments={"To": invoice["email"]},
                    bindings={"To": Binding(kind="hidden", type="email", step=0,
                                            path="invoices[0].email", field="email")},
                    result={"id": "ema_1"})
    assert _flags("unpaid", "invoice_receipt", [read, send]) is unsettled
    assert _flags("unpaid", "invoice_payment", [read, send]) is False
    # ... nor for one dated, or paid, after today ("Payment came in" is not yet true)
    from compoworld.world.clock import NOW

    later = {**invoice, "status": "PAID", "PayDate": f"{NOW.year + 1}-01-05T10:00:00Z"}
    read.result["invoices"][0] = later
    assert _flags("unpaid", "invoice_receipt", [read, send]) is True


def test_a_receipt_goes_out_only_with_the_amount_it_is_for() -> None:
    """A receipt names what was paid: an invoice with no amount to vouch for (none given,
    or a net above its gross) is no receipt to send; a workflow with no receipt is not held
    to it (no "Here is your receipt." with nothing in it)."""
    from compoworld.compose.records import Binding, GoldCall

    def calls(invoice: dict) -> list[GoldCall]:
        read = GoldCall(tool="books__list_invoices", service="books", effect="read",
                        arguments={}, bindings={}, result={"invoices": [invoice]})
        send = GoldCall(tool="mail__send_email", service="mail", effect="create",
                        arguments={"To": "ana.ruiz@acme.com"},
                        bindings={"To": Binding(kind="hidden", type="email", step=0,
                                                path="invoices[0].email", field="email")},
                        result={"id": "ema_1"})
        return [read, send]

    paid = {"id": "inv_1", "title": "Q4 consulting", "status": "PAID",
            "email": "ana.ruiz@acme.com", "total": 306.12, "currency": "USD"}
    assert not _flags("no_amount", "invoice_receipt", calls(paid))
    no_sum = {k: v for k, v in paid.items() if k != "total"}
    assert _flags("no_amount", "invoice_receipt", calls(no_sum))
    assert _flags("no_amount", "invoice_receipt", calls({**paid, "net": 400.0}))
    assert not _flags("no_amount", "order_followup", calls(no_sum))


def test_an_order_update_gives_where_the_order_stands() -> None:
    """An update on an order says its status; one with only a payment status says nothing
    of the order (no "your order is now incomplete" of a payment INCOMPLETE)."""
    from compoworld.compose.records import Binding, GoldCall

    def chain(order: dict) -> list[GoldCall]:
        read = GoldCall(tool="shop__orders", service="shop", effect="read", arguments={},
                        bindings={}, result={"orders": [order]})
        text = GoldCall(tool="sms__send", service="sms", effect="create",
                        arguments={"to": "+14155550100"},
                        bindings={"to": Binding(kind="hidden", type="phone", step=0,
                                                path="orders[0].phone", field="phone")},
                        result={"id": "m1"})
        return [read, text]

    plan = "order_followup"
    phone = "+14155550100"
    assert not _flags("no_news", plan, chain({"phone": phone, "fulfillmentStatus": "SHIPPED",
                                          "paymentStatus": "INCOMPLETE"}))
    assert _flags("no_news", plan, chain({"phone": phone, "paymentStatus": "INCOMPLETE"}))
    assert _flags("no_news", plan, chain({"phone": phone}))
    assert not _flags("no_news", plan, chain({"phone": phone, "status": "shipped"}))


def test_a_booking_of_a_person_just_added_is_checked_as_theirs():
    """A job adds a customer, then books them by the id the app gave them. The booking's
    check had held its times alone ("An appointment is created ... with endDateTime ...
    and startDateTime ..."), so a booking for anyone passed; it now names the customer,
    by the email of the record its id names."""
    from compoworld.compose.build import _made_references
    from compoworld.compose.records import Binding, Criterion, GoldCall
    from compoworld.reward.rubric import evaluate_criterion
    from compoworld.world.state import State

    schemas = {"customers": {"type": "object"}, "appointments": {"type": "object"}}
    lena = {"id": "cus_6", "email": "lena@juniper.example", "name": "Lena Wagner"}
    other = {"id": "cus_1", "email": "bruno@brightline.example", "name": "Bruno Lopez"}
    times = {"startDateTime": "2025-03-14T11:00:00Z", "endDateTime": "2025-03-14T12:00:00Z"}
    calls = [
        GoldCall(tool="crm__list", service="shop", effect="read", arguments={},
                 bindings={}, result={"data": [lena]}),
        GoldCall(tool="shop__create_customer", service="shop", effect="create",
                 arguments={"email": lena["email"], "name": lena["name"]},
                 bindings={"email": Binding(kind="hidden", type="email", step=0,
                                            field="data[].email", path="data[0].email")},
                 result=lena),
        GoldCall(tool="shop__create_appointment", service="shop", effect="create",
                 arguments={"customerId": "cus_6", **times},
                 bindings={"customerId": Binding(kind="hidden", type="shop.customers.id",
                                                 step=1, field="id", path="id")},
                 result={"id": "app_1", "customerId": "cus_6", **times}),
    ]
    rubric = [Criterion(id="c1", kind="record_created", service="shop", description="a booking",
                        params={"collection": "appointments", "fields": dict(times)}),
              Criterion(id="c2", kind="record_created", service="shop", description="a customer",
                        params={"collection": "customers",
                                "fields": {"email": lena["email"]}})]
    start = {"shop": State(schemas, {"customers": {"cus_1": other}, "appointments": {}})}

    def booked(whom: str) -> dict[str, State]:
        return {"shop": State(schemas, {
            "customers": {"cus_1": other, "cus_6": lena},
            "appointments": {"app_1": {"id": "app_1", "customerId": whom, **times}}})}
    checked = _made_references(calls, booked("cus_6"), rubric)
    booking = checked[0]
    assert booking.params["by_reference"] == {
        "email": {"field": "customerId", "collection": "customers", "key": "email"}}
    assert "lena@juniper.example" in booking.description and checked[1] == rubric[1]
    assert evaluate_criterion(booking, start, booked("cus_6"), "")
    assert not evaluate_criterion(booking, start, booked("cus_1"), "")  # (someone else)
    assert evaluate_criterion(rubric[0], start, booked("cus_1"), "")  # (as it was)
    # (a person's address under another name: SalesLoft's `email_address`)
    renamed = {"id": "cus_6", "email_address": lena["email"], "name": lena["name"]}
    later = {"shop": State(schemas, {"customers": {"cus_1": other, "cus_6": renamed},
                                     "appointments": {}})}
    assert _made_references(calls, later, rubric)[0].params["by_reference"] == {
        "email_address": {"field": "customerId", "collection": "customers",
                          "key": "email_address"}}


def test_an_event_earlier_today_is_over_by_the_clock():
    """The world's now is 09:00 UTC on March 3: an appointment at 08:15 that morning was
    texted as "still ahead", since only days were compared. A moment is compared by the
    clock (a time with no zone as UTC), a day by the day."""
    from compoworld.compose.references import before_today

    assert before_today("2025-03-03T08:15:00Z") and before_today("2025-03-03T08:15:00")
    assert not before_today("2025-03-03T10:00:00+00:00")
    assert before_today("2025-03-03T10:00:00+02:00")  # (08:00 UTC)
    assert before_today("2025-03-02") and not before_today("2025-03-03")
    assert not before_today("") and not before_today("2025-03-04T08:00:00Z")

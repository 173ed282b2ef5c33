"""Walks seeded from workflow patterns: every call fits its step, values move by role, the
task records its pattern and domain; free walks stay available."""

from __future__ import annotations

import random

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.patterns import (
    Apps,
    fits,
    keeps_customers,
    patterns_from,
    vendor,
)
from compoworld.compose.records import Task
from compoworld.compose.stage import start_tools
from compoworld.compose.steps import CONTACT, LEAD
from compoworld.compose.walk import needs_a_search, random_walk
from compoworld.compose.workflow import MAKE, Step, Workflow
from compoworld.compose.workflows import BY_NAME, WORKFLOWS
from compoworld.graph.depgraph import EDGE_THRESHOLD, ToolNode
from compoworld.graph.semtypes import is_entity_id
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec
from tests.compose.walk_parts import reader


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    starts = sorted(start_tools(library.graph, patterned=True))
    made = []
    for index in range(300):  # a workflow drawn, then a start of it, as a shard draws
        rng = random.Random(index)
        start = rng.choice(starts)
        plans = library.patterns_at(start)  # (in the apps each workflow may use)
        task = compose_task(library, 7, start, rng, f"t{index}", patterned=True,
                            workflow=rng.choice(plans)) if plans else None
        if isinstance(task, Task):
            made.append(task)
    return made


def test_pattern_names_are_unique_and_each_starts_with_a_read():
    assert len(BY_NAME) == len(WORKFLOWS)
    assert all(p.steps[0].effects == ("read",) and len(p.steps) >= 2 for p in WORKFLOWS)


def test_patterned_starts_begin_a_pattern_and_need_no_record_id(library):
    starts = start_tools(library.graph, patterned=True)
    assert starts and set(starts) < set(start_tools(library.graph))
    assert all(patterns_from(library.graph.nodes[name], WORKFLOWS) for name in starts)


def test_every_call_fits_its_step_and_links_score_above_the_threshold(library, tasks):
    assert len(tasks) >= 10
    graph = library.graph
    for task in tasks:
        pattern = BY_NAME[task.pattern]
        assert task.domain == pattern.domain
        calls = [c for i, c in enumerate(task.gold_calls) if not lookup(task, i)]
        assert len(calls) == len(pattern.steps)
        for call, step in zip(calls, pattern.steps, strict=True):
            assert fits(graph.nodes[call.tool], step), (task.pattern, call.tool)
            for param, binding in call.bindings.items():
                if binding.kind == "hidden":
                    source = task.gold_calls[binding.step].tool
                    assert graph.score(source, binding.field, call.tool, param,
                                       binding.type) >= EDGE_THRESHOLD
        assert len(set(task.services)) >= 2


def lookup(task: Task, step: int) -> bool:
    """Whether call `step` is a lookup of an id a later write takes (no step of its own)."""
    uses = [b for c in task.gold_calls for b in c.bindings.values()
            if b.kind == "hidden" and b.step == step]
    return step > 0 and task.gold_calls[step].effect == "read" and bool(uses) \
        and all(is_entity_id(b.type) for b in uses)


def test_a_workflow_follows_one_record_of_each_list(library, tasks):
    """Every value a task carries from one list comes from one item of it: the refund and
    the notice are about the same payment, the contact and the welcome the same person."""
    for task in tasks:
        items: dict[int, set[str]] = {}
        for call in task.gold_calls:
            for binding in call.bindings.values():
                if binding.kind == "hidden" and binding.path and "[" in binding.path:
                    items.setdefault(binding.step, set()).add(
                        binding.path[: binding.path.rfind("]") + 1])
        assert all(len(heads) == 1 for heads in items.values()), (task.pattern, items)


def test_writes_state_plain_facts(tasks):
    for task in tasks:
        for call in task.gold_calls:
            for param, binding in call.bindings.items():
                if binding.kind == "visible":
                    assert not isinstance(call.arguments[param], list | dict), (call.tool, param)


def test_refunds_are_made_where_the_payment_was(library):
    # (walked, not composed: a refund's chain reads the customer's payment midway, which no
    # request of ours says yet, so compose rejects it; see the test below)
    plan = BY_NAME["ticket_refund_notify"]
    starts = sorted(t for t in start_tools(library.graph, patterned=True)
                    if plan in library.patterns_at(t))
    refunds = 0
    for seed in range(40):
        rng = random.Random(seed)
        walk = random_walk(library.graph, library.world(7), rng.choice(starts), rng,
                           plan=plan, apps=library.apps())
        if walk.failure:
            continue
        refund = next(c for c in walk.calls if "transfer" in c.tool and c.effect != "read")
        paid = [c for c in walk.calls[:walk.calls.index(refund)] if c.effect == "read"
                and c.service == refund.service and "transfer" in c.tool]
        assert paid, [c.tool for c in walk.calls]  # the payment found where it is refunded
        refunds += 1
    assert refunds >= 3


def test_a_chain_no_request_of_ours_says_is_rejected(library, tasks):
    """A workflow that reads a record midway (the customer's payment a refund copies) has
    no scenario; goal.py's writer said it field by field ("the customer in OnSched Consumer
    whose email is that person's email", which no person says), so compose rejects it."""
    assert not any(t.pattern == "ticket_refund_notify" for t in tasks)
    plan = BY_NAME["ticket_refund_notify"]
    start = next(t for t in sorted(start_tools(library.graph, patterned=True))
                 if plan in library.patterns_at(t))
    reasons = {str(compose_task(library, 7, start, random.Random(seed), "t", patterned=True))
               for seed in range(12)}
    assert any("no request a person would make" in r for r in reasons), reasons


def test_a_free_walk_records_no_pattern(library):
    starts = sorted(start_tools(library.graph))
    for index in range(50):
        rng = random.Random(index)
        task = compose_task(library, 7, rng.choice(starts), rng, f"f{index}")
        if isinstance(task, Task):
            assert task.pattern is None
            return
    pytest.fail("no free walk made a task in 50 tries")


def test_messages_say_something_and_a_write_carries_one_amount(library, tasks):
    """A welcome or a receipt is a message with words in it (the agent's own, about the
    workflow's gist, or the text it passes on), not an empty conversation; and a write
    carries one amount of the record, never a total beside a "total in USD" the world need
    not keep equal."""
    messages = 0
    for task in tasks:
        pattern = BY_NAME[task.pattern]
        calls = [c for i, c in enumerate(task.gold_calls) if not lookup(task, i)]
        for call, step in zip(calls, pattern.steps, strict=True):
            if call.effect == "read":
                continue
            kinds = [b.kind for b in call.bindings.values()]
            if step.entity == "message" and "create" in step.effects:
                messages += 1  # (the agent's own words, or a text it carries: an issue's
                # body posted into a team channel)
                assert "free" in kinds or any(
                    b.kind == "hidden" and b.type == "text" for b in call.bindings.values()), (
                    task.pattern, call.tool, call.arguments)
            amounts = [b for b in call.bindings.values() if b.kind == "hidden"
                       and b.type == "money"]
            assert len(amounts) <= 1, (call.tool, call.arguments)
    assert messages >= 5


@pytest.mark.parametrize(("domain", "title", "description", "keeps"), [
    ("customer_relation", "SalesLoft", "", True),
    ("developer_tools", "Apideck CRM", "Welcome to the CRM API.", True),
    ("collaboration", "OnSched Consumer", "Custom apps for Online Booking.", True),
    ("collaboration", "OnSched Setup", "Custom apps for Online Booking.", False),  # (its
    # configuration side: its customers are no list anyone keeps)
    ("other", "Google Mirror", "Interacts with Glass users via the timeline.", False),
    ("telecom", "Twilio Conversations", "This is the public Twilio REST API.", False),
    ("education", "Learnifier", "Learnifier", False),
    ("developer_tools", "Snyk", "Available to customers on Business plans.", False),
])
def test_an_app_keeps_customers_by_its_category_or_its_words(domain, title, description, keeps):
    assert keeps_customers(domain, title, description) is keeps


def test_customer_steps_take_customer_apps_and_a_colleague_any_work_app():
    apps = Apps(work=frozenset({"crm", "mirror", "team"}), customers=frozenset({"crm"}))
    lead, hire = BY_NAME["lead_to_contact"].steps[1], BY_NAME["new_hire"].steps[1]
    assert apps.allow("crm", lead) and not apps.allow("mirror", lead)
    assert apps.allow("mirror", hire) and apps.allow("team", hire)
    assert not apps.allow("elsewhere", hire)
    message = BY_NAME["lead_welcome"].steps[1]
    assert apps.allow("team", message)  # a message may go through any work app
    assert vendor("onsched_com_setup") == vendor("onsched_com_consumer") != vendor("avaza_com")


def test_a_customer_s_invoice_is_no_supplier_bill():
    from compoworld.graph.depgraph import ToolNode

    def node(name: str, resource: str) -> ToolNode:
        return ToolNode(name=name, service="books", effect="create", implementation="compiled",
                        resource=resource, params={"amount": "money"}, required=("amount",),
                        outputs={"id": "books.invoices.id"})

    raise_it = BY_NAME["order_invoice"].steps[1]
    def reader(resource: str) -> ToolNode:
        return ToolNode(name=f"app__list_{resource}", service="app", effect="read",
                        implementation="compiled", resource=resource, params={},
                        required=(), outputs={"data[].email": "email"})

    contact, company = BY_NAME["contact_lookup"].steps[0], BY_NAME["company_account"].steps[0]
    assert fits(reader("customers"), contact) and fits(reader("companies"), company)
    assert not fits(reader("senders"), contact)  # a Postmark sender is our own identity
    assert not fits(reader("merchants"), company)  # a POS's merchant is our own shop
    apps = Apps(work=frozenset({"maps", "cal"}), customers=frozenset(),
                calendars=frozenset({"cal"}))
    event = BY_NAME["event_copy"].steps[1]
    assert apps.allow("cal", event) and not apps.allow("maps", event)
    assert fits(node("books__create_invoice", "invoices"), raise_it)
    assert not fits(node("books__bills_add", "bills"), raise_it)
    assert fits(node("books__bills_add", "bills"), Step(("create",), "invoice"))


def test_a_booked_payment_carries_whose_money_it_is(library):
    """A payment booked in the books carries the amount and a party (the payer's name,
    email or company); an amount alone books money from nobody. A booking of the record
    itself (its id) names its party through it."""
    from compoworld.compose.patterns import carries

    graph, book = library.graph, BY_NAME["payment_ledger"].steps[1]
    source = "payments__get_transfer"
    assert book.party and not carries(graph, book, [(source, "amount", "money")])
    assert carries(graph, book, [(source, "amount", "money"), (source, "payee_email", "email")])
    assert not carries(graph, book, [(source, "payee_email", "email")])  # and the amount
    assert carries(graph, book, [(source, "id", "payments.transfers.id")])


def test_a_pattern_is_feasible_only_where_its_second_step_can_carry_what_it_needs(library):
    """A start that cannot hand the next step its amount, or any party the step names, does
    not begin the pattern: walks no tool could finish are not tried."""
    import dataclasses

    from compoworld.compose.patterns import feasible

    graph, welcome = library.graph, BY_NAME["lead_welcome"]
    [start] = [n for n in graph.nodes if n == "crm__get_contact"]
    assert feasible(graph, start, welcome)

    def variant(**changes) -> object:
        return dataclasses.replace(welcome, steps=(welcome.steps[0], dataclasses.replace(
            welcome.steps[1], **changes)))

    assert feasible(graph, start, variant(party=("email",)))
    assert not feasible(graph, start, variant(needs=("amount",)))
    assert not feasible(graph, start, variant(party=("company",), takes=("email",)))
    assert not feasible(graph, start, welcome, allow=lambda service, step: False)


def test_a_meeting_booked_with_someone_names_them_not_only_their_phone():
    """An appointment "with them" carries their name or email: a phone alone names no one
    (a booking that held only a number named no one; one a distractor's customer shared)."""
    from compoworld.compose.patterns import _covers

    for name in ("meeting_invite", "contact_meeting_message"):
        step = BY_NAME[name].steps[1]
        assert not _covers(step, {"phone"})
        assert _covers(step, {"phone", "email"}) and _covers(step, {"name"})


def test_a_market_data_feed_s_companies_are_no_partners():
    """Polygon lists companies with their stock symbol, exchange and market cap: no
    business keeps its partners there (no "Its details are in Polygon")."""
    from compoworld.graph.depgraph import ToolNode

    def lister(*fields: str) -> ToolNode:
        return ToolNode(name="app__list_companies", service="app", effect="read",
                        implementation="builtin", resource="companies", params={},
                        required=(), outputs={f"[].{f}": "string" for f in fields})

    company = BY_NAME["company_account"].steps[0]
    assert not fits(lister("name", "symbol", "exchange", "marketcap"), company)
    assert fits(lister("name", "phone", "address"), company)
    hris = lister("name", "phone", "address")
    hris = ToolNode(**{**{f: getattr(hris, f) for f in hris.__dataclass_fields__},
                       "service": "apideck_com_hris", "name": "apideck_com_hris__list"})
    assert not fits(hris, company)  # (an HR app's companies are our own employers)
    account = BY_NAME["company_account"].steps[1]  # ... nor a partner's new home (reviews

    def maker(service: str, resource: str) -> ToolNode:  # 145, 146: 8 tasks), and a client
        return ToolNode(name=f"{service}__add_{resource}", service=service,  # is no supplier
                        effect="create", implementation="builtin", resource=resource,
                        params={}, required=(), outputs={})

    assert fits(maker("apideck_com_crm", "companies"), account)
    assert not fits(maker("apideck_com_hris", "companies"), account)
    assert not fits(maker("apideck_com_accounting", "suppliers"), account)


def test_a_product_variant_is_no_listing():
    from compoworld.graph.depgraph import ToolNode

    def maker(name: str, resource: str) -> ToolNode:
        return ToolNode(name=f"cart__{name}", service="cart", effect="create",
                        implementation="builtin", resource=resource, params={},
                        required=(), outputs={})

    for pattern in ("product_listing", "product_listing_announce", "product_listing_inventory"):
        step = BY_NAME[pattern].steps[1]
        assert fits(maker("product_add", "products"), step)
        assert not fits(maker("product_variant_add", "products"), step)


def test_a_set_up_note_may_say_it_in_any_of_the_ways_people_do():
    """"You can now book with us online" tells a customer they are set up as well as "all
    set" (a check that wanted "set" or "ready" failed it)."""
    from compoworld.compose.patterns import topic_of
    from compoworld.reward.rubric import value_in_text

    forms = topic_of("Hi Ana, you're all set up on our side.")
    assert "set" in forms
    for said in ("You can now book with us online.", "Everything is ready for you.",
                 "We've added you to our booking system.", "All done on our side!"):
        assert any(value_in_text(form, said) for form in forms), said
    assert not any(value_in_text(form, "Thanks for your order.") for form in forms)


def test_a_ticket_lives_in_a_helpdesk_or_an_issue_tracker():
    """A customer's ticket is opened in a helpdesk, a CRM or an issue tracker, never in a
    network-management app's support desk (its users' tickets to its maker: a lead's
    problem filed as a Mist ticket)."""
    from compoworld.compose.patterns import keeps_tickets

    assert keeps_tickets("support", "Zendesk") and keeps_tickets("developer_tools", "Jira")
    assert keeps_tickets("other", "Acme Helpdesk")
    assert not keeps_tickets("enterprise", "Mist") and not keeps_tickets("cloud", "Linode")
    apps = Apps(frozenset({"mist", "desk"}), frozenset(), desks=frozenset({"desk"}))
    ticket = BY_NAME["customer_ticket"].steps[1]
    assert apps.allow("desk", ticket) and not apps.allow("mist", ticket)


def test_a_hotel_stay_is_no_appointment():
    """Impala Hotel Booking's reservations were "confirmed" to the client as appointments,
    and an agenda was asked for one as for a meeting: an app named for hotels, flights or
    travel keeps no meetings, and no meeting workflow begins in it."""
    from compoworld.compose.patterns import keeps_calendar

    assert keeps_calendar("ecommerce", "OnSched Consumer") and keeps_calendar(None, "Calendar")
    assert not keeps_calendar("ecommerce", "Impala Hotel Booking")
    assert not keeps_calendar("transport", "Flight Booking") and not keeps_calendar(
        "location", "Maps")
    apps = Apps(frozenset({"impala", "onsched"}), frozenset(), calendars=frozenset({"onsched"}))
    booking = BY_NAME["booking_confirmation"].steps[0]
    assert apps.allow("onsched", booking) and not apps.allow("impala", booking)


def test_a_colleague_is_kept_where_a_business_keeps_its_people():
    """A farm-machinery platform's users (AGCO), a fake-identity generator's (PhantAuth) or a
    social network's were read as a staff directory ("welcome our new colleague, you'll
    find them in AGCO"): colleagues are read and added in team, project, code, CRM, help
    desk and HR apps."""
    from compoworld.compose.steps import COLLEAGUE
    from compoworld.specs.categories import keeps_staff

    assert keeps_staff("collaboration", "Slack") and keeps_staff("developer_tools", "GitHub")
    assert keeps_staff("other", "BambooHR HR") and keeps_staff("payment", "Square")
    assert not keeps_staff("ecommerce", "AGCO") and not keeps_staff("other", "PhantAuth")
    assert not keeps_staff("social", "Instagram")
    apps = Apps(frozenset({"slack", "agco", "crm"}), frozenset({"crm"}),
                staff=frozenset({"slack"}))
    assert apps.allow("slack", COLLEAGUE) and not apps.allow("agco", COLLEAGUE)
    assert apps.allow("crm", BY_NAME["lead_to_contact"].steps[0])  # (customers: as before)


def test_a_government_s_app_is_no_company_s():
    """GOV.UK Pay took "a company's customers'" payments and refunds: a public body's
    payments and registers are no work app of ours (they stay as distractors)."""
    from compoworld.compose.patterns import public_sector

    assert public_sector("payments_service_gov_uk_payments_d363c163")
    assert public_sector("va_gov_facilities") and public_sector("gov_bc_ca_geocoder_eb49998f")
    assert not public_sector("stripe_com") and not public_sector("govee_io")


def test_a_patient_or_a_student_is_no_customer_of_ours():
    """A meeting's guest was looked up among drchrono's patients ("its contact's home
    phone? You'll find its contact in drchrono.com"): a customer step reads no patients,
    students or passengers."""
    from compoworld.compose.patterns import fits

    step = BY_NAME["lead_to_contact"].steps[0]
    assert fits(reader("crm__list_contacts", "contacts"), step)
    assert not fits(reader("drchrono__patients_list", "patients"), step)
    assert not fits(reader("school__list_students", "students"), step)


def test_a_thank_you_is_checked_for_its_thanks_not_its_order():
    """A thank-you for an order was checked only for "order": "your order was cancelled"
    passed as thanks."""
    from compoworld.compose.patterns import topic_of
    from compoworld.reward.rubric import value_in_text

    forms = topic_of("Hello, just a short note thanking you for your order.")
    assert "thank" in forms and "order" not in forms
    assert any(value_in_text(form, "Thanks so much for ordering with us!") for form in forms)
    assert not any(value_in_text(form, "Your order was cancelled.") for form in forms)


def test_a_receipt_that_thanks_them_is_checked_as_a_receipt():
    """A receipt's note "Thank you for your payment, here is your receipt" was checked for
    "thank", which the user never asked for: a receipt says "receipt"."""
    from compoworld.compose.patterns import topic_of

    assert topic_of("Thank you for your payment of 184.26 SGD: here is your receipt.")[0] == \
        "receipt"


def test_a_step_that_finds_no_call_says_why(library):
    """"no tool for step 2" was all a team whose tools composed nothing learnt: the failure
    now says why the step's tries failed (no app's tool takes what was found, a call needs
    values nobody would state, everyone found is already there...)."""
    plan = Workflow(name="lead_ticket", domain="support", purpose="open a ticket for a lead",
                    steps=(LEAD, Step(MAKE, "ticket", CONTACT)))
    starts = sorted(t for t in start_tools(library.graph) if fits(library.graph.nodes[t],
                                                                  plan.steps[0]))
    failures = {random_walk(library.graph, library.world(7), starts[seed % len(starts)],
                            random.Random(seed), plan=plan, apps=library.apps()).failure
                for seed in range(12)}
    stuck = [f for f in failures if f and "no tool for step 2" in f]
    assert stuck and all(f.endswith(")") and " (" in f for f in stuck), failures


def test_a_read_that_needs_a_search_term_begins_no_workflow():
    """Stripe's `get_customers_search` (a required `query`) began 9 walks of a run and every
    one failed: a request would name its customer by a search term, which no person says,
    so the walker refuses it. Such a read is no start of a patterned run; one whose term
    may be left out still is."""
    def node(required: tuple[str, ...]) -> ToolNode:
        return ToolNode("shop__search_customers", "shop", "read", "compiled", "customers",
                        {"query": "string", "limit": "integer"}, required,
                        {"data[].email": "email"})

    assert needs_a_search(node(("query",)))
    assert not needs_a_search(node(()))
    assert not needs_a_search(node(("limit",)))


def test_a_message_step_writes_its_own_note_not_a_stored_template():
    """Mandrill's `send_template_message`, called with no template, was checked as "A
    template message is sent": an agent sending the same email by `send_message` failed."""
    from compoworld.compose.patterns import fits
    from compoworld.compose.steps import send
    from compoworld.graph.depgraph import ToolNode

    def sender(name: str) -> ToolNode:
        return ToolNode(f"mail__{name}", "mail", "action", "modeled", "messages",
                        {"message.to[0].email": "email", "message.text": "text"}, (), {})

    assert fits(sender("send_message"), send())
    assert not fits(sender("send_template_message"), send())


def test_an_event_is_copied_into_a_calendar_not_a_webinar():
    """A blind review rejected a drchrono appointment copied as a Zoom webinar: a webinar
    broadcasts to an audience, and a meeting copied into one is no copy of it."""
    from compoworld.compose.patterns import fits
    from compoworld.compose.workflows import BY_NAME
    from compoworld.graph.depgraph import ToolNode

    def maker(name: str, resource: str) -> ToolNode:
        return ToolNode(f"cal__{name}", "cal", "create", "modeled", resource,
                        {"topic": "title", "start_time": "datetime"}, (), {})

    step = BY_NAME["event_copy"].steps[1]
    assert fits(maker("meeting_create", "meetings"), step)
    assert not fits(maker("webinar_create", "webinars"), step)


def test_an_address_check_is_no_message():
    """SendGrid's `post_validations_email` checks that an address is deliverable: it sends
    nothing, so no welcome or reminder goes out through it."""
    def sender(name: str) -> ToolNode:
        return ToolNode(name=f"mail__{name}", service="mail", effect="action",
                        implementation="compiled", resource=None,
                        params={"email": "email", "text": "text"}, required=("email",),
                        outputs={"id": "string"})

    message = BY_NAME["lead_welcome"].steps[-1]
    assert fits(sender("send_email"), message)
    assert not fits(sender("post_validations_email"), message)
    assert not fits(sender("validate_email"), message)


def test_a_follow_up_is_a_new_task_not_an_act_on_one():
    """A follow-up task is made, titled "Follow up with ...": to accept, complete or move
    a task, or upload a file to an eBay feed task, is an action on a task that exists. They
    fitted the step and were tried first in a job probe (98 tries at the eBay upload
    alone), each lost, before any tracker that files new tasks was reached."""
    from compoworld.graph.depgraph import ToolNode

    def task_tool(name: str, effect: str, required: dict[str, str]) -> ToolNode:
        return ToolNode(name=f"tracker__{name}", service="tracker", effect=effect,
                        implementation="compiled", resource="tasks",
                        params={"title": "title", **required},
                        required=tuple(required), outputs={"id": "tracker.tasks.id"})

    follow_up = BY_NAME["follow_up_task"].steps[1]
    assert follow_up.title
    assert fits(task_tool("create_task", "create", {}), follow_up)
    assert fits(task_tool("add_task", "action", {"project_id": "tracker.projects.id"}),
                follow_up)  # (an action that files a new task in a project makes one)
    assert not fits(task_tool("upload_file", "action", {"task_id": "tracker.tasks.id"}),
                    follow_up)
    assert not fits(task_tool("tasks_accept", "action", {"id": "tracker.tasks.id"}),
                    follow_up)


def test_a_card_on_a_board_s_list_is_a_to_do_and_a_payment_card_is_not():
    """Trello files a to-do as a card on a list (`add_card_to_list(listId, name)`): read as
    nothing, no follow-up could go to Trello. A payment card (Square's `list_cards`) is on
    no list, whatever its tool's verb says."""
    from compoworld.compose.patterns import tool_entity
    from compoworld.graph.depgraph import ToolNode

    def card_tool(name: str, params: dict[str, str]) -> ToolNode:
        return ToolNode(name=name, service=name.split("__")[0], effect="create",
                        implementation="compiled", resource="cards", params=params,
                        required=tuple(params), outputs={})

    trello = card_tool("trello__add_card_to_list", {"listId": "trello.lists.id",
                                                    "name": "title"})
    assert tool_entity(trello) == "task"
    assert fits(trello, BY_NAME["follow_up_task"].steps[1])
    assert tool_entity(card_tool("square__list_cards", {"customer_id": "square.customers.id"})) \
        == ""

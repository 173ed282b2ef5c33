"""Workflows are data: every definition loads from its own file, the engine names none, a
new workflow is one file, and a shard's walks draw workflows, each within its share."""

from __future__ import annotations

import json
import random
import re
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

import compoworld
from compoworld.compose.build import compose_task
from compoworld.compose.guards import GUARDS
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import Draws, candidates, service_cap, start_tools
from compoworld.compose.verify import Deduper, verify_task
from compoworld.compose.walk import WalkConfig
from compoworld.compose.workflow import READ, Operator, Purpose, Step, Workflow
from compoworld.compose.workflows import BY_NAME, WORKFLOWS, WorkflowError, collect
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec
from tests.compose.walk_parts import read_then_message, reader

ENGINE = Path(compoworld.__file__).parent
READ_PERSON = Step(READ, "person")


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


def test_every_definition_lives_in_its_own_file_under_its_domain():
    assert len(WORKFLOWS) >= 60
    assert [w.name for w in WORKFLOWS] == sorted(BY_NAME)
    for workflow in WORKFLOWS:
        path = ENGINE / "compose" / "workflows" / workflow.domain / f"{workflow.name}.py"
        assert path.is_file(), path
        assert workflow.guards <= GUARDS.keys()


def test_the_engine_names_no_workflow():
    """No module outside the definitions says a workflow's name: a rule for one workflow
    lives in its definition, a rule for all in the engine (a guard keyed on a name would
    silently skip a new workflow of the same kind)."""
    names = set(BY_NAME)
    for path in ENGINE.rglob("*.py"):
        if "workflows" in path.parts:
            continue
        said = set(re.findall(r"[\"'](\w+)[\"']", path.read_text())) & names
        assert not said, (path, said)


def write_definition(root: Path, package: str, domain: str, name: str, body: str) -> None:
    """A package `package` under `root` holding one definition, `<domain>/<name>.py`."""
    folder = root / package / domain
    folder.mkdir(parents=True)
    (root / package / "__init__.py").write_text("")
    (folder / "__init__.py").write_text("")
    (folder / f"{name}.py").write_text(textwrap.dedent(body))


# A workflow the library does not ship: acknowledging a ticket by email. Adding it is this
# one definition; nothing in the engine changes.
TICKET_ACK = """
    from compoworld.compose.steps import send
    from compoworld.compose.workflow import READ, Step, Workflow

    WORKFLOW = Workflow(
        name="ticket_ack",
        domain="support",
        purpose="acknowledge a customer's ticket",
        steps=(Step(READ, "ticket"), send("email")),
        gist="letting them know we received their ticket",
        situation="ticket",
        opens=("{s} came in this morning.",),
        guards=frozenset({"ticket_closed"}),
    )
"""


def test_a_new_workflow_is_one_definition(tmp_path, monkeypatch, library):
    write_definition(tmp_path, "extra_workflows", "support", "ticket_ack", TICKET_ACK)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    package = importlib.import_module("extra_workflows")
    try:
        (ack,) = collect(package)
    finally:
        for name in [m for m in sys.modules if m.startswith("extra_workflows")]:
            del sys.modules[name]
    assert ack.name == "ticket_ack" and ack.domain == "support"
    fresh = ServiceLibrary(library.graph, library.infos, library.load_specs)
    fresh.use_workflows((*WORKFLOWS, ack))
    starts = [s for s in start_tools(fresh.graph) if ack in fresh.patterns_at(s)]
    assert starts, "a read of tickets begins it"
    made = []
    for seed in range(20):
        rng = random.Random(seed)
        task = compose_task(fresh, 7, rng.choice(starts), rng, f"ack{seed}", patterned=True,
                            workflow=ack)
        if isinstance(task, Task) and all(verify_task(task, fresh, Deduper()).values()):
            made.append(task)
    assert made, "the new workflow verifies tasks"
    assert all(t.pattern == "ticket_ack" and t.domain == "support" for t in made)
    assert any("came in this morning" in t.instruction for t in made)  # its own opening


@pytest.mark.parametrize(("folder", "body", "said"), [
    ("support", TICKET_ACK.replace('name="ticket_ack"', 'name="other"'), "its file is"),
    ("billing", TICKET_ACK, "its file is"),  # (filed under another domain)
    ("support", TICKET_ACK.replace('"ticket_closed"', '"no_such_guard"'), "unknown guards"),
    ("support", "X = 1\n", "defines no WORKFLOW"),
])
def test_a_wrong_definition_is_named_by_its_file(tmp_path, monkeypatch, folder, body, said):
    package = f"bad_workflows_{folder}_{abs(hash(body)) % 10**6}"
    write_definition(tmp_path, package, folder, "ticket_ack", body)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    try:
        with pytest.raises(WorkflowError, match=said) as raised:
            collect(importlib.import_module(package))
    finally:
        for name in [m for m in sys.modules if m.startswith(package)]:
            del sys.modules[name]
    assert f"{package}.{folder}.ticket_ack" in str(raised.value)


def test_a_definition_checks_itself():
    read, send = Step(READ, "ticket"), Step(("create",), "message")
    with pytest.raises(ValueError, match="unknown domain"):
        Workflow("x", "astrology", "p", (read, send))
    with pytest.raises(ValueError, match="the first a read"):
        Workflow("x", "support", "p", (send, read))
    with pytest.raises(ValueError, match="names a step it lacks"):
        Workflow("x", "support", "p", (read, send), operators=(Operator("select", step=5),))
    with pytest.raises(ValueError, match="unknown operator"):
        Operator("sort")
    with pytest.raises(ValueError, match="k >= 1"):
        Operator("rank", k=0, order="top")
    with pytest.raises(ValueError, match="names its subject"):
        Workflow("x", "support", "p", (read, send), opens=("A ticket came in.",))
    with pytest.raises(ValueError, match="first of a batch"):  # (a request of one record
        # that leaves unsaid whether the rest are the agent's too)
        Workflow("x", "billing", "p", (read, send),
                 opens=("I'm going through our open invoices, starting with {s}.",))
    from compoworld.compose.situations import SITUATIONS
    assert not any("starting with the" in text for texts in SITUATIONS.values()
                   for text in texts)
    ranked = Workflow("x", "support", "p", (read, send),
                      operators=(Operator("rank", step=0, field="created", k=3, order="bottom"),))
    assert ranked.operators[0].kind == "rank"


def test_walks_draw_workflows_each_within_its_share(library):
    """A shard's walks draw a workflow first: with a share of 1/4 of a quota of 8, no
    workflow makes more than 2 of the shard's tasks while 4 or more are alive, and the
    workflows its starts can begin all get walks."""
    starts = start_tools(library.graph, patterned=True)
    draws = Draws(library, starts, quota=8, share=0.25)
    assert len(draws.begins) >= 4
    made = list(candidates(library, starts, seed=3, shard=0, world_seed=11, quota=8,
                           limit=400, patterned=True, workflow_share=0.25))
    verified = [c.task for c in made if c.outcome == "verified" and c.task]
    per = {}
    for task in verified:
        per[task.pattern] = per.get(task.pattern, 0) + 1
    assert verified and max(per.values()) <= 2, per
    tried = {c.task.pattern for c in made if c.task} | {
        c.outcome.split()[2].rstrip(":") for c in made
        if c.outcome.startswith("walk: pattern ")}
    assert len(tried) >= 4


def test_a_draw_gives_up_a_workflow_that_keeps_failing(library):
    starts = start_tools(library.graph, patterned=True)
    draws = Draws(library, starts, quota=40, share=0.05)
    name = sorted(draws.begins)[0]
    for _ in range(8):
        draws.failed(name)
    rng = random.Random(0)
    assert all(draws.draw(rng, set())[0].name != name for _ in range(50))
    assert draws.cap() >= 2  # (40 x 5%, or an equal part among those still alive)


def test_a_draw_gives_each_app_that_begins_a_workflow_alike(library):
    """An app with many list tools that begin a workflow began most of its walks when every
    start weighed alike: a draw weighs each app alike, its tools sharing its weight."""
    starts = start_tools(library.graph, patterned=True)
    draws = Draws(library, starts, quota=40, share=0.05)
    name = sorted(draws.begins)[0]
    by_app: dict[str, list[str]] = {}
    for start in start_tools(library.graph):
        by_app.setdefault(library.graph.nodes[start].service, []).append(start)
    many, few = sorted(by_app, key=lambda s: len(by_app[s]))[::-1][:2]
    begins = by_app[many] + by_app[few][:1]  # as if the workflow began in both
    apps = Counter(library.graph.nodes[s].service for s in begins)
    assert apps[many] >= 3 and apps[few] == 1
    draws.begins = {name: begins}  # (this one workflow alone)
    rng = random.Random(1)
    drawn = Counter(library.graph.nodes[draws.draw(rng, set())[1]].service
                    for _ in range(3000))
    weight = {s: library.meaning(s) for s in apps}
    for service in apps:  # each app by its meaning alone, not by its number of tools
        expected = weight[service] / sum(weight.values())
        assert abs(drawn[service] / 3000 - expected) < 0.05, (service, drawn, apps)


def test_a_draw_prefers_the_apps_a_shard_has_not_used_yet(library):
    """The first apps a workflow verified in carried a run (36 of 560 services, one in a
    quarter of its tasks): an app already in k of the shard's verified tasks weighs
    1 / (1 + k), so a shard's walks reach the others."""
    starts = start_tools(library.graph, patterned=True)
    spread: Counter[str] = Counter()
    draws = Draws(library, starts, quota=40, share=0.05, spread=spread)
    name = sorted(draws.begins)[0]
    by_app: dict[str, str] = {}
    for start in start_tools(library.graph):
        by_app.setdefault(library.graph.nodes[start].service, start)
    apps = sorted(by_app)[:2]
    draws.begins = {name: [by_app[app] for app in apps]}  # (as if it began in both)
    rng = random.Random(2)

    def share(app: str) -> float:
        drawn = [library.graph.nodes[draws.draw(rng, set())[1]].service for _ in range(2000)]
        return drawn.count(app) / len(drawn)
    before = share(apps[0])
    spread[apps[0]] = 9  # (the shard's candidates count its verified tasks' services)
    after = share(apps[0])
    assert after < before / 3, (before, after)


def test_an_app_with_its_share_of_a_shard_begins_and_takes_no_more_walks(library):
    """Only two mailboxes send as the user, so every note to a colleague went through Gmail
    or Google Workspace: 16% of a run's tasks each, against at most 8% for any one app. An
    app in `cap` of a shard's verified tasks begins no walk, and no step takes it."""
    assert service_cap(0.08, 40, apps=300) == 3
    assert service_cap(0.08, 40, apps=20) is None  # (two apps a task: 10% each at least)
    starts = start_tools(library.graph, patterned=True)
    spread: Counter[str] = Counter()
    draws = Draws(library, starts, quota=40, share=0.05, spread=spread, cap=3)
    name = sorted(draws.begins)[0]
    by_app: dict[str, str] = {}
    for start in start_tools(library.graph):
        by_app.setdefault(library.graph.nodes[start].service, start)
    full, other = sorted(by_app)[:2]
    draws.begins = {name: [by_app[full], by_app[other]]}
    spread[full] = 3
    rng = random.Random(4)
    assert {library.graph.nodes[draws.draw(rng, set())[1]].service
            for _ in range(200)} == {other}
    spread[other] = 3
    assert draws.draw(rng, set()) is None  # (its every start's app has its share)
    # a step: the apps that could send it have their share, so the walk fails and says so
    message = BY_NAME["lead_welcome"]
    begins = [s for s in starts if message in library.patterns_at(s)]
    open_walk = compose_task(library, 7, begins[0], random.Random(0), "t0", patterned=True,
                             workflow=message)
    assert isinstance(open_walk, Task), open_walk
    full_up = Counter({open_walk.services[-1]: 3})  # (the app it sent through is full)
    made = [compose_task(library, 7, begins[0], random.Random(seed), f"t{seed}",
                         patterned=True, workflow=message,
                         config=WalkConfig(spread=full_up, service_cap=3))
            for seed in range(6)]
    assert not any(isinstance(t, Task) and open_walk.services[-1] in t.services
                   for t in made), made


def test_a_request_said_granted_or_waiting_is_so():
    """No time off "was approved" whose request was rejected; no signer reminded of an
    envelope already signed (the guards `not_granted` and `already_done`)."""
    read = read_then_message
    granted, done = GUARDS["not_granted"].test, GUARDS["already_done"].test
    assert granted(None, read({"id": "l1", "status": "REJECTED"}))
    assert granted(None, read({"id": "l1", "status": "pending"}))
    assert not granted(None, read({"id": "l1", "status": "approved"}))
    assert done(None, read({"envelopeId": "e1", "status": "completed"}))
    assert done(None, read({"number": 7, "state": "merged"}))
    assert not done(None, read({"envelopeId": "e1", "status": "sent"}))
    assert "not_granted" in BY_NAME["leave_calendar"].guards
    assert "already_done" in BY_NAME["envelope_reminder"].guards


def test_an_order_called_off_is_not_thanked_for_or_invoiced():
    """"Thanking you for your order: it has been cancelled" (a reviewed task thanked a
    customer for an ecwid order whose status was CANCELLED): the guard `called_off`."""
    read = read_then_message
    off = GUARDS["called_off"].test
    assert off(None, read({"id": "o1", "fulfillmentStatus": "CANCELLED"}))
    assert off(None, read({"id": "o1", "paymentStatus": "REFUNDED"}))
    assert not off(None, read({"id": "o1", "fulfillmentStatus": "SHIPPED"}))
    for name in ("order_thank_you", "order_review_request", "order_invoice",
                 "order_invoice_message"):
        assert "called_off" in BY_NAME[name].guards, name


def test_a_newsletter_subscriber_is_no_project_or_team_member():
    """A project member of a time-tracking app, or a shop's team member, "just subscribed
    to our newsletter" is nobody's news: the subscriber workflows read subscribers."""
    from compoworld.compose.patterns import fits

    step = BY_NAME["subscriber_welcome"].steps[0]
    assert not fits(reader("avaza__project_member_get", "project_members"), step)
    assert not fits(reader("square__search_team_members", "team_members"), step)
    assert fits(reader("news__list_subscribers", "subscribers"), step)


def test_a_deal_is_a_deal_and_a_task_no_whole_project():
    """A Jira or CI project named by its lead's name was "followed up on" as a deal and
    messaged "about the task": deals are a CRM's deals, tasks are no whole projects."""
    from compoworld.compose.patterns import fits

    projects = reader("jira__get_all_projects", "projects")
    deals = reader("crm__list_deals", "deals")
    todos = reader("tracker__list_tasks", "tasks")
    assert fits(deals, BY_NAME["deal_followup"].steps[0])
    assert not fits(projects, BY_NAME["deal_followup"].steps[0])
    assert not fits(todos, BY_NAME["deal_followup"].steps[0])
    assert fits(todos, BY_NAME["task_notify"].steps[0])
    assert not fits(projects, BY_NAME["task_notify"].steps[0])


def test_a_workflow_on_trial_is_composed_only_when_asked(library):
    """A new workflow waits on trial until a blind review keeps its tasks: the default
    library leaves it out, `--trial-workflows` (and the probe) let walks follow it."""
    from compoworld.compose.workflows import DEFAULT_WORKFLOWS, run_workflows

    on_trial = [w for w in WORKFLOWS if w.trial]
    assert on_trial and not set(on_trial) & set(DEFAULT_WORKFLOWS)
    assert run_workflows(False) == DEFAULT_WORKFLOWS and run_workflows(True) == WORKFLOWS
    trial = Workflow("ticket_ack", "support", "acknowledge a ticket",
                     (Step(READ, "ticket"), Step(("create",), "message", ("email",))),
                     trial=True)
    fresh = ServiceLibrary(library.graph, library.infos, library.load_specs)
    begins = [s for s in start_tools(fresh.graph) if fresh.patterns_at(s)]
    fresh.use_workflows(run_workflows(False))
    assert not any(trial in fresh.patterns_at(s) for s in begins)
    fresh.use_workflows((*run_workflows(True), trial))
    assert any(trial in fresh.patterns_at(s) for s in begins)


def test_a_post_goes_into_a_channel_and_an_issue_travels_by_its_content():
    """A Slack post over `channels` makes a message, which goes into a channel (no SMS to a
    phone number is a post); an MCP server is its app's vendor (an issue "copied" from
    GitHub's REST API into GitHub's MCP server is no copy)."""
    from compoworld.compose.patterns import fits, tool_entity, vendor
    from compoworld.graph.depgraph import ToolNode

    def writer(name: str, resource: str | None, params: dict) -> ToolNode:
        return ToolNode(name=name, service=name.split("__")[0], effect="action",
                        implementation="modeled", resource=resource, params=params,
                        required=tuple(params), outputs={})

    post = writer("mcp_slack__slack_post_message", "channels",
                  {"channel_id": "mcp_slack.channels.id", "text": "text"})
    sms = writer("telstra__send_messages", None, {"to": "phone", "messageContent": "text"})
    assert tool_entity(post) == "message"
    assert tool_entity(writer("chat__create_channel", "channels", {"name": "title"})) == \
        "channel"
    step = BY_NAME["issue_to_channel"].steps[1]
    assert step.into == "channel" and "text" in step.takes
    assert fits(post, step) and not fits(sms, step)
    assert vendor("mcp_github") == vendor("github_com_ghes_2_18_b602fe04")
    assert "text" in BY_NAME["issue_to_tracker"].steps[1].takes


def test_a_welcome_alone_goes_to_a_new_contact_never_a_customer_we_have():
    """"Tara should be set up in our other tools as well. Please text her that she is all
    set up": a welcome with nothing set up anywhere, to a customer we have already."""
    from compoworld.compose.patterns import fits

    first = BY_NAME["lead_welcome"].steps[0]
    assert fits(reader("crm__contacts_all", "contacts"), first)
    assert fits(reader("crm__leads_all", "leads"), first)
    assert not fits(reader("books__customers_all", "customers"), first)


def test_a_plan_walks_only_from_starts_its_shards_may_use(tmp_path):
    """A library of telecom tools gave the plan two starts that the shards' app filter
    (telecom keeps no customers of a business) then refused: 61 shards walked nothing
    and compose said nothing. The plan takes the shards' starts, and none is a true line."""
    from compoworld.compose.library import ServiceLibrary
    from compoworld.compose.patterns import Apps
    from compoworld.compose.stage import plan_compose, planned_starts
    from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec

    def library() -> ServiceLibrary:
        return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])

    starts = planned_starts(open_library := library())
    assert starts and all(open_library.patterns_at(s) for s in starts)
    barred = library()
    barred._apps = Apps(frozenset(), frozenset())  # (apps that keep nothing of a business)
    assert planned_starts(barred) == []
    with pytest.raises(ValueError) as error:
        plan_compose(barred.graph, run_id="r", tasks=4, seed=0, tasks_per_shard=4,
                     params={"walks": "pattern"}, starts=[], library=barred)
    assert "\n" not in str(error.value) and "could begin only in" in str(error.value)


def test_a_thank_you_opens_without_the_customer_behind_a_named_order():
    """"We'd like the customer behind James Larsen's order to hear from us": the order
    is named by its customer already."""
    import random

    from compoworld.compose.situations import situation

    for seed in range(8):
        said = situation(BY_NAME["order_thank_you"], "James Larsen's order",
                         random.Random(seed))
        assert "behind" not in said and "James Larsen" in said, said


def test_a_colleague_welcomed_or_reminded_is_still_with_us():
    """"Welcome our new colleague" of a Square team member inactive for a year, or of an
    Apacta user deleted in December: the guard `gone`."""
    read = read_then_message
    gone = GUARDS["gone"].test
    assert gone(None, read({"id": "u1", "status": "inactive"}))
    assert gone(None, read({"id": "u1", "deleted": "2024-12-03T20:30:00Z", "is_active": True}))
    assert gone(None, read({"id": "u1", "is_active": False}))
    assert not gone(None, read({"id": "u1", "status": "active", "is_deleted": False}))
    assert gone(None, read({"id": "u1", "accountEnabled": False}))
    # a setting switched off is no colleague gone: "every user who is still active" had
    # left out a Box user whose `is_sync_enabled` was false, and nobody could tell why
    assert not gone(None, read({"id": "u1", "status": "active", "is_sync_enabled": False}))
    assert not gone(None, read({"id": "u1", "status": "cannot_delete_edit"}))
    assert "gone" in BY_NAME["employee_welcome"].guards


def test_a_workflow_s_email_has_a_subject_of_its_own():
    """Nineteen of forty reviewed emails had the subject "A note from us": a workflow whose
    gist has no shared subject line names its own (`Workflow.subject`)."""
    from compoworld.compose.notes import reference_subject

    gist = BY_NAME["laptop_return"].gist
    assert reference_subject(gist, {}, "drawn") == "A quick question"  # (its verb's alone)
    assert reference_subject(gist, {}, "drawn", line=BY_NAME["laptop_return"].subject) == \
        "Returning your laptop"
    assert reference_subject("with their receipt", {}, "drawn") == "Your receipt"


def test_nobody_is_reminded_to_pay_an_invoice_that_owes_nothing():
    """"A reminder that your invoice is still open" of an invoice marked PAID, a draft
    nobody was sent, or one with nothing left due: the guard `settled`."""
    read = read_then_message
    owes_nothing = GUARDS["settled"].test
    assert owes_nothing(None, read({"id": "i1", "status": "PAID"}))
    assert owes_nothing(None, read({"id": "i1", "status": "draft"}))
    assert owes_nothing(None, read({"id": "i1", "paid": True}))
    assert owes_nothing(None, read({"id": "i1", "AmountDue": 0}))
    # "I'm sending out this month's invoices" of one whose `paid_date` is months ago
    assert owes_nothing(None, read({"id": "i1", "status": "sent", "paid_date": "2024-08-02"}))
    assert not owes_nothing(None, read({"id": "i1", "status": "sent", "paid_date": None}))
    assert not owes_nothing(None, read({"id": "i1", "status": "open", "amount_due": 120.5}))
    assert not owes_nothing(None, read({"id": "i1", "status": "overdue"}))
    assert "settled" in BY_NAME["invoice_reminder"].guards


def test_a_follow_up_waits_for_its_event_and_a_delivery_check_for_the_delivery():
    """"Thank you for your time" of a meeting next week, and "did your order arrive
    safely?" of an order awaiting processing, are wrong: the guards `ahead` and
    `undelivered`."""
    from compoworld.world.clock import NOW

    read = read_then_message
    ahead, undelivered = GUARDS["ahead"].test, GUARDS["undelivered"].test
    past, future = (NOW.replace(day=1).isoformat(), NOW.replace(year=NOW.year + 1).isoformat())
    assert ahead(None, read({"id": "e1", "start": future}))
    assert ahead(None, read({"id": "e1", "title": "Planning"}))  # no start: nothing to tell
    assert not ahead(None, read({"id": "e1", "start": past}))
    assert undelivered(None, read({"id": "o1", "status": "AWAITING_PROCESSING"}))
    assert not undelivered(None, read({"id": "o1", "fulfillmentStatus": "SHIPPED"}))
    assert "ahead" in BY_NAME["meeting_followup_thanks"].guards
    assert "undelivered" in BY_NAME["order_delivery_check"].guards


def test_hr_finds_a_colleague_among_the_company_s_people_not_a_code_host_s_users():
    """A payslip notice to "our Gitea user Hugo Laurent" read as made up: the HR workflows
    read colleagues from apps of any category but developer tools (`Step.not_in`)."""
    from compoworld.compose.patterns import Apps
    from compoworld.compose.steps import COLLEAGUE, PERSONNEL

    apps = Apps(work=frozenset({"gitea", "slack"}), customers=frozenset(),
                staff=frozenset({"gitea", "slack"}),
                categories={"gitea": "developer_tools", "slack": "collaboration"})
    assert apps.allow("slack", PERSONNEL) and not apps.allow("gitea", PERSONNEL)
    tills = Apps(work=frozenset({"square", "salesloft"}), customers=frozenset(),
                 staff=frozenset({"square", "salesloft"}),
                 categories={"square": "payment", "salesloft": "customer_relation"})
    assert not tills.allow("square", PERSONNEL) and not tills.allow("salesloft", PERSONNEL)
    assert apps.allow("gitea", COLLEAGUE)  # (a two-factor reminder may go to an engineer)
    for name in ("payslip_notice", "benefits_enrollment", "holiday_balance",
                 "timesheet_reminder", "self_review_reminder"):
        assert BY_NAME[name].steps[0] == PERSONNEL, name


def test_a_contract_renews_with_a_customer_who_has_one_and_a_cart_is_no_sale():
    """A shop's customer "up for renewal next month" has no contract to renew, and a Magento
    cart that "came in" was thanked for as an order: the renewal reads no shop's customers,
    and a sale is never a cart."""
    from compoworld.compose.patterns import Apps, fits
    from compoworld.compose.steps import SALE
    from compoworld.graph.depgraph import ToolNode

    renewal = BY_NAME["renewal_reminder"].steps[0]
    apps = Apps(work=frozenset({"shop", "crm"}), customers=frozenset({"shop", "crm"}),
                categories={"shop": "ecommerce", "crm": "customer_relation"})
    assert apps.allow("crm", renewal) and not apps.allow("shop", renewal)

    def reader(name: str, resource: str) -> ToolNode:
        return ToolNode(name=f"m__{name}", service="m", effect="read", implementation="compiled",
                        resource=resource, params={}, required=(),
                        outputs={"items[].email": "email"})
    assert fits(reader("list_orders", "orders"), SALE)
    assert not fits(reader("quote_cart_repository_get", "carts"), SALE)


def test_a_post_goes_to_a_channel_its_workflow_names():
    """A customer's delivery problem was posted to "announcements": a workflow names the
    channels its post goes to, and the walk posts into one of them, by name or by the id of
    the app's channel of that name; an app that keeps none of them makes no such post."""
    from types import SimpleNamespace

    from compoworld.compose.walk import _channel
    from compoworld.world.state import State

    with pytest.raises(ValueError, match="no step posts into one"):
        Workflow("x", "chat", "p", (Step(("read",), "ticket"), Step(("create",), "message")),
                 channels=("support",))
    issue = BY_NAME["issue_to_channel"]
    assert issue.channels and any(step.into == "channel" for step in issue.steps)
    state = State.load({"collections": {"channels": {
        "C1": {"id": "C1", "name": "general"}, "C2": {"id": "C2", "name": "support"}}}},
        schemas={"channels": {"type": "object"}})
    chat = SimpleNamespace(name="chat", state=state)
    rng = random.Random(0)
    assert _channel(chat, "string", {"type": "string"}, ("support",), rng) == "support"
    assert _channel(chat, "chat.channels.id", {"type": "string"}, ("support",), rng) == "C2"
    assert _channel(chat, "chat.channels.id", {"type": "string"}, ("sales",), rng) == ""


def test_a_draft_is_no_message_sent():
    """"Send them an email via Gmail" was made and checked as Gmail's `draft_email`: an
    agent that sent the email failed. A message step takes no draft tool."""
    from compoworld.compose.patterns import fits
    from compoworld.compose.steps import COLLEAGUE_MESSAGE, send
    from compoworld.graph.depgraph import ToolNode

    def mailer(name: str) -> ToolNode:
        return ToolNode(name=f"gmail__{name}", service="gmail", effect="create",
                        implementation="modeled", resource=None,
                        params={"to": "email", "body": "text"}, required=("to",), outputs={})

    for step in (send("email"), COLLEAGUE_MESSAGE):
        assert fits(mailer("send_email"), step)
        assert not fits(mailer("draft_email"), step)


def test_engineering_finds_a_colleague_where_engineers_work():
    """A code review asked of "the user in SalesLoft Platform Ben Silva", and an incident
    handed over to a Files-style app's user, read as made up: a step may name the only
    kinds of app it uses (`Step.only_in`), and the engineering workflows read their
    colleague from a code host, a tracker, a project tool or the team chat."""
    from compoworld.compose.patterns import Apps
    from compoworld.compose.steps import COLLEAGUE, ENGINEER

    apps = Apps(work=frozenset({"gitea", "salesloft", "slack"}), customers=frozenset(),
                staff=frozenset({"gitea", "salesloft", "slack"}),
                categories={"gitea": "developer_tools", "salesloft": "customer_relation",
                            "slack": "messaging"})
    assert apps.allow("gitea", ENGINEER) and apps.allow("slack", ENGINEER)
    assert not apps.allow("salesloft", ENGINEER) and apps.allow("salesloft", COLLEAGUE)
    for name in ("code_review_request", "code_freeze_notice", "incident_handover",
                 "dependency_upgrade"):
        assert BY_NAME[name].domain == "engineering" and BY_NAME[name].steps[0] == ENGINEER


# (real documents of the corpus, whose team apps keep our colleagues, whose shops keep
# customers and whose booking app keeps appointments; the built-in CRM keeps leads, and the
# built-in mailbox sends as the user)
WORK_DOCUMENTS = ["gitea.io.json", "postmarkapp.com/server.json", "apacta.com.json",
                  "onsched.com/consumer.json", "billbee.io.json"]


@pytest.fixture(scope="module")
def work_library(corpus: Path) -> ServiceLibrary:
    from compoworld.specs.sources import load_document

    library = ServiceLibrary.from_specs([*(load_document(corpus, doc) for doc in WORK_DOCUMENTS),
                                         builtin_spec("crm"), builtin_spec("email")], seed=5)
    library.use_workflows(WORKFLOWS)  # (those on trial too)
    return library


def verified_tasks(library: ServiceLibrary, workflow: Workflow) -> list[Task]:
    """The tasks 8 walks of `workflow` compose over `library`, each checked to verify; at
    least one start and one task, or the assertion says why."""
    starts = sorted(s for s in start_tools(library.graph, patterned=True)
                    if workflow in library.patterns_at(s))
    assert starts, workflow.name
    made = [compose_task(library, 7, starts[seed % len(starts)], random.Random(seed),
                         f"t{seed}", patterned=True, workflow=workflow) for seed in range(8)]
    tasks = [t for t in made if isinstance(t, Task)]
    assert tasks, {str(t) for t in made}
    for task in tasks:
        assert all(verify_task(task, library, Deduper()).values()), task.task_id
    return tasks


@pytest.mark.slow
@pytest.mark.parametrize("name", [
    "code_review_request", "code_freeze_notice", "incident_handover", "dependency_upgrade",
    "document_review_request", "drive_access_granted", "nda_signature_reminder",
    "card_expiry_notice", "vat_number_request", "back_in_stock", "loyalty_reward",
    "outage_apology", "callback_confirmation", "webinar_thank_you", "project_kickoff_notice"])
def test_a_message_workflow_composes_requests_that_say_its_purpose(name: str, work_library):
    """Each message workflow added by one definition composes over real apps into verified
    tasks whose request asks for its message and whose check wants its topic."""
    workflow = BY_NAME[name]
    for task in verified_tasks(work_library, workflow):
        assert task.pattern == name
        words = [w.lower() for w in workflow.says]
        assert any(w in task.instruction.lower() for w in words), task.instruction
        assert any(w in json.dumps([r.description for r in task.rubric]).lower()
                   for w in words), task.rubric


def test_a_colleague_s_email_may_go_out_through_any_mail_app():
    """Every tool over `emails` was kept out of a colleague's message (for a task app's
    email record whose only address is its reply-to), and with it Gmail's `send_email`:
    three apps carried every email to a colleague. Gmail's send fits; the reply-to is
    still ours, and takes no colleague's address."""
    from compoworld.compose.patterns import fits
    from compoworld.compose.steps import COLLEAGUE_MESSAGE
    from compoworld.compose.walk import _from_us
    from compoworld.graph.depgraph import ToolNode

    gmail = ToolNode("gmail__send_email", "gmail", "action", "compiled", "emails",
                     {"to": "email", "subject": "title", "body": "text"},
                     ("to", "subject", "body"), {"id": "gmail.emails.id"})
    tasks = ToolNode("tasks__emails_create", "tasks", "create", "compiled", "emails",
                     {"reply_to_email": "email", "message": "text"}, ("message",), {})
    assert fits(gmail, COLLEAGUE_MESSAGE) and not _from_us(COLLEAGUE_MESSAGE, gmail, "to")
    assert _from_us(COLLEAGUE_MESSAGE, tasks, "reply_to_email")


TEAM_MEETINGS = ("incident_postmortem", "performance_review", "one_on_one",
                 "project_planning", "architecture_review")


@pytest.fixture(scope="module")
def calendar_library(corpus: Path) -> ServiceLibrary:
    """The real apps of `work_library`, with Google Calendar's MCP server beside OnSched."""
    from compoworld.settings import cache_dir
    from compoworld.specs.mcp_fetch import fetch_mcp_servers
    from compoworld.specs.mcp_servers import MCP_SERVERS, load_mcp_document
    from compoworld.specs.sources import load_document

    server = next(s for s in MCP_SERVERS if s.service == "mcp_google_calendar")
    tools = fetch_mcp_servers(cache_dir())
    calendar = load_mcp_document(json.loads((tools / server.document_name).read_text()))
    library = ServiceLibrary.from_specs([*(load_document(corpus, doc) for doc in WORK_DOCUMENTS),
                                         calendar, builtin_spec("crm"), builtin_spec("email")],
                                        seed=5)
    library.use_workflows(WORKFLOWS)
    return library


@pytest.mark.slow
@pytest.mark.parametrize("name", [*TEAM_MEETINGS, "business_review", "renewal_call",
                                  "onboarding_call"])
def test_a_meeting_workflow_books_what_it_says_it_is_for(name: str, calendar_library):
    """A workflow may say what its meeting is for (`Workflow.meeting`): a postmortem with
    an engineer, not "an intro call" drawn by the kind of app they are known from. Its
    request gives the reason and asks for that meeting, at a time; its check wants the
    booking to say what it is for. A meeting among colleagues goes into a calendar, never
    a customer-booking app: a review read a one-on-one booked as an OnSched appointment."""
    workflow = BY_NAME[name]
    assert workflow.meeting is not None, name
    reasons = [why.split("{s}") for why in workflow.meeting.why]
    tasks = verified_tasks(calendar_library, workflow)
    if name in TEAM_MEETINGS:
        assert all("onsched_com_consumer" not in t.services for t in tasks), name
    else:  # a contract's client, never a web shop's shopper (Billbee's customers)
        categories = calendar_library.apps().categories or {}
        assert all(categories.get(t.services[0]) != "ecommerce" for t in tasks), name
    for task in tasks:  # a guest by their address: a review failed agents that invited
        # "yara.okafor@..." for leaving out a display name nobody had asked for
        assert "display name" not in json.dumps([r.description for r in task.rubric])
    for task in tasks:
        assert re.search(r"\d{2}:\d{2}", task.instruction), task.instruction  # (a time)
        assert workflow.meeting.what in task.instruction, task.instruction
        assert any(all(part.strip(" .,") in task.instruction for part in parts)
                   for parts in reasons), task.instruction
        assert "what it is for" in json.dumps([r.description for r in task.rubric])


def test_a_meeting_s_reasons_name_their_subject_and_a_step_books_it():
    with pytest.raises(ValueError, match="a step books it"):
        Workflow(name="x", domain="hr", purpose="x", steps=(READ_PERSON, READ_PERSON),
                 meeting=Purpose("a chat", "Chat", ("{s} wants a chat.",)))
    with pytest.raises(ValueError, match="name its subject"):
        Workflow(name="x", domain="hr", purpose="x",
                 steps=(READ_PERSON, Step(("create",), "event")),
                 meeting=Purpose("a chat", "Chat", ("They want a chat.",)))


def test_a_colleague_s_message_goes_out_as_the_user_not_as_the_company():
    """A code-freeze notice to a colleague went out "from hello@willow-finch.com" through
    Postmark, and a welcome texted to a new colleague from the brand sender "Redwood": a
    colleague's message (`Step.personal`) takes no tool that sends under the company's
    address or name; a text from our number, and a customer's message, still may."""
    from compoworld.compose.patterns import fits
    from compoworld.compose.steps import COLLEAGUE_MESSAGE, send
    from compoworld.graph.depgraph import ToolNode

    def sender(name: str, params: dict[str, str]) -> ToolNode:
        return ToolNode(f"app__{name}", "app", "action", "compiled", "messages", params,
                        tuple(params), {"id": "app.messages.id"})

    postmark = sender("send_email", {"From": "email", "To": "email", "TextBody": "text"})
    branded = sender("send_sms", {"from": "string", "to": "phone", "body": "text"})
    numbered = sender("send_sms", {"from": "phone", "to": "phone", "body": "text"})
    mailbox = sender("send_email", {"to": "email", "subject": "title", "body": "text"})
    assert not fits(postmark, COLLEAGUE_MESSAGE) and not fits(branded, COLLEAGUE_MESSAGE)
    assert fits(numbered, COLLEAGUE_MESSAGE) and fits(mailbox, COLLEAGUE_MESSAGE)
    assert fits(postmark, send()) and fits(branded, send())
    assert BY_NAME["employee_welcome"].steps[1] == COLLEAGUE_MESSAGE


def test_a_prospect_is_no_contact_of_the_books():
    """A prospect "who went quiet after our first call" was read from Xero Accounting's
    contacts, who buy from us or sell to us: the prospect workflows read no app of the
    books or a till, and still read a CRM's or a lead list's people."""
    from compoworld.compose.patterns import Apps
    from compoworld.compose.steps import LEAD, PROSPECT

    apps = Apps(work=frozenset({"xero", "crm"}), customers=frozenset({"xero", "crm"}),
                categories={"xero": "financial", "crm": "customer_relation"})
    assert apps.allow("crm", PROSPECT) and not apps.allow("xero", PROSPECT)
    assert apps.allow("xero", LEAD)  # (a customer of the books may still be written to)
    for name in ("lead_reengage", "demo_offer", "webinar_invite", "nda_signature_reminder"):
        assert BY_NAME[name].steps[0] == PROSPECT, name


def test_a_release_announced_as_out_has_shipped():
    """A blind review rejected "We just shipped Release 2.7.3" posted of a Linear release
    in the bin (`trashed: true`), and "Release 4.7.3 is out" of one whose stage is
    `{"type": "planned"}`: the guard `unreleased`."""
    read = read_then_message
    not_out = GUARDS["unreleased"].test
    assert not_out(None, read({"id": "r1", "name": "Release 2.7.3", "trashed": True}))
    assert not_out(None, read({"id": "r1", "stage": {"type": "planned"}}))
    assert not_out(None, read({"id": "r1", "status": "draft"}))
    assert not_out(None, read({"id": "r1", "draft": True, "published_at": None}))
    assert not_out(None, read({"id": "r1", "archivedAt": "2024-05-11T23:20:00Z"}))
    assert not_out(None, read({"id": "r1", "canceledAt": "2024-08-19T10:00:00Z"}))
    assert not not_out(None, read({"id": "r1", "stage": {"type": "completed"},
                                   "trashed": False, "archivedAt": None}))
    assert not not_out(None, read({"id": "r1", "draft": False, "prerelease": True}))
    assert "unreleased" in BY_NAME["release_to_channel"].guards


def test_a_vat_number_is_asked_only_where_invoices_carry_one():
    """A blind review rejected a VAT number asked by text of a US customer: the guard
    `no_vat` holds out a customer whose record's country, or else whose phone's calling
    code, is outside the countries whose invoices carry a VAT number."""
    read = read_then_message
    no_vat = GUARDS["no_vat"].test
    assert no_vat(None, read({"id": "c1", "country": "US", "phone": "+12025550143"}))
    assert no_vat(None, read({"id": "c1", "address": {"country": "United States"}}))
    assert no_vat(None, read({"id": "c1", "phone": "+12025550143"}))  # (no country said)
    assert not no_vat(None, read({"id": "c1", "country": "FR", "phone": "+12025550143"}))
    assert not no_vat(None, read({"id": "c1", "billing_address": {"country_code": "DEU"}}))
    assert not no_vat(None, read({"id": "c1", "mobile": "+447700900123"}))
    assert not no_vat(None, read({"id": "c1", "email": "ana@lakeside.com"}))  # (unknown)
    assert "no_vat" in BY_NAME["vat_number_request"].guards


_WHEN_SAID = re.compile(r"\b(?:this|next|last|first) (?:week|weekend|month)\b|\bend of the "
                        r"(?:week|month)\b|\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|"
                        r"\b(?:January|February|March|April|May|June|July|August|September|"
                        r"October|November|December)\b")


def test_a_message_that_says_when_is_checked_for_when():
    """A blind review rejected a password-expiry reminder checked for "password" alone: a
    message that missed "this week" passed. Every workflow whose gist says when (a day, a
    week, a month) tells it, so its check wants it."""
    untold = [w.name for w in WORKFLOWS if (said := _WHEN_SAID.findall(w.gist))
              and not any(when in fact or fact in when for when in said for fact in w.tells)]
    assert not untold, untold


def test_a_self_review_reminder_says_self_review():
    """A blind review read a self-review reminder whose check took the bare word "review":
    a note about any review passed."""
    from compoworld.reward.rubric import value_in_text

    says = BY_NAME["self_review_reminder"].says
    assert any(value_in_text(w, "Please finish your self-review by Friday.") for w in says)
    assert any(value_in_text(w, "Your self review is due.") for w in says)
    assert not any(value_in_text(w, "Please finish your code review.") for w in says)


def test_a_message_s_check_wants_what_it_asks_or_promises():
    """A blind review read a contract reminder checked for "contract" alone (not that it
    asks them to sign), and a webinar thank-you checked without the recording it promises."""
    assert "sign" in BY_NAME["contract_signature"].tells
    assert "recording" in BY_NAME["webinar_thank_you"].tells


def test_a_job_chains_workflows_about_one_record():
    """A job is its parts' steps about the record they share, read once, with the one
    message of the part that sends; parts about other records, or two messages, are no
    job."""
    from compoworld.compose.workflow import chain

    job = chain("customer_onboarding_x", "sales", "onboard a customer",
                BY_NAME["lead_contact_task"], BY_NAME["contact_meeting_message"])
    assert [(s.effects[0], s.entity) for s in job.steps] == [
        ("read", "person"), ("create", "person"), ("create", "task"), ("create", "event"),
        ("create", "message")]
    assert job.gist == BY_NAME["contact_meeting_message"].gist and job.trial
    assert job.parts == ("lead_contact_task", "contact_meeting_message")
    with pytest.raises(ValueError, match="begin at another record"):
        chain("x", "sales", "x", BY_NAME["lead_contact_task"], BY_NAME["order_thank_you"])
    with pytest.raises(ValueError, match="a job sends one"):
        chain("x", "sales", "x", BY_NAME["demo_offer"], BY_NAME["lead_welcome"])


@pytest.mark.slow
def test_a_job_composes_one_request_over_four_apps_steps(work_library):
    """Onboarding a customer over real apps: five calls (their record, a contact, a deal,
    a meeting, an invitation), each checked, asked as one request."""
    job = BY_NAME["customer_onboarding"]
    starts = sorted(s for s in start_tools(work_library.graph, patterned=True)
                    if job in work_library.patterns_at(s))
    made = [compose_task(work_library, 7, starts[seed % len(starts)], random.Random(seed),
                         f"t{seed}", patterned=True, workflow=job) for seed in range(24)]
    tasks = [t for t in made if isinstance(t, Task)
             and all(verify_task(t, work_library, Deduper()).values())]
    assert tasks, {str(t) for t in made}
    for task in tasks:
        assert len(task.gold_calls) >= 5 and len({c.service for c in task.gold_calls}) >= 3
        writes = [c for c in task.gold_calls if c.effect != "read"]
        assert len([c for c in task.rubric if c.kind != "no_collateral_change"]) >= len(writes)
        assert "meeting" in task.instruction or "invit" in task.instruction


def test_a_workflow_goes_on_into_another_about_the_same_record_as_one_job():
    """A job is made of workflows the engine does not name: a new lead copied into the CRM
    goes on into their deal, then into a meeting booked with them and an invitation, in
    one request. A job sets its record up, then does at most one act of its own purpose,
    last: a review read "tell them their parking permit is ready and book a one-on-one" as
    two errands glued. No job does an act twice, glues another domain's errand to it (a
    lead added to the CRM and asked for a code review), or begins at another record."""
    from compoworld.compose.workflow import JOB_PARTS, job, may_follow

    lead, deal = BY_NAME["lead_to_contact"], BY_NAME["contact_deal"]
    meeting = BY_NAME["contact_meeting_message"]
    assert may_follow(lead, deal) and may_follow(lead, meeting)
    made = job(job(lead, deal), meeting)
    assert made.parts == ("lead_to_contact", "contact_deal", "contact_meeting_message")
    assert not made.trial and made.situation == lead.situation
    assert made.gist == meeting.gist and made.domain == lead.domain
    assert len(made.steps) == len(lead.steps) + len(deal.steps) + len(meeting.steps) - 2
    assert len(made.parts) == JOB_PARTS and not may_follow(made, BY_NAME["assign_task"])
    assert not may_follow(lead, lead)  # (no part twice)
    assert not may_follow(BY_NAME["parking_permit"], BY_NAME["one_on_one"])  # (two purposes)
    assert may_follow(BY_NAME["pricing_info"], deal)  # (its pricing sent, its deal opened)
    assert not may_follow(job(lead, meeting), BY_NAME["pricing_info"])  # (a second purpose)
    assert not may_follow(lead, BY_NAME["lead_contact_task"])  # (two new contacts)
    assert not may_follow(lead, BY_NAME["code_review_request"])  # (an engineering errand)
    assert not may_follow(lead, BY_NAME["order_thank_you"])  # (another record)
    assert not may_follow(BY_NAME["contact_lookup"], meeting)  # (a question is no set-up)
    # a new lead is asked for no case study, and a prospect offered a demo is no customer
    assert not may_follow(lead, BY_NAME["case_study_request"])
    assert not may_follow(BY_NAME["case_study_request"], lead)
    # a notice that an invoice is ready tells no story of its payment coming in
    assert not may_follow(BY_NAME["invoice_ready_notice"], BY_NAME["invoice_payment"])
    assert not may_follow(BY_NAME["invoice_payment"], BY_NAME["invoice_ready_notice"])
    assert may_follow(BY_NAME["invoice_payment"], BY_NAME["invoice_receipt"])  # (its story)
    from compoworld.compose.workflow import _strangers

    assert _strangers(BY_NAME["demo_offer"], BY_NAME["case_study_request"])
    assert not _strangers(lead, BY_NAME["pricing_info"])  # (a new lead is a prospect)


@pytest.mark.slow
def test_a_walk_goes_on_into_a_job_or_stays_the_workflow_it_made(work_library):
    """Asked for jobs, a new lead's walk goes on into their deal or a meeting where a tool
    takes them; where none does, its own task is kept, with nothing the tries wrote left in
    its world (every task re-verifies: a stray write would fail "nothing else changes").
    A meeting booked by a later part has a purpose: a review read a new customer's
    meeting titled "The shipment left the warehouse this morning." """
    lead = BY_NAME["lead_to_contact"]
    starts = sorted(s for s in start_tools(work_library.graph, patterned=True)
                    if lead in work_library.patterns_at(s))
    made = [compose_task(work_library, 7, starts[seed % len(starts)], random.Random(seed),
                         f"t{seed}", patterned=True, workflow=lead, jobs=True)
            for seed in range(16)]
    tasks = [t for t in made if isinstance(t, Task)]
    assert tasks and all(all(verify_task(t, work_library, Deduper()).values()) for t in tasks)
    jobs = [t for t in tasks if t.pattern != lead.name]
    assert jobs, [t.pattern for t in tasks]
    for task in jobs:
        first, *later = task.pattern.split("_then_")
        assert first == lead.name and later and all(BY_NAME[name] for name in later)
        assert len(task.gold_calls) >= 3 and len(task.services) >= 2
        if any(BY_NAME[name].situation == "meeting" for name in later):
            # (what the meeting is for: no line of filler as its title)
            assert any(c.params.get("about") for c in task.rubric), task.instruction


def test_a_follow_up_task_is_linked_by_the_name_in_its_title():
    """A tracker that keeps no contacts takes a follow-up task for a customer by its title
    ("Follow up with Julia Nguyen"): a step that says how its record is titled links by
    content. Not where the tool has a field for whom the task is about (a SalesLoft task
    "Follow up with Hugo Jensen" was filed under another person, Quinn Smith), nor into a
    milestone or a project, which are no follow-up."""
    from compoworld.compose.patterns import content_takers, taken_by
    from compoworld.graph.depgraph import DependencyGraph, ToolNode

    def maker(name: str, params: dict) -> ToolNode:
        return ToolNode(name=name, service=name.split("__")[0], effect="create",
                        implementation="modeled", resource=name.split("_", 1)[-1].split("__")[-1],
                        params=params, required=tuple(params), outputs={"id": "string"})

    tracker = maker("tracker__create_task",
                    {"Title": "title", "ProjectIDFK": "tracker.projects.id"})
    theirs = maker("sales__create_task", {"subject": "title", "person_id": "sales.people.id"})
    milestone = maker("linear__create_milestone", {"name": "title"})
    customers = ToolNode(name="shop__list_customers", service="shop", effect="read",
                         implementation="modeled", resource="customers", params={},
                         required=(), outputs={"[].name": "person_name", "[].email": "email"})
    graph = DependencyGraph.build([tracker, theirs, milestone, customers])
    step = BY_NAME["contact_deal"].steps[1]
    assert "{s}" in step.title
    assert content_takers(graph, step) == [("tracker__create_task", "Title")]
    assert taken_by(graph, "shop__list_customers", "[].name", "person_name", step)
    untitled = Step(("create",), "task", ("email",))
    assert content_takers(graph, untitled) == []
    with pytest.raises(ValueError, match="names its subject"):
        Step(("create",), "task", title="Follow up")


def test_a_job_changes_nothing_an_earlier_part_made():
    """A follow-up task made, then "assigned" by a later part: the update overwrote what
    the make had said, and the rubric found a write with no change of its own. Nor does a
    job file a follow-up of the meeting it booked."""
    from compoworld.compose.workflow import job, may_follow

    first = job(BY_NAME["renewal_reminder"], BY_NAME["contact_deal"])
    assert not may_follow(first, BY_NAME["assign_task"])
    assert may_follow(BY_NAME["renewal_reminder"], BY_NAME["contact_deal"])
    # a renewal call booked, then "a task to follow up with them": the call is the
    # follow-up (a review read five such jobs as the same errand twice)
    assert not may_follow(BY_NAME["renewal_call"], BY_NAME["contact_deal"])


def test_a_section_listed_within_a_project_is_one_of_that_project():
    """An id looked up within a record found (an Avaza project's sections) is one the list
    puts in that record: a world whose list does not filter gave a section of another
    project, and the request filed the task "in the section X of the project Y"."""
    from compoworld.compose.values import Found
    from compoworld.compose.walk import _elsewhere

    listed = [Found("Sections[].SectionID", "Sections[0].SectionID", 7, "app.sections.id", None),
              Found("Sections[].ProjectIDFK", "Sections[0].ProjectIDFK", 58, "app.projects.id",
                    None),
              Found("Sections[].SectionID", "Sections[1].SectionID", 9, "app.sections.id", None),
              Found("Sections[].ProjectIDFK", "Sections[1].ProjectIDFK", 82, "app.projects.id",
                    None)]
    from compoworld.world.state import canonical_json

    scope = {"app.projects.id": canonical_json(82)}
    assert _elsewhere(listed[0], listed, scope) and not _elsewhere(listed[2], listed, scope)
    # one that says of no project whose it is, beside those that do, is of none (a section
    # filed under project 61 in one task and 97 in the next, over the same world)
    unsaid = Found("Sections[].SectionID", "Sections[2].SectionID", 38, "app.sections.id", None)
    assert _elsewhere(unsaid, [*listed, unsaid], scope)
    assert not _elsewhere(unsaid, [unsaid], scope)  # (a list that says it of none)


def test_a_follow_up_goes_where_its_words_fit():
    """Of the sections a follow-up task may go into, one named by what the job is about (a
    renewal's into "Contract renewals"), where there is one; any, where none is."""
    from compoworld.compose.records import Selector
    from compoworld.compose.values import Found
    from compoworld.compose.walk import Walk, _fitting

    def section(number: int, title: str) -> Found:
        return Found("Sections[].SectionID", f"Sections[{number}].SectionID", number,
                     "app.sections.id", Selector(field="Title", value=title))

    named = [section(0, "Security audit"), section(1, "Contract renewals")]
    walk = Walk(pattern="renewal_reminder_then_contact_deal",
                gist="reminding them that their contract renews next month")
    assert _fitting(named, walk) == [named[1]]
    assert _fitting(named[:1], walk) == named[:1]
    # a project is looked up by its own name where it can be: two projects titled alike
    # were told apart by "the project whose default account task type name is ..."
    by_kind = Found("Projects[].ProjectID", "Projects[0].ProjectID", 82, "app.projects.id",
                    Selector(field="DefaultAccountTaskTypeName", value="Sales Project"))
    by_own = Found("Projects[].ProjectID", "Projects[1].ProjectID", 49, "app.projects.id",
                   Selector(field="Title", value="Board Game"))
    assert _fitting([by_kind, by_own], walk) == [by_own]
    assert _fitting([by_kind], walk) == [by_kind]


@pytest.mark.slow
def test_a_follow_up_task_checks_back_on_a_request_and_on_nothing_else():
    """A follow-up task is one definition (`follow_up_task`, and its colleague's twin):
    the job files it after a request that awaits an answer ("remind them to sign their
    contract, and add a task to follow up with them"), never after a notice that asks
    nothing (a VPN that is ready), a copy into the CRM (whose own workflow plans its
    follow-up), another task, or a meeting booked (the meeting is the follow-up)."""
    from compoworld.compose.workflow import job, may_follow

    customer, colleague = BY_NAME["follow_up_task"], BY_NAME["colleague_follow_up"]
    for first in ("renewal_reminder", "case_study_request", "webinar_invite", "demo_offer"):
        assert may_follow(BY_NAME[first], customer), first
    for first in ("contract_signature", "timesheet_reminder", "policy_acknowledgement"):
        assert may_follow(BY_NAME[first], colleague), first
    for first in ("vpn_access_ready", "payslip_notice", "loyalty_reward", "lead_to_contact",
                  "assign_task", "onboarding_call", "one_on_one"):
        assert not may_follow(BY_NAME[first], customer), first
        assert not may_follow(BY_NAME[first], colleague), first
    made = job(BY_NAME["contract_signature"], colleague)
    assert made.parts == ("contract_signature", "colleague_follow_up")
    assert not may_follow(made, customer)  # (one follow-up a job)


def test_a_task_is_handed_on_to_a_newcomer_and_after_nothing_else():
    """"Tell a customer an item is back in stock, and hand a task to someone": any part
    could go on into handing over a task, two errands glued together. It follows a
    welcome or an onboarding alone (`Workflow.after`), as a newcomer's first task."""
    from compoworld.compose.workflow import may_follow

    handed = BY_NAME["assign_task"]
    for first in ("colleague_welcome", "new_hire"):
        assert may_follow(BY_NAME[first], handed), first
    for first in ("back_in_stock", "outage_apology", "contract_signature", "pricing_info"):
        assert not may_follow(BY_NAME[first], handed), first


def _tracker_library(corpus) -> ServiceLibrary:
    """A tracker that keeps no contacts (Avaza), a booking app's customers (OnSched
    Consumer) and the built-in email: where a request goes on into a follow-up task."""
    from compoworld.specs.sources import load_document

    return ServiceLibrary.from_specs(
        [load_document(corpus, "avaza.com.json"),
         load_document(corpus, "onsched.com/consumer.json"), builtin_spec("email")], seed=5)


def _begun_by(library: ServiceLibrary, workflow: Workflow) -> list[str]:
    """The start tools of `library` that begin `workflow`, sorted."""
    return sorted(s for s in start_tools(library.graph, patterned=True)
                  if workflow in library.patterns_at(s))


@pytest.mark.slow
def test_a_job_is_done_for_each_record_a_rank_takes_in_one_section_checked_by_name(corpus):
    """"The two longest-standing customers: ask each for a case study, and add a task to
    follow up with them": the job is made for each, both tasks in the one section looked
    up once (the second record's lookup had to state the same section anew, and every such
    job fell back to one record); each task is checked for the name it says, not its title
    word for word (two tasks in one section told apart by "Follow up with Kofi Lopez"
    exactly failed an agent's "Follow-up: Kofi Lopez"); a customer left alone whose record
    has no address the message took is told apart by the name a task of theirs would
    carry; and acting on every customer fails."""
    from compoworld.rollout.adversaries import run_adversary

    library, ask = _tracker_library(corpus), BY_NAME["case_study_request"]
    starts = _begun_by(library, ask)
    made = [compose_task(library, 7, starts[0], random.Random(seed), f"t{seed}",
                         patterned=True, workflow=ask, jobs=True, each=True)
            for seed in range(6)]
    jobs = [t for t in made if isinstance(t, Task) and "for_each" in t.operators
            and any(c.tool == "avaza_com__task_post" for c in t.gold_calls)]
    assert jobs, [getattr(t, "pattern", t) for t in made]
    for task in jobs:
        assert all(verify_task(task, library, Deduper()).values()), task.instruction
        posts = [c for c in task.gold_calls if c.tool == "avaza_com__task_post"]
        assert len(posts) >= 2 and len({(c.arguments["ProjectIDFK"], c.arguments["SectionIDFK"])
                                        for c in posts}) == 1
        assert sum(c.tool == "avaza_com__section_get" for c in task.gold_calls) == 1
        checks = [c for c in task.rubric if c.service == "avaza_com"]
        assert len(checks) == len(posts)
        for check in checks:
            assert "Title" not in check.params["fields"] and check.params["mentions"]
        names = [c.params["mentions"][0] for c in checks]  # (one customer's name each)
        assert len(set(names)) == len(posts) and all(
            sum(name in post.arguments["Title"] for name in names) == 1 for post in posts)
        assert any(c.kind == "record_untouched" for c in task.rubric)
        run = run_adversary(task, library, "every_record")
        assert not run.full_pass


def test_a_reminder_goes_on_into_a_follow_up_task_titled_by_whom_it_is_for(corpus):
    """Reminded of their renewal, the customer gets a follow-up task in a tracker that keeps
    no contacts (Avaza), in a section of a project looked up by name; the request asks for
    their name in its title, and the check wants it there: a task titled for another
    customer fails it."""
    from compoworld.reward.rubric import evaluate_criterion

    library, reminder = _tracker_library(corpus), BY_NAME["renewal_reminder"]
    starts = _begun_by(library, reminder)
    made = [compose_task(library, 7, starts[0], random.Random(seed), f"t{seed}",
                         patterned=True, workflow=reminder, jobs=True) for seed in range(4)]
    jobs = [t for t in made if isinstance(t, Task) and any(  # (its deal's, or its own)
        c.tool == "avaza_com__task_post" for c in t.gold_calls)]
    assert jobs, [getattr(t, "pattern", t) for t in made]
    for task in jobs:
        assert all(verify_task(task, library, Deduper()).values()), task.instruction
        assert "to follow up with them" in task.instruction and "title" in task.instruction
        assert " in Avaza in Avaza" not in task.instruction
        post = next(c for c in task.gold_calls if c.tool == "avaza_com__task_post")
        sections = library.world(task.world_seed).call(  # (a section of that project)
            "avaza_com__section_get", {"ProjectID": post.arguments["ProjectIDFK"]})
        assert post.arguments["SectionIDFK"] in [
            s["SectionID"] for s in sections["data"]["Sections"]]
        check = next(c for c in task.rubric if c.service == "avaza_com")
        name = check.params["mentions"][0]
        assert name in post.arguments["Title"] and name in task.instruction
        for title, holds in ((post.arguments["Title"], True),
                             ("Follow up with Somebody Else", False)):
            world = library.world(task.world_seed)
            for call in task.gold_calls:
                world.call(call.tool, post.arguments | {"Title": title} if call is post
                           else call.arguments)
            start, end = world.states(task.services)
            assert evaluate_criterion(check, start, end, "") is holds, title


@pytest.mark.parametrize("name, fact", [("back_in_stock", "this week"),
                                        ("dependency_upgrade", "log4j"),
                                        ("incident_handover", "EU customers"),
                                        ("document_review_request", "Q3 budget"),
                                        ("code_review_request", "checkout fix")])
def test_a_message_names_the_thing_it_is_about(name, fact):
    """"The item you asked about is back in stock", "upgrade the flagged logging library",
    "handing over the open payments incident": a blind review found each message told its
    reader nothing to act on, and a check that wanted only "stock" passed it. What they
    need is in the gist (when the back order ships, which library to what version, what
    is failing, which document or pull request to review), and the check wants it
    (`tells`): a review request checked for "Friday" alone passed one that named no
    document."""
    from compoworld.compose.notes import reference_note

    workflow = BY_NAME[name]
    assert fact in workflow.tells and fact in workflow.gist
    for seed in range(4):
        assert fact in reference_note(workflow.gist, {}, "x", random.Random(seed), name="Ana")


def test_a_lead_who_signed_up_is_thanked_not_welcomed_aboard():
    """A blind review read three lead welcomes as leads treated as customers: "Welcome
    aboard! We're glad to have you with us." A lead is thanked for signing up."""
    from compoworld.compose.notes import spoken

    said = {spoken(BY_NAME["lead_welcome"].gist, random.Random(seed)) for seed in range(6)}
    assert said and not any("aboard" in s for s in said) and all("thank" in s for s in said)

"""Select, then for each: a workflow asked for every record a rule selects, its near-misses
left alone, its request naming the rule and none of the records."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.each import (
    Rules,
    Selection,
    designed,
    is_rule,
    near_misses,
    passes,
    selections,
    workflow_rules,
)
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Binding, GoldCall, Task
from compoworld.compose.stage import start_tools
from compoworld.compose.steps import (
    BIGGEST,
    BY_COMPANY,
    BY_SEGMENT,
    DUE_FIRST,
    EVERY_VALID,
    NEWEST,
    OLDEST,
    tagged,
)
from compoworld.compose.values import value_at
from compoworld.compose.verify import Deduper, verify_task
from compoworld.compose.walk import random_walk, repeat_steps
from compoworld.compose.workflow import Operator
from compoworld.compose.workflows import BY_NAME, WORKFLOWS
from compoworld.rollout.adversaries import run_adversary
from compoworld.rollout.audit import audit_tasks
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec

PEOPLE = [
    {"id": 1, "name": "Ana Ruiz", "plan": "Gold", "status": "open", "notification_type": "sms"},
    {"id": 2, "name": "Li Wei", "plan": "Basic", "status": "open", "notification_type": "sms"},
    {"id": 3, "name": "Rosa Diaz", "plan": "gold", "status": "closed",
     "notification_type": "email"},
    {"id": 4, "name": "Omar Haddad", "plan": "Basic", "status": "open",
     "notification_type": "sms"},
]


def listed(people: list[dict], **bindings: Binding) -> GoldCall:
    return GoldCall(tool="crm__list_people", service="crm", effect="read", arguments={},
                    bindings=bindings, result={"data": people})


SEGMENTS = workflow_rules((BY_SEGMENT,))


def test_a_notice_goes_to_everyone_at_one_client_company():
    """"Everyone at Juniper Labs": a company's name is a rule where a person's never is,
    said as whom they work for (not "whose company name is"); and no world is set up to
    hold one, since a contact's company is their email's domain too (a contact moved to
    Juniper Labs would still write from bayside-logistics.com)."""
    people = [p | {"company_name": c} for p, c in zip(
        PEOPLE, ["Juniper Labs", "Bayside Logistics", "Juniper Labs", "Cobalt Systems"],
        strict=True)]
    rules = workflow_rules((BY_COMPANY,))
    [chosen] = selections(listed(people), "data[0]", 4, rules)
    assert chosen.heads == ("data[0]", "data[2]") and chosen.field == "company_name"
    assert chosen.target("contact", "HubSpot", "company name") == \
        "every contact in HubSpot who works at Juniper Labs"
    assert selections(listed(people), "data[3]", 4, rules) == []  # (the only one at Cobalt)
    assert designed(listed(people), "data[3]", 4, rules, random.Random(0),
                    ("crm", "people", "id")) is None
    # (a person's own name is never a rule, whatever words a definition allows)
    assert not is_rule("contact_name", "Ana Ruiz", Rules(frozenset({"contact", "company"})))
    assert any(BY_COMPANY in BY_NAME[n].operators
               for n in ("holiday_hours_notice", "price_change_notice", "webinar_invite"))


def test_a_rule_selects_the_record_and_those_like_it_and_leaves_the_rest():
    """Ana's plan is Gold, and so is Rosa's ("gold"): a customer segment selects both,
    Ana first, and leaves Li and Omar alone (the near-misses). Their status, or an app's
    setting ("whose notification type is sms"), is no segment."""
    found = selections(listed(PEOPLE), "data[0]", total=4, rules=SEGMENTS)
    assert [(s.field, s.value, s.heads, s.others) for s in found] == [
        ("plan", "Gold", ("data[0]", "data[2]"), ("data[1]", "data[3]"))]


def test_a_label_the_workflow_names_selects_the_records_filed_under_it():
    """Most apps keep no plan or tier, but their records carry labels: Shopify, Apideck
    and SalesLoft contacts hold `tags` ["vip", "billing"], Box users `my_tags`. A loyalty
    reward goes to the customers tagged "vip", said as a person says it ("tagged", not
    "whose tags is"), and never by a label the workflow does not name: a customer tagged
    "internal" is told of no reward."""
    people = [p | {"tags": t} for p, t in zip(
        PEOPLE, [["vip", "billing"], ["internal"], ["VIP"], ["billing", "internal"]],
        strict=True)]
    rules = workflow_rules((tagged("vip"), BY_SEGMENT))
    assert rules.tags == {"vip"} and "tags" not in rules.fields and not rules.values
    found = [s for s in selections(listed(people), "data[0]", 4, rules) if s.field == "tags"]
    assert [(s.value, s.heads, s.others) for s in found] == [
        ("vip", ("data[0]", "data[2]"), ("data[1]", "data[3]"))]
    assert found[0].target("customer", "Shopify", "tags") == \
        'every customer in Shopify tagged "vip"'
    assert replace(found[0], field="labels").target("issue", "GitHub", "labels") == \
        'every issue in GitHub labelled "vip"'
    assert [s for s in selections(listed(people), "data[1]", 4, rules)
            if s.field == "tags"] == []  # (internal: a label no one asked for)
    assert workflow_rules((BY_SEGMENT,)).tags == frozenset()
    assert tagged("vip") in BY_NAME["loyalty_reward"].operators


def test_a_job_chooses_its_records_by_its_first_part_s_rules():
    """An NDA reminder, then a follow-up task, went to "every contact tagged
    "follow-up"": the follow-up's label, which says nothing of who owes an NDA. A job's
    records are chosen as its first part's story chooses them. Nor is a label a rule
    where the message presumes what it does not say: "vip" says no one has a back order."""
    from compoworld.compose.workflow import job

    nda, follow = BY_NAME["nda_signature_reminder"], BY_NAME["follow_up_task"]
    assert tagged("follow-up") in follow.operators
    assert job(nda, follow).operators == nda.operators
    assert not workflow_rules(BY_NAME["back_in_stock"].operators).tags


def test_a_world_is_set_up_to_hold_a_label_taken_from_the_rest():
    """Where no other customer is tagged "vip", one to five are given the label beside
    their own, the walk's customer too, and those left alone lose it: the patch sets each
    record's whole list of labels, and the others keep theirs."""
    people = [p | {"tags": t} for p, t in zip(
        PEOPLE, [["billing"], ["vip", "internal"], [], ["renewal"]], strict=True)]
    rules = workflow_rules((tagged("vip"),))
    for seed in range(6):
        made = designed(listed(people), "data[0]", 4, rules, random.Random(seed),
                        ("crm", "people", "id"))
        assert made is not None
        chosen, patch = made
        assert chosen.field == "tags" and chosen.value == "vip"
        after = {p["id"]: p["tags"] for p in people} | {e["id"]: e["value"] for e in patch}
        picked = {int(h[5:-1]) + 1 for h in chosen.heads}
        assert {i for i, tags in after.items() if "vip" in tags} == picked and 1 in picked
        assert chosen.others and all(set(after[i]) == set(people[i - 1]["tags"]) - {"vip"}
                                     for i in {1, 2, 3, 4} - picked)
        assert set(after[1]) == {"billing", "vip"}  # (its own label kept)
    plain = [p | {"tags": "vip"} for p in PEOPLE]  # (no list of labels: nothing to set up)
    assert designed(listed(plain), "data[0]", 4, rules, random.Random(0),
                    ("crm", "people", "id")) is None


def test_a_workflow_chooses_by_no_rule_its_definition_does_not_name():
    """A thank-you for the meetings with the "lowest sale price", or a reminder to the
    users whose plan is Gold, is no request: with no rule of its own, nothing is chosen."""
    people = [p | {"sale_price": v} for p, v in zip(PEOPLE, [5, 9, 7, 1], strict=True)]
    assert selections(listed(people), "data[0]", 4, Rules()) == []


def test_a_status_is_a_rule_only_where_the_workflow_says_which():
    """Which status a workflow may act on is its own: a thank-you for a meeting still
    "pending" is none. A workflow that selects by status says so, and by which values."""
    call = listed(PEOPLE)
    assert not [s for s in selections(call, "data[1]", 4, SEGMENTS) if s.field == "status"]
    rules = workflow_rules((Operator("select", field="status", rule="open overdue"),))
    assert rules == Rules(frozenset({"status"}), frozenset({"open", "overdue"}))
    assert [(s.field, s.heads) for s in selections(call, "data[1]", 4, rules)
            if s.field == "status"] == [("status", ("data[1]", "data[0]", "data[3]"))]
    closed = workflow_rules((Operator("select", field="status", rule="overdue"),))
    assert not [s for s in selections(call, "data[1]", 4, closed) if s.field == "status"]


def test_a_default_is_a_setting_and_no_rule():
    """Stripe's customers hold a `default_source` (their card): "every customer whose
    default source is "trade_show"" was asked of a lead follow-up, as if it said where the
    lead came from. A `lead_source` says that, and is one."""
    from compoworld.compose.steps import BY_LEAD

    sources = ["trade_show", "referral", "trade_show", "website"]
    by_lead = workflow_rules((BY_LEAD,))
    for key in ("default_source", "lead_source"):
        people = [p | {key: v} for p, v in zip(PEOPLE, sources, strict=True)]
        chosen = [s for s in selections(listed(people), "data[0]", 4, by_lead)
                  if s.field == key]
        assert bool(chosen) is (key == "lead_source"), key


def test_a_rank_takes_the_first_records_by_a_measure_the_walk_s_own_among_them():
    """Ana's total, 50, is the second highest: "the two customers with the highest
    total" takes her and Rosa; "the three with the lowest" takes her, Li and Omar."""
    people = [p | {"total": b} for p, b in zip(PEOPLE, [50, 20, 80, 20], strict=True)]
    both = workflow_rules((BIGGEST, Operator("rank", field="total", k=4, order="bottom")))
    found = [s for s in selections(listed(people), "data[0]", 4, both) if s.order]
    assert [(s.field, s.order, s.heads, s.others) for s in found] == [
        ("total", "top", ("data[0]", "data[2]"), ("data[1]", "data[3]")),
        ("total", "bottom", ("data[0]", "data[1]", "data[3]"), ("data[2]",))]
    assert found[0].operators == ["rank", "for_each"]
    assert found[0].target("customer", "Billbee", "total") == \
        "the two customers in Billbee with the highest total"


def test_no_rank_cuts_through_a_tie():
    """Ana's and Li's totals are both 50: neither is "the customer with the highest
    total" alone, so the rank takes both or none."""
    people = [p | {"total": b} for p, b in zip(PEOPLE, [50, 50, 20, 10], strict=True)]
    top = [s for s in selections(listed(people), "data[0]", 4, workflow_rules((BIGGEST,)))
           if s.order == "top"]
    assert [s.heads for s in top] == [("data[0]", "data[1]"),  # (never data[0] alone)
                                      ("data[0]", "data[1]", "data[2]")]


def test_a_rank_by_a_day_says_earliest_and_one_record_is_no_for_each():
    """Ana's invoice is due first, and the three after it on one day: no rank of two or
    three cuts between them, so the rank takes hers alone."""
    people = [p | {"due_date": d} for p, d in zip(
        PEOPLE, ["2026-11-02", "2026-11-20", "2026-11-20", "2026-11-20"], strict=True)]
    [first] = [s for s in selections(listed(people), "data[0]", 4,
                                     workflow_rules((DUE_FIRST,))) if s.order == "bottom"]
    assert first.heads == ("data[0]",) and first.operators == ["rank"]
    assert first.target("invoice", "Xero", "due date") == \
        "the invoice in Xero with the earliest due date"


def test_a_rank_by_when_records_were_made_says_newest_or_oldest():
    """"the two newest customers", never "the customers with the latest creation time";
    a time counted in seconds is a time all the same."""
    people = [p | {"created": t} for p, t in zip(PEOPLE, [1700, 1900, 1800, 1600],
                                                 strict=True)]
    newest, three = selections(listed(people), "data[2]", 4, workflow_rules((NEWEST,)))
    assert newest.heads == ("data[2]", "data[1]") and newest.dated
    assert newest.target("customer", "Square", "creation time") == \
        "the two newest customers in Square"
    assert three.heads == ("data[2]", "data[1]", "data[0]") and three.target(
        "customer", "Square", "creation time") == "the three newest customers in Square"
    first, _three, alone = selections(listed(people), "data[3]", 4, workflow_rules((OLDEST,)))
    assert first.heads == ("data[3]", "data[0]")  # (two first: the same steps for each,
    # where "the longest-standing contact" alone is one errand, tried after it)
    assert first.target("contact", "Square", "creation time") == \
        "the two longest-standing contacts in Square"  # (no "oldest": a contact has an age)
    assert alone.heads == ("data[3]",) and alone.target(
        "contact", "Square", "creation time") == "the longest-standing contact in Square"


@pytest.mark.parametrize("key", ["creationTime", "registrationDate", "created_at"])
def test_records_are_ranked_by_when_they_were_made_whatever_the_app_calls_it(key):
    """Google Workspace's users say when they were made in "creationTime", a portal's
    customers in "registrationDate": before, neither was a measure of age, so "the
    colleagues who joined last" chose no one there, where most records hold nothing else
    to choose by (no team, no plan)."""
    days = ["2024-03-01T09:00:00Z", "2025-06-02T09:00:00Z", "2025-01-15T09:00:00Z",
            "2023-11-20T09:00:00Z"]
    people = [p | {key: d} for p, d in zip(PEOPLE, days, strict=True)]
    newest, _three = selections(listed(people), "data[2]", 4, workflow_rules((NEWEST,)))
    assert newest.heads == ("data[2]", "data[1]")
    assert newest.target("colleague", "Google Workspace", "creation time") == \
        "the two newest colleagues in Google Workspace"
    [first, _three, _alone] = selections(listed(people), "data[3]", 4, workflow_rules((OLDEST,)))
    assert first.heads == ("data[3]", "data[0]") and first.target(
        "customer", "Shop", "registration date") == "the two longest-standing customers in Shop"


def test_a_reward_for_loyalty_goes_to_the_longest_standing_where_no_spend_is_kept():
    """A customer record rarely says what they spent, but always when they joined: the
    loyalty reward, case study and referral ask go to those with us longest, never the
    newest (a reward for loyalty to last week's sign-up reads as made up)."""
    for name in ("loyalty_reward", "case_study_request", "referral_request"):
        ranks = workflow_rules(BY_NAME[name].operators).ranks
        assert (frozenset(OLDEST.field.split()), "bottom") in ranks, name
        assert all(order != "top" or "created" not in words for words, order in ranks), name
    people = [p | {"created_at": d} for p, d in zip(
        PEOPLE, ["2021-01-04", "2024-09-30", "2025-02-11", "2022-05-17"], strict=True)]
    [loyal, _three] = [s for s in selections(listed(people), "data[3]", 4, workflow_rules(
        BY_NAME["loyalty_reward"].operators)) if s.order]  # (and "whose plan is Basic")
    assert loyal.heads == ("data[3]", "data[0]") and loyal.order == "bottom"


@pytest.mark.parametrize("key, values", [
    ("id", [1, 2, 3, 4]),                       # an id measures nothing
    ("total_label", ["a", "b", "c", "d"]),      # words, not a measure
    ("balance", [50, None, 20, 10]),            # one record lacks it: no one rank
    ("zip", [1000, 2000, 3000, 4000]),          # a number that is no amount
])
def test_no_rank_by_what_is_no_measure(key, values):
    people = [p | {key: v} for p, v in zip(PEOPLE, values, strict=True)]
    anything = workflow_rules((Operator("rank", field=key.replace("_", " "), k=4,
                                        order="top"),))
    assert not [s for s in selections(listed(people), "data[0]", 4, anything)
                if s.field == key]


@pytest.mark.parametrize("why, call, total", [
    ("the list is a page of a larger collection", listed(PEOPLE), 9),
    ("the list was read by a stated filter", listed(PEOPLE, q=Binding(kind="visible",
                                                                      type="string")), 4),
    ("every record meets the rule: nothing is left alone",
     listed([p | {"plan": "Gold"} for p in PEOPLE]), 4),
    ("too few records to select among", listed(PEOPLE[:2]), 2),
])
def test_no_rule_where_every_record_could_not_be_seen_or_none_is_left(why, call, total):
    assert selections(call, "data[0]", total, SEGMENTS) == [], why


def test_each_record_s_calls_read_as_a_walk_of_their_own():
    """A guard reads one record's walk: the first read, then that record's calls, their
    sources numbered as if they were the only ones."""
    read = listed(PEOPLE)

    def send(to: str, source: int) -> GoldCall:
        return GoldCall(tool="email__send_email", service="email", effect="action",
                        arguments={"to": to}, result={},
                        bindings={"to": Binding(kind="hidden", type="email", step=source,
                                                path=f"data[{source}].email")})
    lookup = GoldCall(tool="crm__get", service="crm", effect="read", arguments={},
                      bindings={}, result={})
    calls = [read, send("a@x.io", 0), lookup, send("b@x.io", 2)]
    first, second = passes(calls, [0, 1, 3], 2)
    assert [c.tool for c in first] == ["crm__list_people", "email__send_email"]
    assert [c.tool for c in second] == ["crm__list_people", "crm__get", "email__send_email"]
    assert second[2].bindings["to"].step == 1  # (the lookup, second in its own walk)
    assert first[1].bindings["to"].step == 0


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    library = ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])
    library.use_workflows(WORKFLOWS)
    return library


def selected_tasks(library: ServiceLibrary,
                   names: tuple[str, ...] = ("webinar_invite", "issue_to_channel")
                   ) -> list[Task]:
    """The tasks of workflows `names` over the built-in services (by default one that
    selects contacts by their city and one that takes the oldest issue), each asked for
    the records a rule selects or a rank takes."""
    starts = sorted(start_tools(library.graph, patterned=True))
    made = []
    for workflow in WORKFLOWS:
        mine = [s for s in starts if workflow in library.patterns_at(s)]
        if mine and (workflow.name in names or not names):
            made += [compose_task(library, 7, mine[seed % len(mine)], random.Random(seed),
                                  f"t{seed}", patterned=True, workflow=workflow, each=True)
                     for seed in range(6)]
    return [t for t in made if isinstance(t, Task) and t.operators]


def test_a_selection_composes_verified_tasks_whose_request_names_the_rule(library):
    tasks = selected_tasks(library)
    assert tasks
    for task in tasks:
        assert [o for o in task.operators if o != "aggregate"] in (
            ["select", "for_each"], ["rank", "for_each"], ["rank"])
        assert all(verify_task(task, library, Deduper()).values()), task.instruction
        sends = [c for c in task.gold_calls if c.effect != "read"]
        assert (len(sends) == 1) == (task.operators == ["rank"]) and len(sends) <= 6
        assert len({json.dumps(c.arguments, sort_keys=True) for c in sends}) == len(sends)
        # the records are named by the rule in the ask itself ("For every customer in
        # Billbee whose plan is "Gold", please ..."), never by a stock line of its own
        assert task.instruction.startswith(("For ", "Please go through ", "Could you take ",
                                            "This is for ")), task.instruction
        assert not task.instruction.startswith(("It concerns ", "I need this done for "))


def test_a_for_each_may_ask_whom_it_acted_on_and_the_answer_names_no_near_miss(library):
    """The aggregate of a for-each: the request asks which records it acted on ("reply to
    me with the name of each contact you did this for"), the answer is checked for each
    chosen record's own name, and fails where it names one the rule left alone (or dumps
    the whole list). The reference policy's answer passes. Only people and companies are
    reported: "the name of each appointment" read as its title, where the check wanted
    whom it is for; and "by email" read as a channel."""
    from compoworld.reward.rubric import evaluate_criterion

    tasks = [t for t in selected_tasks(library) if "aggregate" in t.operators]
    assert tasks
    for task in tasks:
        assert all(verify_task(task, library, Deduper()).values()), task.instruction
        sends = [c for c in task.gold_calls if c.effect != "read"]
        assert BY_NAME[task.pattern.split("_then_")[0]].steps[0].entity in (
            "person", "staff", "org")
        checks = [c for c in task.rubric if c.kind == "answer_contains"]
        assert len(checks) == len(task.answer) == len(sends) >= 2
        names = [c.params["value"] for c in checks]
        assert not any(name in task.instruction for name in names)  # (found, not told)
        assert any(w in task.instruction for w in ("reply to me with", "In your reply",
                                                   "reply with a list"))
        assert " by email" not in task.instruction  # (a channel, not what to give)
        assert task.instruction.endswith((".", "?")), task.instruction  # (a whole sentence)
        assert all("none of the other candidates" in c.description for c in checks)  # (a
        # reader of the check sees that naming one left alone fails)
        left = {n for c in checks for n in c.params["competitors"]}
        assert left and not left & set(names)  # (the near-misses, and only them)
        good, bad = "Done: " + ", ".join(names), "Done: " + ", ".join([*names, *left])
        assert all(evaluate_criterion(c, {}, {}, good) for c in checks)
        assert not any(evaluate_criterion(c, {}, {}, bad) for c in checks)
        run = run_adversary(task, library, "read_all")
        assert not all(p for p, c in zip(run.passes, task.rubric, strict=True)
                       if c.kind == "answer_contains")


def test_acting_on_every_record_instead_of_the_selected_ones_fails(library):
    """An agent that sends to every record of the list, near-misses too, makes messages
    the task does not ask for: the guard fails it (the `every_record` adversary)."""
    for task in selected_tasks(library):
        run = run_adversary(task, library, "every_record")
        assert run.calls > len(task.gold_calls)  # (it did act on the others)
        assert not run.full_pass and not run.passes[-1]  # (the guard)
        kinds = [c.kind for c in task.rubric]
        assert "record_untouched" in kinds  # (each near-miss has its own check...)
        assert all(p for p, k in zip(run.passes, kinds, strict=True)  # (an answer: below)
                   if k not in ("record_untouched", "no_collateral_change", "answer_contains"))
        assert not all(p for p, k in zip(run.passes, kinds, strict=True)
                       if k == "record_untouched")  # (... which it fails)


def test_every_message_greets_its_own_record_s_person_by_name(library):
    """The first record's message was written before the walk knew whose it was (its
    subject is set once a call took from it): it greeted "Hi there," where the records
    after it were greeted "Hello Chloe!", in 84 of 85 selections of a default run, and in
    nearly every task of one record. Each message greets the person its record names."""
    tasks = selected_tasks(library, ("webinar_invite",))
    assert tasks
    for task in tasks:
        for call in task.gold_calls[1:]:
            [(param, binding)] = [(p, b) for p, b in call.bindings.items()
                                  if b.kind == "hidden" and b.step == 0]
            record = value_at(task.gold_calls[0].result, binding.path.rpartition(".")[0])
            first = next(v.split()[0] for k, v in record.items()
                         if k in ("first_name", "name") and isinstance(v, str))
            body = next(v for k, v in call.arguments.items() if k in ("body", "text"))
            assert first in body.split(".")[0].split("!")[0], (first, body)


def test_the_reference_solves_every_selection_and_no_adversary_passes_one(library):
    """Over every workflow's selections and ranks, the reference policy finds each record
    by its own selector and scores 1.0, and the adversaries pass nothing: `every_record`
    acts on the others, and fails."""
    tasks = selected_tasks(library, names=())
    assert len(tasks) >= 6 and {"select", "rank"} <= {o for t in tasks for o in t.operators}
    audit = audit_tasks(tasks, library)
    assert audit.ok, audit.lines()
    acted = [run_adversary(task, library, "every_record").calls for task in tasks]
    assert all(calls > len(task.gold_calls) for task, calls in zip(tasks, acted, strict=True))


def test_a_task_s_difficulty_counts_what_makes_it_hard():
    """A read and a send is a 1; the same for each of the records a rule selects is a 3;
    a chain of four calls over three apps, for each selected, is a 5."""
    from compoworld.compose.build import difficulty, hops

    def call(service: str, source: int | None) -> GoldCall:
        bound = {} if source is None else {"x": Binding(kind="hidden", type="email",
                                                        step=source, path="data[0].x")}
        return GoldCall(tool=f"{service}__t", service=service, effect="read", arguments={},
                        bindings=bound, result={})
    errand = [call("crm", None), call("mail", 0)]
    chain = [call("crm", None), call("shop", 0), call("books", 1), call("mail", 2)]
    assert (hops(errand), difficulty(errand, [])) == (1, 1)
    assert difficulty(errand, ["select", "for_each"]) == 3
    assert (hops(chain), difficulty(chain, [])) == (3, 4)
    assert difficulty(chain, ["select", "for_each"]) == 5


def test_a_world_is_set_up_to_hold_a_rule_its_near_misses_left_with_a_value_of_its_own():
    """Where no two customers share a plan, one to three others are given the walk's
    record's plan, and the rest a plan another customer holds already ("Basic"), never a
    made-up one; the patch names each record it sets."""
    people = [p | {"plan": plan} for p, plan in zip(PEOPLE, ["Gold", "Basic", "Silver", "Pro"],
                                                    strict=True)]
    made = designed(listed(people), "data[0]", 4, SEGMENTS, random.Random(3),
                    ("crm", "people", "id"))
    assert made is not None
    chosen, patch = made
    assert chosen.field == "plan" and chosen.value == "Gold" and chosen.heads[0] == "data[0]"
    assert 2 <= len(chosen.heads) <= 3 and chosen.others
    after = {p["id"]: p["plan"] for p in people} | {e["id"]: e["value"] for e in patch}
    picked = {int(h[5:-1]) + 1 for h in chosen.heads}
    assert {i for i, plan in after.items() if plan == "Gold"} == picked
    assert all(e["value"] in ("Basic", "Silver", "Pro", "Gold") for e in patch)
    assert all(e["service"] == "crm" and e["collection"] == "people" for e in patch)
    alone = [p | {"plan": "Gold"} for p in PEOPLE]  # (no other plan to leave them with)
    assert designed(listed(alone), "data[0]", 4, SEGMENTS, random.Random(3),
                    ("crm", "people", "id")) is None


def test_a_patched_world_starts_with_its_fields_set_and_replays_the_same():
    """A task's world patch is part of its world: every fresh world of the task starts
    with the fields set, and its start state (what checks compare against) holds them."""
    library = ServiceLibrary.from_specs([builtin_spec("crm")])
    patch = [{"service": "crm", "collection": "contacts", "id": "con_0002", "field": "city",
              "value": "Oslo"}]
    plain, patched = library.world(7), library.world(7, patch)
    listed_plain = plain.call("crm__search_contacts", {})["data"]
    listed_patched = patched.call("crm__search_contacts", {})["data"]
    assert [c["city"] for c in listed_patched if c["id"] == "con_0002"] == ["Oslo"]
    assert [c for c in listed_plain if c["id"] != "con_0002"] == \
        [c for c in listed_patched if c["id"] != "con_0002"]
    assert patched.start("crm").records("contacts")["con_0002"]["city"] == "Oslo"
    assert library.world(7).start("crm").records("contacts")["con_0002"]["city"] != "Oslo"


def test_a_task_s_world_patch_is_stored_with_it(library):
    """The patch a set-up world holds travels in the task's row: a task read back from its
    row builds the same world."""
    from compoworld.compose.stage import task_from_row, task_row

    task = selected_tasks(library)[0].model_copy(update={"world_patch": [
        {"service": "crm", "collection": "contacts", "id": "con_0002", "field": "city",
         "value": "Oslo"}]})
    stored = task_from_row(task_row(task, {}, task.gold_calls[0].tool, 0.0))
    assert stored == task and stored.world_patch == task.world_patch


def _texted(read: GoldCall, source: int = 0) -> list[GoldCall]:
    """The first read, then a text to record `source`'s phone."""
    return [read, GoldCall(tool="sms__send", service="sms", effect="action",
                           arguments={"to": "+4915100000001"}, result={}, bindings={
                               "to": Binding(kind="hidden", type="phone", step=0,
                                             path=f"data[{source}].phone")})]


def test_a_record_no_step_could_be_made_for_is_no_near_miss_to_check():
    """A text goes to a phone. Of the customers a rule leaves alone, one with a phone gets
    a check that nothing carries it; one with no phone at all cannot be texted, so there is
    nothing to check (None), and the selection is not refused for it. A near-miss sharing
    the chosen one's phone (one company line) has no text of its own left."""
    people = [p | {"phone": f"+49151000000{p['id']:02d}"} for p in PEOPLE]
    del people[1]["phone"]
    people[3]["phone"] = people[0]["phone"]
    chosen = Selection("plan", "Gold", ("data[0]", "data[2]"), ("data[1]", "data[3]"))
    assert near_misses(_texted(listed(people)), chosen) == [None, []]
    people[3]["phone"] = "+4915100000099"
    assert near_misses(_texted(listed(people)), chosen) == [None, ["+4915100000099"]]


def test_a_set_up_world_chooses_only_records_the_steps_can_be_made_for():
    """A set-up world gives the walk's plan to records that hold the phone the text goes
    to, and leaves one such record alone at least: a record with no phone is never chosen
    (its text could not be sent), and a near-miss nobody could text tells no careless
    agent apart."""
    people = [p | {"plan": plan, "phone": f"+49151000000{p['id']:02d}"}
              for p, plan in zip(PEOPLE, ["Gold", "Basic", "Silver", "Pro"], strict=True)]
    del people[1]["phone"]
    for seed in range(8):
        made = designed(listed(people), "data[0]", 4, SEGMENTS, random.Random(seed),
                        ("crm", "people", "id"), [".phone"])
        assert made is not None
        chosen, _ = made
        assert "data[1]" not in chosen.heads and len(chosen.heads) == 2
        assert {"data[2]", "data[3]"} & set(chosen.others)
    del people[2]["phone"]  # (one other with a phone: none to choose and one to leave)
    assert designed(listed(people), "data[0]", 4, SEGMENTS, random.Random(3),
                    ("crm", "people", "id"), [".phone"]) is None


def test_a_repeat_its_guards_refuse_leaves_the_walk_and_world_as_they_were(library):
    """Each record's walk answers to the workflow's guards (a reminder made again for an
    event that is over is none): where `accept` refuses the walk made for all of them,
    the calls, the records and what the walk found are those of the first record alone."""
    workflow = next(w for w in WORKFLOWS if w.name == "webinar_invite")
    starts = sorted(s for s in start_tools(library.graph, patterned=True)
                    if workflow in library.patterns_at(s))
    for seed in range(12):
        world = library.world(7)
        walk = random_walk(library.graph, world, starts[0], random.Random(seed),
                           plan=workflow, apps=library.apps())
        if walk.failure or 0 not in walk.subject:
            continue
        head, read = walk.subject[0], walk.calls[0]
        where = head.rpartition("[")[0]
        others = [f"{where}[{i}]" for i in range(len(value_at(read.result, where)))
                  if f"{where}[{i}]" != head][:1]
        before = (list(walk.calls), list(walk.steps), dict(walk.subject),
                  world.digest())
        asked: list[int] = []

        def refuse(made, asked=asked) -> bool:
            asked.append(len(made.calls))
            return False
        assert repeat_steps(library.graph, world, walk, workflow, tuple(others),
                            random.Random(1), accept=refuse) is None
        if not asked:
            continue  # (no step found for the other record: nothing was asked)
        assert asked[0] > len(before[0])  # (it was asked of the walk made for both)
        assert (walk.calls, walk.steps, walk.subject, world.digest()) == before
        assert repeat_steps(library.graph, world, walk, workflow, tuple(others),
                            random.Random(1), accept=lambda w: True) == ()
        assert len(walk.calls) == asked[0]
        return
    pytest.fail("no walk of webinar_invite to repeat for a second contact")


def test_a_message_made_again_for_another_record_names_that_record_s_facts():
    """A confirmation made for the second appointment of a selection names the second
    appointment's start, not the first's: the calls made for the first record are not
    what the second one's message is about."""
    from types import SimpleNamespace

    from compoworld.compose.walk import Walk, _event_facts

    read = GoldCall(tool="crm__list_appointments", service="crm", effect="read",
                    arguments={}, bindings={}, result={"data": [
                        {"id": 1, "start_time": "2025-03-05T09:15:00Z", "phone": "+1555"},
                        {"id": 2, "start_time": "2025-03-17T12:00:00Z", "phone": "+1666"}]})
    first = _texted(read)[1]
    walk = Walk(calls=[read, first], subject={0: "data[1]"}, about="event",
                repeated="data[0]")
    second = {"to": Binding(kind="hidden", type="phone", step=0, path="data[1].phone")}
    graph = SimpleNamespace(nodes={})
    assert _event_facts(graph, walk, second) == ("", "2025-03-17T12:00:00Z")
    walk.subject, walk.repeated = {0: "data[0]"}, ""
    assert _event_facts(graph, walk, dict(first.bindings)) == ("", "2025-03-05T09:15:00Z")


def test_a_guard_s_words_choose_the_records_it_does_not_flag():
    """A reply goes to tickets still open. With the closed one flagged by the workflow's
    guard, "every ticket that is still open" is a rule of its own where the workflow says
    so (`EVERY_VALID`): the others, the closed one left alone. A rule that takes a closed
    ticket says so ("... and that is still open") and leaves it; a rank ranks the open
    ones only, and says so where a closed one would have come first. No rule takes a
    record no step can be made for."""
    from compoworld.compose.each import UNABLE

    still = "that is still open"
    people = [p | {"opened": day} for p, day in
              zip(PEOPLE, ["2025-01-02", "2025-01-04", "2025-01-01", "2025-01-03"], strict=True)]
    probed = {"data[1]": "", "data[2]": still, "data[3]": ""}
    rules = workflow_rules((BY_SEGMENT, EVERY_VALID,
                            Operator("rank", field="opened", k=2, order="bottom")))
    found: dict[tuple[str, str], Selection] = {}
    for s in selections(listed(people), "data[0]", 4, rules, probed):
        found.setdefault((s.field, s.order), s)  # (a rank of two before the one alone)
    held = found[("", "")]
    assert held.heads == ("data[0]", "data[1]", "data[3]") and held.others == ("data[2]",)
    assert held.target("ticket", "Gitea", "") == "every ticket in Gitea that is still open"
    plan = found[("plan", "")]  # (Ana and Rosa are Gold; Rosa's ticket is closed)
    assert plan.heads == ("data[0]",) and set(plan.others) == {"data[1]", "data[2]", "data[3]"}
    assert plan.target("ticket", "Gitea", "plan") == \
        'every ticket in Gitea whose plan is "Gold" and that is still open'
    rank = found[("opened", "bottom")]  # (Rosa's, the oldest, is closed: passed over)
    assert rank.heads == ("data[0]", "data[3]") and "data[2]" in rank.others \
        and rank.also == still
    assert rank.target("ticket", "Gitea", "opened date") == \
        "the two tickets in Gitea that are still open with the earliest opened date"
    one = replace(rank, heads=("data[0]",))
    assert one.target("ticket", "Gitea", "opened date") == \
        "the ticket in Gitea that is still open with the earliest opened date"
    unable = selections(listed(people), "data[0]", 4, rules, probed | {"data[1]": UNABLE})
    assert [s.field for s in unable if not s.order] == ["plan"]  # (Li is no Gold customer)
    unable = selections(listed(people), "data[0]", 4, rules, probed | {"data[2]": UNABLE})
    assert not [s for s in unable if not s.order]
    plain = selections(listed(people), "data[0]", 4, workflow_rules((BY_SEGMENT,)), probed)
    assert [s.field for s in plain] == ["plan"]  # (a welcome goes to no "every active one")


def test_the_first_of_the_events_still_ahead_are_the_next_ones():
    """A rank by start among the events still ahead reads "the next meeting", not "the
    meeting that is still ahead with the earliest start time"."""
    ahead = Selection("start_time", "", ("data[0]", "data[3]"), ("data[1]", "data[2]"),
                      "bottom", True, also="that is still ahead")
    assert ahead.target("meeting", "Zoom", "start time") == "the next two meetings in Zoom"
    assert replace(ahead, heads=("data[0]",)).target("meeting", "Zoom", "start time") == \
        "the next meeting in Zoom"


def test_each_record_s_message_is_checked_for_its_own_facts():
    """The facts a message may name are those of every record the steps were made for: a
    reminder for the second meeting is checked for the second meeting's date too (its
    check had named no date at all, where the first one's named it)."""
    from compoworld.compose.references import subject_facts

    read = GoldCall(tool="crm__list_meetings", service="crm", effect="read", arguments={},
                    bindings={}, result={"data": [
                        {"id": 1, "start_time": "2025-03-05T09:15:00Z", "phone": "+1555"},
                        {"id": 2, "start_time": "2025-03-17T12:00:00Z", "phone": "+1666"},
                        {"id": 3, "start_time": "2025-03-20T12:00:00Z", "phone": "+1777"}]})
    calls = [read, _texted(read, 0)[1], _texted(read, 1)[1]]
    assert subject_facts(calls) == {"2025-03-05T09:15:00Z": "its date",
                                    "2025-03-17T12:00:00Z": "its date"}
    assert subject_facts(calls[:2]) == {"2025-03-05T09:15:00Z": "its date"}


def test_a_world_is_set_up_with_a_near_miss_a_guard_flags():
    """Where every colleague is active, "every user who is still active" would be every
    user: one other is given a status the schema allows and the guard flags ("inactive"),
    left alone by the request's words; a status no guard flags (a second "active") is
    never chosen, and a workflow that may not be asked for every valid record gets none."""
    from types import SimpleNamespace

    from compoworld.compose.build import _guard_set_up
    from compoworld.compose.workflows import BY_NAME

    people = [p | {"status": "active", "phone": f"+4915100000{p['id']:02d}"} for p in PEOPLE]
    read = listed(people)
    walk = SimpleNamespace(calls=_texted(read), subject={0: "data[0]"})
    library = SimpleNamespace(graph=SimpleNamespace(nodes={read.tool: SimpleNamespace(
        resource="people")}))
    plan = BY_NAME["self_review_reminder"]
    probed = {f"data[{i}]": "" for i in (1, 2, 3)}
    schema = {"properties": {"status": {"type": "string", "enum": ["active", "inactive"]}}}
    made = _guard_set_up(library, walk, plan, probed, workflow_rules(plan.operators),
                         random.Random(2), 4, schema, "id", "data", people)
    assert made is not None
    chosen, patch = made
    assert [e["field"] for e in patch] == ["status"] and patch[0]["value"] == "inactive"
    left = f"data[{[p['id'] for p in people].index(patch[0]['id'])}]"
    assert chosen.others == (left,) and left not in chosen.heads and len(chosen.heads) == 3
    assert chosen.target("user", "Box", "") == "every user in Box who is still active"
    only_active = {"properties": {"status": {"type": "string", "enum": ["active"]}}}
    assert _guard_set_up(library, walk, plan, probed, workflow_rules(plan.operators),
                         random.Random(2), 4, only_active, "id", "data",
                         people) is None
    welcome = BY_NAME["colleague_welcome"]
    assert not workflow_rules(welcome.operators).held


def test_a_rule_s_value_is_said_as_a_person_says_it():
    """A blind review marked `lead source is "trade_show"`: an app's enum value quoted
    as the machine stores it. The request says "trade show"; the rule is still the
    record's value."""
    people = [p | {"lead_source": s} for p, s in zip(
        PEOPLE, ["trade_show", "website", "trade_show", "referral"], strict=True)]
    rules = workflow_rules((Operator("select", field="source"),))
    [chosen] = selections(listed(people), "data[0]", 4, rules)
    assert chosen.value == "trade_show" and chosen.said == "trade show"
    assert chosen.target("lead", "HubSpot", "lead source") == \
        'every lead in HubSpot whose lead source is "trade show"'
    assert replace(chosen, value="Gold").said == "Gold"

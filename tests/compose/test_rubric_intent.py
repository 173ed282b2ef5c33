"""Checks that verify the intent: a skipped write fails a criterion, carried
values are key fields, no effect is expected from a read, descriptions are whole sentences,
and an answer criterion knows the candidates it competes with."""

from __future__ import annotations

import random

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import AnswerItem, Binding, Task
from compoworld.compose.rubric import build_rubric
from compoworld.compose.verify import gold_answer
from compoworld.reward.rubric import evaluate_criterion, evaluate_rubric
from compoworld.services.builtin import build_builtin
from tests.compose.builtin_tasks import builtin_library, verified_tasks
from tests.compose.test_rubric import TITLES, _call, gold_run

TASKS = 40


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    return builtin_library()


@pytest.fixture(scope="module")
def tasks(library: ServiceLibrary) -> list[Task]:
    """Verified tasks over the built-in services (two worlds)."""
    found = verified_tasks(library, count=TASKS, seed=3, worlds=2, shards=12, limit=300)
    assert len(found) >= TASKS // 2, f"only {len(found)} verified tasks"
    return found


def test_skipping_any_write_fails_a_criterion(tasks: list[Task], library: ServiceLibrary):
    pairs = 0
    for task in tasks:
        for skipped, call in enumerate(task.gold_calls):
            if call.effect == "read":
                continue
            world = library.world(task.world_seed)
            for index, other in enumerate(task.gold_calls):
                if index != skipped:
                    world.call(other.tool, other.arguments)
            start, end = world.states(task.services)
            passes = evaluate_rubric(task.rubric, start, end, gold_answer(task))
            assert not all(passes), f"{task.task_id}: skipping {call.tool} passes every check"
            pairs += 1
    assert pairs >= len(tasks)  # most tasks have a write; the test looked at them


def test_carried_values_are_key_fields(tasks: list[Task]) -> None:
    for task in tasks:
        criteria = [c for c in task.rubric if c.service is not None]
        for call in task.gold_calls:
            if call.effect == "read":
                continue
            for param, binding in call.bindings.items():
                if binding.kind != "hidden":
                    continue
                value = call.arguments[param]
                held = [c for c in criteria if c.service == call.service and (
                    str(c.params.get("id")) == str(value)
                    or any(v == value or isinstance(v, list) and value in v
                           for v in c.params.get("fields", {}).values()))]
                created_here = any(str(value) in str(c.result) for c in task.gold_calls
                                   if c.service == call.service and c.effect != "read")
                assert held or created_here, f"{call.tool}.{param} is carried but not checked"


def test_descriptions_are_whole_sentences(tasks: list[Task]) -> None:
    for task in tasks:
        for criterion in task.rubric:
            assert "…" not in criterion.description
            assert criterion.description.endswith("."), criterion.description
            assert criterion.description[0].isupper()


def test_a_change_from_a_read_is_refused() -> None:
    run = gold_run()
    reads_only = [c.model_copy(update={"effect": "read"}) if c.service == "email" else c
                  for c in run.calls]
    with pytest.raises(ValueError, match="only read"):
        build_rubric(run.start, run.end, reads_only, [], TITLES)


def test_an_overwritten_write_is_refused() -> None:
    """A second update of the same field hides the first: skipping it would pass."""
    run = gold_run()
    crm = build_builtin("crm", run.end["crm"])
    _call(crm, "crm__update_contact", run.calls, contact_id=run.updated_id, city="Lyon")
    with pytest.raises(ValueError, match="no change of its own"):
        build_rubric(run.start, run.end, run.calls, [], TITLES)


def test_a_carried_value_no_record_holds_is_refused() -> None:
    run = gold_run()
    calls = [c.model_copy(deep=True) for c in run.calls]
    send = calls[-1]
    send.arguments["cc"] = "someone@else.test"  # carried, but the message keeps no cc
    send.bindings["cc"] = Binding(kind="hidden", type="email", step=0, field="email",
                                  path="email")
    with pytest.raises(ValueError, match="nothing can check it was used"):
        build_rubric(run.start, run.end, calls, [], TITLES)


def test_competitors_come_from_the_picked_list_and_the_neighbours() -> None:
    run = gold_run()
    crm = build_builtin("crm", run.end["crm"])
    listed = _call(crm, "crm__search_contacts", run.calls)
    emails = [contact["email"] for contact in listed]
    pick = random.Random(0).randrange(len(emails))
    item = AnswerItem(step=len(run.calls) - 1, path=f"[{pick}].email",
                      label="the contact's email", value=emails[pick])
    rubric = build_rubric(run.start, run.end, run.calls, [item], TITLES)
    asked = next(c for c in rubric if c.kind == "answer_contains")
    others = {e for i, e in enumerate(emails) if i != pick and e != emails[pick]}
    assert others and others <= set(asked.params["competitors"])
    assert emails[pick] not in asked.params["competitors"]
    assert asked.params["competitors"] == sorted(asked.params["competitors"])
    assert evaluate_criterion(asked, run.start, run.end, f"It is {emails[pick]}.")
    assert not evaluate_criterion(asked, run.start, run.end, " ".join(emails))

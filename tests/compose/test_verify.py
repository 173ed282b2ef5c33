"""Task verification: a composed task passes every check, and each check catches a task
broken in the one way it guards against."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from compoworld.compose.build import compose_task
from compoworld.compose.instruction import render_value
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Binding, Criterion, Task
from compoworld.compose.stage import start_tools, task_from_row, task_row
from compoworld.compose.verify import CHECKS, Deduper, replay, trigrams, verify_task
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec

WORLD_SEED = 7
WALKS = 200


@pytest.fixture(scope="module")
def library() -> ServiceLibrary:
    """Every built-in service, mounted without a store."""
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@pytest.fixture(scope="module")
def task(library: ServiceLibrary) -> Task:
    """The first composed task (walk seeds in order, start tools sorted) that verifies and
    whose rubric has a created record and an answer value, so each kind can be tampered."""
    for index in range(WALKS):
        for start in sorted(start_tools(library.graph)):
            made = compose_task(library, WORLD_SEED, start, random.Random(index), f"t{index}")
            if not isinstance(made, Task):
                continue
            kinds = {criterion.kind for criterion in made.rubric}
            if {"record_created", "answer_contains"} <= kinds and all(
                    verify_task(made, library, Deduper()).values()):
                return made
    pytest.fail(f"no composed task in {WALKS} walk seeds verified")


def failed_checks(task: Task, library: ServiceLibrary) -> set[str]:
    """The checks a task fails on a fresh deduper."""
    checks = verify_task(task, library, Deduper())
    assert set(checks) == set(CHECKS)
    return {name for name, ok in checks.items() if not ok}


def test_good_task_passes_every_check(task: Task, library: ServiceLibrary) -> None:
    assert failed_checks(task, library) == set()
    assert len(set(task.services)) >= 2


# --- One broken copy per check ------------------------------------------------------------


def _tamper_result(task: Task, library: ServiceLibrary) -> Task:
    broken = task.model_copy(deep=True)
    call = broken.gold_calls[-1]
    call.result = {**call.result, "id": "tampered"} if isinstance(call.result, dict) \
        else {"tampered": True}
    return broken


def _tamper_created_value(task: Task, library: ServiceLibrary) -> Task:
    broken = task.model_copy(deep=True)
    created = next(c for c in broken.rubric if c.kind == "record_created")
    name = next(k for k, v in created.params["fields"].items() if isinstance(v, str))
    created.params["fields"][name] = "a value no gold call wrote"
    return broken


def _tamper_answer_value(task: Task, library: ServiceLibrary) -> Task:
    broken = task.model_copy(deep=True)
    asked = next(c for c in broken.rubric if c.kind == "answer_contains")
    asked.params["value"] = "zz-not-in-the-answer@example.test"
    return broken


def _untouched_field(task: Task, library: ServiceLibrary) -> tuple[str, str, str, str, Any]:
    """(service, collection, id, field, value) of a string field the gold run leaves as is."""
    run = replay(task, library)
    for service in task.services:
        start, end = run.start[service], run.end[service]
        for collection, records in sorted(start.collections.items()):
            for record_id, record in sorted(records.items()):
                for name, value in record.items():
                    if name == start.id_field(collection) or not isinstance(value, str):
                        continue
                    if end.records(collection).get(record_id, {}).get(name) == value:
                        return service, collection, record_id, name, value
    raise AssertionError("the gold run touches every record")


def _already_holds(task: Task, library: ServiceLibrary, noop_passes: bool = False) -> Task:
    service, collection, record_id, name, value = _untouched_field(task, library)
    criterion = Criterion(
        id=f"c{len(task.rubric)}", description=f"{record_id} keeps its {name}",
        kind="field_equals", service=service, noop_passes=noop_passes,
        params={"collection": collection, "id": record_id, "fields": {name: value}},
    )
    return task.model_copy(update={"rubric": [*task.rubric, criterion]}, deep=True)


def _leak_hidden(task: Task, library: ServiceLibrary) -> Task:
    hidden = render_value(task.hidden_values[0])
    return task.model_copy(update={"instruction": f"{task.instruction}\n(Hint: {hidden}.)"})


def _drop_visible(task: Task, library: ServiceLibrary) -> Task:
    visible = render_value(task.visible_values[-1])
    assert visible in task.instruction
    instruction = task.instruction.replace(visible, "the one I mentioned")
    return task.model_copy(update={"instruction": instruction})


def _no_crossing(task: Task, library: ServiceLibrary) -> Task:
    """Every hidden value taken from another service becomes a stated literal, so no value
    found in one service is used in another (the task still has two services)."""
    broken = task.model_copy(deep=True)
    for call in broken.gold_calls:
        for binding in call.bindings.values():
            if binding.kind == "hidden" and broken.gold_calls[binding.step].service != call.service:
                binding.kind = "visible"
                binding.step = binding.field = binding.path = binding.selector = None
    assert len(set(broken.services)) >= 2
    return broken


def _over_budget(task: Task, library: ServiceLibrary) -> Task:
    return task.model_copy(update={"step_budget": len(task.gold_calls) - 1})


BREAKERS: dict[str, Callable[[Task, ServiceLibrary], Task]] = {
    "replay_deterministic": _tamper_result,
    "gold_passes/record_created": _tamper_created_value,
    "gold_passes/answer_contains": _tamper_answer_value,
    "start_fails": _already_holds,
    "no_hidden_leak": _leak_hidden,
    "visible_stated": _drop_visible,
    "cross_service": _no_crossing,
    "within_budget": _over_budget,
}


@pytest.mark.parametrize("case", list(BREAKERS))
def test_each_check_catches_its_broken_copy(
    case: str, task: Task, library: ServiceLibrary
) -> None:
    broken = BREAKERS[case](task, library)
    assert failed_checks(broken, library) == {case.split("/")[0]}
    assert failed_checks(task, library) == set()  # the fixture itself was not mutated


def test_replay_catches_a_tampered_argument(task: Task, library: ServiceLibrary) -> None:
    broken = task.model_copy(deep=True)
    call = next(c for c in reversed(broken.gold_calls) if c.effect != "read")
    param = next(p for p, b in call.bindings.items()
                 if b.kind == "visible" and isinstance(call.arguments[p], str))
    call.arguments[param] += " (edited)"
    assert "replay_deterministic" in failed_checks(broken, library)


def test_a_criterion_a_noop_passes_is_allowed_when_labelled(
    task: Task, library: ServiceLibrary
) -> None:
    labelled = _already_holds(task, library, noop_passes=True)
    assert failed_checks(labelled, library) == set()


def test_a_single_service_task_is_not_cross_service(task: Task, library: ServiceLibrary) -> None:
    one = task.model_copy(update={"services": [task.services[0]] * len(task.services)})
    assert "cross_service" in failed_checks(one, library)


def test_budget_equal_to_the_calls_fits(task: Task, library: ServiceLibrary) -> None:
    exact = task.model_copy(update={"step_budget": len(task.gold_calls)})
    assert "within_budget" not in failed_checks(exact, library)


def test_a_rubric_only_a_noop_passes_is_rejected(task: Task, library: ServiceLibrary) -> None:
    guard_only = task.model_copy(
        update={"rubric": [c for c in task.rubric if c.noop_passes], "answer": []}, deep=True)
    assert failed_checks(guard_only, library)


# --- unique -------------------------------------------------------------------------------


def test_the_same_task_twice_is_not_unique(task: Task) -> None:
    deduper = Deduper()
    assert deduper.is_new(task)
    assert deduper.is_new(task)  # asking does not remember
    deduper.remember(task)
    assert not deduper.is_new(task)
    renamed = task.model_copy(update={"task_id": "other", "instruction": "Something else."})
    assert not deduper.is_new(renamed)  # same signature


def test_unique_is_a_verify_check(task: Task, library: ServiceLibrary) -> None:
    deduper = Deduper()
    assert verify_task(task, library, deduper)["unique"]
    deduper.remember(task)
    assert not verify_task(task, library, deduper)["unique"]


def _one_word_changed(text: str) -> str:
    words = text.split(" ")
    middle = len(words) // 2
    words[middle] = "zebra" if words[middle] != "zebra" else "yak"
    return " ".join(words)


def test_a_near_duplicate_instruction_is_caught(task: Task) -> None:
    # Long enough that one changed word keeps >= 0.9 of the trigrams (goal-style texts are
    # shorter than dictated steps).
    task = task.model_copy(update={"instruction": task.instruction + " " + " ".join(
        f"Note {n}: keep the records of this request together with the others." for n in
        range(4))})
    deduper = Deduper()
    deduper.remember(task)
    near = task.model_copy(update={"signature": "another-signature",
                                   "instruction": _one_word_changed(task.instruction)})
    assert near.instruction != task.instruction
    assert len(trigrams(task.instruction)) >= 60  # long enough for one word to stay >= 0.9
    assert not deduper.is_new(near)


def test_the_same_chain_with_another_instruction_is_new(task: Task) -> None:
    deduper = Deduper()
    deduper.remember(task)
    other = task.model_copy(update={
        "signature": "another-signature",
        "instruction": "Please archive last week's invoices and tell me how many there were.",
    })
    assert deduper.is_new(other)


def test_a_near_duplicate_of_another_chain_is_new(task: Task) -> None:
    deduper = Deduper()
    deduper.remember(task)
    shorter = task.model_copy(update={"signature": "another-signature",
                                      "gold_calls": task.gold_calls[:-1]}, deep=True)
    assert deduper.is_new(shorter)  # identical instruction, but a different tool chain
    renamed = task.model_copy(deep=True, update={"signature": "another-signature"})
    renamed.gold_calls[-1].tool = "email__some_other_tool"
    assert deduper.is_new(renamed)


# --- tasks rows ---------------------------------------------------------------------------


def test_task_row_round_trips(task: Task, library: ServiceLibrary) -> None:
    checks = verify_task(task, library, Deduper())
    row = task_row(task, checks, task.gold_calls[0].tool, 0.1)
    assert row["verified"] is True
    assert {name: row[name] for name in CHECKS} == checks
    assert task_from_row(row) == task


def test_task_row_records_failed_checks(task: Task, library: ServiceLibrary) -> None:
    broken = _over_budget(task, library)
    checks = verify_task(broken, library, Deduper())
    row = task_row(broken, checks, broken.gold_calls[0].tool, 0.1)
    assert row["verified"] is False and row["within_budget"] is False
    assert task_from_row(row) == broken


def test_one_workflow_through_the_same_apps_is_capped(task: Task) -> None:
    deduper = Deduper(cap=2)
    for n in range(2):
        deduper.remember(task.model_copy(update={"signature": f"record-{n}",
                                                 "instruction": f"Request number {n}."}))
    again = task.model_copy(update={"signature": "record-3", "instruction": "Another one."})
    assert not deduper.is_new(again)  # a third of the same apps' workflow
    other = again.model_copy(deep=True)
    other.gold_calls[-1].service = "another_app"
    assert deduper.is_new(other)  # the same workflow through another app is new


def test_the_same_workflow_on_the_same_record_is_no_new_task(task: Task) -> None:
    """One customer onboarded into two CRMs is one task twice."""
    first = task.model_copy(update={"pattern": "lead_to_contact"}, deep=True)
    call = first.gold_calls[0]
    call.arguments = {**call.arguments, "email": "ann.lee@example.org"}
    call.bindings = {**call.bindings, "email": Binding(kind="visible", type="email")}
    deduper = Deduper()
    deduper.remember(first)
    elsewhere = first.model_copy(update={"signature": "another-chain",
                                         "instruction": "Another app, the same person."},
                                 deep=True)
    elsewhere.gold_calls[-1].service = "another_crm"
    assert not deduper.is_new(elsewhere)
    other = elsewhere.model_copy(deep=True)
    other.gold_calls[0].arguments["email"] = "bo.li@example.org"
    assert deduper.is_new(other)  # the same workflow for another person is new
    unpatterned = elsewhere.model_copy(update={"pattern": None}, deep=True)
    assert deduper.is_new(unpatterned)

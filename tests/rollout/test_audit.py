"""The audit of stored tasks (`compoworld audit`): it passes sound tasks and names each task
that no longer verifies, that its reference solution fails, or that an adversary passes."""

from __future__ import annotations

from compoworld.rollout.audit import audit_tasks
from tests.rollout.test_env import builtin_library, builtin_tasks


def test_sound_tasks_pass_the_audit():
    tasks = builtin_tasks()[:6]
    audit = audit_tasks(tasks, builtin_library())
    assert audit.ok, (audit.unverified, audit.reference, audit.adversaries)
    assert audit.tasks == 6
    assert audit.lines()[1] == "reference solution scores 1.0: 6 of 6"


def test_the_audit_names_a_task_its_reference_fails_and_an_adversary_passes():
    """A task whose recorded result was tampered with no longer re-verifies; one whose
    checks want only that nothing changes is passed by the adversary that does nothing; one
    whose expected answer the world holds nowhere fails its reference."""
    good, tampered, *_ = builtin_tasks()
    calls = [call.model_copy(deep=True) for call in tampered.gold_calls]
    calls[0].result = {"tampered": True}
    tampered = tampered.model_copy(update={"gold_calls": calls, "task_id": "tampered"})
    asking = next(t for t in builtin_tasks() if t.answer)
    rubric = [c.model_copy(deep=True) for c in asking.rubric]
    for criterion in rubric:  # (an answer the world holds nowhere)
        if criterion.kind == "answer_contains":
            criterion.params["value"] = "no-such-value-anywhere"
    wrong = asking.model_copy(update={"task_id": "unanswerable", "rubric": rubric})
    empty = good.model_copy(update={"task_id": "empty", "rubric": [  # (only "nothing else
        c for c in good.rubric if c.kind == "no_collateral_change"]})  # changes")
    audit = audit_tasks([good, tampered, wrong, empty], builtin_library())
    assert not audit.ok
    assert "tampered" in audit.unverified and "good" not in audit.unverified
    assert "unanswerable" in audit.reference
    assert "empty" in audit.adversaries["nothing"]
    assert good.task_id not in {*audit.unverified, *audit.reference,
                                *(i for ids in audit.adversaries.values() for i in ids)}

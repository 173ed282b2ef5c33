"""The task judge: ratings parsed from real HTTP replies (scripted endpoints for exact
replies, the local SmolLM2 server for a real model), errors that never raise, and a
threshold that drops what it should without the dropped tasks counting."""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable

import pytest

from compoworld.compose.judge import Judgement, judge_messages, judge_task, keep
from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import (
    JUDGED_OUT,
    candidates,
    order_starts,
    start_tools,
    task_row,
    walk_style,
)
from compoworld.llm import LLMClient
from compoworld.services.builtin import BUILTIN_SERVICES, builtin_spec
from tests.rollout.endpoints import Endpoint, malformed, ok
from tests.scripted_llm import ScriptedLLM

RATED = '{"realism": 4, "link_sense": 2, "reason": "the email link is odd"}'


@functools.cache
def library() -> ServiceLibrary:
    return ServiceLibrary.from_specs([builtin_spec(name) for name in BUILTIN_SERVICES])


@functools.cache
def starts() -> tuple[str, ...]:
    return tuple(order_starts(start_tools(library().graph), 0))


@functools.cache
def verified_task() -> Task:
    made = candidates(library(), list(starts()), seed=0, shard=0, world_seed=7, quota=1,
                      limit=100)
    [task] = [c.task for c in made if c.outcome == "verified" and c.task]
    return task


def titles() -> dict[str, str]:
    return {name: info.title for name, info in library().infos.items()}


def test_a_well_formed_rating_is_parsed_and_the_prompt_shows_the_task():
    task = verified_task()
    with Endpoint(lambda n: ok(RATED)) as endpoint:
        judgement = judge_task(task, LLMClient(endpoint.base_url, "m", max_retries=0),
                               seed=11, titles=titles())
    assert judgement == Judgement(4.0, 2.0, "the email link is odd", None)
    [request] = endpoint.requests
    assert request["seed"] == 11 and request["temperature"] == 0
    assert request["response_format"]["type"] == "json_object"
    assert set(request["response_format"]["schema"]["required"]) == {"realism", "link_sense",
                                                                      "reason"}
    prompt = request["messages"][1]["content"]
    assert task.instruction in prompt
    assert all(titles()[name] in prompt for name in task.services)
    assert all(call.tool in prompt for call in task.gold_calls)
    hidden = [b for c in task.gold_calls for b in c.bindings.values() if b.kind == "hidden"]
    assert f"(from step {hidden[0].step + 1}: {hidden[0].field})" in prompt


@pytest.mark.parametrize("content, ratings", [
    ('Here you go:\n```json\n{"realism": 5, "link_sense": 3.5, "reason": "fine"}\n```',
     (5.0, 3.5)),
    ('{"realism": "2", "link_sense": 1, "reason": 7}', (2.0, 1.0)),
])
def test_fenced_or_loosely_typed_ratings_are_parsed(content, ratings):
    with Endpoint(lambda n: ok(content)) as endpoint:
        judgement = judge_task(verified_task(), LLMClient(endpoint.base_url, "m"), seed=0)
    assert (judgement.realism, judgement.link_sense, judgement.error) == (*ratings, None)


@pytest.mark.parametrize("answer, error", [
    (lambda n: ok("It reads like a real request, I would say 4."), "not a JSON object"),
    (lambda n: ok('{"realism": 7, "link_sense": 3, "reason": "x"}'), "realism 7 is outside"),
    (lambda n: ok('{"realism": true, "link_sense": 3, "reason": "x"}'), "no numeric realism"),
    (lambda n: ok('{"realism": 3, "reason": "x"}'), "no numeric link_sense"),
    (lambda n: ok('["realism", 3]'), "not a JSON object"),
    (lambda n: malformed(), "llm error"),
    (lambda n: (500, {}, b'{"error": {"message": "overloaded"}}'), "llm error"),
])
def test_a_bad_reply_or_a_failed_call_is_an_error_and_the_task_is_kept(answer, error):
    with Endpoint(answer) as endpoint:
        judgement = judge_task(verified_task(), LLMClient(endpoint.base_url, "m",
                                                          max_retries=0), seed=0)
    assert judgement.error is not None and error in judgement.error
    assert judgement.realism is None and judgement.link_sense is None
    assert keep(judgement, 5.0)  # an outage must not drop data
    row = task_row(verified_task(), dict.fromkeys(("gold_passes", "unique"), True), "t", 0.1,
                   judgement=judgement, kept=keep(judgement, 3.0))
    assert row["verified"] and row["judged_kept"] is True
    assert row["judge_realism"] is None and error in row["judge_error"]


def test_keep_needs_both_ratings_at_the_threshold():
    assert keep(Judgement(3.0, 3.0, ""), 3.0)
    assert not keep(Judgement(5.0, 2.9, ""), 3.0)
    assert not keep(Judgement(2.0, 5.0, ""), 3.0)


def ratings_in_turn() -> Callable[[list[dict]], str]:
    """A judge that rates every third task 2 and the others 5, beginning with a 2, so some
    are dropped whatever tasks the composer makes (one shard judges in order)."""
    turn = itertools.count()

    def reply(messages: list[dict]) -> str:
        rating = 2 if next(turn) % 3 == 0 else 5
        return json.dumps({"realism": rating, "link_sense": rating, "reason": f"rated {rating}"})

    return reply


def test_a_threshold_drops_tasks_that_do_not_count_toward_the_quota():
    with ScriptedLLM(ratings_in_turn()) as llm:
        client = LLMClient(llm.base_url, "scripted", max_retries=0)

        def judge(task: Task, seed: int) -> Judgement:
            return judge_task(task, client, seed=seed, titles=titles())

        judged = list(candidates(library(), list(starts()), seed=0, shard=0, world_seed=7,
                                 quota=8, limit=200, judge=judge, judge_threshold=3.0))
    plain = list(candidates(library(), list(starts()), seed=0, shard=0, world_seed=7,
                            quota=8, limit=200))
    kept = [c for c in judged if c.outcome == "verified"]
    dropped = [c for c in judged if c.outcome == JUDGED_OUT]
    assert len(kept) == 8 and dropped  # the quota is met by kept tasks alone
    assert all(c.judgement.realism == 5.0 and c.kept for c in kept)
    assert all(c.judgement.realism == 2.0 and c.kept is False for c in dropped)
    # a task that failed a check is never judged
    assert all(c.judgement is None for c in judged if c.outcome.startswith(("walk", "rej")))
    # judging does not change the walks: the same tasks, in the same order
    assert [c.task.task_id for c in plain if c.task][:len(kept)] == [
        c.task.task_id for c in judged if c.task][:len(kept)]
    rows = [task_row(c.task, c.checks, c.start, 0.1, judgement=c.judgement, kept=c.kept)
            for c in kept + dropped]
    assert all(r["verified"] == r["judged_kept"] for r in rows)
    assert {r["judge_reason"] for r in rows} == {"rated 5", "rated 2"}
    unjudged = task_row(plain[-1].task, plain[-1].checks, plain[-1].start, 0.1)
    assert unjudged["judged_kept"] is None and unjudged["judge_link_sense"] is None


def test_the_instruction_style_reaches_the_task_and_mixed_is_seeded_per_walk():
    made = candidates(library(), list(starts()), seed=0, shard=0, world_seed=7, quota=2,
                      limit=100, style="steps")
    assert {c.task.instruction_style for c in made if c.task} == {"steps"}
    drawn = [walk_style("mixed", 0, 0, index) for index in range(40)]
    assert set(drawn) == {"goal", "steps"}
    assert drawn == [walk_style("mixed", 0, 0, index) for index in range(40)]
    assert walk_style("goal", 0, 0, 3) == "goal"
    with pytest.raises(ValueError, match="one of goal, steps, mixed"):
        walk_style("casual", 0, 0, 0)


def test_the_judge_prompt_names_every_value_the_answer_must_report():
    task = verified_task()
    prompt = judge_messages(task)[1]["content"]
    assert all(f"report: {item.label}" in prompt for item in task.answer)


@pytest.mark.slow
def test_smollm2_judges_tasks_through_the_local_server():
    """The tiny model's ratings are poor; the mechanics are what is checked: each reply is
    parsed into two ratings within 1-5 or recorded as an error, and the row says which."""
    from compoworld.serve import LLMServer

    made = candidates(library(), list(starts()), seed=0, shard=0, world_seed=7, quota=3,
                      limit=100)
    tasks = [c for c in made if c.outcome == "verified"]
    with LLMServer(n_ctx=2048) as server:
        client = LLMClient(server.base_url, server.model, timeout=120, max_retries=0)
        judgements = [judge_task(c.task, client, seed=i, titles=titles())
                      for i, c in enumerate(tasks)]
    for candidate, judgement in zip(tasks, judgements, strict=True):
        if judgement.error is None:
            assert 1 <= judgement.realism <= 5 and 1 <= judgement.link_sense <= 5
        else:
            assert judgement.realism is None and judgement.link_sense is None
        row = task_row(candidate.task, candidate.checks, candidate.start, 0.1,
                       judgement=judgement, kept=keep(judgement, 3.0))
        assert row["judge_realism"] == judgement.realism
        assert row["verified"] == keep(judgement, 3.0)
    # the grammar-constrained reply parses: at least one real rating came back
    assert any(j.error is None for j in judgements), [j.error for j in judgements]

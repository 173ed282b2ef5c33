"""The mix of a run's tasks: errands, workflows and jobs, and each shard's share of them."""

from __future__ import annotations

from collections import Counter

import pytest

from compoworld.compose import stage
from compoworld.compose.build import MADE_ITS_SHARE
from compoworld.compose.mix import DEFAULT_MIX, KINDS, caps, kind_of, parse_mix
from compoworld.compose.stage import check_compose_options, start_tools
from tests.compose.builtin_tasks import builtin_library


def test_a_task_is_an_errand_a_workflow_or_a_job():
    assert kind_of(1, []) == "errand"  # one workflow, one record
    assert kind_of(1, ["select", "for_each"]) == "workflow"
    assert kind_of(1, ["rank"]) == "workflow"  # (the newest customer: chosen among others)
    assert kind_of(2, []) == "job"
    assert kind_of(3, ["select", "for_each", "ensure"]) == "job"


def test_a_mix_is_read_and_refused_in_words():
    assert parse_mix(DEFAULT_MIX) == {"errand": 0.3, "workflow": 0.35, "job": 0.35}
    assert parse_mix("job=1") == {"errand": 0.0, "workflow": 0.0, "job": 1.0}
    for bad, says in [("errand=0.5,chore=0.5", "KIND=SHARE"), ("errand=0.5", "sum to 0.5"),
                      ("errand=half,job=0.5", "no number"), ("job=1.5,errand=-0.5", "between"),
                      ("job=0.5,job=0.5", "twice"), ("errand", "KIND=SHARE")]:
        with pytest.raises(ValueError, match=says):
            parse_mix(bad)
    with pytest.raises(ValueError, match="--mix"):  # (the command names its option)
        check_compose_options(worlds=1, paraphrase_url=None, paraphrase_model=None,
                              judge_url=None, judge_model=None, judge_threshold=3,
                              instruction_style="goal", edge_threshold=0.6, mix="job=2",
                              flags=True)


def test_a_shards_quota_is_split_by_the_mix_to_the_task():
    assert caps(parse_mix(DEFAULT_MIX), 40) == {"errand": 12, "workflow": 14, "job": 14}
    assert caps(parse_mix(DEFAULT_MIX), 7) == {"errand": 2, "workflow": 3, "job": 2}
    assert caps(parse_mix("errand=0.5,job=0.5"), 3) == {"errand": 2, "workflow": 0, "job": 1}
    for quota in range(1, 60):
        assert sum(caps(parse_mix(DEFAULT_MIX), quota).values()) == quota


def test_a_shard_makes_no_more_of_a_kind_than_its_share():
    """Left alone, a run was mostly errands: read a list, make one record, send one email.
    A shard that has made its share of errands makes no more; a walk that makes one is no
    task, and says so."""
    library = builtin_library()
    starts = stage.order_starts(start_tools(library.graph, patterned=True), 0)

    def run(mix: str, quota: int) -> tuple[Counter[str], Counter[str]]:
        made = list(stage.candidates(library, starts, seed=0, shard=0, world_seed=0,
                                     quota=quota, limit=400, patterned=True, mix=mix))
        kinds = Counter(c.task.kind for c in made if c.outcome == "verified")
        return kinds, Counter(c.outcome.rpartition(": ")[2] for c in made
                              if MADE_ITS_SHARE in c.outcome)
    alone, refused = run("errand=1", 3)
    assert alone == {"errand": 3} and "errand" not in refused  # (none of the others)
    kinds, refused = run("errand=0.25,workflow=0.25,job=0.5", 4)
    assert kinds["errand"] == 1 and kinds["workflow"] <= 1 and kinds["job"] <= 2
    assert refused["errand"] > 0  # (errands went on being walked, and were turned away)
    assert set(refused) <= set(KINDS)


def test_a_top_up_makes_the_kinds_the_run_is_short_of():
    """Each shard made its errands first and ran dry on jobs: a run of 400 tasks at a third
    errands had 204 errands. Its next wave makes only the kinds it is short of."""
    from compoworld.compose.mix import shortfall

    mix = parse_mix(DEFAULT_MIX)
    wave = shortfall(mix, {"errand": 204, "workflow": 114, "job": 104}, 400)
    assert parse_mix(wave) == {"errand": 0.0, "workflow": 0.419, "job": 0.581}  # 26, 36 short
    wave = shortfall(mix, {"errand": 120, "workflow": 140}, 400)
    assert parse_mix(wave) == {"errand": 0.0, "workflow": 0.0, "job": 1.0}
    assert shortfall(mix, {"errand": 120, "workflow": 140, "job": 140}, 400) is None


def test_once_errands_are_made_only_workflows_that_can_go_deeper_are_walked():
    """Once a shard had its errands, each workflow that can only make one (no rule to
    choose its records by, no workflow to go on into) was still drawn until eight walks
    had failed: 130 workflows spent a thousand walks a shard. They are drawn no more."""
    import random

    from compoworld.compose.each import workflow_rules

    library = builtin_library()
    starts = start_tools(library.graph, patterned=True)
    draws = stage.Draws(library, starts, 40, 0.05)
    deeper = frozenset({"workflow", "job"})
    rng = random.Random(0)
    drawn = [draws.draw(rng, set(), deeper) for _ in range(200)]
    assert drawn and all(d is not None for d in drawn)
    for workflow, start in drawn:
        rules = workflow_rules(workflow.operators)
        assert rules.chooses or library.followers(start, workflow)
    shallow = {w.name for s in starts for w in library.patterns_at(s)} - {
        w.name for w, _ in drawn}
    everything = {draws.draw(rng, set())[0].name for _ in range(400)}
    assert shallow & everything  # (drawn while errands are still made)
    assert draws.draw(rng, set(), frozenset()) is None  # (no kind left: nothing to draw)


def test_a_walk_that_can_only_make_a_kind_the_shard_has_is_told_before_its_records_are_probed(
        monkeypatch):
    """Walks turned away as errands were a fifth of a shard's walk time, most of it in
    probing every record of the list for a rule. A walk that made no job, in a shard that
    makes only jobs now, is turned away before that."""
    import random

    from compoworld.compose import build
    from compoworld.compose.build import Rejected, compose_task

    library = builtin_library()
    start, seed = next((s, seed) for s in sorted(start_tools(library.graph, patterned=True))
                       for seed in range(3) if not isinstance(compose_task(
                           library, 7, s, random.Random(seed), "t0", patterned=True), Rejected))

    def probed(*_args, **_kwargs):
        raise AssertionError("records probed for a kind the shard has made")
    monkeypatch.setattr(build, "_select", probed)
    made = compose_task(library, 7, start, random.Random(seed), "t0", patterned=True,
                        each=True, jobs=False, kinds=frozenset({"job"}))
    assert isinstance(made, Rejected) and MADE_ITS_SHARE in made.reason

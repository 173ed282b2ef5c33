"""Composition over real OpenAPI documents of the pinned corpus: tasks cross real services,
verify, and replay from their world seed alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compoworld.compose.library import ServiceLibrary
from compoworld.compose.records import Task
from compoworld.compose.stage import candidates, order_starts, start_tools
from compoworld.compose.verify import replay
from compoworld.specs.sources import load_document

pytestmark = pytest.mark.slow

# Small documents that the default selection's tasks often join (emails, urls, dates, ids).
DOCUMENTS = ["amazonaws.com/serverlessrepo.json", "dodo.ac.json", "gov.bc.ca/news.json",
             "link.fish.json", "citrixonline.com/gotomeeting.json", "learnifier.com.json",
             "climate.com.json", "mercedes-benz.com/image.json"]


@pytest.fixture(scope="module")
def library(corpus: Path) -> ServiceLibrary:
    return ServiceLibrary.from_specs([load_document(corpus, doc) for doc in DOCUMENTS], seed=5)


def test_real_services_compose_into_verified_cross_service_tasks(library: ServiceLibrary):
    starts = order_starts(start_tools(library.graph), 0)
    # links by meaning are sparse among these eight small documents: 600 walks, not 200
    made = list(candidates(library, starts, seed=0, shard=0, world_seed=5, quota=8, limit=600))
    tasks: list[Task] = [c.task for c in made if c.outcome == "verified" and c.task]
    assert len(tasks) == 8
    assert all(len(set(t.services)) >= 2 for t in tasks)
    assert len({t.signature for t in tasks}) == 8
    for task in random.Random(0).sample(tasks, 3):
        again = replay(task, library)
        assert [r["data"] for r in again.results] == [c.result for c in task.gold_calls]
        assert all(r["success"] for r in again.results)

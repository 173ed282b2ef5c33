"""Run ids are 1 to 100 letters, digits, '-' or '_', checked before anything is written."""

from __future__ import annotations

import pytest

from compoworld.shards import plan_shards
from storage.catalog import run_query
from storage.stage import execute_shard
from storage.store import Store, check_run_id


@pytest.mark.parametrize(
    "bad", ["a b", "a'b", 'a"b', "a%20b", "x" * 101, "x" * 300, "a\n", "ä", "a.b", "", "a/b"]
)
def test_run_ids_outside_the_pattern_are_refused(store: Store, bad: str):
    with pytest.raises(ValueError) as caught:
        check_run_id(bad)
    assert "invalid run id" in str(caught.value) and "\n" not in str(caught.value)
    assert len(str(caught.value)) < 200  # a 300-character id is not echoed in full
    with pytest.raises(ValueError, match="invalid run id"):
        store.partition("specs", bad)


@pytest.mark.parametrize("good", ["r1", "2026-11-29", "A_b-9", "x" * 100])
def test_run_ids_in_the_pattern_are_kept_and_read_back_as_written(store: Store, good: str):
    assert check_run_id(good) == good
    [shard] = plan_shards(run_id=good, stage="demo", items=["a"], shard_size=1,
                          params={"tag": "t"}, work="tests.storage.test_store:echo_work")
    execute_shard(shard, str(store.home))
    assert run_query(store, "select distinct run_id from spec_errors")[1] == [(good,)]

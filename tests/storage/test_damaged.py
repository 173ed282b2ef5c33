"""One damaged Parquet file: its table's queries name it, every other table (and the other
runs of its table) stays queryable, stats and the catalog refresh go on, and resume redoes
its shard."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from compoworld.shards import plan_shards
from storage.catalog import QueryError, refresh_catalog, run_query
from storage.stage import execute_shard
from storage.stats import table_counts
from storage.store import DamagedFile, Store


def damaged_store(store: Store) -> Path:
    """Runs r1 and r2 of spec_errors (two shards each) and tool_specs (one shard), with r1's
    second spec_errors shard truncated; returns that file."""
    for run_id in ("r1", "r2"):
        for shard in plan_shards(run_id=run_id, stage="demo", items=["a", "b", "c"],
                                 shard_size=2, params={"tag": run_id},
                                 work="tests.storage.test_store:echo_work"):
            execute_shard(shard, str(store.home))
    [tools] = plan_shards(run_id="r1", stage="tools", items=["t"], shard_size=1, params={},
                          work="tests.storage.test_resume:two_table_work")
    execute_shard(tools, str(store.home))
    path = store.partition("spec_errors", "r1") / "demo-00001.parquet"
    path.write_bytes(path.read_bytes()[:40])
    return path


def test_other_tables_stay_queryable_and_the_damaged_one_names_its_file(store: Store):
    path = damaged_store(store)
    assert run_query(store, "select count(*) from tool_specs")[1] == [(1,)]
    assert run_query(store, "select count(*) from stage_runs")[1] == [(5,)]
    with pytest.raises(QueryError) as caught:
        run_query(store, "select count(*) from spec_errors")
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    assert "rerun stage 'demo' of run 'r1'" in message


@pytest.mark.parametrize("where", ["reason is not null", "reason = 'x'", "source like '%'",
                                   "run_id = 'r1' and reason is not null"])
def test_a_filter_on_the_damaged_table_never_answers_from_the_intact_files_alone(
    store: Store, where: str
):
    # A filter that the damaged branch's placeholder columns would fail must not fold that
    # branch away: the answer would silently leave the damaged file's rows out.
    path = damaged_store(store)
    with pytest.raises(QueryError, match=str(path)):
        run_query(store, f"select count(*) from spec_errors where {where}")


def test_a_query_of_another_run_of_the_damaged_table_still_answers(store: Store):
    damaged_store(store)
    _, rows = run_query(store, "select count(*) from spec_errors where run_id = $run",
                        {"run": "r2"})
    assert rows == [(3,)]


def test_stats_count_the_readable_tables_and_warn_naming_the_file(store: Store, caplog):
    path = damaged_store(store)
    with caplog.at_level(logging.WARNING, logger="compoworld.storage"):
        counts = table_counts(store)
    assert [(c["table_name"], c["run_id"], c["rows"]) for c in counts] == [
        ("tool_specs", "r1", 1)
    ]
    [warning] = [r for r in caplog.records if "spec_errors" in r.getMessage()]
    assert str(path) in warning.getMessage()


def test_the_catalog_refresh_goes_on_and_its_other_views_read(store: Store):
    import duckdb

    damaged_store(store)
    catalog = refresh_catalog(store)
    assert catalog is not None
    with duckdb.connect(str(catalog), read_only=True) as con:
        assert con.execute("select count(*) from tool_specs").fetchone() == (1,)


def test_store_reads_name_the_damaged_file(store: Store):
    path = damaged_store(store)
    with pytest.raises(DamagedFile, match=str(path)):
        store.read("spec_errors", "r1")
    assert len(store.read("spec_errors", "r2")) == 3
    assert store.read("spec_errors", "r1", files=["demo-00000"]) != []


def test_resume_redoes_the_damaged_shard_and_queries_answer_again(store: Store):
    damaged_store(store)
    shards = plan_shards(run_id="r1", stage="demo", items=["a", "b", "c"], shard_size=2,
                         params={"tag": "r1"}, work="tests.storage.test_store:echo_work")
    assert store.pending(shards) == [shards[1]]
    execute_shard(shards[1], str(store.home))
    assert run_query(store, "select count(*) from spec_errors")[1] == [(7,)]  # r1: 3 + 1


def test_a_table_whose_only_file_is_damaged_names_it_and_views_over_it_too(store: Store):
    damaged_store(store)
    path = store.partition("tool_specs", "r1") / "tools-00000.parquet"
    path.write_bytes(b"")
    for sql in ("select * from tool_specs", "select count(*) from tools"):
        with pytest.raises(QueryError, match=str(path)):
            run_query(store, sql)
    assert run_query(store, "select count(*) from tool_builds")[1] == [(0,)]

"""A catalog refresh that the file system refuses logs one warning and never turns the
stage that asked for it into a failure: its shards and manifest stay as written."""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from compoworld.shards import Shard, plan_shards
from flows.shards import run_stage  # at import: Prefect's logging set-up replaces handlers
from storage.catalog import refresh_catalog, run_query
from storage.stage import execute_shard
from storage.store import Store
from tests.storage.test_store import echo_work


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs, unmounted afterwards (mounting one needs root: skipped without)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def fill_disk(folder: Path, leave: int = 0) -> None:
    """Write into `folder` until the disk has at most `leave` bytes free."""
    import os

    with open(folder / "filler", "ab") as filler:
        try:
            while os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize > leave:
                filler.write(b"\0" * 4096)
                filler.flush()
        except OSError:
            pass


def disk_filling_work(shard: Shard, store: Store) -> dict[str, list[dict]]:
    """Work function for tests: echo_work's rows, after filling the disk to 48 KiB free,
    room for the shard's files and manifest row but not for a DuckDB catalog."""
    fill_disk(store.home.parent, leave=48 * 1024)
    return echo_work(shard, store)


def storage_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "compoworld.storage" and r.levelno >= logging.WARNING]


def test_a_full_disk_during_refresh_is_one_warning_and_the_data_stays(
    small_disk: Path, caplog: pytest.LogCaptureFixture
):
    store = Store.open(small_disk / "home")
    shards = plan_shards(run_id="r1", stage="demo", items=["a", "b", "c"], shard_size=2,
                         params={"tag": "t"}, work="tests.storage.test_store:echo_work")
    for shard in shards:
        execute_shard(shard, str(store.home))
    fill_disk(store.home)
    with caplog.at_level(logging.WARNING, logger="compoworld.storage"):
        assert refresh_catalog(store) is None
    [warning] = storage_warnings(caplog)
    assert "No space left on device" in warning and str(store.catalog_path) in warning
    assert store.pending(shards) == []
    assert run_query(store, "select count(*) from spec_errors")[1] == [(3,)]
    assert not [p for p in store.home.iterdir() if p.name.startswith(".tmp")]


def test_a_stage_whose_refresh_hits_a_full_disk_still_finishes(
    small_disk: Path, caplog: pytest.LogCaptureFixture
):
    store = Store.open(small_disk / "home")
    shards = plan_shards(run_id="r1", stage="demo", items=["a", "b"], shard_size=2,
                         params={"tag": "t"},
                         work="tests.storage.test_refresh_failure:disk_filling_work")
    with caplog.at_level(logging.WARNING, logger="compoworld.storage"):
        summary = run_stage(shards, home=str(store.home))
    assert (summary["shards"], summary["ran"]) == (1, 1)
    [warning] = storage_warnings(caplog)
    assert "No space left on device" in warning
    assert store.pending(shards) == []
    assert len(store.read("spec_errors", "r1")) == 2


def test_a_catalog_path_taken_by_a_folder_is_one_warning(store: Store, caplog):
    store.catalog_path.mkdir(parents=True)  # the rename onto it fails for real
    with caplog.at_level(logging.WARNING, logger="compoworld.storage"):
        assert refresh_catalog(store) is None
    [warning] = storage_warnings(caplog)
    assert str(store.catalog_path) in warning and "\n" not in warning


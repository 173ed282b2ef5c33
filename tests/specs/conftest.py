"""Shared fixtures for the spec loader tests: small hand-made documents only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    """The folder of hand-made spec documents."""
    return FIXTURES


@pytest.fixture
def crm_document() -> dict:
    """A fresh copy of the tiny CRM OpenAPI document."""
    return json.loads((FIXTURES / "crm.json").read_text())

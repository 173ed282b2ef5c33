"""Corpus categories: a work app the directory files elsewhere gets the category of what it is."""

from __future__ import annotations

import pytest

from compoworld.compose.patterns import Apps
from compoworld.compose.steps import PERSONNEL
from compoworld.specs import load_openapi
from compoworld.specs.categories import CATEGORY_BY_API, WORK_APPS, corpus_category, is_work_app


def document(categories: list[str] | None) -> dict:
    info = {"title": "An API", "version": "1"}
    if categories is not None:
        info["x-apisguru-categories"] = categories
    ok = {"200": {"description": "ok"}}
    return {"openapi": "3.0.0", "info": info,
            "paths": {"/contacts": {"get": {"operationId": "list_contacts", "responses": ok}}}}


@pytest.mark.parametrize(("doc_id", "category"), [
    ("googleapis.com/gmail", "email"),
    ("googleapis.com/calendar", "time_management"),
    ("googleapis.com/sheets", "collaboration"),
    ("googleapis.com/people", "customer_relation"),
    ("googleapis.com/chat", "messaging"),
])
def test_a_google_workspace_api_gets_the_category_of_what_it_is(doc_id: str, category: str):
    # the directory files every Google API under analytics
    spec = load_openapi(document(["analytics", "media"]), doc_id)
    assert spec.domain == category
    assert is_work_app(spec.source)


def test_other_documents_keep_their_first_category_or_other():
    assert load_openapi(document(["open_data", "media"]), "stats.example").domain == "open_data"
    assert load_openapi(document(None), "stats.example").domain == "other"
    assert corpus_category("googleapis.com/bigquery", ["analytics"]) == "analytics"
    assert not is_work_app("openapi:googleapis.com/bigquery") and not is_work_app(None)
    assert is_work_app("mcp:@hubspot/mcp-server@0.4.0")  # (each pinned for its work app)


def test_every_version_of_a_code_host_is_a_developer_tool():
    """GitHub Enterprise Server 2.18 is filed under `collaboration` in the directory, so HR's
    workflows looked up a colleague's holiday balance among its users."""
    assert corpus_category("github.com/ghes-2.18", ["collaboration"]) == "developer_tools"
    assert corpus_category("github.com/api.github.com", ["collaboration"]) == "developer_tools"
    assert corpus_category("gitlab.com", ["developer_tools"]) == "developer_tools"


def test_every_re_filed_api_is_a_work_app():
    google = {api for api in CATEGORY_BY_API if api.startswith("googleapis.com/")}
    assert google <= WORK_APPS


@pytest.mark.parametrize(("doc_id", "category"), [
    ("apideck.com/hris", "enterprise"),
    ("apideck.com/lead", "customer_relation"),
    ("apideck.com/customer-support", "support"),
    ("hubapi.com/marketing", "marketing"),
])
def test_a_unified_api_gets_the_category_of_its_own_kind_of_app(doc_id: str, category: str):
    """The directory files every Apideck API under `developer_tools`: an HR workflow's
    colleague (kept out of developer tools, whose users are a code host's) was never looked
    up in Apideck's HRIS, and no lead workflow began at its lead API."""
    spec = load_openapi(document(["developer_tools"]), doc_id)
    assert spec.domain == category
    apps = Apps(frozenset({"hris"}), frozenset(), staff=frozenset({"hris"}),
                categories={"hris": corpus_category("apideck.com/hris", ["developer_tools"])})
    assert apps.allow("hris", PERSONNEL)
    assert not Apps(frozenset({"hris"}), frozenset(), staff=frozenset({"hris"}),
                    categories={"hris": "developer_tools"}).allow("hris", PERSONNEL)

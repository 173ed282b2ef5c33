"""Infrastructure parameters, recognised on real corpus documents: auth keys, api versions,
formats, selection, pagination and sort knobs are; the facts beside them are not."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from compoworld.specs.infra import (
    API_KEY_PLACEHOLDER,
    NO_DEFAULT,
    infrastructure_default,
    infrastructure_kind,
    is_infrastructure,
    relax_infrastructure,
)
from compoworld.specs.records import ServiceSpec
from compoworld.specs.sources import load_document


@cache
def _spec(corpus: Path, document: str) -> ServiceSpec:
    return load_document(corpus, document)


def real_param(corpus: Path, document: str, name: str, tool: str | None = None
               ) -> dict[str, Any]:
    """The schema of parameter `name` in the first tool of `document` that has it (or in
    the tool whose name ends with `tool`)."""
    for spec in _spec(corpus, document).tools:
        props = spec.parameters.get("properties", {})
        if name in props and (tool is None or spec.name.endswith(tool)):
            return props[name]
    raise AssertionError(f"{document} has no parameter {name!r}")


# (document, parameter, kind): what the detector must say of a real parameter.
INFRASTRUCTURE = [
    ("fec.gov.json", "api_key", "auth"),  # required, default DEMO_KEY
    ("ideal-postcodes.co.uk.json", "api_key", "auth"),
    ("ideal-postcodes.co.uk.json", "key", "auth"),  # "Your API Key": a `key` that is auth
    ("jumpseller.com.json", "authtoken", "auth"),
    ("googleapis.com/webmasters.json", "oauth_token", "auth"),
    ("hillbillysoftware.com/shinobi.json", "AccessToken", "auth"),
    ("departureboard.io.json", "apiKey", "auth"),
    ("azure.com/sql-firewallRules.json", "api-version", "version"),
    ("bkk.hu.json", "version", "version"),  # enum of "2", "3", "4"
    ("googleapis.com/webmasters.json", "alt", "format"),
    ("gov.bc.ca/router.json", "outputFormat", "format"),
    ("ably.io/platform.json", "format", "format"),
    ("googleapis.com/webmasters.json", "prettyPrint", "debug"),
    ("googleapis.com/webmasters.json", "quotaUser", "tracing"),
    ("googleapis.com/webmasters.json", "userIp", "tracing"),
    ("googleapis.com/webmasters.json", "fields", "selection"),
    ("asana.com.json", "opt_fields", "selection"),
    ("asana.com.json", "opt_pretty", "debug"),
    ("consumerfinance.gov.json", "$select", "selection"),
    ("consumerfinance.gov.json", "$callback", "callback"),
    ("fec.gov.json", "per_page", "paging"),
    ("fec.gov.json", "page", "paging"),
    ("fec.gov.json", "sort", "ordering"),
    ("fec.gov.json", "sort_nulls_last", "ordering"),
    ("asana.com.json", "offset", "paging"),  # a token, still paging
    ("amazonaws.com/workdocs.json", "Marker", "paging"),
    ("amazonaws.com/workdocs.json", "order", "ordering"),  # ASCENDING | DESCENDING
    ("googleapis.com/youtube.json", "pageToken", "paging"),
    ("azure.com/sql-elasticPools.json", "$skip", "paging"),
    ("amazonaws.com/workspaces-web.json", "nextToken", "paging"),
    ("amazonaws.com/workspaces-web.json", "clientToken", "idempotency"),
    ("apideck.com/crm.json", "raw", "debug"),
]

# (document, parameter): real facts that look like infrastructure by name alone.
FACTS = [
    ("fec.gov.json", "state"),
    ("fec.gov.json", "q"),
    ("fec.gov.json", "committee_id"),
    ("amazonaws.com/apigateway.json", "api_Key"),  # the key resource to update
    ("adafruit.com.json", "key"),  # a feed's key
    ("amazonaws.com/lex-models.json", "version"),  # a bot version, digits
    ("amazonaws.com/cleanrooms.json", "format"),  # the analysis template's format: SQL
    ("api2cart.com.json", "callback"),  # a shipping-rates callback url
    ("cloudrf.com.json", "alt"),  # a height in metres
    ("azure.com/network-networkWatcher.json", "direction"),  # Inbound | Outbound traffic
    ("amazonaws.com/workdocs.json", "Password"),  # a new user's password
    ("bigredcloud.com.json", "sortCode"),  # a bank sort code
    ("atlassian.com/jira.json", "fields"),  # the fields object
    ("intellifi.nl.json", "after"),  # a date-time range bound
    ("impala.travel/hotels.json", "start"),  # a start date
]


@pytest.mark.parametrize(("document", "name", "kind"), INFRASTRUCTURE,
                         ids=[f"{d}:{n}" for d, n, _ in INFRASTRUCTURE])
def test_real_infrastructure_parameters_are_recognised(corpus: Path, document: str, name: str,
                                                        kind: str):
    schema = real_param(corpus, document, name)
    assert infrastructure_kind(name, schema) == kind


@pytest.mark.parametrize(("document", "name"), FACTS, ids=[f"{d}:{n}" for d, n in FACTS])
def test_real_facts_are_not_infrastructure(corpus: Path, document: str, name: str):
    assert not is_infrastructure(name, real_param(corpus, document, name))


@pytest.mark.parametrize("name", ["api_key", "apiKey", "api-key", "X-Api-Key", "APIKEY",
                                  "access_token", "oauth_token", "Authorization"])
def test_credential_names_in_every_style(name: str):
    assert infrastructure_kind(name, {"type": "string"}) == "auth"


@pytest.mark.parametrize("name", ["state", "q", "name", "email", "token_amount", "keyword",
                                  "sort_code", "order_id", "page_title", "format_version"])
def test_fact_names_stay_facts(name: str):
    assert not is_infrastructure(name, {"type": "string"})


def test_a_header_key_is_transport_and_a_body_version_a_fact():
    assert is_infrastructure("X-Tenant-Token", {"type": "string"}, location="header")
    assert not is_infrastructure("X-Tenant-Token", {"type": "string"})
    assert is_infrastructure("version", {"type": "string", "default": "v2"}, location="query")
    assert not is_infrastructure("version", {"type": "string", "default": "v2"}, location="body")


def test_defaults_come_from_the_schema_then_a_plausible_value():
    assert infrastructure_default("api_key", {"type": "string", "default": "DEMO_KEY"}) \
        == "DEMO_KEY"
    assert infrastructure_default("apiKey", {"type": "string"}) == API_KEY_PLACEHOLDER
    padded = infrastructure_default("api_key", {"type": "string", "minLength": 16,
                                                "maxLength": 16})
    assert isinstance(padded, str) and len(padded) == 16
    assert infrastructure_default(
        "api-version", {"type": "string", "enum": ["2019-01-01", "2021-06-01-preview",
                                                   "2020-05-01"]}) == "2021-06-01-preview"
    assert infrastructure_default("api-version", {"type": "string"},
                                  api_version="2022-03-01") == "2022-03-01"
    described = {"type": "string", "description": "The current version is 2019-08-01."}
    assert infrastructure_default("api-version", described) == "2019-08-01"
    assert infrastructure_default("format", {"type": "string", "enum": ["xml", "json"]}) \
        == "json"
    assert infrastructure_default("per_page", {"type": "integer", "maximum": 10}) == 10
    assert infrastructure_default("page", {"type": "integer"}) == 1
    assert infrastructure_default("prettyPrint", {"type": "boolean"}) is False
    # leaving these out is the meaning: no cursor, everything expanded as the API likes
    assert infrastructure_default("nextToken", {"type": "string"}) is NO_DEFAULT
    assert infrastructure_default("expand", {"type": "string", "enum": ["a"]}) is NO_DEFAULT


def test_relaxing_a_real_tool_frees_infrastructure_and_keeps_facts(corpus: Path):
    # ingest relaxes every tool: the loaded spec already has its keys optional, defaulted
    tool = next(t for t in _spec(corpus, "fec.gov.json").tools
                if "api_key" in t.parameters.get("properties", {}) and "state" in
                t.parameters.get("properties", {}))
    assert "api_key" not in tool.parameters.get("required", [])
    assert tool.parameters["properties"]["api_key"]["default"] == "DEMO_KEY"
    before = {**tool.parameters, "required": [*tool.parameters.get("required", []), "api_key"]}
    relaxed = relax_infrastructure(before)
    assert "api_key" in before["required"]  # the input is left as it was
    assert "api_key" not in relaxed["required"]
    assert relaxed["properties"]["state"] == before["properties"]["state"]
    assert set(before["required"]) - set(relaxed["required"]) == {"api_key"}
    azure = next(t for t in _spec(corpus, "azure.com/sql-firewallRules.json").tools
                 if "api-version" in t.parameters.get("properties", {}))
    assert "api-version" not in azure.parameters.get("required", [])
    document = json.loads((corpus / "azure.com/sql-firewallRules.json").read_text())
    # the api version the parameter names none of is the document's own
    assert azure.parameters["properties"]["api-version"]["default"] == \
        document["info"]["version"]
    assert "serverName" in azure.parameters["required"]


def test_relaxing_without_infrastructure_returns_the_schema_unchanged():
    schema = {"type": "object", "properties": {"email": {"type": "string"}},
              "required": ["email"]}
    assert relax_infrastructure(schema) == schema


def test_the_identity_a_message_is_sent_from_is_the_environment_s():
    """ClickSend's `from.email_address_id` is the account's own verified sender: requests
    read "send them an email via ClickSend with from email address id 82180", an id no
    person states. A sending identity is filled in; an account money moves from is not."""
    assert infrastructure_kind("from.email_address_id", {"type": "number"}) == "sender"
    assert infrastructure_kind("sender_id", {"type": "string"}) == "sender"
    assert infrastructure_default("from.email_address_id", {"type": "number"}) == 1
    assert not is_infrastructure("from_account_id", {"type": "string"})
    assert not is_infrastructure("from", {"type": "string"})

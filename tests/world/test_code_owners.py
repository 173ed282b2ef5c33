"""A repository's `owner` is the login of the account that holds it.

GitHub's and Gitea's `/repos/{owner}/{repo}` paths take an account login. A blind review
rejected tasks that asked for a GitHub issue "owned by Yara Shah": the field had been
read as the name of a person who owns something, as a CRM deal's owner is."""

from __future__ import annotations

import random
import re

import pytest

from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.vocab import field_kind

LOGIN = re.compile(r"^[a-z][a-z0-9._-]+$")


@pytest.mark.parametrize("resource", ["repos", "issues", "pulls", "releases", "commits"])
def test_a_code_host_s_owner_is_a_login(resource: str) -> None:
    assert field_kind("owner", {"type": "string"}, resource) == "staff_username"
    record = value_from_schema({"type": "object", "properties": {"owner": {"type": "string"}},
                                "required": ["owner"]}, random.Random(3), resource=resource,
                               service="mcp_github", pool=draw_pool(5))
    assert LOGIN.match(record["owner"]), record


@pytest.mark.parametrize("resource", ["deals", "accounts", "projects", None])
def test_other_owners_are_still_people(resource: str | None) -> None:
    assert field_kind("owner", {"type": "string"}, resource) == "staff_name"
    # nor is a code record's named owner (`owner_name`) a login
    assert field_kind("owner_name", {"type": "string"}, "repos") != "staff_username"

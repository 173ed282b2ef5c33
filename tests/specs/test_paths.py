"""Effect, resource and default names read from method and path shape."""

from __future__ import annotations

import pytest

from compoworld.specs.paths import analyze_path, default_tool_name, infer_effect, infer_resource


@pytest.mark.parametrize(
    ("method", "path", "effect"),
    [
        ("get", "/contacts", "read"),
        ("GET", "/contacts/{id}", "read"),
        ("head", "/files/{id}", "read"),
        ("options", "/contacts", "read"),
        ("post", "/contacts", "create"),
        ("post", "/v1/contacts/{id}/notes", "create"),
        ("post", "/customers/{customer}", "update"),
        ("post", "/charges/{id}/capture", "action"),
        ("post", "/messages/send", "action"),
        ("post", "/drafts/send", "action"),
        ("post", "/v1/{name}:cancel", "action"),
        ("post", "/v1/projects/{p}/messages:batchGet", "read"),
        ("post", "/v1/projects/{p}/messages:batchDelete", "delete"),
        ("post", "/droplets/{id}/actions", "action"),
        ("post", "/users/{id}/microsoft.graph.assignLicense", "action"),
        ("post", "/contacts/search", "read"),
        ("post", "/records/query", "read"),
        ("post", "/uploads", "create"),
        ("post", "/upload", "action"),
        ("post", "/users/{id}/delete", "delete"),
        ("put", "/contacts/{id}", "update"),
        ("put", "/settings", "update"),
        ("patch", "/contacts/{id}", "update"),
        ("put", "/repos/{o}/{r}/pulls/{n}/merge", "action"),
        ("delete", "/contacts/{id}", "delete"),
        ("delete", "/contacts/{id}/tags/{tag}", "delete"),
        ("post", "/#X-Amz-Target=CertificateManager.DescribeCertificate", "read"),
        ("post", "/#X-Amz-Target=CertificateManager.DeleteCertificate", "delete"),
        ("get", "/#Action=RunInstances", "action"),
        ("post", "/?Action=CreateQueue", "create"),
    ],
)
def test_infer_effect(method: str, path: str, effect: str) -> None:
    assert infer_effect(method, path) == effect


def test_put_named_create_is_create() -> None:
    assert infer_effect("put", "/{Bucket}", "CreateBucket") == "create"
    assert infer_effect("put", "/{Bucket}", "PutBucketCors") == "update"


@pytest.mark.parametrize(
    ("path", "resource"),
    [
        ("/contacts", "contacts"),
        ("/contacts/{id}", "contacts"),
        ("/contacts/{id}/notes/{noteId}", "notes"),
        ("/v1/contacts", "contacts"),
        ("/api/v2.1/contacts/{id}", "contacts"),
        ("/v1beta1/{parent}/instances", "instances"),
        ("/2010-04-01/Accounts/{AccountSid}/Calls.json", "calls"),
        ("/charges/{id}/capture", "charges"),
        ("/payment-methods/{id}", "payment_methods"),
        ("/emailAddresses", "email_addresses"),
        ("/me/messages/{id}/$value", "messages"),
        ("/v1/projects/{p}/messages:batchGet", "messages"),
        ("/users/{id}/microsoft.graph.assignLicense", "users"),
        ("/", None),
        ("/v1/{name}", None),
        ("/#X-Amz-Target=Acm.AddTagsToCertificate", "certificates"),
    ],
)
def test_infer_resource(path: str, resource: str | None) -> None:
    assert infer_resource(path) == resource


def test_path_params_know_their_collection() -> None:
    shape = analyze_path("/repos/{owner}/{repo}/issues/{issue_number}")
    assert shape.param_owner == {"owner": "repos", "repo": "repos", "issue_number": "issues"}
    assert shape.ends_with_param


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [
        ("get", "/contacts/{id}", "get_contact"),
        ("get", "/contacts", "list_contacts"),
        ("post", "/contacts", "create_contact"),
        ("patch", "/contacts/{id}", "update_contact"),
        ("delete", "/contacts/{id}", "delete_contact"),
        ("get", "/contacts/{id}/notes", "list_contact_notes"),
        ("post", "/charges/{id}/capture", "capture_charge"),
        ("get", "/users/{id}/photo", "get_user_photo"),
        ("get", "/", "get_root"),
        ("post", "/#Action=RunInstances", "run_instances"),
    ],
)
def test_default_tool_name(method: str, path: str, name: str) -> None:
    assert default_tool_name(method, path) == name

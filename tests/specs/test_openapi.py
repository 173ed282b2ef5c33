"""Loading an OpenAPI 3 document into a ServiceSpec."""

from __future__ import annotations

import json
import re

import pytest

from compoworld.specs import SpecLoadError, load_openapi
from compoworld.specs.records import ServiceSpec, ToolSpec

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")


def tool(spec: ServiceSpec, source_suffix: str) -> ToolSpec:
    return next(t for t in spec.tools if t.source.endswith(source_suffix))


@pytest.fixture
def crm(crm_document: dict) -> ServiceSpec:
    return load_openapi(crm_document, "example.com/crm")


def test_service_metadata(crm: ServiceSpec) -> None:
    assert crm.name == "example_com_crm"
    assert crm.title == "Tiny CRM"
    assert crm.description == "A tiny CRM for tests. See the docs."
    assert crm.domain == "customer_relation"
    assert crm.source == "openapi:example.com/crm"


def test_one_tool_per_operation_with_source(crm: ServiceSpec) -> None:
    assert [t.source.split("#")[1] for t in crm.tools] == [
        "GET /v1/contacts", "POST /v1/contacts", "GET /v1/contacts/{contactId}",
        "PATCH /v1/contacts/{contactId}", "DELETE /v1/contacts/{contactId}",
        "POST /v1/contacts/{contactId}/notes", "POST /v1/contacts/{contactId}/send",
        "GET /v1/folders/{folderId}",
    ]
    assert all(t.service == crm.name for t in crm.tools)


def test_names_from_operation_id_or_path_deduplicated_and_valid(crm: ServiceSpec) -> None:
    names = [t.name.split("__", 1)[1] for t in crm.tools]
    assert names == [
        "list_contacts", "create_contact", "get_contact", "update_contact",
        "delete_contact", "create_contact_note", "list_contacts_2", "get_folder",
    ]
    assert len(set(names)) == len(names)
    assert all(TOOL_NAME.match(t.name) for t in crm.tools)


def test_header_and_cookie_params_dropped_ref_param_resolved(crm: ServiceSpec) -> None:
    params = tool(crm, "GET /v1/contacts").parameters
    assert params == {
        "type": "object",
        "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 100,
                                 "default": 20, "description": "Page size."}},
        "required": [],
    }


def test_path_level_params_merged_op_level_overrides(crm: ServiceSpec) -> None:
    get = tool(crm, "GET /v1/contacts/{contactId}").parameters
    assert get["properties"]["verbose"] == {"type": "integer"}
    assert get["required"] == ["contactId", "verbose"]
    patch = tool(crm, "PATCH /v1/contacts/{contactId}").parameters
    assert patch["properties"]["verbose"] == {"type": "boolean"}


def test_object_body_merged_read_only_skipped_clash_prefixed(crm: ServiceSpec) -> None:
    create = tool(crm, "POST /v1/contacts").parameters
    assert list(create["properties"]) == ["email", "first_name"]  # `id` is readOnly
    assert create["required"] == ["email"]
    patch = tool(crm, "PATCH /v1/contacts/{contactId}").parameters
    assert "body_contactId" in patch["properties"]
    assert patch["required"] == ["contactId", "email", "body_contactId"]


def test_non_json_object_body_used_when_only_one(crm: ServiceSpec) -> None:
    send = tool(crm, "POST /v1/contacts/{contactId}/send").parameters
    assert list(send["properties"]) == ["contactId", "text", "body_contactId"]
    assert send["required"] == ["contactId", "text"]


def test_non_object_body_goes_under_body(crm: ServiceSpec) -> None:
    notes = tool(crm, "POST /v1/contacts/{contactId}/notes").parameters
    assert notes["properties"]["body"] == {"type": "array", "items": {"type": "string"}}
    assert notes["required"] == ["contactId", "body"]


def test_returns_prefers_2xx_over_default(crm: ServiceSpec) -> None:
    create = tool(crm, "POST /v1/contacts")
    assert "contactId" in create.returns["properties"]
    assert tool(crm, "DELETE /v1/contacts/{contactId}").returns == {}
    assert tool(crm, "POST /v1/contacts/{contactId}/send").returns == {}


def test_recursive_schema_is_cut(crm: ServiceSpec) -> None:
    folder = tool(crm, "GET /v1/folders/{folderId}").returns
    assert folder["properties"]["children"]["items"] == {"type": "object",
                                                         "x-recursive": "Folder"}


def test_effects_and_resources(crm: ServiceSpec) -> None:
    assert [(t.effect, t.resource) for t in crm.tools] == [
        ("read", "contacts"), ("create", "contacts"), ("read", "contacts"),
        ("update", "contacts"), ("delete", "contacts"), ("create", "notes"),
        ("action", "contacts"), ("read", "folders"),
    ]


def test_resources_have_an_id_field(crm: ServiceSpec) -> None:
    contacts = crm.resources["contacts"]
    assert contacts["x-id-field"] == "id"
    assert "email" in contacts["properties"]
    folders = crm.resources["folders"]
    assert folders["x-id-field"] == "id"
    assert folders["properties"]["id"] == {"type": "string"}  # added: Folder has none
    assert set(crm.resources) == {"contacts", "folders", "notes"}


def test_semantic_types_of_params_and_returns(crm: ServiceSpec) -> None:
    get = tool(crm, "GET /v1/contacts/{contactId}")
    assert get.param_types == {"contactId": "example_com_crm.contacts.id", "verbose": "integer"}
    listing = tool(crm, "GET /v1/contacts")
    assert listing.return_types["data[].email"] == "email"
    assert listing.return_types["data[].id"] == "example_com_crm.contacts.id"
    assert listing.return_types["data[].companyName"] == "company"
    assert listing.return_types["next_url"] == "url"


def test_tool_description_falls_back_to_method_and_path(crm: ServiceSpec) -> None:
    assert tool(crm, "DELETE /v1/contacts/{contactId}").description == (
        "DELETE /v1/contacts/{contactId}"
    )
    assert tool(crm, "POST /v1/contacts").description == "Create a contact"


def test_schemas_are_owned_json(crm: ServiceSpec) -> None:
    first, second = crm.tools[1], crm.tools[2]
    first.returns["properties"]["email"]["format"] = "changed"
    assert second.returns["properties"]["email"]["format"] == "email"
    json.dumps(crm.model_dump())


def test_huge_schema_is_shrunk_below_the_cap() -> None:
    wide = {f"f{i}": {"$ref": "#/components/schemas/Wide"} for i in range(60)}
    wide["text"] = {"type": "string", "description": "x " * 150}
    document = {
        "openapi": "3.0.0", "info": {"title": "Big"},
        "paths": {"/things": {"post": {
            "requestBody": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Wide"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Wide"}}}}}},
        }}},
        "components": {"schemas": {"Wide": {"type": "object", "properties": wide}}},
    }
    spec = load_openapi(document, "big.example")
    only = spec.tools[0]
    assert len(json.dumps(only.parameters)) <= 24_000
    assert len(json.dumps(only.returns)) <= 24_000
    assert len(only.parameters["properties"]) == 60


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ([], "not an object"),
        ({"info": {}}, "no `openapi` key"),
        ({"swagger": "2.0", "paths": {"/a": {}}}, "Swagger 2.0 is not supported"),
        ({"openapi": "3.0.0", "paths": {}}, "no operations"),
        ({"openapi": "3.0.0", "paths": {"/a": {"summary": "no methods"}}}, "no operations"),
        ({"openapi": "2.5", "paths": {"/a": {"get": {}}}}, "unsupported OpenAPI version"),
    ],
)
def test_unusable_documents_raise_one_line_reason(document: object, reason: str) -> None:
    with pytest.raises(SpecLoadError, match=re.escape(reason)) as info:
        load_openapi(document, "bad")  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_unexpected_errors_are_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    from compoworld.specs import openapi

    def boom(*args: object, **kwargs: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(openapi, "_draft", boom)
    with pytest.raises(SpecLoadError, match=r"^KeyError: 'surprise'$"):
        load_openapi({"openapi": "3.0.0", "paths": {"/a": {"get": {}}}}, "x")


def test_messy_operations_do_not_crash() -> None:
    document = {
        "openapi": "3.1.0",
        "info": "not a dict",
        "paths": {"/a/{id}": {
            "get": {"parameters": [None, {"in": "query"}, {"$ref": "#/missing"}],
                    "responses": {"200": {"content": {"application/json": {"schema": True}}}}},
            "post": {"requestBody": {"$ref": "#/loop"}, "responses": None},
        }},
        "loop": {"$ref": "#/loop"},
    }
    spec = load_openapi(document, "messy")
    assert [t.effect for t in spec.tools] == ["read", "update"]
    assert spec.title == "messy" and spec.domain == "other"


def test_pathological_schema_falls_back_to_names_and_types() -> None:
    enum = [f"value-{i:04d}-" + "x" * 20 for i in range(50)]
    props = {f"p{i}": {"type": "string", "enum": enum, "description": "d " * 150}
             for i in range(60)}
    document = {
        "openapi": "3.0.0",
        "paths": {"/things/{id}": {"put": {
            "parameters": [{"name": "id", "in": "path", "schema": {"type": "string"}}],
            "requestBody": {"content": {"application/json": {
                "schema": {"type": "object", "properties": props}}}},
            "responses": {"200": {"description": "ok"}},
        }}},
    }
    params = load_openapi(document, "huge").tools[0].parameters
    assert params["x-truncated"] is True
    assert params["properties"]["p0"] == {"type": "string"}
    assert params["required"] == ["id"]
    assert len(json.dumps(params)) < 24_000


def test_name_clashes_never_overwrite() -> None:
    document = {
        "openapi": "3.0.0",
        "paths": {"/a": {"post": {
            "parameters": [{"name": "x", "in": "query", "schema": {"type": "integer"}}],
            "requestBody": {"content": {"application/json": {"schema": {
                "type": "object",
                "properties": {"body_x": {"type": "string"}, "x": {"type": "boolean"}},
            }}}},
            "responses": {},
        }}},
    }
    props = load_openapi(document, "clash").tools[0].parameters["properties"]
    assert props == {"x": {"type": "integer"}, "body_x": {"type": "string"},
                     "body_body_x": {"type": "boolean"}}


def test_a_record_in_an_envelope_with_its_errors_is_the_record():
    """Square answers `{"customer": {...}, "errors": [...]}`: the customers' record schema
    is the customer, not the envelope (which made every Square create store `{"id"}`
    alone, and 577 walks of a default run fail their checks)."""
    from compoworld.specs.resources import unwrap_record

    customer = {"type": "object", "properties": {
        "id": {"type": "string"}, "given_name": {"type": "string"},
        "email_address": {"type": "string"}}}
    errors = {"type": "array", "items": {"type": "object", "properties": {
        "code": {"type": "string"}, "detail": {"type": "string"}}}}
    returns = {"type": "object", "properties": {"customer": customer, "errors": errors}}
    assert unwrap_record(returns, "customers") is customer
    listed = {"type": "object", "properties": {"customer": customer, "cards": errors}}
    assert unwrap_record(listed, "customers") is listed  # (an array of its own: no envelope)


def test_a_record_read_back_as_a_list_of_one_is_the_item():
    """Xero reads a contact back as `{"Contacts": [{...}]}`: taken as the record, each of
    its contacts held a list of contacts of its own, and no walk began at Xero (a request
    names one contact, not a list inside one). The record is the list's item; an envelope
    of another collection's list is not unwrapped."""
    from compoworld.specs.resources import unwrap_record

    contact = {"type": "object", "properties": {
        "ContactID": {"type": "string"}, "Name": {"type": "string"},
        "EmailAddress": {"type": "string"}}}
    returns = {"type": "object", "properties": {"Contacts": {"type": "array",
                                                             "items": contact}}}
    assert unwrap_record(returns, "Contacts") is contact
    assert unwrap_record(returns, "contacts") is contact
    other = {"type": "object", "properties": {"Phones": {"type": "array", "items": contact}}}
    assert unwrap_record(other, "contacts") is other


def test_a_create_that_answers_only_the_new_id_in_an_envelope_tells_no_record():
    """api2cart's `customer.add` answers `{"result": {"customer_id": ...}, "return_code":
    0, "return_message": ""}`: taken as the customers' record schema, every seeded customer
    held a `result` and a `return_code`, and no name or email. The record is left to the
    collection's list (`result.customer[]`)."""
    from compoworld.specs.resources import bare_envelope

    added = {"type": "object", "properties": {
        "result": {"type": "object", "properties": {"customer_id": {"type": "string"}}},
        "return_code": {"type": "integer"}, "return_message": {"type": "string"}}}
    assert bare_envelope(added)
    full = {"type": "object", "properties": {
        "result": {"type": "object", "properties": {"id": {"type": "string"},
                                                    "email": {"type": "string"}}},
        "return_code": {"type": "integer"}}}
    assert not bare_envelope(full)  # (a record in its envelope: unwrapped, and kept)
    assert not bare_envelope({"type": "object", "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}}})


def test_a_collection_s_record_comes_from_its_plainest_list():
    """api2cart names its collections by the singular of its paths (`/customer.list.json`)
    and lists them under the plural (`result.customer[]`, `result.subscribers[]`), and its
    `customer_attribute_list` sorts first: the customers' record was an attribute's. The
    record comes from the plainest list, its items found under the plural too."""
    from compoworld.specs.records import ToolSpec
    from compoworld.specs.resources import derive_resources

    def lister(name: str, key: str, fields: list[str]) -> ToolSpec:
        item = {"type": "object", "properties": {f: {"type": "string"} for f in fields}}
        returns = {"type": "object", "properties": {
            "result": {"type": "object", "properties": {
                key: {"type": "array", "items": item}}},
            "return_code": {"type": "integer"}}}
        return ToolSpec(service="cart", name=f"cart__{name}", description="d",
                        parameters={"type": "object", "properties": {}}, returns=returns,
                        effect="read", resource="customer", source=f"openapi:cart#GET /{name}")

    tools = [lister("customer_attribute_list", "attribute", ["attribute_id", "code"]),
             lister("customer_list", "customers", ["id", "email", "first_name"])]
    derived = derive_resources(tools, {})
    assert {"email", "first_name"} <= set(derived["customer"]["properties"])


def _ok(schema: dict) -> dict:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def test_an_asana_gid_keys_its_record_and_links_a_list_to_its_get():
    """Asana keys every record by `gid` (its "global id"): `GET /tasks` answers
    `data[].gid`, and `GET /tasks/{task_gid}` takes one. Typed a plain string, the list fed
    nothing, and no walk began in Asana, one of the apps people automate most."""
    task = {"type": "object", "properties": {"gid": {"type": "string"},
                                             "name": {"type": "string"}}}
    document = {"openapi": "3.0.0", "info": {"title": "Asana", "version": "1"}, "paths": {
        "/tasks": {"get": {"operationId": "getTasks", "responses": _ok(
            {"type": "object", "properties": {"data": {"type": "array", "items": task}}})}},
        "/tasks/{task_gid}": {"get": {"operationId": "getTask", "parameters": [
            {"name": "task_gid", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": _ok({"type": "object", "properties": {"data": task}})}}}}
    spec = load_openapi(document, "asana.example")
    listed, get = tool(spec, "GET /tasks"), tool(spec, "GET /tasks/{task_gid}")
    assert listed.return_types["data[].gid"] == get.param_types["task_gid"] \
        == "asana_example.tasks.id"
    assert spec.resources["tasks"]["x-id-field"] == "gid"


def test_a_path_parameter_named_for_its_collection_keys_it():
    """Google Tasks lists a list's tasks at `/lists/{tasklist}/tasks`: `tasklist` is the
    id of one of `lists` (as `/lists/{tasklist}` itself says). Typed by its name, a string,
    no list of task lists reached a list's tasks. `owner` in `/repos/{owner}/{repo}` still
    names no repo."""
    from compoworld.specs.fields import param_types

    string = {"type": "string"}
    assert param_types({"properties": {"tasklist": string}}, service="gt", resource="tasks",
                       owners={"tasklist": "lists"}) == {"tasklist": "gt.lists.id"}
    assert param_types({"properties": {"owner": string, "repo": string}}, service="gh",
                       resource="issues", owners={"owner": "repos", "repo": "repos"}) \
        == {"owner": "string", "repo": "gh.repos.id"}

"""Built-in services: valid derived specs, the call protocol, and each domain's actions."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from compoworld.graph.semtypes import entity_id_type
from compoworld.services.builtin import BUILTIN_SERVICES, build_builtin, builtin_spec, example_state
from compoworld.services.builtin.common import DEFAULT_WORLD, WORLD, Record, people
from compoworld.services.builtin.derive import parse_docstring
from compoworld.services.builtin.toolkit import Toolkit, tool, tool_defs
from compoworld.services.runtime import Service
from compoworld.specs.text import TOOL_NAME_RE
from compoworld.world.state import compile_validator, diff

SERVICES = sorted(BUILTIN_SERVICES)
SEED = 7
UNKNOWN = "zzz_9999"
WRONG = {"string": 12345, "integer": "twelve", "number": "twelve", "boolean": "yes",
         "array": "not-a-list", "object": "not-an-object"}


def world(name: str, seed: int = SEED) -> Service:
    return build_builtin(name, example_state(name, seed))


def ok(svc: Service, tool_name: str, **arguments: Any) -> Any:
    result = svc.call(f"{svc.name}__{tool_name}", arguments)
    assert result["success"], result
    return result["data"]


def fails(svc: Service, tool_name: str, code: int | tuple[int, ...], **arguments: Any) -> str:
    """Assert the call is rejected with `code` and leaves the state exactly as it was."""
    digest = svc.state.digest()
    result = svc.call(f"{svc.name}__{tool_name}", arguments)
    assert not result["success"], result
    codes = code if isinstance(code, tuple) else (code,)
    assert result["error"]["code"] in codes, result
    assert svc.state.digest() == digest, "a rejected call changed the state"
    return result["error"]["message"]


def walk(node: Any):
    """Every dict inside a JSON value."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def first_type(schema: dict[str, Any]) -> str:
    kind = schema.get("type", "string")
    return next(k for k in kind if k != "null") if isinstance(kind, list) else kind


# --- specs ------------------------------------------------------------------------------


def test_there_are_ten_builtin_services():
    assert SERVICES == ["calendar", "chat", "crm", "email", "files", "issues", "maps",
                        "payments", "sheets", "sms"]


@pytest.mark.parametrize("name", SERVICES)
def test_spec_is_valid(name: str):
    spec = builtin_spec(name)
    assert spec.name == name and spec.source == f"builtin:{name}"
    assert spec.title and spec.description and spec.domain
    names = [t.name for t in spec.tools]
    assert len(names) == len(set(names)) and 4 <= len(names) <= 8
    assert type(spec).model_validate_json(spec.model_dump_json()) == spec
    for collection, schema in spec.resources.items():
        assert schema["x-id-field"] == "id" and "id" in schema["properties"]
        assert schema["additionalProperties"] is False
        assert set(schema["required"]) == set(schema["properties"])
        for field, prop in schema["properties"].items():
            assert prop.get("description"), f"{collection}.{field} has no description"
    for t in spec.tools:
        assert TOOL_NAME_RE.match(t.name) and t.name.startswith(f"{name}__")
        assert t.source == f"builtin:{name}#{t.name.split('__', 1)[1]}"
        assert t.description and t.returns.get("description")
        assert t.resource is None or t.resource in spec.resources
        params = t.parameters
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params.get("required", [])) <= set(params["properties"])
        assert set(t.param_types) == set(params["properties"])
        for param, prop in params["properties"].items():
            assert prop.get("description"), f"{t.name}.{param} has no description"
        for node in walk([params, t.returns, spec.resources]):
            assert "$ref" not in node and "$defs" not in node and "anyOf" not in node
        compile_validator(params), compile_validator(t.returns)  # both compile


@pytest.mark.parametrize("name", SERVICES)
def test_specs_are_fresh_copies(name: str):
    pristine = builtin_spec(name).model_dump()
    first = builtin_spec(name)
    first.tools[0].parameters["mutated"] = True
    first.resources.clear()
    assert builtin_spec(name).model_dump() == pristine


@pytest.mark.parametrize("name", SERVICES)
def test_schemas_come_from_signatures_and_docstrings(name: str):
    cls = BUILTIN_SERVICES[name]
    spec = builtin_spec(name)
    assert spec.description == parse_docstring(cls.__doc__).summary
    for t in spec.tools:
        method = getattr(cls, t.name.split("__", 1)[1])
        doc = parse_docstring(method.__doc__)
        signature = list(inspect.signature(method).parameters.values())[1:]
        assert list(t.parameters["properties"]) == [p.name for p in signature]
        assert t.parameters.get("required", []) == [
            p.name for p in signature if p.default is inspect.Parameter.empty]
        assert t.description == doc.summary and t.returns["description"] == doc.returns
        for p in signature:
            prop = t.parameters["properties"][p.name]
            assert prop["description"] == doc.args[p.name]
            if p.default is not inspect.Parameter.empty:
                assert prop["default"] == p.default


def test_service_modules_write_no_schema_by_hand():
    folder = Path(inspect.getfile(Toolkit)).parent
    for module in sorted(folder.glob("*.py")):
        if module.name in ("derive.py", "toolkit.py"):
            continue
        text = module.read_text()
        for keyword in ('"properties"', '"required"', '"parameters"', '"type":'):
            assert keyword not in text, f"{module.name} writes a schema by hand ({keyword})"


class Note(Record):
    """A note."""

    id: str = Field(description="Note id.")
    text: str = Field(description="Body of the note.")
    tags: list[str] = Field(description="Tags.")


class Tag(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str = Field(description="Tag label.")
    weight: int = Field(default=1, description="Tag weight.")


class NotesToolkit(Toolkit):
    """Notes for tests.

    Not part of the description.
    """

    name = "notes"
    title = "Notes"
    resources = {"notes": Note}

    @tool(effect="create", resource="notes")
    def add_note(self, text: str, pinned: bool, kind: Literal["idea", "todo"] = "idea",
                 score: float | None = None, tags: list[str] | None = None,
                 tag: Tag | None = None) -> Note:
        """Add a note
        to the list.

        Not part of the description.

        Args:
            text: Body of the note.
            pinned (bool): Whether it stays
                on top.
            kind: Kind of note.
            score: A score.
            tags: Tags to add.
            tag: One structured tag.

        Returns:
            The new note.
        """
        labels = [*(tags or []), *([f"{tag.label}x{tag.weight}"] if tag else [])]
        note = Note(id=self.new_id("notes"), text=f"{kind}:{text}", tags=labels)
        self.commit(("notes", note))
        return note

    @tool(effect="read", resource="notes")
    def list_notes(self) -> list[Note]:
        """List the notes.

        Returns:
            The notes.
        """
        return self.scan("notes")


def test_a_toy_toolkit_derives_exactly_this_schema():
    spec = NotesToolkit.spec()
    assert spec.description == "Notes for tests."
    add, listing = spec.tools
    assert add.description == "Add a note to the list."
    assert add.parameters == {
        "type": "object",
        "additionalProperties": False,
        "required": ["text", "pinned"],
        "properties": {
            "text": {"type": "string", "description": "Body of the note."},
            "pinned": {"type": "boolean", "description": "Whether it stays on top."},
            "kind": {"type": "string", "enum": ["idea", "todo"], "default": "idea",
                     "description": "Kind of note."},
            "score": {"type": ["number", "null"], "default": None, "description": "A score."},
            "tags": {"type": ["array", "null"], "items": {"type": "string"}, "default": None,
                     "description": "Tags to add."},
            "tag": {"type": ["object", "null"], "additionalProperties": False,
                    "required": ["label"], "default": None,
                    "description": "One structured tag.",
                    "properties": {
                        "label": {"type": "string", "description": "Tag label."},
                        "weight": {"type": "integer", "default": 1,
                                   "description": "Tag weight."}}},
        },
    }
    assert add.returns["description"] == "The new note."
    assert add.returns["required"] == ["id", "text", "tags"]
    assert listing.returns["type"] == "array" and listing.returns["items"]["properties"]
    assert add.param_types["text"] == "text" and add.return_types["id"] == "notes.notes.id"


def test_a_toy_toolkit_converts_arguments_and_dumps_results():
    svc = NotesToolkit.build()
    note = ok(svc, "add_note", text="hi", pinned=True, tag={"label": "x"}, score=None)
    assert note == {"id": "not_0001", "text": "idea:hi", "tags": ["xx1"]}
    assert ok(svc, "list_notes") == [note]
    assert "label" in fails(svc, "add_note", 400, text="a", pinned=True, tag={"weight": 2})
    assert "bogus" in fails(svc, "add_note", 400, text="a", pinned=True, bogus=1)


def test_undocumented_or_untyped_tools_are_refused():
    class Undocumented(Toolkit):
        name = "bad"

        @tool(effect="read")
        def list_things(self, query: str) -> list[str]:
            """List things.

            Returns:
                Things.
            """
            return []

    with pytest.raises(TypeError, match="'query' needs a description"):
        tool_defs(Undocumented)

    class NoDocstring(Toolkit):
        name = "bad"

        @tool(effect="read")
        def list_things(self) -> list[str]:
            return []

    with pytest.raises(TypeError, match="needs a docstring"):
        tool_defs(NoDocstring)


# --- the protocol, on every tool, through a scripted tour of each service ---------------


class Tour:
    """Calls tools for real; before each call, checks that bad versions of it are rejected."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.called: set[str] = set()
        self.ids = {entity_id_type(svc.name, c) for c in svc.spec.resources}

    def __call__(self, tool_name: str, **arguments: Any) -> Any:
        name = f"{self.svc.name}__{tool_name}"
        spec = self.svc.tools[name].spec
        props = spec.parameters["properties"]
        for missing in spec.parameters.get("required", []):
            less = {k: v for k, v in arguments.items() if k != missing}
            assert missing in fails(self.svc, tool_name, 400, **less)
        for param in arguments:
            wrong = arguments | {param: WRONG[first_type(props[param])]}
            assert param in fails(self.svc, tool_name, 400, **wrong)
            if spec.param_types[param] in self.ids:
                message = fails(self.svc, tool_name, 404, **arguments | {param: UNKNOWN})
                assert UNKNOWN in message and "Call " in message, message
        fails(self.svc, tool_name, 400, **arguments, unexpected_argument=1)
        before = self.svc.state.copy()
        data = ok(self.svc, tool_name, **arguments)
        compile_validator(spec.returns)(data)
        changed = diff(before, self.svc.state)
        assert bool(changed) == (spec.effect != "read"), (name, changed)
        self.called.add(name)
        return data


def tour_email(call: Tour) -> None:
    first = call("search_emails", folder="inbox", limit=5)[0]
    assert call("get_email", message_id=first["id"]) == first
    sent = call("send_email", to="dana@example.com", subject="Hello", body="Hi Dana",
                cc=["eve@example.com"])
    call("reply_email", message_id=first["id"], body="Thanks!", reply_all=True)
    call("forward_email", message_id=first["id"], to="dana@example.com", note="FYI")
    call("mark_email_read", message_id=first["id"], read=not first["read"])
    call("move_email", message_id=first["id"], folder="archive")
    call("delete_email", message_id=sent["id"])


def tour_calendar(call: Tour) -> None:
    events = call("list_events", include_cancelled=True)
    call("get_event", event_id=events[0]["id"])
    new = call("create_event", title="Planning", start="2025-04-01T10:00:00Z",
               end="2025-04-01T11:00:00Z", attendees=["dana@example.com"], location="Room 1")
    call("update_event", event_id=new["id"], title="Planning (moved)", description="Q2 plan")
    call("move_event", event_id=new["id"], start="2025-04-02T10:00:00Z",
         end="2025-04-02T10:30:00Z")
    call("cancel_event", event_id=new["id"])
    call("delete_event", event_id=new["id"])


def tour_crm(call: Tour) -> None:
    contact = call("search_contacts", query="")[0]
    call("get_contact", contact_id=contact["id"])
    new = call("create_contact", first_name="Dana", last_name="Reyes", email="dana@example.com",
               phone="+14155550123", company="Initech", city="Austin")
    call("update_contact", contact_id=new["id"], job_title="CTO")
    deal = call("create_deal", contact_id=new["id"], title="Pilot", amount=1200.5,
                currency="EUR")
    call("list_deals", contact_id=new["id"], stage="lead")
    call("update_deal_stage", deal_id=deal["id"], stage="won")
    call("delete_contact", contact_id=new["id"])


def tour_chat(call: Tour) -> None:
    channel = call("list_channels", member_email=call.svc.state.collections[WORLD]["world"]
                   ["user_email"])[0]
    call("get_channel", channel_id=channel["id"])
    new = call("create_channel", name="launch-2025", topic="Launch", members=["a@example.com"])
    call("invite_to_channel", channel_id=new["id"], email="b@example.com")
    posted = call("post_message", channel_id=new["id"], text="Hello team")
    call("list_messages", channel_id=new["id"], query="hello", limit=5)
    call("delete_message", message_id=posted["id"])


def tour_files(call: Tour) -> None:
    first = call("list_files", folder="/reports")[0]
    call("get_file", file_id=first["id"])
    new = call("upload_file", filename="plan.txt", content="Step 1", folder="/plans")
    call("rename_file", file_id=new["id"], filename="plan-v2.txt")
    call("share_file", file_id=new["id"], email="dana@example.com")
    call("delete_file", file_id=new["id"])


def tour_payments(call: Tour) -> None:
    account = call("list_accounts")[0]
    call("get_account", account_id=account["id"])
    paid = call("transfer_funds", account_id=account["id"], payee_email="dana@example.com",
                amount=12.5, currency=account["currency"], memo="Lunch")
    call("list_transfers", account_id=account["id"], payee_email="dana@example.com")
    call("get_transfer", transfer_id=paid["id"])
    call("refund_transfer", transfer_id=paid["id"])


def tour_issues(call: Tour) -> None:
    call("search_issues", status="open")
    new = call("create_issue", title="Crash on save", description="Stack trace attached",
               priority="high", labels=["bug"])
    call("get_issue", issue_id=new["id"])
    call("update_issue", issue_id=new["id"], priority="urgent", status="in_progress")
    call("assign_issue", issue_id=new["id"], assignee_email="dana@example.com")
    call("add_comment", issue_id=new["id"], body="Looking into it.")
    call("list_comments", issue_id=new["id"])
    call("close_issue", issue_id=new["id"], resolution="fixed")


def tour_sheets(call: Tour) -> None:
    call("list_spreadsheets", query="guest")
    new = call("create_spreadsheet", title="Budget", columns=["item", "amount"])
    call("get_spreadsheet", spreadsheet_id=new["id"])
    call("append_row", spreadsheet_id=new["id"], values={"item": "Taxi", "amount": "12"})
    call("update_cell", spreadsheet_id=new["id"], row=1, column="amount", value="15")
    call("find_rows", spreadsheet_id=new["id"], column="item", value="taxi")
    call("delete_spreadsheet", spreadsheet_id=new["id"])


def tour_maps(call: Tour) -> None:
    place = call("search_places", category=None)[0]
    call("get_place", place_id=place["id"])
    call("find_nearby_places", place_id=place["id"], radius_km=5.0)
    new = call("add_place", name="Blue Door Cafe", category="cafe", address="3 Oak Street",
               city=place["city"], country=place["country"], latitude=place["latitude"],
               longitude=place["longitude"], url="https://bluedoor.example.com")
    saved = call("save_place", place_id=new["id"], note="Good coffee")
    call("list_saved_places")
    call("remove_saved_place", saved_place_id=saved["id"])


def tour_sms(call: Tour) -> None:
    first = call("list_sms", direction="inbound", limit=3)[0]
    call("get_sms", message_id=first["id"])
    sent = call("send_sms", phone="+14155550123", body="See you soon")
    call("delete_sms", message_id=sent["id"])
    call("block_number", phone="+14155550123")
    call("list_blocked_numbers")
    call("unblock_number", phone="+14155550123")


TOURS: dict[str, Callable[[Tour], None]] = {
    name[len("tour_"):]: fn for name, fn in globals().items() if name.startswith("tour_")
}


@pytest.mark.parametrize("name", SERVICES)
def test_every_tool_works_and_keeps_the_protocol(name: str):
    """Each tool: missing/wrong/extra args are 400s naming the parameter, unknown ids are
    404s saying what to call, rejections change nothing, results match `returns`, reads
    change nothing and writes change something; and the tour reaches every tool."""
    tour = Tour(world(name))
    TOURS[name](tour)
    assert tour.called == set(tour.svc.tools)


ROUND_TRIPS = {
    "email": ("send_email", {"to": "a@example.com", "subject": "S", "body": "B"},
              "get_email", "message_id"),
    "calendar": ("create_event", {"title": "T", "start": "2025-05-01T08:00:00Z",
                                  "end": "2025-05-01T09:00:00Z"}, "get_event", "event_id"),
    "crm": ("create_contact", {"first_name": "A", "last_name": "B", "email": "a@example.com"},
            "get_contact", "contact_id"),
    "chat": ("create_channel", {"name": "new-channel"}, "get_channel", "channel_id"),
    "files": ("upload_file", {"filename": "a.txt", "content": "x"}, "get_file", "file_id"),
    "payments": ("transfer_funds", {"account_id": "acc_0001", "payee_email": "a@example.com",
                                    "amount": 1.0, "currency": "USD"},
                 "get_transfer", "transfer_id"),
    "issues": ("create_issue", {"title": "T"}, "get_issue", "issue_id"),
    "sheets": ("create_spreadsheet", {"title": "T", "columns": ["a"]},
               "get_spreadsheet", "spreadsheet_id"),
    "maps": ("add_place", {"name": "N", "category": "park", "address": "1 A St", "city": "C",
                           "country": "PT", "latitude": 1.5, "longitude": 2.5},
             "get_place", "place_id"),
    "sms": ("send_sms", {"phone": "+14155550100", "body": "hi"}, "get_sms", "message_id"),
}


@pytest.mark.parametrize("name", SERVICES)
def test_create_then_get_round_trips(name: str):
    create, arguments, get, key = ROUND_TRIPS[name]
    svc = world(name)
    before = svc.state.copy()
    made = ok(svc, create, **arguments)
    resource = svc.tools[f"{name}__{create}"].spec.resource
    assert diff(before, svc.state)[resource]["created"] == [made]
    assert ok(svc, get, **{key: made["id"]}) == made
    made_id, made["id"] = made["id"], "changed"  # results are copies, not the stored records
    assert ok(svc, get, **{key: made_id})["id"] == made_id


@pytest.mark.parametrize("name", SERVICES)
def test_example_states_are_seeded(name: str):
    assert example_state(name, 3).digest() == example_state(name, 3).digest()
    assert example_state(name, 3).digest() != example_state(name, 4).digest()
    state = example_state(name, 3)
    for collection in builtin_spec(name).resources:
        assert state.records(collection), f"{name}.{collection} is empty"
        for record in state.records(collection).values():
            state.validate(collection, record)


@pytest.mark.parametrize("name", SERVICES)
def test_an_empty_state_works_with_the_default_world(name: str):
    svc = build_builtin(name)
    assert all(t.implementation == "builtin" for t in svc.tools.values())
    create, arguments, get, key = ROUND_TRIPS[name]
    if name == "payments":
        fails(svc, create, 404, **arguments)  # no accounts yet
        return
    made = ok(svc, create, **arguments)
    assert ok(svc, get, **{key: made["id"]}) == made


def test_the_same_people_appear_across_services():
    pool = people(SEED)
    emails = {p.email for p in pool}
    contacts = example_state("crm", SEED).records("contacts").values()
    assert {c["email"] for c in contacts} == emails - {pool[0].email}
    mail = example_state("email", SEED).records("messages").values()
    assert {m["from_email"] for m in mail} <= emails
    texts = example_state("sms", SEED).records("messages").values()
    assert {m["phone"] for m in texts} - {p.phone for p in pool} == {"+18885550199"}
    assert example_state("chat", SEED).records(WORLD)["world"]["user_email"] == pool[0].email


def test_unknown_service_names_are_key_errors():
    with pytest.raises(KeyError, match="known: calendar"):
        builtin_spec("nope")


# --- domain actions ---------------------------------------------------------------------


def test_email_send_reply_forward_move_delete():
    svc = world("email")
    me = svc.state.records(WORLD)["world"]["user_email"]
    sent = ok(svc, "send_email", to="dana@example.com", subject="Hi", body="Hello")
    assert sent["folder"] == "sent" and sent["from_email"] == me
    assert sent["sent_at"] == DEFAULT_WORLD["now"]
    assert sent in ok(svc, "search_emails", folder="sent")
    received = ok(svc, "search_emails", folder="inbox")[0]
    reply = ok(svc, "reply_email", message_id=received["id"], body="Yes")
    assert reply["to"] == [received["from_email"]] and reply["subject"].startswith("Re: ")
    assert reply["thread_id"] == received["thread_id"]
    assert reply in ok(svc, "search_emails", thread_id=received["thread_id"])
    forward = ok(svc, "forward_email", message_id=received["id"], to="eve@example.com")
    assert received["body"] in forward["body"] and forward["subject"].startswith("Fwd: ")
    assert ok(svc, "move_email", message_id=received["id"], folder="trash")["folder"] == "trash"
    fails(svc, "move_email", 400, message_id=received["id"], folder="sent")
    ok(svc, "delete_email", message_id=received["id"])
    assert "search_emails" in fails(svc, "get_email", 404, message_id=received["id"])


def test_calendar_refuses_overlaps_and_bad_times_and_cancels_once():
    svc = world("calendar")
    first, second = ok(svc, "list_events")[:2]
    fails(svc, "move_event", 409, event_id=second["id"], start=first["start"], end=first["end"])
    assert "end must be after" in fails(svc, "create_event", 422, title="X",
                                        start="2025-05-01T10:00:00Z",
                                        end="2025-05-01T09:00:00Z")
    assert first["id"] in fails(svc, "create_event", 409, title="Clash", start=first["start"],
                                end=first["end"])
    cancelled = ok(svc, "cancel_event", event_id=first["id"])
    assert cancelled["status"] == "cancelled"
    assert first["id"] not in [e["id"] for e in ok(svc, "list_events")]
    fails(svc, "cancel_event", 409, event_id=first["id"])
    ok(svc, "move_event", event_id=second["id"], start=first["start"], end=first["end"])
    day = first["start"][:10]
    assert second["id"] in [e["id"] for e in ok(svc, "list_events", date=day)]


def test_crm_duplicates_open_deals_and_closed_stages():
    svc = world("crm")
    contact = ok(svc, "search_contacts")[0]
    fails(svc, "create_contact", 409, first_name="X", last_name="Y",
          email=contact["email"].upper())
    deal = ok(svc, "create_deal", contact_id=contact["id"], title="Pilot", amount=100)
    assert deal["currency"] == "USD" and deal["stage"] == "lead"
    assert "open deals" in fails(svc, "delete_contact", 409, contact_id=contact["id"])
    won = ok(svc, "update_deal_stage", deal_id=deal["id"], stage="won")
    assert won["close_date"] == DEFAULT_WORLD["now"][:10]
    fails(svc, "update_deal_stage", 409, deal_id=deal["id"], stage="lead")
    for other in ok(svc, "list_deals", contact_id=contact["id"]):
        if other["stage"] not in ("won", "lost"):
            ok(svc, "update_deal_stage", deal_id=other["id"], stage="lost")
    ok(svc, "delete_contact", contact_id=contact["id"])
    fails(svc, "create_contact", 400, first_name="X", last_name="Y", email="x@example.com",
          phone="555-1234")


def test_chat_membership_names_and_own_messages():
    svc = world("chat")
    me = svc.state.records(WORLD)["world"]["user_email"]
    outside = next(c for c in ok(svc, "list_channels") if me not in c["members"])
    assert "chat__invite_to_channel" in fails(svc, "post_message", 409,
                                              channel_id=outside["id"], text="hi")
    ok(svc, "invite_to_channel", channel_id=outside["id"], email=me)
    fails(svc, "invite_to_channel", 409, channel_id=outside["id"], email=me)
    posted = ok(svc, "post_message", channel_id=outside["id"], text="hi")
    assert ok(svc, "list_messages", channel_id=outside["id"])[0] == posted
    fails(svc, "create_channel", 409, name=outside["name"])
    fails(svc, "create_channel", 400, name="Not A Valid Name")
    foreign = next(m for m in svc.state.records("messages").values() if m["author_email"] != me)
    fails(svc, "delete_message", 409, message_id=foreign["id"])


def test_files_names_are_unique_per_folder_and_shares_once():
    svc = world("files")
    stored = ok(svc, "upload_file", filename="a.txt", content="héllo", folder="/x")
    assert stored["size_bytes"] == 6 and stored["url"].endswith(stored["id"])
    fails(svc, "upload_file", 409, filename="a.txt", content="again", folder="/x")
    ok(svc, "upload_file", filename="a.txt", content="other folder", folder="/y")
    fails(svc, "upload_file", 400, filename="a/b.txt", content="x")
    ok(svc, "upload_file", filename="b.txt", content="x", folder="/x")
    fails(svc, "rename_file", 409, file_id=stored["id"], filename="b.txt")
    ok(svc, "share_file", file_id=stored["id"], email="dana@example.com")
    fails(svc, "share_file", 409, file_id=stored["id"], email="DANA@example.com")
    fails(svc, "share_file", 422, file_id=stored["id"], email=stored["owner_email"])
    assert [f["id"] for f in ok(svc, "list_files", shared_with_email="dana@example.com")] == [
        stored["id"]]


def test_payments_move_money_only_when_they_can():
    svc = world("payments")
    account = ok(svc, "list_accounts")[0]
    too_much = account["balance"] + 0.01
    message = fails(svc, "transfer_funds", (409, 422), account_id=account["id"],
                    payee_email="dana@example.com", amount=too_much, currency=account["currency"])
    assert "Insufficient funds" in message
    other = "EUR" if account["currency"] == "USD" else "USD"
    fails(svc, "transfer_funds", 422, account_id=account["id"], payee_email="d@example.com",
          amount=1, currency=other)
    fails(svc, "transfer_funds", 400, account_id=account["id"], payee_email="d@example.com",
          amount=1.005, currency=account["currency"])
    fails(svc, "transfer_funds", 400, account_id=account["id"], payee_email="d@example.com",
          amount=0, currency=account["currency"])
    paid = ok(svc, "transfer_funds", account_id=account["id"], payee_email="dana@example.com",
              amount=account["balance"])
    assert paid["currency"] == account["currency"]
    assert ok(svc, "get_account", account_id=account["id"])["balance"] == 0
    assert ok(svc, "refund_transfer", transfer_id=paid["id"])["status"] == "refunded"
    assert ok(svc, "get_account", account_id=account["id"]) == account
    fails(svc, "refund_transfer", 409, transfer_id=paid["id"])


def test_issues_close_changes_status_and_closed_issues_stay_closed():
    svc = world("issues")
    issue = ok(svc, "create_issue", title="Broken link", labels=["bug", "bug"])
    assert issue["labels"] == ["bug"] and issue["status"] == "open"
    closed = ok(svc, "close_issue", issue_id=issue["id"], resolution="duplicate")
    assert closed["status"] == "closed" and closed["resolution"] == "duplicate"
    assert closed["closed_at"] == DEFAULT_WORLD["now"]
    assert closed in ok(svc, "search_issues", status="closed")
    fails(svc, "close_issue", 409, issue_id=issue["id"])
    fails(svc, "assign_issue", 409, issue_id=issue["id"], assignee_email="d@example.com")
    fails(svc, "update_issue", 409, issue_id=issue["id"], title="New title")
    reopened = ok(svc, "update_issue", issue_id=issue["id"], status="open")
    assert reopened["closed_at"] is None and reopened["resolution"] is None
    fails(svc, "update_issue", 400, issue_id=issue["id"], status="closed")


def test_sheets_columns_rows_and_lookups():
    svc = world("sheets")
    sheet = ok(svc, "create_spreadsheet", title="Guests", columns=["name", "email"])
    fails(svc, "create_spreadsheet", 409, title="guests", columns=["x"])
    fails(svc, "create_spreadsheet", 422, title="Other", columns=["a", "a"])
    assert "its columns are name, email" in fails(
        svc, "append_row", 422, spreadsheet_id=sheet["id"], values={"phone": "1"})
    row = ok(svc, "append_row", spreadsheet_id=sheet["id"], values={"name": "Ada"})
    assert row == {"row": 1, "values": {"name": "Ada", "email": ""}}
    assert "sheets__append_row" in fails(svc, "update_cell", 404, spreadsheet_id=sheet["id"],
                                         row=2, column="name", value="X")
    ok(svc, "update_cell", spreadsheet_id=sheet["id"], row=1, column="email",
       value="ada@example.com")
    assert ok(svc, "find_rows", spreadsheet_id=sheet["id"], column="name", value="ADA") == [
        {"row": 1, "values": {"name": "Ada", "email": "ada@example.com"}}]


def test_maps_nearby_is_sorted_within_radius_and_saves_once():
    svc = world("maps")
    place = ok(svc, "search_places")[0]
    nearby = ok(svc, "find_nearby_places", place_id=place["id"], radius_km=10.0)
    assert nearby and place["id"] not in [p["id"] for p in nearby]
    distances = [p["distance_km"] for p in nearby]
    assert distances == sorted(distances) and max(distances) <= 10.0
    assert all(p["city"] == place["city"] for p in nearby)
    assert ok(svc, "find_nearby_places", place_id=place["id"], radius_km=0.001) == []
    saved = ok(svc, "list_saved_places")[0]
    fails(svc, "save_place", 409, place_id=saved["place_id"])
    fails(svc, "add_place", 400, name="X", category="zoo", address="1 St", city="C",
          country="PT", latitude=0, longitude=0)
    fails(svc, "add_place", 400, name="X", category="park", address="1 St", city="C",
          country="PT", latitude=91, longitude=0)


def test_sms_blocked_numbers_and_own_number():
    svc = world("sms")
    me = svc.state.records(WORLD)["world"]["user_phone"]
    blocked = ok(svc, "list_blocked_numbers")[0]["phone"]
    assert "sms__unblock_number" in fails(svc, "send_sms", 409, phone=blocked, body="hi")
    fails(svc, "send_sms", 422, phone=me, body="hi")
    fails(svc, "send_sms", 400, phone="555-1234", body="hi")
    fails(svc, "block_number", 409, phone=blocked)
    ok(svc, "unblock_number", phone=blocked)
    fails(svc, "unblock_number", 404, phone=blocked)
    sent = ok(svc, "send_sms", phone=blocked, body="hi")
    assert sent["direction"] == "outbound"
    assert ok(svc, "list_sms", phone=blocked)[0] == sent


def test_results_are_json_copies():
    svc = world("crm")
    contact = ok(svc, "search_contacts")[0]
    digest = svc.state.digest()
    contact["email"] = "mutated@example.com"
    assert svc.state.digest() == digest
    assert json.loads(json.dumps(contact))  # plain JSON values only

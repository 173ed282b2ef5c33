"""A drawn record agrees with itself: an all-day event has no clock times, a closing
stamp goes with its status (and after the record's creation), extra emails are the same
person's, and a company's people and addresses are its own."""

from __future__ import annotations

import random
from datetime import datetime

from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.words import company_domain

S = {"type": "string"}
DT = {"type": "string", "format": "date-time"}
POOL = draw_pool(0)


def _draws(schema: dict, resource: str, count: int = 40, **kw) -> list[dict]:
    return [value_from_schema(schema, random.Random(seed), pool=POOL, resource=resource,
                              service="svc", **kw) for seed in range(count)]


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_all_day_events_run_midnight_to_midnight():
    event = {"type": "object", "required": ["all_day", "start_time", "end_time"],
             "properties": {"all_day": {"type": "boolean"}, "start_time": DT, "end_time": DT,
                            "title": S}}
    flags = set()
    for value in _draws(event, "calendar_events"):
        flags.add(value["all_day"])
        start, end = _at(value["start_time"]), _at(value["end_time"])
        if value["all_day"]:
            assert (start.hour, start.minute, end.hour, end.minute) == (0, 0, 0, 0), value
            assert (end - start).days == 1
        else:
            assert start < end
    assert flags == {True, False}


def test_the_callers_clock_times_make_a_timed_event():
    event = {"type": "object", "required": ["isAllDay", "start", "end"],
             "properties": {"isAllDay": {"type": "boolean"}, "start": DT, "end": DT}}
    given = {"start": "2025-03-04T15:30:00Z", "end": "2025-03-04T16:30:00Z"}
    for value in _draws(event, "events", overrides=given):
        assert value["start"] == given["start"] and value["end"] == given["end"]
        assert value["isAllDay"] is False


def test_a_closing_stamp_goes_with_its_status():
    ticket = {"type": "object", "required": ["status", "createdAt", "updatedAt"],
              "properties": {"status": {"type": "string",
                                        "enum": ["open", "in_progress", "pending", "closed"]},
                             "createdAt": DT, "updatedAt": DT, "closedAt": DT}}
    statuses = set()
    for value in _draws(ticket, "tickets", 80):
        statuses.add(value["status"])
        assert ("closedAt" in value) == (value["status"] == "closed"), value
        if "closedAt" in value:
            assert _at(value["createdAt"]) <= _at(value["closedAt"])
    assert {"open", "closed"} <= statuses


def test_a_required_cancel_stamp_makes_the_record_cancelled_and_comes_after_creation():
    subscription = {"type": "object", "required": ["status", "created_at", "canceled_at"],
                    "properties": {"status": {"type": "string",
                                              "enum": ["active", "completed", "canceled"]},
                                   "created_at": DT, "canceled_at": DT}}
    for value in _draws(subscription, "subscriptions"):
        assert value["status"] == "canceled"
        assert _at(value["created_at"]) <= _at(value["canceled_at"])


def test_extra_emails_are_the_same_persons_own_and_never_repeat():
    customer = {"type": "object", "required": ["email", "name", "additionalEmails"],
                "properties": {"email": S, "name": S,
                               "additionalEmails": {"type": "array", "items": S},
                               "cc_emails": {"type": "array", "items": S}}}
    for value in _draws(customer, "customers"):
        person = next(p for p in POOL.people if p.email == value["email"])
        extra = value["additionalEmails"]
        assert extra and len(set(extra)) == len(extra) and value["email"] not in extra
        assert set(extra) <= set(person.other_emails)
        assert value["name"] == person.name
        assert person.email not in value.get("cc_emails", [])  # others copied in


def test_a_companys_people_and_emails_are_its_own():
    company = {"type": "object", "required": ["CompanyName", "emails", "Contacts"],
               "properties": {
                   "CompanyName": S, "emails": {"type": "array", "items": S},
                   "Contacts": {"type": "array", "minItems": 2, "items": {
                       "type": "object", "required": ["Email", "Firstname"],
                       "properties": {"Email": S, "Firstname": S, "Lastname": S}}}}}
    for value in _draws(company, "companies"):
        domain = company_domain(value["CompanyName"])
        emails = [c["Email"] for c in value["Contacts"]]
        assert all(e.endswith("@" + domain) for e in emails + value["emails"]), value
        assert len(set(emails)) == len(emails)  # each contact another of its people


def test_a_deletion_flag_and_its_stamp_agree_and_the_stamp_follows_creation():
    customer = {"type": "object", "required": ["isDeleted", "created", "deletedTime"],
                "properties": {"isDeleted": {"type": "boolean"}, "created": DT,
                               "deletedTime": DT, "name": S}}
    optional = {**customer, "required": ["isDeleted", "created"]}
    for value in _draws(customer, "customers"):  # a required stamp stays, in order
        assert _at(value["created"]) <= _at(value["deletedTime"])
    for value in _draws(optional, "customers"):  # a live customer has no deletion time
        assert ("deletedTime" in value) <= value["isDeleted"], value


def test_an_all_day_event_with_only_an_end_ends_at_midnight():
    event = {"type": "object", "required": ["allDay", "endTime"],
             "properties": {"allDay": {"type": "boolean", "enum": [True]}, "endTime": DT}}
    for value in _draws(event, "events", 10):
        assert _at(value["endTime"]).hour == 0 and _at(value["endTime"]).minute == 0


def test_entries_of_a_customers_own_email_list_are_theirs():
    customer = {"type": "object", "required": ["name", "emails"], "properties": {
        "name": S, "emails": {"type": "array", "items": {"type": "object", "properties": {
            "email": S, "type": {"type": "string", "enum": ["work", "personal"]}}}},
        "phone_numbers": {"type": "array", "items": {"type": "object", "properties": {
            "number": S}}}}}
    for value in _draws(customer, "customers"):
        person = next(p for p in POOL.people if p.name == value["name"])
        emails = [entry["email"] for entry in value["emails"]]
        assert set(emails) <= {person.email, *person.other_emails}
        assert len(set(emails)) == len(emails)
        numbers = [entry["number"] for entry in value.get("phone_numbers", [])]
        assert set(numbers) <= {person.phone, person.company.phone}


def test_a_way_to_reach_someone_is_no_custom_field() -> None:
    """Billbee's `DefaultPhone1` is `{TypeName, Value}`: a custom field's shape, which read
    `{"TypeName": "Colour", "Value": "Bronze"}` as a customer's phone. It
    is labelled by its kind and holds no made-up value; a real custom field keeps its
    label and value."""
    from compoworld.world.kindmakers import CUSTOM_FIELDS
    from compoworld.world.schemavalues import _channel

    pair = {"type": "object", "properties": {"TypeName": {"type": "string"},
                                             "Value": {"type": "string"}}}
    labels = {label for label, _ in CUSTOM_FIELDS}
    for seed in range(8):
        phone = value_from_schema(pair, random.Random(seed), service="shop",
                                  resource="DefaultPhone1")
        assert phone.get("TypeName", "Mobile") in ("Mobile", "Work", "Home"), phone
        assert "Value" not in phone, phone
        field = value_from_schema(pair, random.Random(seed), service="shop",
                                  resource="CustomFields")
        assert field.get("TypeName", "Size") in labels, field
    assert _channel("DefaultMailAddress") == "email" and _channel("Tags") is None


def test_a_way_to_reach_someone_is_labelled_by_its_kind_without_a_value_too() -> None:
    """Billbee's `DefaultPhone1` also comes as `{Id, TypeId, TypeName}` (no `Value`):
    no `"TypeName": "Annual 1"` on a phone, "Regional Fax" on a fax or "Q3 Address" on a
    mail address."""
    from compoworld.world.schemavalues import _channel

    typed = {"type": "object", "required": ["TypeName"],
             "properties": {"Id": {"type": "integer"}, "TypeId": {"type": "integer"},
                            "TypeName": {"type": "string"}}}
    expected = {"DefaultPhone1": {"Mobile", "Work", "Home"}, "DefaultFax": {"Fax", "Work fax"},
                "DefaultStatusUpdatesMailAddress": {"Email", "Work email"}}
    for resource, labels in expected.items():
        for seed in range(6):
            value = value_from_schema(typed, random.Random(seed), service="shop",
                                      resource=resource)
            assert value["TypeName"] in labels, (resource, value)
    assert _channel("DefaultFax") == "fax"
    plain = value_from_schema(typed, random.Random(1), service="shop", resource="Tags")
    assert plain["TypeName"] not in {"Mobile", "Work", "Home", "Fax", "Email"}


def test_a_person_s_own_addresses_are_theirs() -> None:
    """No lead "Umar Sato" with an address whose "contact_name" is "Maya Johnson", no
    ecwid customer shipping to another person."""
    from compoworld.world.seeding import draw_pool

    address = {"type": "object", "properties": {
        "contact_name": {"type": "string"}, "email": {"type": "string", "format": "email"},
        "city": {"type": "string"}}}
    lead = {"type": "object", "required": ["name", "email", "addresses"], "properties": {
        "name": {"type": "string"}, "email": {"type": "string", "format": "email"},
        "addresses": {"type": "array", "minItems": 2, "items": {**address, "required": [
            "contact_name", "email", "city"]}}}}
    pool = draw_pool(3)
    for seed in range(8):
        record = value_from_schema(lead, random.Random(seed), service="crm", resource="leads",
                                   pool=pool)
        for own in record["addresses"]:
            assert own["contact_name"] == record["name"], record
            assert own["email"] == record["email"], record


def test_a_bank_name_is_the_bank_of_its_bic() -> None:
    """No "bank_name": "Santander" beside "bic": "UBSWCHPP", no "Barclays" beside
    "KOEXKRMMXXX"."""
    from compoworld.world.banking import BANK_NAMES

    schema = {"type": "object", "required": ["bank_name", "bic"],
              "properties": {"bank_name": {"type": "string"}, "bic": {"type": "string"},
                             "country": {"type": "string", "minLength": 2, "maxLength": 2}}}
    for seed in range(10):
        record = value_from_schema(schema, random.Random(seed), service="books",
                                   resource="bank_accounts")
        assert record["bank_name"] == BANK_NAMES[record["bic"][:4]], record
        if "country" in record:
            assert record["bic"][4:6] == record["country"], record
    account = {"type": "object", "required": ["bic", "iban"],  # (no "BARCGB22"
               "properties": {"bic": {"type": "string"}, "iban": {"type": "string"}}}  # by an
    for seed in range(10):  # IE IBAN): no country but the account's
        record = value_from_schema(account, random.Random(seed), service="books",
                                   resource="bank_accounts")
        assert record["bic"][4:6] == record["iban"][:2], record


def test_a_phone_s_country_is_its_number_s() -> None:
    """No Apideck `phone_numbers[]` of "number": "+2348032947631" with
    "country_code": "CH"."""
    from compoworld.world.words import phone_country

    phone = {"type": "object", "required": ["number", "country_code"], "properties": {
        "number": {"type": "string", "format": "phone"},
        "country_code": {"type": "string", "minLength": 2, "maxLength": 2}}}
    seen = set()
    for seed in range(10):
        value = value_from_schema(phone, random.Random(seed), service="crm",
                                  resource="phone_numbers")
        assert value["number"].startswith("+"), value
        assert value["country_code"] == phone_country(value["number"]), value
        seen.add(value["country_code"])
    assert len(seen) > 1


def test_a_record_s_own_phone_list_holds_its_numbers_country() -> None:
    """No Apideck lead's `phone_numbers` of {"number": "+2348032947631",
    "country_code": "CH", "area_code": "NUM-2609"}: the person's own phones, each object
    with its number's country and area code."""
    from compoworld.world.seeding import draw_pool
    from compoworld.world.words import phone_country

    phone = {"type": "object", "required": ["number", "country_code", "area_code"],
             "properties": {"number": {"type": "string"},
                            "country_code": {"type": "string"},
                            "area_code": {"type": "string"}}}
    lead = {"type": "object", "required": ["name", "phone_numbers"], "properties": {
        "name": {"type": "string"}, "phone_numbers": {"type": "array", "items": phone}}}
    pool = draw_pool(5)
    for seed in range(8):
        record = value_from_schema(lead, random.Random(seed), service="crm", resource="leads",
                                   pool=pool)
        for own in record["phone_numbers"]:
            assert own["country_code"] == phone_country(own["number"]), record
            assert own["area_code"].isdigit(), record


def test_a_project_lasts_longer_than_a_meeting_and_a_meeting_does_not():
    """A span of 30 minutes to 2 hours is a meeting's: an Avaza project ran from 12:14 to
    13:14 on one day, a phase of it the same, read as a world that makes no sense."""
    schema = {"type": "object", "required": ["StartDate", "EndDate"],
              "properties": {"StartDate": DT, "EndDate": DT, "Title": S}}
    lengths = [(_at(v["EndDate"]) - _at(v["StartDate"])).total_seconds() / 3600
               for v in _draws(schema, "projects")]
    assert all(h >= 0 for h in lengths) and sum(h > 48 for h in lengths) > len(lengths) // 2
    meetings = [(_at(v["EndDate"]) - _at(v["StartDate"])).total_seconds() / 3600
                for v in _draws(schema, "meetings")]
    assert all(0.5 <= h <= 2 for h in meetings)


def test_one_moment_said_in_utc_and_local_time_is_the_same():
    """Avaza's sections say their start twice, `StartDate` and `StartDateUTC`: drawn apart,
    one phase started in June and, in UTC, in February."""
    schema = {"type": "object",
              "required": ["StartDate", "StartDateUTC", "EndDate", "EndDateUTC",
                           "StartTimeLocal", "StartTimeUTC"],
              "properties": {"StartDate": DT, "StartDateUTC": DT, "EndDate": DT,
                             "EndDateUTC": DT, "StartTimeLocal": DT, "StartTimeUTC": DT}}
    for value in _draws(schema, "sections"):
        assert value["StartDateUTC"] == value["StartDate"], value
        assert value["EndDateUTC"] == value["EndDate"] >= value["StartDate"], value
        assert value["StartTimeUTC"] == value["StartTimeLocal"], value
    given = {"StartDateUTC": "2025-03-04T15:30:00Z"}  # (what a caller said is kept)
    for value in _draws(schema, "sections", 5, overrides=given):
        assert value["StartDateUTC"] == value["StartDate"] == given["StartDateUTC"]


def test_a_record_is_issued_before_it_is_due_and_started_before_it_is_due_or_done():
    """Avaza names its stamps date first (`DateIssued`, `DateStart`) beside `DueDate` and
    `DateCompleted`: a bill due months before it was issued, a task started after its due
    day and after it was done."""
    bill = {"type": "object", "required": ["DateCreated", "DateIssued", "DueDate"],
            "properties": {"DateCreated": DT, "DateIssued": DT, "DueDate": DT}}
    for value in _draws(bill, "bills"):
        assert value["DateCreated"] <= value["DateIssued"] <= value["DueDate"], value
    task = {"type": "object", "required": ["DateStart", "DateDue", "DateCompleted"],
            "properties": {"DateStart": DT, "DateDue": DT, "DateCompleted": DT}}
    for value in _draws(task, "tasks"):
        assert value["DateStart"] <= value["DateDue"], value
        assert value["DateStart"] <= value["DateCompleted"], value


def test_a_project_is_named_as_a_piece_of_work_and_its_section_as_where_to_dos_go():
    """An Avaza project holds a title and a budget: read as a product, it was "Fountain
    Pen", and its sections "Draft invoice summary", so a request that said where a
    follow-up task is kept read as made up. A project is "CRM migration", a section
    "Client follow-ups"; a product with a title and a price is still a product."""
    from compoworld.world.words import PRODUCTS
    products = {name for name, _ in PRODUCTS}
    money = {"type": "number", "format": "double"}
    project = {"type": "object", "required": ["Title", "BudgetAmount", "ProjectHourlyRate"],
               "properties": {"Title": S, "BudgetAmount": money, "ProjectHourlyRate": money,
                              "CompanyName": S}}
    # (each record of a world is drawn with a product of the cast to hand, as seeding does)
    titles = {v["Title"] for v in _draws(project, "projects",
                                         anchor={"product": POOL.products[0]})}
    assert titles and not titles & products
    assert any(t.endswith(("migration", "launch", "redesign", "rollout")) for t in titles)
    sections = {v["Title"] for v in _draws({"type": "object", "required": ["Title"],
                                            "properties": {"Title": S}}, "sections")}
    assert sections and all(t.split()[-1] in ("follow-ups", "to-dos", "requests", "backlog",
                                              "items", "actions") for t in sections)
    item = {"type": "object", "required": ["title", "price"],
            "properties": {"title": S, "price": {"type": "number"}}}
    assert {v["title"] for v in _draws(item, "products",
                                       anchor={"product": POOL.products[0]})} <= products


def test_a_meeting_s_own_date_is_the_day_it_starts():
    """Zoom's meetings hold a `date` beside their `startTime`: drawn apart, a meeting was
    dated February 17 and started February 13, and a request asked for "its date"."""
    meeting = {"type": "object", "required": ["date", "startTime", "endTime", "topic"],
               "properties": {"date": DT, "startTime": DT, "endTime": DT, "topic": S,
                              "created_at": DT}}
    for value in _draws(meeting, "meetings"):
        assert value["date"] == value["startTime"], value
        assert value.get("created_at", "") != value["startTime"]  # (no other stamp moves)
    day = {"type": "object", "required": ["meeting_date", "start_time"],
           "properties": {"meeting_date": {"type": "string", "format": "date"},
                          "start_time": DT}}
    for value in _draws(day, "appointments"):
        assert value["meeting_date"] == value["start_time"][:10], value
    report = {"type": "object", "required": ["date", "startTime"],  # (no meeting's)
              "properties": {"date": DT, "startTime": DT}}
    assert any(v["date"] != v["startTime"] for v in _draws(report, "reports"))


def test_a_meeting_lasts_as_long_as_its_duration_says():
    """GoToMeeting's meetings hold a `duration` beside their start and end: drawn apart,
    one ran 09:15 to 10:45 with `"duration": 1`, and a reviewer could not tell which to
    believe. The duration is the span, in the unit its name says (minutes where none)."""
    from datetime import datetime

    def span(value: dict, start: str, end: str) -> float:
        times = [datetime.fromisoformat(value[k].replace("Z", "+00:00")) for k in (start, end)]
        return (times[1] - times[0]).total_seconds()

    meeting = {"type": "object", "required": ["startTime", "endTime", "duration", "subject"],
               "properties": {"startTime": DT, "endTime": DT, "subject": S,
                              "duration": {"type": "integer"},
                              "durationInSeconds": {"type": "integer"}}}
    for value in _draws(meeting, "meetings"):
        assert value["duration"] * 60 == span(value, "startTime", "endTime"), value
        if "durationInSeconds" in value:
            assert value["durationInSeconds"] == span(value, "startTime", "endTime"), value
    report = {"type": "object", "required": ["startTime", "endTime", "duration"],
              "properties": {"startTime": DT, "endTime": DT,  # (no meeting's: its own)
                             "duration": {"type": "integer"}}}
    assert any(v["duration"] * 60 != span(v, "startTime", "endTime")
               for v in _draws(report, "reports"))

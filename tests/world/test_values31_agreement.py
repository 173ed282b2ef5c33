"""What a record's free text, phones, dates and tax ids say agrees with the record itself:
a ticket's description tells of its subject, a fee's names the fee, a meeting is on a
weekday in office hours. The schemas are excerpts of real ones (Salesloft, Ecwid, Square,
OnSched, Big Red Cloud)."""

from __future__ import annotations

import random

from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.words import SENTENCES
from tests.world.test_values30_agreement import _STR, _draws, _object

_TEXT = {"type": "string", "description": "A description."}


def test_a_ticket_s_description_tells_of_its_subject():
    schema = _object({"subject": _STR, "description": _TEXT, "status": _STR})
    for ticket in _draws(schema, "tickets"):
        subject = ticket["subject"]
        assert subject.lower() in ticket["description"].lower(), ticket


def test_an_event_s_description_and_body_fit_its_title():
    schema = _object({"title": _STR, "description": _TEXT, "body_html": _STR})
    for event in _draws(schema, "calendar_events", service="salesloft_com"):
        title = event["title"][:1].lower() + event["title"][1:]
        assert title in event["description"].lower(), event
        assert event["body_html"].startswith("<p>") and title in event["body_html"].lower()


def test_a_fee_s_description_names_the_fee():
    fee = _object({"value": {"type": "number"}, "description": _TEXT})
    order = _object({"id": {"type": "integer"}, "handlingFee": fee})
    for drawn in _draws(order, "orders"):
        text = drawn["handlingFee"]["description"]
        assert text not in SENTENCES and "Handling fee" in text, drawn


def test_a_message_without_a_subject_keeps_its_sentence():
    schema = _object({"from": _STR, "body": _TEXT})
    bodies = [m["body"] for m in _draws(schema, "messages")]
    assert any(sentence in body for body in bodies for sentence in SENTENCES)


def test_one_owner_s_phone_fields_are_each_another_line():
    schema = _object({"name": _STR, "email": _STR, "homePhone": _STR, "mobilePhone": _STR,
                      "businessPhone": _STR, "Fax": _STR})
    for person in _draws(schema, "customers", service="onsched_com_setup"):
        phones = [person[k] for k in ("homePhone", "mobilePhone", "businessPhone", "Fax")]
        assert len(set(phones)) == 4, person


def test_an_extension_stands_beside_its_phone():
    schema = _object({"name": _STR, "email": _STR, "businessPhone": _STR,
                      "businessPhoneExt": _STR}, required=["name"])
    for person in _draws(schema, "customers", count=60):
        if "businessPhoneExt" in person:
            assert "businessPhone" in person and person["businessPhoneExt"].isdigit(), person


def test_a_phone_number_s_extension_is_digits():
    phone = _object({"number": _STR, "extension": _STR, "type": _STR})
    schema = _object({"name": _STR, "phone_numbers": {"type": "array", "items": phone}})
    for contact in _draws(schema, "contacts"):
        for number in contact["phone_numbers"]:
            assert number["extension"].isdigit(), contact


def test_months_and_days_of_a_month_are_in_range():
    card = _object({"card_brand": _STR, "exp_month": {"type": "integer", "format": "int64"},
                    "exp_year": {"type": "integer", "format": "int64"}})
    for drawn in _draws(card, "cards", service="squareup_com"):
        assert 1 <= drawn["exp_month"] <= 12 and 2026 <= drawn["exp_year"] <= 2031, drawn
    year = _object({"firstMonth": {"type": "integer"}, "startMonth": {"type": "integer"},
                    "day": {"type": "integer"}, "bookingsPerDay": {"type": "integer"}})
    for drawn in _draws(year, "financial_years"):
        assert 1 <= drawn["firstMonth"] <= 12 and 1 <= drawn["startMonth"] <= 12, drawn
        assert 1 <= drawn["day"] <= 31, drawn


_EVENT = _object({"title": _STR, "all_day": {"type": "boolean"},
                  "start_time": {"type": "string", "format": "date-time"},
                  "end_time": {"type": "string", "format": "date-time"}},
                 required=["title", "all_day", "end_time"])


def test_a_meeting_is_timed_on_a_weekday_in_office_hours():
    from datetime import datetime
    for event in _draws(_EVENT, "calendar_events", count=60, service="salesloft_com"):
        assert event["all_day"] is False and "start_time" in event, event
        start = datetime.fromisoformat(event["start_time"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(event["end_time"].replace("Z", "+00:00"))
        assert start.weekday() < 5 and 8 <= start.hour and end.hour * 60 + end.minute <= 18 * 60
        assert 30 <= (end - start).total_seconds() / 60 <= 120, event


def test_a_day_long_event_may_stay_all_day():
    overrides = {"title": "Annual team offsite", "all_day": True}
    event = value_from_schema(_EVENT, random.Random(1), resource="calendar_events",
                              pool=draw_pool(1), overrides=overrides)
    assert event["all_day"] is True and event["end_time"].endswith("T00:00:00Z"), event


def test_a_location_s_vat_number_is_its_country_s():
    address = _object({"locality": _STR, "postal_code": _STR, "country": _STR})
    tax_ids = _object({"eu_vat": _STR, "fr_siret": _STR})
    schema = _object({"name": _STR, "address": address, "tax_ids": tax_ids})
    seen = 0
    for location in _draws(schema, "locations", count=60, service="squareup_com"):
        vat = location["tax_ids"].get("eu_vat")
        country = location["address"]["country"]
        if vat is not None:
            seen += 1
            assert vat.startswith(country), location
        else:
            assert country in ("US", "CA", "JP", "KR", "SG", "AU", "IN", "BR", "MX", "NG",
                               "KE"), location
    assert seen


def test_a_time_in_an_rfc_2822_format_is_ordered_like_any_time():
    """Twilio's `date_created`/`date_updated` (`format: date-time-rfc-2822`) were plain
    strings to the ordering rules, so accounts read as created after their last update."""
    from compoworld.world.coherence import range_pairs
    from compoworld.world.namekinds import value_type

    props = {key: {"type": "string", "format": "date-time-rfc-2822"}
             for key in ("date_created", "date_updated")}
    types = {key: value_type(key, sub, "string") for key, sub in props.items()}
    assert types == {"date_created": "datetime", "date_updated": "datetime"}
    assert range_pairs(props, types) == [("date_created", "date_updated")]


def test_a_customer_registers_before_their_record_is_updated():
    """Not an ecwid customer "registered":"2024-11-29" but "updated":"2024-10-10"."""
    from compoworld.world.coherence import range_pairs

    props = {key: {"type": "string", "format": "date-time"} for key in ("registered", "updated")}
    assert range_pairs(props, {"registered": "datetime", "updated": "datetime"}) == [
        ("registered", "updated")]
    schema = {"type": "object", "required": ["registered", "updated"], "properties": props}
    for seed in range(10):
        record = value_from_schema(schema, random.Random(seed), service="shop",
                                   resource="customers")
        assert record["registered"] <= record["updated"], record


def test_a_time_with_a_pattern_is_a_time_written_as_the_pattern_wants():
    """Apideck's `created_at` (a string with the pattern `^\\d{4}-...:\\d{2}.\\d{3}Z$`) was
    drawn from the pattern: "5675-99-19T48:45:99g239Z"."""
    from compoworld.world.values import conform

    pattern = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}.\d{3}Z$"
    schema = {"type": "string", "pattern": pattern}
    assert conform("2024-09-16T18:17:00Z", "datetime", schema, random.Random(1)) == \
        "2024-09-16T18:17:00.000Z"
    record = {"type": "object", "required": ["created_at"], "properties": {"created_at": {
        "type": "string", "description": "Date created in ISO 8601 format", "pattern": pattern}}}
    for seed in range(5):
        value = value_from_schema(record, random.Random(seed), service="crm",
                                  resource="leads")
        assert value["created_at"][:4] in ("2023", "2024", "2025"), value


def test_a_stamp_described_by_a_date_is_a_time_and_ordered_like_one():
    """ecwid's `registered` and `updated` are plain strings described "Ex: 2015-02-03
    15:30:08": as plain strings, a customer read as registered after their last update."""
    from compoworld.world.namekinds import value_type

    said = {"type": "string", "description": "Ex: 2015-02-03 15:30:08"}
    assert value_type("registered", said, "string") == "datetime"
    assert value_type("last_name", {"type": "string", "description": "Ex: Smith"},
                      "string") == "string"
    schema = {"type": "object", "required": ["registered", "updated"],
              "properties": {"registered": said, "updated": said}}
    for seed in range(10):
        record = value_from_schema(schema, random.Random(seed), service="shop",
                                   resource="customers")
        assert record["registered"] <= record["updated"], record


def test_an_invoice_is_issued_in_the_past_and_paid_after_it_is_issued():
    """Not a Billbee invoice of "InvoiceDate":"2025-07-22" (the world's today is
    2025-03-03) paid on "PayDate":"2024-08-05"."""
    from compoworld.world.clock import NOW_TEXT

    stamp = {"type": "string", "format": "date-time"}
    schema = {"type": "object", "required": ["InvoiceDate", "PayDate"],
              "properties": {"InvoiceDate": stamp, "PayDate": stamp}}
    for seed in range(12):
        record = value_from_schema(schema, random.Random(seed), service="shop",
                                   resource="invoices")
        assert record["InvoiceDate"] <= record["PayDate"] <= NOW_TEXT, record


def test_work_starts_before_it_is_done_and_before_its_target():
    """A blind review read a Linear release "startedAt" 2025-04-05 but "completedAt"
    2024-11-21, and a "targetDate" months before its "startDate"."""
    from compoworld.world.coherence import range_pairs

    keys = ("startedAt", "completedAt", "canceledAt", "startDate", "targetDate")
    props = {key: {"type": "string", "format": "date-time"} for key in keys}
    types = dict.fromkeys(keys, "datetime")
    pairs = range_pairs(props, types)
    assert {("startedAt", "completedAt"), ("startedAt", "canceledAt"),
            ("startDate", "targetDate")} <= set(pairs)
    schema = {"type": "object", "required": list(keys), "properties": props}
    for seed in range(10):
        record = value_from_schema(schema, random.Random(seed), service="tracker",
                                   resource="releases")
        assert record["startedAt"] <= record["completedAt"], record
        assert record["startDate"] <= record["targetDate"], record

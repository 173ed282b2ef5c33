"""Fields whose names no shared type covers get values that fit them, not `<field>-<n>`
slugs: who did something is a person of the cast, times sit sensibly around the world's
now, extensions are digits, second address lines are suites, and so on. The schemas are
excerpts of real ones (OnSched, SalesLoft, Big Red Cloud, Billbee, Velo, Voodoo)."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta

import pytest

from compoworld.world.clock import NOW
from compoworld.world.namekinds import described_values
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.words import CITIES, COMPANY_INDUSTRIES

SLUG = re.compile(r"^[a-z]+(?:-[a-z]+)*-\d{2,4}$")
_NOW = NOW.replace(tzinfo=None)


def _strings(schema_props: list[str], description: dict[str, str] | None = None) -> dict:
    description = description or {}
    return {"type": "object", "required": schema_props, "properties": {
        key: {"type": "string", **({"description": description[key]} if key in description
                                   else {})} for key in schema_props}}


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.removesuffix("Z"))


ONSCHED_CUSTOMER = _strings(
    ["email", "firstname", "lastname", "birthdate", "createdBy", "modifiedBy", "registeredBy",
     "verifiedBy", "welcomeEmailSent", "inviteEmailSent", "addressLine2", "businessPhoneExt",
     "conferenceInfo", "gender", "object"])
ONSCHED_APPOINTMENT = _strings(
    ["email", "firstname", "startDateTime", "endDateTime", "dateInternational", "bookedBy",
     "lastModifiedBy", "emailReminderSent", "smsConfirmationSent", "phoneExt", "timezoneIana",
     "location", "object"])
SALESLOFT_PERSON = _strings(
    ["email_address", "first_name", "job_seniority", "phone_extension",
     "person_company_industry"],
    {"job_seniority": "The Job Seniority of a Person, must be one of director, executive, "
                      "individual_contributor, manager, vice_president, unknown",
     "phone_extension": "Phone extension without formatting",
     "person_company_industry": "Company industry. This property is specific to this person"})
SALESLOFT_MEETING = {"type": "object", "required": ["start_time", "end_time", "guests",
                                                    "i_cal_uid", "event_source", "location"],
                     "properties": {
    "start_time": {"type": "string", "format": "date-time"},
    "end_time": {"type": "string", "format": "date-time"},
    "guests": {"type": "array", "items": {"type": "string"},
               "description": "The list of attendees emails of the meeting"},
    "i_cal_uid": {"type": "string"},
    "event_source": {"type": "string", "description":
                     "Source of the meeting. Possible values are: 'external' - The event was "
                     "synced via Calendar Sync, 'internal' - The event was created in Salesloft"},
    "location": {"type": "string"}}}
BIGREDCLOUD_CUSTOMER = {"type": "object", "required": [
    "name", "email", "contact", "vatReg", "branch", "delivery"], "properties": {
    "name": {"type": "string"}, "email": {"type": "string"}, "contact": {"type": "string"},
    "vatReg": {"type": "string"}, "branch": {"type": "string"},
    "delivery": {"type": "array", "items": {"type": "string"}}}}
BILLBEE_ADDRESS = _strings(["FirstName", "LastName", "Email", "Tel1", "Tel2", "Street",
                            "Housenumber", "AddressAddition", "CountryISO2", "Comments"])
VOODOO_ORDER = _strings(["name", "email", "street1", "street2", "city", "ship_by",
                         "color_sample", "body_html", "swift", "taxcode", "globalReferer",
                         "external_id", "paymentModule", "contact_restrictions", "source"],
                        {"color_sample": "A hex value providing a sample of this color."})
SCHEMAS = {"onsched_customers": (ONSCHED_CUSTOMER, "customers"),
           "onsched_appointments": (ONSCHED_APPOINTMENT, "appointments"),
           "salesloft_people": (SALESLOFT_PERSON, "people"),
           "salesloft_meetings": (SALESLOFT_MEETING, "meetings"),
           "bigredcloud_customers": (BIGREDCLOUD_CUSTOMER, "customers"),
           "billbee_addresses": (BILLBEE_ADDRESS, "customer_addresses"),
           "voodoo_orders": (VOODOO_ORDER, "order")}


def _draw(name: str, seed: int, pool=None) -> dict:
    schema, resource = SCHEMAS[name]
    return value_from_schema(schema, random.Random(seed), resource=resource, pool=pool)


def _leaves(value):
    if isinstance(value, dict):
        for key, item in value.items():
            for found in _leaves(item):
                yield found if found[0] is not None else (key, found[1])
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield None, value


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_no_field_of_these_real_schemas_is_a_slug(name: str):
    pool = draw_pool(5)
    for seed in range(15):
        value = _draw(name, seed, pool)
        slugs = [(k, v) for k, v in _leaves(value) if isinstance(v, str) and SLUG.match(v)]
        assert not slugs, slugs


def test_who_did_it_is_a_person_of_the_cast_other_than_the_record_s_own():
    pool = draw_pool(7)
    emails = {p.email for p in pool.people}
    for seed in range(20):
        value = _draw("onsched_customers", seed, pool)
        staff = {value[k] for k in ("createdBy", "modifiedBy", "registeredBy", "verifiedBy")}
        assert len(staff) == 1 and staff <= emails, value  # one staff member per record
        assert staff != {value["email"]}
    schema = _strings(["email", "createdBy"], {"createdBy": "Name of the user who created it"})
    value = value_from_schema(schema, random.Random(1), resource="contacts", pool=pool)
    assert value["createdBy"] in {p.name for p in pool.people}


def test_dates_of_birth_are_adults_and_sent_stamps_are_past_and_ship_by_is_ahead():
    schema = {"type": "object", "required": ["dob", "date_of_birth"], "properties": {
        "dob": {"type": "string"}, "date_of_birth": {"type": "string", "format": "date"}}}
    for seed in range(30):
        value = _draw("onsched_customers", seed)
        other = value_from_schema(schema, random.Random(seed), resource="people")
        for text in (value["birthdate"], other["dob"], other["date_of_birth"]):
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", text)
            age = (_NOW - _when(text)).days / 365.25
            assert 18 <= age <= 90.1, text
        for key in ("welcomeEmailSent", "inviteEmailSent"):
            assert _NOW - timedelta(days=181) <= _when(value[key]) <= _NOW, value[key]
        ship_by = _when(_draw("voodoo_orders", seed)["ship_by"])
        assert _NOW <= ship_by <= _NOW + timedelta(days=31)


@pytest.mark.parametrize("name", ["onsched_appointments", "salesloft_meetings"])
def test_meetings_sit_near_now_and_end_after_they_start(name: str):
    """Appointments (`startDateTime`) and SalesLoft meetings (`start_time` as a date: one
    day) begin within a few weeks of now and end after they begin."""
    starts = set()
    for seed in range(30):
        value = _draw(name, seed)
        keys = ("startDateTime", "endDateTime") if "startDateTime" in value else (
            "start_time", "end_time")
        start, end = (_when(value[k]) for k in keys)
        assert _NOW - timedelta(days=22) <= start <= end <= _NOW + timedelta(days=29), value
        if len(value[keys[0]]) == 10:
            assert start == end
        starts.add(start.date())
    assert len(starts) > 10  # spread over weeks, not one day


def test_phones_extensions_and_address_lines_fit_their_fields():
    pool = draw_pool(3)
    seconds = set()
    for seed in range(30):
        value = _draw("billbee_addresses", seed, pool)
        person = next(p for p in pool.people if p.email == value["Email"])
        assert value["Tel1"] == person.phone and re.fullmatch(r"\+\d{10,15}", value["Tel2"])
        assert value["Tel2"] != value["Tel1"]
        assert re.fullmatch(r"\d{1,3}[ab]?", value["Housenumber"])
        assert value["CountryISO2"] == person.place.country
        order = _draw("voodoo_orders", seed, pool)
        assert re.fullmatch(r"\d+ \w+ \w+", order["street1"])
        seconds.add(re.sub(r"\d+|\b[A-F]\b", "#", order["street2"]))
        appointment = _draw("onsched_appointments", seed, pool)
        assert re.fullmatch(r"\d{2,4}", appointment["phoneExt"])
        assert appointment["timezoneIana"] in {row[4] for row in CITIES}
    assert "" in seconds and len(seconds) >= 3  # "Suite 210", "Apt 4B", or left empty


def test_a_person_s_time_zone_industry_and_contact_agree_with_the_cast():
    pool = draw_pool(4)
    for seed in range(20):
        people = {p.email: p for p in pool.people}
        value = _draw("onsched_appointments", seed, pool)
        person = people[value["email"]]
        assert value["timezoneIana"] == person.place.timezone
        row = _draw("salesloft_people", seed, pool)
        assert row["person_company_industry"] == COMPANY_INDUSTRIES[
            people[row["email_address"]].company.name]
        customer = _draw("bigredcloud_customers", seed, pool)
        assert customer["contact"] in {p.name for p in pool.people}
        order = _draw("voodoo_orders", seed, pool)  # the VAT number of the buyer's company
        company = people[order["email"]].company
        assert order["taxcode"] == company.tax_id and (
            order["taxcode"].startswith(company.place.country) or "-" in order["taxcode"])


def test_descriptions_that_list_values_are_followed():
    seniorities = set()
    for seed in range(30):
        seniorities.add(_draw("salesloft_people", seed)["job_seniority"])
        meeting = _draw("salesloft_meetings", seed)
        assert meeting["event_source"] in ("external", "internal")
        assert all("@" in guest for guest in meeting["guests"])
        assert re.fullmatch(r"[0-9a-f]{26}@[\w.]+", meeting["i_cal_uid"])
    assert seniorities <= {"director", "executive", "individual_contributor", "manager",
                           "vice_president", "unknown"} and len(seniorities) > 3
    assert described_values({"description": "The attribute value. E.g. red"},
                            examples=True) == ("red",)
    assert described_values({"description": "Used for one of our reports."}) == ()


def test_identifiers_and_links_have_their_real_shapes():
    for seed in range(20):
        order = _draw("voodoo_orders", seed)
        assert re.fullmatch(r"#[0-9a-f]{6}", order["color_sample"])
        assert re.fullmatch(r"<p>[^<]+</p>", order["body_html"])
        assert re.fullmatch(r"[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?", order["swift"])
        assert re.fullmatch(r"[A-Z]{2}\d{9}|\d{2}-\d{7}", order["taxcode"])
        assert order["globalReferer"].startswith("https://")
        customer = _draw("onsched_customers", seed)
        assert customer["conferenceInfo"].startswith(("https://zoom.us/j/",
                                                      "https://meet.google.com/"))
        assert customer["object"] == "customer"


def test_a_custom_field_has_a_label_and_one_of_its_values():
    from compoworld.world.kindmakers import CUSTOM_FIELDS

    schema = {"type": "object", "required": ["name", "value"], "properties": {
        "name": {"type": "string"}, "value": {"type": "string"}}}
    labels = dict(CUSTOM_FIELDS)
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), resource="custom_fields")
        assert value["value"] in labels[value["name"]]


def test_a_phone_pattern_gets_a_whole_number_and_a_short_field_its_national_digits():
    schema = {"type": "object", "required": ["email", "primaryContactNumber", "smsNumber",
                                             "phone"], "properties": {
        "email": {"type": "string"},
        "primaryContactNumber": {"type": "string", "pattern": r"^\+[1-9]\d{1,14}$"},
        "smsNumber": {"type": "string", "pattern": r"^\+[1-9]\d{1,14}$"},
        "phone": {"type": "string", "maxLength": 10}}}
    pool = draw_pool(2)
    for seed in range(20):
        value = value_from_schema(schema, random.Random(seed), resource="users", pool=pool)
        person = next(p for p in pool.people if p.email == value["email"])
        assert value["primaryContactNumber"] == person.phone
        assert re.fullmatch(r"\+\d{10,}", value["smsNumber"])
        assert re.fullmatch(r"\d{8,10}", value["phone"]) and person.phone.endswith(
            value["phone"])
    loose = {"type": "string", "pattern": r"^\+[1-9]\d{1,14}$"}
    assert len(value_from_schema({"type": "object", "required": ["reference_number"],
                                  "properties": {"reference_number": loose}},
                                 random.Random(0))["reference_number"]) > 8


def test_gender_and_salutation_agree_with_the_person_s_name():
    from compoworld.world.words import FEMALE_NAMES

    schema = {"type": "object", "required": ["first_name", "gender", "salutation", "sex"],
              "properties": {"first_name": {"type": "string"},
                             "gender": {"type": "string", "enum": ["M", "F", "U"]},
                             "salutation": {"type": "string"}, "sex": {"type": "string"}}}
    pool = draw_pool(6)
    seen = set()
    for seed in range(40):
        value = value_from_schema(schema, random.Random(seed), resource="contacts", pool=pool)
        female = value["first_name"] in FEMALE_NAMES
        assert value["gender"] == ("F" if female else "M")
        assert value["salutation"] == ("Ms" if female else "Mr")
        assert value["sex"] == ("female" if female else "male")
        seen.add(female)
    assert seen == {True, False}


def test_the_same_seed_gives_the_same_values():
    pool = draw_pool(9)
    for name in SCHEMAS:
        assert _draw(name, 3, pool) == _draw(name, 3, pool)
    assert _draw("onsched_customers", 3, pool) != _draw("onsched_customers", 4, pool)


def test_ids_counts_and_unix_times_typed_number_are_whole():
    """ecwid types its ids, counts and timestamps `number`: they are whole (no
    `"customerId": 488.3`, `"createTimestamp": 873.57`), Unix times of the half year before
    the world's now, while an amount keeps its cents."""
    names = ["customerId", "orderNumber", "totalOrderCount", "createTimestamp", "total"]
    schema = {"type": "object", "required": names,
              "properties": {name: {"type": "number"} for name in names}}
    totals = set()
    for seed in range(20):
        value = value_from_schema(schema, random.Random(seed), service="ecwid")
        for name in names[:4]:
            assert value[name] == int(value[name]), (name, value)
        age = NOW.timestamp() - value["createTimestamp"]
        assert 0 <= age <= 181 * 86400, value
        totals.add(value["total"] != int(value["total"]))
    assert True in totals  # (amounts are still drawn with cents)


def test_an_audit_trail_s_before_and_after_are_their_field_s_kind():
    """An appointment's audit trail read `statusAfter: "aLJUjuF0XyPCoMYBkunCmSn0"` (a page
    cursor) and `reject_reason: "I added two more items to the agenda."`: a value before or
    after a change is of its field's kind, and a reason is a reason."""
    import random

    from compoworld.world.vocab import field_kind, maker

    assert field_kind("statusAfter", {"type": "string"}) == "status"
    assert field_kind("starting_after", {"type": "string"}) == "cursor"  # (Stripe's)
    assert field_kind("reject_reason", {"type": "string"}) == "reason"
    reasons = {maker("reason", "appointments", "reject_reason")(random.Random(s))
               for s in range(10)}
    assert all(len(r.split()) <= 4 and not r.endswith(".") for r in reasons), reasons


def test_a_repository_is_named_as_a_team_names_it():
    """"owner "Mei Yamamoto" and repo "Finance Repo"": a repository's name is a slug such
    as "billing-service"."""
    import random

    from compoworld.world.vocab import field_kind, maker

    assert field_kind("repo", {"type": "string"}) == "repo"
    names = {maker("repo", "issues", "repo")(random.Random(s)) for s in range(10)}
    assert all(" " not in n and n == n.lower() for n in names), names


def test_a_record_of_a_titled_kind_is_named_by_a_title_of_its_kind():
    """Twenty Linear releases shared eight names such as "Marketing Release", so none was
    named by its name, and a request asked to post "the release whose creator email is
    ..." in the team channel. A release is named by its version, a ticket by its
    problem; a record of a kind without titles keeps its label."""
    import random

    from compoworld.world.vocab import maker

    releases = [maker("name", "release", "name")(random.Random(s)) for s in range(20)]
    assert all(re.fullmatch(r"Release \d+\.\d+\.\d+", r) for r in releases), releases
    assert len(set(releases)) >= 15  # (so most of a list's releases are named by name)
    assert "Release" not in maker("name", "ticket", "name")(random.Random(1))
    assert maker("name", "warehouse", "name")(random.Random(1)).endswith(" Warehouse")


@pytest.mark.parametrize(("field", "shape"), [
    ("avatarLarge", r"https://images\.example\.com/user/\d+\.jpg"),
    ("allowed_ips", r"203\.0\.113\.\d+"),
    ("facebook", r"https://www\.facebook\.com/[a-z.]+"),
    ("namespace", r"[a-z]+"),
    # "messageid": "Regional Messageid", "cvc_check": "Weekly Cvc Check" and a country's
    # "code3": "Design Code" read as filler: an id, what a check said, a code
    ("messageid", r"mes_[0-9a-f]{12}"),
    ("cvc_check", r"pass|fail|unavailable|unchecked"),
    ("code3", r"[A-Z]{2}\d{3}"),
])
def test_a_field_with_no_kind_of_its_own_still_holds_what_its_name_says(field: str, shape: str):
    """A blind review quoted "avatarLarge": "Finance Avatar Large", "allowed_ips":
    "Engineering Allowed Ips", "facebook": "Marketing Facebook" and "namespace": "Q3
    Namespace": labels where a picture's link, an address, a profile and a plain name
    belong."""
    from compoworld.world.vocab import fallback

    for seed in range(5):
        assert re.fullmatch(shape, fallback(field, "user")(random.Random(seed)))


def test_a_text_message_s_carrier_runs_a_phone_network():
    """A Telnyx send answered that its recipient's carrier was "FedEx", and the end of a
    text (`to: [{"carrier": "DHL"}]`) was carried by a parcel service."""
    from compoworld.world.kindmakers import name_maker

    texts = {name_maker("carrier", noun)(random.Random(seed)) for seed in range(30)
             for noun in ("message", "to", "from")}
    parcels = {name_maker("carrier", "shipment")(random.Random(seed)) for seed in range(30)}
    assert "T-Mobile" in texts and not texts & {"FedEx", "DHL", "UPS"}
    assert "DHL" in parcels and not parcels & texts

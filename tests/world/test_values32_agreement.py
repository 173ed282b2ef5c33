"""Fields of one record that blind reviewers read as no real system's: a Seoul address in
the state of Lisbon, a second company name of another company, a cardholder named like a
card, a field called `string` holding filler, times out of order, a nested record's key to
another parent, an IBAN of another country, a Brazilian mobile one digit short. The
schemas are excerpts of real ones (Ecwid, Apideck, Avaza, LetMC, Square, Twilio, OnSched,
Big Red Cloud)."""

from __future__ import annotations

from datetime import UTC, datetime

from compoworld.specs.openapi import load_openapi
from compoworld.world.banking import REGION_NAMES
from compoworld.world.clock import NOW
from compoworld.world.seeding import draw_pool, seed_state
from compoworld.world.words import CITIES, CITY_REGIONS, short_company_name
from tests.world.test_seeding import openapi
from tests.world.test_values30_agreement import _STR, _draws, _object

_CITY_COUNTRY = {city: country for city, country, *_ in CITIES}


def test_a_state_s_name_is_of_the_address_s_own_city_and_country():
    address = _object({"city": _STR, "countryCode": _STR, "stateName": _STR,
                       "stateOrProvinceCode": _STR}, ["city", "stateName"])
    seen = set()
    for found in _draws(_object({"name": _STR, "shippingPerson": address}), "orders", 80,
                        service="cloud_elements_com_ecwid_0bd593e4"):
        person = found["shippingPerson"]
        city = person["city"]
        country = person.get("countryCode", _CITY_COUNTRY[city])
        seen.add(city)
        assert person["stateName"] == REGION_NAMES[country, CITY_REGIONS[city]], person
        assert person.get("stateOrProvinceCode", CITY_REGIONS[city]) == CITY_REGIONS[city]
    assert {"Seoul", "Lisbon"} <= seen or len(seen) > 10, seen


def test_an_address_with_a_city_and_a_phone_is_in_the_city_s_state():
    # a Toronto address with a +1 phone and no country: Ontario, not New York
    address = _object({"city": _STR, "phone": _STR, "state": _STR, "stateName": _STR})
    for found in _draws(_object({"name": _STR, "address": address}), "customers", 80):
        person = found["address"]
        city = person["city"]
        code = CITY_REGIONS[city]
        assert person["state"] == code, person
        assert person["stateName"] == REGION_NAMES[_CITY_COUNTRY[city], code], person


def test_a_company_s_other_names_are_its_own():
    schema = _object({"id": _STR, "CompanyName": {"type": "string", "description": "Company name"},
                      "MarketingCompanyName": {"type": "string",
                                               "description": "Company Marketing Name"},
                      "ShortName": {"type": "string", "description": "The client's id"}})
    for company in _draws(schema, "company", service="letmc_com_free_tier"):
        name = company["CompanyName"]
        assert company["MarketingCompanyName"] == name, company
        assert name.startswith(company["ShortName"]), company
    assert short_company_name("Alder Analytics") == "Alder"
    assert short_company_name("Willow & Finch") == "Willow & Finch"


def test_a_trading_name_is_the_record_s_company_s():
    schema = _object({"company_name": _STR, "trading_name": _STR, "legal_name": _STR})
    for company in _draws(schema, "vendors"):
        assert company["trading_name"] == company["legal_name"] == company["company_name"]


_CARD = _object({"id": _STR, "card_brand": _STR, "cardholder_name": _STR,
                 "customer_id": _STR, "billing_address": _object({
                     "first_name": _STR, "last_name": _STR, "locality": _STR})})


def test_a_cardholder_is_a_person():
    names = {p.name for seed in range(30) for p in draw_pool(seed).everyone}
    for card in _draws(_CARD, "cards", service="squareup_com"):
        assert card["cardholder_name"] in names, card
        address = card["billing_address"]
        assert card["cardholder_name"] == f"{address['first_name']} {address['last_name']}"


def test_a_customer_s_cards_are_the_customer_s():
    schema = _object({"id": _STR, "given_name": _STR, "family_name": _STR,
                      "cards": {"type": "array", "items": _CARD, "minItems": 2}})
    for customer in _draws(schema, "customers", service="squareup_com"):
        for card in customer["cards"]:
            name = f"{customer['given_name']} {customer['family_name']}"
            assert card["cardholder_name"] == name, customer
            assert card["customer_id"] == customer["id"], customer


def test_a_company_s_contacts_point_at_it():
    contact = _object({"ContactID": {"type": "integer"}, "CompanyIDFK": {"type": "integer"},
                       "Firstname": _STR})
    schema = _object({"CompanyID": {"type": "integer"}, "CompanyName": _STR,
                      "Contacts": {"type": "array", "items": contact, "minItems": 2}})
    for company in _draws(schema, "company", service="avaza_com"):
        for person in company["Contacts"]:
            assert person["CompanyIDFK"] == company["CompanyID"], company


def test_a_seeded_company_s_contacts_point_at_its_id():
    contact = _object({"ContactID": {"type": "integer"}, "CompanyIDFK": {"type": "integer"},
                       "Firstname": _STR})
    spec = load_openapi(openapi("Avaza", {"/company": (
        {"CompanyID": {"type": "integer"}, "CompanyName": _STR,
         "Contacts": {"type": "array", "items": contact, "minItems": 2}},
        ["CompanyID", "CompanyName", "Contacts"])}), "avaza.json")
    records = seed_state(spec, 4, draw_pool(4)).collections["company"].values()
    for company in records:
        for person in company["Contacts"]:
            assert person["CompanyIDFK"] == company["CompanyID"], company
    assert records


def test_an_address_string_is_the_address_itself():
    address = _object({"line1": _STR, "city": _STR, "postal_code": _STR, "country": _STR,
                       "string": {"type": "string", "description": "The address string."}},
                      ["city", "string"])
    schema = _object({"name": _STR, "addresses": {"type": "array", "items": address}})
    for contact in _draws(schema, "contacts", service="apideck_com_crm"):
        for found in contact["addresses"]:
            text = found["string"]
            assert text.startswith(found.get("line1", found["city"])), found
            assert found["city"] in text and found.get("postal_code", "") in text, found


def _at(text: str) -> datetime:
    found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return found if found.tzinfo else found.replace(tzinfo=UTC)


_TIME = {"type": "string", "format": "date-time"}
_DAY = {"type": "string", "format": "date"}


def test_a_record_is_made_before_it_changes_and_nothing_happens_after_now():
    customer = _object({"name": _STR, "createdOn": _TIME, "modifiedOn": _TIME,
                        "lastVisitDate": _DAY})
    for found in _draws(customer, "customers", 60, service="onsched_com_setup"):
        made = _at(found["createdOn"])
        assert made <= _at(found["modifiedOn"]) <= NOW, found
        assert made.date() <= _at(found["lastVisitDate"]).date() <= NOW.date(), found
    booking = _object({"createDate": _DAY, "lastModifiedOn": _TIME,
                       "status_changed_at": _TIME, "updated_at": _TIME})
    for found in _draws(booking, "appointments", 60):
        made = _at(found["createDate"])
        for key in ("lastModifiedOn", "status_changed_at", "updated_at"):
            assert made <= _at(found[key]) <= NOW, found


def test_a_closed_ticket_closed_after_it_opened_and_with_its_last_update():
    ticket = _object({"subject": _STR, "status": {"type": "string", "enum": ["open", "closed"]},
                      "closedAt": _TIME, "updatedAt": _TIME}, ["subject", "status"])
    closed = 0
    for found in _draws(ticket, "tickets", 80, service="brandlovers_com"):
        if "closedAt" in found and "updatedAt" in found:
            closed += 1
            assert found["closedAt"] == found["updatedAt"] and _at(found["closedAt"]) <= NOW
    assert closed


def test_a_brazilian_mobile_has_nine_digits_from_9_and_a_landline_is_no_mobile():
    import random

    from compoworld.world.phonelines import a_mobile
    from compoworld.world.words import make_phone
    rng = random.Random(5)
    for _ in range(200):
        mobile, line = make_phone(rng, "BR"), make_phone(rng, "BR", landline=True)
        assert mobile.startswith("+55119") and len(mobile) == 14, mobile  # 11 9xxxx-xxxx
        assert line[5] in "2345" and len(line) == 13, line  # 11 3xxx-xxxx
        assert a_mobile(mobile) and not a_mobile(line)
    assert not a_mobile("+551195511972")  # the reviewers' 8-digit "mobile"


def test_a_company_s_mobile_field_holds_a_mobile():
    from compoworld.world.phonelines import a_mobile
    schema = _object({"CompanyName": _STR, "Phone": _STR, "Mobile": _STR})
    for company in _draws(schema, "company", 60, service="avaza_com"):
        assert a_mobile(company["Mobile"]) and company["Mobile"] != company["Phone"], company


def test_an_iban_is_of_the_record_s_country_or_there_is_none():
    from compoworld.world.banking import IBAN_SHAPES
    from compoworld.world.words import phone_country
    schema = _object({"name": _STR, "country": _STR, "mobile": _STR, "iban": _STR,
                      "bic": _STR}, ["name", "country", "mobile", "bic"])
    seen = set()
    for customer in _draws(schema, "customers", 60):
        country = customer["country"]
        seen.add(country in IBAN_SHAPES)
        assert customer["bic"][4:6] == country, customer
        if country in IBAN_SHAPES:
            assert customer.get("iban", country)[:2] == country, customer
        else:
            assert "iban" not in customer, customer
    assert seen == {True, False}
    required = _object({"name": _STR, "mobile": _STR, "iban": _STR})
    for customer in _draws(required, "customers", 60):
        country = phone_country(customer["mobile"])
        if country not in IBAN_SHAPES:  # a US customer's IBAN field: their account number
            assert customer["iban"].isdigit(), customer

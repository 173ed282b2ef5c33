"""Values blind reviewers read as no real record's: a Twilio account whose `uri` is a
company's web site, a Square address in Maharashtra and Lisbon at once, a company record
holding another company's emails and an Australian ABN for a Mexico City firm, a Tokyo
customer in the "North America" sales region, a thumbnail URL that is a web page. The
schemas are excerpts of real ones (Twilio, Square, Apideck, Ecwid)."""

from __future__ import annotations

import random
import re

from compoworld.specs.openapi import load_openapi
from compoworld.specs.records import ServiceSpec
from compoworld.world.banking import (
    agree_sales_region,
    agree_with_country,
    record_country,
    world_region,
)
from compoworld.world.leafplans import Check
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool, seed_state
from compoworld.world.selfpaths import own_paths, path_rule
from compoworld.world.words import CITIES, CITY_REGIONS, REGION_NAMES
from tests.world.test_seeding import openapi
from tests.world.test_values30_agreement import _STR, _draws, _object

_CITY_COUNTRY = {city: country for city, country, *_ in CITIES}


def test_an_address_s_districts_are_its_own_city_s():
    # Square: `administrative_district_level_2: "Maharashtra"`, `_level_3: "Lisbon"`
    address = _object({"locality": _STR, "administrative_district_level_1": _STR,
                       "administrative_district_level_2": _STR,
                       "administrative_district_level_3": _STR})
    card = _object({"cardholder_name": _STR, "billing_address": _object({
        "administrative_district_level_2": _STR, "administrative_district_level_3": _STR,
        "postal_code": _STR})})
    schema = _object({"given_name": _STR, "address": address,
                      "cards": {"type": "array", "items": card}})
    seen = set()
    for customer in _draws(schema, "customers", 60, service="squareup_com"):
        own = customer["address"]
        city = own["locality"]
        seen.add(city)
        name = REGION_NAMES[_CITY_COUNTRY[city], CITY_REGIONS[city]]
        assert own["administrative_district_level_1"] == CITY_REGIONS[city], own
        assert own["administrative_district_level_2"] == name, own
        assert own["administrative_district_level_3"] == name, own
        for item in customer["cards"]:  # the customer's own card: billed at their place
            billing = item["billing_address"]
            assert billing["administrative_district_level_2"] == billing[
                "administrative_district_level_3"], customer
    assert len(seen) > 8, seen


def _api(path_props: dict) -> ServiceSpec:
    return load_openapi(openapi("Phone API", path_props), "phone.json")


def test_a_record_s_uri_is_its_own_api_path_and_an_account_has_its_name():
    # Twilio: `"uri": "https://www.wayne-foods.com"`, accounts listed without a name
    spec = _api({
        "/accounts": ({"id": _STR, "friendly_name": _STR, "uri": _STR,
                       "subresource_uris": {"type": "object"}}, ["id"]),
        "/notes": ({"id": _STR, "uri": _STR, "title": _STR}, ["id"]),
    })
    spec.tools = [t for t in spec.tools if t.resource != "notes" or t.effect != "read"]
    for seed in range(6):
        state = seed_state(spec, seed)
        accounts = state.collections["accounts"]
        assert accounts
        for account_id, account in accounts.items():
            assert account["friendly_name"].strip(), account
            if "uri" in account:
                assert account["uri"] == f"/accounts/{account_id}", account
        for note in state.collections["notes"].values():  # no get-by-id path: no uri
            assert "uri" not in note, note


def test_a_resource_s_subresource_uris_are_the_lists_under_it():
    twilio = {"/2010-04-01/Accounts.json": "accounts",
              "/2010-04-01/Accounts/{Sid}.json": "accounts",
              "/2010-04-01/Accounts/{AccountSid}/Addresses.json": "addresses",
              "/2010-04-01/Accounts/{AccountSid}/Addresses/{Sid}.json": "addresses",
              "/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json": "numbers"}
    spec = _api({"/x": ({"id": _STR}, ["id"])})
    base = spec.tools[0]
    spec.tools = [base.model_copy(update={"name": f"t{i}", "resource": resource,
                                          "effect": "read", "source": f"openapi:t#GET {path}"})
                  for i, (path, resource) in enumerate(twilio.items())]
    paths = own_paths(spec)
    assert paths["accounts"].path == "/2010-04-01/Accounts/{Sid}.json"
    assert dict(paths["accounts"].children) == {
        "addresses": "/2010-04-01/Accounts/{AccountSid}/Addresses.json",
        "incoming_phone_numbers": "/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json"}
    props = {"sid": _STR, "account_sid": _STR, "uri": _STR}
    rule = path_rule(paths["addresses"], props, set(), "sid",
                     {key: Check(sub) for key, sub in props.items()})
    record = {"sid": "AD1", "account_sid": "AC9", "uri": "https://www.wayne-foods.com"}
    rule(record)
    assert record["uri"] == "/2010-04-01/Accounts/AC9/Addresses/AD1.json"
    orphan = {"sid": "AD2", "uri": "https://www.wayne-foods.com"}
    rule(orphan)  # no account to fill the path with: an optional uri left out
    assert "uri" not in orphan


def test_a_thumbnail_s_url_is_an_image_s():
    # Ecwid: `"hdThumbnailUrl": "https://www.bluebird-health.com/client-hiring-plan"`
    links = ("hdThumbnailUrl", "avatar_url", "logoUrl", "photo_uri", "imageOriginalUrl")
    schema = _object({"name": _STR, "website": _STR,
                      **{key: {"type": "string", "format": "uri"} for key in links}})
    for product in _draws(schema, "products", 20, service="cloud_elements_com_ecwid_0bd593e4"):
        for key in links:
            assert re.fullmatch(r"https://[\w.-]+/[\w/.-]+\.(jpg|png)", product[key]), product


def test_a_company_s_own_emails_and_websites_are_its_own():
    # Apideck: a company "Fabrikam" holding maya.okafor@wonka-confectionery.com
    schema = _object({
        "name": _STR,
        "emails": {"type": "array", "items": _object({"email": _STR, "type": _STR})},
        "websites": {"type": "array", "items": _object({"url": _STR, "type": _STR})},
        "addresses": {"type": "array", "items": _object({"city": _STR, "email": _STR,
                                                         "website": _STR})}})
    for seed in range(30):
        pool = draw_pool(seed)
        company = value_from_schema(schema, random.Random(seed), resource="companies",
                                    service="apideck_com_crm", pool=pool)
        own = next(c for c in pool.companies if c.name == company["name"])
        for item in [*company["emails"], *company["addresses"]]:
            assert item["email"].endswith(f"@{own.domain}"), company
        for item in [*company["websites"], *company["addresses"]]:
            assert item.get("url", item.get("website")) == own.url, company


def test_a_record_s_sales_region_is_its_country_s():
    # "sales_region": "North America" for a Tokyo postcode and a Warsaw customer
    fields = {"type": "array", "items": _object({"name": _STR, "value": _STR})}
    spec = _api({"/customers": ({"id": _STR, "name": _STR, "city": _STR, "sales_region": _STR,
                                 "custom_fields": fields}, ["id", "city", "sales_region"])})
    seen = set()
    for seed in range(8):
        for customer in seed_state(spec, seed).collections["customers"].values():
            region = world_region(_CITY_COUNTRY[customer["city"]])
            seen.add(region)
            assert customer["sales_region"] == region, customer
            for field in customer.get("custom_fields", ()):
                if field.get("name") == "Sales region" and "value" in field:
                    assert field["value"] == region, customer
    assert len(seen) >= 3, seen
    postcode = {"postal_code": "150-0001", "custom": {"field": {"label": "Sales region",
                                                                "value": "North America"}}}
    agree_sales_region(postcode)  # a Tokyo postcode: APAC
    assert postcode["custom"]["field"]["value"] == "APAC"
    assert record_country({"address": {"locality": "Warsaw"}}) == "PL"
    assert world_region("PL") == "EMEA" and world_region("MX") == "LATAM"


def test_an_id_only_another_country_issues_is_left_out():
    # Apideck: an Australian ABN and ACN for a Mexico City firm
    mexican = {"name": "Fabrikam", "abn_or_tfn": "72 916 501 330", "acn": "795 816 113",
               "addresses": [{"city": "Mexico City", "country": "MX"}]}
    agree_with_country(mexican)
    assert "abn_or_tfn" not in mexican and "acn" not in mexican, mexican
    sydney = {"name": "Litware", "abn": "72 916 501 330", "city": "Sydney"}
    agree_with_country(sydney)
    assert sydney["abn"] == "72 916 501 330"
    required = {"name": "Litware", "acn": "795 816 113", "country": "FR"}
    agree_with_country(required, frozenset({"acn"}))  # the schema wants it: kept
    assert required["acn"] == "795 816 113"

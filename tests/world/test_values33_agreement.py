"""Values blind reviewers read as no real record's: a Twilio account whose `uri` is a
company's web site, a Square address in Maharashtra and Lisbon at once, a company record
holding another company's emails and an Australian ABN for a Mexico City firm, a Tokyo
customer in the "North America" sales region, a thumbnail URL that is a web page. The
schemas are excerpts of real ones (Twilio, Square, Apideck, Ecwid)."""

from __future__ import annotations

from compoworld.world.words import CITIES, CITY_REGIONS, REGION_NAMES
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

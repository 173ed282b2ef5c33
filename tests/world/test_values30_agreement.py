"""Fields of one record that blind reviewers read as contradicting each other: a card
whose brand and type differ, an Indian address in Berlin, an Ecwid `stateName` of another
state than its postal code, a custom field's label under a key it does not fit, a payment
word in a fulfillment status, a cost equal to the sale price, one id twice in a list, a
payment reference as a bank account code, a VAT id of another country. The schemas are
excerpts of real ones (Square, Ecwid, OnSched, Avaza, Big Red Cloud)."""

from __future__ import annotations

import random

from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.words import CITIES

_STR = {"type": "string"}
_CITY_COUNTRY = {city: country for city, country, *_ in CITIES}


def _object(props: dict, required: list[str] | None = None) -> dict:
    return {"type": "object", "properties": props, "required": required or list(props)}


def _draws(schema: dict, resource: str, count: int = 30, service: str = ""):
    for seed in range(count):
        yield value_from_schema(schema, random.Random(seed), resource=resource,
                                service=service, pool=draw_pool(seed))


SQUARE_ADDRESS = _object({
    "address_line_1": _STR, "locality": _STR, "administrative_district_level_1": _STR,
    "postal_code": _STR, "country": _STR, "first_name": _STR, "last_name": _STR})


def test_an_address_s_locality_and_state_are_in_its_country():
    for location in _draws(_object({"name": _STR, "address": SQUARE_ADDRESS}), "locations",
                           service="squareup_com"):
        address = location["address"]
        assert _CITY_COUNTRY[address["locality"]] == address["country"], address

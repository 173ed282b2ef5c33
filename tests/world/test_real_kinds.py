"""A field that names a country, a city, a region, a currency or a language holds a real
one, never a label made up from its name: Visma's `country` objects read "Internal Country"
as their `englishName`, its languages "Weekly Language", a dealer's `Region1` "Design
Region". The schemas are excerpts of real ones (Visma, Appwrite, AGCO, Interzoid)."""

from __future__ import annotations

import random

import pytest

from compoworld.world.banking import REGION_NAMES
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.vocab import stand_in_name
from compoworld.world.words import CITIES, COUNTRIES, CURRENCIES, LANGUAGES

_TEXT = {"type": "string"}
_REAL = {
    "country": set(COUNTRIES) | {entry[0] for entry in COUNTRIES.values()},
    "city": {city[0] for city in CITIES},
    "region": set(REGION_NAMES.values()),
    "currency": set(CURRENCIES),
    "language": set(LANGUAGES),
}


def _object(**props: object) -> dict:
    return {"type": "object", "properties": props, "required": list(props)}


# (schema, resource, path to the field, the kind of thing it names)
_CASES = [
    (_object(country=_object(englishName=_TEXT, code=_TEXT)), "addresses",
     ("country", "englishName"), "country"),
    (_object(language=_object(englishName=_TEXT)), "customers",
     ("language", "englishName"), "language"),
    (_object(name=_TEXT, code=_TEXT), "countries", ("name",), "country"),
    (_object(nativeName=_TEXT, code=_TEXT), "languages", ("nativeName",), "language"),
    (_object(city=_object(long_name=_TEXT)), "locations", ("city", "long_name"), "city"),
    (_object(name=_TEXT), "regions", ("name",), "region"),
    (_object(currencyName=_TEXT), "invoices", ("currencyName",), "currency"),
    (_object(languageName=_TEXT), "users", ("languageName",), "language"),
    (_object(country_display_name=_TEXT), "settings", ("country_display_name",), "country"),
    (_object(Region1=_TEXT, Region2=_TEXT), "dealers", ("Region1",), "region"),
    (_object(Language2=_TEXT), "numbers", ("Language2",), "language"),
    (_object(nation=_TEXT), "datapoints", ("nation",), "country"),
]


@pytest.mark.parametrize(("schema", "resource", "path", "kind"), _CASES)
def test_a_named_place_currency_or_language_is_a_real_one(
        schema: dict, resource: str, path: tuple[str, ...], kind: str) -> None:
    for seed in range(8):
        value = value_from_schema(schema, random.Random(seed), service="svc",
                                  resource=resource)
        for key in path:
            value = value[key]
        assert not stand_in_name(value), (path, value)
        assert value in _REAL[kind] or value.split("-")[0] in _REAL[kind], (path, value)


def test_another_things_name_is_no_place() -> None:
    """A brand's name in a region's listing names the brand, no region."""
    listing = _object(brandName=_TEXT)
    names = {value_from_schema(listing, random.Random(seed), service="svc",
                               resource="listings_by_region")["brandName"] for seed in range(8)}
    assert not names & _REAL["region"], names

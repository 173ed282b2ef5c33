"""Phone numbers have their country's national length and leading digits (E.164), the
sender of a text included, and a fax line stays the phone's neighbour."""

from __future__ import annotations

import random
import re

from compoworld.world.phones import LENGTHS
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.words import CITIES, COUNTRIES, make_company, make_phone, make_place

# National significant number lengths from the ITU's E.164 plans (mobiles; landlines where
# they differ), written out here so the table in phones.py is checked, not copied.
NSN = {"US": {10}, "CA": {10}, "GB": {10}, "FR": {9}, "DE": {10, 11}, "ES": {9},
       "IT": {10}, "NL": {9}, "SE": {9}, "PT": {9}, "JP": {9, 10}, "KR": {9, 10}, "SG": {8},
       "AU": {9}, "IN": {10}, "BR": {10, 11}, "MX": {10}, "NG": {9, 10}, "KE": {9},
       "CH": {9}, "IE": {8, 9}, "PL": {9}}


def _national(phone: str, country: str) -> str:
    code = COUNTRIES[country][2]
    assert phone.startswith("+" + code), phone
    return phone[1 + len(code):]


def test_every_country_of_the_world_has_a_shape():
    assert set(LENGTHS) == set(COUNTRIES)


def test_numbers_have_their_countrys_national_length():
    rng = random.Random(0)
    for country in COUNTRIES:
        for landline in (False, True):
            for _ in range(20):
                national = _national(make_phone(rng, country, landline), country)
                assert national.isdigit() and len(national) in NSN[country], (country, national)


def test_leading_digits_are_plausible():
    rng = random.Random(1)
    for _ in range(50):
        uk = _national(make_phone(rng, "GB"), "GB")
        assert uk.startswith("7") and len(uk) == 10  # a UK mobile: 07xxx xxxxxx
        us = _national(make_phone(rng, "US"), "US")
        assert us[0] not in "01" and us[3] not in "01"  # area code, exchange
        assert _national(make_phone(rng, "PT"), "PT")[:2] in ("91", "92", "93", "96")
        assert _national(make_phone(rng, "IN"), "IN")[0] in "6789"
        assert _national(make_phone(rng, "SG"), "SG")[0] in "89"


def test_pool_phones_and_drawn_phones_fit_their_country():
    pool = draw_pool(7)
    for person in pool.people:
        assert len(_national(person.phone, person.place.country)) in NSN[person.place.country]
    for company in pool.companies:
        assert len(_national(company.phone, company.place.country)) in NSN[
            company.place.country]
    codes = sorted(((COUNTRIES[c][2], c) for c in COUNTRIES), key=lambda x: -len(x[0]))
    for seed in range(60):
        phone = value_from_schema({"type": "string"}, random.Random(seed), name="phone")
        assert re.fullmatch(r"\+\d{9,15}", phone)
        country = next(c for code, c in codes if phone[1:].startswith(code))
        if country in ("US", "CA"):  # +1: both share the plan
            country = "US"
        assert len(_national(phone, country)) in NSN[country], phone


def test_a_companys_line_is_a_landline_and_its_fax_another_line_of_its_country():
    london = next(row for row in CITIES if row[0] == "London")
    company = make_company(random.Random(3), "Acme Corp", make_place(random.Random(3), london))
    assert _national(company.phone, "GB").startswith("20")  # 020 7xxx xxxx, no mobile
    schema = {"type": "object", "required": ["phone", "fax", "company"], "properties": {
        "phone": {"type": "string"}, "fax": {"type": "string"},
        "company": {"type": "string"}}}
    for seed in range(10):
        value = value_from_schema(schema, random.Random(seed), pool=draw_pool(seed))
        phone, fax = value["phone"], value["fax"]
        code = next(c for c, _ in sorted(((COUNTRIES[k][2], k) for k in COUNTRIES),
                                         key=lambda x: -len(x[0])) if phone[1:].startswith(c))
        assert fax.startswith("+" + code)  # the same country's line
        # no phone with its last digit changed (review: +33638656408 beside +33638656402)
        assert fax[:-1] != phone[:-1]
        assert sum(a != b for a, b in zip(fax, phone, strict=False)) >= 3


def test_a_phone_s_calling_code_field_is_its_phone_s():
    """Apacta's user had `"mobile": "+61452405978"` beside `"mobile_countrycode": "+41"`:
    a record that contradicts itself. The calling-code field named for a phone (or beside
    the record's one phone) holds that phone's code; a company's `country_code` stays."""
    schema = {"type": "object", "required": ["mobile", "mobile_countrycode", "country_code"],
              "properties": {"mobile": {"type": "string"},
                             "mobile_countrycode": {"type": "string"},
                             "country_code": {"type": "string"}}}
    from compoworld.world.phonelines import _calling_code

    for seed in range(20):
        user = value_from_schema(schema, random.Random(seed), name="user", service="apacta")
        assert user["mobile_countrycode"] == f"+{_calling_code(user['mobile'])}", user
        assert not str(user["country_code"]).startswith("+"), user

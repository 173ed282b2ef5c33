"""Bank and tax identifiers shaped like a country's own, and a record made to agree with
the country it names.

Reviewers read `"iban": "DE89..."` on a Hungarian partner, `"swift": "COBAIE22"` on a
Japanese company, `"taxcode": "DE434768844"` on a French one, a Chicago company paying in
KES and `"stateOrProvinceCode": "NSW"` beside `"countryCode": "FR"`. Fields are drawn one
by one, so the country of a record (its `country` field, or its address's) is known only
once it is drawn; `country_rule` then rewrites the record's IBAN, BIC, tax id, currency
and region to be that country's. The rewrites hash the value they replace instead of
drawing from the record's generator, so no later value of the world shifts.
"""

from __future__ import annotations

import random
import re
import string
import zlib
from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import split_words
from compoworld.world.state import string_leaves
from compoworld.world.words import (
    CITIES,
    CITY_POSTAL,
    CITY_REGIONS,
    COUNTRIES,
    REGION_NAMES,
    phone_country,
)

# BBAN shapes of the IBAN countries among the world's places (`#` a digit, `?` a letter).
IBAN_SHAPES = {
    "FR": "#" * 23, "DE": "#" * 18, "ES": "#" * 20, "IT": "?" + "#" * 22, "NL": "????" + "#" * 10,
    "SE": "#" * 20, "PT": "#" * 21, "IE": "????" + "#" * 14, "PL": "#" * 24,
    "GB": "????" + "#" * 14, "CH": "#" * 17, "BR": "#" * 23 + "C1",
}
# Banks' four-letter codes by country, so a BIC's bank sits in its country.
_BANKS = {
    "DE": ("DEUT", "COBA"), "FR": ("BNPA", "SOGE"), "GB": ("BARC", "NWBK"),
    "NL": ("INGB", "RABO"), "ES": ("BSCH", "BBVA"), "IT": ("UNCR", "BCIT"),
    "IE": ("AIBK", "BOFI"), "CH": ("UBSW", "CRES"), "US": ("CHAS", "BOFA"),
    "JP": ("MHCB", "BOTK"), "SG": ("DBSS", "OCBC"), "AU": ("CTBA", "NATA"),
    "IN": ("SBIN", "HDFC"), "BR": ("ITAU", "BRAS"), "MX": ("BNMX", "BCMR"),
    "KE": ("KCBL", "EQBL"), "NG": ("ZEIB", "FBNI"), "SE": ("NDEA", "ESSE"),
    "PT": ("CGDI", "BCOM"), "PL": ("PKOP", "BPKO"), "KR": ("KOEX", "SHBK"),
    "CA": ("ROYC", "TDOM"),
}
# The banks of those codes, as a record names them (no "bank_name": "Santander" beside
# the BIC "UBSWCHPP", a UBS code, nor "Barclays" beside "KOEXKRMMXXX", a Korean bank's).
BANK_NAMES = {
    "DEUT": "Deutsche Bank", "COBA": "Commerzbank", "BNPA": "BNP Paribas",
    "SOGE": "Societe Generale", "BARC": "Barclays", "NWBK": "NatWest", "INGB": "ING",
    "RABO": "Rabobank", "BSCH": "Santander", "BBVA": "BBVA", "UNCR": "UniCredit",
    "BCIT": "Intesa Sanpaolo", "AIBK": "AIB", "BOFI": "Bank of Ireland", "UBSW": "UBS",
    "CRES": "Credit Suisse", "CHAS": "Chase", "BOFA": "Bank of America", "MHCB": "Mizuho",
    "BOTK": "MUFG Bank", "DBSS": "DBS", "OCBC": "OCBC", "CTBA": "Commonwealth Bank",
    "NATA": "NAB", "SBIN": "State Bank of India", "HDFC": "HDFC Bank", "ITAU": "Itau",
    "BRAS": "Banco do Brasil", "BNMX": "Banamex", "BCMR": "BBVA Mexico", "KCBL": "KCB Bank",
    "EQBL": "Equity Bank", "ZEIB": "Zenith Bank", "FBNI": "First Bank of Nigeria",
    "NDEA": "Nordea", "ESSE": "SEB", "CGDI": "Caixa Geral de Depositos",
    "BCOM": "Millennium bcp", "PKOP": "Bank Pekao", "BPKO": "PKO Bank Polski",
    "KOEX": "KEB Hana Bank", "SHBK": "Shinhan Bank", "ROYC": "RBC", "TDOM": "TD Bank",
}
_LOCATIONS = ("22", "2X", "FF", "MM", "PP", "2L")
# The regions of each country's cities, first its first city's.
_REGIONS: dict[str, tuple[str, ...]] = {}
for _city, _country, *_ in CITIES:
    _REGIONS[_country] = (*_REGIONS.get(_country, ()), CITY_REGIONS[_city])
_CITY_OF = {city: (country, CITY_REGIONS[city]) for city, country, *_ in CITIES}
# The city of each region code only one city has (`NH` Amsterdam; not `11`, Lisbon or Seoul).
_REGION_CITY = {region: city for city, region in CITY_REGIONS.items()
                if list(CITY_REGIONS.values()).count(region) == 1}
_ALPHA3 = {row[1]: code for code, row in COUNTRIES.items()}
_NAMES = {row[0].lower(): code for code, row in COUNTRIES.items()}


def _fill(shape: str, rng: random.Random) -> str:
    return "".join(rng.choice(string.digits) if c == "#" else rng.choice(string.ascii_uppercase)
                   if c == "?" else c for c in shape)


def iban(rng: random.Random, country: str | None = None) -> str:
    """An IBAN of `country` (a random IBAN country when it has none, or none is given):
    its length, its bank-code letters where it has them, and check digits that pass
    ISO 7064 mod 97."""
    if country not in IBAN_SHAPES:
        country = rng.choice(sorted(IBAN_SHAPES))
    bban = _fill(IBAN_SHAPES[country], rng)
    number = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    return f"{country}{98 - number % 97:02d}{bban}"


def bic(rng: random.Random, country: str | None = None) -> str:
    """A BIC of a bank in `country` (a random one when none is given): chars 5-6 are the
    country, sometimes with a branch code."""
    country = country if country in _BANKS else rng.choice(sorted(_BANKS))
    branch = rng.choice(("", "", "XXX"))
    return f"{rng.choice(_BANKS[country])}{country}{rng.choice(_LOCATIONS)}{branch}"


def tax_id(country: str, digits: str) -> str:
    """A company's tax id in `country` from nine `digits` (as `Company.tax_id` writes it):
    a US EIN, elsewhere the country's VAT prefix."""
    return f"{digits[:2]}-{digits[2:9]}" if country == "US" else f"{country}{digits[:9]}"


def country_code(value: Any) -> str | None:
    """The ISO alpha-2 code a country field holds (`FR`, `FRA`, `France`), or None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if len(text) == 2 and text.upper() in COUNTRIES:
        return text.upper()
    return _ALPHA3.get(text.upper()) or _NAMES.get(text.lower())


def region_of(country: str, city: Any = None) -> str | None:
    """The region code of `city` when it is in `country`, else `country`'s first city's."""
    found = _CITY_OF.get(city) if isinstance(city, str) else None
    if found is not None and found[0] == country:
        return found[1]
    regions = _REGIONS.get(country)
    return regions[0] if regions else None


# --- a record that agrees with its country ----------------------------------------------

Rule = Callable[[dict[str, Any], dict[str, Any] | None], None]
_REGION_NAME_WORDS = frozenset({"name", "long"})


def _seeded(value: Any) -> random.Random:
    """A generator seeded by the value a rewrite replaces (no draw of the record's rng)."""
    return random.Random(zlib.crc32(repr(value).encode()))


def _find_country(out: dict[str, Any], keys: list[str]) -> str | None:
    """The country the record names: its own country field, else one of its address's."""
    for key in keys:
        found = country_code(out.get(key))
        if found:
            return found
    for value in out.values():
        if isinstance(value, dict):
            for key, inner in value.items():
                if "country" in split_words(key):
                    found = country_code(inner)
                    if found:
                        return found
    return None


def _phone_country(out: dict[str, Any]) -> str | None:
    """The country of the record's phone: a Big Red Cloud customer with a +65 mobile and
    no country has no GB IBAN or Canadian BIC (a bank in a country nothing else of the
    customer's is in reads as made up)."""
    for key, value in out.items():
        if set(split_words(key)) & _PHONES and isinstance(value, str):
            found = phone_country(value)
            if found:
                return found
    return None


_PHONES = frozenset("phone mobile tel telephone cell".split())


def _fixes(country: str, city: Any) -> dict[str, Callable[[Any], Any]]:
    """How each kind of field is written in `country`, given its current value."""
    region = region_of(country, city)
    return {
        "iban": lambda v: _iban_fix(v, country),
        "bic": lambda v: v if isinstance(v, str) and v[4:6] == country else bic(
            _seeded(v), country),
        "tax_id": lambda v: v if isinstance(v, str) and (
            v[:2] == country or country == "US" and v[2:3] == "-") else tax_id(
            country, f"{zlib.crc32(repr(v).encode()) % 10 ** 9:09d}"),
        "currency": lambda v: COUNTRIES[country][3],
        "region": lambda v: v if v in _REGIONS.get(country, ()) else region or v,
        "region_name": lambda v: REGION_NAMES.get((country, region or ""), v),
    }


def _iban_fix(value: Any, country: str) -> Any:
    """An IBAN of `country`; where the country has none (the US), the account number a
    required IBAN field holds instead."""
    if country not in IBAN_SHAPES:
        return value if isinstance(value, str) and value.isdigit() else \
            f"{zlib.crc32(repr(value).encode()) % 10 ** 10:010d}"
    return value if isinstance(value, str) and value[:2] == country else iban(
        _seeded(value), country)


def _postal_city(code: Any) -> str | None:
    """The one city whose postal range (`words.CITY_POSTAL`) holds `code`, or None."""
    if not isinstance(code, str):
        return None
    found = [city for city, pattern in _POSTAL_RANGES.items() if pattern.fullmatch(code)]
    return found[0] if len(found) == 1 else None


_POSTAL_RANGES = {city: re.compile("".join(
    r"\d" if c == "#" else "[A-Z]" if c == "?" else re.escape(c) for c in shape))
    for city, shape in CITY_POSTAL.items()}


# Countries whose VAT numbers carry their code (`FR12345678901`); elsewhere there is none.
VAT_COUNTRIES = frozenset("FR DE ES IT NL SE PT IE PL GB CH".split())


def _vat_fix(child: dict[str, Any], keys: tuple[str, ...], country: str,
             fix: Callable[[Any], Any]) -> None:
    """A `tax_ids` child's VAT numbers in the record's country, or none where it has no
    VAT (Square's `eu_vat` of a US location)."""
    for key in keys:
        if isinstance(child.get(key), str):
            if country in VAT_COUNTRIES:
                child[key] = fix(child[key])
            else:
                del child[key]


def country_rule(kinds: dict[str, str], countries: list[str], cities: list[str],
                 checks: dict[str, Callable[[Any], bool]],
                 postals: tuple[str, ...] = (),
                 vats: dict[str, tuple[str, ...]] | None = None,
                 required: frozenset[str] = frozenset()) -> Rule | None:
    """For an object whose fields of `kinds` (key -> iban, bic, tax_id, currency, region,
    region_name) should follow its country (`countries`: its country keys; an address
    child's country counts too), a rule that rewrites them to agree; so are the VAT
    numbers of its tax children (`vats`: child key -> its VAT keys). A field the caller
    gave, or a rewrite its schema rejects, keeps its value. In a country without IBANs
    (the US, Singapore) an optional IBAN is left out and a required one holds the account
    number (reviewers read a Singapore customer with a BR IBAN beside a DBSSSGFF BIC, a
    US one with an IE IBAN)."""
    if not kinds and not vats:
        return None

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        city = next((out[k] for k in cities if k in out), None)
        if city is None:  # an Ecwid `billingPerson` with a zip and no city: the zip's city
            city = next((found for k in postals if (found := _postal_city(out.get(k)))), None)
        if city is None:  # a state code alone (`stateOrProvinceCode`): its state's city
            city = next((_REGION_CITY[out[k]] for k, kind in kinds.items()
                         if kind == "region" and out.get(k) in _REGION_CITY), None)
        stated = _find_country(out, countries)
        # a region is its city's where the record names no country, before its phone's
        # (a Toronto address with a +1 phone is in Ontario, no US state); its bank and tax
        # ids follow no city (a person may live away from their employer)
        placed = _CITY_OF[city][0] if isinstance(city, str) and city in _CITY_OF else None
        country = stated or _phone_country(out)
        home = stated or placed or country
        if home is None:  # no country but the account's: its BIC is a bank of the IBAN's
            banked = next((out[k][:2] for k, kind in kinds.items() if kind == "iban"
                           and isinstance(out.get(k), str) and out[k][:2] in _BANKS), None)
            for key, kind in kinds.items():  # (no "BARCGB22" beside an IE IBAN)
                if kind == "bic" and banked and key in out and not (
                        overrides and key in overrides):
                    fixed = _fixes(banked, None)["bic"](out[key])
                    out[key] = fixed if checks[key](fixed) else out[key]
            _name_bank(out, kinds, None, checks, overrides)
            return
        fixes = _fixes(country, city) if country else {}
        for key, kind in kinds.items():  # no IBAN where the country has none
            if kind == "iban" and country and country not in IBAN_SHAPES and (
                    key not in required and key in out and not (overrides and key in overrides)):
                del out[key]
        fixes.update({kind: fix for kind, fix in _fixes(home, city).items()
                      if kind in ("region", "region_name")})
        for key, kind in kinds.items():
            if key not in out or (overrides and key in overrides) or kind not in fixes:
                continue
            value = fixes[kind](out[key])
            if value != out[key] and checks[key](value):
                out[key] = value
        for key, keys in (vats or {}).items():
            if isinstance(out.get(key), dict) and country and not (
                    overrides and key in overrides):
                _vat_fix(out[key], keys, country, fixes["tax_id"])
        _name_bank(out, kinds, country, checks, overrides)

    return rule


def _name_bank(out: dict[str, Any], kinds: dict[str, str], country: str | None,
               checks: dict[str, Callable[[Any], bool]],
               overrides: dict[str, Any] | None) -> None:
    """A record's bank name is the bank of its BIC, else one of its country's."""
    code = next((out[k][:4] for k, kind in kinds.items() if kind == "bic"
                 and isinstance(out.get(k), str)), None)
    name = BANK_NAMES.get(code or "") or (
        BANK_NAMES[_BANKS[country][0]] if country in _BANKS else None)
    for key, kind in kinds.items():
        if kind == "bank" and key in out and name and not (overrides and key in overrides) \
                and checks[key](name):
            out[key] = name


# --- a record's sales region ------------------------------------------------------------

# The world region each country sells in (`CUSTOM_FIELDS`' "Sales region" values).
WORLD_REGIONS = {
    **dict.fromkeys(("US", "CA"), "North America"),
    **dict.fromkeys(("BR", "MX"), "LATAM"),
    **dict.fromkeys(("JP", "KR", "SG", "AU", "IN"), "APAC"),
}
_WORLD_REGION_NAMES = frozenset({*WORLD_REGIONS.values(), "EMEA"})
_LABELS = ("name", "label", "key", "title")
_CITY_WORDS = frozenset("city locality town".split())


def world_region(country: str) -> str:
    """The sales region of `country` (`EMEA` for Europe and Africa)."""
    return WORLD_REGIONS.get(country, "EMEA")


def record_country(record: dict[str, Any]) -> str | None:
    """The country a whole record is in: a country field (its own first, then its
    children's, then one in its lists), else its city's or postcode's, else its phone's."""
    found = _find_country(record, [k for k in record if "country" in split_words(k)])
    if found:
        return found
    for key, text in string_leaves(record):
        words = set(split_words(key))
        if "country" in words and (found := country_code(text)):  # in a list of addresses
            return found
        if words & _CITY_WORDS and text in _CITY_OF:
            return _CITY_OF[text][0]
        if words & {"postal", "zip", "postcode", "zipcode"} and (city := _postal_city(text)):
            return _CITY_OF[city][0]
    return _phone_country(record)


# Ids only one country issues (an Australian ABN, ACN or TFN; a Brazilian CNPJ or CPF).
NATIONAL_IDS = {"abn": "AU", "acn": "AU", "tfn": "AU", "cnpj": "BR", "cpf": "BR"}


def agree_with_country(record: dict[str, Any], required: frozenset[str] = frozenset()) -> None:
    """A whole record agrees with its country (`record_country`): its sales region is the
    country's, and an optional id only another country issues is left out (reviewers read
    an Australian ABN and ACN on a Mexico City firm)."""
    issuers = {key: issuer for key in record if key not in required and (
        issuer := next((NATIONAL_IDS[w] for w in split_words(key) if w in NATIONAL_IDS),
                       None)) is not None}
    country = record_country(record) if issuers else None
    for key, issuer in issuers.items():
        if country is not None and issuer != country:
            del record[key]
    agree_sales_region(record)


def agree_sales_region(record: dict[str, Any]) -> None:
    """A record's world region (`sales_region`, a `region` that names one, a custom
    field labelled "Sales region") is its country's: reviewers read "North America" for a
    Tokyo postcode and a Warsaw customer."""
    country = None
    for item in _dicts(record):
        keys = [key for key, value in item.items() if isinstance(value, str) and (
            split_words(key)[-2:] == ["sales", "region"] or (
                "region" in split_words(key) and value in _WORLD_REGION_NAMES))]
        label = next((item[k] for k in _LABELS if isinstance(item.get(k), str)), "")
        if split_words(label) == ["sales", "region"] and isinstance(item.get("value"), str):
            keys.append("value")
        for key in keys:
            country = country or record_country(record)
            if country is None:
                return
            item[key] = world_region(country)


def _dicts(value: Any):
    if isinstance(value, dict):
        yield value
        for sub in value.values():
            yield from _dicts(sub)
    elif isinstance(value, list):
        for sub in value:
            yield from _dicts(sub)


# --- a record's bank account agrees with the record -------------------------------------

def bank_children(props: dict[str, Any], kind_of: Callable[[str, Any], str | None]
                  ) -> dict[str, tuple[dict[str, str], frozenset[str]]]:
    """The children of an object (a `bank_accounts` object, a list of them) whose IBAN or
    BIC (`kind_of` a leaf's key and schema) have no country of their own to follow: key ->
    ({leaf key: "iban" | "bic"}, the child's required keys)."""
    out: dict[str, tuple[dict[str, str], frozenset[str]]] = {}
    for key, sub in props.items():
        if not isinstance(sub, dict):
            continue
        inner = sub.get("items") if isinstance(sub.get("items"), dict) else sub
        leaves = inner.get("properties")
        if not isinstance(leaves, dict):
            continue
        kinds = {leaf: kind for leaf, schema in leaves.items()
                 if (kind := kind_of(leaf, schema)) in ("iban", "bic")}
        if kinds and not any("country" in split_words(leaf) for leaf in leaves):
            out[key] = (kinds, frozenset(inner.get("required") or ()))
    return out


def _listed_country(out: dict[str, Any]) -> str | None:
    """The country of a record's lists (Apideck's `addresses[].country`), its addresses'
    before its phones' (`phone_numbers[].country_code`: a Toronto customer's +1 phone was
    tagged "US")."""
    lists = sorted((key for key, value in out.items() if isinstance(value, list)),
                   key=lambda key: bool(set(split_words(key)) & _PHONES))
    for key in lists:
        for item in out[key]:
            if isinstance(item, dict):
                found = _find_country(item, [k for k in item if "country" in split_words(k)])
                if found:
                    return found
    return None


def bank_in_country(out: dict[str, Any],
                    children: dict[str, tuple[dict[str, str], frozenset[str]]],
                    checks: dict[str, dict[str, Callable[[Any], bool]]],
                    overrides: dict[str, Any] | None) -> None:
    """The IBAN and BIC of a record's bank children (`bank_children`) made those of the
    country the record is in (its own, its addresses', `record_country`): a Tokyo
    customer of Apideck, with Japanese phones, held a BR IBAN beside a BRASBR2L BIC, and 24
    of 26 such records of a run named a bank in another country than all else of theirs."""
    country = _find_country(out, [k for k in out if "country" in split_words(k)]) or \
        _listed_country(out) or record_country(out)
    if country is None:
        return
    fixes = _fixes(country, None)
    for key, (kinds, required) in children.items():
        if overrides and key in overrides:
            continue
        value = out.get(key)
        for child in value if isinstance(value, list) else [value]:
            if not isinstance(child, dict):
                continue
            for leaf, kind in kinds.items():
                if leaf not in child:
                    continue
                if kind == "iban" and country not in IBAN_SHAPES and leaf not in required:
                    del child[leaf]  # (no IBAN where the country has none)
                    continue
                fixed = fixes[kind](child[leaf])
                if checks[key][leaf](fixed):
                    child[leaf] = fixed



# --- a country's codes are one country's ------------------------------------------------

def country_code_rule(kinds: dict[str, str], types: dict[str, str], noun: str,
                      checks: dict[str, Callable[[Any], bool]]) -> Rule | None:
    """For an object with ISO country codes (`kinds`: key -> `country_alpha2`,
    `country_alpha3`), a rule that makes them, and a country object's `name`, one
    country's: API2Cart's `{"code2": "KR", "code3": "GBR", "name": "IE"}` named three."""
    twos = [key for key, kind in kinds.items() if kind == "country_alpha2"]
    threes = [key for key, kind in kinds.items() if kind == "country_alpha3"]
    if not twos and not threes:
        return None
    forms = {key: kinds[key] for key in (*twos, *threes)} | {
        key: "name" for key in types if noun == "country" and split_words(key) == ["name"]}

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        code = next((out[key] for key in twos if out.get(key) in COUNTRIES), None) or next(
            (_ALPHA3[out[key]] for key in threes if out.get(key) in _ALPHA3), None)
        if code is None:
            return
        written = _country_forms(code)
        for key, form in forms.items():
            if key in out and not (overrides and key in overrides) and checks[key](
                    written[form]):
                out[key] = written[form]

    return rule


def _country_forms(code: str) -> dict[str, str]:
    """A country as each kind of field writes it: its ISO codes and its name."""
    return {"country_alpha2": code, "country_alpha3": COUNTRIES[code][1],
            "name": COUNTRIES[code][0]}


def country_children(props: dict[str, Any], kind_of: Callable[[str, Any, str], str | None]
                     ) -> dict[str, dict[str, str]]:
    """An object's country children (Severa's `country: {code3, englishName}`): key ->
    {leaf: "country_alpha2" | "country_alpha3" | "name"}, by `kind_of(leaf, schema,
    resource)` and names ending in `name` (`englishName`)."""
    out: dict[str, dict[str, str]] = {}
    for key, sub in props.items():
        leaves = sub.get("properties") if isinstance(sub, dict) else None
        if split_words(key)[-1:] != ["country"] or not isinstance(leaves, dict):
            continue
        kinds = {leaf: kind for leaf, schema in leaves.items()
                 if (kind := kind_of(leaf, schema, key)) in ("country_alpha2", "country_alpha3")}
        kinds |= {leaf: "name" for leaf in leaves if split_words(leaf)[-1:] == ["name"]}
        if any(kind != "name" for kind in kinds.values()):
            out[key] = kinds
    return out


def country_in_place(out: dict[str, Any], children: dict[str, dict[str, str]],
                     checks: dict[str, dict[str, Callable[[Any], bool]]],
                     overrides: dict[str, Any] | None) -> None:
    """A record's country object names the country its city is in: Severa's user in Seoul
    held `"country": {"code3": "ITA", "englishName": "MX"}`, and an API2Cart address in
    Madrid `{"code3": "GBR", "name": "United Kingdom"}`."""
    city = next((value for key, value in out.items() if isinstance(value, str)
                 and set(split_words(key)) & _CITY_WORDS and value in _CITY_OF), None)
    if city is None:
        return
    values = _country_forms(_CITY_OF[city][0])
    for key, kinds in children.items():
        child = out.get(key)
        if not isinstance(child, dict) or (overrides and key in overrides):
            continue
        for leaf, kind in kinds.items():
            if leaf in child and checks[key][leaf](values[kind]):
                child[leaf] = values[kind]

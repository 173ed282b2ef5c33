"""Generators of the vocabulary kinds `namekinds` reads off field names and descriptions.

Each maker takes the run's `rng` and returns one value; `name_maker(kind, noun)` gives the
maker of one kind for records of `noun` (worked out at compile time, like `vocab.maker`).
Times are `datetime`s around the world's `clock.NOW`, turned into text by `time_text`
in the form the field wants: a date of birth 18-90 years back, an email sent in the last
months, a ship-by date in the coming weeks, a meeting within a few weeks of now.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from compoworld.graph.semtypes import split_words
from compoworld.world.banking import bic
from compoworld.world.clock import NOW
from compoworld.world.words import (
    CITIES,
    COMPANY_NAMES,
    COUNTRIES,
    PRODUCTS,
    SENTENCES,
    company_domain,
)

Maker = Callable[[random.Random], Any]

_NOW = NOW.replace(tzinfo=None)

# --- times -------------------------------------------------------------------------------

# Day ranges around now (from, to) by time kind, and whether the field holds a date only.
TIME_SPANS = {
    "birth": ((-90 * 365, -18 * 365), True),  # an adult's date of birth
    "past": ((-180, -1), False),  # something done: an email sent, a last login
    "future": ((1, 30), True),  # something due: ship by, deliver by
    "when": ((-60, 30), True),  # a plain date of a record
    "event": ((-21, 28), False),  # a meeting, appointment or booking: near now
    "event_day": ((-21, 28), True),  # its day
    "stamp": ((-400, 0), False),  # when a record was created, changed, last seen
}


def time_maker(kind: str) -> Maker:
    """A `datetime` of one time kind (`TIME_SPANS`); meetings start on the quarter hour in
    working hours of a weekday, other instants fall at any minute of the day."""
    (low, high), _ = TIME_SPANS[kind]

    def make(rng: random.Random) -> datetime:
        day = _NOW.replace(hour=0, minute=0, second=0) + timedelta(days=rng.randint(low, high))
        if kind in ("event", "event_day"):  # a weekday, ending by 18:00 (2 hours at most)
            day += timedelta(days=(7 - day.weekday()) % 7 if day.weekday() >= 5 else 0)
            return day + timedelta(hours=rng.randint(8, 15), minutes=rng.choice((0, 15, 30, 45)))
        return day + timedelta(minutes=rng.randrange(24 * 60))

    return make


def time_text(value: datetime, kind: str, type_name: str) -> str:
    """`value` as the field's text: a date for a `date` field (and for a plain string of a
    date-only kind), else an ISO 8601 UTC instant."""
    date_only = type_name == "date" or (type_name != "datetime" and TIME_SPANS[kind][1])
    return value.strftime("%Y-%m-%d" if date_only else "%Y-%m-%dT%H:%M:%SZ")


# --- word lists --------------------------------------------------------------------------

_SENIORITY = "junior mid_level senior lead manager director vice_president executive"
_OFFICE_BRANCHES = ("Head Office", "City Centre", "North Branch", "Airport Branch",
                    "Harbour Road", "West End", "Riverside", "Old Town")
_GIT_BRANCHES = ("main", "develop", "release/2.4", "feature/checkout-redesign",
                 "hotfix/login-timeout", "feature/invoice-export", "staging")
_CODE_NOUNS = frozenset("build deployment commit repository repo pipeline project release "
                        "status environment job run check pull merge tag workflow".split())
_SOURCES = "website referral import manual api email_campaign trade_show partner"
_PROVIDERS = {
    "event": "google microsoft zoom", "meeting": "google microsoft zoom",
    "calendar": "google microsoft", "card": "visa mastercard amex",
    "payment": "stripe paypal adyen", "transaction": "visa mastercard stripe",
    "message": "gmail outlook", "email": "gmail outlook", "": "google microsoft okta",
}
_PAYMENT_PROVIDERS = ("PayPal", "Stripe", "Klarna", "Amazon Pay", "Adyen", "Mollie",
                      "Invoice", "Direct debit")
_VAT_COUNTRIES = ("DE", "FR", "GB", "IE", "NL", "ES", "IT", "HU", "PL")
_REFERRERS = ("https://www.google.com/", "https://www.linkedin.com/", "https://www.bing.com/",
              "https://duckduckgo.com/", "https://www.facebook.com/", "https://t.co/")
_VENUES = ("Conference Room A", "Board Room", "Room 4B", "Zoom", "Google Meet",
           "Microsoft Teams", "Main office, 2nd floor", "Client site", "Phone call")
_SECOND_LINES = ("Suite {n}", "Apt {n}{letter}", "Floor {floor}", "Unit {n}", "Building {letter}")
_ADDITIONS = ("c/o Accounts Payable", "c/o Reception", "2nd floor", "Rear building",
              "Attn: Purchasing")
_TEAMS = ("Sales", "Finance", "Marketing", "Engineering", "Support", "Operations",
          "Customer Success", "Platform")
_PROJECTS = ("Website relaunch", "Q3 onboarding", "ERP migration", "Mobile app",
             "Data warehouse", "Spring campaign")
_LINK_RELS = "self next prev related alternate first last"
# Custom fields people keep on a record: a label and the values it takes. A lone `value`
# takes one of the values; a `name`/`value` pair takes a label and one of its values.
CUSTOM_FIELDS = (
    ("Preferred contact time", ("Mornings", "Afternoons", "Evenings")),
    ("Referral source", ("Trade show", "Website", "Partner referral")),
    ("Account tier", ("Gold", "Silver", "Bronze")),
    ("Payment terms", ("Net 30", "Net 14", "Due on receipt")),
    ("Preferred language", ("English", "German", "French", "Spanish")),
    ("Newsletter", ("Subscribed", "Unsubscribed")),
    ("Sales region", ("EMEA", "North America", "APAC", "LATAM")),  # `banking.WORLD_REGIONS`
    ("Parking needed", ("Yes", "No")),
    ("Dietary requirements", ("None", "Vegetarian", "Vegan", "Gluten-free")),
    ("Colour", ("Red", "Navy", "Black", "White")),
    ("Size", ("S", "M", "L", "XL")),
)
_CUSTOM_VALUES = tuple(value for _, values in CUSTOM_FIELDS for value in values)


def custom_pair(rng: random.Random) -> tuple[str, str]:
    """One custom field's label and a value of it (`("Account tier", "Gold")`)."""
    label, values = rng.choice(CUSTOM_FIELDS)
    return label, rng.choice(values)


# --- makers ------------------------------------------------------------------------------


def _digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(count))


def _pick(words: str | tuple[str, ...]) -> Maker:
    options = tuple(words.split()) if isinstance(words, str) else words
    return lambda rng: rng.choice(options)


def _second_line(rng: random.Random) -> str:
    return rng.choice(_SECOND_LINES).format(n=rng.randint(2, 40) * 10 + rng.randint(0, 9),
                                            letter=rng.choice("ABCDEF"),
                                            floor=rng.randint(2, 12))


def _ical_uid(rng: random.Random) -> str:
    return f"{_hex(rng, 26)}@{rng.choice(('google.com', 'outlook.com', 'calendar.app'))}"


def _hex(rng: random.Random, count: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(count))


def _meeting_link(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"https://zoom.us/j/{rng.randint(10 ** 9, 10 ** 10 - 1)}"
    code = "-".join("".join(rng.choice(string.ascii_lowercase) for _ in range(n))
                    for n in (3, 4, 3))
    return f"https://meet.google.com/{code}"


def _external_id(rng: random.Random) -> str:
    if rng.random() < 0.5:  # a Salesforce record id
        return "0015g" + "".join(rng.choice(string.ascii_letters + string.digits)
                                 for _ in range(13))
    return f"{rng.choice(('CRM', 'ERP', 'HS', 'SHOP'))}-{rng.randint(10000, 99999)}"


def _provider(noun: str) -> Maker:
    return _pick(_PROVIDERS.get(noun) or _PROVIDERS[""])


def _branch(noun: str) -> Maker:
    return _pick(_GIT_BRANCHES if noun in _CODE_NOUNS else _OFFICE_BRANCHES)


def ticker(company: str) -> str:
    """A stock ticker for a company of the cast, as exchanges make them: the initials of
    its name, topped up from its first word to three or four letters (`Northwind Traders`
    -> `NTO`)."""
    words = [w for w in split_words(company) if w.isalpha()] or ["stock"]
    letters = "".join(w[0] for w in words[:4])
    return (letters + words[0][1:])[:max(3, min(4, len(letters)))].upper()


def _company_site(rng: random.Random) -> str:
    return f"https://www.{company_domain(rng.choice(COMPANY_NAMES))}/"


def _ean(rng: random.Random) -> str:
    """An EAN-13 with its check digit."""
    body = "40" + _digits(rng, 10)
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body))
    return body + str(-total % 10)


_CARD_BRANDS = ("VISA", "MASTERCARD", "AMERICAN_EXPRESS", "DISCOVER")
_MCCS = ("5411", "5812", "5999", "7372", "4121", "5732", "8999", "7011")
_NEIGHBOURHOODS = ("Old Town", "Riverside", "Midtown", "Harbour District", "Northside",
                   "West End", "University Quarter", "Market District")
_BANK_NAMES = ("Barclays", "BNP Paribas", "Deutsche Bank", "ING", "HSBC", "Chase",
               "Santander", "Rabobank", "Commerzbank", "AIB")
_TERMS = ("Net 30", "Net 14", "Net 60", "Due on receipt", "End of month")
_ERRORS = ("Card declined", "Insufficient funds", "Request timed out",
           "Invalid postal code", "Authentication failed")
_REVENUES = ("250000", "1200000", "4800000", "15000000", "62000000")
_HEADCOUNTS = ("8", "25", "60", "140", "420", "1200")


def _grouped(rng: random.Random, groups: tuple[int, ...], sep: str) -> str:
    return sep.join(_digits(rng, n) for n in groups)


def _card_bin(rng: random.Random) -> str:
    """The first six digits of a Visa (4) or Mastercard (51-55) number."""
    head = rng.choice(("4", "51", "52", "53", "55"))
    return head + _digits(rng, 6 - len(head))


# Records whose `carrier` runs a phone network, not a parcel service (a text "sent" by
# carrier "FedEx").
_TELECOM = frozenset("message sms mms text number phone call line mobile lookup "
                     "phone_number to from recipient destination".split())  # (a text's
# `to: [{"carrier": "DHL", ...}]`: the ends of a message, whose carriers are networks)


def name_maker(kind: str, noun: str = "") -> Maker | None:
    """The generator of one kind `namekinds` names (None: not one of these kinds)."""
    if kind in TIME_SPANS:
        return time_maker(kind)
    makers: dict[str, Maker] = {
        "extension": lambda rng: str(rng.randint(10, 9999)),
        "seniority": _pick(_SENIORITY),
        "branch": _branch(noun),
        "source": _pick(_SOURCES),
        "provider": _provider(noun),
        "payment_provider": _pick(_PAYMENT_PROVIDERS),
        "restriction": _pick("call email message"),
        "tax_id": lambda rng: f"{rng.choice(_VAT_COUNTRIES)}{_digits(rng, 9)}",
        "company_reg": lambda rng: rng.choice(("HRB ", "", "RC ")) + _digits(rng, 8),
        "bic": lambda rng: bic(rng),
        "country_alpha2": lambda rng: rng.choice(CITIES)[1],
        "country_alpha3": lambda rng: COUNTRIES[rng.choice(CITIES)[1]][1],
        "ical_uid": _ical_uid,
        "meeting_link": _meeting_link,
        "referrer": lambda rng: rng.choice(_REFERRERS + (_company_site(rng),)),
        "external_id": _external_id,
        "record_id": lambda rng: _hex(rng, 24),
        "html": lambda rng: f"<p>{rng.choice(SENTENCES)}</p>",
        "sentence": lambda rng: rng.choice(SENTENCES),
        "line2": _second_line,
        "venue": _pick(_VENUES),
        "team": _pick(_TEAMS),
        "project": _pick(_PROJECTS),
        "cost_center": lambda rng: f"CC-{rng.randint(100, 990)}",
        "link_rel": _pick(_LINK_RELS),
        "object": lambda rng: noun or "object",
        "custom_value": _pick(_CUSTOM_VALUES),
        "addition": _pick(_ADDITIONS),
        "house_number": lambda rng: str(rng.randint(1, 180)) + rng.choice(("", "", "", "a", "b")),
        "ean": _ean,
        "carrier": _pick("Vodafone T-Mobile Verizon AT&T Orange Telefonica Airtel"
                         if noun in _TELECOM else "DHL UPS FedEx DPD GLS USPS"),
        "prefix": lambda rng: f"{(noun or 'inv')[:3].upper()}-",
        "founded": lambda rng: str(rng.randint(1955, 2019)),
        "salutation": _pick("Mr Ms Mrs Dr"),
        "sort_code": lambda rng: _grouped(rng, (2, 2, 2), "-"),
        "auth_code": lambda rng: "".join(rng.choice(string.ascii_uppercase + string.digits)
                                         for _ in range(6)),
        "bank_code": lambda rng: _digits(rng, rng.choice((5, 6, 8))),
        "card_brand": _pick(_CARD_BRANDS),
        "card_bin": _card_bin,
        "last4": lambda rng: _digits(rng, 4),
        "gift_card_number": lambda rng: "7783" + _digits(rng, 12),
        "mcc": _pick(_MCCS),
        "abn": lambda rng: _grouped(rng, (2, 3, 3, 3), " "),
        "acn": lambda rng: _grouped(rng, (3, 3, 3), " "),
        "cnpj": lambda rng: f"{_digits(rng, 2)}.{_digits(rng, 3)}.{_digits(rng, 3)}/0001-"
                            f"{_digits(rng, 2)}",
        "cpf": lambda rng: f"{_digits(rng, 3)}.{_digits(rng, 3)}.{_digits(rng, 3)}-"
                           f"{_digits(rng, 2)}",
        "revenue": _pick(_REVENUES),
        "headcount": _pick(_HEADCOUNTS),
        "neighbourhood": _pick(_NEIGHBOURHOODS),
        "company_name": lambda rng: rng.choice(COMPANY_NAMES),
        "ticker": lambda rng: ticker(rng.choice(COMPANY_NAMES)),
        "bank_name": _pick(_BANK_NAMES),
        "payment_terms": _pick(_TERMS),
        "error_message": _pick(_ERRORS),
        "ledger_code": lambda rng: str(rng.randrange(1000, 8000, 10)),
        "bank_ledger_code": lambda rng: str(rng.randrange(1200, 1300, 10)),  # current assets
        "product_title": lambda rng: rng.choice(PRODUCTS)[0],
        "brand": lambda rng: rng.choice(COMPANY_NAMES).split()[0],
        "middle_initial": lambda rng: rng.choice("ABCDEJLMRS"),
        "name_suffix": _pick(("", "", "Jr.", "Sr.", "II")),
    }
    return makers.get(kind)

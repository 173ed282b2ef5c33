"""Seeded values for every shared type, and whole JSON values built from a JSON Schema.

`generate(type_name, rng, schema)` gives one realistic value of a shared type (`email`,
`money`, `city`, ...; see `semtypes.SHARED_TYPES`) or of a plain JSON type, drawn from
small embedded word lists and shaped by the schema: `enum`/`const` first, then the JSON
`type` (money is a decimal number, integer minor units such as cents, or a `"19.99"`
string), bounds, `multipleOf`, `minLength`/`maxLength` and `pattern`. A `pattern` the
natural value misses is sampled from the regular expression itself (literals, classes,
repeats, groups, alternation; look-arounds are skipped and left to a final check, which
random draws often pass). Back-references are not generated and contradictory schemas
exist, so a value may still miss its schema: that is accepted, and callers that must be
sure validate (the runtime's `State.put` does; the offline world model does).
Contradictory `enum`s (values of the wrong type or past the pattern) are filtered first.

`value_from_schema` builds a whole value for a schema. `compile_schema` turns a schema into
a reusable plan once (semantic types and roles are worked out at compile time), so a
simulated call costs tens of microseconds. Inside one object, fields that describe the
same person (email, first/last name, phone, address, ...) come from one person; fields
with a role prefix (`to_email`, `sender_name`, `owner_email`) get another person per role.
With a `pool` (services/world.py) the people, companies, places and products are the
pool's, so the same person shows up in every service; pool entries are picked with
weights 1/(rank+1), so a few "main cast" members recur across services, which is what
makes cross-service information flow likely. Without a pool they are made on the fly.
"""

from __future__ import annotations

import math
import random
import re
import string
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from hashlib import sha256
from typing import TYPE_CHECKING, Any

import fastjsonschema
import orjson

from compoworld.graph.semtypes import (
    SHARED_TYPES,
    entity_id_type,
    is_entity_id,
    json_type,
    semantic_type,
    singularize,
    split_words,
)

if TYPE_CHECKING:
    from compoworld.services.world import Pool

try:  # the stdlib's regex parser; private, so sampling degrades to "no sample" without it
    import re._constants as _sre_c
    import re._parser as _sre_p
except ImportError:  # pragma: no cover
    _sre_c = _sre_p = None

# --- word lists -------------------------------------------------------------------------

FIRST_NAMES = (
    "Alice Bruno Chloe David Elena Farid Grace Hugo Ines James Keiko Liam Maya Noah Olivia "
    "Pablo Quinn Rosa Samir Tara Umar Vera Wei Ximena Yusuf Zoe Amara Ben Carmen Diego Emma "
    "Felix Hana Ivan Julia Kofi Lena Marco Nadia Oscar Priya Rafael Sofia Tomas Uma Victor "
    "Willa Yara Aiden Mei"
).split()
LAST_NAMES = (
    "Smith Garcia Nguyen Johnson Rossi Dubois Tanaka Okafor Kowalski Silva Patel Kim Novak "
    "Larsen Schmidt Moreau Haddad Fischer Costa Ivanova Andersson Brown Lopez Martin Chen "
    "Singh Walker Bianchi Dupont Yamamoto Mensah Nowak Santos Shah Park Horvat Jensen Weber "
    "Laurent Rahman Wagner Ferreira Kaur Lee Clarke Romano Fournier Sato Adeyemi Hughes"
).split()
COMPANY_NAMES = (
    "Acme Corp", "Globex", "Initech", "Umbrella Analytics", "Stark Logistics", "Wayne Foods",
    "Hooli", "Vandelay Industries", "Soylent Labs", "Tyrell Systems", "Cyberdyne Robotics",
    "Wonka Confectionery", "Aperture Science", "Pied Piper", "Oceanic Airlines",
    "Nakatomi Trading", "Monarch Solutions", "Blue Harbor", "Northwind Traders", "Contoso",
    "Fabrikam", "Tailspin Toys", "Litware", "Bluebird Health",
)
# code: (name, alpha-3, calling code, currency, language)
COUNTRIES = {
    "FR": ("France", "FRA", "33", "EUR", "fr"), "GB": ("United Kingdom", "GBR", "44", "GBP", "en"),
    "US": ("United States", "USA", "1", "USD", "en"), "CA": ("Canada", "CAN", "1", "CAD", "en"),
    "DE": ("Germany", "DEU", "49", "EUR", "de"), "ES": ("Spain", "ESP", "34", "EUR", "es"),
    "IT": ("Italy", "ITA", "39", "EUR", "it"), "NL": ("Netherlands", "NLD", "31", "EUR", "nl"),
    "SE": ("Sweden", "SWE", "46", "SEK", "sv"), "PT": ("Portugal", "PRT", "351", "EUR", "pt"),
    "JP": ("Japan", "JPN", "81", "JPY", "ja"), "KR": ("South Korea", "KOR", "82", "KRW", "ko"),
    "SG": ("Singapore", "SGP", "65", "SGD", "en"), "AU": ("Australia", "AUS", "61", "AUD", "en"),
    "IN": ("India", "IND", "91", "INR", "hi"), "BR": ("Brazil", "BRA", "55", "BRL", "pt"),
    "MX": ("Mexico", "MEX", "52", "MXN", "es"), "NG": ("Nigeria", "NGA", "234", "NGN", "en"),
    "KE": ("Kenya", "KEN", "254", "KES", "en"), "CH": ("Switzerland", "CHE", "41", "CHF", "de"),
    "IE": ("Ireland", "IRL", "353", "EUR", "en"), "PL": ("Poland", "POL", "48", "PLN", "pl"),
}
# city, country, latitude, longitude, time zone
CITIES = (
    ("Paris", "FR", 48.8566, 2.3522, "Europe/Paris"),
    ("London", "GB", 51.5074, -0.1278, "Europe/London"),
    ("New York", "US", 40.7128, -74.006, "America/New_York"),
    ("San Francisco", "US", 37.7749, -122.4194, "America/Los_Angeles"),
    ("Chicago", "US", 41.8781, -87.6298, "America/Chicago"),
    ("Toronto", "CA", 43.6532, -79.3832, "America/Toronto"),
    ("Berlin", "DE", 52.52, 13.405, "Europe/Berlin"),
    ("Madrid", "ES", 40.4168, -3.7038, "Europe/Madrid"),
    ("Rome", "IT", 41.9028, 12.4964, "Europe/Rome"),
    ("Amsterdam", "NL", 52.3676, 4.9041, "Europe/Amsterdam"),
    ("Stockholm", "SE", 59.3293, 18.0686, "Europe/Stockholm"),
    ("Lisbon", "PT", 38.7223, -9.1393, "Europe/Lisbon"),
    ("Tokyo", "JP", 35.6762, 139.6503, "Asia/Tokyo"),
    ("Seoul", "KR", 37.5665, 126.978, "Asia/Seoul"),
    ("Singapore", "SG", 1.3521, 103.8198, "Asia/Singapore"),
    ("Sydney", "AU", -33.8688, 151.2093, "Australia/Sydney"),
    ("Mumbai", "IN", 19.076, 72.8777, "Asia/Kolkata"),
    ("Sao Paulo", "BR", -23.5505, -46.6333, "America/Sao_Paulo"),
    ("Mexico City", "MX", 19.4326, -99.1332, "America/Mexico_City"),
    ("Lagos", "NG", 6.5244, 3.3792, "Africa/Lagos"),
    ("Nairobi", "KE", -1.2921, 36.8219, "Africa/Nairobi"),
    ("Zurich", "CH", 47.3769, 8.5417, "Europe/Zurich"),
    ("Dublin", "IE", 53.3498, -6.2603, "Europe/Dublin"),
    ("Warsaw", "PL", 52.2297, 21.0122, "Europe/Warsaw"),
)
# `#` a digit, `?` an upper-case letter; countries not listed use five digits.
POSTAL_FORMATS = {"GB": "?## #??", "CA": "?#? #?#", "NL": "#### ??", "JP": "###-####",
                  "SE": "### ##", "PT": "####-###", "BR": "#####-###", "IE": "?## ?###",
                  "PL": "##-###", "AU": "####", "CH": "####", "SG": "######", "IN": "######"}
STREETS = ("Oak Maple Cedar Elm Pine Willow Birch Chestnut Harbor Lake Hill Park Mill River "
           "Station Church King Queen Market Garden").split()
STREET_KINDS = ("Street", "Avenue", "Road", "Lane", "Boulevard", "Way", "Drive")
PRODUCTS = (
    ("Wireless Mouse", 24.99), ("Mechanical Keyboard", 89.0), ("USB-C Hub", 39.5),
    ("Noise-Cancelling Headphones", 199.0), ("Standing Desk", 449.0),
    ("Ergonomic Chair", 329.0), ("4K Monitor", 379.99), ("Laptop Sleeve", 29.0),
    ("HD Webcam", 59.9), ("Coffee Grinder", 74.0), ("Espresso Beans 1kg", 18.5),
    ("Running Shoes", 120.0), ("Yoga Mat", 35.0), ("Water Bottle", 16.0), ("Backpack", 79.0),
    ("Desk Lamp", 45.0), ("Notebook Set", 12.5), ("Fountain Pen", 64.0),
    ("Bluetooth Speaker", 99.0), ("Phone Case", 19.99), ("Smart Watch", 249.0),
    ("Travel Mug", 22.0), ("Plant Pot", 14.0), ("Board Game", 39.0),
)
CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "SEK", "INR", "BRL", "SGD")
LANGUAGES = ("en", "fr", "de", "es", "it", "pt", "ja", "ko", "nl", "sv", "hi", "pl", "zh")
TITLE_HEADS = ("Quarterly", "Weekly", "Annual", "Draft", "Final", "Updated", "Team", "Client",
               "Product", "Regional")
TITLE_TOPICS = ("budget review", "launch plan", "status update", "design sync", "hiring plan",
                "sales report", "roadmap", "onboarding checklist", "invoice summary",
                "travel itinerary", "support ticket", "marketing brief", "release notes",
                "security audit", "contract renewal")
SENTENCES = (
    "Please review the attached proposal before Friday.",
    "The shipment left the warehouse this morning.",
    "Can we move our call to next Tuesday afternoon?",
    "Thanks for the quick turnaround on the invoice.",
    "The new pricing takes effect at the start of next month.",
    "I have shared the latest figures with the finance team.",
    "Let me know if the delivery address has changed.",
    "We are on track to finish the migration this week.",
    "The customer asked for a refund on the second order.",
    "Remember to update the roadmap after the planning session.",
    "Our office will be closed on the public holiday.",
    "The report highlights a steady rise in returning users.",
    "Could you confirm the meeting room booking?",
    "The contract renewal is due at the end of the quarter.",
    "Feedback from the pilot group was mostly positive.",
    "I added two more items to the agenda.",
)
WORDS = ("alpha amber anchor apex atlas beacon birch canyon cedar comet coral delta ember "
         "falcon fern forest galaxy harbor horizon island jade lagoon lotus maple meadow "
         "nova orbit pebble prairie quartz raven ridge river sierra solar summit tide "
         "timber violet willow zenith").split()
FILE_EXTENSIONS = ("pdf", "docx", "xlsx", "csv", "png", "jpg", "txt", "json", "zip", "md")

_EPOCH = datetime(2024, 1, 1)
_SPAN_SECONDS = 3 * 365 * 86400

# --- pool entities -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """A city-level place with one street address in it."""

    city: str
    country: str
    latitude: float
    longitude: float
    timezone: str
    address: str
    postal_code: str

    @property
    def currency(self) -> str:
        return COUNTRIES[self.country][3]

    @property
    def language(self) -> str:
        return COUNTRIES[self.country][4]


@dataclass(frozen=True, slots=True)
class Company:
    """A company with its web domain and head office."""

    name: str
    domain: str
    url: str
    email: str
    phone: str
    place: Place


@dataclass(frozen=True, slots=True)
class Person:
    """A person who works for a company and lives at an address."""

    first_name: str
    last_name: str
    name: str
    email: str
    phone: str
    username: str
    address: str
    postal_code: str
    company: Company
    place: Place


@dataclass(frozen=True, slots=True)
class Product:
    """A product with a price."""

    title: str
    price: float
    currency: str
    description: str


def derive_seed(*parts: str | int | bytes) -> int:
    """A 64-bit seed from the SHA-256 of the parts (never Python's salted `hash`)."""
    raw = b"\x1f".join(p if isinstance(p, bytes) else str(p).encode() for p in parts)
    return int.from_bytes(sha256(raw).digest()[:8], "big")


def _slug(text: str, sep: str = "-") -> str:
    return sep.join(re.findall(r"[a-z0-9]+", text.lower()))


def _domain(company: str) -> str:
    words = [w for w in re.findall(r"[a-z0-9]+", company.lower()) if w not in ("corp", "inc")]
    return "-".join(words) + ".com"


def _digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(count))


def _phone(rng: random.Random, country: str) -> str:
    code = COUNTRIES[country][2]
    return f"+{code}{rng.randint(2, 9)}{_digits(rng, 9 - len(code) + 1)}"  # E.164, 11 digits


def _street(rng: random.Random) -> str:
    return f"{rng.randint(1, 250)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}"


def _postal_code(rng: random.Random, country: str) -> str:
    shape = POSTAL_FORMATS.get(country, "#####")
    return "".join(
        rng.choice(string.digits) if c == "#" else rng.choice(string.ascii_uppercase)
        if c == "?" else c for c in shape
    )


def make_place(rng: random.Random, row: tuple | None = None) -> Place:
    """A place in one of `CITIES` (a random one unless `row` is given)."""
    city, country, lat, lon, tz = row or rng.choice(CITIES)
    return Place(city, country, lat, lon, tz, _street(rng), _postal_code(rng, country))


def make_company(rng: random.Random, name: str | None = None, place: Place | None = None):
    """A company: name, domain (`acme.com`), url, contact email and phone, head office."""
    name = name or rng.choice(COMPANY_NAMES)
    place = place or make_place(rng)
    domain = _domain(name)
    return Company(name, domain, f"https://www.{domain}", f"contact@{domain}",
                   _phone(rng, place.country), place)


def make_person(
    rng: random.Random,
    first: str | None = None,
    last: str | None = None,
    company: Company | None = None,
    place: Place | None = None,
) -> Person:
    """A person whose email is `first.last@<company domain>`."""
    first = first or rng.choice(FIRST_NAMES)
    last = last or rng.choice(LAST_NAMES)
    company = company or make_company(rng)
    place = place or make_place(rng)
    number = rng.randint(1, 99)
    username = rng.choice(
        (f"{first}{last[0]}", f"{first[0]}{last}", f"{first}.{last}", f"{first}{number}")
    ).lower()
    return Person(first, last, f"{first} {last}", f"{first}.{last}@{company.domain}".lower(),
                  _phone(rng, place.country), username, _street(rng),
                  _postal_code(rng, place.country), company, place)


def make_product(rng: random.Random, row: tuple[str, float] | None = None) -> Product:
    """A product of `PRODUCTS` with its price in a common currency."""
    title, price = row or rng.choice(PRODUCTS)
    currency = rng.choice(("USD", "USD", "EUR", "GBP"))
    return Product(title, price, currency, f"{title}. {rng.choice(SENTENCES)}")


@lru_cache(maxsize=64)
def _cum_weights(count: int) -> tuple[float, ...]:
    total, out = 0.0, []
    for rank in range(count):
        total += 1.0 / (rank + 1)
        out.append(total)
    return tuple(out)


def pick_weighted(rng: random.Random, items: Sequence[Any]) -> Any:
    """One item, rank r weighted 1/(r+1): the first few recur (the world's "main cast")."""
    return rng.choices(items, cum_weights=_cum_weights(len(items)))[0]


def sample_weighted(rng: random.Random, items: Sequence[Any], k: int) -> list[Any]:
    """`k` distinct items weighted like `pick_weighted` (repeating once all are used)."""
    keyed = sorted(range(len(items)), key=lambda r: -rng.random() ** (r + 1))
    order = [items[r] for r in keyed]
    return [order[i % len(order)] for i in range(k)] if order else []


# --- one value of one type --------------------------------------------------------------


def _title(rng: random.Random) -> str:
    return f"{rng.choice(TITLE_HEADS)} {rng.choice(TITLE_TOPICS)}"


def _instant(rng: random.Random) -> datetime:
    return _EPOCH + timedelta(minutes=rng.randrange(_SPAN_SECONDS // 60))


_MAKERS: dict[str, Callable[[random.Random], Any]] = {
    "email": lambda r: make_person(r).email,
    "phone": lambda r: _phone(r, rng_country(r)),
    "url": lambda r: f"https://www.{_domain(r.choice(COMPANY_NAMES))}/{_slug(_title(r))}",
    "uuid": lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "datetime": lambda r: _instant(r).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "date": lambda r: _instant(r).strftime("%Y-%m-%d"),
    "time": lambda r: f"{r.randint(7, 19):02d}:{r.choice((0, 15, 30, 45)):02d}:00Z",
    "ipv4": lambda r: ".".join(str(n) for n in (r.randint(11, 223), *r.choices(range(256), k=3))),
    "ipv6": lambda r: "2001:db8:" + ":".join(f"{r.getrandbits(16):x}" for _ in range(6)),
    "hostname": lambda r: _domain(r.choice(COMPANY_NAMES)),
    "country": lambda r: rng_country(r),
    "currency": lambda r: r.choice(CURRENCIES),
    "money": lambda r: round(r.choice((1, 10, 100)) * r.uniform(1, 9.99), 2),
    "first_name": lambda r: r.choice(FIRST_NAMES),
    "last_name": lambda r: r.choice(LAST_NAMES),
    "person_name": lambda r: f"{r.choice(FIRST_NAMES)} {r.choice(LAST_NAMES)}",
    "username": lambda r: make_person(r).username,
    "company": lambda r: r.choice(COMPANY_NAMES),
    "city": lambda r: r.choice(CITIES)[0],
    "address": _street,
    "postal_code": lambda r: _postal_code(r, rng_country(r)),
    "latitude": lambda r: round(r.choice(CITIES)[2] + r.uniform(-0.05, 0.05), 4),
    "longitude": lambda r: round(r.choice(CITIES)[3] + r.uniform(-0.05, 0.05), 4),
    "language": lambda r: r.choice(LANGUAGES),
    "timezone": lambda r: r.choice(CITIES)[4],
    "filename": lambda r: f"{_slug(_title(r))}.{r.choice(FILE_EXTENSIONS)}",
    "title": _title,
    "text": lambda r: " ".join(r.sample(SENTENCES, r.randint(1, 3))),
    "string": lambda r: r.choice(WORDS),
    "integer": lambda r: r.randint(1, 100),
    "number": lambda r: round(r.uniform(1, 1000), 2),
    "boolean": lambda r: r.random() < 0.5,
    "object": lambda r: {},
    "array": lambda r: [],
    "null": lambda r: None,
}
assert set(SHARED_TYPES) <= set(_MAKERS), "every shared type needs a generator"

_FORMAT_TYPES = {"email": "email", "idn-email": "email", "date-time": "datetime",
                 "date": "date", "time": "time", "uri": "url", "iri": "url", "uuid": "uuid",
                 "ipv4": "ipv4", "ipv6": "ipv6", "hostname": "hostname",
                 "idn-hostname": "hostname"}


def rng_country(rng: random.Random) -> str:
    """A random ISO 3166 alpha-2 code among `CITIES`' countries."""
    return rng.choice(CITIES)[1]


def generate(type_name: str, rng: random.Random, schema: dict[str, Any] | None = None) -> Any:
    """One value of a shared or plain JSON type, respecting `schema` when given."""
    schema = schema if isinstance(schema, dict) else {}
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(usable_enum(schema))
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _FORMAT_TYPES and _kind(schema) in (None, "string"):
        type_name = _FORMAT_TYPES[fmt]
    maker = _MAKERS.get(type_name) or _MAKERS.get(_kind(schema) or "string") or _MAKERS["string"]
    return conform(maker(rng), type_name, schema, rng)


_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool), "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
}


def usable_enum(schema: dict[str, Any]) -> list[Any]:
    """The `enum` values that also meet the schema's type, length and pattern (real specs
    contradict themselves: string enums under `type: integer`, values past a pattern);
    values converted to the type when none fits as it is; the whole enum as a last resort.
    """
    values = schema["enum"]
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    checks = [_JSON_TYPES[k] for k in kinds if k in _JSON_TYPES]

    def fits(value: Any) -> bool:
        if checks and not any(check(value) for check in checks):
            return False
        if isinstance(value, str):
            low, high = schema.get("minLength"), schema.get("maxLength")
            if (isinstance(low, int) and len(value) < low) or (
                    isinstance(high, int) and len(value) > high):
                return False
            return not isinstance(schema.get("pattern"), str) or _matches(schema["pattern"],
                                                                          value)
        return True

    good = [v for v in values if fits(v)]
    if not good and "integer" in kinds:
        good = [int(v) for v in values if isinstance(v, str) and re.fullmatch(r"-?\d+", v)]
    return good or list(values)


def _kind(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null" if kind else None)
    return kind if isinstance(kind, str) else None


def conform(value: Any, type_name: str, schema: dict[str, Any], rng: random.Random) -> Any:
    """Shape a natural value to the schema: JSON type, bounds, lengths, pattern."""
    kind = _kind(schema)
    if kind == "integer":
        if type_name == "money" and isinstance(value, float):
            value = round(value * 100)  # integer amounts are minor units (cents), as in Stripe
        elif isinstance(value, bool) or not isinstance(value, int | float):
            digits = re.sub(r"\D", "", str(value))[:9]
            value = int(digits) if digits else rng.randint(1, 100)
        return _bound_number(int(round(value)), schema, rng, integer=True)
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            value = round(rng.uniform(1, 1000), 2)
        digits = 4 if type_name in ("latitude", "longitude") else 2
        return _bound_number(value, schema, rng, integer=False, digits=digits)
    if kind == "boolean":
        return value if isinstance(value, bool) else rng.random() < 0.5
    if kind == "null":
        return None
    if kind in ("object", "array"):
        wanted = dict if kind == "object" else list
        return value if isinstance(value, wanted) else _MAKERS[kind](rng)
    if kind == "string" or (kind is None and isinstance(value, str)):
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, float) and type_name == "money":
            value = f"{value:.2f}"
        return _fit_string(str(value), type_name, schema, rng)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _bound_number(value, schema, rng, integer=isinstance(value, int))
    return value


def _bound_number(
    value: float, schema: dict[str, Any], rng: random.Random, *, integer: bool, digits: int = 2
) -> float:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    xlo, xhi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(xlo, bool):  # draft-4 form: the flag makes `minimum` exclusive
        xlo, lo = (lo if xlo else None), (None if xlo else lo)
    if isinstance(xhi, bool):
        xhi, hi = (hi if xhi else None), (None if xhi else hi)
    low = _num(lo)
    high = _num(hi)
    step = 1 if integer else 0.01
    if _num(xlo) is not None:
        low = max(low, _num(xlo) + step) if low is not None else _num(xlo) + step
    if _num(xhi) is not None:
        high = min(high, _num(xhi) - step) if high is not None else _num(xhi) - step
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            value = rng.randint(low, max(low, high)) if integer else rng.uniform(low, high)
        elif low is not None:
            value = low + (rng.randint(0, 99) if integer else rng.uniform(0, 100))
        else:
            value = high - (rng.randint(0, 99) if integer else rng.uniform(0, 100))
    multiple = _num(schema.get("multipleOf"))
    if multiple:
        count = math.ceil(value / multiple) if low is not None else round(value / multiple)
        if high is not None and count * multiple > high:
            count = math.floor(high / multiple)
        value = count * multiple if integer else round(count * multiple, 10)
    if not integer and isinstance(value, float):
        rounded = round(value, digits)
        ok = (low is None or rounded >= low) and (high is None or rounded <= high)
        value = rounded if ok and not multiple else value
    return int(value) if integer else value


def _num(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _fit_string(value: str, type_name: str, schema: dict[str, Any], rng: random.Random) -> str:
    low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    if type_name == "country" and value in COUNTRIES:
        if low == 3 and high == 3:
            value = COUNTRIES[value][1]
        elif low > 3:
            value = COUNTRIES[value][0]
    elif type_name == "language" and low > 2 and len(value) == 2:
        value = f"{value}-{rng_country(rng)}"
    if high is not None and len(value) > high:
        value = value[:high].rstrip() or value[:high]
    if len(value) < low:
        value += "".join(rng.choice(string.ascii_lowercase) for _ in range(low - len(value)))
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not _matches(pattern, value):
        sample = sample_pattern(pattern, rng, low, high)
        if sample is not None:
            value = sample
    return value


def _matches(pattern: str, value: str) -> bool:
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return True  # cannot check: let the validator decide


# --- strings from a regular expression --------------------------------------------------

_PRINTABLE = string.ascii_letters + string.digits


class _Unsupported(Exception):
    pass


def sample_pattern(
    pattern: str, rng: random.Random, min_length: int = 0, max_length: int | None = None
) -> str | None:
    """A string that `re.search(pattern, s)` accepts within the length bounds, or None
    (back-references are not generated, look-arounds only checked; see the module
    docstring).

    Repeats first take 0-3 extra rounds; when that misses the length bounds, every open
    repeat takes `cap` rounds, with `cap` found by bisection (`^[0-9a-f]+$` of length 40).
    """
    if _sre_p is None:
        return None
    try:
        parsed = _sre_p.parse(pattern)
    except (re.error, RecursionError, ValueError, OverflowError):
        return None

    def attempt(cap: int | None) -> str | None:
        out: list[str] = []
        _emit(parsed, rng, out, cap)
        return "".join(out)

    try:
        low, high = 0, max(min_length, 1) + 8
        for step in range(14):
            text = attempt(None if step < 4 else (low + high) // 2)
            if len(text) < min_length:
                low = (low + high) // 2 + 1 if step >= 4 else low
            elif max_length is not None and len(text) > max_length:
                high = (low + high) // 2 - 1 if step >= 4 else high
            elif _matches(pattern, text):
                return text
            if low > high:
                break
    except _Unsupported:
        return None
    return None


def _emit(items: Iterable[tuple[Any, Any]], rng: random.Random, out: list[str],
          cap: int | None) -> None:
    c = _sre_c
    for op, arg in items:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.NOT_LITERAL:
            out.append(next(ch for ch in _PRINTABLE if ord(ch) != arg))
        elif op is c.ANY:
            out.append(rng.choice(_PRINTABLE))
        elif op is c.IN:
            out.append(_from_class(arg, rng))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = arg
            count = rng.randint(low, min(high, low + 3)) if cap is None else min(
                high, max(low, cap))
            for _ in range(count):
                _emit(sub, rng, out, cap)
        elif op is c.SUBPATTERN:
            _emit(arg[-1], rng, out, cap)
        elif op is c.BRANCH:
            _emit(rng.choice(arg[1]), rng, out, cap)
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue  # anchors; look-arounds are left to the final check (often met by luck)
        else:  # back-references, conditionals
            raise _Unsupported(str(op))


def _from_class(items: list[tuple[Any, Any]], rng: random.Random) -> str:
    negate = bool(items) and items[0][0] is _sre_c.NEGATE
    members = items[1:] if negate else items
    pool = [ch for ch in _CLASS_CANDIDATES if _in_class(ch, members) != negate]
    if not pool and not negate:  # only characters beyond ASCII: take one from the class
        pool = [chr(arg if op is _sre_c.LITERAL else arg[0])
                for op, arg in members if op in (_sre_c.LITERAL, _sre_c.RANGE)]
    if not pool:
        raise _Unsupported("class")
    return rng.choice(pool)


def _in_class(ch: str, items: list[tuple[Any, Any]]) -> bool:
    c, code = _sre_c, ord(ch)
    for op, arg in items:
        if op is c.LITERAL and arg == code:
            return True
        if op is c.RANGE and arg[0] <= code <= arg[1]:
            return True
        if op is c.CATEGORY and _CATEGORY_TEST.get(arg, lambda _: False)(ch):
            return True
    return False


_CLASS_CANDIDATES = string.ascii_letters + string.digits + "-_. +:/@"
_CATEGORY_TEST: dict[Any, Callable[[str], bool]] = (
    {} if _sre_c is None else {
        _sre_c.CATEGORY_DIGIT: str.isdigit,
        _sre_c.CATEGORY_NOT_DIGIT: lambda ch: not ch.isdigit(),
        _sre_c.CATEGORY_SPACE: str.isspace,
        _sre_c.CATEGORY_NOT_SPACE: lambda ch: not ch.isspace(),
        _sre_c.CATEGORY_WORD: lambda ch: ch.isalnum() or ch == "_",
        _sre_c.CATEGORY_NOT_WORD: lambda ch: not (ch.isalnum() or ch == "_"),
    }
)


# --- whole values from a JSON Schema ----------------------------------------------------

MAX_DEPTH = 4
# Chance that an optional property is present, by object nesting level; none past MAX_DEPTH.
_OPTIONAL_P = (0.9, 0.6, 0.4, 0.25)
_WRAPPERS = frozenset(
    "data items results result value values records response payload entries list objects "
    "content body elements hits nodes node edges rows collection item record entry element "
    "row object edge".split()
)
_PERSON = frozenset({"email", "phone", "first_name", "last_name", "person_name", "username"})
_PLACE = frozenset({"address", "city", "postal_code", "country", "timezone", "latitude",
                    "longitude", "language"})
_PRODUCTISH = frozenset("product item sku listing offer plan good variant article book "
                        "price line_item order_item cart_item".split())
# Words that say what a field is rather than whose it is: `to_email` -> role `to`.
_TYPE_WORDS = frozenset(
    "email mail address addr name first last full given family sur surname phone number "
    "mobile telephone tel cell fax user username login handle display nick nickname city town "
    "country code zip postal post postcode zipcode lat latitude lng lon long longitude "
    "timezone time zone tz language lang locale company organization organisation org "
    "employer business url uri website web site homepage home page domain host hostname "
    "street line 1 2 iso alpha nationality currency location geo coordinates coordinate "
    "position details detail info information title subject headline description text body "
    "content message comment note notes summary bio amount price cost fee balance subtotal "
    "total unit".split()
)
# Roles that are the record's own person: `contact_email` and `email` are one person.
_MAIN_ROLES = frozenset("contact customer user person primary main personal work billing "
                        "shipping mailing physical profile account member client default "
                        "my self".split())
# A `name` in these objects is a person's name (semtypes only knows collection names).
_PERSON_NOUNS = frozenset("sender recipient owner author assignee organizer organiser creator "
                          "reporter manager attendee participant user contact customer member "
                          "employee person from to cc bcc reviewer approver speaker driver "
                          "buyer seller requester invitee guest".split())
_SITE_WORDS = frozenset("url uri website web site homepage home page company link".split())

_FROM: dict[str, dict[str, Callable[[Any], Any]]] = {
    "person": {
        "email": lambda p: p.email, "phone": lambda p: p.phone,
        "first_name": lambda p: p.first_name, "last_name": lambda p: p.last_name,
        "person_name": lambda p: p.name, "username": lambda p: p.username,
        "address": lambda p: p.address, "postal_code": lambda p: p.postal_code,
        "company": lambda p: p.company.name, "hostname": lambda p: p.company.domain,
        "url": lambda p: p.company.url, "city": lambda p: p.place.city,
        "country": lambda p: p.place.country, "timezone": lambda p: p.place.timezone,
        "latitude": lambda p: p.place.latitude, "longitude": lambda p: p.place.longitude,
        "language": lambda p: p.place.language, "currency": lambda p: p.place.currency,
    },
    "company": {
        "company": lambda c: c.name, "hostname": lambda c: c.domain, "url": lambda c: c.url,
        "email": lambda c: c.email, "phone": lambda c: c.phone,
        "address": lambda c: c.place.address, "postal_code": lambda c: c.place.postal_code,
        "city": lambda c: c.place.city, "country": lambda c: c.place.country,
        "timezone": lambda c: c.place.timezone, "latitude": lambda c: c.place.latitude,
        "longitude": lambda c: c.place.longitude, "language": lambda c: c.place.language,
        "currency": lambda c: c.place.currency,
    },
    "place": {
        "address": lambda p: p.address, "postal_code": lambda p: p.postal_code,
        "city": lambda p: p.city, "country": lambda p: p.country,
        "timezone": lambda p: p.timezone, "latitude": lambda p: p.latitude,
        "longitude": lambda p: p.longitude, "language": lambda p: p.language,
        "currency": lambda p: p.currency,
    },
    "product": {
        "title": lambda p: p.title, "money": lambda p: p.price,
        "currency": lambda p: p.currency, "text": lambda p: p.description,
    },
}
_POOL_FIELDS = {"person": "people", "company": "companies", "place": "places",
                "product": "products"}
_MAKE_ENTITY: dict[str, Callable[[random.Random], Any]] = {
    "person": make_person, "company": make_company, "place": make_place,
    "product": make_product,
}

Sampler = Callable[["_Ctx", dict], Any]


class _Ctx:
    """What one sampling run shares: the rng, the pool, known ids, anchors, echoes."""

    __slots__ = ("rng", "pool", "ids", "anchor", "overrides")

    def __init__(self, rng, pool, ids, anchor, overrides) -> None:
        self.rng = rng
        self.pool = pool
        self.ids = ids
        self.anchor = anchor
        self.overrides = overrides


@dataclass(frozen=True, slots=True)
class _Flags:
    """Which entities an object's own leaf fields describe (decides where values come from)."""

    person: bool = False
    company: bool = False
    place: bool = False
    product: bool = False


_NO_FLAGS = _Flags()


def _role(name: str) -> str:
    role = "_".join(w for w in split_words(name) if w not in _TYPE_WORDS)
    return "" if role in _MAIN_ROLES else role


def _source(type_name: str, name: str, flags: _Flags) -> str | None:
    """Which pool entity a field's value comes from (None: generate it freely)."""
    if flags.product and type_name in _FROM["product"]:
        return "product"
    if type_name in _PERSON:
        return "person"
    if type_name == "url" and not set(split_words(name)) <= _SITE_WORDS:
        return None  # `avatar_url`, `next_url`: not the owner's web site
    if type_name in _PLACE or type_name in ("company", "hostname", "url", "currency"):
        if flags.person:
            return "person"
        if flags.company:
            return "company"
        if type_name in _PLACE or (type_name == "currency" and flags.place):
            return "place"
        return "company" if type_name != "currency" else None
    return None


def _draw(ctx: _Ctx, source: str, scope: dict) -> Any:
    if ctx.pool is None:
        return _MAKE_ENTITY[source](ctx.rng)
    items = getattr(ctx.pool, _POOL_FIELDS[source])
    if not items:
        return _MAKE_ENTITY[source](ctx.rng)
    taken = scope.values()
    found = pick_weighted(ctx.rng, items)
    for _ in range(4):  # another role of the same record: prefer another entity
        if found not in taken:
            break
        found = pick_weighted(ctx.rng, items)
    return found


def _entity(ctx: _Ctx, scope: dict, source: str, role: str) -> Any:
    key = (source, role)
    found = scope.get(key)
    if found is None:
        found = ctx.anchor.pop(source, None) if ctx.anchor else None
        if found is None:
            found = _draw(ctx, source, scope)
        scope[key] = found
    return found


def _child_scope(parent: dict) -> dict:
    """A new object's scope: its own entities, but it avoids its parent's (another party)."""
    return {("taken", index): entity for index, entity in enumerate(parent.values())}


def _copy(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value)) if isinstance(value, dict | list) else value


class _Check:
    """Whether a value validates against a schema (fastjsonschema, compiled on first use)."""

    __slots__ = ("schema", "fn")

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.fn: Any = None

    def __call__(self, value: Any) -> bool:
        if self.fn is None:
            try:
                self.fn = fastjsonschema.compile(self.schema, use_default=False)
            except Exception:  # noqa: BLE001 - an uncompilable schema accepts no echo
                self.fn = False
        if self.fn is False:
            return False
        try:
            self.fn(value)
        except fastjsonschema.JsonSchemaException:
            return False
        return True


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = {**base, **{k: v for k, v in extra.items() if k not in ("properties", "required")}}
    if "properties" in base or "properties" in extra:
        out["properties"] = {**(base.get("properties") or {}), **(extra.get("properties") or {})}
    required = [*(base.get("required") or []), *(extra.get("required") or [])]
    if required:
        out["required"] = list(dict.fromkeys(r for r in required if isinstance(r, str)))
    return out


def _is_leaf(schema: dict[str, Any]) -> bool:
    if any(k in schema for k in ("oneOf", "anyOf", "allOf")) and "enum" not in schema:
        return False
    return "enum" in schema or "const" in schema or json_type(schema) not in ("object", "array")


def _compile(schema: Any, name: str | None, service: str, resource: str | None, depth: int,
             flags: _Flags = _NO_FLAGS, in_array: bool = False, inherit: bool = False,
             type_name: str | None = None) -> Sampler:
    if schema is False:
        return lambda ctx, scope: None
    schema = schema if isinstance(schema, dict) else {}
    if "const" in schema:
        const = schema["const"]
        return lambda ctx, scope: _copy(const)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        values = usable_enum(schema)
        return lambda ctx, scope: _copy(ctx.rng.choice(values))
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {}
        for branch in schema["allOf"]:
            merged = _merge(merged, branch if isinstance(branch, dict) else {})
        outer = {k: v for k, v in schema.items() if k != "allOf"}
        return _compile(_merge(merged, outer), name, service, resource, depth, flags, in_array,
                        inherit)
    for word in ("oneOf", "anyOf"):
        if isinstance(schema.get(word), list) and schema[word]:
            return _compile_branches(schema, word, name, service, resource, depth, flags,
                                     in_array, inherit)
    kind = _kind(schema)
    if kind is None:
        if "properties" in schema or "additionalProperties" in schema:
            kind = "object"
        elif "items" in schema:
            kind = "array"
        elif any(k in schema for k in ("minimum", "maximum", "multipleOf")):
            kind = "number"
        elif not name and not any(k in schema for k in ("format", "pattern", "minLength")):
            return lambda ctx, scope: {}  # an unnamed "anything": an empty object
        else:
            schema, kind = {**schema, "type": "string"}, "string"
    if kind == "object":
        return _compile_object(schema, service, resource, depth, in_array, flags, inherit)
    if kind == "array":
        return _compile_array(schema, name, service, resource, depth)
    if isinstance(schema.get("x-parent"), str):  # a link field the compiler added
        type_name = entity_id_type(service, schema["x-parent"])
    type_name = type_name or semantic_type(name or "", schema, service=service,
                                           resource=resource)
    if is_entity_id(type_name):
        return _compile_id(type_name, schema)
    source = _source(type_name, name or "", flags)
    if source is None:
        return lambda ctx, scope: generate(type_name, ctx.rng, schema)
    getter, role = _FROM[source][type_name], _role(name or "")

    def sample(ctx: _Ctx, scope: dict) -> Any:
        value = getter(_entity(ctx, scope, source, role))
        return conform(value, type_name, schema, ctx.rng)

    return sample


def _compile_branches(schema, word, name, service, resource, depth, flags, in_array,
                      inherit) -> Sampler:
    outer = {k: v for k, v in schema.items() if k != word}
    samplers = [
        _compile(_merge(branch, outer), name, service, resource, depth, flags, in_array, inherit)
        for branch in schema[word][:10] if isinstance(branch, dict)
    ] or [lambda ctx, scope: {}]
    check = _Check(schema) if word == "oneOf" and len(samplers) > 1 else None

    rounds = 3 if check is not None else 1  # overlapping branches: optional fields differ

    def sample(ctx: _Ctx, scope: dict) -> Any:
        value = None
        for _ in range(rounds):
            for index in ctx.rng.sample(range(len(samplers)), len(samplers)):
                value = samplers[index](ctx, scope)
                if check is None or check(value):
                    return value
        return value

    return sample


def _compile_object(schema, service, resource, depth, in_array, parent: _Flags = _NO_FLAGS,
                    inherit: bool = False) -> Sampler:
    """An object sampler. With `inherit` (a part of its parent such as `address` or
    `customer`, not another party such as `sender`), it shares the parent's entities."""
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = {r for r in schema.get("required") or () if isinstance(r, str)}
    leaf_types = {
        key: semantic_type(key, sub, service=service, resource=resource)
        for key, sub in props.items() if isinstance(sub, dict) and _is_leaf(sub)
    }
    kinds = set(leaf_types.values())
    noun = "_".join(singularize(w) for w in split_words(resource or "")[-2:])
    if kinds & _PERSON or noun.split("_")[-1] in _PERSON_NOUNS:
        for key, kind in leaf_types.items():
            if kind == "title" and split_words(key)[-1:] == ["name"]:
                leaf_types[key] = "person_name"
        kinds = set(leaf_types.values())
    flags = _Flags(
        person=bool(kinds & _PERSON) or parent.person,
        company=bool(kinds & {"company", "hostname"}) or parent.company,
        place=bool(kinds & _PLACE) or parent.place,
        product=(noun in _PRODUCTISH or noun.split("_")[-1] in _PRODUCTISH
                 or {"title", "money"} <= kinds) and not kinds & _PERSON,
    )
    own_id = f"{service}." if resource else None
    entries = []
    for key, sub in props.items():
        if isinstance(sub, dict) and not _is_leaf(sub):
            owner = resource if key in _WRAPPERS else key
            part = not in_array and _role(key) == "" and key not in _WRAPPERS
            sampler = _compile(sub, key, service, owner, depth + 1,
                               flags if part else _NO_FLAGS, inherit=part)
        else:
            sampler = _compile(sub, key, service, resource, depth, flags, in_array,
                               type_name=leaf_types.get(key))
        kind = leaf_types.get(key, "")
        echo = not (in_array and (key == "id" or (own_id and kind.startswith(own_id))))
        entries.append((key, sampler, key in required, echo, _Check(sub)))
    additional = schema.get("additionalProperties", True)
    if additional is not False:
        extra_schema = additional if isinstance(additional, dict) else {"type": "string"}
        for key in sorted(required - props.keys()):
            sampler = _compile(extra_schema, key, service, resource, depth + 1)
            entries.append((key, sampler, True, True, _Check(extra_schema)))
    map_values = (
        _compile(additional, None, service, resource, depth + 1)
        if not props and isinstance(additional, dict) and additional and depth < MAX_DEPTH
        else None
    )
    chance = _OPTIONAL_P[depth] if depth < MAX_DEPTH else 0.0

    def sample(ctx: _Ctx, parent_scope: dict) -> dict[str, Any]:
        rng, overrides, out = ctx.rng, ctx.overrides, {}
        scope = parent_scope if inherit else _child_scope(parent_scope)
        for key, sub, needed, echo, check in entries:
            if overrides and echo and key in overrides and check(overrides[key]):
                out[key] = _copy(overrides[key])
            elif needed or (chance and rng.random() < chance):
                out[key] = sub(ctx, scope)
        if map_values is not None:
            for key in rng.sample(WORDS, rng.randint(1, 2)):
                out.setdefault(key, map_values(ctx, {}))
        return out

    return sample


def _compile_array(schema, name, service, resource, depth) -> Sampler:
    items = schema.get("items")
    words = split_words(name or "")
    item_name = "_".join([*words[:-1], singularize(words[-1])]) if words else None
    owner = resource if not name or name in _WRAPPERS or item_name in _WRAPPERS else item_name
    fixed = items if isinstance(items, list) else schema.get("prefixItems")
    if isinstance(fixed, list):  # tuple form (draft 4-7 `items`, 2020-12 `prefixItems`)
        position = [_compile(s, item_name, service, owner, depth, in_array=True) for s in fixed]
    else:
        position = []
    item = _compile(items if isinstance(items, dict) else {"type": "string"}, item_name,
                    service, owner, depth, in_array=True)
    low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
    high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
    unique = schema.get("uniqueItems") is True
    stub = isinstance(items, dict) and not items.get("properties") and (
        items.get("x-recursive") or items.get("x-truncated"))
    if depth >= MAX_DEPTH or stub:  # no list of empty stand-ins for a cut-off schema
        least, most = low, low
    else:
        least = max(low, 1 if high is None or high >= 1 else 0)
        most = max(least, min(3, high) if high is not None else 3)

    def sample(ctx: _Ctx, scope: dict) -> list[Any]:
        count = ctx.rng.randint(least, most)
        out: list[Any] = []
        seen: set[bytes] = set()
        for index in range(count):
            make = position[index] if index < len(position) else item
            for _ in range(4 if unique else 1):
                value = make(ctx, _child_scope(scope))
                key = orjson.dumps(value, option=orjson.OPT_SORT_KEYS) if unique else b""
                if key not in seen:
                    break
            if unique and key in seen:
                continue
            seen.add(key)
            out.append(value)
        return out

    return sample


def _compile_id(type_name: str, schema: dict[str, Any]) -> Sampler:
    kind = _kind(schema) or "string"
    shaped = any(key in schema for key in ("format", "pattern", "minLength", "maxLength"))
    fits = _Check(schema) if shaped else None  # a known id must also meet the field's shape
    prefix = type_name.split(".")[1][:3]

    def sample(ctx: _Ctx, scope: dict) -> Any:
        rng = ctx.rng
        known = ctx.ids.get(type_name) if ctx.ids else None
        if known:
            value = rng.choice(known)
            if kind == "integer" and not isinstance(value, int):
                digits = re.sub(r"\D", "", str(value))
                value = int(digits) if digits else rng.randint(1, 9999)
            elif kind == "string":
                value = str(value)
            if fits is None or fits(value):
                return value
        if shaped:
            return generate("string", rng, schema)
        if kind in ("integer", "number"):
            return conform(rng.randint(1, 9999), "integer", schema, rng)
        return conform(f"{prefix}_{rng.randint(1, 9999):04d}", "string", schema, rng)

    return sample


class ValuePlan:
    """A schema compiled once; calling it draws one value (see `value_from_schema`)."""

    __slots__ = ("schema", "_sample")

    def __init__(self, schema: Any, sample: Sampler) -> None:
        self.schema = schema
        self._sample = sample

    def __call__(
        self,
        rng: random.Random,
        *,
        pool: Pool | None = None,
        ids: dict[str, list[Any]] | None = None,
        anchor: dict[str, Any] | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> Any:
        ctx = _Ctx(rng, pool, ids, dict(anchor) if anchor else None, overrides)
        return self._sample(ctx, {})


_PLANS: dict[tuple[Any, ...], ValuePlan] = {}


def compile_schema(
    schema: Any,
    *,
    name: str | None = None,
    service: str = "",
    resource: str | None = None,
    depth: int = 0,
) -> ValuePlan:
    """Compile a schema into a `ValuePlan` (memoized on a hash of its canonical JSON)."""
    try:
        text = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
        key: tuple[Any, ...] | None = (sha256(text).digest(), name, service, resource, depth)
    except TypeError:
        key = None
    plan = _PLANS.get(key) if key is not None else None
    if plan is None:
        plan = ValuePlan(schema, _compile(schema, name, service, resource, depth))
        if key is not None:
            if len(_PLANS) >= 4096:
                _PLANS.clear()
            _PLANS[key] = plan
    return plan


def value_from_schema(
    schema: Any,
    rng: random.Random,
    *,
    name: str | None = None,
    service: str = "",
    resource: str | None = None,
    pool: Pool | None = None,
    depth: int = 0,
    ids: dict[str, list[Any]] | None = None,
    anchor: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
) -> Any:
    """A JSON value valid against `schema`, realistic field by field.

    Objects get their required properties and some optional ones (fewer deeper down, only
    required ones past `MAX_DEPTH` levels); arrays get 1-3 items within min/maxItems;
    `x-recursive` / `x-truncated` stubs become `{}`; `oneOf` branches are tried until one
    validates. `name`, `service` and `resource` give each field its semantic type as
    `semtypes.semantic_type` does. `pool` supplies people, companies, places and products;
    `ids` maps entity id types (`crm.contacts.id`) to ids that exist; `anchor` maps
    `person`/`company`/`place`/`product` to the entity the first matching field group
    uses; `overrides` are values echoed into same-named properties where they validate.
    """
    plan = compile_schema(schema, name=name, service=service, resource=resource, depth=depth)
    return plan(rng, pool=pool, ids=ids, anchor=anchor, overrides=overrides)


def index_pool(pool: Pool | None) -> dict[str, tuple[str, Any]]:
    """Lower-cased identifying strings (emails, names, cities, ...) -> (kind, entity)."""
    index: dict[str, tuple[str, Any]] = {}
    for row in CITIES:  # known cities anchor a place even without a pool
        index[row[0].lower()] = ("place", make_place(random.Random(derive_seed("city", row[0])),
                                                     row))
    if pool is None:
        return index
    for place in pool.places:
        index[place.city.lower()] = ("place", place)
    for product in pool.products:
        index[product.title.lower()] = ("product", product)
    for company in pool.companies:
        for text in (company.name, company.domain, company.url):
            index[text.lower()] = ("company", company)
    for person in pool.people:
        for text in (person.email, person.name, person.username, person.phone):
            index[text.lower()] = ("person", person)
    return index


def find_anchor(values: Iterable[Any], index: dict[str, tuple[str, Any]]) -> dict[str, Any]:
    """The entities that some of `values` name (first match per kind)."""
    anchor: dict[str, Any] = {}
    for value in values:
        if isinstance(value, str) and value:
            hit = index.get(value.lower())
            if hit is not None:
                anchor.setdefault(hit[0], hit[1])
    return anchor

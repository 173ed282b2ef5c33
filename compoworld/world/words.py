"""Embedded word lists and the entities made from them: people, companies, places, products.

The lists (first and last names, companies, countries, cities, streets, products, titles,
sentences, ...) are small and fixed, so every value is reproducible from a seed. A
`Person` works for a `Company` and lives at a `Place`; `make_person` and friends draw one
with a given `rng`. `pick_weighted` / `sample_weighted` pick pool entries with weights
1/(rank+1), so a few "main cast" members recur across services (services/world.py).
"""

from __future__ import annotations

import random
import re
import string
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from compoworld.world.phones import national_number

# --- word lists -------------------------------------------------------------------------

FIRST_NAMES = (
    "Alice Bruno Chloe David Elena Farid Grace Hugo Ines James Keiko Liam Maya Noah Olivia "
    "Pablo Quinn Rosa Samir Tara Umar Vera Wei Ximena Yusuf Zoe Amara Ben Carmen Diego Emma "
    "Felix Hana Ivan Julia Kofi Lena Marco Nadia Oscar Priya Rafael Sofia Tomas Uma Victor "
    "Willa Yara Aiden Mei"
).split()
# The first names of women (the others are men's): `Person.gender`, their salutation.
FEMALE_NAMES = frozenset(
    "Alice Chloe Elena Grace Ines Keiko Maya Olivia Quinn Rosa Tara Vera Ximena Zoe Amara "
    "Carmen Emma Hana Julia Lena Nadia Priya Sofia Uma Willa Yara Mei".split()
)
# (no surname of one gender: "Liam Ivanova", or "Ivan Kowalski" for a woman, reads as made up)
LAST_NAMES = (
    "Smith Garcia Nguyen Johnson Rossi Dubois Tanaka Okafor Petrenko Silva Patel Kim Novak "
    "Larsen Schmidt Moreau Haddad Fischer Costa Murphy Andersson Brown Lopez Martin Chen "
    "Singh Walker Bianchi Dupont Yamamoto Mensah Nowak Santos Shah Park Horvat Jensen Weber "
    "Laurent Rahman Wagner Ferreira Kaur Lee Clarke Romano Fournier Sato Adeyemi Hughes"
).split()
# Companies as small businesses are named, none of fiction's ("Tyrell
# Systems", "Wonka Confectionery", "Aperture Science" mark a world as synthetic).
COMPANY_NAMES = (
    "Alder Analytics", "Bayside Logistics", "Brightline Studio", "Cobalt Systems",
    "Copperleaf Foods", "Driftwood Hospitality", "Evergreen Health", "Fairway Consulting",
    "Granite Peak Builders", "Harborview Trading", "Ironbridge Manufacturing", "Juniper Labs",
    "Keystone Legal", "Lakeside Toys", "Maplewood Interiors", "Meridian Freight",
    "Oakridge Supply", "Pinecrest Software", "Quarry Lane Bakery", "Redwood Robotics",
    "Silverline Travel", "Summit Outdoor", "Tidewater Energy", "Willow & Finch",
)
# Last words of a company's name that say what it does: its short name leaves them out
# (`Alder Analytics` is `Alder`; `Willow & Finch` stays whole).
_TRADE_WORDS = frozenset("Analytics Logistics Studio Systems Foods Hospitality Health "
                         "Consulting Builders Trading Manufacturing Labs Legal Toys Interiors "
                         "Freight Supply Software Bakery Robotics Travel Outdoor Energy Corp "
                         "Industries Science Airlines Solutions Traders".split())


def short_company_name(name: str) -> str:
    """A company's short name (`Umbrella` for `Umbrella Analytics`, `Hooli` for itself)."""
    words = name.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1] in _TRADE_WORDS else name


# What each company does (`Company.industry`): a person's `company_industry` agrees.
COMPANY_INDUSTRIES = {
    "Alder Analytics": "Data & Analytics", "Bayside Logistics": "Logistics",
    "Brightline Studio": "Design", "Cobalt Systems": "IT Services",
    "Copperleaf Foods": "Food & Beverage", "Driftwood Hospitality": "Hospitality",
    "Evergreen Health": "Healthcare", "Fairway Consulting": "Consulting",
    "Granite Peak Builders": "Construction", "Harborview Trading": "Wholesale",
    "Ironbridge Manufacturing": "Manufacturing", "Juniper Labs": "Research",
    "Keystone Legal": "Legal Services", "Lakeside Toys": "Toys & Games",
    "Maplewood Interiors": "Interior Design", "Meridian Freight": "Logistics",
    "Oakridge Supply": "Wholesale", "Pinecrest Software": "Software",
    "Quarry Lane Bakery": "Food & Beverage", "Redwood Robotics": "Robotics",
    "Silverline Travel": "Travel", "Summit Outdoor": "Retail",
    "Tidewater Energy": "Energy", "Willow & Finch": "Retail",
}
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
# Each city's region (state, province, county) as its ISO 3166-2 code without the country.
CITY_REGIONS = {
    "Paris": "IDF", "London": "ENG", "New York": "NY", "San Francisco": "CA", "Chicago": "IL",
    "Toronto": "ON", "Berlin": "BE", "Madrid": "MD", "Rome": "RM", "Amsterdam": "NH",
    "Stockholm": "AB", "Lisbon": "11", "Tokyo": "13", "Seoul": "11", "Singapore": "01",
    "Sydney": "NSW", "Mumbai": "MH", "Sao Paulo": "SP", "Mexico City": "CMX", "Lagos": "LA",
    "Nairobi": "30", "Zurich": "ZH", "Dublin": "D", "Warsaw": "MZ",
}
# Each region's name, for a field that wants it written out (`stateName`), by its country
# and code: a code alone is not one region (`11` is Lisbon in Portugal, Seoul in Korea).
REGION_NAMES = {
    ("FR", "IDF"): "Ile-de-France", ("GB", "ENG"): "England", ("US", "NY"): "New York",
    ("US", "CA"): "California", ("US", "IL"): "Illinois", ("CA", "ON"): "Ontario",
    ("DE", "BE"): "Berlin", ("ES", "MD"): "Madrid", ("IT", "RM"): "Lazio",
    ("NL", "NH"): "North Holland", ("SE", "AB"): "Stockholm County", ("PT", "11"): "Lisbon",
    ("JP", "13"): "Tokyo", ("KR", "11"): "Seoul", ("SG", "01"): "Singapore",
    ("AU", "NSW"): "New South Wales", ("IN", "MH"): "Maharashtra", ("BR", "SP"): "Sao Paulo",
    ("MX", "CMX"): "Mexico City", ("NG", "LA"): "Lagos", ("KE", "30"): "Nairobi",
    ("CH", "ZH"): "Zurich", ("IE", "D"): "Dublin", ("PL", "MZ"): "Masovia",
}
# `#` a digit, `?` an upper-case letter; countries not listed use five digits.
POSTAL_FORMATS = {"GB": "?## #??", "CA": "?#? #?#", "NL": "#### ??", "JP": "###-####",
                  "SE": "### ##", "PT": "####-###", "BR": "#####-###", "IE": "?## ?###",
                  "PL": "##-###", "AU": "####", "CH": "####", "SG": "######", "IN": "######"}
# Postal codes of each city's own range (`#` a digit, `?` a letter), so a zip agrees with it.
CITY_POSTAL = {
    "Paris": "750##", "London": "EC#? #??", "New York": "100##", "San Francisco": "941##",
    "Chicago": "606##", "Toronto": "M5? #?#", "Berlin": "10###", "Madrid": "280##",
    "Rome": "001##", "Amsterdam": "10## ??", "Stockholm": "1## ##", "Lisbon": "1###-###",
    "Tokyo": "1##-####", "Seoul": "0####", "Singapore": "0#####", "Sydney": "2000",
    "Mumbai": "400###", "Sao Paulo": "0####-###", "Mexico City": "0####", "Lagos": "100###",
    "Nairobi": "00###", "Zurich": "80##", "Dublin": "D0# ?#??", "Warsaw": "0#-###",
}
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
# Titles by the record they name (`vocab.titled`): an invoice is "March consulting services"
# and a ticket "Refund delay", not "Quarterly support ticket" and "Team design sync".
# Each is a head and a topic, two draws like the generic title's.
_MEETINGS = (("Quarterly", "Weekly", "Team", "Client", "Product", "Annual", "Monthly",
              "Regional"),
             ("planning meeting", "budget review", "product demo", "onboarding call",
              "design review", "sales kickoff", "check-in", "training session",
              "strategy workshop", "retrospective"))
_BILLED = (("March", "April", "May", "June", "Q3", "Q4", "Annual", "Monthly"),
           ("consulting services", "website redesign", "support plan", "cloud hosting",
            "office supplies", "design work", "training workshop", "software licences",
            "marketing campaign", "maintenance contract"))
_TICKETS = (("Billing", "Login", "Checkout", "Delivery", "Account", "Refund", "Password reset",
             "Mobile app"),
            ("issue", "question", "problem", "error", "request", "delay"))
_TODOS = (("Send", "Prepare", "Review", "Update", "Follow up on", "Schedule"),
          ("the contract", "the quarterly report", "the price list", "the supplier order",
           "the onboarding plan", "the client proposal", "the invoice batch"))
_DEALS = (("Enterprise", "Annual", "Team", "Starter", "Premium"),
          ("plan renewal", "licence deal", "upgrade", "expansion", "pilot"))
# A pull request says what it changes; a release is a version.
_CHANGES = (("Fix", "Add", "Refactor", "Update", "Remove", "Speed up"),
            ("login redirect", "checkout validation", "invoice export", "search indexing",
             "payment retries", "email templates", "API rate limits", "mobile navigation"))
# (one head: "Release 2.1.0" and "Version 2.1.0" would be one version twice)
_VERSIONS = (("Release",),
             tuple(f"{major}.{minor}.{patch}" for major in (1, 2, 3, 4)
                   for minor in (0, 2, 4, 7, 9) for patch in (0, 1, 3)))
# A project is a piece of work with an end ("CRM migration"), no product ("Fountain Pen");
# a project's section is where its to-dos are kept ("Client follow-ups"), no report title
# ("Draft invoice summary"), so a request that names where a task goes reads as a team's habit.
_PROJECTS = (("Website", "Mobile app", "Customer portal", "CRM", "Warehouse", "Office",
              "Brand", "Data platform", "Payroll", "Intranet"),
             ("redesign", "launch", "migration", "rollout", "refresh", "upgrade"))
# (as many heads of our own work as of our customers': with five of seven customer-facing,
# one board in five held no list a colleague's follow-up could go in)
_SECTIONS = (("Client", "Customer", "Sales", "Support", "Partner", "Team", "Internal",
              "Operations", "People", "Office"),
             ("follow-ups", "to-dos", "requests", "backlog", "open items", "actions"))
TITLES_BY_NOUN = {
    "project": _PROJECTS,
    "section": _SECTIONS,
    **dict.fromkeys(("event", "meeting", "appointment", "call", "webinar", "session",
                     "booking", "activity"), _MEETINGS),
    **dict.fromkeys(("invoice", "bill", "estimate", "quote", "expense", "receipt"), _BILLED),
    **dict.fromkeys(("ticket", "issue", "case", "incident", "conversation"), _TICKETS),
    **dict.fromkeys(("task", "todo"), _TODOS),
    **dict.fromkeys(("deal", "opportunity"), _DEALS),
    **dict.fromkeys(("pull", "pullrequest"), _CHANGES),
    **dict.fromkeys(("release", "version"), _VERSIONS),
}
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
# What a product's description says after its name: a line of a shop's listing, never a
# note to a colleague (no "Smart Watch. Remember to update the roadmap").
PRODUCT_LINES = (
    "Ships within two working days.",
    "Comes with a two-year warranty.",
    "One of our best sellers.",
    "Free returns within 30 days.",
    "Built to last for everyday use.",
    "A customer favourite, back in stock.",
)
WORDS = ("alpha amber anchor apex atlas beacon birch canyon cedar comet coral delta ember "
         "falcon fern forest galaxy harbor horizon island jade lagoon lotus maple meadow "
         "nova orbit pebble prairie quartz raven ridge river sierra solar summit tide "
         "timber violet willow zenith").split()
FILE_EXTENSIONS = ("pdf", "docx", "xlsx", "csv", "png", "jpg", "txt", "json", "zip", "md")

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

    @property
    def region(self) -> str:
        """The city's state, province or county code (`CA` for San Francisco)."""
        return CITY_REGIONS[self.city]

    @property
    def region_name(self) -> str:
        """The city's region written out (`California`), as `administrative_district_level_2`
        or `stateName` says it: the same place's, no other city's."""
        return REGION_NAMES[(self.country, self.region)]

    @property
    def location(self) -> str:
        """The city and its country, as a location field says it (`Berlin, Germany`)."""
        return f"{self.city}, {COUNTRIES[self.country][0]}"


@dataclass(frozen=True, slots=True)
class Company:
    """A company with its web domain and head office."""

    name: str
    domain: str
    url: str
    email: str
    phone: str
    place: Place

    @property
    def industry(self) -> str:
        """What the company does (`Software`)."""
        return COMPANY_INDUSTRIES.get(self.name, "Consulting")

    @property
    def tax_id(self) -> str:
        """Its VAT number in its country (`DE123456789`; a US company's EIN, `12-3456789`),
        the same wherever it is written."""
        digits = f"{zlib.crc32(self.name.encode()) % 10 ** 9:09d}"
        if self.place.country == "US":
            return f"{digits[:2]}-{digits[2:]}"
        return f"{self.place.country}{digits}"


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

    @property
    def gender(self) -> str:
        """`female` or `male`, by their first name (`FEMALE_NAMES`)."""
        return "female" if self.first_name in FEMALE_NAMES else "male"

    @property
    def other_emails(self) -> tuple[str, ...]:
        """Their own addresses beside the work one (`elena.garcia@gmail.com`), the same
        wherever they are written."""
        first, last = self.first_name.lower(), self.last_name.lower()
        return (f"{first}.{last}@gmail.com", f"{first}{last[0]}@outlook.com",
                f"{first[0]}{last}@proton.me")


@dataclass(frozen=True, slots=True)
class Product:
    """A product with a price."""

    title: str
    price: float
    currency: str
    description: str


def slugify(text: str, sep: str = "-") -> str:
    """Lower-case alphanumeric runs joined by `sep` (`"Q3 Plan"` -> `"q3-plan"`)."""
    return sep.join(re.findall(r"[a-z0-9]+", text.lower()))


def company_domain(company: str) -> str:
    """A company's web domain (`"Acme Corp"` -> `"acme.com"`)."""
    words = [w for w in re.findall(r"[a-z0-9]+", company.lower()) if w not in ("corp", "inc")]
    return "-".join(words) + ".com"


def make_phone(rng: random.Random, country: str, landline: bool = False) -> str:
    """An E.164 phone number in `country` (ISO alpha-2): its calling code and a national
    number of the country's length and leading digits (`phones.SHAPES`), a mobile unless
    `landline` (a company's office line)."""
    return f"+{COUNTRIES[country][2]}{national_number(rng, country, landline)}"


def phone_country(phone: str) -> str | None:
    """The country (ISO alpha-2) of an E.164 number by its calling code, the longest that
    matches (`+351...` is Portugal, not a `+3`); the first of a shared code (`+1`: US)."""
    digits = phone.removeprefix("+") if isinstance(phone, str) and phone.startswith("+") else ""
    codes = sorted(((info[2], code) for code, info in COUNTRIES.items()),
                   key=lambda pair: -len(pair[0]))
    return next((code for prefix, code in codes if digits.startswith(prefix)), None)


def make_street(rng: random.Random) -> str:
    """A street address line (`"12 Oak Avenue"`)."""
    return f"{rng.randint(1, 250)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}"


def make_postal_code(rng: random.Random, country: str, city: str | None = None) -> str:
    """A postal code of `city`'s range (`CITY_POSTAL`), else shaped like `country`'s
    (`POSTAL_FORMATS`, else five digits)."""
    shape = CITY_POSTAL.get(city or "") or POSTAL_FORMATS.get(country, "#####")
    return "".join(
        rng.choice(string.digits) if c == "#" else rng.choice(string.ascii_uppercase)
        if c == "?" else c for c in shape
    )


def make_place(rng: random.Random, row: tuple | None = None) -> Place:
    """A place in one of `CITIES` (a random one unless `row` is given)."""
    city, country, lat, lon, tz = row or rng.choice(CITIES)
    return Place(city, country, lat, lon, tz, make_street(rng),
                 make_postal_code(rng, country, city))


def make_company(rng: random.Random, name: str | None = None, place: Place | None = None):
    """A company: name, domain (`acme.com`), url, contact email and phone, head office."""
    name = name or rng.choice(COMPANY_NAMES)
    place = place or make_place(rng)
    domain = company_domain(name)
    return Company(name, domain, f"https://www.{domain}", f"contact@{domain}",
                   make_phone(rng, place.country, landline=True), place)


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
                  make_phone(rng, place.country), username, make_street(rng),
                  make_postal_code(rng, place.country, place.city), company, place)


def make_product(rng: random.Random, row: tuple[str, float] | None = None) -> Product:
    """A product of `PRODUCTS` with its price in a common currency."""
    title, price = row or rng.choice(PRODUCTS)
    currency = rng.choice(("USD", "USD", "EUR", "GBP"))
    return Product(title, price, currency, f"{title}. {rng.choice(PRODUCT_LINES)}")


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


"""What every built-in service shares: the record base, field types and the seeded world.

Field types carry the JSON Schema hints the dependency graph reads (`format: email`,
`format: date-time`, an E.164 `pattern` on phones), so a CRM contact's `email` and an email
message's `to` get the same semantic type without anyone writing a schema by hand.

The *world* is one record in the `world` collection of a service's state: the fixed
`now` and the user the tools act for. Tools read it (never a clock); a state without it
falls back to `DEFAULT_WORLD`. `people(seed)` draws the pool of people that every
service's example state reuses, so with one seed the same person is a CRM contact, an
email sender and a chat member.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

WORLD = "world"
DEFAULT_WORLD: dict[str, Any] = {
    "id": "world",
    "now": "2025-03-03T09:00:00Z",
    "user_email": "me@example.com",
    "user_name": "Sam Taylor",
    "user_phone": "+15550100000",
}


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


EmailAddress = Annotated[
    str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", json_schema_extra={"format": "email"})
]
PhoneNumber = Annotated[str, Field(pattern=r"^\+[1-9][0-9]{6,14}$")]
Url = Annotated[str, Field(pattern=r"^https?://\S+$", json_schema_extra={"format": "uri"})]
DateTime = Annotated[datetime, AfterValidator(_utc)]
CurrencyCode = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
Amount = Annotated[float, Field(gt=0, le=1_000_000_000)]
Text = Annotated[str, Field(min_length=1, max_length=5000)]
Name = Annotated[str, Field(min_length=1, max_length=200)]
Limit = Annotated[int, Field(ge=1, le=100)]


class Record(BaseModel):
    """Base of built-in records: no extra fields, every field present in a stored record."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


def world(state_collections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The world record of a state's collections (`DEFAULT_WORLD` when there is none)."""
    return {**DEFAULT_WORLD, **state_collections.get(WORLD, {}).get("world", {})}


def matches(query: str | None, *texts: object) -> bool:
    """Case-insensitive substring search over some fields; no query matches everything."""
    if not query:
        return True
    needle = query.lower()
    return any(needle in str(text).lower() for text in texts if text is not None)


def newest_first(messages: list[Any], limit: int) -> list[Any]:
    """The `limit` most recent messages (by `sent_at`, then id), newest first."""
    return sorted(messages, key=lambda m: (m.sent_at, m.id), reverse=True)[:limit]


@dataclass(frozen=True, slots=True)
class Person:
    """One person of the seeded pool (person 0 is the world's user)."""

    first_name: str
    last_name: str
    email: str
    phone: str
    company: str
    city: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True, slots=True)
class City:
    """A city of the seeded pool, with its centre."""

    name: str
    country: str
    latitude: float
    longitude: float


FIRST_NAMES = ("Ada", "Bruno", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines",
               "Jonas", "Kemi", "Liam", "Maya", "Noor", "Omar", "Priya", "Quinn", "Rosa",
               "Sven", "Tara")
LAST_NAMES = ("Abara", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad",
              "Ito", "Jensen", "Kowalski", "Lopez", "Moreau", "Nakamura", "Okafor", "Patel",
              "Rossi", "Silva", "Tanaka", "Varga")
COMPANIES = (("Acme Logistics", "acme-logistics.com"), ("Bluefin Analytics", "bluefin.io"),
             ("Cedar Health", "cedarhealth.org"), ("Delta Robotics", "deltarobotics.com"),
             ("Evergreen Foods", "evergreenfoods.com"), ("Fjord Studio", "fjord.studio"),
             ("Granite Bank", "granitebank.com"), ("Helix Labs", "helixlabs.dev"))
CITIES = (City("Lisbon", "PT", 38.7223, -9.1393), City("Berlin", "DE", 52.52, 13.405),
          City("Toronto", "CA", 43.6532, -79.3832), City("Austin", "US", 30.2672, -97.7431),
          City("Osaka", "JP", 34.6937, 135.5023), City("Nairobi", "KE", -1.2921, 36.8219),
          City("Melbourne", "AU", -37.8136, 144.9631), City("Madrid", "ES", 40.4168, -3.7038))
STREETS = ("Oak Street", "Harbour Road", "Market Square", "Station Avenue", "Mill Lane",
           "Park Row", "River Walk", "Castle Hill")


def people(seed: int, count: int = 8) -> list[Person]:
    """The seeded pool of distinct people shared by every service's example state."""
    rng = random.Random(f"compoworld-people-{seed}")
    firsts = rng.sample(FIRST_NAMES, count)
    lasts = rng.sample(LAST_NAMES, count)
    out = []
    for first, last in zip(firsts, lasts, strict=True):
        company, domain = rng.choice(COMPANIES)
        phone = f"+1{rng.randint(200, 989)}555{rng.randint(1000, 9999)}"
        out.append(Person(first, last, f"{first}.{last}@{domain}".lower(), phone, company,
                          rng.choice(CITIES).name))
    return out


def world_record(seed: int) -> dict[str, Any]:
    """The world record of a seeded example state: a fixed `now` and person 0 as user."""
    user = people(seed)[0]
    return {**DEFAULT_WORLD, "user_email": user.email, "user_name": user.name,
            "user_phone": user.phone}

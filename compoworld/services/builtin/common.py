"""What every built-in service shares: the record base, field types and the seeded world.

Field types carry the JSON Schema hints the dependency graph reads (`format: email`,
`format: date-time`, an E.164 `pattern` on phones), so a CRM contact's `email` and an email
message's `to` get the same semantic type without anyone writing a schema by hand.

The *world* is one record in the `world` collection of a service's state: the fixed
`now` (`world.clock`) and the user the tools act for. Tools read it (never a clock); a
state without it falls back to `DEFAULT_WORLD`. `people(seed)` is the world's own cast
(`world.seeding.draw_pool`), shared with the corpus services, so with one seed the same
person is a CRM contact, an email sender, a chat member and a corpus service's customer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from compoworld.world.clock import NOW_TEXT
from compoworld.world.seeding import draw_pool
from compoworld.world.words import CITIES as WORLD_CITIES
from compoworld.world.words import STREET_KINDS
from compoworld.world.words import STREETS as WORLD_STREETS

WORLD = "world"
DEFAULT_WORLD: dict[str, Any] = {
    "id": "world",
    "now": NOW_TEXT,
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
    """One person of the world's cast as the built-in records use them (person 0 is the
    world's user)."""

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
    """A city of the world's cast, with its centre."""

    name: str
    country: str
    latitude: float
    longitude: float


CITIES = tuple(City(name, country, lat, lon) for name, country, lat, lon, *_ in WORLD_CITIES)
STREETS = tuple(f"{name} {kind}" for name, kind in zip(WORLD_STREETS, STREET_KINDS * 9,
                                                        strict=False))


def people(seed: int, count: int = 8) -> list[Person]:
    """The first `count` people of the world's cast (`world.seeding.draw_pool(seed)`), the
    same people the corpus services' records are drawn from: with one seed, a built-in CRM
    contact can be a corpus mail service's recipient."""
    cast = draw_pool(seed).people[:count]
    return [Person(p.first_name, p.last_name, p.email, p.phone, p.company.name, p.place.city)
            for p in cast]


def world_record(seed: int) -> dict[str, Any]:
    """The world record of a seeded example state: a fixed `now` and person 0 as user."""
    user = people(seed)[0]
    return {**DEFAULT_WORLD, "user_email": user.email, "user_name": user.name,
            "user_phone": user.phone}

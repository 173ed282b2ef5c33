"""Maps: places with an address, city and coordinates; nearby search and saved places."""

from __future__ import annotations

import math
import random
from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from compoworld.services.builtin.common import (
    CITIES,
    STREETS,
    DateTime,
    Name,
    Person,
    PhoneNumber,
    Record,
    Url,
    matches,
)
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict

Category = Literal["cafe", "restaurant", "hotel", "museum", "park", "office", "shop", "station"]
Latitude = Annotated[float, Field(ge=-90, le=90)]
Longitude = Annotated[float, Field(ge=-180, le=180)]
Radius = Annotated[float, Field(gt=0, le=100)]


class Place(Record):
    """One place on the map."""

    id: str = Field(description="Place id.")
    name: str = Field(description="Name of the place.")
    category: Category = Field(description="Kind of place.")
    address: str = Field(description="Street address.")
    city: str = Field(description="City the place is in.")
    country: str = Field(description="ISO 3166 country code.")
    latitude: float = Field(description="Latitude in degrees.")
    longitude: float = Field(description="Longitude in degrees.")
    phone: PhoneNumber | None = Field(default=None, description="Phone number, E.164.")
    url: Url | None = Field(default=None, description="Website, if any.")
    rating: float | None = Field(default=None, description="Average rating from 1 to 5.")


class NearbyPlace(Place):
    """A place found near another one, with its distance."""

    distance_km: float = Field(description="Straight-line distance in kilometres.")


class SavedPlace(Record):
    """A place the user saved, with a note."""

    id: str = Field(description="Saved place id.")
    place_id: str = Field(description="Id of the place saved.")
    note: str | None = Field(default=None, description="The user's note, if any.")
    saved_at: DateTime = Field(description="When it was saved (UTC).")


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance (haversine), rounded to metres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return round(2 * 6371.0 * math.asin(min(1.0, math.sqrt(a))), 3)


class MapsToolkit(Toolkit):
    """Maps and places: search places, find what is nearby, add places and save favourites."""

    name = "maps"
    title = "Maps"
    domain = "location"
    resources = {"places": Place, "saved_places": SavedPlace}

    @tool(effect="read", resource="places")
    def search_places(
        self, query: str | None = None, city: str | None = None, category: Category | None = None
    ) -> list[Place]:
        """Search places by name or address, city and category.

        Args:
            query: Text to look for in the name and address (case-insensitive).
            city: Only places in this city (any case).
            category: Only places of this kind.

        Returns:
            The matching places.
        """
        return [p for p in self.scan("places")
                if (city is None or p.city.lower() == city.lower())
                and (category is None or p.category == category)
                and matches(query, p.name, p.address)]

    @tool(effect="read", resource="places")
    def get_place(self, place_id: str) -> Place:
        """Read one place.

        Args:
            place_id: Id of the place.

        Returns:
            The place.
        """
        return self.load("places", place_id)

    @tool(effect="read", resource="places")
    def find_nearby_places(
        self, place_id: str, radius_km: Radius = 2.0, category: Category | None = None
    ) -> list[NearbyPlace]:
        """Find other places within a distance of a place, nearest first.

        Args:
            place_id: Id of the place to search around.
            radius_km: Search radius in kilometres.
            category: Only places of this kind.

        Returns:
            The places found, nearest first, with their distance.
        """
        centre = self.load("places", place_id)
        found = []
        for other in self.scan("places"):
            km = distance_km(centre.latitude, centre.longitude, other.latitude, other.longitude)
            if other.id != place_id and km <= radius_km and (
                    category is None or other.category == category):
                found.append(NearbyPlace(**other.model_dump(), distance_km=km))
        return sorted(found, key=lambda p: (p.distance_km, p.id))

    @tool(effect="create", resource="places")
    def add_place(
        self,
        name: Name,
        category: Category,
        address: Name,
        city: Name,
        country: Annotated[str, Field(pattern=r"^[A-Z]{2}$")],
        latitude: Latitude,
        longitude: Longitude,
        phone: PhoneNumber | None = None,
        url: Url | None = None,
    ) -> Place:
        """Add a place that is not on the map yet.

        Args:
            name: Name of the place.
            category: Kind of place.
            address: Street address.
            city: City the place is in.
            country: ISO 3166 two-letter country code (e.g. PT).
            latitude: Latitude in degrees.
            longitude: Longitude in degrees.
            phone: Phone number in E.164 form.
            url: Website.

        Returns:
            The new place.
        """
        for other in self.scan("places"):
            if other.name.lower() == name.lower() and other.address.lower() == address.lower():
                raise Conflict(f"{name} at {address} is already on the map as {other.id}.")
        place = Place(id=self.new_id("places"), name=name, category=category, address=address,
                      city=city, country=country, latitude=latitude, longitude=longitude,
                      phone=phone, url=url)
        self.commit(("places", place))
        return place

    @tool(effect="create", resource="saved_places")
    def save_place(self, place_id: str, note: str | None = None) -> SavedPlace:
        """Save a place to the user's list of favourites.

        Args:
            place_id: Id of the place.
            note: A note to keep with it.

        Returns:
            The saved place.
        """
        self.load("places", place_id)
        for saved in self.scan("saved_places"):
            if saved.place_id == place_id:
                raise Conflict(f"Place {place_id} is already saved as {saved.id}; nothing to do.")
        saved = SavedPlace(id=self.new_id("saved_places"), place_id=place_id, note=note,
                           saved_at=self.now)
        self.commit(("saved_places", saved))
        return saved

    @tool(effect="read", resource="saved_places")
    def list_saved_places(self) -> list[SavedPlace]:
        """List the user's saved places.

        Returns:
            The saved places.
        """
        return self.scan("saved_places")

    @tool(effect="delete", resource="saved_places")
    def remove_saved_place(self, saved_place_id: str) -> SavedPlace:
        """Remove a place from the user's saved places.

        Args:
            saved_place_id: Id of the saved place (not of the place itself).

        Returns:
            The saved place that was removed.
        """
        return self.take("saved_places", saved_place_id)

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """Places of every category around the cities the pool lives in; two saved."""
        cities = [c for c in CITIES if c.name in {p.city for p in people}] or list(CITIES[:2])
        names = {"cafe": "Bean There", "restaurant": "Olive & Thyme", "hotel": "Grand Harbour",
                 "museum": "City Museum", "park": "Riverside Park", "office": "Work Hub",
                 "shop": "Corner Books", "station": "Central Station"}
        for city in cities[:3]:
            for category, title in rng.sample(sorted(names.items()), 4):
                self.commit(("places", Place(
                    id=self.new_id("places"), name=f"{title} {city.name}", category=category,
                    address=f"{rng.randint(1, 200)} {rng.choice(STREETS)}", city=city.name,
                    country=city.country,
                    latitude=round(city.latitude + rng.uniform(-0.02, 0.02), 5),
                    longitude=round(city.longitude + rng.uniform(-0.02, 0.02), 5),
                    phone=f"+1{rng.randint(200, 989)}555{rng.randint(1000, 9999)}",
                    url=None, rating=round(rng.uniform(3.0, 5.0), 1))))
        for place_id in rng.sample(sorted(self.state.records("places")), 2):
            self.commit(("saved_places", SavedPlace(
                id=self.new_id("saved_places"), place_id=place_id, note="Try this",
                saved_at=self.now - timedelta(days=2))))

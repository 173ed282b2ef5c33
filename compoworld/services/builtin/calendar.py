"""Calendar: the user's events, with attendees by email and no double booking."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Literal

from pydantic import Field

from compoworld.services.builtin.common import DateTime, EmailAddress, Name, Person, Record, matches
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict, Unprocessable


class Event(Record):
    """One event in the user's calendar."""

    id: str = Field(description="Event id.")
    title: str = Field(description="Title of the event.")
    start: DateTime = Field(description="When the event starts (UTC).")
    end: DateTime = Field(description="When the event ends (UTC).")
    location: str | None = Field(default=None, description="Where it takes place, if set.")
    description: str | None = Field(default=None, description="Agenda or notes, if any.")
    organizer_email: EmailAddress = Field(description="Email address of the organizer.")
    attendees: list[EmailAddress] = Field(description="Email addresses of those invited.")
    status: Literal["confirmed", "cancelled"] = Field(description="Whether it still happens.")


class CalendarToolkit(Toolkit):
    """A personal calendar: list, schedule, reschedule and cancel events with attendees."""

    name = "calendar"
    title = "Calendar"
    domain = "collaboration"
    resources = {"events": Event}

    @tool(effect="read", resource="events")
    def list_events(
        self,
        date: date | None = None,
        attendee_email: EmailAddress | None = None,
        query: str | None = None,
        include_cancelled: bool = False,
    ) -> list[Event]:
        """List events in start order.

        Args:
            date: Only events that start on this day (UTC).
            attendee_email: Only events this person is invited to.
            query: Text to look for in the title, location and description.
            include_cancelled: Also list cancelled events.

        Returns:
            The matching events, earliest first.
        """
        found = [
            e for e in self.scan("events")
            if (date is None or e.start.date() == date)
            and (attendee_email is None
                 or attendee_email.lower() in [a.lower() for a in e.attendees])
            and (include_cancelled or e.status == "confirmed")
            and matches(query, e.title, e.location, e.description)
        ]
        return sorted(found, key=lambda e: (e.start, e.id))

    @tool(effect="read", resource="events")
    def get_event(self, event_id: str) -> Event:
        """Read one event.

        Args:
            event_id: Id of the event.

        Returns:
            The event.
        """
        return self.load("events", event_id)

    @tool(effect="create", resource="events")
    def create_event(
        self,
        title: Name,
        start: DateTime,
        end: DateTime,
        attendees: list[EmailAddress] | None = None,
        location: str | None = None,
        description: str | None = None,
    ) -> Event:
        """Schedule a new event organized by the user; it may not overlap another event.

        Args:
            title: Title of the event.
            start: When it starts, ISO 8601 with a time zone (e.g. 2025-03-04T14:00:00Z).
            end: When it ends, after the start.
            attendees: Email addresses to invite.
            location: Where it takes place.
            description: Agenda or notes.

        Returns:
            The new event.
        """
        self._check_slot(start, end, None)
        event = Event(id=self.new_id("events"), title=title, start=start, end=end,
                      location=location, description=description,
                      organizer_email=self.user_email,
                      attendees=list(dict.fromkeys(attendees or [])), status="confirmed")
        self.commit(("events", event))
        return event

    @tool(effect="update", resource="events")
    def update_event(
        self,
        event_id: str,
        title: Name | None = None,
        location: str | None = None,
        description: str | None = None,
        attendees: list[EmailAddress] | None = None,
    ) -> Event:
        """Change an event's details; fields left out stay as they are.

        Args:
            event_id: Id of the event.
            title: New title.
            location: New location.
            description: New agenda or notes.
            attendees: The full new list of invited email addresses.

        Returns:
            The event after the change.
        """
        event = self._live(event_id)
        changes = {"title": title, "location": location, "description": description,
                   "attendees": list(dict.fromkeys(attendees)) if attendees is not None else None}
        event = self.changed(event, **{k: v for k, v in changes.items() if v is not None})
        self.commit(("events", event))
        return event

    @tool(effect="update", resource="events")
    def move_event(self, event_id: str, start: DateTime, end: DateTime) -> Event:
        """Reschedule an event to a new time; it may not overlap another event.

        Args:
            event_id: Id of the event.
            start: New start, ISO 8601 with a time zone.
            end: New end, after the new start.

        Returns:
            The event at its new time.
        """
        event = self._live(event_id)
        self._check_slot(start, end, event_id)
        event = self.changed(event, start=start, end=end)
        self.commit(("events", event))
        return event

    @tool(effect="action", resource="events")
    def cancel_event(self, event_id: str) -> Event:
        """Cancel an event; it stays in the calendar, marked cancelled.

        Args:
            event_id: Id of the event.

        Returns:
            The cancelled event.
        """
        event = self.changed(self._live(event_id), status="cancelled")
        self.commit(("events", event))
        return event

    @tool(effect="delete", resource="events")
    def delete_event(self, event_id: str) -> Event:
        """Remove an event from the calendar for good.

        Args:
            event_id: Id of the event.

        Returns:
            The event that was deleted.
        """
        return self.take("events", event_id)

    def _live(self, event_id: str) -> Event:
        event = self.load("events", event_id)
        if event.status == "cancelled":
            raise Conflict(f"Event {event_id} is cancelled and cannot be changed; "
                           "create a new event instead.")
        return event

    def _check_slot(self, start: datetime, end: datetime, moving: str | None) -> None:
        if end <= start:
            raise Unprocessable("The end must be after the start; pass a later end time.")
        for other in self.scan("events"):
            if other.id != moving and other.status == "confirmed" and (
                    other.start < end and start < other.end):
                raise Conflict(
                    f"That time overlaps event {other.id} ({other.title!r}, "
                    f"{other.start:%Y-%m-%d %H:%M}-{other.end:%H:%M} UTC); pick a free time "
                    "or move that event first.")

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """A week of meetings with people from the pool, one of them cancelled."""
        titles = ["Weekly sync", "Budget review", "Customer call", "1:1", "Hiring panel",
                  "Roadmap planning", "Vendor demo"]
        rng.shuffle(titles)
        day = self.now.replace(hour=0, minute=0, second=0, microsecond=0)
        for index, title in enumerate(titles[:6]):
            start = day + timedelta(days=index, hours=rng.choice([9, 11, 14, 16]))
            guests = rng.sample(people[1:], 2)
            self.commit(("events", Event(
                id=self.new_id("events"), title=title, start=start,
                end=start + timedelta(minutes=rng.choice([30, 60])),
                location=rng.choice(["Room 4B", "Video call", None]),
                description=f"{title} with {guests[0].company}.",
                organizer_email=self.user_email, attendees=[g.email for g in guests],
                status="cancelled" if index == 4 else "confirmed",
            )))

"""SMS: text messages to and from phone numbers, and a list of blocked numbers."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from compoworld.services.builtin.common import (
    DateTime,
    Limit,
    Person,
    PhoneNumber,
    Record,
    matches,
    newest_first,
)
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict, NotFound, Unprocessable

Direction = Literal["inbound", "outbound"]
SmsText = Annotated[str, Field(min_length=1, max_length=640)]


class Sms(Record):
    """One text message, sent or received."""

    id: str = Field(description="Message id.")
    phone: PhoneNumber = Field(description="The other party's phone number, E.164.")
    direction: Direction = Field(description="inbound (received) or outbound (sent).")
    body: str = Field(description="Text of the message.")
    sent_at: DateTime = Field(description="When it was sent (UTC).")


class BlockedNumber(Record):
    """A phone number the user blocked: no messages to or from it."""

    id: str = Field(description="Blocked number id.")
    phone: PhoneNumber = Field(description="The blocked phone number, E.164.")
    blocked_at: DateTime = Field(description="When it was blocked (UTC).")


class SmsToolkit(Toolkit):
    """Text messaging from the user's phone: read and send SMS, block unwanted numbers."""

    name = "sms"
    title = "SMS"
    domain = "telecom"
    resources = {"messages": Sms, "blocked_numbers": BlockedNumber}

    @tool(effect="read", resource="messages")
    def list_sms(
        self,
        phone: PhoneNumber | None = None,
        direction: Direction | None = None,
        query: str | None = None,
        limit: Limit = 20,
    ) -> list[Sms]:
        """List text messages, newest first.

        Args:
            phone: Only the conversation with this phone number (E.164).
            direction: Only received (inbound) or sent (outbound) messages.
            query: Text to look for in the messages (case-insensitive).
            limit: Maximum number of messages to return.

        Returns:
            The matching messages, newest first.
        """
        found = [m for m in self.scan("messages")
                 if (phone is None or m.phone == phone)
                 and (direction is None or m.direction == direction)
                 and matches(query, m.body)]
        return newest_first(found, limit)

    @tool(effect="read", resource="messages")
    def get_sms(self, message_id: str) -> Sms:
        """Read one text message.

        Args:
            message_id: Id of the message.

        Returns:
            The message.
        """
        return self.load("messages", message_id)

    @tool(effect="create", resource="messages")
    def send_sms(self, phone: PhoneNumber, body: SmsText) -> Sms:
        """Send a text message to a phone number.

        Args:
            phone: Phone number to text, in E.164 form (e.g. +14155550123).
            body: Text of the message (at most 640 characters).

        Returns:
            The sent message.
        """
        if phone == self.user_phone:
            raise Unprocessable(f"{phone} is the user's own number; text someone else.")
        if self._blocked(phone) is not None:
            raise Conflict(f"{phone} is blocked; unblock it with sms__unblock_number first.")
        message = Sms(id=self.new_id("messages"), phone=phone, direction="outbound", body=body,
                      sent_at=self.now)
        self.commit(("messages", message))
        return message

    @tool(effect="delete", resource="messages")
    def delete_sms(self, message_id: str) -> Sms:
        """Delete a text message.

        Args:
            message_id: Id of the message.

        Returns:
            The message that was deleted.
        """
        return self.take("messages", message_id)

    @tool(effect="create", resource="blocked_numbers")
    def block_number(self, phone: PhoneNumber) -> BlockedNumber:
        """Block a phone number: no texts can be sent to it.

        Args:
            phone: Phone number to block, in E.164 form.

        Returns:
            The block entry.
        """
        if self._blocked(phone) is not None:
            raise Conflict(f"{phone} is already blocked; nothing to do.")
        entry = BlockedNumber(id=self.new_id("blocked_numbers"), phone=phone, blocked_at=self.now)
        self.commit(("blocked_numbers", entry))
        return entry

    @tool(effect="delete", resource="blocked_numbers")
    def unblock_number(self, phone: PhoneNumber) -> BlockedNumber:
        """Unblock a phone number.

        Args:
            phone: The blocked phone number, in E.164 form.

        Returns:
            The block entry that was removed.
        """
        entry = self._blocked(phone)
        if entry is None:
            raise NotFound(f"{phone} is not blocked; call sms__list_blocked_numbers to see "
                           "the blocked numbers.")
        self.remove("blocked_numbers", entry.id)
        return entry

    @tool(effect="read", resource="blocked_numbers")
    def list_blocked_numbers(self) -> list[BlockedNumber]:
        """List the blocked phone numbers.

        Returns:
            The block entries.
        """
        return self.scan("blocked_numbers")

    def _blocked(self, phone: str) -> BlockedNumber | None:
        return next((b for b in self.scan("blocked_numbers") if b.phone == phone), None)

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """Short conversations with people of the pool, and one blocked spam number."""
        lines = ["On my way!", "Running 10 minutes late.", "Can you call me?", "Thanks!",
                 "See you at 7.", "Got the package.", "Where should we meet?"]
        for index, person in enumerate(rng.sample(people[1:], 4)):
            for step in range(rng.randint(1, 3)):
                self.commit(("messages", Sms(
                    id=self.new_id("messages"), phone=person.phone,
                    direction="inbound" if step % 2 == 0 else "outbound",
                    body=rng.choice(lines),
                    sent_at=self.now - timedelta(hours=index * 6, minutes=30 - step * 10))))
        spam = "+18885550199"
        self.commit(("messages", Sms(id=self.new_id("messages"), phone=spam,
                                     direction="inbound", body="You won a prize! Reply YES.",
                                     sent_at=self.now - timedelta(days=1))),
                    ("blocked_numbers", BlockedNumber(id=self.new_id("blocked_numbers"),
                                                      phone=spam,
                                                      blocked_at=self.now - timedelta(hours=20))))

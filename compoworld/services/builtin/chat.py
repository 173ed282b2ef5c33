"""Chat: team channels whose members are people (by email) and the messages posted there."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Annotated

from pydantic import Field

from compoworld.services.builtin.common import (
    DateTime,
    EmailAddress,
    Limit,
    Person,
    Record,
    Text,
    matches,
    newest_first,
)
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict

ChannelName = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")]


class Channel(Record):
    """One chat channel."""

    id: str = Field(description="Channel id.")
    name: str = Field(description="Channel name: lowercase letters, digits and dashes.")
    topic: str = Field(description="What the channel is about (may be empty).")
    members: list[EmailAddress] = Field(description="Email addresses of the members.")
    created_at: DateTime = Field(description="When the channel was created (UTC).")


class ChatMessage(Record):
    """One message posted in a channel."""

    id: str = Field(description="Message id.")
    channel_id: str = Field(description="Id of the channel it was posted in.")
    author_email: EmailAddress = Field(description="Email address of the author.")
    text: str = Field(description="Text of the message.")
    sent_at: DateTime = Field(description="When it was posted (UTC).")


class ChatToolkit(Toolkit):
    """Team chat: channels with members, and messages posted in them."""

    name = "chat"
    title = "Team Chat"
    domain = "messaging"
    resources = {"channels": Channel, "messages": ChatMessage}

    @tool(effect="read", resource="channels")
    def list_channels(self, member_email: EmailAddress | None = None) -> list[Channel]:
        """List channels, optionally only those someone is a member of.

        Args:
            member_email: Only channels this person is a member of.

        Returns:
            The channels.
        """
        wanted = member_email.lower() if member_email else None
        return [c for c in self.scan("channels")
                if wanted is None or wanted in [m.lower() for m in c.members]]

    @tool(effect="read", resource="channels")
    def get_channel(self, channel_id: str) -> Channel:
        """Read one channel, with its members.

        Args:
            channel_id: Id of the channel.

        Returns:
            The channel.
        """
        return self.load("channels", channel_id)

    @tool(effect="create", resource="channels")
    def create_channel(
        self, name: ChannelName, topic: str = "", members: list[EmailAddress] | None = None
    ) -> Channel:
        """Create a channel; the user is always a member. Names are unique.

        Args:
            name: Channel name: lowercase letters, digits and dashes (e.g. launch-2025).
            topic: What the channel is about.
            members: Email addresses of the other people to add.

        Returns:
            The new channel.
        """
        for other in self.scan("channels"):
            if other.name == name:
                raise Conflict(f"A channel named {name!r} already exists ({other.id}); "
                               "post there or pick another name.")
        channel = Channel(id=self.new_id("channels"), name=name, topic=topic,
                          members=list(dict.fromkeys([self.user_email, *(members or [])])),
                          created_at=self.now)
        self.commit(("channels", channel))
        return channel

    @tool(effect="action", resource="channels")
    def invite_to_channel(self, channel_id: str, email: EmailAddress) -> Channel:
        """Add a person to a channel.

        Args:
            channel_id: Id of the channel.
            email: Email address of the person to add.

        Returns:
            The channel with its new member.
        """
        channel = self.load("channels", channel_id)
        if email.lower() in [m.lower() for m in channel.members]:
            raise Conflict(f"{email} is already a member of #{channel.name}; nothing to do.")
        channel = self.changed(channel, members=[*channel.members, email])
        self.commit(("channels", channel))
        return channel

    @tool(effect="create", resource="messages")
    def post_message(self, channel_id: str, text: Text) -> ChatMessage:
        """Post a message as the user in a channel the user is a member of.

        Args:
            channel_id: Id of the channel.
            text: Text of the message.

        Returns:
            The posted message.
        """
        channel = self.load("channels", channel_id)
        if self.user_email.lower() not in [m.lower() for m in channel.members]:
            raise Conflict(f"You are not a member of #{channel.name}; join it with "
                           f"chat__invite_to_channel (email {self.user_email}) first.")
        message = ChatMessage(id=self.new_id("messages"), channel_id=channel_id,
                              author_email=self.user_email, text=text, sent_at=self.now)
        self.commit(("messages", message))
        return message

    @tool(effect="read", resource="messages")
    def list_messages(
        self, channel_id: str, query: str | None = None, limit: Limit = 20
    ) -> list[ChatMessage]:
        """List a channel's messages, newest first.

        Args:
            channel_id: Id of the channel.
            query: Text to look for in the messages (case-insensitive).
            limit: Maximum number of messages to return.

        Returns:
            The messages, newest first.
        """
        self.load("channels", channel_id)
        found = [m for m in self.scan("messages")
                 if m.channel_id == channel_id and matches(query, m.text, m.author_email)]
        return newest_first(found, limit)

    @tool(effect="delete", resource="messages")
    def delete_message(self, message_id: str) -> ChatMessage:
        """Delete one of the user's own messages.

        Args:
            message_id: Id of the message.

        Returns:
            The message that was deleted.
        """
        message = self.load("messages", message_id)
        if message.author_email.lower() != self.user_email.lower():
            raise Conflict(f"Message {message_id} was posted by {message.author_email}; you can "
                           "only delete your own messages.")
        self.remove("messages", message_id)
        return message

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """Three channels (the user is not in the last one) with some chatter."""
        lines = ["Standup moved to 10:00.", "Can someone review the spec?", "Shipped the fix.",
                 "Who is presenting on Friday?", "Notes are in the shared folder.",
                 "Lunch at noon?", "The client call went well."]
        specs = [("general", "Company-wide news"), ("launch", "Spring launch"),
                 ("random", "")]
        for index, (name, topic) in enumerate(specs):
            members = [p.email for p in rng.sample(people[1:], 3)]
            if index < 2:
                members.insert(0, self.user_email)
            channel = Channel(id=self.new_id("channels"), name=name, topic=topic,
                              members=members, created_at=self.now - timedelta(days=30))
            self.commit(("channels", channel))
            for minutes in range(rng.randint(2, 4)):
                self.commit(("messages", ChatMessage(
                    id=self.new_id("messages"), channel_id=channel.id,
                    author_email=rng.choice(members), text=rng.choice(lines),
                    sent_at=self.now - timedelta(hours=3, minutes=10 * minutes),
                )))

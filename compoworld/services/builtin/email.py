"""Email: the user's mailbox (search, read, send, reply, forward, file away)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Literal

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

Folder = Literal["inbox", "sent", "archive", "trash"]
MovableFolder = Literal["inbox", "archive", "trash"]


class Message(Record):
    """One email message in the user's mailbox."""

    id: str = Field(description="Message id.")
    thread_id: str = Field(description="Id of the conversation (thread) the message is in.")
    folder: Folder = Field(description="Mailbox folder that holds the message.")
    from_email: EmailAddress = Field(description="Email address of the sender.")
    to: list[EmailAddress] = Field(description="Email addresses of the recipients.")
    cc: list[EmailAddress] = Field(description="Email addresses of copied recipients.")
    subject: str = Field(description="Subject line.")
    body: str = Field(description="Plain-text body.")
    sent_at: DateTime = Field(description="When the message was sent (UTC).")
    read: bool = Field(description="Whether the user has read the message.")


class EmailToolkit(Toolkit):
    """A personal email mailbox: search and read messages, send, reply, forward and file
    them into folders."""

    name = "email"
    title = "Email"
    domain = "email"
    resources = {"messages": Message}

    @tool(effect="read", resource="messages")
    def search_emails(
        self,
        query: str | None = None,
        folder: Folder | None = None,
        from_email: EmailAddress | None = None,
        thread_id: str | None = None,
        unread_only: bool = False,
        limit: Limit = 20,
    ) -> list[Message]:
        """Search the mailbox, newest first.

        Args:
            query: Text to look for in the subject, body and addresses (case-insensitive).
            folder: Only messages in this folder.
            from_email: Only messages from this sender.
            thread_id: Only messages of this conversation.
            unread_only: Only messages the user has not read.
            limit: Maximum number of messages to return.

        Returns:
            The matching messages, newest first.
        """
        found = [
            m for m in self.scan("messages")
            if (folder is None or m.folder == folder)
            and (from_email is None or m.from_email.lower() == from_email.lower())
            and (thread_id is None or m.thread_id == thread_id)
            and not (unread_only and m.read)
            and matches(query, m.subject, m.body, m.from_email, *m.to, *m.cc)
        ]
        return newest_first(found, limit)

    @tool(effect="read", resource="messages")
    def get_email(self, message_id: str) -> Message:
        """Read one message.

        Args:
            message_id: Id of the message.

        Returns:
            The message.
        """
        return self.load("messages", message_id)

    @tool(effect="create", resource="messages")
    def send_email(
        self, to: EmailAddress, subject: Text, body: Text, cc: list[EmailAddress] | None = None
    ) -> Message:
        """Send a new email from the user; a copy is kept in the sent folder.

        Args:
            to: Email address of the recipient.
            subject: Subject line.
            body: Plain-text body.
            cc: Email addresses to copy.

        Returns:
            The sent message as stored in the sent folder.
        """
        message_id = self.new_id("messages")
        return self._store(message_id, message_id, [to], cc or [], subject, body)

    @tool(effect="create", resource="messages")
    def reply_email(self, message_id: str, body: Text, reply_all: bool = False) -> Message:
        """Reply to a message, in the same thread.

        Args:
            message_id: Id of the message to answer.
            body: Plain-text body of the reply.
            reply_all: Also answer everyone else on the message.

        Returns:
            The sent reply.
        """
        original = self.load("messages", message_id)
        mine = original.from_email.lower() == self.user_email.lower()
        to = original.to if mine else [original.from_email]
        cc: list[str] = []
        if reply_all:
            everyone = [*original.to, *original.cc, original.from_email]
            cc = [a for a in dict.fromkeys(everyone) if a.lower() != self.user_email.lower()]
            cc = [a for a in cc if a not in to]
        subject = original.subject if original.subject.startswith("Re:") else (
            f"Re: {original.subject}")
        return self._store(self.new_id("messages"), original.thread_id, to, cc, subject, body)

    @tool(effect="create", resource="messages")
    def forward_email(self, message_id: str, to: EmailAddress, note: str | None = None) -> Message:
        """Forward a message to someone, with an optional note above it.

        Args:
            message_id: Id of the message to forward.
            to: Email address to forward it to.
            note: Text to put above the forwarded message.

        Returns:
            The sent forward.
        """
        original = self.load("messages", message_id)
        quoted = (f"---------- Forwarded message ----------\nFrom: {original.from_email}\n"
                  f"Subject: {original.subject}\n\n{original.body}")
        body = f"{note}\n\n{quoted}" if note else quoted
        new_id = self.new_id("messages")
        return self._store(new_id, new_id, [to], [], f"Fwd: {original.subject}", body)

    @tool(effect="update", resource="messages")
    def move_email(self, message_id: str, folder: MovableFolder) -> Message:
        """Move a message to another folder (inbox, archive or trash).

        Args:
            message_id: Id of the message.
            folder: Folder to move it to.

        Returns:
            The message after the move.
        """
        message = self.changed(self.load("messages", message_id), folder=folder)
        self.commit(("messages", message))
        return message

    @tool(effect="update", resource="messages")
    def mark_email_read(self, message_id: str, read: bool = True) -> Message:
        """Mark a message as read, or as unread again.

        Args:
            message_id: Id of the message.
            read: True to mark it read, false to mark it unread.

        Returns:
            The message after the change.
        """
        message = self.changed(self.load("messages", message_id), read=read)
        self.commit(("messages", message))
        return message

    @tool(effect="delete", resource="messages")
    def delete_email(self, message_id: str) -> Message:
        """Delete a message for good (to keep it recoverable, move it to trash instead).

        Args:
            message_id: Id of the message.

        Returns:
            The message that was deleted.
        """
        return self.take("messages", message_id)

    def _store(self, message_id: str, thread_id: str, to: list[str], cc: list[str],
               subject: str, body: str) -> Message:
        message = Message(id=message_id, thread_id=thread_id, folder="sent",
                          from_email=self.user_email, to=to, cc=cc, subject=subject, body=body,
                          sent_at=self.now, read=True)
        self.commit(("messages", message))
        return message

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """A few received, sent and archived messages between the user and the pool."""
        topics = ["Quarterly report", "Lunch on Friday?", "Invoice 4471", "Project kickoff",
                  "Contract draft", "Travel plans", "Team offsite", "Design review"]
        rng.shuffle(topics)
        others = people[1:]
        for hours, topic in enumerate(topics[:6], start=1):
            person = rng.choice(others)
            mine = hours % 3 == 0
            message_id = self.new_id("messages")
            self.commit(("messages", Message(
                id=message_id, thread_id=message_id,
                folder="sent" if mine else ("archive" if hours == 5 else "inbox"),
                from_email=self.user_email if mine else person.email,
                to=[person.email] if mine else [self.user_email], cc=[], subject=topic,
                body=f"Hi {person.first_name if mine else 'there'}, about {topic.lower()}: "
                     f"see the notes from {person.company}.",
                sent_at=self.now - timedelta(hours=hours * 5), read=mine or rng.random() < 0.4,
            )))

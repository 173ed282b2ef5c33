"""File storage: text files in folders, each with a link, shareable with people by email."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Annotated

from pydantic import Field

from compoworld.services.builtin.common import DateTime, EmailAddress, Person, Record, Url, matches
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict, Unprocessable

Filename = Annotated[str, Field(pattern=r"^[^/\\]{1,200}$")]
Folder = Annotated[str, Field(pattern=r"^/([^/]+(/[^/]+)*)?$")]
BASE_URL = "https://files.example.com/d/"


class File(Record):
    """One stored file."""

    id: str = Field(description="File id.")
    filename: str = Field(description="File name, unique within its folder.")
    folder: str = Field(description="Folder path, e.g. / or /reports/2025.")
    mime_type: str = Field(description="Media type of the content, e.g. text/plain.")
    size_bytes: int = Field(description="Size of the content in bytes (UTF-8).")
    content: str = Field(description="Text content of the file.")
    url: Url = Field(description="Link that opens the file.")
    owner_email: EmailAddress = Field(description="Email address of the owner.")
    shared_with: list[EmailAddress] = Field(description="Email addresses it is shared with.")
    created_at: DateTime = Field(description="When the file was uploaded (UTC).")


class FilesToolkit(Toolkit):
    """Cloud file storage: upload, find, rename and share text files kept in folders."""

    name = "files"
    title = "File Storage"
    domain = "storage"
    resources = {"files": File}

    @tool(effect="read", resource="files")
    def list_files(
        self,
        folder: Folder | None = None,
        query: str | None = None,
        shared_with_email: EmailAddress | None = None,
    ) -> list[File]:
        """List files, optionally in one folder, matching a text or shared with someone.

        Args:
            folder: Only files directly in this folder (e.g. /reports).
            query: Text to look for in file names and contents (case-insensitive).
            shared_with_email: Only files shared with this person.

        Returns:
            The matching files, by folder and name.
        """
        found = [f for f in self.scan("files")
                 if (folder is None or f.folder == folder)
                 and (shared_with_email is None
                      or shared_with_email.lower() in [s.lower() for s in f.shared_with])
                 and matches(query, f.filename, f.content)]
        return sorted(found, key=lambda f: (f.folder, f.filename))

    @tool(effect="read", resource="files")
    def get_file(self, file_id: str) -> File:
        """Read one file, content included.

        Args:
            file_id: Id of the file.

        Returns:
            The file.
        """
        return self.load("files", file_id)

    @tool(effect="create", resource="files")
    def upload_file(
        self, filename: Filename, content: str, folder: Folder = "/", mime_type: str = "text/plain"
    ) -> File:
        """Upload a new text file into a folder; the name must be free in that folder.

        Args:
            filename: Name of the file, without slashes (e.g. notes.txt).
            content: Text content of the file.
            folder: Folder path to put it in (e.g. /reports); created as needed.
            mime_type: Media type of the content.

        Returns:
            The stored file, with its link.
        """
        self._check_free(folder, filename, None)
        file_id = self.new_id("files")
        stored = File(id=file_id, filename=filename, folder=folder, mime_type=mime_type,
                      size_bytes=len(content.encode("utf-8")), content=content,
                      url=BASE_URL + file_id, owner_email=self.user_email, shared_with=[],
                      created_at=self.now)
        self.commit(("files", stored))
        return stored

    @tool(effect="update", resource="files")
    def rename_file(self, file_id: str, filename: Filename) -> File:
        """Rename a file; the new name must be free in its folder.

        Args:
            file_id: Id of the file.
            filename: The new name, without slashes.

        Returns:
            The file after the rename.
        """
        stored = self.load("files", file_id)
        self._check_free(stored.folder, filename, file_id)
        stored = self.changed(stored, filename=filename)
        self.commit(("files", stored))
        return stored

    @tool(effect="action", resource="files")
    def share_file(self, file_id: str, email: EmailAddress) -> File:
        """Share a file with a person, who can then open its link.

        Args:
            file_id: Id of the file.
            email: Email address of the person to share it with.

        Returns:
            The file with its new share.
        """
        stored = self.load("files", file_id)
        if email.lower() == stored.owner_email.lower():
            raise Unprocessable(f"{email} owns {stored.filename}; share it with someone else.")
        if email.lower() in [s.lower() for s in stored.shared_with]:
            raise Conflict(f"{stored.filename} is already shared with {email}; nothing to do.")
        stored = self.changed(stored, shared_with=[*stored.shared_with, email])
        self.commit(("files", stored))
        return stored

    @tool(effect="delete", resource="files")
    def delete_file(self, file_id: str) -> File:
        """Delete a file for good.

        Args:
            file_id: Id of the file.

        Returns:
            The file that was deleted.
        """
        return self.take("files", file_id)

    def _check_free(self, folder: str, filename: str, own_id: str | None) -> None:
        for other in self.scan("files"):
            if other.folder == folder and other.filename == filename and other.id != own_id:
                raise Conflict(f"{folder.rstrip('/')}/{filename} already exists ({other.id}); "
                               "pick another name or folder.")

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """A handful of documents in a few folders, some shared with people of the pool."""
        docs = [("/", "todo.txt", "Call the bank. Book flights."),
                ("/reports", "q1-summary.md", "# Q1\nRevenue up 12%."),
                ("/reports", "budget.csv", "item,amount\nservers,1200\nsoftware,300"),
                ("/contracts", "nda-draft.txt", "Mutual non-disclosure agreement (draft)."),
                ("/personal", "packing-list.txt", "passport, charger, umbrella")]
        for days, (folder, filename, content) in enumerate(docs, start=1):
            file_id = self.new_id("files")
            mime = "text/csv" if filename.endswith(".csv") else "text/plain"
            self.commit(("files", File(
                id=file_id, filename=filename, folder=folder, mime_type=mime,
                size_bytes=len(content.encode("utf-8")), content=content, url=BASE_URL + file_id,
                owner_email=self.user_email,
                shared_with=[p.email for p in rng.sample(people[1:], rng.randint(0, 2))],
                created_at=self.now - timedelta(days=days * 3),
            )))

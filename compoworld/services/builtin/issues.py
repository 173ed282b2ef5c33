"""Issue tracker: issues with a status, priority, labels and an assignee (by email)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Literal

from pydantic import Field

from compoworld.services.builtin.common import (
    DateTime,
    EmailAddress,
    Name,
    Person,
    Record,
    Text,
    matches,
)
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict

Status = Literal["open", "in_progress", "closed"]
Priority = Literal["low", "medium", "high", "urgent"]
Resolution = Literal["fixed", "wont_fix", "duplicate"]


class Issue(Record):
    """One issue (bug or task)."""

    id: str = Field(description="Issue id.")
    title: str = Field(description="One-line summary of the issue.")
    description: str = Field(description="Details of the issue (may be empty).")
    status: Status = Field(description="open, in_progress or closed.")
    priority: Priority = Field(description="How urgent it is.")
    labels: list[str] = Field(description="Labels such as bug or frontend.")
    assignee_email: EmailAddress | None = Field(
        default=None, description="Email address of the person working on it, if anyone.")
    reporter_email: EmailAddress = Field(description="Email address of who reported it.")
    created_at: DateTime = Field(description="When the issue was opened (UTC).")
    closed_at: DateTime | None = Field(default=None, description="When it was closed, if so.")
    resolution: Resolution | None = Field(default=None, description="Why it was closed.")


class Comment(Record):
    """One comment on an issue."""

    id: str = Field(description="Comment id.")
    issue_id: str = Field(description="Id of the issue commented on.")
    author_email: EmailAddress = Field(description="Email address of the author.")
    body: str = Field(description="Text of the comment.")
    created_at: DateTime = Field(description="When it was written (UTC).")


class IssuesToolkit(Toolkit):
    """A project issue tracker: file, triage, assign, discuss and close issues."""

    name = "issues"
    title = "Issue Tracker"
    domain = "project_management"
    resources = {"issues": Issue, "comments": Comment}

    @tool(effect="read", resource="issues")
    def search_issues(
        self,
        query: str | None = None,
        status: Status | None = None,
        assignee_email: EmailAddress | None = None,
        label: str | None = None,
    ) -> list[Issue]:
        """Search issues by text, status, assignee or label.

        Args:
            query: Text to look for in the title and description (case-insensitive).
            status: Only issues with this status.
            assignee_email: Only issues assigned to this person.
            label: Only issues with this label.

        Returns:
            The matching issues.
        """
        return [i for i in self.scan("issues")
                if (status is None or i.status == status)
                and (assignee_email is None
                     or (i.assignee_email or "").lower() == assignee_email.lower())
                and (label is None or label in i.labels)
                and matches(query, i.title, i.description)]

    @tool(effect="read", resource="issues")
    def get_issue(self, issue_id: str) -> Issue:
        """Read one issue.

        Args:
            issue_id: Id of the issue.

        Returns:
            The issue.
        """
        return self.load("issues", issue_id)

    @tool(effect="create", resource="issues")
    def create_issue(
        self,
        title: Name,
        description: str = "",
        priority: Priority = "medium",
        labels: list[str] | None = None,
        assignee_email: EmailAddress | None = None,
    ) -> Issue:
        """File a new open issue, reported by the user.

        Args:
            title: One-line summary.
            description: Details: what happens, what should happen.
            priority: How urgent it is.
            labels: Labels such as bug or frontend.
            assignee_email: Email address of the person to assign it to.

        Returns:
            The new issue.
        """
        issue = Issue(id=self.new_id("issues"), title=title, description=description,
                      status="open", priority=priority, labels=list(dict.fromkeys(labels or [])),
                      assignee_email=assignee_email, reporter_email=self.user_email,
                      created_at=self.now)
        self.commit(("issues", issue))
        return issue

    @tool(effect="update", resource="issues")
    def update_issue(
        self,
        issue_id: str,
        title: Name | None = None,
        description: str | None = None,
        priority: Priority | None = None,
        labels: list[str] | None = None,
        status: Literal["open", "in_progress"] | None = None,
    ) -> Issue:
        """Change an issue's details or status (fields left out stay as they are); giving a
        closed issue a new status reopens it.

        Args:
            issue_id: Id of the issue.
            title: New one-line summary.
            description: New details.
            priority: New priority.
            labels: The full new list of labels.
            status: open or in_progress (close issues with issues__close_issue).

        Returns:
            The issue after the change.
        """
        issue = self.load("issues", issue_id) if status else self._open(issue_id)
        changes = {"title": title, "description": description, "priority": priority,
                   "labels": list(dict.fromkeys(labels)) if labels is not None else None,
                   "status": status}
        if issue.status == "closed":  # reopening clears how it was closed
            issue = self.changed(issue, closed_at=None, resolution=None)
        issue = self.changed(issue, **{k: v for k, v in changes.items() if v is not None})
        self.commit(("issues", issue))
        return issue

    @tool(effect="update", resource="issues")
    def assign_issue(self, issue_id: str, assignee_email: EmailAddress) -> Issue:
        """Assign an open issue to a person.

        Args:
            issue_id: Id of the issue.
            assignee_email: Email address of the person to assign it to.

        Returns:
            The issue with its new assignee.
        """
        issue = self.changed(self._open(issue_id), assignee_email=assignee_email)
        self.commit(("issues", issue))
        return issue

    @tool(effect="action", resource="issues")
    def close_issue(self, issue_id: str, resolution: Resolution = "fixed") -> Issue:
        """Close an issue with a resolution.

        Args:
            issue_id: Id of the issue.
            resolution: Why it is closed: fixed, wont_fix or duplicate.

        Returns:
            The closed issue.
        """
        issue = self.changed(self._open(issue_id), status="closed", closed_at=self.now,
                             resolution=resolution)
        self.commit(("issues", issue))
        return issue

    @tool(effect="create", resource="comments")
    def add_comment(self, issue_id: str, body: Text) -> Comment:
        """Comment on an issue as the user.

        Args:
            issue_id: Id of the issue.
            body: Text of the comment.

        Returns:
            The new comment.
        """
        self.load("issues", issue_id)
        comment = Comment(id=self.new_id("comments"), issue_id=issue_id,
                          author_email=self.user_email, body=body, created_at=self.now)
        self.commit(("comments", comment))
        return comment

    @tool(effect="read", resource="comments")
    def list_comments(self, issue_id: str) -> list[Comment]:
        """List the comments on an issue, oldest first.

        Args:
            issue_id: Id of the issue.

        Returns:
            The comments, oldest first.
        """
        self.load("issues", issue_id)
        found = [c for c in self.scan("comments") if c.issue_id == issue_id]
        return sorted(found, key=lambda c: (c.created_at, c.id))

    def _open(self, issue_id: str) -> Issue:
        issue = self.load("issues", issue_id)
        if issue.status == "closed":
            raise Conflict(f"Issue {issue_id} is closed; reopen it first with "
                           "issues__update_issue and status open.")
        return issue

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """A small backlog: open, in-progress and closed issues, some with comments."""
        titles = [("Login page times out", ["bug", "frontend"]),
                  ("Export to CSV drops accents", ["bug"]),
                  ("Add dark mode", ["feature", "frontend"]),
                  ("Nightly backup failed", ["ops"]),
                  ("Update onboarding docs", ["docs"]),
                  ("Slow search on large projects", ["performance"])]
        for days, (title, labels) in enumerate(titles, start=1):
            status = ["open", "in_progress", "open", "closed", "open", "in_progress"][days - 1]
            assignee = rng.choice([None, *[p.email for p in people[:4]]])
            issue = Issue(
                id=self.new_id("issues"), title=title, description=f"Reported: {title.lower()}.",
                status=status, priority=rng.choice(["low", "medium", "high", "urgent"]),
                labels=labels, assignee_email=assignee,
                reporter_email=rng.choice(people).email,
                created_at=self.now - timedelta(days=days * 4),
                closed_at=self.now - timedelta(days=1) if status == "closed" else None,
                resolution="fixed" if status == "closed" else None)
            self.commit(("issues", issue))
            if rng.random() < 0.5:
                self.commit(("comments", Comment(
                    id=self.new_id("comments"), issue_id=issue.id,
                    author_email=rng.choice(people[1:]).email, body="I can reproduce this.",
                    created_at=issue.created_at + timedelta(hours=5))))

"""Spreadsheets: named tables of text cells (columns and rows) that tools read and edit."""

from __future__ import annotations

import random
from typing import Annotated

from pydantic import Field

from compoworld.services.builtin.common import DateTime, Name, Person, Record, matches
from compoworld.services.builtin.toolkit import Toolkit, tool
from compoworld.world.state import Conflict, NotFound, Unprocessable

Column = Annotated[str, Field(min_length=1, max_length=60)]
RowNumber = Annotated[int, Field(ge=1)]


class Spreadsheet(Record):
    """One spreadsheet: a title, its columns and its rows of text cells."""

    id: str = Field(description="Spreadsheet id.")
    title: str = Field(description="Title, unique across spreadsheets.")
    columns: list[str] = Field(description="Column names, in order.")
    rows: list[dict[str, str]] = Field(description="Rows, each a column name -> cell map.")
    updated_at: DateTime = Field(description="When it was last changed (UTC).")


class FoundRow(Record):
    """A row found in a spreadsheet."""

    row: int = Field(description="Row number, counting from 1.")
    values: dict[str, str] = Field(description="Cells of the row by column name.")


class SheetsToolkit(Toolkit):
    """Spreadsheets: create tables, append rows, edit cells and look rows up by value."""

    name = "sheets"
    title = "Spreadsheets"
    domain = "collaboration"
    resources = {"spreadsheets": Spreadsheet}

    @tool(effect="read", resource="spreadsheets")
    def list_spreadsheets(self, query: str | None = None) -> list[Spreadsheet]:
        """List spreadsheets, optionally those whose title contains a text.

        Args:
            query: Text to look for in titles (case-insensitive).

        Returns:
            The spreadsheets.
        """
        return [s for s in self.scan("spreadsheets") if matches(query, s.title)]

    @tool(effect="read", resource="spreadsheets")
    def get_spreadsheet(self, spreadsheet_id: str) -> Spreadsheet:
        """Read one spreadsheet with all its rows.

        Args:
            spreadsheet_id: Id of the spreadsheet.

        Returns:
            The spreadsheet.
        """
        return self.load("spreadsheets", spreadsheet_id)

    @tool(effect="create", resource="spreadsheets")
    def create_spreadsheet(self, title: Name, columns: list[Column]) -> Spreadsheet:
        """Create an empty spreadsheet with named columns.

        Args:
            title: Title, not used by another spreadsheet.
            columns: Column names, in order, each used once (e.g. ["name", "email"]).

        Returns:
            The new spreadsheet.
        """
        if not columns:
            raise Unprocessable("A spreadsheet needs at least one column; pass column names.")
        if len(set(columns)) != len(columns):
            raise Unprocessable("Column names must be distinct; remove the repeated ones.")
        for other in self.scan("spreadsheets"):
            if other.title.lower() == title.lower():
                raise Conflict(f"Spreadsheet {other.id} is already titled {other.title!r}; "
                               "use it or pick another title.")
        sheet = Spreadsheet(id=self.new_id("spreadsheets"), title=title, columns=columns,
                            rows=[], updated_at=self.now)
        self.commit(("spreadsheets", sheet))
        return sheet

    @tool(effect="update", resource="spreadsheets")
    def append_row(self, spreadsheet_id: str, values: dict[str, str]) -> FoundRow:
        """Add a row at the bottom; columns left out stay empty.

        Args:
            spreadsheet_id: Id of the spreadsheet.
            values: Cells of the new row by column name (e.g. {"name": "Ada"}).

        Returns:
            The new row and its number.
        """
        sheet = self.load("spreadsheets", spreadsheet_id)
        self._check_columns(sheet, list(values))
        row = {column: values.get(column, "") for column in sheet.columns}
        sheet = self.changed(sheet, rows=[*sheet.rows, row], updated_at=self.now)
        self.commit(("spreadsheets", sheet))
        return FoundRow(row=len(sheet.rows), values=row)

    @tool(effect="update", resource="spreadsheets")
    def update_cell(self, spreadsheet_id: str, row: RowNumber, column: str, value: str) -> FoundRow:
        """Set one cell.

        Args:
            spreadsheet_id: Id of the spreadsheet.
            row: Row number, counting from 1.
            column: Column name.
            value: New text of the cell.

        Returns:
            The changed row.
        """
        sheet = self.load("spreadsheets", spreadsheet_id)
        self._check_columns(sheet, [column])
        if row > len(sheet.rows):
            raise NotFound(f"Spreadsheet {spreadsheet_id} has {len(sheet.rows)} rows, so row "
                           f"{row} does not exist; use sheets__append_row to add rows.")
        rows = [dict(r) for r in sheet.rows]
        rows[row - 1][column] = value
        sheet = self.changed(sheet, rows=rows, updated_at=self.now)
        self.commit(("spreadsheets", sheet))
        return FoundRow(row=row, values=rows[row - 1])

    @tool(effect="read", resource="spreadsheets")
    def find_rows(self, spreadsheet_id: str, column: str, value: str) -> list[FoundRow]:
        """Find the rows whose cell in a column equals a value (case-insensitive).

        Args:
            spreadsheet_id: Id of the spreadsheet.
            column: Column name to look in.
            value: Value the cell must have.

        Returns:
            The matching rows with their numbers.
        """
        sheet = self.load("spreadsheets", spreadsheet_id)
        self._check_columns(sheet, [column])
        return [FoundRow(row=number, values=cells)
                for number, cells in enumerate(sheet.rows, start=1)
                if cells.get(column, "").lower() == value.lower()]

    @tool(effect="delete", resource="spreadsheets")
    def delete_spreadsheet(self, spreadsheet_id: str) -> Spreadsheet:
        """Delete a spreadsheet for good.

        Args:
            spreadsheet_id: Id of the spreadsheet.

        Returns:
            The spreadsheet that was deleted.
        """
        return self.take("spreadsheets", spreadsheet_id)

    def _check_columns(self, sheet: Spreadsheet, columns: list[str]) -> None:
        unknown = [c for c in columns if c not in sheet.columns]
        if unknown:
            raise Unprocessable(f"Spreadsheet {sheet.id} has no column {', '.join(unknown)}; "
                                f"its columns are {', '.join(sheet.columns)}.")

    def seed(self, rng: random.Random, people: list[Person]) -> None:
        """A guest list built from the pool and a small expense sheet."""
        guests = [{"name": p.name, "email": p.email, "company": p.company,
                   "rsvp": rng.choice(["yes", "no", "maybe"])} for p in people[1:6]]
        expenses = [{"date": f"2025-02-{day:02d}", "item": item,
                     "amount": f"{rng.randrange(5, 300)}.00", "currency": "USD"}
                    for day, item in ((3, "Taxi"), (11, "Hotel"), (19, "Team lunch"))]
        for title, columns, rows in (
                ("Offsite guest list", ["name", "email", "company", "rsvp"], guests),
                ("February expenses", ["date", "item", "amount", "currency"], expenses)):
            self.commit(("spreadsheets", Spreadsheet(
                id=self.new_id("spreadsheets"), title=title, columns=columns, rows=rows,
                updated_at=self.now)))

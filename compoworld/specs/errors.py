"""The two ways ingestion refuses input: a bad document, or a source that cannot be found."""

from __future__ import annotations


class SpecLoadError(ValueError):
    """A document cannot be turned into a ServiceSpec; the message is a one-line reason."""


class SourceError(ValueError):
    """A spec source cannot be resolved or fetched; the message says what to give instead."""

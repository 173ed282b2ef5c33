"""The two ways ingestion refuses input: a bad document, or a source that cannot be found."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class SpecLoadError(ValueError):
    """A document cannot be turned into a ServiceSpec; the message is a one-line reason."""


class SourceError(ValueError):
    """A spec source cannot be resolved or fetched; the message says what to give instead."""


def one_line_reasons(load: Callable[P, R]) -> Callable[P, R]:
    """Wrap a loader so that every failure, expected or not, is a one-line SpecLoadError.

    One messy document must never stop a flow: a bug met on strange input becomes the
    document's recorded reason instead of an exception that escapes the shard.
    """

    @functools.wraps(load)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return load(*args, **kwargs)
        except SpecLoadError:
            raise
        except Exception as exc:  # noqa: BLE001 - any bug on messy input becomes a reason
            message = " ".join(str(exc).split())[:300]
            raise SpecLoadError(f"{type(exc).__name__}: {message}") from exc

    return wrapper

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
            raise SpecLoadError(one_line_reason(exc)) from exc

    return wrapper


def one_line_reason(error: BaseException) -> str:
    """The `spec_errors` reason of any failure: a SpecLoadError's own message, else the
    exception's type and its message on one line (at most 300 characters)."""
    message = " ".join(str(error).split())[:300]
    if isinstance(error, SpecLoadError):
        return message
    return f"{type(error).__name__}: {message}"

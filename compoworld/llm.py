"""The one OpenAI-compatible client: every language-model call in CompoWorld goes here.

`LLMClient(base_url, model)` talks to any OpenAI-compatible endpoint (vLLM in production,
a llama.cpp server in development). Retries are ours, not the `openai` package's (its
`max_retries` is set to 0): timeouts, connection errors, 408, 429 and 5xx are retried with
exponential backoff (0.5 s, 1 s, 2 s, ... capped at 8 s, or the server's `Retry-After`
when it is shorter than a minute), up to `max_retries` times; then, and at once for any
other error (400, 401, 404, ...), `LLMError` is raised. Doing it here keeps one policy for
every caller, lets tests replace the sleep, and counts retries in `stats`.

`openai` is imported when a client is made, not when this module is: importing it costs
about a second, and most of the library never talks to a model.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

MAX_BACKOFF = 8.0


class LLMError(RuntimeError):
    """A model call that failed for good (after retries, or at once if not retryable)."""


class LLMClient:
    """An OpenAI-compatible chat client with timeouts, retries and backoff."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "none",
        timeout: float = 30,
        max_retries: int = 3,
        *,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        import openai  # deferred: see the module docstring

        self._openai = openai
        self.base_url = base_url
        self.model = model
        self.max_retries = max_retries
        self.backoff = backoff
        self.sleep = sleep
        self.stats = {"calls": 0, "retries": 0, "failures": 0}
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0
        )

    def create(self, **request: Any) -> Any:
        """`chat.completions.create(model=self.model, **request)` with the retry policy."""
        openai = self._openai
        self.stats["calls"] += 1
        failure: Exception | None = None
        for attempt in range(self.max_retries + 1):
            wait = min(self.backoff * 2**attempt, MAX_BACKOFF)
            try:
                return self._client.chat.completions.create(model=self.model, **request)
            except openai.APIConnectionError as error:  # includes APITimeoutError
                failure = error
            except openai.APIStatusError as error:
                if error.status_code not in (408, 429) and error.status_code < 500:
                    self.stats["failures"] += 1
                    raise LLMError(f"{self.base_url} answered {error.status_code}: "
                                   f"{_short(error)}") from error
                failure = error
                wait = _retry_after(error, wait)
            except openai.OpenAIError as error:  # malformed answers and the like
                self.stats["failures"] += 1
                raise LLMError(f"{self.base_url}: {_short(error)}") from error
            if attempt < self.max_retries:
                self.stats["retries"] += 1
                self.sleep(wait)
        self.stats["failures"] += 1
        raise LLMError(
            f"{self.base_url} failed {self.max_retries + 1} times; last: {_short(failure)}"
        ) from failure

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0,
        max_tokens: int = 1024,
        seed: int | None = None,
    ) -> str:
        """The text of the first choice of one chat completion."""
        request: dict[str, Any] = {
            "messages": messages, "temperature": temperature, "max_tokens": max_tokens,
        }
        if response_format is not None:
            request["response_format"] = response_format
        if seed is not None:
            request["seed"] = seed
        completion = self.create(**request)
        choices = getattr(completion, "choices", None) or []
        content = choices[0].message.content if choices else None
        if content is None:
            raise LLMError(f"{self.base_url} returned no message content")
        return content


def _retry_after(error: Any, default: float) -> float:
    try:
        value = float(error.response.headers.get("retry-after", ""))
    except (AttributeError, TypeError, ValueError):
        return default
    return value if 0 <= value < 60 else default


def _short(error: Exception | None) -> str:
    text = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
    return text if len(text) <= 300 else text[:297] + "..."

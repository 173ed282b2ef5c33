"""The one OpenAI-compatible client: every language-model call in CompoWorld goes here.

`LLMClient(base_url, model)` talks to any OpenAI-compatible endpoint (vLLM in production,
a llama.cpp server in development). Retries are ours, not the `openai` package's (its
`max_retries` is set to 0): timeouts, connection errors, 408, 429, 5xx and malformed
replies (a body that is not JSON, or a completion without choices) are retried with
exponential backoff (0.5 s, 1 s, 2 s, ... capped at 8 s, or exactly the server's
`Retry-After`), up to `max_retries` times; then, and at once for any other error (400,
401, 404, ...), `LLMError` is raised. Every call also has a retry budget (`retry_budget`,
30 s by default): no retry starts, and no wait is begun, that would end past that many
seconds after the call began, so a call lasts at most about `retry_budget + timeout`
however long the server asks to wait. Doing it here keeps one policy for every caller,
lets tests replace the sleep, and counts retries in `stats`.

`openai` is imported when a client is made, not when this module is: importing it costs
about a second, and most of the library never talks to a model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

MAX_BACKOFF = 8.0
RETRY_BUDGET = 30.0


class LLMError(RuntimeError):
    """A model call that failed for good (after retries, or at once if not retryable)."""


class MalformedReply(ValueError):
    """The endpoint answered 200 with a body that is not a chat completion (retried)."""


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
        retry_budget: float = RETRY_BUDGET,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        import openai  # deferred: see the module docstring

        self._openai = openai
        self.base_url = base_url
        self.model = model
        self.max_retries = max_retries
        self.retry_budget = retry_budget
        self.backoff = backoff
        self.sleep = sleep
        self.clock = clock
        self.stats = {"calls": 0, "retries": 0, "failures": 0}
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0
        )

    def create(self, **request: Any) -> Any:
        """`chat.completions.create(model=self.model, **request)` with the retry policy."""
        openai = self._openai
        self.stats["calls"] += 1
        started = self.clock()
        failure: Exception | None = None
        for attempt in range(self.max_retries + 1):
            wait = min(self.backoff * 2**attempt, MAX_BACKOFF)
            try:
                raw = self._client.chat.completions.with_raw_response.create(
                    model=self.model, **request)
                check_completion(raw.http_response.json())
                return raw.parse()
            except openai.APIConnectionError as error:  # includes APITimeoutError
                failure = error
            except openai.APIStatusError as error:
                if error.status_code not in (408, 429) and error.status_code < 500:
                    self.stats["failures"] += 1
                    raise LLMError(f"{self.base_url} answered {error.status_code}: "
                                   f"{_short(error)}") from error
                failure = error
                wait = _retry_after(error, wait)
            # A 200 whose body is not JSON (a proxy's error page, a truncated reply) or not a
            # completion is the endpoint failing, as a 5xx is: retried, never a crash.
            except (json.JSONDecodeError, MalformedReply,
                    openai.APIResponseValidationError) as error:
                failure = error
            except openai.OpenAIError as error:
                self.stats["failures"] += 1
                raise LLMError(f"{self.base_url}: {_short(error)}") from error
            if attempt == self.max_retries:
                break
            spent = self.clock() - started
            if spent + wait > self.retry_budget:
                self.stats["failures"] += 1
                raise LLMError(
                    f"{self.base_url} failed {attempt + 1} times in {spent:.1f} s and the next "
                    f"try would wait {wait:g} s more, past the {self.retry_budget:g} s retry "
                    f"budget; last: {_short(failure)}"
                ) from failure
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


def check_completion(body: Any) -> None:
    """Raise MalformedReply unless `body` (a parsed JSON reply) is a chat completion whose
    first choice has a message with text (or null) content and, if any, tool calls naming a
    function with string arguments: the `openai` package builds its objects without
    validating them, so a bad body would fail later, in the caller."""
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise MalformedReply("the reply is not a chat completion with choices")
    message = choices[0].get("message")
    if not isinstance(message, dict) or not isinstance(message.get("content"), str | None):
        raise MalformedReply("the reply's first choice has no message text")
    calls = message.get("tool_calls")
    if calls is not None and not (isinstance(calls, list) and all(
        isinstance(call, dict) and isinstance(call.get("function"), dict)
        and isinstance(call["function"].get("name"), str)
        and isinstance(call["function"].get("arguments"), str) for call in calls
    )):
        raise MalformedReply("the reply's tool calls are not function calls")


def _retry_after(error: Any, default: float) -> float:
    """The server's `Retry-After` in seconds (the retry budget caps it), else `default`."""
    try:
        value = float(error.response.headers.get("retry-after", ""))
    except (AttributeError, TypeError, ValueError):
        return default
    return value if value >= 0 else default


def _short(error: Exception | None) -> str:
    text = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
    return text if len(text) <= 300 else text[:297] + "..."

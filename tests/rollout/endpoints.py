"""Misbehaving OpenAI-compatible endpoints on 127.0.0.1, for the failure paths of the client
and the rollout stage (tests/scripted_llm.py scripts the well-behaved replies).

`Endpoint(answer)` answers the n-th chat request (0-based) with `answer(n)`: a status, extra
headers and the raw body bytes, so a test can send what no real server should (a 200 whose
body is not JSON, a 429 with any `Retry-After`). `hanging_endpoint()` accepts connections
and never answers.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from tests.scripted_llm import LocalServer, QuietHandler, send

Answer = tuple[int, dict[str, str], bytes]
MALFORMED = b'{"id": "cmpl-1", "object": "chat.completion", "choices": [{"ind'  # cut short


def completion(content: str) -> bytes:
    """The body of a well-formed chat completion whose message is `content`."""
    return json.dumps({
        "id": "cmpl-1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }).encode()


def ok(content: str) -> Answer:
    """A 200 with a well-formed completion."""
    return 200, {}, completion(content)


def malformed() -> Answer:
    """A 200 `application/json` whose body is not JSON (a reply cut short)."""
    return 200, {}, MALFORMED


def rate_limited(retry_after: str) -> Answer:
    """A 429 asking the client to wait `retry_after` seconds."""
    return 429, {"Retry-After": retry_after}, b'{"error": {"message": "slow down"}}'


class Endpoint(LocalServer):
    """`with Endpoint(answer) as endpoint: LLMClient(endpoint.base_url, "m")`."""

    def __init__(self, answer: Callable[[int], Answer]) -> None:
        lock = threading.Lock()
        outer = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    index = len(outer.requests)
                    outer.requests.append(body)
                send(self, *answer(index))

        super().__init__(Handler)


@contextmanager
def hanging_endpoint() -> Iterator[str]:
    """The base URL of a socket that accepts connections (the kernel completes them into
    the backlog) and never reads or answers a byte."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"

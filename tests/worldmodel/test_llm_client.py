"""The OpenAI-compatible client's retry policy, against a scripted local HTTP endpoint.

The endpoint speaks just enough of `/v1/chat/completions` for the `openai` package; the
live test against a llama.cpp server comes with the later issue that brings one.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from compoworld.llm import LLMClient, LLMError


def completion(content: str | None) -> dict:
    return {"id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}]}


class Endpoint:
    """A local server answering each request with the next scripted (status, body, delay)."""

    def __init__(self, *script: tuple[int, dict, float]) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers["Content-Length"]))
                owner.requests.append(json.loads(body))
                status, payload, delay = owner.script.pop(0)
                time.sleep(delay)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    if status == 429:
                        self.send_header("Retry-After", "0")
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client timed out and hung up

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> Endpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


ERROR = {"error": {"message": "busy", "type": "server_error"}}


def client_for(endpoint: Endpoint, sleeps: list[float], **options) -> LLMClient:
    return LLMClient(endpoint.url, "tiny", timeout=options.pop("timeout", 5),
                     sleep=sleeps.append, **options)


def test_a_reply_comes_back_as_text_with_the_request_options():
    with Endpoint((200, completion('{"a": 1}'), 0)) as endpoint:
        client = client_for(endpoint, [])
        text = client.chat([{"role": "user", "content": "hi"}],
                           response_format={"type": "json_object"}, max_tokens=50, seed=3)
    assert text == '{"a": 1}'
    sent = endpoint.requests[0]
    assert sent["model"] == "tiny" and sent["response_format"] == {"type": "json_object"}
    assert (sent["max_tokens"], sent["temperature"], sent["seed"]) == (50, 0, 3)


def test_5xx_and_429_are_retried_with_exponential_backoff():
    script = [(500, ERROR, 0), (503, ERROR, 0), (429, ERROR, 0), (200, completion("ok"), 0)]
    sleeps: list[float] = []
    with Endpoint(*script) as endpoint:
        client = client_for(endpoint, sleeps, max_retries=3)
        assert client.chat([{"role": "user", "content": "hi"}]) == "ok"
    assert len(endpoint.requests) == 4
    assert sleeps == [0.5, 1.0, 0.0]  # the 429's Retry-After (0 s) wins over 2 s
    assert client.stats == {"calls": 1, "retries": 3, "failures": 0}


def test_giving_up_raises_llm_error():
    sleeps: list[float] = []
    with Endpoint(*[(502, ERROR, 0)] * 3) as endpoint:
        client = client_for(endpoint, sleeps, max_retries=2)
        with pytest.raises(LLMError, match="failed 3 times"):
            client.chat([{"role": "user", "content": "hi"}])
    assert len(endpoint.requests) == 3 and sleeps == [0.5, 1.0]


def test_a_client_error_is_not_retried():
    with Endpoint((400, {"error": {"message": "bad request"}}, 0)) as endpoint:
        client = client_for(endpoint, [])
        with pytest.raises(LLMError, match="400"):
            client.chat([{"role": "user", "content": "hi"}])
    assert len(endpoint.requests) == 1


def test_timeouts_are_retried():
    script = [(200, completion("late"), 1.0), (200, completion("fast"), 0)]
    sleeps: list[float] = []
    with Endpoint(*script) as endpoint:
        client = client_for(endpoint, sleeps, timeout=0.3, max_retries=1)
        assert client.chat([{"role": "user", "content": "hi"}]) == "fast"
    assert sleeps == [0.5]


def test_a_reply_without_content_is_an_error():
    with Endpoint((200, completion(None), 0)) as endpoint:
        with pytest.raises(LLMError, match="no message content"):
            client_for(endpoint, []).chat([{"role": "user", "content": "hi"}])

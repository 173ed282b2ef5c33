"""A scripted OpenAI-compatible endpoint for tests that need exact model replies.

It stands in for a capable coding model (a 35B model cannot run here): each chat completion
is answered by `reply(messages)`, with usage counted in characters. The real-model path is
tested against the local SmolLM2 server elsewhere. `LocalServer` is the loopback HTTP server
both this and the misbehaving endpoints of `tests/rollout/endpoints.py` run on.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

Reply = Callable[[list[dict[str, Any]]], str]


def send(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str],
         data: bytes) -> None:
    """Answer one request with `status`, JSON content type plus `headers`, and `data`."""
    handler.send_response(status)
    for name, value in {"Content-Type": "application/json", **headers}.items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that keeps the test output clean."""

    def log_message(self, *args: Any) -> None:
        pass


class LocalServer:
    """A threading HTTP server on 127.0.0.1 (a free port), serving while in a `with`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.requests: list[dict[str, Any]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


class ScriptedLLM(LocalServer):
    """`with ScriptedLLM(reply) as llm: LLMClient(llm.base_url, "scripted")`."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                send(self, 200, {}, json.dumps(
                    {"object": "list", "data": [{"id": "scripted", "object": "model"}]}).encode())

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                text = outer.reply(body["messages"])
                prompt = sum(len(m.get("content") or "") for m in body["messages"])
                send(self, 200, {}, json.dumps({
                    "id": f"cmpl-{len(outer.requests)}", "object": "chat.completion",
                    "created": 0, "model": body.get("model", "scripted"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": len(text),
                              "total_tokens": prompt + len(text)},
                }).encode())

        super().__init__(Handler)

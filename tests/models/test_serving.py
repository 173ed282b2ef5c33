"""The RL iteration's server: the CPU server, or any command with the same API (vLLM)."""

from __future__ import annotations

import sys

import pytest

from compoworld.llm import LLMClient
from compoworld.serve import ServerError
from models.serve import CheckpointServer
from models.serving import CommandServer, checkpoint_server

pytestmark = pytest.mark.slow


def test_a_serve_command_is_filled_in_and_answers_like_vllm(tiny_model):
    # Our own server stands in for vLLM here: what matters is the template and the API.
    template = (f"{sys.executable} -m models.serve --checkpoint {{checkpoint}} "
                "--port {port} --model-name {name}")
    server = checkpoint_server(tiny_model, "policy-it0", command=template)
    assert isinstance(server, CommandServer)
    with server:
        assert server.model == "policy-it0"
        assert str(tiny_model) in server.command()
        reply = LLMClient(server.base_url, server.model).chat(
            [{"role": "user", "content": "hi"}], max_tokens=4, seed=1)
        assert isinstance(reply, str)


def test_without_a_command_the_checkpoint_is_served_on_the_cpu(tiny_model):
    server = checkpoint_server(tiny_model, "policy", threads=1)
    assert isinstance(server, CheckpointServer) and server.alias == "policy"


def test_a_template_without_the_checkpoint_or_the_port_is_refused(tiny_model):
    with pytest.raises(ServerError, match=r"\{checkpoint\} and \{port\}"):
        CommandServer("vllm serve model", tiny_model, "policy")

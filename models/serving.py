"""Which server rolls a checkpoint out: our CPU server, or any command (vLLM on a GPU).

`train_rl_flow` serves each iteration's checkpoint with `checkpoint_server`. Without a
command it is `models.serve.CheckpointServer` (transformers on the CPU: tests and small
runs). With one, the command is run as given, e.g. vLLM in its own environment:

    /opt/vllm/bin/vllm serve {checkpoint} --served-model-name {name} --port {port}
        --enable-auto-tool-choice --tool-call-parser hermes --max-model-len 32768

`{checkpoint}`, `{name}` and `{port}` are filled in; the server is ready when it answers
`GET /v1/models` and one completion, as every `LLMServer` is.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from compoworld.serve import LLMServer, ServerError
from models.serve import CheckpointServer, check_checkpoint


class CommandServer(LLMServer):
    """An OpenAI-compatible server started by a command template (see the module doc)."""

    def __init__(self, template: str, checkpoint: Path, name: str, *,
                 startup_timeout: float = 900) -> None:
        missing = [key for key in ("{checkpoint}", "{port}") if key not in template]
        if missing:
            raise ServerError(f"the serve command must contain {' and '.join(missing)}: "
                              f"{template!r}")
        super().__init__(None, model_path=check_checkpoint(checkpoint), alias=name,
                         startup_timeout=startup_timeout)
        self.template = template

    def command(self) -> list[str]:
        """The template with the checkpoint, model name and port filled in."""
        return shlex.split(self.template.format(checkpoint=self.model_path, name=self.alias,
                                                port=self.port))


def checkpoint_server(checkpoint: str | Path, name: str, *, command: str | None = None,
                      threads: int = 1) -> LLMServer:
    """The server of one RL iteration: `command` (vLLM) if given, else the CPU server."""
    if command:
        return CommandServer(command, Path(checkpoint), name)
    return CheckpointServer(Path(checkpoint), model_name=name, threads=threads)

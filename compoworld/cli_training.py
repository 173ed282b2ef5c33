"""The training commands of `compoworld`: tiny-model, train-sft, train-rl, serve-checkpoint.

Like the other commands they import the flows and `models/` lazily, inside the command, so
the library never imports them and `compoworld sql` does not pay for torch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from compoworld.cli import (
    ActionModeName,
    DaskAddressOption,
    HomeOption,
    ModeName,
    OutputFormat,
    app,
    fail,
    print_rows,
    resolve_run_id,
    run_flow,
    serve_until_stopped,
)

RunIdOption = Annotated[str | None, typer.Option(help="Run whose data to train on. "
                                                      "Default: date.")]
OverrideOption = Annotated[
    list[str] | None,
    typer.Option("--override", "-o", help="Config override key=value (repeatable), e.g. "
                                          "-o optimizer.lr=1e-4."),
]


def _train(flow: Any, **parameters: Any) -> dict[str, Any]:
    """Run a training flow; a missing file or a failed recipe is one line and exit 1."""
    from models.training import TrainingFailed

    try:
        return run_flow(flow, **parameters)
    except (FileNotFoundError, TrainingFailed) as error:
        raise fail(str(error), 1) from None


@app.command("tiny-model")
def tiny_model(
    out: Annotated[Path, typer.Option(help="Folder to write the model into.")],
    seed: Annotated[int, typer.Option(help="Seed of the random weights.")] = 0,
    run_id: RunIdOption = None,
    home: HomeOption = None,
) -> None:
    """Build the tiny Qwen2-shaped test model (2 layers, 64 wide, random weights) with a
    tokenizer trained on the run's exported SFT trajectories, in Hugging Face form."""
    run_id = resolve_run_id(run_id)
    from models.data import read_trajectories
    from models.tiny import build_tiny_model
    from storage.store import Store

    store = Store.open(home)
    trajectories = []
    if store.files("sft", run_id):
        trajectories = read_trajectories(store.home, run_id)
    if not trajectories:
        raise fail(f"run {run_id!r} has no SFT trajectories: run `compoworld export sft "
                   f"--run-id {run_id}` first")
    build_tiny_model(out, trajectories, seed=seed)
    typer.echo(f"tiny model ({len(trajectories)} trajectories for its tokenizer): {out}")


@app.command("train-sft")
def train_sft(
    config: Annotated[str, typer.Option(help="torchtune config (a path, or a name under "
                                             "models/configs/).")] = "tiny_full",
    base_checkpoint: Annotated[
        str, typer.Option(help="Hugging Face folder to fine-tune, or 'tiny' to build the "
                               "tiny test model from the run's trajectories.")] = "tiny",
    chat_format: Annotated[
        str | None, typer.Option(help="qwen or json-action (default: the config's).")
    ] = None,
    steps: Annotated[int | None, typer.Option(min=1, help="Cap on steps per epoch.")] = None,
    override: OverrideOption = None,
    seed: Annotated[int, typer.Option(help="Training seed.")] = 0,
    run_id: RunIdOption = None,
    home: HomeOption = None,
) -> None:
    """Fine-tune a checkpoint on the run's verified trajectories with torchtune (exports
    them first); records a training_runs row and prints the loss and the checkpoint."""
    run_id = resolve_run_id(run_id)
    from flows.train_sft import train_sft_flow

    row = _train(train_sft_flow, run_id=run_id, config=config,
                 base_checkpoint=base_checkpoint, chat_format=chat_format, steps=steps,
                 overrides=override or [], seed=seed, home=home)
    Console(stderr=True).print(
        f"[bold]{row['training_id']}[/]: {row['steps']} steps, loss {row['first_loss']:.3f} "
        f"-> {row['final_loss']:.3f} in {row['seconds']} s\ncheckpoint: {row['checkpoint']}")


@app.command("train-rl")
def train_rl(
    base_checkpoint: Annotated[str, typer.Option(help="Hugging Face folder to start from "
                                                      "(e.g. a train-sft checkpoint).")],
    reference: Annotated[str | None, typer.Option(
        help="Reference model of the KL term (default: the base checkpoint).")] = None,
    config: Annotated[str, typer.Option(help="GRPO-CFRR config (path or name).")
                      ] = "grpo_cfrr_tiny",
    iterations: Annotated[int, typer.Option(min=1, help="Rollout + update rounds.")] = 2,
    tasks_per_iteration: Annotated[int, typer.Option(min=1, help="RL tasks per round.")] = 8,
    group_size: Annotated[int, typer.Option(min=2, help="Rollouts per task (G).")] = 4,
    mode: Annotated[ModeName, typer.Option(help="Tool view.")] = ModeName.gateway,
    action_mode: Annotated[ActionModeName, typer.Option(
        help="How the served model acts.")] = ActionModeName.json_action,
    max_steps: Annotated[int | None, typer.Option(min=1, help="Step cap per episode.")] = 4,
    max_tokens: Annotated[int, typer.Option(min=1, help="Tokens per model reply.")] = 64,
    alpha: Annotated[float, typer.Option(help="CFRR weight exponent.")] = 1.0,
    eps: Annotated[float, typer.Option(help="CFRR weight floor.")] = 0.05,
    beta: Annotated[float, typer.Option(help="CFRR completion bonus.")] = 0.5,
    seed: Annotated[int, typer.Option(help="Seed of rollouts and updates.")] = 0,
    override: OverrideOption = None,
    serve_command: Annotated[str | None, typer.Option(
        help="Serve each checkpoint with this command instead of on the CPU, e.g. "
             "'vllm serve {checkpoint} --served-model-name {name} --port {port} "
             "--enable-auto-tool-choice --tool-call-parser hermes'.")] = None,
    run_id: RunIdOption = None,
    dask_address: DaskAddressOption = None,
    home: HomeOption = None,
) -> None:
    """Rubric-weighted RL: each iteration serves the current checkpoint, rolls it out in
    groups on the next RL tasks, scores them with CFRR and applies a GRPO update. Prints
    the metrics of every iteration; rerun with the same arguments to resume."""
    run_id = resolve_run_id(run_id)
    from flows.train_rl import train_rl_flow
    from models.training import require_checkpoint

    for role, folder in (("base checkpoint", base_checkpoint), ("reference", reference)):
        try:
            if folder is not None:
                require_checkpoint(folder, role)
        except FileNotFoundError as error:
            raise fail(str(error), 1) from None
    summary = _train(
        train_rl_flow, run_id=run_id, base_checkpoint=base_checkpoint,
        reference=reference, config=config, iterations=iterations,
        tasks_per_iteration=tasks_per_iteration, group_size=group_size, mode=mode.value,
        action_mode=action_mode.value, max_steps=max_steps, max_tokens=max_tokens,
        alpha=alpha, eps=eps, beta=beta, seed=seed, overrides=override or [],
        serve_command=serve_command, dask_address=dask_address, home=home)
    columns = ["iteration", "rollouts", "mean_reward", "completion_rate",
               "nonzero_advantages", "loss", "kl", "seconds_rollout", "seconds_update"]
    rows = [tuple(round(v, 4) if isinstance(v, float) else v for v in
                  (m.get(c) for c in columns)) for m in summary.get("iterations", [])]
    if rows:
        print_rows(columns, rows, OutputFormat.table, title=summary["training_id"])
    typer.echo(f"checkpoint: {summary['checkpoint']}", err=True)


@app.command("serve-checkpoint")
def serve_checkpoint(
    checkpoint: Annotated[Path, typer.Argument(help="Hugging Face checkpoint folder.")],
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port on 127.0.0.1.")] = 8000,
    threads: Annotated[int, typer.Option(min=1, help="CPU threads for torch.")] = 1,
) -> None:
    """Serve a training checkpoint on the CPU as an OpenAI-compatible endpoint (what
    train-rl rolls out; vLLM serves the same folder on a GPU) until Ctrl-C."""
    from compoworld.serve import ServerError
    from models.serve import CheckpointServer

    try:
        server = CheckpointServer(checkpoint, port, threads=threads)
    except ServerError as error:
        raise fail(str(error), 1) from None
    serve_until_stopped(server)

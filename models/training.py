"""Running torchtune recipes and recording training runs.

A training run is a recipe (`tune run <recipe> --config <yaml> key=value ...`) in a
subprocess: torchtune owns its process (seeds, threads, device), and a crash in it (out of
memory, a CUDA fault) ends that process, not the flow's, which reports it with the log.
The recipe comes from the config's own header command, the one a person would type, so
what the flow runs and what the header documents cannot drift. Losses come back from
torchtune's `DiskLogger` file; the run is recorded as one `training_runs` row, written like
a stage shard (atomically, with a manifest row), so a run whose inputs are unchanged is
found done and not trained again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from compoworld.shards import Shard
from storage.store import Store

REPO = Path(__file__).resolve().parent.parent
CONFIGS = REPO / "models" / "configs"
TABLE = "training_runs"
_STEP = re.compile(r"^Step (\d+) \| (.*)$")
_TUNE_RUN = re.compile(r"tune run ((?:--\S+ \S+ )*)(\S+) --config")


class TrainingFailed(RuntimeError):
    """A recipe exited with an error (the message ends with its log's last lines)."""


def resolve_config(config: str | Path) -> Path:
    """A config path as given, else relative to the repository (deployments run from any
    folder), else a name under `models/configs/`."""
    for path in (Path(config), REPO / config, CONFIGS / config, CONFIGS / f"{config}.yaml"):
        if path.is_file():
            return path.resolve()
    names = ", ".join(sorted(p.stem for p in CONFIGS.glob("*.yaml")))
    raise FileNotFoundError(f"no config {config!r}; the configs are: {names}")


def require_checkpoint(folder: str | Path, role: str) -> str:
    """`folder` if it is a Hugging Face checkpoint (has config.json), else a
    FileNotFoundError naming its `role` and how to make one."""
    if not (Path(folder) / "config.json").is_file():
        raise FileNotFoundError(f"{role} {str(folder)!r} is not a Hugging Face checkpoint "
                                "folder (no config.json): train one with `compoworld "
                                "train-sft`, or build one with `compoworld tiny-model`")
    return str(folder)


def launch_of(config: Path) -> list[str]:
    """`tune run`'s arguments before `--config` in the config's header command: launcher
    options (`--nproc_per_node 8`) if any, then the recipe (a torchtune recipe name, or a
    file path relative to the repository: `tune run` turns it into a module path)."""
    for line in config.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        match = _TUNE_RUN.search(line)
        if match:
            return [*match.group(1).split(), match.group(2)]
    raise ValueError(f"{config} has no `tune run <recipe> --config ...` line in its header")


def recipe_of(config: Path) -> str:
    """The recipe the config's header command runs."""
    return launch_of(config)[-1]


def load_config(config: Path, overrides: list[str]) -> dict[str, Any]:
    """The config with `key=value` overrides applied, interpolations resolved."""
    from omegaconf import OmegaConf

    merged = OmegaConf.merge(OmegaConf.load(config), OmegaConf.from_dotlist(overrides))
    return OmegaConf.to_container(merged, resolve=True)  # type: ignore[return-value]


def run_id_digest(*parts: Any) -> str:
    """A short stable digest of JSON-serialisable parts (names training runs)."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def training_name(kind: str, config: Path, *inputs: Any) -> str:
    """`<kind>-<config name>-<digest>` over the config's text and the run's inputs: the
    same inputs name the same run, which is how a finished run is found again."""
    return f"{kind}-{config.stem}-" + run_id_digest(config.read_text(), *inputs)


def run_recipe(config: Path, overrides: list[str], log_path: Path, *,
               on_line: Callable[[str], None] | None = None) -> float:
    """Run the config's recipe with `overrides`; its output goes to `log_path` (and each
    line to `on_line`). Returns the wall time; raises `TrainingFailed` on a non-zero exit."""
    launch = launch_of(config)
    recipe = launch[-1]
    command = [sys.executable, "-m", "torchtune._cli.tune", "run", *launch,
               "--config", str(config), *overrides]
    env = os.environ | {"PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    log_path.parent.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    with log_path.open("w", encoding="utf-8") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, bufsize=1)
        assert process.stdout is not None
        for line in process.stdout:
            log.write(line)
            if on_line is not None:
                on_line(line.rstrip("\n"))
        code = process.wait()
    if code != 0:
        tail = "\n".join(log_path.read_text(encoding="utf-8").splitlines()[-15:])
        raise TrainingFailed(f"{recipe} exited with code {code}; {log_path} ends with:\n{tail}")
    return time.perf_counter() - began


def read_step_log(log_dir: Path) -> list[dict[str, float]]:
    """Every `Step N | key:value ...` line of torchtune's DiskLogger files in `log_dir`
    (the newest file's lines last), as dicts with `step` and the logged values."""
    steps = []
    for path in sorted(log_dir.glob("log_*.txt"), key=lambda p: p.stat().st_mtime):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = _STEP.match(line.strip())
            if not match:
                continue
            values = {"step": float(match.group(1))}
            for pair in match.group(2).split():
                key, _, value = pair.partition(":")
                try:
                    values[key] = float(value)
                except ValueError:
                    continue
            steps.append(values)
    return steps


def step_summary(steps: list[dict[str, float]]) -> dict[str, Any]:
    """Steps, losses and mean throughput of a recipe's step log."""
    if not steps:
        raise TrainingFailed("the recipe logged no step")
    losses = [step["loss"] for step in steps]
    speeds = [step["tokens_per_second_per_gpu"] for step in steps
              if "tokens_per_second_per_gpu" in step]
    return {"steps": len(steps), "losses": losses, "first_loss": losses[0],
            "final_loss": losses[-1],
            "tokens_per_second": round(sum(speeds) / len(speeds), 2) if speeds else None}


def final_checkpoint(output_dir: Path) -> Path:
    """The last `epoch_N` folder the HF checkpointer wrote."""
    epochs = sorted(output_dir.glob("epoch_*"), key=lambda p: int(p.name.split("_")[1]))
    if not epochs or not (epochs[-1] / "config.json").is_file():
        raise TrainingFailed(f"the recipe wrote no checkpoint under {output_dir}")
    return epochs[-1]


def _shard(run_id: str, name: str) -> Shard:
    return Shard(run_id=run_id, stage=f"train-{name}", index=0, count=1, input_hash=name,
                 items=[name], params={}, work="models.training")


def finished_row(store: Store, run_id: str, table: str, name: str,
                 equal: dict[str, Any]) -> dict[str, Any] | None:
    """The recorded row `name` of `table` (a training run, an RL iteration) if it was
    written in full and its checkpoint is still there."""
    if store.pending([_shard(run_id, name)]):
        return None
    rows = store.read(table, run_id, equal=equal)
    return rows[0] if rows and Path(rows[0]["checkpoint"]).is_dir() else None


def finished_run(store: Store, run_id: str, training_id: str) -> dict[str, Any] | None:
    """The recorded row of a training run that already finished, if any."""
    return finished_row(store, run_id, TABLE, training_id, {"training_id": training_id})


def record_row(store: Store, run_id: str, table: str, name: str,
               row: dict[str, Any]) -> dict[str, Any]:
    """Write one row of `table` under the name `name` (atomically, then its manifest row,
    as a stage shard); returns the row as written."""
    shard = _shard(run_id, name)
    row = row | {"finished_at": datetime.now(UTC)}
    store.write_shard(shard, {table: [row]})
    store.record(shard, status="done", rows=1, seconds=row.get("seconds") or 0.0)
    return row


def record_run(store: Store, run_id: str, row: dict[str, Any]) -> dict[str, Any]:
    """Write one `training_runs` row."""
    return record_row(store, run_id, TABLE, row["training_id"], row)

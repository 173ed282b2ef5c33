"""Every torchtune config under models/configs/ is checked here, so a config never rots: it
loads, its header says how to run it, every component resolves, the recipe it names exists
and finds the keys it reads, the tiny ones have the tiny model's shape (and build a small
model), and the chat format is one we render. Production models are never instantiated.

A new YAML file is covered as soon as it exists (the list is a glob). Configs named `grpo_*`
belong to our own RL recipe: the built-in recipes' key check is skipped for them.
"""

from __future__ import annotations

import ast
import functools
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

torchtune = pytest.importorskip("torchtune")
from omegaconf import DictConfig, OmegaConf  # noqa: E402
from torchtune import config as tune_config  # noqa: E402
from torchtune._recipe_registry import Recipe, get_all_recipes  # noqa: E402
from torchtune.config._utils import _get_component_from_path  # noqa: E402

from models.chat import FORMATS  # noqa: E402
from models.tiny import TINY_SHAPE  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CONFIG_DIR = REPO / "models" / "configs"
CONFIGS = sorted(CONFIG_DIR.glob("*.yaml"))
RECIPES_DIR = Path(torchtune.__file__).parent.parent / "recipes"
# What every built-in training recipe reads, whatever its source says.
BUILTIN_KEYS = (
    "model", "tokenizer", "checkpointer", "dataset", "optimizer", "loss", "epochs",
    "batch_size", "device", "dtype", "output_dir", "metric_logger", "seed",
    "gradient_accumulation_steps", "max_steps_per_epoch",
)
# `tune run` / torchrun options that take no value.
FLAGS = {"--standalone", "--no-python", "--no_python", "--module", "-m", "--run-path",
         "--run_path"}

configs = pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])


def load(path: Path) -> DictConfig:
    return OmegaConf.load(path)


def header(path: Path) -> list[str]:
    """The leading comment block, one logical line per entry (backslash-continued lines
    joined), without the `#`."""
    lines: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.startswith("#"):
            break
        text = raw[1:].strip()
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1].rstrip() + " " + text
        else:
            lines.append(text)
    return lines


def tune_command(path: Path) -> list[str]:
    """The words of the header's `tune run ...` command, after `tune run`."""
    commands = [line for line in header(path) if line.startswith("tune run ")]
    assert commands, f"{path.name}: no `tune run ...` line in the header comment"
    return shlex.split(commands[0])[2:]


def recipe_of(words: list[str]) -> str:
    """The recipe a `tune run` command runs: its first word that is not a launcher option."""
    i = 0
    while i < len(words) and words[i].startswith("-"):
        i += 1 if "=" in words[i] or words[i] in FLAGS else 2
    assert i < len(words), f"no recipe in `tune run {' '.join(words)}`"
    return words[i]


def builtin_recipes() -> dict[str, Recipe]:
    return {recipe.name: recipe for recipe in get_all_recipes()}


@functools.cache
def recipe_reads(file: Path) -> tuple[frozenset[str], frozenset[str]]:
    """Config keys a recipe reads without a default: `cfg.KEY` (top level) and
    `cfg_model.KEY` (the model section, LoRA recipes); `cfg.get(...)` is optional."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    top: set[str] = set()
    model: set[str] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and id(node) not in called):
            if node.value.id == "cfg":
                top.add(node.attr)
            elif node.value.id == "cfg_model":
                model.add(node.attr)
    return frozenset(top), frozenset(model)


def components(node: Any, where: str = "") -> list[tuple[str, str]]:
    """(key path, `_component_`) of every component in a config tree."""
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "_component_":
                found.append((where or "<root>", value))
            else:
                found += components(value, f"{where}.{key}" if where else str(key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += components(value, f"{where}[{index}]")
    return found


def is_tiny(path: Path) -> bool:
    """tiny_full, tiny_lora, grpo_cfrr_tiny, ..."""
    return "tiny" in path.stem.split("_")


def is_grpo(path: Path) -> bool:
    return path.stem.startswith("grpo_")


def test_the_glob_finds_every_config():
    assert len(CONFIGS) >= 6, f"only {[p.name for p in CONFIGS]} under {CONFIG_DIR}"


@configs
def test_loads_and_resolves_interpolations(path: Path):
    cfg = load(path)
    assert isinstance(cfg, DictConfig)
    OmegaConf.to_container(cfg, resolve=True)  # every ${...} points somewhere


@configs
def test_header_gives_the_command_that_runs_this_file(path: Path):
    words = tune_command(path)
    assert "--config" in words, f"{path.name}: the tune run command names no --config"
    named = Path(words[words.index("--config") + 1])
    assert named == path.relative_to(REPO), f"{path.name}: the command runs {named}"


@configs
def test_every_component_resolves(path: Path):
    found = components(OmegaConf.to_container(load(path), resolve=True))
    assert found, f"{path.name} has no _component_"
    for where, dotted in found:
        assert callable(_get_component_from_path(dotted)), f"{path.name}: {where}={dotted}"


@configs
def test_the_recipe_exists_and_finds_its_keys(path: Path):
    words = tune_command(path)
    name = recipe_of(words)
    recipes = builtin_recipes()
    if name not in recipes:
        assert (REPO / name).is_file(), f"{path.name}: recipe {name} is neither a built-in " \
                                        "torchtune recipe nor a file in this repo"
        return
    recipe = recipes[name]
    distributed = any(w.startswith("--nproc_per_node") for w in words)
    assert not distributed or recipe.supports_distributed, \
        f"{path.name}: {name} cannot run with --nproc_per_node"
    if is_grpo(path):
        return
    cfg = load(path)
    # Where `tune run` finds them: the `recipes` folder beside the torchtune package.
    top, model = recipe_reads(RECIPES_DIR / recipe.file_path)
    missing = sorted(k for k in set(BUILTIN_KEYS) | top if k not in cfg)
    assert not missing, f"{path.name}: {name} reads {missing}"
    missing = sorted(k for k in model if k not in cfg.model)
    assert not missing, f"{path.name}: {name} reads model.{missing}"


@configs
def test_dataset_chat_format_is_one_we_render(path: Path):
    cfg = load(path)
    if "dataset" in cfg or not is_grpo(path):
        chat_format = cfg.dataset.get("chat_format")
    else:  # our RL recipe reads rollouts, not a dataset: the format is top level
        chat_format = cfg.get("chat_format")
    assert chat_format in FORMATS, f"{path.name}: chat_format={chat_format!r}"


@configs
def test_production_header_says_where_weights_come_from_and_how_to_serve(path: Path):
    if is_tiny(path) or is_grpo(path):
        pytest.skip("the tiny model is built here; RL configs say their own")
    text = "\n".join(header(path))
    assert "huggingface-cli download Qwen/" in text
    assert "vllm serve OUT/epoch_0 --served-model-name policy" in text
    assert "GPU memory" in text and "estimate" in text


@configs
def test_checkpoint_files_are_the_whole_shard_list(path: Path):
    cfg = load(path)
    if is_grpo(path) and not cfg.get("checkpointer", {}).get("checkpoint_files"):
        pytest.skip("no checkpointer.checkpoint_files: the RL recipe finds them itself")
    files = list(cfg.checkpointer.checkpoint_files)
    shards = [re.fullmatch(r"model-(\d{5})-of-(\d{5})\.safetensors", f) for f in files]
    if not all(shards):
        assert files == ["model.safetensors"], f"{path.name}: {files}"
        return
    total = int(shards[0].group(2))
    assert [(int(m.group(1)), int(m.group(2))) for m in shards] == \
        [(i, total) for i in range(1, total + 1)], f"{path.name}: {files}"


@configs
def test_tiny_configs_have_the_tiny_shape_and_build_a_small_model(path: Path):
    if not is_tiny(path):
        pytest.skip("production models are not instantiated here")
    cfg = load(path)
    shared = [key for key in TINY_SHAPE if key in cfg.model]
    assert shared, f"{path.name}: model section has none of TINY_SHAPE's keys"
    for key in shared:
        assert cfg.model[key] == TINY_SHAPE[key], f"{path.name}: model.{key}"
    model = tune_config.instantiate(cfg.model)
    assert sum(p.numel() for p in model.parameters()) < 1_000_000

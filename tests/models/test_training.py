"""How flows run recipes: the header command of each config, and torchtune's step log."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.training import (
    CONFIGS,
    TrainingFailed,
    launch_of,
    read_step_log,
    recipe_of,
    resolve_config,
    step_summary,
)

CONFIG_FILES = sorted(CONFIGS.glob("*.yaml"))


@pytest.mark.parametrize("config", CONFIG_FILES, ids=lambda p: p.stem)
def test_the_flow_launches_what_the_header_says(config: Path):
    launch = launch_of(config)
    header = next(line for line in config.read_text().splitlines() if "tune run" in line)
    assert header.split("tune run ", 1)[1].startswith(" ".join(launch) + " --config")
    if "distributed" in launch[-1]:
        assert "--nproc_per_node" in launch
    else:
        assert launch == [recipe_of(config)]


def test_a_config_is_found_by_path_or_by_name():
    assert resolve_config("tiny_full") == resolve_config("models/configs/tiny_full.yaml")
    with pytest.raises(FileNotFoundError, match="grpo_cfrr_tiny"):
        resolve_config("tiny_fulll")


def test_a_header_without_a_command_is_refused(tmp_path):
    config = tmp_path / "bare.yaml"
    config.write_text("# no command here\nseed: 0\n")
    with pytest.raises(ValueError, match="no `tune run"):
        launch_of(config)


def test_the_step_log_is_read_back_into_losses(tmp_path):
    (tmp_path / "log_1.txt").write_text(
        "Step 1 | loss:2.5 lr:0.001 tokens_per_second_per_gpu:100.0 \n"
        "something else\n"
        "Step 2 | loss:1.5 lr:0.001 tokens_per_second_per_gpu:300.0 \n")
    steps = read_step_log(tmp_path)
    assert [s["loss"] for s in steps] == [2.5, 1.5]
    summary = step_summary(steps)
    assert summary == {"steps": 2, "losses": [2.5, 1.5], "first_loss": 2.5,
                       "final_loss": 1.5, "tokens_per_second": 200.0}
    with pytest.raises(TrainingFailed, match="no step"):
        step_summary(read_step_log(tmp_path / "empty"))

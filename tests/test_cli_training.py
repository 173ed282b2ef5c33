"""The training commands: one clear line and a non-zero exit on what they cannot use."""

from __future__ import annotations

from typer.testing import CliRunner

from compoworld.cli import app

runner = CliRunner()


def test_the_training_commands_are_registered():
    result = runner.invoke(app, ["--help"])
    for command in ("train-sft", "train-rl", "tiny-model", "serve-checkpoint"):
        assert command in result.output


def test_train_rl_refuses_a_folder_that_is_not_a_checkpoint(tmp_path):
    result = runner.invoke(app, ["train-rl", "--base-checkpoint", str(tmp_path),
                                 "--home", str(tmp_path / "home"), "--run-id", "r"])
    assert result.exit_code == 1
    assert "not a Hugging Face checkpoint folder" in result.output
    assert "Traceback" not in result.output


def test_train_rl_refuses_a_group_of_one(tmp_path):
    result = runner.invoke(app, ["train-rl", "--base-checkpoint", str(tmp_path),
                                 "--group-size", "1"])
    assert result.exit_code == 2


def test_tiny_model_needs_exported_trajectories(tmp_path):
    result = runner.invoke(app, ["tiny-model", "--out", str(tmp_path / "tiny"),
                                 "--home", str(tmp_path / "home"), "--run-id", "r"])
    assert result.exit_code != 0
    assert "compoworld export sft --run-id r" in result.output
    assert not (tmp_path / "tiny").exists()


def test_serve_checkpoint_refuses_a_folder_without_a_model(tmp_path):
    result = runner.invoke(app, ["serve-checkpoint", str(tmp_path)])
    assert result.exit_code == 1
    assert "config.json" in result.output

"""bench/gpu_check.sh on a machine without a GPU: it says it skipped and exits 0, so CI and
laptops can run it blindly (on a GPU machine, run it by hand: it trains for minutes)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "gpu_check.sh"


def has_gpu() -> bool:
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def test_script_is_executable_bash_with_strict_mode():
    text = SCRIPT.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert SCRIPT.stat().st_mode & 0o111


@pytest.mark.skipif(has_gpu(), reason="a GPU is here: the script would train")
def test_skips_cleanly_without_a_gpu():
    done = subprocess.run(["bash", str(SCRIPT)], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "gpu_check: skipped (no GPU)" in done.stdout.splitlines()

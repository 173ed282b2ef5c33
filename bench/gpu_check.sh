#!/usr/bin/env bash
# GPU check: SFT throughput and peak memory of a small real-shaped model, then one RL
# iteration (compoworld train-rl). Skips cleanly on a machine without a GPU.
#
#   bench/gpu_check.sh [TRAJECTORIES.jsonl]
#
# Trajectories: the JSONL given; else the `sft` table of run $RUN in $COMPOWORLD_HOME
# (exported with `compoworld export sft`); else a fresh small run on the built-in services
# (`compoworld regenerate --source builtin`, ~1 minute on a CPU). Work files go to
# $GPU_CHECK_DIR (default: a new /tmp/gpu_check.* folder).
#
# SFT: bench/make_real_shaped.py builds a randomly initialised Qwen2.5-0.5B-shaped model
# (896 wide, 24 layers, tied embeddings) with the tiny tokenizer (2048 tokens), then
# `tune run full_finetune_single_device` trains it ~50 steps with models/configs/tiny_full.yaml
# overridden to that shape, device cuda, bf16. It prints
#   gpu_check sft: tokens/s=... peak_mem_GiB=... steps=... loss=FIRST->LAST
# from torchtune's DiskLogger log: tokens/s is the median of tokens_per_second_per_gpu after
# 5 warm-up steps (torchtune counts trained, i.e. assistant, tokens), peak_mem_GiB the largest
# peak_memory_reserved. Needs the project's environment (make setup): torch with CUDA,
# torchtune, and this repo installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
BATCH=4
STEPS=50
MAX_SEQ_LEN=4096

cuda=$("$PY" -c "import torch; print(torch.cuda.is_available())" 2>/dev/null || true)
if ! command -v nvidia-smi >/dev/null 2>&1 || [ "$cuda" != "True" ]; then
    echo "gpu_check: skipped (no GPU)"
    exit 0
fi
BIN=$(dirname "$(command -v "$PY")")
TUNE="$BIN/tune"
COMPOWORLD="$BIN/compoworld"

WORK=${GPU_CHECK_DIR:-$(mktemp -d /tmp/gpu_check.XXXXXX)}
mkdir -p "$WORK"
STORE=""   # store and run the RL iteration reads, when there is one
STORE_RUN=""

# Path of the SFT trajectories (stdout); logs go to $WORK.
trajectories() {
    if [ $# -ge 1 ]; then
        echo "$1"
    elif [ -n "${COMPOWORLD_HOME:-}" ] && [ -n "${RUN:-}" ]; then
        "$COMPOWORLD" export sft --run-id "$RUN" --home "$COMPOWORLD_HOME" \
            --out "$WORK/sft.jsonl" >"$WORK/export.log" 2>&1
        echo "$WORK/sft.jsonl"
    else
        "$COMPOWORLD" regenerate --source builtin --services all --tasks 60 --rl-policy none \
            --run-id gpu-check --home "$WORK/home" >"$WORK/regenerate.log" 2>&1
        echo "$WORK/home/exports/gpu-check/sft.jsonl"
    fi
}

sft_check() {
    local data=$1 n per_epoch epochs per_epoch_steps
    "$PY" bench/make_real_shaped.py "$WORK/model" "$data" >"$WORK/make_model.log" 2>&1
    # Trajectories left after cutting to MAX_SEQ_LEN tokens (the dataset drops the rest).
    n=$("$PY" -c "import sys; from models.data import sft_dataset
from models.tokenizer import load_tokenizer
print(len(sft_dataset(load_tokenizer(sys.argv[1], int(sys.argv[3])), sys.argv[2], 'json-action')))" \
        "$WORK/model" "$data" "$MAX_SEQ_LEN" 2>"$WORK/count.log")
    per_epoch=$((n / BATCH))
    if [ "$per_epoch" -lt 1 ]; then
        echo "gpu_check sft: $data has $n trajectories, fewer than a batch of $BATCH" >&2
        exit 1
    fi
    epochs=$(((STEPS + per_epoch - 1) / per_epoch))
    per_epoch_steps=$(((STEPS + epochs - 1) / epochs))
    # shellcheck disable=SC2046  # the overrides are separate words
    if ! "$TUNE" run full_finetune_single_device --config models/configs/tiny_full.yaml \
        checkpoint_dir="$WORK/model" dataset.source="$data" output_dir="$WORK/sft" \
        $("$PY" bench/make_real_shaped.py --overrides) \
        device=cuda dtype=bf16 log_peak_memory_stats=True optimizer.lr=3e-4 \
        tokenizer.max_seq_len="$MAX_SEQ_LEN" batch_size="$BATCH" epochs="$epochs" \
        max_steps_per_epoch="$per_epoch_steps" >"$WORK/sft.log" 2>&1; then
        tail -40 "$WORK/sft.log" >&2
        echo "gpu_check sft: failed (log: $WORK/sft.log)" >&2
        exit 1
    fi
    "$PY" - "$WORK/sft/logs" <<'EOF'
import statistics
import sys
from pathlib import Path

steps = []
for line in sorted(Path(sys.argv[1]).glob("log_*.txt"))[-1].read_text().splitlines():
    if line.startswith("Step ") and "loss:" in line:
        fields = dict(f.split(":", 1) for f in line.split("|", 1)[1].split())
        steps.append({k: float(v) for k, v in fields.items()})
if not steps:
    sys.exit("gpu_check sft: no steps in the training log")
rates = [s["tokens_per_second_per_gpu"] for s in steps[5:] or steps]
peak = max(s.get("peak_memory_reserved", 0.0) for s in steps)
print(f"gpu_check sft: tokens/s={statistics.median(rates):.0f} peak_mem_GiB={peak:.2f} "
      f"steps={len(steps)} loss={steps[0]['loss']:.3f}->{steps[-1]['loss']:.3f}")
EOF
}

# One RL iteration from the SFT checkpoint: the checkpoint is served (our CPU server: vLLM
# is not in this environment), rolled out on 8 RL tasks x 4, scored with CFRR and updated
# with the GRPO-CFRR recipe on the GPU. Prints the recipe's throughput and peak memory.
rl_iteration() {
    if [ -z "$STORE" ]; then
        echo "gpu_check rl: skipped (no store: give COMPOWORLD_HOME and RUN, or no JSONL)"
        return 0
    fi
    local overrides=()
    for word in $("$PY" bench/make_real_shaped.py --overrides); do
        overrides+=(-o "$word")
    done
    "$COMPOWORLD" train-rl --home "$STORE" --run-id "$STORE_RUN" \
        --base-checkpoint "$WORK/sft/epoch_0" --iterations 1 --tasks-per-iteration 8 \
        --group-size 4 "${overrides[@]}" -o device=cuda -o dtype=bf16 \
        >"$WORK/rl.log" 2>&1 || {
        tail -40 "$WORK/rl.log" >&2
        echo "gpu_check rl: failed (log: $WORK/rl.log)" >&2
        exit 1
    }
    "$PY" - "$STORE/training/$STORE_RUN" <<'EOF'
import json
import sys
from pathlib import Path

runs = sorted(Path(sys.argv[1]).glob("rl-*/iter0/metrics.json"),
              key=lambda p: p.stat().st_mtime)
if not runs:
    sys.exit("gpu_check rl: the iteration wrote no metrics.json")
m = json.loads(runs[-1].read_text())
print(f"gpu_check rl: update tokens/s={m['tokens_per_second']:.0f} "
      f"peak_mem_GiB={m.get('peak_memory_gib', 0.0):.2f} samples={m['samples']} "
      f"loss={m['loss']:.4f} kl={m['kl']:.4f} seconds={m['seconds']:.1f}")
EOF
}

if [ $# -ge 1 ]; then
    :
elif [ -n "${COMPOWORLD_HOME:-}" ] && [ -n "${RUN:-}" ]; then
    STORE=$COMPOWORLD_HOME STORE_RUN=$RUN
else
    STORE=$WORK/home STORE_RUN=gpu-check
fi
DATA=$(trajectories "$@")
sft_check "$DATA"
rl_iteration

#!/usr/bin/env bash
# `make ui`: a local Prefect server and UI, the `cpu` and `gpu` process work pools, every
# deployment of prefect.yaml, and a process worker on `cpu` until Ctrl-C, which stops
# the worker, its flow runs and the server. tests/flows/test_deployments.py runs this too.
#
#   PORT           the server's port on 127.0.0.1 (default 4200)
#   PREFECT_HOME   the server's database, logs and the CLI's settings (default ./.prefect,
#                  ignored by git: the UI's history stays with this checkout, not ~/.prefect)
#   UI_WORK_QUEUE  the worker polls only this queue of `cpu` (default: all of them)
#   UI_WORKER=0    set everything up, then keep only the server running
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
bin=${BIN:-$repo/.venv/bin}
port=${PORT:-4200}
url=http://127.0.0.1:$port

export PREFECT_HOME=${PREFECT_HOME:-$repo/.prefect}
export PREFECT_API_URL=$url/api  # every command below, and the flow runs, use this server
export PREFECT_SERVER_ANALYTICS_ENABLED=false DO_NOT_TRACK=1
export PREFECT_CLI_PROMPT=false
# The deployments' pull step changes into $COMPOWORLD_REPO when a flow run starts: it is read
# from the worker's environment at run time, so each machine's worker names its own checkout.
export COMPOWORLD_REPO=${COMPOWORLD_REPO:-$repo}
mkdir -p "$PREFECT_HOME"
logs=$PREFECT_HOME

if curl -sf "$url/api/health" >/dev/null 2>&1; then
  echo "something already answers on $url: stop it or choose another PORT" >&2
  exit 1
fi

# Job control: the server and the worker each get a process group of their own, so that
# stopping a group also stops what it started (uvicorn; flow runs and their Dask workers).
set -m
pids=()
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  # A Prefect 3.9 worker does not always exit on its own once signalled: give it a moment.
  for _ in $(seq 20); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 -- "-$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.5
  done
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  echo "stopped the worker and the server"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "starting the Prefect server on $url (PREFECT_HOME=$PREFECT_HOME, log: $logs/server.log)"
"$bin/prefect" server start --host 127.0.0.1 --port "$port" >"$logs/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 240); do
  curl -sf "$url/api/health" >/dev/null 2>&1 && break
  if ! kill -0 "${pids[0]}" 2>/dev/null; then
    tail -n 40 "$logs/server.log" >&2
    echo "the Prefect server exited" >&2
    exit 1
  fi
  sleep 0.5
done
curl -sf "$url/api/health" >/dev/null || { echo "no healthy server on $url" >&2; exit 1; }

for pool in cpu gpu; do
  "$bin/prefect" work-pool inspect "$pool" >/dev/null 2>&1 \
    || "$bin/prefect" work-pool create "$pool" --type process >/dev/null
done
if [ -n "${UI_WORK_QUEUE:-}" ]; then
  "$bin/prefect" work-queue inspect "$UI_WORK_QUEUE" --pool cpu >/dev/null 2>&1 \
    || "$bin/prefect" work-queue create "$UI_WORK_QUEUE" --pool cpu >/dev/null
fi

echo "deploying every deployment of prefect.yaml (log: $logs/deploy.log)"
if ! "$bin/prefect" deploy --all --no-prompt >"$logs/deploy.log" 2>&1 </dev/null; then
  tail -n 40 "$logs/deploy.log" >&2
  echo "prefect deploy --all failed" >&2
  exit 1
fi

echo "Prefect UI: $url  (deployments: $url/deployments; Ctrl-C stops the worker and the server)"
if [ "${UI_WORKER:-1}" != 0 ]; then
  "$bin/prefect" worker start --pool cpu --name "ui-$(hostname)-$port" \
    ${UI_WORK_QUEUE:+--work-queue "$UI_WORK_QUEUE"} &
  pids+=($!)
fi
# `wait` returns as soon as Ctrl-C (or SIGTERM) arrives; the traps then stop everything.
wait "${pids[-1]}"

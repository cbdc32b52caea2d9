# `make run` and `make test` each do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench screenshots clean system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

ARGS ?= --window

run: $(STAMP)
	$(PY) -m kiosk $(ARGS)

system-deps:
	@bash scripts/system-deps.sh

test: $(STAMP) system-deps
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check kiosk tests bench scripts
	$(PY) -m ruff format --check kiosk tests bench scripts
	$(PY) -m mypy
	@if command -v shellcheck >/dev/null; then shellcheck systemd/install.sh scripts/*.sh .ci/run hardware/firmware/test/run.sh; \
	else echo "shellcheck not installed: shell scripts not checked (make system-deps installs it)"; fi

format: $(STAMP)
	$(PY) -m ruff format kiosk tests bench scripts
	$(PY) -m ruff check --fix kiosk tests bench scripts

bench: $(STAMP)
	@for b in bench/[!_]*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

screenshots: $(STAMP)
	@for s in scripts/screenshots*.py; do echo "== $$s"; \
	  SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) $$s || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

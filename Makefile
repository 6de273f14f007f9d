# The two commands a fresh machine needs: `make run` and `make test`.
# Each creates .venv and installs the pinned tools from pyproject.toml on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test build clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

build: $(STAMP)
	$(PY) build.py

run: build
	$(PY) -m referee run

test: $(STAMP)
	$(PY) -m pytest

clean:
	rm -rf $(VENV) build *.egg-info

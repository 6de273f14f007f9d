# The two commands a fresh machine needs: `make run` and `make test`.
# Each creates .venv and installs the pinned tools from pyproject.toml on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test build bench stress hard30 clean

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

# Solver speed on the public tests, the committed hard set and a dense generated set.
bench: build
	$(PY) -m referee bench puzzles/public puzzles/hard30 puzzles/full30 --repeat 3 \
		--gen 30x30:count=100:seed=7:density=0.15 --gen 30x30:count=100:seed=7:density=0.3

# The bot against the SAT peer on the stress suite (puzzles/stress, docs/STRESS.md): each
# solve stops at 10 s and counts as a timeout. Several minutes while the bot times out.
stress: $(STAMP)
	$(PY) -m referee bench --peer sat --repeat 1 --timeout 10 --json out/stress.json \
		puzzles/stress/full puzzles/stress/lattice puzzles/stress/fill \
		puzzles/stress/research puzzles/stress/unsolvable

# A set made like puzzles/hard30, with today's solver, in out/hard30 (about 5 minutes on
# this 2-core machine; 279 s measured). The committed set stays fixed, so bench figures
# compare across solver versions; the generator's checks depend on the solver, so a new
# one can keep other candidates.
hard30: $(STAMP)
	$(PY) -m referee gen --size 30x30 --count 20 --seed 1 --difficulty hard --unique --out out/hard30

clean:
	rm -rf $(VENV) build *.egg-info

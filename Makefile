# The two commands a fresh machine needs: `make run` and `make test`.
# Each creates .venv on first use and installs only the pyproject.toml extra it needs:
# `make run` the `run` group (stickytape and python-minifier, to build the bundle),
# `make test` the `test` group (the run and lab groups, pytest, hypothesis, selenium);
# either installs the `spoon2` command. A stamp per group re-installs it when
# pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The command pyproject.toml installs (`python -m referee` works too).
SPOON2 := $(VENV)/bin/spoon2

.PHONY: run test test-fast box lab build watch bench stress hard30 benchmarks startup-bench hunt-bench pictures clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# The checkout installed editable: bot/ and referee/ run from where they stand. setuptools'
# advice on editable installs of a flat layout (a UserWarning, printed by the build backend
# pip runs) says what this layout means to do, so it is not shown.
$(VENV)/.installed-%: pyproject.toml | $(PY)
	PYTHONWARNINGS=ignore::UserWarning $(PY) -m pip install -q -e '.[$*]'
	touch $@

build: $(VENV)/.installed-run
	$(PY) build.py

# Rebuild dist/bot.py on every save under bot/ (Ctrl-C stops).
watch: $(VENV)/.installed-run
	$(PY) build.py --watch

# The referee boxes every bot with bubblewrap: installed here where apt-get can (root),
# else a one-line hint; without it the referee still runs, unsandboxed, and says so.
box:
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null; }; } \
		|| echo "make: no bubblewrap: bots run unsandboxed (apt-get install bubblewrap)"

run: build box
	$(SPOON2) run

test: $(VENV)/.installed-test box
	$(PY) -m pytest

# The tests not marked slow (under a minute): a quick check while changing code.
test-fast: $(VENV)/.installed-test box
	$(PY) -m pytest -m "not slow"

# The lab's extra (the SAT peer, dask) on top of `make run`: stress-gen and bench --peer need it.
lab: $(VENV)/.installed-lab

# Solver speed on the public tests, the committed hard set and a dense generated set.
bench: build
	$(PY) -m referee bench puzzles/public puzzles/hard30 puzzles/full30 --repeat 3 \
		--gen 30x30:count=100:seed=7:density=0.15 --gen 30x30:count=100:seed=7:density=0.3

# The bot against the SAT peer on the stress suite (puzzles/stress, its README): each
# solve stops at 10 s and counts as a timeout. Several minutes while the bot times out.
stress: build $(VENV)/.installed-lab
	mkdir -p out
	$(PY) -m referee bench --peer sat --repeat 1 --timeout 10 --json out/stress.json \
		puzzles/stress/full puzzles/stress/lattice puzzles/stress/fill \
		puzzles/stress/tree puzzles/stress/research puzzles/stress/unsolvable \
		puzzles/stress/tree-unsolvable

# A set made like puzzles/hard30, with the current solver, in out/hard30 (about 5 minutes on
# this 2-core machine; 279 s measured). The committed set stays fixed, so bench figures
# compare across solver versions; the generator's checks depend on the solver, so a new
# one can keep other candidates.
# JOBS=N tries candidates in N processes: the same files, sooner on a machine with cores to spare.
JOBS ?= 1
hard30: $(VENV)/.installed-run
	$(PY) -m referee gen --size 30x30 --count 20 --seed 1 --difficulty hard --unique --out out/hard30 --jobs $(JOBS)

# docs/BENCHMARKS.md, written afresh (never appended) from two bench --json runs: the bot
# alone on the CodinGame-sized suites of `make bench`, and the bot against the SAT peer on
# the stress folders, as `make stress` runs it. Several minutes. A bench that finds a board
# unsolved or over CodinGame's limit exits 1: its figures still go on the page; any other
# failure stops here.
BENCH_SUITES := puzzles/public puzzles/hard30 puzzles/full30 \
	--gen 30x30:count=100:seed=7:density=0.15 --gen 30x30:count=100:seed=7:density=0.3
STRESS_SUITES := $(addprefix puzzles/stress/,full lattice fill tree research unsolvable tree-unsolvable)
benchmarks: build $(VENV)/.installed-lab
	mkdir -p out
	rm -f out/benchmarks-codingame.json out/benchmarks-stress.json
	$(PY) -m referee bench --repeat 3 --json out/benchmarks-codingame.json $(BENCH_SUITES) \
		|| test $$? -eq 1
	$(PY) -m referee bench --peer sat --repeat 1 --timeout 10 \
		--json out/benchmarks-stress.json $(STRESS_SUITES) || test $$? -eq 1
	$(PY) -m referee.lab.bench.page --out docs/BENCHMARKS.md \
		out/benchmarks-codingame.json out/benchmarks-stress.json

# The bundle as a player feels it (docs/BUILD.md): its start-up against a bare Python on the
# public tests, and its largest gap between lines on the stress boards up to 30x30 with a
# CPU-busy process beside it. A few minutes.
startup-bench: build
	$(PY) -m referee.lab.bench.startup

# How well `hunt` finds bugs first: the tests' hostile bots hunted and replayed (some 12 minutes).
hunt-bench: $(VENV)/.installed-run
	$(PY) -m referee.lab.hunt.bench

# The pictures in docs/, taken afresh in headless Chromium (referee/lab/pictures.py).
pictures: $(VENV)/.installed-test
	$(PY) -m referee.lab.pictures

clean:
	rm -rf $(VENV) build *.egg-info

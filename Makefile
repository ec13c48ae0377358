# Every target builds the virtual environment first, so a fresh clone needs nothing by hand.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUNTIME := $(VENV)/.runtime
PORT ?= 8000

.PHONY: run test check system lint typecheck pytest docs smoke bench helps clean

# serving needs the package and its runtime dependencies only (make run); --no-compile:
# Python compiles what the server imports when it first does, not every file of every
# dependency now (a fresh clone serves about 5 s sooner)
$(RUNTIME): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e .
	touch $(RUNTIME)

# working on referee: every extra and the dev and docs dependency groups (PEP 735)
$(STAMP): $(RUNTIME)
	$(BIN)/python -m pip install --quiet --upgrade pip  # --group needs pip 25.1
	$(BIN)/python -m pip install --quiet -e '.[analysis,fast,postgres]' --group dev --group docs
	touch $(STAMP)

run: $(RUNTIME)
	$(BIN)/referee serve --demo --port $(PORT)

test: system lint typecheck pytest docs smoke

# the fast loop: lint, types and the tests not marked slow (browsers, processes, long
# analyses: make test runs them), with fewer Hypothesis examples each, spread over the
# machine's cores (pytest-xdist; a worker takes the next test as it finishes one)
check: lint typecheck
	$(BIN)/pytest -m "not slow" --hypothesis-profile=check -n auto --dist worksteal

system:
	bash scripts/system-deps.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest --durations=25

# Material's end-of-life notice is silenced here: the choice of its successor is made and
# explained in docs/architecture.md ("The documentation toolchain")
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# the wheel and the sdist, installed into fresh venvs outside the checkout and run there
smoke: $(STAMP)
	PY=$(PY) BUILD_PY=$(BIN)/python bash scripts/smoke-wheel.sh

# after changing a command's help: store the help screens again (a test compares them)
helps: $(STAMP)
	$(BIN)/python -m referee.cli.helps

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) site .mypy_cache .pytest_cache .ruff_cache .hypothesis

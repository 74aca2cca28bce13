# Fresh clone: `make run` builds the graph, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup notebooks bench eval clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/kg build data --out out

test: $(STAMP)
	$(BIN)/python -m pytest

notebooks: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,notebook]'
	$(BIN)/kg build data --out out
	$(BIN)/jupyter lab $$( [ "$$(id -u)" = 0 ] && echo --allow-root ) notebooks

bench: $(STAMP)
	$(BIN)/python -m bench

# Reader accuracy on ../shared/corpus (skips with a message where it is absent).
eval: $(STAMP)
	$(BIN)/python -m bench.eval_corpus

clean:
	rm -rf out .pytest_cache

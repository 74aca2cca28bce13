# Fresh clone: `make run` builds the graph, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup notebooks bench bench-scale bench-identity eval clean

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

# The build at scale (issue 14): synthetic CVs from ../shared/tools/gen_corpus.py, e.g. DOCS=50,100,200,500.
DOCS ?= 50,100,200
bench-scale: $(STAMP)
	$(BIN)/python -m bench.bench_build --docs $(DOCS)

# Identity alone on crowded labelled corpora (issue 13), e.g. MENTIONS=10000,100000,1000000.
MENTIONS ?= 10000,100000
bench-identity: $(STAMP)
	$(BIN)/python -m bench.bench_identity --mentions $(MENTIONS)

# Reader accuracy on ../shared/corpus (skips with a message where it is absent).
eval: $(STAMP)
	$(BIN)/python -m bench.eval_corpus

clean:
	rm -rf out .pytest_cache

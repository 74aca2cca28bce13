# Fresh clone: `make run` builds the graph, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup notebooks bench bench-scale bench-remote bench-identity eval eval-references clean fuzz

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q kg  # as pip does for a wheel: no command compiles kg's modules at start
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

# kg on a SPARQL server (issue 17): the corpus pushed to a local Oxigraph server, each command timed
# against the server and the embedded store, e.g. `make bench-remote DOCS=100,1000`.
bench-remote: $(STAMP)
	$(BIN)/python -m bench.bench_remote --docs $(DOCS)

# Identity alone on crowded labelled corpora (issue 13), e.g. MENTIONS=10000,100000,1000000.
MENTIONS ?= 10000,100000
bench-identity: $(STAMP)
	$(BIN)/python -m bench.bench_identity --mentions $(MENTIONS)

# Long fuzz run: 10,000 generated and mutated documents through every reader (1,000 through the build);
# every failure (reader, input shape, seconds) is listed in fuzz-failures.log.
fuzz: $(STAMP)
	rm -f fuzz-failures.log
	KG_FUZZ=long KG_FUZZ_LOG=$(CURDIR)/fuzz-failures.log $(BIN)/python -m pytest -q -p no:cacheprovider --timeout=0 tests/test_fuzz.py
	@if [ -s fuzz-failures.log ]; then cat fuzz-failures.log; exit 1; fi

# Reader accuracy on ../shared/corpus (skips with a message where it is absent).
eval: $(STAMP)
	$(BIN)/python -m bench.eval_corpus

# The reference parser on AnyStyle's labelled reference strings, ../shared/datasets/anystyle (skips
# with a message where it is absent). SHOW=N lists N failures of FIELD (title, year, authors, venue).
SHOW ?= 0
FIELD ?= title
eval-references: $(STAMP)
	$(BIN)/python -m bench.eval_references --show $(SHOW) --field $(FIELD)

clean:
	rm -rf out .pytest_cache

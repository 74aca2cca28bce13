"""Benchmarks: run with ``python -m bench`` (all) or ``python -m bench.bench_<name>`` (one)."""

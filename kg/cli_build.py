"""Commands that build and check the graph: build, validate, profile."""

"""Commands of the graph area."""

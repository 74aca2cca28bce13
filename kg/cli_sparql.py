"""Commands of the sparql area."""

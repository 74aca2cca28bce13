"""Commands of the html area."""

"""The ``kg`` command: parses arguments, calls the library, prints; user errors become one line."""

from __future__ import annotations

import sys

import click

from kg.errors import UserError


class KgGroup(click.Group):
    """Turns :class:`UserError` into ``kg: error: ...`` and its exit code, without a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UserError as err:
            click.echo(f"kg: error: {err}", err=True)
            sys.exit(err.exit_code)


@click.group(cls=KgGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kg")
def main():
    """kg: a co-authorship knowledge graph from researchers' CVs and records.

    \b
    Examples:
      kg build data --out out        read data/, write out/kg.trig, kg.ttl, kg.jsonld, store/
      kg profile "Ada Lovelace"      one person's facts, each with its source and line
      kg validate                    check out/ against shapes.ttl
    """


# Each area registers its commands on `main` when imported.
from kg import cli_build  # noqa: E402,F401
from kg import cli_graph  # noqa: E402,F401
from kg import cli_sparql  # noqa: E402,F401
from kg import cli_html  # noqa: E402,F401

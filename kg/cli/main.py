"""The ``kg`` command: a click group holding each area's commands; errors become one line.

A user error (:class:`~kg.errors.UserError`: bad input, a missing build) prints
``kg: error: ...`` and exits 1; a usage error (:class:`~kg.errors.UsageError` or a
wrong option) exits 2; a file that cannot be read or written exits 1. A programming
mistake (``TypeError``, ``ValueError`` ...) is not caught: its traceback is the bug report.
"""

from __future__ import annotations

import sys

import click

from kg import __version__
from kg.cli import build, graph, html, sparql
from kg.errors import UsageError, UserError


def _fail(message: str, code: int):
    click.echo(f"kg: error: {message}", err=True)
    sys.exit(code)


class KgGroup(click.Group):
    """Prints every error the same way, ``kg: error: ...``, with its exit code and no traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as err:
            _fail(str(err), 2)
        except UserError as err:
            _fail(str(err), 1)
        except OSError as err:
            where = f" ({err.filename})" if err.filename else ""
            _fail(f"{err.strerror or err}{where}", 1)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **kwargs)
        try:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **kwargs)
        except click.exceptions.UsageError as err:  # a wrong option or argument: usage, then one line
            if err.ctx is not None:
                click.echo(err.ctx.get_usage(), err=True)
            _fail(" ".join(err.format_message().split()), 2)  # click lists choices on lines of their own
        except click.ClickException as err:
            _fail(err.format_message(), err.exit_code)
        except click.exceptions.Abort:
            _fail("aborted", 1)
        except click.exceptions.Exit as err:
            sys.exit(err.exit_code)


@click.group(cls=KgGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="kg")
def main():
    """kg: a co-authorship knowledge graph from researchers' CVs and records.

    \b
    Examples:
      kg build data --out out        read data/, write out/kg.trig, kg.ttl, kg.jsonld, store/
      kg profile "Ana Ruiz"        one person's facts, each with its source and line
      kg validate                    check out/ against the SHACL shapes
    """


for _area in (build, graph, sparql, html):
    for _command in _area.COMMANDS:
        main.add_command(_command)

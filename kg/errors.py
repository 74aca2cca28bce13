"""Errors that are the user's to fix; the command line prints them as one line, never a traceback.

A mistake in the calling code (a wrong type, a node that is not in the graph) is not a user
error: the library raises ``TypeError`` or ``ValueError`` for it, with its traceback. Messages
of these errors say what is wrong and what to do, in the library's terms; the command line
adds the option a value came from (``--bind``, ``--format``) and maps each class to an exit
status (:mod:`kg.cli.main`).
"""


class UserError(Exception):
    """Bad input or a missing prerequisite: the message says what is wrong and what to do."""


class UsageError(UserError):
    """A command or function was called wrongly (bad query syntax, an unknown format)."""

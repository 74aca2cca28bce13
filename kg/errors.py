"""Errors that are the user's to fix; the CLI prints them as one line, never a traceback."""


class UserError(Exception):
    """Bad input or a missing prerequisite: the message says what is wrong and what to do."""

    exit_code = 1


class UsageError(UserError):
    """A command was called wrongly (bad query syntax, unknown format): exit code 2."""

    exit_code = 2

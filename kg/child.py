"""A step run in a forked process of its own, so that its memory goes back to the system whole
when it ends: Python keeps most of what a big step frees in half-empty arenas, and the build's
next step (the store's bulk load) would come on top of it.

>>> in_child(sorted, [3, 1, 2])
[1, 2, 3]
>>> try:
...     in_child(int, "x")
... except ValueError as error:  # raised here, with the child's traceback as a note
...     print(error, "|", error.__notes__[0].splitlines()[0])
invalid literal for int() with base 10: 'x' | in the build's process:
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import traceback

from kg.errors import UserError


def in_child(step, *args, **kwargs):
    """``step(*args, **kwargs)`` in a fork of this process: its result, or its exception raised here.

    Where the system cannot fork (no room for a second process), the step runs in this process.
    """
    sys.stdout.flush()  # what this process printed is not printed again by the child
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return step(*args, **kwargs)
    if pid == 0:
        _answer(write_end, read_end, step, args, kwargs)  # never returns
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as answer:
            data = answer.read()
    except BaseException:  # interrupted: the child goes too
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if not data:
        raise RuntimeError(f"the build's process stopped with exit status {status} (its error is printed above)")
    done, value = pickle.loads(data)
    if done:
        return value
    raise value


def _answer(write_end: int, read_end: int, step, args, kwargs) -> None:
    """In the child: run *step*, send ``(True, result)`` or ``(False, exception)``, leave at once."""
    code = 1
    try:
        os.close(read_end)
        try:
            outcome: tuple = (True, step(*args, **kwargs))
        except BaseException as error:
            if not isinstance(error, (UserError, OSError, KeyboardInterrupt)):  # a bug: keep where it was
                error.add_note("in the build's process:\n" + "".join(traceback.format_exception(error)))
            outcome = (False, error)
        try:
            payload = pickle.dumps(outcome)
        except Exception:  # an answer that does not pickle: its text
            payload = pickle.dumps((False, RuntimeError("".join(traceback.format_exception(outcome[1]))
                                                        if not outcome[0] else "an answer that cannot be sent")))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
        code = 0
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)

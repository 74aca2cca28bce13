"""A step run in a forked process of its own: the build's first half, so that its memory goes back
to the system whole when it ends (Python keeps most of what a big step frees in half-empty arenas,
and the store's bulk load would come on top of it), and the tables' CSV and the validation of a big
graph, which run on another core while the build writes its files. Steps that should give way to the
rest of the build run at a lower priority (:func:`lower_priority`, :func:`run_yielding`).

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
import gc
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import traceback

from kg.errors import UserError


class Child:
    """One step in a fork of this process: :meth:`start` forks, :meth:`result` waits for the answer
    (the step's result, or its exception raised here), :meth:`cancel` stops a step still running.
    Where the system cannot fork (no room for a second process), :meth:`start` runs the step here.

    >>> child = Child()
    >>> child.start(max, 2, 5)
    >>> child.result()
    5
    """

    def __init__(self) -> None:
        self.pid: int | None = None
        self.answer_fd: int | None = None
        self.outcome: tuple | None = None  # where the step ran in this process

    def start(self, step, *args, **kwargs) -> None:
        if not self._fork(step, args, kwargs):
            self.outcome = _run(step, args, kwargs)

    def _fork(self, step, args, kwargs) -> bool:
        """Run *step* in a fork of this process; False where the system cannot fork."""
        sys.stdout.flush()  # what this process printed is not printed again by the child
        sys.stderr.flush()
        read_end, write_end = os.pipe()
        gc.freeze()  # the child's collections leave this process's objects alone: their pages stay shared
        try:
            self.pid = os.fork()
        except (OSError, AttributeError):  # no room for a second process, or no fork on this system
            gc.unfreeze()
            os.close(read_end)
            os.close(write_end)
            return False
        if self.pid == 0:
            _answer(write_end, read_end, step, args, kwargs)  # never returns
        gc.unfreeze()
        os.close(write_end)
        self.answer_fd = read_end
        return True

    def ready(self) -> bool:
        """Whether :meth:`result` would answer without waiting: the step has answered (or ran here).

        >>> child = Child()
        >>> child.start(max, 2, 5)
        >>> _ = select.select([child.answer_fd], [], [], 10)  # until it answers
        >>> child.ready(), child.result()
        (True, 5)
        """
        return self.outcome is not None or self.answer_fd is not None and bool(
            select.select([self.answer_fd], [], [], 0)[0])

    def result(self):
        """The step's result, once it is done; its exception is raised here."""
        if self.outcome is None:
            assert self.pid is not None and self.answer_fd is not None
            with os.fdopen(self.answer_fd, "rb") as answer:
                self.answer_fd = None
                data = answer.read()
            status = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            self.pid = None
            self.outcome = _received(data, status)
        return _unpacked(self.outcome)

    def cancel(self) -> None:
        """Stop the step if it still runs (nothing to do once it answered); twice is harmless."""
        if self.answer_fd is not None:
            os.close(self.answer_fd)
            self.answer_fd = None
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None


def child_where_room(fits, cores: int = 2) -> Child | None:
    """A :class:`Child` where the machine has *cores* cores or more and *fits()* says a copy of this
    process fits in memory (:func:`kg.memory.room_for_a_copy`); else None, for the caller to do the step.

    >>> child_where_room(lambda: False) is None
    True
    """
    return Child() if (os.cpu_count() or 1) >= cores and fits() else None


class Spawned:
    """One step in a new Python process (``python -m kg.spawned``) rather than a fork: by the end of a
    build its process runs the store's threads, and a fork of a process with threads may wait forever
    on a lock one of them held. The new process imports what the step needs and gets only the step and
    its arguments, pickled (never the caller's script: multiprocessing's "spawn" imports that again,
    which would run a script's build twice). :meth:`start`, :meth:`result` and :meth:`cancel` are
    :class:`Child`'s; where no process can start, :meth:`start` runs the step here. With *yielding*,
    the process runs at a lower priority (:func:`lower_priority`): the cores go to the rest first.

    >>> step = Spawned()
    >>> step.start(max, 2, 5)
    >>> step.result()
    5
    """

    def __init__(self, yielding: bool = False) -> None:
        self.process: subprocess.Popen | None = None
        self.outcome: tuple | None = None
        self.yielding = yielding

    def start(self, step, *args) -> None:
        # -P: the current folder is not put on the path (it may hold another "kg")
        command = [sys.executable, "-P", "-m", "kg.spawned"]
        try:
            if not sys.executable:
                raise FileNotFoundError("no Python interpreter to start")  # Python embedded in another program
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError:  # no room for another process
            self.outcome = _run(step, args, {})
            return
        if self.yielding:
            lower_priority(self.process.pid)
        assert self.process.stdin is not None
        try:
            with self.process.stdin as task:
                task.write(pickle.dumps((step, args)))
        except BrokenPipeError:
            pass  # the process ended before it read its step: result() says with which status

    def result(self):
        """The step's result, once it is done; its exception is raised here."""
        if self.outcome is None:
            assert self.process is not None and self.process.stdout is not None
            with self.process.stdout as answer:
                data = answer.read()
            status = self.process.wait()
            self.process = None
            self.outcome = _received(data, status)
        return _unpacked(self.outcome)

    def cancel(self) -> None:
        """Stop the step if it still runs (nothing to do once it answered); twice is harmless."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None


#: How much :func:`lower_priority` lowers a process's or thread's priority (its niceness, up to 19).
YIELDING_NICENESS = 10


def lower_priority(pid: int) -> None:
    """Lower the priority of the process (on Linux, also the thread) *pid* by :data:`YIELDING_NICENESS`,
    where the system lets it (a priority is only a hint: nothing depends on it)."""
    with contextlib.suppress(OSError, AttributeError):  # no priorities (Windows), or the process has ended
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, pid) + YIELDING_NICENESS))


def run_yielding(step, *args):
    """``step(*args)`` on a thread of lower priority (:func:`lower_priority`), waited for: the cores go
    to this process's other threads and to other processes first. Only Linux gives a thread a priority
    of its own; elsewhere the step runs here, at this thread's priority.

    >>> run_yielding(sorted, [3, 1, 2])
    [1, 2, 3]
    """
    if not sys.platform.startswith("linux"):
        return step(*args)
    outcome: list[tuple] = []

    def run() -> None:
        lower_priority(threading.get_native_id())
        try:
            outcome.append((True, step(*args)))
        except BaseException as error:  # raised in the caller's thread, with its own traceback
            outcome.append((False, error))

    # a daemon: where the caller is interrupted while it waits, the process need not wait for the step
    thread = threading.Thread(target=run, name="kg-yielding", daemon=True)
    thread.start()
    thread.join()
    return _unpacked(outcome[0])


def answer_spawned(task, answer) -> None:
    """In the process :class:`Spawned` started: read the pickled step and arguments from *task*, run
    the step, write its pickled outcome (or, where that does not pickle, its text) to *answer*."""
    step, args = pickle.loads(task.read())
    answer.write(_payload(_run(step, args, {})))


def in_child(step, *args, **kwargs):
    """``step(*args, **kwargs)`` in a fork of this process: its result, or its exception raised here."""
    child = Child()
    try:
        child.start(step, *args, **kwargs)
        return child.result()
    finally:
        child.cancel()  # interrupted while waiting: the child goes too


def _run(step, args, kwargs) -> tuple:
    """``(True, result)`` or ``(False, exception)``; a bug's exception carries its traceback as a note."""
    try:
        return True, step(*args, **kwargs)
    except BaseException as error:
        if not isinstance(error, (UserError, OSError, KeyboardInterrupt)):
            error.add_note("in the build's process:\n" + "".join(traceback.format_exception(error)))
        return False, error


def _payload(outcome: tuple) -> bytes:
    """*outcome* pickled; where it does not pickle, an error with its text in its place."""
    try:
        return pickle.dumps(outcome)
    except Exception:
        text = "".join(traceback.format_exception(outcome[1])) if not outcome[0] else "an answer that cannot be sent"
        return pickle.dumps((False, RuntimeError(text)))


def _received(data: bytes, status: int) -> tuple:
    """The outcome a process sent; where it sent none (it died), the error that says so."""
    if not data:
        raise RuntimeError(f"a process of the build stopped with exit status {status} (its error is printed above)")
    return pickle.loads(data)


def _unpacked(outcome: tuple):
    """The step's result, or its exception raised."""
    done, value = outcome
    if done:
        return value
    raise value


def _answer(write_end: int, read_end: int, step, args, kwargs) -> None:
    """In the child: run *step*, send its outcome, leave at once (no exit handlers run twice)."""
    code = 1
    try:
        os.close(read_end)
        payload = _payload(_run(step, args, kwargs))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
        code = 0
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)

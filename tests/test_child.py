"""The build's first half runs in a forked process (kg.child): what it returns and raises arrives
here as if it had run here, and a child that dies says so."""

from __future__ import annotations

import errno
import os
import sys
import threading
import time

import pytest

from kg.child import Spawned, in_child, run_yielding
from kg.errors import UserError


def test_a_user_error_arrives_as_itself_with_no_traceback_attached():
    def step():
        raise UserError("data/cv.md:3: no title; put the title first")

    with pytest.raises(UserError) as caught:
        in_child(step)
    # the command line prints a UserError as its message alone: nothing may be added to it
    assert str(caught.value) == "data/cv.md:3: no title; put the title first"
    assert not getattr(caught.value, "__notes__", None)


def test_an_os_error_keeps_its_number():
    def step():
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError) as caught:
        in_child(step)
    assert caught.value.errno == 28


def test_what_cannot_be_sent_back_says_so():
    # a lock cannot be pickled: the child sends the reason instead of hanging or dying silently
    with pytest.raises(RuntimeError, match="cannot be sent"):
        in_child(threading.Lock)


def test_a_child_that_dies_says_so():
    with pytest.raises(RuntimeError, match="exit status 3"):
        in_child(os._exit, 3)


def test_without_room_for_a_second_process_the_step_runs_here(monkeypatch):
    assert in_child(os.getpid) != os.getpid()  # a fork runs it, as a rule

    def no_fork():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", no_fork)
    here = os.getpid()
    assert in_child(os.getpid) == here


# A big build writes its TriG, Turtle and JSON-LD in a new process (kg.child.Spawned, `python -m
# kg.spawned`): by then the build's process runs the store's threads, which a fork would copy without
# them. Its steps are named functions (the new process imports them); what they return and raise
# arrives as Child's do.

def _spawned(step, *args):
    spawned = Spawned()
    try:
        spawned.start(step, *args)
        return spawned.result()
    finally:
        spawned.cancel()


def test_a_spawned_step_runs_in_another_process_and_its_errors_arrive_as_themselves(tmp_path):
    assert _spawned(os.getpid) != os.getpid()
    # os.mkdir on a folder that exists: FileExistsError, whose number the command line prints
    with pytest.raises(FileExistsError) as caught:
        _spawned(os.mkdir, str(tmp_path))
    assert caught.value.errno == errno.EEXIST
    with pytest.raises(RuntimeError, match="cannot be sent"):
        _spawned(threading.Lock)
    with pytest.raises(RuntimeError, match="exit status 3"):
        _spawned(os._exit, 3)


def test_a_spawned_step_cancelled_stops_at_once():
    spawned = Spawned()
    spawned.start(time.sleep, 60)
    started = time.monotonic()
    process = spawned.process
    spawned.cancel()
    # killed, not waited for: a minute's sleep ends within seconds, and a second cancel is harmless
    assert time.monotonic() - started < 10 and process.poll() is not None
    spawned.cancel()


def test_a_spawned_step_leaves_the_callers_script_alone(tmp_path):
    # A script that builds at its top level, with no `if __name__ == "__main__"`: multiprocessing's
    # "spawn" would import it again in the new process and build twice. The step runs, and the script's
    # line runs once (it appends a line to a file each time it runs).
    import subprocess
    import sys

    ran = tmp_path / "ran.txt"
    script = tmp_path / "script.py"
    script.write_text(
        "import os\n"
        "from kg.child import Spawned\n"
        f"open({str(ran)!r}, 'a').write('ran\\n')\n"
        "step = Spawned()\n"
        "step.start(os.getpid)\n"
        "print(step.result() != os.getpid())\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True" and ran.read_text() == "ran\n"


def test_what_a_spawned_step_prints_does_not_spoil_its_answer(capfd):
    # the step's prints go to standard error; its answer still arrives
    assert _spawned(print, "a line of the step's") is None
    assert "a line of the step's" in capfd.readouterr().err


def test_without_an_interpreter_to_start_a_spawned_step_runs_here(monkeypatch):
    # Python embedded in another program has no sys.executable: the step runs in this process
    import sys

    monkeypatch.setattr(sys, "executable", "")
    assert _spawned(os.getpid) == os.getpid()


# The build's files and page yield the cores to the store's load (kg.child.lower_priority): a yielding
# step runs at a niceness 10 above its caller's (at most 19, the lowest priority), and the caller keeps its own.

def _niceness(of: int = 0) -> int:
    return os.getpriority(os.PRIO_PROCESS, of)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="priorities of processes and threads: Linux")
def test_a_yielding_spawned_step_runs_at_a_lower_priority_and_the_caller_keeps_its_own():
    mine = _niceness()
    spawned = Spawned(yielding=True)
    try:
        # the step reads its own niceness (0: the process that runs it); start() lowers it before it
        # sends the step, so the step cannot run first
        spawned.start(os.getpriority, os.PRIO_PROCESS, 0)
        assert spawned.result() == min(19, mine + 10)
    finally:
        spawned.cancel()
    assert _niceness() == mine
    assert _spawned(os.getpriority, os.PRIO_PROCESS, 0) == mine  # not yielding: the caller's


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="priorities of threads: Linux")
def test_a_yielding_step_runs_on_a_thread_of_lower_priority_and_its_errors_arrive_as_themselves():
    mine = _niceness(threading.get_native_id())
    # the step runs on another thread, whose niceness is 10 above this one's
    assert run_yielding(threading.get_native_id) != threading.get_native_id()
    assert run_yielding(lambda: _niceness(threading.get_native_id())) == min(19, mine + 10)
    assert _niceness(threading.get_native_id()) == mine
    with pytest.raises(FileNotFoundError):
        run_yielding(os.stat, "/no/such/file/here")

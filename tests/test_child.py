"""The build's first half runs in a forked process (kg.child): what it returns and raises arrives
here as if it had run here, and a child that dies says so."""

from __future__ import annotations

import os
import threading

import pytest

from kg.child import Child, in_child
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


def test_a_child_started_early_runs_the_step_it_is_sent_later():
    warmed = []
    child = Child()
    child.start_early(lambda: warmed.append(os.getpid()))  # runs in the fork: this process's list stays empty
    child.send(os.getpid)
    assert child.result() not in (None, os.getpid())
    assert warmed == []
    assert child.pid is None  # reaped


def test_a_warm_up_that_fails_arrives_as_itself_when_the_result_is_asked_for():
    def broken():
        raise ImportError("no module named pyshacl")

    child = Child()
    child.start_early(broken)
    child.send(os.getpid)  # the child may be gone already: sending is no error of its own
    with pytest.raises(ImportError, match="pyshacl"):
        child.result()


def test_a_child_started_early_and_never_sent_a_step_is_stopped():
    child = Child()
    child.start_early(lambda: None)
    pid = child.pid
    child.cancel()  # the build failed before the merged view was written
    assert child.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped


@pytest.mark.timeout(60)  # a step run here that waited for a message would hang
def test_without_room_for_a_second_process_the_early_step_runs_here_when_sent(monkeypatch):
    def no_fork():
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(os, "fork", no_fork)
    child = Child()
    child.start_early(lambda: None)  # nothing forked: the step must not wait for a message here
    child.send(os.getpid)
    assert child.result() == os.getpid()

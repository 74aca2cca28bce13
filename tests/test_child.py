"""The build's first half runs in a forked process (kg.child): what it returns and raises arrives
here as if it had run here, and a child that dies says so."""

from __future__ import annotations

import os
import threading

import pytest

from kg.child import in_child
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

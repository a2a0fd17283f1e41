# SPDX-License-Identifier: MIT
"""The watcher thread (header: idlelock_watch_start / idlelock_watch_stop; docs/THREADS.md):
it locks an idle session on the default clock with no call from the host,
listeners then run on it, and it is refused with a custom clock."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, List

import pytest

from idlelock import ClosedError, IdleLock, InvalidArgumentError, Reason, Snapshot, State

from conftest import KDF, PASSCODE

BOUND = 10.0  # seconds: generous, the machine may be busy


def engaged_default_clock(**options: Any) -> IdleLock:
    lock = IdleLock(lock_on_start=False, **KDF, **options)
    lock.set_passcode(PASSCODE)  # last activity = now
    return lock


def test_watcher_locks_an_idle_session_on_time():
    lock = engaged_default_clock(idle_after_ms=150)
    try:
        locked = threading.Event()
        heard: List[Any] = []

        def listener(snap: Snapshot) -> None:
            heard.append((snap.state, snap.reason, threading.get_ident()))
            if snap.state == State.LOCKED:
                locked.set()

        lock.subscribe(listener)
        began = time.monotonic()
        lock.watch_start()
        lock.watch_start()  # starting a running watcher does nothing
        assert locked.wait(BOUND), "the watcher did not lock the idle session"
        elapsed = time.monotonic() - began
        assert elapsed < BOUND
        state, reason, thread = heard[-1]
        assert (state, reason) == (State.LOCKED, Reason.IDLE)
        # Nobody called into the lock: the listener ran on the watcher thread.
        assert thread != threading.get_ident()
        snap = lock.snapshot()
        assert snap.state == State.LOCKED and snap.reason == Reason.IDLE
    finally:
        lock.close()


def test_watcher_opens_the_warning():
    lock = engaged_default_clock(idle_after_ms=60_000, warn_before_ms=59_900)
    try:
        warned = threading.Event()
        lock.subscribe(lambda s: warned.set() if s.is_warning else None)
        lock.watch_start()
        assert warned.wait(BOUND)
        assert lock.snapshot().state == State.UNLOCKED
    finally:
        lock.close()


def test_watch_stop_stops_it():
    lock = engaged_default_clock(idle_after_ms=150)
    try:
        heard: List[Snapshot] = []
        lock.subscribe(heard.append)
        lock.watch_start()
        lock.watch_stop()
        lock.watch_stop()  # stopping a stopped watcher does nothing
        time.sleep(0.4)
        assert heard == []  # nothing locked it by itself
        assert lock.snapshot().state == State.LOCKED  # polling judges
        assert len(heard) == 1
    finally:
        lock.close()


def test_close_stops_a_running_watcher():
    for _ in range(5):
        lock = engaged_default_clock(idle_after_ms=60_000)
        lock.subscribe(lambda s: None)
        lock.watch_start()
        lock.close()
        assert lock.closed


def test_watcher_is_refused_with_a_custom_clock(make_lock):
    lock = make_lock()  # the fake clock
    with pytest.raises(InvalidArgumentError) as e:
        lock.watch_start()
    assert "clock" in e.value.message
    assert e.value.status == 1
    lock.watch_stop()  # nothing to stop: fine


def test_watcher_after_close(make_lock):
    lock = make_lock()
    lock.close()
    for call in (lock.watch_start, lock.watch_stop):
        with pytest.raises(ClosedError):
            call()


def test_listener_error_on_the_watcher_thread_goes_to_unraisablehook(monkeypatch):
    reported: List[Any] = []
    done = threading.Event()

    def hook(args: Any) -> None:
        reported.append(args)
        done.set()

    monkeypatch.setattr(sys, "unraisablehook", hook)
    lock = engaged_default_clock(idle_after_ms=100)
    try:

        def listener(snap: Snapshot) -> None:
            raise ValueError("from the watcher")

        lock.subscribe(listener)
        lock.watch_start()
        assert done.wait(BOUND)
        (args,) = reported
        assert isinstance(args.exc_value, ValueError)
        assert args.exc_type is ValueError
        assert "listener" in args.err_msg
        assert args.object is listener
        # Nothing is left pending for this thread's next call.
        lock.check()
    finally:
        lock.close()


def test_a_listener_on_the_watcher_thread_may_close_the_lock():
    lock = engaged_default_clock(idle_after_ms=100)
    closed = threading.Event()
    seen: List[Any] = []

    def listener(snap: Snapshot) -> None:
        seen.append(snap.state)
        lock.close()  # destroys the handle from the watcher thread
        seen.append(lock.closed)
        closed.set()

    lock.subscribe(listener)
    lock.watch_start()
    assert closed.wait(BOUND)
    assert seen == [State.LOCKED, True]
    assert lock.closed
    with pytest.raises(ClosedError):
        lock.snapshot()
    lock.close()  # idempotent


def test_a_listener_on_the_watcher_thread_may_unsubscribe_itself():
    lock = engaged_default_clock(idle_after_ms=100)
    try:
        done = threading.Event()
        box = {}

        def once(snap: Snapshot) -> None:
            lock.unsubscribe(box["token"])
            done.set()

        box["token"] = lock.subscribe(once)
        lock.watch_start()
        assert done.wait(BOUND)
        lock.watch_stop()
        assert lock.snapshot().state == State.LOCKED
        lock.unlock(PASSCODE)
        lock.lock()  # not heard any more: no crash, no call
    finally:
        lock.close()


@pytest.mark.parametrize("on_watcher", [True, False], ids=["watcher thread", "inside a call"])
def test_nothing_runs_after_a_listener_closed_the_lock(on_watcher):
    # Issue 19: a listener that closes the lock while seven more are
    # subscribed. Once close() has returned, no listener runs any more (the
    # rest of that delivery included), on the watcher thread as inside a
    # call on this thread, and nothing crashes.
    lock = engaged_default_clock(idle_after_ms=100 if on_watcher else 60_000)
    closed = threading.Event()
    ran: List[str] = []
    after_close: List[int] = []

    def make(i: int) -> Any:
        def listener(snap: Snapshot) -> None:
            ran.append(f"{i}:{snap.state}")
            if closed.is_set():
                after_close.append(i)
                return
            lock.close()
            closed.set()

        return listener

    for i in range(8):
        lock.subscribe(make(i))
    if on_watcher:
        lock.watch_start()
        assert closed.wait(BOUND)
        time.sleep(0.3)  # the rest of the delivery, if any, has had its chance
    else:
        lock.lock()  # the first listener closes from inside this call
        assert closed.is_set()
    assert lock.closed
    assert after_close == [], f"listeners ran after close() returned: {ran}"
    assert ran == ["0:LOCKED"]
    with pytest.raises(ClosedError):
        lock.snapshot()

# SPDX-License-Identifier: MIT
"""touch(): its return value (None, or a Snapshot with snapshot=True), the
fast path (one ctypes call, no per-thread bookkeeping, when there is no
Python clock and no listener) and the safety of close() against calls in
flight on other threads."""

from __future__ import annotations

import os
import threading
import time
from typing import Any, List

import pytest

import idlelock
from idlelock import (
    ClosedError,
    IdleLock,
    ListenerError,
    Reason,
    Snapshot,
    State,
    StorageError,
)

from conftest import KDF, PASSCODE


def default_clock_lock(**options: Any) -> IdleLock:
    options.setdefault("idle_after_ms", 3_600_000)
    return IdleLock(lock_on_start=False, **KDF, **options)


def no_bookkeeping(lock: IdleLock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the general path fail loudly: a touch() that still works took
    the fast path."""

    def boom(*args: Any) -> Any:
        raise AssertionError("touch() took the general path")

    monkeypatch.setattr(lock, "_call", boom)
    monkeypatch.setattr(lock, "_touch_general", boom)


def test_touch_returns_none_or_a_snapshot(engaged, clock):
    lock = engaged()
    assert lock.touch() is None
    assert lock.touch(False) is None
    clock.advance(1_000)
    snap = lock.touch(snapshot=True)
    assert isinstance(snap, Snapshot)
    assert snap.last_activity_ms == clock.now
    assert isinstance(lock.touch(True), Snapshot)


def test_fast_path_records_activity():
    with default_clock_lock() as lock:
        lock.set_passcode(PASSCODE)
        before = lock.snapshot().last_activity_ms
        time.sleep(0.02)
        lock.touch()
        after = lock.snapshot().last_activity_ms
        assert after - before >= 15


def test_fast_path_is_one_call_without_bookkeeping(monkeypatch):
    with default_clock_lock() as lock:
        lock.set_passcode(PASSCODE)
        no_bookkeeping(lock, monkeypatch)
        for _ in range(1_000):
            assert lock.touch() is None
        monkeypatch.undo()
        assert lock.touch(snapshot=True).state == State.UNLOCKED


def test_general_path_with_a_python_clock_or_listeners(engaged, clock):
    # A Python clock: its exceptions must be caught and re-raised.
    lock = engaged()
    assert not lock._fast
    with default_clock_lock() as plain:
        assert plain._fast
        token = plain.subscribe(lambda s: None)
        assert not plain._fast  # a listener may run inside touch()
        plain.unsubscribe(token)
        assert plain._fast
        plain.close()
        assert not plain._fast


def test_listener_error_is_raised_from_touch():
    with default_clock_lock(idle_after_ms=50) as lock:
        lock.set_passcode(PASSCODE)

        def listener(snap: Snapshot) -> None:
            raise ValueError("listener")

        lock.subscribe(listener)
        time.sleep(0.1)
        with pytest.raises(ListenerError) as e:
            lock.touch()  # judges first: the idle lock is due and heard
        assert isinstance(e.value.__cause__, ValueError)
        assert lock.snapshot().reason == Reason.IDLE


def test_touch_after_close_on_the_fast_path():
    lock = default_clock_lock()
    assert lock._fast
    lock.close()
    with pytest.raises(ClosedError):
        lock.touch()
    with pytest.raises(ClosedError):
        lock.touch(snapshot=True)


def test_fast_path_storage_error_carries_the_snapshot(tmp_path):
    path = tmp_path / "s.idlelock"
    lock = IdleLock(idle_after_ms=100, store_path=path, device_key=bytes(range(32)),
                    lock_on_start=False, **KDF)
    try:
        lock.set_passcode(PASSCODE)
        # The store cannot be replaced any more: a directory took its name.
        os.unlink(path)
        os.mkdir(path)
        time.sleep(0.2)
        with pytest.raises(StorageError) as e:
            lock.touch()  # the idle lock is due: touch locks, the save fails
        assert e.value.status == 7
        assert e.value.message and "idlelock_" not in e.value.message  # the library's, in Python words
        assert e.value.snapshot is not None
        assert (e.value.snapshot.state, e.value.snapshot.reason) == (State.LOCKED, Reason.IDLE)
    finally:
        lock.close()


@pytest.mark.parametrize("listener", [False, True], ids=["fast", "general"])
def test_close_while_threads_touch(listener):
    """close() from another thread while threads hammer touch(): every
    touch either runs or raises ClosedError, nothing crashes, close()
    returns, and the handle is destroyed once."""
    for _ in range(10):
        lock = default_clock_lock()
        lock.set_passcode(PASSCODE)
        if listener:
            lock.subscribe(lambda s: None)
        outcomes: List[Any] = []
        started = threading.Barrier(5)

        def worker() -> None:
            started.wait()
            try:
                while True:
                    lock.touch()
            except ClosedError:
                outcomes.append("closed")
            except BaseException as exc:  # pragma: no cover
                outcomes.append(exc)

        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        started.wait()
        time.sleep(0.005)
        lock.close()
        assert lock._destroyed  # close() returned after the destroy
        for t in threads:
            t.join(10)
            assert not t.is_alive()
        assert outcomes == ["closed"] * 4


def test_close_waits_only_for_calls_in_flight(monkeypatch):
    lock = default_clock_lock()
    lock.set_passcode(PASSCODE)
    assert lock._inflight == []
    waits: List[Any] = []
    real_wait = lock._cond.wait

    def spy(*args: Any) -> Any:
        waits.append(args)
        return real_wait(*args)

    monkeypatch.setattr(lock._cond, "wait", spy)
    lock.close()  # nothing in flight: destroys at once, no wait
    assert waits == [] and lock._destroyed


def test_close_during_a_slow_call_defers_to_it():
    lock = default_clock_lock()
    lock.set_passcode(PASSCODE)
    lock.lock()
    entered = threading.Event()
    result: List[Any] = []

    def worker() -> None:
        entered.set()
        try:
            lock.unlock(PASSCODE)  # Argon2id, tens of ms, GIL released
            result.append("unlocked")
        except BaseException as exc:  # noqa: BLE001
            result.append(exc)

    t = threading.Thread(target=worker)
    t.start()
    entered.wait()
    while not lock._inflight and t.is_alive():
        time.sleep(0)
    lock.close()  # waits for the unlock in flight, which destroys
    assert lock._destroyed
    t.join(10)
    assert not t.is_alive()
    # The unlock in flight ran to its end on a live handle (or, closed
    # before it read the handle, never reached C).
    assert result == ["unlocked"] or isinstance(result[0], ClosedError), result


def test_default_touch_has_no_snapshot_struct(monkeypatch):
    """The fast path passes NULL for out: no SnapshotStruct is made."""
    made: List[int] = []
    real = idlelock._ffi.SnapshotStruct

    class Spy(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any) -> None:
            made.append(1)
            super().__init__(*args)

    with default_clock_lock() as lock:
        monkeypatch.setattr(idlelock._ffi, "SnapshotStruct", Spy)
        lock.touch()
        assert made == []
        lock.touch(snapshot=True)
        assert made == [1]

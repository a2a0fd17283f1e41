# SPDX-License-Identifier: MIT
"""Listeners (the header's "Listeners"): delivery order, what is delivered, lifetime of the
ctypes callbacks, and exceptions raised inside listeners."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from idlelock import (
    InvalidArgumentError,
    ListenerError,
    LockedOutError,
    Reason,
    Snapshot,
    State,
)

from conftest import PASSCODE


def test_delivery_in_seq_order(engaged, clock):
    lock = engaged(idle_after_ms=60_000, background_after_ms=10_000)
    heard = []
    lock.subscribe(heard.append)
    assert heard == []  # nothing for the state at subscription

    s1 = lock.lock()
    s2 = lock.unlock(PASSCODE)
    s3 = lock.background()
    clock.advance(10_000)
    s4 = lock.foreground()

    assert all(isinstance(s, Snapshot) for s in heard)
    seqs = [s.seq for s in heard]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)  # strictly increasing
    assert heard[-1].seq == s4.seq == lock.snapshot().seq
    assert seqs[0] > 0
    states = [(s.state, s.reason) for s in heard]
    assert (State.LOCKED, Reason.MANUAL) in states
    assert (State.UNLOCKED, Reason.NONE) in states
    assert heard[-1].state == State.LOCKED and heard[-1].reason == Reason.BACKGROUNDED
    assert any(s.is_away for s in heard)  # a flag change is a change
    assert s1.seq < s2.seq < s3.seq < s4.seq


def test_activity_alone_is_not_a_change(engaged, clock):
    lock = engaged()
    heard = []
    lock.subscribe(heard.append)
    seq = lock.snapshot().seq
    clock.advance(1_000)
    snap = lock.touch(snapshot=True)
    assert heard == []
    assert snap.seq == seq


def test_every_change_is_also_visible_by_polling(engaged):
    lock = engaged()
    heard = []
    lock.subscribe(heard.append)
    lock.lock()
    polled = lock.snapshot()
    assert heard[-1] == polled


def test_unsubscribe_stops_delivery(engaged):
    lock = engaged()
    heard = []
    token = lock.subscribe(heard.append)
    assert isinstance(token, int) and token != 0
    lock.lock()
    assert len(heard) == 1
    lock.unsubscribe(token)
    lock.unlock(PASSCODE)
    assert len(heard) == 1
    with pytest.raises(InvalidArgumentError):
        lock.unsubscribe(token)  # no longer subscribed
    with pytest.raises(InvalidArgumentError):
        lock.unsubscribe(-1)


def test_several_listeners_all_hear(engaged):
    lock = engaged()
    a, b = [], []
    lock.subscribe(a.append)
    lock.subscribe(b.append)
    lock.lock()
    assert [s.seq for s in a] == [s.seq for s in b] != []


def test_listener_kept_alive_after_del_and_gc(engaged):
    lock = engaged()
    heard = []

    class Listener:
        def __call__(self, snapshot: Snapshot) -> None:
            heard.append(snapshot.state)

    listener = Listener()
    ref = weakref.ref(listener)
    token = lock.subscribe(listener)
    del listener
    gc.collect()
    assert ref() is not None  # the binding holds it while subscribed
    lock.lock()
    lock.unlock(PASSCODE)
    # (the library may also report the attempt count in between)
    assert heard[0] == State.LOCKED and heard[-1] == State.UNLOCKED

    lock.unsubscribe(token)
    gc.collect()
    assert ref() is None  # ...and lets go afterwards


def test_lambda_kept_alive(engaged):
    lock = engaged()
    heard = []

    def subscribe_temporary() -> None:
        lock.subscribe(lambda s: heard.append(s.seq))

    subscribe_temporary()
    gc.collect()
    lock.lock()
    assert len(heard) == 1


def test_listener_exception_is_raised_after_the_call(engaged):
    lock = engaged()
    other = []

    def bad(snapshot: Snapshot) -> None:
        raise RuntimeError("boom in listener")

    lock.subscribe(bad)
    lock.subscribe(other.append)
    with pytest.raises(ListenerError) as e:
        lock.lock()
    assert isinstance(e.value.__cause__, RuntimeError)
    assert "boom in listener" in str(e.value)
    assert len(e.value.errors) == 1
    assert len(other) == 1  # the other listener still heard it
    assert lock.snapshot().state == State.LOCKED  # the call took effect
    # Later calls are clean: the error was raised once.
    lock.check()


def test_listener_exception_with_failing_call(engaged):
    lock = engaged(max_attempts=1)
    lock.lock()

    def bad(snapshot: Snapshot) -> None:
        raise ValueError("listener")

    lock.subscribe(bad)
    with pytest.raises(LockedOutError) as e:  # LOCKED -> LOCKED_OUT is delivered
        lock.unlock("0000")
    # The library's error wins; the listener's is attached as its context.
    assert isinstance(e.value.__context__, ListenerError)
    assert isinstance(e.value.__context__.__cause__, ValueError)
    assert e.value.snapshot.state == State.LOCKED_OUT


def test_listener_may_call_back_into_the_lock(engaged):
    lock = engaged()
    seen = []

    def listener(snapshot: Snapshot) -> None:
        seen.append((snapshot.seq, lock.snapshot().state))

    lock.subscribe(listener)
    lock.lock()
    assert seen and seen[0][1] == State.LOCKED


def test_listener_changes_are_delivered_after_the_current_one(engaged):
    lock = engaged()
    heard = []
    relocked = []

    def listener(snapshot: Snapshot) -> None:
        heard.append(snapshot)
        if snapshot.state == State.UNLOCKED and not relocked:
            relocked.append(lock.lock())  # re-lock from inside the listener

    lock.subscribe(listener)
    lock.lock()
    lock.unlock(PASSCODE)
    states = [s.state for s in heard]
    assert states[0] == State.LOCKED
    assert states[-2:] == [State.UNLOCKED, State.LOCKED]
    assert heard[-1].reason == Reason.MANUAL
    assert relocked[0].state == State.LOCKED
    seqs = [s.seq for s in heard]
    assert seqs == sorted(seqs)


def test_listener_unsubscribes_itself(engaged):
    lock = engaged()
    heard = []
    box = {}

    def once(snapshot: Snapshot) -> None:
        heard.append(snapshot)
        lock.unsubscribe(box["token"])

    box["token"] = lock.subscribe(once)
    lock.lock()
    lock.unlock(PASSCODE)
    lock.lock()
    gc.collect()
    assert len(heard) == 1


def test_listener_threads(engaged, clock):
    lock = engaged(idle_after_ms=10**9)
    heard = []
    lock_heard = threading.Lock()

    def listener(snapshot: Snapshot) -> None:
        with lock_heard:
            heard.append(snapshot.seq)

    lock.subscribe(listener)
    errors = []

    def worker() -> None:
        try:
            for _ in range(50):
                lock.background()
                lock.foreground()
                lock.touch()
                lock.check()
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert heard == sorted(heard)  # one at a time, in seq order
    assert len(set(heard)) == len(heard)


def test_listener_limit(engaged):
    lock = engaged()
    tokens = [lock.subscribe(lambda s: None) for _ in range(64)]
    with pytest.raises(InvalidArgumentError):
        lock.subscribe(lambda s: None)
    for token in tokens:
        lock.unsubscribe(token)


def test_subscribe_needs_a_callable(engaged):
    with pytest.raises(TypeError):
        engaged().subscribe(42)


def test_keyboard_interrupt_in_listener_is_reraised(engaged):
    lock = engaged()

    def interrupt(snapshot: Snapshot) -> None:
        raise KeyboardInterrupt

    lock.subscribe(interrupt)
    with pytest.raises(KeyboardInterrupt):
        lock.lock()


def test_failing_call_inside_a_listener_keeps_the_outer_message(engaged):
    lock = engaged(max_attempts=1)
    lock.lock()
    inner = []

    def listener(snapshot: Snapshot) -> None:
        try:
            lock.get_secret("missing")  # fails: locked
        except Exception as exc:
            inner.append(exc)

    lock.subscribe(listener)
    with pytest.raises(LockedOutError) as e:
        lock.unlock("0000")
    assert inner  # the listener's own call failed on this thread...
    assert e.value.message != inner[-1].message  # ...without clobbering ours
    assert e.value.status == 4

"""close(), the context manager, __del__ and threads."""

from __future__ import annotations

import gc
import threading
import time

import pytest

from idlelock import ClosedError, IdleLock, InvalidArgumentError, State

from conftest import KDF, PASSCODE

CALLS = [
    ("start", ()), ("touch", ()), ("inactive", ()), ("background", ()),
    ("foreground", ()), ("check", ()), ("lock", ()), ("snapshot", ()),
    ("set_passcode", (PASSCODE,)), ("unlock", (PASSCODE,)),
    ("enable_biometrics", ()), ("disable_biometrics", ()),
    ("unlock_with_biometrics", ()), ("disable", ()),
    ("subscribe", (print,)), ("unsubscribe", (1,)),
    ("put_secret", ("n", b"v")), ("get_secret", ("n",)),
    ("remove_secret", ("n",)), ("require_unlocked", ()),
]


@pytest.mark.parametrize("name, args", CALLS, ids=[c[0] for c in CALLS])
def test_calls_after_close_raise(make_lock, name, args):
    lock = make_lock()
    lock.close()
    with pytest.raises(ClosedError) as e:
        getattr(lock, name)(*args)
    assert isinstance(e.value, InvalidArgumentError)
    assert isinstance(e.value, ValueError)
    assert "closed" in str(e.value)


def test_close_is_idempotent(make_lock):
    lock = make_lock()
    assert not lock.closed
    lock.close()
    lock.close()
    assert lock.closed


def test_context_manager(clock):
    with IdleLock(idle_after_ms=60_000, clock=clock, **KDF) as lock:
        lock.set_passcode(PASSCODE)
        assert lock.snapshot().is_enabled
    assert lock.closed
    with pytest.raises(ClosedError):
        lock.snapshot()


def test_context_manager_closes_on_error(clock):
    with pytest.raises(ZeroDivisionError):
        with IdleLock(idle_after_ms=60_000, clock=clock, **KDF) as lock:
            1 / 0
    assert lock.closed


def test_del_without_close_is_safe(clock):
    heard = []
    for _ in range(20):
        lock = IdleLock(idle_after_ms=60_000, clock=clock, **KDF)
        lock.subscribe(heard.append)
        lock.put_secret("n", b"v")
        del lock
        gc.collect()
    # A half-constructed object (create failed) must not crash in __del__.
    with pytest.raises(InvalidArgumentError):
        IdleLock(idle_after_ms=-1)
    gc.collect()


def test_close_from_inside_a_listener_is_deferred(engaged):
    lock = engaged()
    seen = []

    def listener(snapshot) -> None:
        lock.close()
        seen.append(lock.closed)

    lock.subscribe(listener)
    snap = lock.lock()  # returns normally; the handle is destroyed afterwards
    assert snap.state == State.LOCKED
    assert seen == [True]
    assert lock.closed
    with pytest.raises(ClosedError):
        lock.snapshot()


def test_close_waits_for_calls_on_other_threads(engaged):
    lock = engaged()
    lock.lock()
    outcome = []
    started = threading.Event()

    def worker() -> None:
        started.set()
        try:
            while True:
                lock.unlock(PASSCODE)  # Argon2id: slow, GIL released
                lock.lock()
        except ClosedError:
            outcome.append("closed")
        except BaseException as exc:  # pragma: no cover
            outcome.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    time.sleep(0.05)
    lock.close()
    thread.join(10)
    assert not thread.is_alive()
    assert outcome == ["closed"]


def test_many_threads_share_one_lock(engaged, clock):
    lock = engaged(idle_after_ms=10**9)
    lock.put_secret("n", b"v")
    errors = []

    def worker(i: int) -> None:
        try:
            for _ in range(100):
                lock.touch()
                assert lock.get_secret("n") == b"v"
                lock.check()
                lock.snapshot()
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_repr(make_lock):
    lock = make_lock()
    assert "open" in repr(lock)
    lock.close()
    assert "closed" in repr(lock)

# SPDX-License-Identifier: MIT
"""The injected clock (docs/RULES.md) and the binding's handling of a clock callable
that misbehaves."""

from __future__ import annotations

import gc
import weakref

import pytest

from idlelock import IdleLock, ListenerError, Reason, State

from conftest import KDF, PASSCODE, T0, FakeClock


class FlakyClock(FakeClock):
    """A fake clock that raises while `broken` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.broken: BaseException | None = None

    def __call__(self) -> int:
        if self.broken is not None:
            raise self.broken
        return super().__call__()


# -- the contract -----------------------------------------------------------


@pytest.mark.parametrize(
    "method",
    ["touch", "check", "snapshot", "lock", "start", "inactive", "background",
     "foreground", "require_unlocked", "disable_biometrics", "disable"],
)
def test_clock_is_read_once_per_call(engaged, clock, method):
    lock = engaged()
    before = clock.calls
    getattr(lock, method)()
    assert clock.calls - before <= 1
    if method in ("touch", "check", "snapshot", "lock", "inactive", "background", "foreground"):
        assert clock.calls - before == 1


def test_clock_read_once_by_secret_calls_once_per_half_by_passcode_calls(engaged, clock):
    """A passcode call reads the clock at its start and again after the key
    derivation (what it reports is the state when it returns); a secret
    call reads it once."""
    lock = engaged()
    for call, reads in (
        (lambda: lock.set_passcode("9999"), 2),
        (lambda: lock.unlock("9999"), 2),
        (lambda: lock.put_secret("n", b"v"), 1),
        (lambda: lock.get_secret("n"), 1),
        (lambda: lock.remove_secret("n"), 1),
    ):
        before = clock.calls
        call()
        assert clock.calls - before == reads


def test_clock_step_back_locks_an_engaged_session(engaged, clock):
    lock = engaged()
    clock.now -= 1  # earlier than the recorded activity
    snap = lock.touch(snapshot=True)
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.CLOCK)


def test_clock_step_back_before_departure_locks(engaged, clock):
    lock = engaged(idle_after_ms=600_000, background_after_ms=600_000)
    clock.advance(5_000)
    lock.background()  # departure at +5000; activity at +0
    clock.now -= 1_000  # later than the activity, earlier than the departure
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.CLOCK)


def test_clock_step_back_before_a_passcode_resets(make_lock, clock):
    lock = make_lock()
    clock.now -= 10_000
    snap = lock.touch(snapshot=True)
    assert snap.state == State.UNLOCKED
    assert snap.last_activity_ms == clock.now
    lock.set_passcode(PASSCODE)
    assert lock.check().state == State.UNLOCKED


def test_clock_origin_is_arbitrary(make_lock):
    clock = FakeClock(start=-5_000_000_000)  # negative readings are fine
    lock = make_lock(clock=clock, lock_on_start=False)
    lock.set_passcode(PASSCODE)
    clock.advance(59_999)
    assert lock.check().state == State.UNLOCKED
    clock.advance(1)
    assert lock.check().reason == Reason.IDLE


# -- a clock callable that misbehaves ----------------------------------------


def test_raising_clock_never_extends_the_session(make_lock):
    clock = FlakyClock()
    lock = make_lock(clock=clock, lock_on_start=False)
    lock.set_passcode(PASSCODE)
    clock.broken = RuntimeError("clock hardware gone")
    with pytest.raises(RuntimeError, match="clock hardware gone"):
        lock.touch()  # re-raised after the C call returned
    clock.broken = None
    snap = lock.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.CLOCK)
    lock.unlock(PASSCODE)  # recoverable with the passcode
    assert lock.snapshot().state == State.UNLOCKED


def test_raising_clock_before_a_passcode(make_lock):
    clock = FlakyClock()
    lock = make_lock(clock=clock)
    clock.broken = ValueError("bad")
    with pytest.raises(ValueError, match="bad"):
        lock.check()
    clock.broken = None
    snap = lock.touch(snapshot=True)
    assert snap.state == State.UNLOCKED
    assert snap.last_activity_ms == clock.now


@pytest.mark.parametrize(
    "value, error",
    [(1.5, TypeError), (None, TypeError), ("1000", TypeError), (True, TypeError),
     (2**63, OverflowError), (-(2**63) - 1, OverflowError)],
)
def test_clock_returning_garbage(make_lock, value, error):
    state = {"value": T0}
    lock = make_lock(clock=lambda: state["value"], lock_on_start=False)
    lock.set_passcode(PASSCODE)
    state["value"] = value
    with pytest.raises(error):
        lock.check()
    state["value"] = T0
    assert lock.snapshot().reason == Reason.CLOCK


def test_clock_calling_into_the_lock_is_refused(make_lock):
    holder = {}
    base = FakeClock()

    def clock() -> int:
        if "lock" in holder and holder.get("reenter"):
            holder["lock"].snapshot()  # must not call into the library
        return base()

    lock = make_lock(clock=clock, lock_on_start=False)
    holder["lock"] = lock
    lock.set_passcode(PASSCODE)
    holder["reenter"] = True
    with pytest.raises(RuntimeError, match="clock must not call"):
        lock.touch()
    holder["reenter"] = False
    assert lock.snapshot().reason == Reason.CLOCK


def test_clock_raising_at_create():
    def broken() -> int:
        raise OSError("no clock")

    with pytest.raises(OSError, match="no clock"):
        IdleLock(idle_after_ms=60_000, clock=broken, **KDF)


def test_clock_error_wins_over_listener_error(make_lock):
    clock = FlakyClock()
    lock = make_lock(clock=clock, lock_on_start=False)
    lock.set_passcode(PASSCODE)

    def listener(snapshot) -> None:
        raise KeyError("listener")

    lock.subscribe(listener)
    clock.broken = RuntimeError("clock")
    with pytest.raises(RuntimeError, match="clock") as e:
        lock.touch()  # locks with CLOCK, which the listener hears
    assert isinstance(e.value.__context__, ListenerError)


def test_clock_callable_kept_alive(make_lock):
    class Clock(FakeClock):
        pass

    clock = Clock()
    ref = weakref.ref(clock)
    lock = make_lock(clock=clock, lock_on_start=False)
    del clock
    gc.collect()
    assert ref() is not None
    lock.set_passcode(PASSCODE)
    ref().advance(60_000)
    assert lock.check().reason == Reason.IDLE
    lock.close()
    gc.collect()
    assert ref() is None  # released by close()


def test_default_clock(make_lock):
    lock = IdleLock(idle_after_ms=60_000, lock_on_start=False, **KDF)
    try:
        lock.set_passcode(PASSCODE)
        snap = lock.touch(snapshot=True)
        assert snap.state == State.UNLOCKED
        assert 0 < snap.ms_until_idle_lock <= 60_000
    finally:
        lock.close()

# SPDX-License-Identifier: MIT
"""The 1.1 options and snapshot fields (docs/RULES.md): the warning before the
idle lock (warn_before_ms, is_warning, ms_until_warning), escalating delays
after wrong passcodes (delay_schedule, RetryLaterError, ms_until_retry) and
ms_until_next_deadline."""

from __future__ import annotations

import ctypes

import pytest

import idlelock
from idlelock import (
    IdleLock,
    InvalidArgumentError,
    InvalidPasscodeError,
    LockedOutError,
    Reason,
    RetryLaterError,
    Snapshot,
    State,
    _ffi,
)

from conftest import KDF, PASSCODE, WRONG

# -- the warning before the idle lock ---------------------------------------


def test_warning_opens_at_idle_minus_warn_and_touch_ends_it(engaged, clock):
    lock = engaged(idle_after_ms=60_000, warn_before_ms=10_000)
    heard = []
    lock.subscribe(heard.append)
    snap = lock.snapshot()
    assert not snap.is_warning
    assert snap.ms_until_warning == 50_000
    assert snap.ms_until_idle_lock == 60_000

    clock.advance(49_999)
    snap = lock.check()
    assert not snap.is_warning and snap.ms_until_warning == 1
    assert heard == []

    clock.advance(1)  # idle_after_ms - warn_before_ms since the last activity
    snap = lock.check()
    assert snap.is_warning and snap.ms_until_warning == 0
    assert snap.state == State.UNLOCKED and snap.ms_until_idle_lock == 10_000
    assert [s.is_warning for s in heard] == [True]  # listeners hear it open
    assert heard[-1].seq == snap.seq

    clock.advance(5_000)
    lock.touch()  # activity during the warning is ordinary activity
    snap = lock.snapshot()
    assert not snap.is_warning
    assert snap.ms_until_warning == 50_000 and snap.ms_until_idle_lock == 60_000
    assert [s.is_warning for s in heard] == [True, False]  # ...and close
    assert snap.state == State.UNLOCKED


def test_warning_then_the_idle_lock(engaged, clock):
    lock = engaged(idle_after_ms=60_000, warn_before_ms=10_000)
    clock.advance(55_000)
    assert lock.check().is_warning
    clock.advance(5_000)
    snap = lock.check()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)
    assert not snap.is_warning
    assert snap.ms_until_warning is None  # no idle deadline while locked


def test_warning_is_off_by_default(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    snap = lock.snapshot()
    assert not snap.is_warning and snap.ms_until_warning is None
    clock.advance(59_999)
    assert not lock.check().is_warning


def test_warn_before_ms_bounds(make_lock):
    make_lock(idle_after_ms=60_000, warn_before_ms=59_999).close()
    make_lock(idle_after_ms=60_000, warn_before_ms=0).close()
    for value in (60_000, 60_001, 2**63 - 1):
        with pytest.raises(InvalidArgumentError) as e:
            make_lock(idle_after_ms=60_000, warn_before_ms=value)
        assert "warn_before_ms" in str(e.value) and "idle_after_ms" in str(e.value)
    with pytest.raises(InvalidArgumentError) as e:
        make_lock(warn_before_ms=-1)
    assert "warn_before_ms" in str(e.value)
    for value in (None, True, 1.5, "10"):
        with pytest.raises(TypeError) as e:
            make_lock(warn_before_ms=value)
        assert "warn_before_ms" in str(e.value)


# -- escalating delays --------------------------------------------------------


def test_delays_refuse_with_retry_later_and_do_not_count(engaged, clock):
    lock = engaged(delay_schedule=[(2, 30_000), (3, 60_000)])
    lock.lock()
    with pytest.raises(InvalidPasscodeError) as e:
        lock.unlock(WRONG)
    assert e.value.snapshot.ms_until_retry == 0  # one wrong: no delay yet
    with pytest.raises(InvalidPasscodeError) as e:
        lock.unlock(WRONG)  # the second: the first step's delay starts
    assert e.value.attempts_remaining == 3
    assert e.value.snapshot.ms_until_retry == 30_000

    clock.advance(10_000)
    for passcode in (WRONG, PASSCODE):  # even the right one waits
        with pytest.raises(RetryLaterError) as r:
            lock.unlock(passcode)
        assert r.value.status == _ffi.ERR_RETRY_LATER == 12
        assert r.value.ms_until_retry == 20_000
        assert r.value.snapshot.attempts_remaining == 3  # not counted
        assert r.value.snapshot.state == State.LOCKED
        assert "20000" in r.value.message
        assert "IDLELOCK_ERR_RETRY_LATER" in str(r.value)
    snap = lock.snapshot()
    assert snap.ms_until_retry == 20_000 and snap.attempts_remaining == 3
    assert snap.ms_until_next_deadline == 20_000  # locked: the delay's end

    clock.advance(20_000)  # the delay is over: attempts count again
    with pytest.raises(InvalidPasscodeError) as e:
        lock.unlock(WRONG)
    assert e.value.attempts_remaining == 2
    assert e.value.snapshot.ms_until_retry == 60_000  # the next step

    clock.advance(60_000)
    snap = lock.unlock(PASSCODE)
    assert snap.state == State.UNLOCKED
    assert snap.attempts_remaining == 5 and snap.ms_until_retry == 0


def test_max_attempts_still_locks_out(engaged, clock):
    lock = engaged(max_attempts=3, delay_schedule=[(2, 30_000)])
    lock.lock()
    for _ in range(2):
        with pytest.raises(InvalidPasscodeError):
            lock.unlock(WRONG)
    clock.advance(30_000)
    with pytest.raises(LockedOutError) as e:
        lock.unlock(WRONG)
    assert e.value.snapshot.state == State.LOCKED_OUT
    assert e.value.snapshot.ms_until_retry == 0


def test_retry_later_error_without_a_snapshot():
    err = idlelock.errors._error_for(_ffi.ERR_RETRY_LATER, "wait", None)
    assert type(err) is RetryLaterError and err.ms_until_retry is None
    assert issubclass(RetryLaterError, idlelock.IdleLockError)


def test_ios_preset(engaged, clock):
    assert idlelock.ios_delay_schedule() == [
        (5, 60_000), (6, 300_000), (7, 900_000), (9, 3_600_000)]
    lock = engaged(delay_schedule="ios", max_attempts=10)
    lock.lock()
    for _ in range(4):
        with pytest.raises(InvalidPasscodeError) as e:
            lock.unlock(WRONG)
        assert e.value.snapshot.ms_until_retry == 0
    with pytest.raises(InvalidPasscodeError) as e:
        lock.unlock(WRONG)  # the fifth: one minute
    assert e.value.snapshot.ms_until_retry == 60_000
    clock.advance(59_999)
    with pytest.raises(RetryLaterError) as r:
        lock.unlock(PASSCODE)
    assert r.value.ms_until_retry == 1
    clock.advance(1)
    assert lock.unlock(PASSCODE).state == State.UNLOCKED


@pytest.mark.parametrize("max_attempts", [None, 5, 9])
def test_ios_preset_needs_max_attempts_10(make_lock, max_attempts):
    options = {} if max_attempts is None else {"max_attempts": max_attempts}
    with pytest.raises(InvalidArgumentError) as e:
        make_lock(delay_schedule="ios", **options)
    message = str(e.value)
    assert "delay_schedule" in message and "max_attempts=10" in message


def test_empty_or_none_schedule_means_no_delays(engaged, clock):
    for schedule in (None, [], ()):
        lock = engaged(delay_schedule=schedule, max_attempts=3)
        lock.lock()
        for remaining in (2, 1):
            with pytest.raises(InvalidPasscodeError) as e:
                lock.unlock(WRONG)
            assert e.value.attempts_remaining == remaining
            assert e.value.snapshot.ms_until_retry == 0


def test_schedule_accepts_any_iterable_of_pairs_and_is_copied(engaged, clock):
    steps = [[1, 1_000], (2, 2_000)]
    lock = engaged(delay_schedule=(s for s in steps))  # a generator
    steps[0][1] = 50_000  # the binding and the library copied the steps
    lock.lock()
    with pytest.raises(InvalidPasscodeError) as e:
        lock.unlock(WRONG)
    assert e.value.snapshot.ms_until_retry == 1_000


def test_schedule_with_32_steps(make_lock):
    make_lock(max_attempts=100, delay_schedule=[(i, i) for i in range(1, 33)]).close()


@pytest.mark.parametrize(
    "schedule, named",
    [
        ("android", "delay_schedule"),  # the only preset is "ios"
        ([(0, 1_000)], "delay_schedule[0]"),  # failed_attempts from 1
        ([(-1, 1_000)], "delay_schedule[0]"),
        ([(5, 1_000)], "delay_schedule[0]"),  # must be below max_attempts (5)
        ([(1, 0)], "delay_schedule[0]"),  # delay_ms from 1
        ([(1, 86_400_001)], "delay_schedule[0]"),  # one day at most
        ([(1, -5)], "delay_schedule[0]"),
        ([(2, 1_000), (2, 2_000)], "delay_schedule[1]"),  # strictly increasing
        ([(2, 1_000), (1, 2_000)], "delay_schedule[1]"),
        ([(1, 2_000), (2, 1_000)], "delay_schedule[1]"),  # delays never decrease
        ([(i, 1) for i in range(1, 34)], "delay_schedule"),  # 33 steps
    ],
)
def test_schedule_is_validated_in_python_naming_the_option(make_lock, monkeypatch, schedule, named):
    def no_create(*args):  # the binding refuses before C sees the value
        raise AssertionError("idlelock_create was called")

    monkeypatch.setattr(_ffi.lib, "idlelock_create", no_create)
    with pytest.raises(InvalidArgumentError) as e:
        make_lock(delay_schedule=schedule, max_attempts=100 if len(schedule) == 33 else 5)
    assert named in str(e.value)


@pytest.mark.parametrize(
    "schedule",
    [
        42,
        b"ios",
        {1: 1_000},
        [1_000],
        [(1, 2, 3)],
        [(1,)],
        ["12"],
        [(True, 1_000)],
        [(1, 1.5)],
        [(1, None)],
        [("1", 1_000)],
    ],
)
def test_schedule_types(make_lock, schedule):
    with pytest.raises(TypeError) as e:
        make_lock(delay_schedule=schedule)
    assert "delay_schedule" in str(e.value)


def test_library_also_checks_the_schedule():
    """The raw layer: the library refuses what the binding refuses, naming
    the field (a host that bypasses the binding is still protected)."""
    cfg = _ffi.Config()
    assert _ffi.lib.idlelock_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg)) == 0
    cfg.idle_after_ms = 60_000
    cfg.kdf_memlimit = 19 * 1024 * 1024
    steps = (_ffi.DelayStep * 2)(_ffi.DelayStep(2, 0, 1_000), _ffi.DelayStep(1, 0, 2_000))
    cfg.delay_schedule = ctypes.cast(steps, ctypes.POINTER(_ffi.DelayStep))
    cfg.delay_schedule_len = 2
    handle = _ffi.HandleP()
    status = _ffi.lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
    assert status == 1 and not handle
    assert "delay_schedule[1]" in status.message
    steps[1].failed_attempts = 3
    steps[1].reserved0 = 1
    status = _ffi.lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
    assert status == 1 and "reserved0" in status.message
    steps[1].reserved0 = 0
    status = _ffi.lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
    assert status == 0, status.message
    _ffi.lib.idlelock_destroy(handle)


# -- ms_until_next_deadline ---------------------------------------------------


def test_next_deadline(engaged, clock):
    lock = engaged(idle_after_ms=60_000, warn_before_ms=10_000,
                   background_after_ms=20_000, grace_ms=1_500)
    assert lock.snapshot().ms_until_next_deadline == 50_000  # the warning
    clock.advance(50_000)
    snap = lock.check()
    assert snap.is_warning and snap.ms_until_next_deadline == 10_000  # the idle lock
    lock.touch()
    assert lock.snapshot().ms_until_next_deadline == 50_000

    snap = lock.background()
    assert snap.ms_until_next_deadline == 1_501  # the end of the grace window
    clock.advance(1_501)
    assert lock.check().ms_until_next_deadline == 20_000 - 1_501  # the absence's timeout
    clock.advance(20_000 - 1_501)
    snap = lock.check()  # the host woke on time: the lock is due now
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    assert snap.ms_until_next_deadline is None  # locked: nothing is due


def test_next_deadline_is_never_late(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    heard = []
    lock.subscribe(heard.append)
    clock.advance(59_999)
    snap = lock.check()
    assert snap.ms_until_next_deadline == 1 and snap.state == State.UNLOCKED
    clock.advance(snap.ms_until_next_deadline)  # a timer set to it
    assert lock.check().state == State.LOCKED
    assert heard[-1].state == State.LOCKED


def test_snapshot_fields_are_typed(engaged):
    snap = engaged(warn_before_ms=1_000).touch(snapshot=True)
    assert isinstance(snap, Snapshot)
    assert isinstance(snap.is_warning, bool)
    assert isinstance(snap.ms_until_warning, int)
    assert isinstance(snap.ms_until_retry, int)
    assert isinstance(snap.ms_until_next_deadline, int)


def test_unengaged_lock_reports_never(make_lock):
    snap = make_lock(warn_before_ms=1_000).snapshot()
    assert not snap.is_enabled
    assert snap.ms_until_idle_lock is None
    assert snap.ms_until_warning is None
    assert snap.ms_until_next_deadline is None
    assert snap.ms_until_retry == 0


def test_warning_and_delays_with_the_default_clock():
    """The options reach the library on the default clock too."""
    with IdleLock(idle_after_ms=60_000, warn_before_ms=1_000, lock_on_start=False,
                  delay_schedule=[(1, 5_000)], **KDF) as lock:
        lock.set_passcode(PASSCODE)
        snap = lock.snapshot()
        assert 58_000 < snap.ms_until_warning <= 59_000
        lock.lock()
        with pytest.raises(InvalidPasscodeError):
            lock.unlock(WRONG)
        with pytest.raises(RetryLaterError) as r:
            lock.unlock(PASSCODE)
        assert 0 < r.value.ms_until_retry <= 5_000

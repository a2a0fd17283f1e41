# SPDX-License-Identifier: MIT
"""Passcodes, attempts, lockout, sign-out and the biometric calls (the header's "Passcode",
§5, §6 `disable`, §7 table)."""

from __future__ import annotations

import pytest

from idlelock import (
    InvalidArgumentError,
    InvalidPasscodeError,
    LockedOutError,
    LockUnavailableError,
    NoPasscodeError,
    Reason,
    SessionLockedError,
    State,
)

from conftest import PASSCODE, WRONG


def test_wrong_passcodes_count_down_then_lock_out(engaged):
    lock = engaged(max_attempts=3)
    lock.lock()
    assert lock.snapshot().attempts_remaining == 3

    with pytest.raises(InvalidPasscodeError) as e1:
        lock.unlock(WRONG)
    assert e1.value.attempts_remaining == 2
    assert "2" in e1.value.message  # the message says how many remain
    assert WRONG not in e1.value.message  # and never contains a passcode
    assert e1.value.snapshot.state == State.LOCKED
    assert e1.value.status == 3

    with pytest.raises(InvalidPasscodeError) as e2:
        lock.unlock(WRONG)
    assert e2.value.attempts_remaining == 1

    with pytest.raises(LockedOutError) as e3:  # the one that reaches max
        lock.unlock(WRONG)
    assert e3.value.snapshot.state == State.LOCKED_OUT
    assert e3.value.snapshot.attempts_remaining == 0
    assert e3.value.snapshot.reason == Reason.MANUAL  # keeps its reason

    with pytest.raises(LockedOutError):  # the right one no longer helps
        lock.unlock(PASSCODE)
    snap = lock.snapshot()
    assert snap.state == State.LOCKED_OUT
    assert snap.attempts_remaining == 0


def test_lockout_is_left_only_by_disable(engaged, clock):
    lock = engaged(max_attempts=1)
    lock.lock()
    with pytest.raises(LockedOutError):
        lock.unlock(WRONG)
    lock.lock()
    lock.start()
    clock.advance(10**7)
    lock.touch()
    lock.foreground()
    with pytest.raises(SessionLockedError):
        lock.set_passcode("9999")  # locked out: cannot replace its passcode
    assert lock.snapshot().state == State.LOCKED_OUT

    lock.disable()
    snap = lock.snapshot()
    assert (snap.state, snap.reason) == (State.UNLOCKED, Reason.NONE)
    assert not snap.is_enabled
    assert snap.attempts_remaining == 1  # max_attempts when not engaged
    with pytest.raises(NoPasscodeError):
        lock.unlock(PASSCODE)


def test_lockout_from_unlocked_has_reason_none(engaged):
    lock = engaged(max_attempts=2)
    with pytest.raises(InvalidPasscodeError):
        lock.unlock(WRONG)  # re-authentication on an unlocked session counts
    assert lock.snapshot().state == State.UNLOCKED
    with pytest.raises(LockedOutError) as e:
        lock.unlock(WRONG)
    assert (e.value.snapshot.state, e.value.snapshot.reason) == (State.LOCKED_OUT, Reason.NONE)


def test_right_passcode_resets_the_count(engaged):
    lock = engaged(max_attempts=5)
    lock.lock()
    with pytest.raises(InvalidPasscodeError):
        lock.unlock(WRONG)
    assert lock.snapshot().attempts_remaining == 4
    snap = lock.unlock(PASSCODE)
    assert snap.state == State.UNLOCKED
    assert snap.attempts_remaining == 5


def test_unlock_on_unlocked_session_verifies(engaged):
    lock = engaged()
    snap = lock.unlock(PASSCODE)
    assert snap.state == State.UNLOCKED
    with pytest.raises(InvalidPasscodeError):
        lock.unlock(WRONG)


def test_unlock_without_passcode(make_lock):
    with pytest.raises(NoPasscodeError) as e:
        make_lock().unlock(PASSCODE)
    assert e.value.status == 6


def test_str_and_bytes_passcodes_are_the_same_bytes(engaged):
    lock = engaged()
    lock.lock()
    assert lock.unlock(PASSCODE.encode()).state == State.UNLOCKED
    lock.set_passcode("pässwörd".encode("utf-8"))
    lock.lock()
    assert lock.unlock("pässwörd").state == State.UNLOCKED
    lock.lock()
    assert lock.unlock(bytearray("pässwörd", "utf-8")).state == State.UNLOCKED


def test_no_unicode_normalization(engaged):
    lock = engaged()
    lock.set_passcode("caf\u00e9")  # é as one code point
    lock.lock()
    with pytest.raises(InvalidPasscodeError):
        lock.unlock("cafe\u0301")  # e + combining acute: different bytes
    assert lock.unlock("caf\u00e9").state == State.UNLOCKED


def test_embedded_nul_is_an_ordinary_byte(engaged):
    lock = engaged()
    lock.set_passcode("12\x0034")
    lock.lock()
    with pytest.raises(InvalidPasscodeError):
        lock.unlock("12")
    assert lock.unlock("12\x0034").state == State.UNLOCKED


@pytest.mark.parametrize(
    "bad",
    [
        b"\xff\xfe\xfd\xfc",  # not UTF-8 at all
        b"\xc0\xaf1234",  # overlong encoding
        b"\xed\xa0\x80abcd",  # UTF-8-encoded surrogate
        b"1234\xe2\x82",  # truncated sequence
        b"\xf4\x90\x80\x80abc",  # above U+10FFFF
    ],
)
def test_invalid_utf8_passcode_is_refused_and_not_counted(engaged, bad):
    lock = engaged(max_attempts=3)
    lock.lock()
    with pytest.raises(InvalidArgumentError) as e:
        lock.unlock(bad)
    assert isinstance(e.value, ValueError)
    assert e.value.snapshot is None  # bad argument: nothing filled, nothing changed
    snap = lock.snapshot()
    assert snap.attempts_remaining == 3
    assert snap.state == State.LOCKED
    lock.unlock(PASSCODE)
    with pytest.raises(InvalidArgumentError):
        lock.set_passcode(bad)


def test_lone_surrogate_str_is_refused_and_not_counted(engaged):
    lock = engaged(max_attempts=3)
    lock.lock()
    with pytest.raises(InvalidArgumentError):
        lock.unlock("12\udc8034")
    assert lock.snapshot().attempts_remaining == 3


@pytest.mark.parametrize(
    "bad",
    ["", "123", "ñññ", "x" * 1025, "é" * 513],
    ids=["empty", "3-scalars", "3-scalars-6-bytes", "1025-bytes", "1026-bytes-utf8"],
)
def test_set_passcode_bounds(make_lock, bad):
    lock = make_lock()
    with pytest.raises(InvalidArgumentError):
        lock.set_passcode(bad)
    assert not lock.snapshot().is_enabled  # nothing changed


@pytest.mark.parametrize("good", ["1234", "😀😀😀😀", "x" * 1024, "é" * 512])
def test_set_passcode_accepts(make_lock, good):
    lock = make_lock(lock_on_start=False)
    lock.set_passcode(good)
    lock.lock()
    assert lock.unlock(good).state == State.UNLOCKED


def test_unlock_bounds_are_not_attempts(engaged):
    lock = engaged(max_attempts=3)
    lock.lock()
    for bad in ("", "x" * 1025):
        with pytest.raises(InvalidArgumentError):
            lock.unlock(bad)
    assert lock.snapshot().attempts_remaining == 3
    with pytest.raises(InvalidPasscodeError):  # 3 scalars: fine for unlock, wrong
        lock.unlock("123")
    assert lock.snapshot().attempts_remaining == 2


def test_set_passcode_while_locked(engaged):
    lock = engaged()
    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.set_passcode("9999")
    lock.unlock(PASSCODE)  # the old one still works


def test_replacing_the_passcode(engaged):
    lock = engaged(max_attempts=5)
    lock.put_secret("token", b"abc")
    with pytest.raises(InvalidPasscodeError):
        lock.unlock(WRONG)
    lock.set_passcode("new-passcode")
    assert lock.snapshot().attempts_remaining == 5  # count reset
    lock.lock()
    with pytest.raises(InvalidPasscodeError):
        lock.unlock(PASSCODE)
    lock.unlock("new-passcode")
    assert lock.get_secret("token") == b"abc"  # same session key re-wrapped


def test_set_passcode_is_activity(engaged, clock):
    lock = engaged()
    clock.advance(10_000)
    lock.set_passcode("9999")
    assert lock.snapshot().last_activity_ms == clock.now


def test_passcode_type_errors(engaged):
    lock = engaged()
    for bad in (1234, None, ["1234"]):
        with pytest.raises(TypeError):
            lock.unlock(bad)
        with pytest.raises(TypeError):
            lock.set_passcode(bad)


# -- biometric shortcut without an authenticator (see test_biometrics.py) ---


def test_biometrics_without_passcode(make_lock):
    lock = make_lock()
    with pytest.raises(NoPasscodeError):
        lock.enable_biometrics()
    with pytest.raises(NoPasscodeError):
        lock.unlock_with_biometrics()
    lock.disable_biometrics()  # "—": OK


def test_biometrics_unavailable(engaged):
    lock = engaged(max_attempts=3)
    snap = lock.snapshot()
    assert not snap.is_biometrics_available
    assert not snap.is_biometrics_enabled
    with pytest.raises(LockUnavailableError):
        lock.enable_biometrics()
    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.enable_biometrics()
    with pytest.raises(LockUnavailableError) as e:
        lock.unlock_with_biometrics()
    assert e.value.snapshot.state == State.LOCKED
    assert lock.snapshot().attempts_remaining == 3  # never counts
    lock.disable_biometrics()  # forget: OK in every state


def test_biometrics_when_locked_out(engaged):
    lock = engaged(max_attempts=1)
    lock.lock()
    with pytest.raises(LockedOutError):
        lock.unlock(WRONG)
    with pytest.raises(LockedOutError):
        lock.unlock_with_biometrics()
    with pytest.raises(SessionLockedError):
        lock.enable_biometrics()
    lock.disable_biometrics()


# -- the unlock epoch (header, "Passcode"): a lock during the check wins ----


def _race_during_unlock(make_lock, other_call):
    """Run unlock(PASSCODE) on a thread; the moment its clock is read (at the
    call's entry, before Argon2id runs without the internal lock), let the
    main thread make `other_call`. Returns (unlock exception or snapshot)."""
    import threading

    from conftest import FakeClock

    entered = threading.Event()
    armed = {"on": False}
    base = FakeClock()

    def clock() -> int:
        if armed["on"]:
            armed["on"] = False
            entered.set()
        return base()

    lock = make_lock(clock=clock, lock_on_start=False, max_attempts=3)
    lock.set_passcode(PASSCODE)
    result = {}

    def worker() -> None:
        try:
            result["value"] = lock.unlock(PASSCODE)
        except Exception as exc:
            result["value"] = exc

    armed["on"] = True
    thread = threading.Thread(target=worker)
    thread.start()
    assert entered.wait(10)
    other_call(lock)
    thread.join(10)
    return lock, result["value"]


def test_manual_lock_during_unlock_wins(make_lock):
    for _ in range(10):  # the check takes ~20 ms; the lock nearly always lands in it
        lock, outcome = _race_during_unlock(make_lock, lambda lk: lk.lock())
        snap = lock.snapshot()
        assert (snap.state, snap.reason) == (State.LOCKED, Reason.MANUAL)
        if isinstance(outcome, SessionLockedError):
            assert snap.attempts_remaining == 3  # right passcode: count stays 0
            return
    pytest.fail("unlock never returned SESSION_LOCKED after a lock during its check")


def test_disable_during_unlock_voids_it(make_lock):
    for _ in range(10):
        lock, outcome = _race_during_unlock(make_lock, lambda lk: lk.disable())
        snap = lock.snapshot()
        assert (snap.state, snap.is_enabled) == (State.UNLOCKED, False)
        assert snap.attempts_remaining == 3
        if isinstance(outcome, Exception):
            assert isinstance(outcome, NoPasscodeError), repr(outcome)
            return
    pytest.fail("unlock was never voided by a disable during its check")

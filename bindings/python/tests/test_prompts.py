# SPDX-License-Identifier: MIT
"""Prompts the app opens itself (header: idlelock_prompt_begin /
idlelock_prompt_end and prompt_cap_ms; docs/RULES.md): the binding's
prompt_begin / prompt_end and the lock.prompt() context manager.

Every lock here is on the fake clock with the Argon2id floor (conftest),
grace_ms 1500 and background_after_ms 0 unless a test says otherwise: with
a background timeout of 0 every absence that outlasts the grace window
locks, so only the prompt can keep a session unlocked.

Times in the names and comments are from T, the moment the passcode was
set (last activity = T).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

import pytest

from idlelock import (
    PROMPT_CAP_MAX_MS,
    AUTH_SECRET_BYTES,
    Authenticator,
    ClosedError,
    IdleLock,
    InvalidArgumentError,
    Prompt,
    Reason,
    State,
)

from conftest import KDF, PASSCODE, FakeClock

GRACE = 1_500
CAP_DEFAULT = 120_000


@pytest.fixture
def strict(engaged: Callable[..., IdleLock]) -> Callable[..., IdleLock]:
    """An engaged, unlocked lock: idle 60 s, background 0, grace 1.5 s."""

    def make(**overrides: Any) -> IdleLock:
        options = {"background_after_ms": 0, "grace_ms": GRACE}
        options.update(overrides)
        return engaged(**options)

    return make


def at(clock: FakeClock, t0: int, ms: int) -> None:
    """Set the fake clock to T + ms."""
    clock.now = t0 + ms


def picker_then_away(lock: IdleLock, clock: FakeClock, t0: int) -> int:
    """The issue's picture: a file picker opened at 1 s, the app
    backgrounded at 1.05 s. Returns the prompt's token."""
    at(clock, t0, 1_000)
    token = lock.prompt_begin()
    at(clock, t0, 1_050)
    snap = lock.background()
    assert snap.state == State.UNLOCKED and snap.is_away
    return token


# -- the cases --------------------------------------------------------


def test_back_while_the_prompt_is_still_open_is_presence(strict, clock):
    lock = strict()
    t0 = clock.now
    picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)
    snap = lock.foreground()
    assert snap.state == State.UNLOCKED
    assert snap.reason == Reason.NONE
    assert not snap.is_away
    assert snap.last_activity_ms == t0 + 40_000  # presence: last activity = the return


def test_prompt_ended_then_back_within_grace_is_presence(strict, clock):
    lock = strict()
    t0 = clock.now
    token = picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)
    lock.prompt_end(token)
    at(clock, t0, 41_000)
    snap = lock.foreground()
    assert snap.state == State.UNLOCKED
    assert snap.last_activity_ms == t0 + 41_000


def test_back_at_the_prompt_end_plus_grace_is_still_presence(strict, clock):
    lock = strict()
    t0 = clock.now
    token = picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)
    lock.prompt_end(token)
    at(clock, t0, 40_000 + GRACE)
    assert lock.foreground().state == State.UNLOCKED


def test_back_just_past_the_prompt_end_plus_grace_locks(strict, clock):
    lock = strict()
    t0 = clock.now
    token = picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)
    lock.prompt_end(token)
    at(clock, t0, 40_000 + GRACE + 1)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_back_5_s_after_the_prompt_ended_locks_backgrounded(strict, clock):
    lock = strict()
    t0 = clock.now
    token = picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)
    lock.prompt_end(token)
    at(clock, t0, 45_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    assert not snap.is_away


def test_an_absence_past_the_prompt_is_judged_from_the_real_departure(strict, clock):
    # background_after_ms 10 s: measured from the prompt's end (5 s) the
    # absence would be short; measured from the real departure (1.05 s to
    # 45 s, 43.95 s) it outlasts the timeout.
    lock = strict(background_after_ms=10_000)
    t0 = clock.now
    token = picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)
    lock.prompt_end(token)
    at(clock, t0, 45_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_prompt_end_is_activity(strict, clock):
    lock = strict()
    t0 = clock.now
    token = lock.prompt_begin()
    at(clock, t0, 30_000)
    lock.prompt_end(token)
    snap = lock.snapshot()
    assert snap.state == State.UNLOCKED
    assert snap.last_activity_ms == t0 + 30_000
    assert snap.ms_until_idle_lock == 60_000  # the idle deadline restarts at the end


def test_prompt_begin_is_not_activity(strict, clock):
    lock = strict()
    t0 = clock.now
    at(clock, t0, 10_000)
    lock.prompt_begin()
    assert lock.snapshot().last_activity_ms == t0


# -- the cap ------------------------------------------------------------------


def test_a_prompt_left_open_10_minutes_no_longer_covers_the_return(strict, clock):
    lock = strict()
    t0 = clock.now
    picker_then_away(lock, clock, t0)
    at(clock, t0, 1_000 + 10 * 60_000)  # still open
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_the_background_rule_applies_once_the_cap_has_passed(strict, clock):
    # A host that runs in the background calls check(): the prompt covers
    # the absence until prompt_cap_ms from its opening, not a millisecond
    # more.
    lock = strict()
    t0 = clock.now
    picker_then_away(lock, clock, t0)
    at(clock, t0, 1_000 + CAP_DEFAULT - 1)
    snap = lock.check()
    assert snap.state == State.UNLOCKED and snap.is_away
    at(clock, t0, 1_000 + CAP_DEFAULT)
    snap = lock.check()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_the_idle_rule_waits_while_a_prompt_is_open_until_the_cap(strict, clock):
    lock = strict()  # idle 60 s
    t0 = clock.now
    at(clock, t0, 1_000)
    lock.prompt_begin()
    at(clock, t0, 90_000)  # idle deadline (60 s) long passed
    assert lock.check().state == State.UNLOCKED
    at(clock, t0, 1_000 + CAP_DEFAULT - 1)
    assert lock.check().state == State.UNLOCKED
    at(clock, t0, 1_000 + CAP_DEFAULT)
    snap = lock.check()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)
    assert snap.last_activity_ms == t0  # opening a prompt was not activity


def test_prompt_cap_ms_reaches_the_library(strict, clock):
    lock = strict(prompt_cap_ms=30_000)
    t0 = clock.now
    picker_then_away(lock, clock, t0)
    at(clock, t0, 1_000 + 30_000 - 1)
    assert lock.check().state == State.UNLOCKED
    at(clock, t0, 1_000 + 30_000)
    snap = lock.check()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_prompt_cap_ms_0_defers_nothing(strict, clock):
    lock = strict(prompt_cap_ms=0)
    t0 = clock.now
    picker_then_away(lock, clock, t0)
    at(clock, t0, 40_000)  # the prompt is still open
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_the_cap_counts_from_the_earliest_prompt_still_open(strict, clock):
    lock = strict(prompt_cap_ms=30_000)
    t0 = clock.now
    first = picker_then_away(lock, clock, t0)  # opened at 1 s
    at(clock, t0, 20_000)
    lock.prompt_begin()  # a second one at 20 s does not move the cap
    at(clock, t0, 31_000)
    snap = lock.check()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    lock.prompt_end(first)  # still ends once


# -- locks and inert prompts ----------------------------------------------------


def test_a_prompt_opened_on_a_locked_session_changes_nothing(strict, clock):
    lock = strict()
    t0 = clock.now
    locked = lock.lock()
    at(clock, t0, 1_000)
    token = lock.prompt_begin()
    assert token != 0
    after = lock.snapshot()
    assert after == locked  # same state, reason, seq, flags, activity
    # The inert prompt does not cover an absence after the unlock either.
    lock.unlock(PASSCODE)
    at(clock, t0, 2_000)
    lock.background()
    at(clock, t0, 40_000)  # the prompt is still open
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    lock.prompt_end(token)  # an inert token still ends, once
    with pytest.raises(InvalidArgumentError):
        lock.prompt_end(token)


def test_a_prompt_opened_on_a_locked_session_does_not_unlock(strict, clock):
    lock = strict()
    t0 = clock.now
    lock.lock()
    with lock.prompt():
        at(clock, t0, 5_000)
        assert lock.snapshot().state == State.LOCKED
    snap = lock.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.MANUAL)
    assert snap.last_activity_ms == t0  # the end of an inert prompt is no activity while locked


def test_a_lock_makes_an_open_prompt_inert(strict, clock):
    lock = strict()
    t0 = clock.now
    at(clock, t0, 1_000)
    token = lock.prompt_begin()
    lock.lock()
    lock.unlock(PASSCODE)
    at(clock, t0, 2_000)
    lock.background()
    at(clock, t0, 40_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    lock.prompt_end(token)


def test_prompt_begin_judges_the_deadlines_first(strict, clock):
    lock = strict()  # idle 60 s
    t0 = clock.now
    at(clock, t0, 60_000)
    token = lock.prompt_begin()  # the idle deadline is due: locks, prompt inert
    snap = lock.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)
    lock.prompt_end(token)


def test_prompts_on_an_unengaged_lock(make_lock, clock):
    lock = make_lock(background_after_ms=0)
    token = lock.prompt_begin()
    lock.prompt_end(token)
    assert lock.snapshot().state == State.UNLOCKED


# -- tokens ---------------------------------------------------------------------


def test_tokens_are_non_zero_and_never_reused(strict):
    lock = strict()
    tokens = []
    for _ in range(5):
        token = lock.prompt_begin()
        lock.prompt_end(token)
        tokens.append(token)
    tokens += [lock.prompt_begin() for _ in range(5)]
    assert all(isinstance(t, int) and 0 < t < 2**64 for t in tokens)
    assert len(set(tokens)) == len(tokens)


def test_ending_a_token_twice_is_invalid_argument(strict):
    lock = strict()
    token = lock.prompt_begin()
    lock.prompt_end(token)
    before = lock.snapshot()
    with pytest.raises(InvalidArgumentError) as e:
        lock.prompt_end(token)
    assert e.value.status == 1
    assert str(token) in e.value.message  # the library's message
    assert "prompt token" in e.value.message and "idlelock_" not in e.value.message
    assert e.value.snapshot is None
    assert lock.snapshot() == before  # nothing changed


@pytest.mark.parametrize("which", ["zero", "small", "huge", "other-lock"])
def test_ending_a_token_never_issued_is_invalid_argument(strict, which):
    lock = strict()
    issued = lock.prompt_begin()
    other = strict().prompt_begin()
    token = {"zero": 0, "small": 12345, "huge": 2**64 - 1, "other-lock": other}[which]
    if token == issued:  # pragma: no cover - tokens start at a random number
        pytest.skip("collided with the token just issued")
    with pytest.raises(InvalidArgumentError) as e:
        lock.prompt_end(token)
    assert "prompt token" in e.value.message
    lock.prompt_end(issued)  # the real one is still open


@pytest.mark.parametrize("token", [-1, 2**64, -(2**70)])
def test_tokens_outside_uint64_are_refused_by_the_binding(strict, token):
    lock = strict()
    with pytest.raises(InvalidArgumentError) as e:
        lock.prompt_end(token)
    assert "token" in str(e.value)


@pytest.mark.parametrize("token", [True, 1.0, "1", None])
def test_tokens_must_be_ints(strict, token):
    with pytest.raises(TypeError):
        strict().prompt_end(token)


def test_a_prompt_can_be_ended_on_another_thread(strict, clock):
    lock = strict()
    t0 = clock.now
    token = picker_then_away(lock, clock, t0)
    errors = []

    def worker() -> None:
        try:
            lock.prompt_end(token)
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    at(clock, t0, 40_000)
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert errors == []
    at(clock, t0, 41_000)
    assert lock.foreground().state == State.UNLOCKED


# -- the context manager ----------------------------------------------------------


def test_context_manager_opens_and_ends_the_prompt(strict, clock):
    lock = strict()
    t0 = clock.now
    at(clock, t0, 1_000)
    with lock.prompt() as p:
        assert isinstance(p, Prompt)
        token = p.token
        assert isinstance(token, int) and token != 0
        at(clock, t0, 1_050)
        lock.background()
        at(clock, t0, 40_000)
        assert lock.foreground().state == State.UNLOCKED  # open: presence
    assert p.token is None
    assert lock.snapshot().last_activity_ms == t0 + 40_000  # the end is activity
    with pytest.raises(InvalidArgumentError):
        lock.prompt_end(token)  # already ended by the exit


def test_context_manager_ends_the_prompt_when_the_body_raises(strict, clock):
    lock = strict()
    t0 = clock.now
    at(clock, t0, 1_000)
    with pytest.raises(ZeroDivisionError):
        with lock.prompt() as p:
            token = p.token
            at(clock, t0, 1_050)
            lock.background()
            at(clock, t0, 40_000)
            1 / 0
    assert p.token is None
    with pytest.raises(InvalidArgumentError):
        lock.prompt_end(token)  # the exit ended it
    snap = lock.snapshot()
    assert snap.last_activity_ms == t0 + 40_000  # ended at 40 s
    # Really ended: a return 5 s later is judged from the real departure.
    at(clock, t0, 45_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_context_manager_can_be_reused_but_not_nested(strict):
    lock = strict()
    prompt = lock.prompt()
    with prompt:
        first = prompt.token
        with pytest.raises(RuntimeError):
            with prompt:
                pass  # pragma: no cover
        assert prompt.token == first  # the failed entry changed nothing
    with prompt:
        second = prompt.token
    assert first != second
    assert "closed" in repr(prompt)


def test_separate_prompts_nest(strict, clock):
    lock = strict()
    t0 = clock.now
    with lock.prompt() as outer:
        with lock.prompt() as inner:
            assert inner.token != outer.token
        at(clock, t0, 1_000)
        lock.background()
        at(clock, t0, 40_000)
        assert lock.foreground().state == State.UNLOCKED  # the outer one is still open


def test_context_manager_after_close_in_the_body(strict):
    lock = strict()
    with lock.prompt():
        lock.close()  # the prompt goes with the handle: the exit ends nothing
    with pytest.raises(ClosedError):
        with lock.prompt():
            pass  # pragma: no cover


def test_a_prompt_begin_that_raises_leaves_no_prompt_open(strict, clock, monkeypatch):
    # The library opened the prompt, but the call raised afterwards (as a
    # ListenerError or the clock's exception would): the caller has no token,
    # so the binding must not leave the prompt open.
    lock = strict()
    t0 = clock.now
    real_finish = lock._finish
    calls = []

    def finish_once_raising(outcome, snap=None):
        calls.append(outcome.status)
        if len(calls) == 1:
            raise RuntimeError("raised after the call")
        return real_finish(outcome, snap)

    monkeypatch.setattr(lock, "_finish", finish_once_raising)
    at(clock, t0, 1_000)
    with pytest.raises(RuntimeError):
        with lock.prompt():
            pass  # pragma: no cover
    monkeypatch.undo()
    at(clock, t0, 1_050)
    lock.background()
    at(clock, t0, 40_000)
    snap = lock.foreground()  # no open prompt covers this absence
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_prompt_calls_after_close_raise(strict):
    lock = strict()
    token = lock.prompt_begin()
    lock.close()
    with pytest.raises(ClosedError):
        lock.prompt_begin()
    with pytest.raises(ClosedError):
        lock.prompt_end(token)


# -- the library's own biometric check counts as a prompt ---------------------------


class SlowFaceID(Authenticator):
    """A keystore whose check takes the app out of the foreground for
    `away_ms` (the sheet covers it), moving the fake clock meanwhile."""

    def __init__(self, lock_ref: list, clock: FakeClock, away_ms: int) -> None:
        self.lock_ref = lock_ref
        self.clock = clock
        self.away_ms = away_ms
        self.item: Optional[bytes] = None

    def is_available(self) -> bool:
        return True

    def store_secret(self, secret: bytes) -> None:
        self.item = secret

    def load_secret(self, reason: Optional[str]) -> bytes:
        lock = self.lock_ref[0]
        lock.inactive()
        self.clock.advance(self.away_ms)
        lock.foreground()
        assert self.item is not None and len(self.item) == AUTH_SECRET_BYTES
        return self.item

    def delete_secret(self) -> None:
        self.item = None


def test_the_biometric_check_counts_as_a_prompt(clock):
    ref: list = []
    auth = SlowFaceID(ref, clock, away_ms=20_000)
    lock = IdleLock(idle_after_ms=60_000, background_after_ms=0, inactive_after_ms=0,
                    grace_ms=GRACE, lock_on_start=False, clock=clock,
                    authenticator=auth, **KDF)
    ref.append(lock)
    try:
        lock.set_passcode(PASSCODE)
        lock.start()
        lock.enable_biometrics()
        # Re-authentication on an unlocked session: the sheet takes the app
        # away for 20 s, far past the grace window and the 0 timeouts.
        snap = lock.unlock_with_biometrics()
        assert snap.state == State.UNLOCKED
        # Without a prompt the same absence locks.
        lock.inactive()
        clock.advance(20_000)
        snap = lock.foreground()
        assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    finally:
        lock.close()


def test_prompt_cap_max_constant():
    assert PROMPT_CAP_MAX_MS == 600_000

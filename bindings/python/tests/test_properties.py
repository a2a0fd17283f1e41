# SPDX-License-Identifier: MIT
"""Property tests (hypothesis).

`Model` is a direct transcription of docs/RULES.md (an engaged session driven
by events and a clock that only moves forward); the library, through the
binding, must agree with it after every call. The other properties cover
argument validation."""

from __future__ import annotations

import math
from typing import List, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import idlelock
from idlelock import SAME_AS_IDLE, IdleLock, InvalidArgumentError, Reason, State

from conftest import KDF, PASSCODE, T0, FakeClock

INF = math.inf


class Model:
    """docs/RULES.md for an engaged session (passcode set at T0)."""

    def __init__(self, idle, background, inactive, grace, lock_on_start) -> None:
        self.idle = INF if idle is None else idle
        if background is SAME_AS_IDLE:
            self.background = self.idle
        else:
            self.background = INF if background is None else background
        self.inactive = INF if inactive is None else inactive
        self.grace = grace
        self.lock_on_start = lock_on_start
        self.state = State.UNLOCKED
        self.reason = Reason.NONE
        self.activity = T0
        self.departure: Optional[List] = None  # [time, reached_background]
        self.started = False

    def _lock(self, reason: Reason) -> None:
        if self.state == State.UNLOCKED:  # locks never overwrite each other
            self.state, self.reason = State.LOCKED, reason

    def _absence_timeout(self, reached_background: bool) -> float:
        if reached_background:
            return self.background
        return max(self.background, self.inactive)

    def judge(self, now: int) -> None:
        if self.state != State.UNLOCKED:
            return
        if self.departure is not None:
            away = now - self.departure[0]
            if away <= self.grace:
                return
            if away >= self._absence_timeout(self.departure[1]):
                self._lock(Reason.BACKGROUNDED)
                return
        if now - self.activity >= self.idle:
            self._lock(Reason.IDLE)

    # events (each judges first, docs/RULES.md)
    def touch(self, now: int) -> None:
        self.judge(now)
        if self.state == State.UNLOCKED:
            self.activity = now

    def leave(self, now: int, background: bool) -> None:
        self.judge(now)
        recorded = False
        if self.departure is None:
            self.departure = [now, background]
            recorded = True
        elif background:
            self.departure[1] = True
        if self.state == State.UNLOCKED:
            if recorded and now - self.activity >= self.idle:
                self._lock(Reason.IDLE)
            else:
                self.judge(now)

    def foreground(self, now: int) -> None:
        self.judge(now)
        departure, self.departure = self.departure, None
        if self.state != State.UNLOCKED or departure is None:
            return
        away = now - departure[0]
        if away <= self.grace:
            self.activity = now
        elif away >= self._absence_timeout(departure[1]):
            self._lock(Reason.BACKGROUNDED)
        elif now - self.activity >= self.idle:
            self._lock(Reason.IDLE)

    def check(self, now: int) -> None:
        self.judge(now)

    def lock(self, now: int) -> None:
        self.judge(now)
        self._lock(Reason.MANUAL)

    def start(self, now: int) -> None:
        self.judge(now)
        if not self.started:
            self.started = True
            if self.lock_on_start:
                self._lock(Reason.STARTUP)

    def unlock(self, now: int) -> None:
        assert self.state == State.LOCKED
        self.state, self.reason = State.UNLOCKED, Reason.NONE
        self.activity = now
        if self.departure is not None:
            self.departure[0] = now

    def ms_until_idle_lock(self, now: int) -> Optional[int]:
        if self.state != State.UNLOCKED or self.idle == INF:
            return None
        return max(0, self.activity + self.idle - now)


timeouts = st.one_of(st.none(), st.integers(0, 40))
configs = st.fixed_dictionaries(
    {
        "idle": st.one_of(st.none(), st.integers(1, 40)),
        "background": st.one_of(st.just(SAME_AS_IDLE), timeouts),
        "inactive": timeouts,
        "grace": st.integers(0, 10),
        "lock_on_start": st.booleans(),
    }
).filter(
    lambda c: c["idle"] is not None
    or (c["background"] is not SAME_AS_IDLE and c["background"] is not None)
)
EVENTS = ["touch", "inactive", "background", "foreground", "check", "lock", "start", "unlock"]
ops = st.lists(
    st.one_of(st.integers(0, 25), st.sampled_from(EVENTS)),  # int: advance the clock
    max_size=30,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs, operations=ops)
def test_library_follows_the_rules_of_docs_rules_md(config, operations):
    clock = FakeClock()
    model = Model(**config)
    lock = IdleLock(
        idle_after_ms=config["idle"],
        background_after_ms=config["background"],
        inactive_after_ms=config["inactive"],
        grace_ms=config["grace"],
        lock_on_start=config["lock_on_start"],
        clock=clock,
        **KDF,
    )
    try:
        lock.set_passcode(PASSCODE)  # engaged, activity = T0
        previous = lock.snapshot()
        history = []
        for op in operations:
            if isinstance(op, int):
                clock.advance(op)
                history.append(f"+{op}")
                continue
            now = clock.now
            if op == "unlock":
                if model.state != State.LOCKED:
                    continue
                model.unlock(now)
                snap = lock.unlock(PASSCODE)
            elif op in ("inactive", "background"):
                model.leave(now, background=(op == "background"))
                snap = getattr(lock, op)()
            elif op == "touch":
                model.touch(now)
                snap = lock.touch(snapshot=True)  # plain touch() returns None
            else:
                getattr(model, op)(now)
                snap = getattr(lock, op)()
            history.append(op)
            where = f"after {' '.join(history)} (config {config})"
            assert (snap.state, snap.reason) == (model.state, model.reason), where
            assert snap.is_away == (model.departure is not None), where
            assert snap.last_activity_ms == model.activity, where
            assert snap.ms_until_idle_lock == model.ms_until_idle_lock(now), where
            assert snap.is_enabled, where
            # each change of state, reason or flag has a new seq
            assert snap.seq >= previous.seq, where
            if (snap.state, snap.reason, snap.is_away) != (
                previous.state,
                previous.reason,
                previous.is_away,
            ):
                assert snap.seq > previous.seq, where
            previous = snap
    finally:
        lock.close()


@pytest.fixture(scope="module")
def locked_session():
    clock = FakeClock()
    lock = IdleLock(idle_after_ms=60_000, lock_on_start=False, max_attempts=3, clock=clock, **KDF)
    lock.set_passcode(PASSCODE)
    lock.lock()
    yield lock
    lock.close()


def _invalid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@settings(max_examples=200, deadline=None)
@given(data=st.binary(min_size=1, max_size=64).filter(_invalid_utf8))
def test_invalid_utf8_is_never_an_attempt(locked_session, data):
    with pytest.raises(InvalidArgumentError):
        locked_session.unlock(data)
    snap = locked_session.snapshot()
    assert snap.attempts_remaining == 3
    assert snap.state == State.LOCKED


@settings(max_examples=200, deadline=None)
@given(
    option=st.sampled_from(["idle_after_ms", "background_after_ms", "inactive_after_ms", "grace_ms"]),
    value=st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=2**63),
        st.floats(),
        st.booleans(),
        st.text(max_size=3),
    ),
)
def test_bad_durations_are_refused_naming_the_option(option, value):
    with pytest.raises((InvalidArgumentError, TypeError)) as e:
        IdleLock(**{"idle_after_ms": 60_000, **KDF, option: value})
    assert option in str(e.value)
    assert not isinstance(e.value, idlelock.InvalidArgumentError) or e.value.status == 1

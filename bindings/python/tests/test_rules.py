# SPDX-License-Identifier: MIT
"""The decision rules of docs/RULES.md, driven through the binding with a fake
clock. Expectations come from the contract, not from the library."""

from __future__ import annotations

from idlelock import Reason, State

from conftest import PASSCODE


# -- idle timeout -----------------------------------------------------------


def test_idle_lock_at_exactly_the_boundary(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    start = clock.now  # set_passcode is activity: last activity = now
    assert lock.snapshot().last_activity_ms == start

    clock.advance(59_999)
    snap = lock.check()
    assert snap.state == State.UNLOCKED
    assert snap.ms_until_idle_lock == 1

    clock.advance(1)  # elapsed == T: "a timeout of T has passed"
    snap = lock.check()
    assert snap.state == State.LOCKED
    assert snap.reason == Reason.IDLE
    assert snap.ms_until_idle_lock is None  # locked: IDLELOCK_NEVER


def test_ms_until_idle_lock_counts_down(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    assert lock.snapshot().ms_until_idle_lock == 60_000
    clock.advance(15_000)
    assert lock.snapshot().ms_until_idle_lock == 45_000


def test_touch_is_activity(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    clock.advance(30_000)
    snap = lock.touch(snapshot=True)
    assert snap.last_activity_ms == clock.now
    clock.advance(59_999)
    assert lock.check().state == State.UNLOCKED
    clock.advance(1)
    assert lock.check().reason == Reason.IDLE


def test_touch_judges_before_recording_activity(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    clock.advance(60_000)
    snap = lock.touch(snapshot=True)  # the deadline is due: judge first, touch is too late
    assert snap.state == State.LOCKED
    assert snap.reason == Reason.IDLE


def test_touch_while_locked_is_not_activity(engaged, clock):
    lock = engaged()
    before = lock.snapshot().last_activity_ms
    lock.lock()
    clock.advance(5_000)
    snap = lock.touch(snapshot=True)
    assert snap.state == State.LOCKED
    assert snap.last_activity_ms == before


def test_every_call_judges_the_deadlines(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    clock.advance(60_000)
    snap = lock.snapshot()  # snapshot_get judges too
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)


def test_ms_until_idle_lock_is_none_when_not_engaged_or_never(make_lock):
    assert make_lock().snapshot().ms_until_idle_lock is None  # not engaged
    lock = make_lock(idle_after_ms=None, background_after_ms=10_000, lock_on_start=False)
    lock.set_passcode(PASSCODE)
    assert lock.snapshot().ms_until_idle_lock is None  # idle timeout NEVER


def test_not_engaged_never_locks(make_lock, clock):
    lock = make_lock(idle_after_ms=1_000)
    lock.start()
    clock.advance(10_000)
    assert lock.check().state == State.UNLOCKED
    lock.background()
    clock.advance(10_000)
    assert lock.foreground().state == State.UNLOCKED
    assert lock.lock().state == State.UNLOCKED  # lock() does nothing: OK


def test_idle_never_with_background_timeout(make_lock, clock):
    lock = make_lock(idle_after_ms=None, background_after_ms=10_000, lock_on_start=False)
    lock.set_passcode(PASSCODE)
    clock.advance(10**9)
    assert lock.check().state == State.UNLOCKED
    lock.background()
    clock.advance(10_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


# -- grace window -------------------------------------------------------------


def test_round_trip_within_grace_is_presence(engaged, clock):
    lock = engaged(grace_ms=1_500, background_after_ms=10_000)
    assert lock.background().is_away
    clock.advance(1_500)  # away <= grace_ms
    snap = lock.foreground()
    assert snap.state == State.UNLOCKED
    assert not snap.is_away
    assert snap.last_activity_ms == clock.now  # rule 2: last activity = now


def test_absence_past_grace_leaves_activity_unchanged(engaged, clock):
    lock = engaged(grace_ms=1_500, background_after_ms=10_000)
    activity = lock.snapshot().last_activity_ms
    lock.background()
    clock.advance(1_501)
    snap = lock.foreground()
    assert snap.state == State.UNLOCKED  # rule 5
    assert snap.last_activity_ms == activity


def test_grace_is_judged_before_the_background_timeout(engaged, clock):
    lock = engaged(grace_ms=1_500, background_after_ms=0)
    lock.background()
    clock.advance(1_500)
    assert lock.foreground().state == State.UNLOCKED  # grace wins over 0
    lock.background()
    clock.advance(1_501)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_grace_round_trip_defers_a_due_idle_deadline(engaged, clock):
    lock = engaged(idle_after_ms=60_000, background_after_ms=100_000, grace_ms=1_500)
    clock.advance(59_500)
    lock.background()
    clock.advance(1_000)  # idle deadline passed while away, within grace
    assert lock.check().state == State.UNLOCKED  # within grace: nothing
    snap = lock.foreground()  # rule 2: presence, no timeout consulted
    assert snap.state == State.UNLOCKED
    assert snap.last_activity_ms == clock.now


# -- background / inactive timeouts ----------------------------------------


def test_background_timeout_boundary(engaged, clock):
    lock = engaged(idle_after_ms=600_000, background_after_ms=10_000)
    lock.background()
    clock.advance(9_999)
    assert lock.foreground().state == State.UNLOCKED
    lock.background()
    clock.advance(10_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_check_while_away_seals_the_session(engaged, clock):
    lock = engaged(idle_after_ms=600_000, background_after_ms=10_000)
    lock.background()
    clock.advance(10_000)
    snap = lock.check()  # a host running in the background
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    assert snap.is_away


def test_background_same_as_idle_by_default(engaged, clock):
    lock = engaged(idle_after_ms=20_000)  # background_after_ms = SAME_AS_IDLE
    lock.background()
    clock.advance(19_999)
    assert lock.foreground().state == State.UNLOCKED
    lock.touch()
    lock.background()
    clock.advance(20_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_inactive_absence_uses_the_longer_timeout(engaged, clock):
    lock = engaged(idle_after_ms=600_000, background_after_ms=10_000, inactive_after_ms=30_000)
    lock.inactive()
    clock.advance(29_999)
    assert lock.foreground().state == State.UNLOCKED
    lock.inactive()
    clock.advance(30_000)
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_inactive_then_background_first_departure_wins(engaged, clock):
    lock = engaged(idle_after_ms=600_000, background_after_ms=10_000, inactive_after_ms=30_000)
    lock.inactive()
    clock.advance(5_000)
    lock.background()  # marks the absence as background; departure stands
    clock.advance(5_000)
    snap = lock.foreground()  # away 10000 from the *inactive*
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)


def test_leaving_after_the_idle_deadline_locks_idle(engaged, clock):
    lock = engaged(idle_after_ms=60_000, background_after_ms=600_000)
    clock.advance(60_000)
    snap = lock.background()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)
    assert snap.is_away  # the privacy cover flag holds whatever the state


def test_foreground_idle_rule_after_absence(engaged, clock):
    lock = engaged(idle_after_ms=60_000, background_after_ms=600_000)
    clock.advance(50_000)
    lock.background()
    clock.advance(10_000)  # idle passed since last activity, bg not
    snap = lock.foreground()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)


def test_stray_foreground_judges_idle_only(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    activity = lock.snapshot().last_activity_ms
    clock.advance(1_000)
    snap = lock.foreground()  # no departure recorded
    assert snap.state == State.UNLOCKED
    assert snap.last_activity_ms == activity  # unchanged
    clock.advance(59_000)
    assert lock.foreground().reason == Reason.IDLE


def test_is_away_tracked_while_locked(engaged, clock):
    lock = engaged()
    lock.lock()
    assert lock.background().is_away
    assert not lock.foreground().is_away


def test_unlock_while_away_restarts_the_absence(engaged, clock):
    lock = engaged(idle_after_ms=600_000, background_after_ms=10_000)
    lock.background()
    clock.advance(5_000)
    lock.lock()
    lock.unlock(PASSCODE)  # away: departure = now
    clock.advance(9_999)
    assert lock.foreground().state == State.UNLOCKED  # 9999 < 10000 since unlock


# -- start, manual lock, locks never overwrite -------------------------------


def test_lock_on_start(make_lock):
    lock = make_lock()  # lock_on_start defaults to 1
    lock.set_passcode(PASSCODE)
    snap = lock.start()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)
    lock.unlock(PASSCODE)
    assert lock.start().state == State.UNLOCKED  # only the first start applies it


def test_lock_on_start_false(make_lock):
    lock = make_lock(lock_on_start=False)
    lock.set_passcode(PASSCODE)
    assert lock.start().state == State.UNLOCKED


def test_lock_on_start_needs_engaged(make_lock):
    lock = make_lock(lock_on_start=True)
    assert lock.start().state == State.UNLOCKED  # no passcode: not engaged
    lock.set_passcode(PASSCODE)
    assert lock.start().state == State.UNLOCKED  # not the first start any more


def test_manual_lock(engaged):
    lock = engaged()
    snap = lock.lock()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.MANUAL)
    assert snap.ms_until_idle_lock is None
    assert lock.lock().reason == Reason.MANUAL  # already locked: nothing, OK


def test_locks_never_overwrite_each_other(engaged, clock):
    lock = engaged(idle_after_ms=60_000, background_after_ms=10_000)
    clock.advance(60_000)
    assert lock.check().reason == Reason.IDLE
    lock.lock()
    lock.start()
    lock.background()
    clock.advance(100_000)
    lock.foreground()
    clock.now -= 1_000_000  # even a clock step does not change the reason
    snap = lock.check()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)


def test_unlock_restores_activity_at_call_time(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    lock.lock()
    clock.advance(3_600_000)
    snap = lock.unlock(PASSCODE)
    assert (snap.state, snap.reason) == (State.UNLOCKED, Reason.NONE)
    assert snap.last_activity_ms == clock.now
    assert snap.ms_until_idle_lock == 60_000


def test_lock_now_judges_first(engaged, clock):
    # "Every call that reads the clock first judges the deadlines that are
    # due", lock included: a due idle deadline wins over MANUAL.
    lock = engaged(idle_after_ms=60_000)
    clock.advance(60_000)
    snap = lock.lock()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)


def test_start_judges_before_lock_on_start(make_lock, clock):
    lock = make_lock(idle_after_ms=60_000, lock_on_start=True)
    lock.set_passcode(PASSCODE)
    clock.advance(60_000)
    snap = lock.start()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)

"""Explicit sequences: boundary cases and every divergence the model found.

Each case runs through conftest.Harness exactly as the state machine's
sequences do: the library and the model are compared after every step.
`("expect", {...})` steps pin values against the library directly, so a
pinned boundary stays pinned even if the model were edited by mistake.

Step format (what a divergence report prints):
    ("clock", dt)                   move the fake clock by dt ms (saturates)
    ("touch",) ("inactive",) ("background",) ("foreground",) ("check",)
    ("lock",) ("start",) ("snapshot_get",) ("require_unlocked",)
    ("disable",)
    ("set_passcode", "2468")        str (UTF-8) or bytes
    ("unlock", "2468")
    ("restart",)                    destroy, create again on the same store
    ("restart", dict(...))          ... with these config fields instead
    ("expect", dict(state=State.LOCKED, reason=Reason.IDLE, ...))

A divergence found by test_model.py becomes a case here: paste the printed
Case, give it a name, decide from SPEC.md who is right, and either fix the
model (the case then passes) or keep the case with
`xfail(strict=True, raises=Divergence)` and a reason that quotes the
contract, until the library is fixed.
"""

from __future__ import annotations

import pytest

from idlelock_model import INT64_MIN, NEVER, SAME_AS_IDLE, Reason, State

from conftest import Case, Divergence

L, U, OUT = State.LOCKED, State.UNLOCKED, State.LOCKED_OUT

# idle 60 s, background 10 s, inactive 30 s, grace 1.5 s, no lock at start.
BASE = dict(
    idle_after_ms=60_000,
    background_after_ms=10_000,
    inactive_after_ms=30_000,
    grace_ms=1_500,
    lock_on_start=0,
)

CASES = [
    # ---------------------------------------------------------- grace
    Case(
        "away_exactly_grace_is_presence",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", 59_000),
            ("background",),
            ("clock", 1_500),  # away == grace_ms: "within the grace window"
            ("foreground",),
            ("expect", dict(state=U, is_away=0, ms_until_idle_lock=60_000)),
        ],
    ),
    Case(
        "away_one_ms_past_grace_is_judged",
        config=dict(BASE, background_after_ms=0),
        steps=[
            ("set_passcode", "2468"),
            ("background",),
            ("clock", 1_500),
            ("check",),
            ("expect", dict(state=U, is_away=1)),
            ("clock", 1),  # past the grace window: background 0 locks
            ("check",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED, is_away=1)),
        ],
    ),
    Case(
        "grace_round_trip_over_the_idle_deadline_is_presence",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", 59_999),
            ("inactive",),
            ("clock", 2),  # the idle deadline passed while away, within grace
            ("check",),
            ("expect", dict(state=U)),
            ("foreground",),  # rule 2: last activity = now, no timeout consulted
            ("expect", dict(state=U, ms_until_idle_lock=60_000)),
        ],
    ),
    # ---------------------------------------------------------- idle
    Case(
        "idle_deadline_is_due_at_its_millisecond",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", 59_999),
            ("check",),
            ("expect", dict(state=U, ms_until_idle_lock=1)),
            ("clock", 1),
            ("check",),
            ("expect", dict(state=L, reason=Reason.IDLE, ms_until_idle_lock=NEVER)),
        ],
    ),
    Case(
        "leaving_after_the_idle_deadline_locks_idle_on_the_way_out",
        config=dict(BASE, idle_after_ms=1_000),
        steps=[
            ("set_passcode", "2468"),
            ("clock", 1_000),
            ("inactive",),
            ("expect", dict(state=L, reason=Reason.IDLE, is_away=1)),
        ],
    ),
    Case(
        "stray_foreground_judges_idle_only",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", 60_000),
            ("foreground",),
            ("expect", dict(state=L, reason=Reason.IDLE)),
        ],
    ),
    # ---------------------------------------------------------- absences
    Case(
        "background_timeout_exactly",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("background",),
            ("clock", 9_999),
            ("foreground",),
            ("expect", dict(state=U)),
            ("background",),
            ("clock", 10_000),
            ("foreground",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED)),
        ],
    ),
    Case(
        "inactive_only_absence_uses_the_longer_timeout",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("inactive",),
            ("clock", 29_999),
            ("check",),
            ("expect", dict(state=U, is_away=1)),
            ("clock", 1),  # max(background 10 s, inactive 30 s) passed
            ("check",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED)),
        ],
    ),
    Case(
        "first_departure_wins_and_background_marks_it",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("inactive",),
            ("clock", 5_000),
            ("background",),  # departure stays at 0; reached the background
            ("clock", 5_000),  # 10 s since the first departure
            ("foreground",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED)),
        ],
    ),
    Case(
        "background_same_as_idle",
        config=dict(BASE, background_after_ms=SAME_AS_IDLE, idle_after_ms=5_000),
        steps=[
            ("set_passcode", "2468"),
            ("background",),
            ("clock", 4_999),
            ("foreground",),
            ("expect", dict(state=U)),
            ("touch",),
            ("background",),
            ("clock", 5_000),
            ("check",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED, is_away=1)),
        ],
    ),
    # ---------------------------------------------------------- NEVER, saturation
    Case(
        "never_timeout_never_passes_even_after_a_saturated_elapsed",
        origin=INT64_MIN + 5,
        config=dict(BASE, idle_after_ms=NEVER, background_after_ms=10_000),
        steps=[
            ("set_passcode", "2468"),
            ("clock", NEVER),  # elapsed saturates to INT64_MAX
            ("check",),
            ("expect", dict(state=U, ms_until_idle_lock=NEVER)),
        ],
    ),
    Case(
        "largest_finite_idle_passes_at_a_saturated_elapsed",
        origin=INT64_MIN + 5,
        config=dict(BASE, idle_after_ms=NEVER - 1),
        steps=[
            ("set_passcode", "2468"),
            ("clock", NEVER),
            ("check",),
            ("expect", dict(state=L, reason=Reason.IDLE)),
        ],
    ),
    Case(
        "largest_finite_idle_is_not_cut_short_by_a_saturated_deadline",
        origin=10,
        config=dict(BASE, idle_after_ms=NEVER - 1),
        steps=[
            ("set_passcode", "2468"),
            ("clock", NEVER),  # the clock reads INT64_MAX; 10 + idle is beyond it
            ("check",),
            ("expect", dict(state=U, ms_until_idle_lock=9)),
        ],
    ),
    # ---------------------------------------------------------- clock steps
    Case(
        "clock_one_ms_back_locks_an_engaged_session",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", -1),
            ("touch",),
            ("expect", dict(state=L, reason=Reason.CLOCK)),
        ],
    ),
    Case(
        "clock_back_before_a_passcode_resets_the_bookkeeping",
        config=BASE,
        steps=[
            ("background",),
            ("clock", -1_000),
            ("set_passcode", "2468"),  # unengaged: reset to now, then engage
            ("clock", 1_500),
            ("foreground",),  # 1.5 s since the reset departure: presence
            ("expect", dict(state=U, is_enabled=1)),
        ],
    ),
    Case(
        "a_clock_step_never_overwrites_a_lock",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("lock",),
            ("clock", -5),
            ("check",),
            ("expect", dict(state=L, reason=Reason.MANUAL)),
        ],
    ),
    # ---------------------------------------------------------- start
    Case(
        "start_before_set_passcode_uses_up_lock_on_start",
        config=dict(BASE, lock_on_start=1),
        steps=[
            ("start",),
            ("set_passcode", "2468"),
            ("start",),
            ("expect", dict(state=U, is_enabled=1)),
        ],
    ),
    Case(
        "lock_on_start",
        config=dict(BASE, lock_on_start=1),
        steps=[
            ("set_passcode", "2468"),
            ("start",),
            ("expect", dict(state=L, reason=Reason.STARTUP)),
            ("lock",),  # locks never overwrite each other
            ("expect", dict(state=L, reason=Reason.STARTUP)),
        ],
    ),
    # ---------------------------------------------------------- attempts
    Case(
        "last_wrong_attempt_locks_out_keeping_the_reason",
        config=dict(BASE, max_attempts=2),
        steps=[
            ("set_passcode", "2468"),
            ("lock",),
            ("unlock", "1357"),
            ("expect", dict(state=L, reason=Reason.MANUAL, attempts_remaining=1)),
            ("unlock", "1357"),
            ("expect", dict(state=OUT, reason=Reason.MANUAL, attempts_remaining=0)),
            ("unlock", "2468"),  # LOCKED_OUT, unchecked and uncounted
            ("set_passcode", "1357"),  # SESSION_LOCKED
            ("disable",),
            ("expect", dict(state=U, reason=Reason.NONE, is_enabled=0, attempts_remaining=2)),
        ],
    ),
    Case(
        "wrong_reauthentication_locks_out_an_unlocked_session",
        config=dict(BASE, max_attempts=1),
        steps=[
            ("set_passcode", "2468"),
            ("unlock", "2469"),
            ("expect", dict(state=OUT, reason=Reason.NONE, attempts_remaining=0)),
        ],
    ),
    Case(
        "no_unicode_normalization",
        config=dict(BASE, max_attempts=3),
        steps=[
            ("set_passcode", "caf\u00e9"),
            ("unlock", "cafe\u0301"),
            ("expect", dict(state=U, attempts_remaining=2)),
        ],
    ),
    Case(
        "bad_arguments_change_nothing_and_are_never_an_attempt",
        config=dict(BASE, max_attempts=1),
        steps=[
            ("set_passcode", "123"),  # 3 scalars
            ("expect", dict(is_enabled=0)),
            ("set_passcode", "2468"),
            ("unlock", b"\xff"),  # invalid UTF-8
            ("unlock", b""),
            ("unlock", b"7" * 1025),
            ("expect", dict(state=U, attempts_remaining=1)),
        ],
    ),
    Case(
        "unlock_while_away_measures_the_absence_from_the_unlock",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("background",),
            ("clock", 20_000),
            ("check",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED)),
            ("unlock", "2468"),
            ("clock", 9_999),
            ("check",),
            ("expect", dict(state=U, is_away=1)),
            ("clock", 1),  # background timeout since the unlock; still reached it
            ("check",),
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED)),
        ],
    ),
    # ---------------------------------------------------------- restarts on a store
    Case(
        "restart_keeps_a_saved_lock_and_its_reason",
        mode="store+key",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("lock",),
            ("restart",),
            ("expect", dict(state=L, reason=Reason.MANUAL)),
            ("start",),
            ("expect", dict(state=L, reason=Reason.MANUAL)),
        ],
    ),
    Case(
        "restart_without_device_key_is_locked_from_create",
        mode="store",
        config=dict(BASE, lock_on_start=1),
        steps=[
            ("set_passcode", "2468"),
            ("restart",),
            ("expect", dict(state=L, reason=Reason.STARTUP, is_enabled=1)),
        ],
    ),
    Case(
        "restart_lockout_is_in_force_from_create",
        mode="store+key",
        config=dict(BASE, max_attempts=2),
        steps=[
            ("set_passcode", "2468"),
            ("lock",),
            ("unlock", "1"),
            ("unlock", "1"),
            ("restart",),
            ("expect", dict(state=OUT, reason=Reason.MANUAL, attempts_remaining=0)),
        ],
    ),
    Case(
        "restart_judges_the_saved_activity_as_a_background_absence",
        mode="store+key",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", 9_999),
            ("restart",),
            ("start",),
            ("expect", dict(state=U)),
            ("restart",),  # the ordinary activity since was not saved
            ("clock", 1),
            ("start",),  # exactly background_after_ms since the saved activity
            ("expect", dict(state=L, reason=Reason.BACKGROUNDED)),
        ],
    ),
    Case(
        "restart_saved_activity_later_than_the_clock_locks_startup",
        mode="store+key",
        config=BASE,
        steps=[
            ("set_passcode", "2468"),
            ("clock", -1),
            ("restart",),
            ("start",),
            ("expect", dict(state=L, reason=Reason.STARTUP)),
        ],
    ),
    Case(
        "restart_takes_max_attempts_from_the_store",
        mode="store+key",
        config=dict(BASE, max_attempts=3),
        steps=[
            ("set_passcode", "2468"),
            ("restart", dict(BASE, max_attempts=1)),
            ("expect", dict(state=U, attempts_remaining=3)),
            ("unlock", "1"),
            ("expect", dict(state=U, attempts_remaining=2)),
        ],
    ),
]

# Divergences found by test_model.py where the library is wrong (see each
# reason). strict: the day the library is fixed the case passes, the xfail
# fails, and the case moves up to CASES (and test_model.py's guard for it
# goes).
# Divergences found by test_model.py where the library was wrong; each is
# fixed and kept in CASES (below) as a regression:
# - stale_max_attempts_after_sign_out (SPEC §7: after disable,
#   attempts_remaining is the config's max_attempts, not the deleted store's)
# - restart_start_ignores_activity_saved_after_create[_clock] (SPEC §3:
#   start judges the last *saved* activity, also one saved after create)
LIBRARY_BUGS: list = []


FIXED = [
    (
        Case(
            "stale_max_attempts_after_sign_out",
            mode="store+key",
            config=dict(BASE, max_attempts=1),
            steps=[
                ("set_passcode", "2468"),
                ("restart", dict(BASE, max_attempts=2)),
                ("disable",),
                ("expect", dict(is_enabled=0, attempts_remaining=2)),
            ],
        ),
        "SPEC §7: attempts_remaining is max_attempts when not engaged; the "
        "max_attempts stored with a store governs only while that store "
        "exists, and disable deletes it. The library keeps showing the "
        "deleted store's value until the next set_passcode.",
    ),
    (
        Case(
            "restart_start_ignores_activity_saved_after_create",
            mode="store+key",
            config=dict(BASE, background_after_ms=NEVER),
            steps=[
                ("set_passcode", "2468"),
                ("restart",),
                ("clock", 50_000),
                ("unlock", "2468"),  # re-authentication: saves the activity
                ("clock", 20_000),
                ("start",),  # 20 s since the last saved activity, idle is 60 s
                ("expect", dict(state=U)),
            ],
        ),
        "SPEC §3: start judges the time since the last *saved* activity "
        "(saved by unlock, set_passcode and each lock). The library judges "
        "the activity saved before create, so an unlock or a new passcode "
        "between create and the first start is ignored and the session "
        "locks IDLE (or STARTUP after a clock step) 70 s after a passcode "
        "entry that was 20 s ago.",
    ),
    (
        # The same bug as Hypothesis first found it: after a clock step the
        # stale saved activity is "later than the clock".
        Case(
            "restart_start_ignores_activity_saved_after_create_clock",
            mode="store+key",
            config=dict(BASE, idle_after_ms=1_000, background_after_ms=SAME_AS_IDLE),
            steps=[
                ("set_passcode", "2468"),
                ("restart",),
                ("clock", -1),
                ("unlock", "2468"),  # CLOCK lock at entry, then unlocked: saves now
                ("start",),  # the last saved activity is now: nothing is due
                ("expect", dict(state=U)),
            ],
        ),
        "SPEC §3, as above: the saved activity that is 'later than the clock' "
        "is the one from before create; the unlock saved the current reading. "
        "The library locks STARTUP.",
    ),
]

CASES = CASES + [case for case, _ in FIXED]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Case) -> None:
    case.run()


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, raises=Divergence, reason=why))
        for case, why in LIBRARY_BUGS
    ],
    ids=[case.name for case, _ in LIBRARY_BUGS],
)
def test_library_bug(case: Case) -> None:
    case.run()


def test_names_are_unique() -> None:
    names = [c.name for c in CASES] + [c.name for c, _ in LIBRARY_BUGS]
    assert len(names) == len(set(names))

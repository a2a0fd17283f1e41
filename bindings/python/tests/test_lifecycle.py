# SPDX-License-Identifier: MIT
"""The object's life cycle (close(), the context manager, __del__ and
threads), then the app's: the lifecycle adapters (IdleLock.lifecycle,
idlelock_lifecycle with IDLELOCK_PLATFORM_*; README "Lifecycle adapters")."""

from __future__ import annotations

import dataclasses
import gc
import threading
import time

from typing import List, Tuple

import pytest


from idlelock import (
    ClosedError,
    IdleLock,
    InvalidArgumentError,
    Platform,
    Reason,
    Snapshot,
    State,
    _ffi,
)

from conftest import KDF, PASSCODE, FakeClock

CALLS = [
    ("start", ()), ("touch", ()), ("inactive", ()), ("background", ()),
    ("foreground", ()), ("check", ()), ("lock", ()), ("snapshot", ()),
    ("set_passcode", (PASSCODE,)), ("unlock", (PASSCODE,)),
    ("enable_biometrics", ()), ("disable_biometrics", ()),
    ("unlock_with_biometrics", ()), ("disable", ()),
    ("subscribe", (print,)), ("unsubscribe", (1,)),
    ("put_secret", ("n", b"v")), ("get_secret", ("n",)),
    ("remove_secret", ("n",)), ("require_unlocked", ()),
    ("lifecycle", (Platform.IOS_SCENE_PHASE, "active")),
    ("prompt_begin", ()), ("prompt_end", (1,)),
    ("watch_start", ()), ("watch_stop", ()),
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


# -- lifecycle adapters --------------------------------------------------------

# The README's table: every platform name and the event it must reach
# ("none": no presence change, only the deadlines are judged, as check()).
NAMES: List[Tuple[Platform, str, str]] = [
    (Platform.IOS_SCENE_PHASE, "active", "foreground"),
    (Platform.IOS_SCENE_PHASE, "inactive", "inactive"),
    (Platform.IOS_SCENE_PHASE, "background", "background"),
    (Platform.IOS_APPLICATION_STATE, "active", "foreground"),
    (Platform.IOS_APPLICATION_STATE, "inactive", "inactive"),
    (Platform.IOS_APPLICATION_STATE, "background", "background"),
    (Platform.ANDROID_LIFECYCLE_EVENT, "ON_CREATE", "none"),
    (Platform.ANDROID_LIFECYCLE_EVENT, "ON_START", "none"),
    (Platform.ANDROID_LIFECYCLE_EVENT, "ON_RESUME", "foreground"),
    (Platform.ANDROID_LIFECYCLE_EVENT, "ON_PAUSE", "inactive"),
    (Platform.ANDROID_LIFECYCLE_EVENT, "ON_STOP", "background"),
    (Platform.ANDROID_LIFECYCLE_EVENT, "ON_DESTROY", "none"),
    (Platform.FLUTTER_APP_LIFECYCLE_STATE, "resumed", "foreground"),
    (Platform.FLUTTER_APP_LIFECYCLE_STATE, "inactive", "inactive"),
    (Platform.FLUTTER_APP_LIFECYCLE_STATE, "hidden", "background"),
    (Platform.FLUTTER_APP_LIFECYCLE_STATE, "paused", "background"),
    (Platform.FLUTTER_APP_LIFECYCLE_STATE, "detached", "none"),
    (Platform.REACT_NATIVE_APP_STATE, "active", "foreground"),
    (Platform.REACT_NATIVE_APP_STATE, "inactive", "inactive"),
    (Platform.REACT_NATIVE_APP_STATE, "background", "background"),
    (Platform.REACT_NATIVE_APP_STATE, "unknown", "none"),
    (Platform.REACT_NATIVE_APP_STATE, "extension", "none"),
]
DIRECT = {"foreground": "foreground", "inactive": "inactive",
          "background": "background", "none": "check"}
NAME_IDS = [f"{p.name}-{n}" for p, n, _ in NAMES]

# background 10 s, inactive 30 s: an absence of 20 s locks only when it
# reached the background, so inactive and background are told apart.
ADAPTER_OPTIONS = dict(idle_after_ms=60_000, background_after_ms=10_000,
                       inactive_after_ms=30_000, grace_ms=1_500, lock_on_start=False)


def adapter_lock(clock: FakeClock, **overrides) -> IdleLock:
    options = dict(ADAPTER_OPTIONS, clock=clock, **KDF)
    options.update(overrides)
    lock = IdleLock(**options)
    lock.set_passcode(PASSCODE)
    lock.start()
    return lock


def run_twins(platform: Platform, name: str, event: str,
              script: List[Tuple[str, int]]) -> Tuple[List[Snapshot], List[Snapshot]]:
    """Run `script` on two identical locks, each on its own fake clock; "X"
    is lifecycle(platform, name) on the first and the event's own method on
    the second. Returns both lists of snapshots, one per step."""
    out = []
    for use_adapter in (True, False):
        clock = FakeClock()
        lock = adapter_lock(clock)
        snaps = []
        try:
            for step, advance in script:
                clock.advance(advance)
                if step == "X":
                    snap = (lock.lifecycle(platform, name) if use_adapter
                            else getattr(lock, DIRECT[event])())
                else:
                    snap = getattr(lock, step)()
                snaps.append(snap)
        finally:
            lock.close()
        out.append(snaps)
    return out[0], out[1]


@pytest.mark.parametrize("platform, name, event", NAMES, ids=NAME_IDS)
def test_each_name_reaches_its_event(platform, name, event):
    # From present: X, then back after 20 s. From away: X 1 s after a
    # background (within grace). At the idle deadline: X judges it.
    scripts = [
        [("X", 1_000), ("foreground", 20_000)],
        [("background", 1_000), ("X", 1_000), ("check", 0)],
        [("inactive", 1_000), ("X", 20_000), ("foreground", 0)],
        [("X", 60_000), ("snapshot", 0)],
    ]
    for script in scripts:
        via_adapter, direct = run_twins(platform, name, event, script)
        assert via_adapter == direct, script


@pytest.mark.parametrize(
    "platform, name, event", [n for n in NAMES if n[2] != "none"],
    ids=[i for i, n in zip(NAME_IDS, NAMES) if n[2] != "none"],
)
def test_presence_names_have_the_documented_effect(platform, name, event, clock):
    lock = adapter_lock(clock)
    t0 = clock.now
    if event == "foreground":
        lock.background()
        clock.advance(1_000)  # within grace: presence
        snap = lock.lifecycle(platform, name)
        assert not snap.is_away
        assert snap.state == State.UNLOCKED
        assert snap.last_activity_ms == t0 + 1_000
        return
    snap = lock.lifecycle(platform, name)
    assert snap.is_away and snap.state == State.UNLOCKED
    clock.advance(20_000)
    back = lock.foreground()
    if event == "background":  # 20 s >= background_after_ms (10 s)
        assert (back.state, back.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    else:  # inactive only: the longer of 10 s and inactive_after_ms (30 s)
        assert back.state == State.UNLOCKED


@pytest.mark.parametrize(
    "platform, name", [(p, n) for p, n, e in NAMES if e == "none"],
    ids=[i for i, n in zip(NAME_IDS, NAMES) if n[2] == "none"],
)
def test_names_without_presence_change_do_nothing(platform, name, clock):
    lock = adapter_lock(clock)
    before = lock.snapshot()
    clock.advance(1_000)
    snap = lock.lifecycle(platform, name)
    # Not away, same seq, same activity: only the clock moved.
    assert snap == dataclasses.replace(before, ms_until_idle_lock=59_000,
                                       ms_until_next_deadline=59_000)
    lock.background()
    clock.advance(5_000)
    snap = lock.lifecycle(platform, name)
    assert snap.is_away and snap.state == State.UNLOCKED  # still away
    clock.advance(10_000)  # now past background_after_ms: judged, as check()
    snap = lock.lifecycle(platform, name)
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.BACKGROUNDED)
    assert snap.is_away


def test_a_name_without_presence_change_judges_the_idle_deadline(clock):
    lock = adapter_lock(clock)
    clock.advance(60_000)
    snap = lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_START")
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.IDLE)


def test_plain_int_platforms_are_passed_on(clock):
    lock = adapter_lock(clock)
    snap = lock.lifecycle(4, "paused")  # Flutter, as an int
    assert snap.is_away


@pytest.mark.parametrize(
    "platform, name",
    [
        (Platform.IOS_SCENE_PHASE, "Active"),  # case-sensitive
        (Platform.IOS_SCENE_PHASE, "ACTIVE"),
        (Platform.IOS_SCENE_PHASE, "active "),
        (Platform.IOS_SCENE_PHASE, ""),
        (Platform.IOS_SCENE_PHASE, "resumed"),  # Flutter's name
        (Platform.IOS_APPLICATION_STATE, "ON_STOP"),  # Android's name
        (Platform.ANDROID_LIFECYCLE_EVENT, "on_stop"),
        (Platform.ANDROID_LIFECYCLE_EVENT, "ON_ANY"),  # Lifecycle.Event has it; no state
        (Platform.ANDROID_LIFECYCLE_EVENT, "background"),
        (Platform.FLUTTER_APP_LIFECYCLE_STATE, "active"),
        (Platform.FLUTTER_APP_LIFECYCLE_STATE, "background"),
        (Platform.REACT_NATIVE_APP_STATE, "resumed"),
        (Platform.REACT_NATIVE_APP_STATE, "hidden"),
        (Platform.REACT_NATIVE_APP_STATE, "été"),
    ],
)
def test_unknown_names_raise_and_change_nothing(platform, name, clock):
    lock = adapter_lock(clock)
    before = lock.snapshot()
    with pytest.raises(InvalidArgumentError) as e:
        lock.lifecycle(platform, name)
    assert e.value.status == 1
    message = e.value.message
    # The library's message, in Python's words: it lists the valid names.
    assert message.startswith(f"state_name is not a state of Platform.{platform.name}; its states are ")
    assert message.endswith(" (the platform's own spelling, case-sensitive)")
    assert "IDLELOCK_" not in message and "idlelock_" not in message
    assert e.value.snapshot is None
    assert lock.snapshot() == before  # no departure recorded


def listed_names(lock, platform):
    """The names the library's message lists for a name it refuses."""
    with pytest.raises(InvalidArgumentError) as e:
        lock.lifecycle(platform, "Nope")
    listed = e.value.message.split("; its states are ", 1)[1]
    return listed[: -len(" (the platform's own spelling, case-sensitive)")].split(", ")


def test_the_names_listed_in_messages_are_the_librarys(clock):
    # Every platform's message lists its names, and the library takes each.
    lock = adapter_lock(clock)
    for platform in Platform:
        names = listed_names(lock, platform)
        assert len(names) >= 3, platform
        for name in names:
            lock.lifecycle(platform, name)
            lock.foreground()
    assert listed_names(lock, Platform.ANDROID_LIFECYCLE_EVENT) == [
        "ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY"]


@pytest.mark.parametrize("platform", [0, 6, 99, -1, 2**31 - 1, -(2**31)])
def test_unknown_platforms_raise_with_the_library_message(platform, clock):
    lock = adapter_lock(clock)
    before = lock.snapshot()
    with pytest.raises(InvalidArgumentError) as e:
        lock.lifecycle(platform, "active")
    assert e.value.message.startswith(f"platform {platform} is not a platform this library knows; use one of ")
    for p in Platform:
        assert f"Platform.{p.name} ({int(p)})" in e.value.message
    assert lock.snapshot() == before


@pytest.mark.parametrize("platform", [2**31, -(2**31) - 1, 2**64])
def test_platforms_outside_int32_are_refused_by_the_binding(platform, clock):
    lock = adapter_lock(clock)
    with pytest.raises(InvalidArgumentError) as e:
        lock.lifecycle(platform, "active")
    assert "platform" in str(e.value)


@pytest.mark.parametrize("platform", ["IOS_SCENE_PHASE", None, True, 1.0])
def test_platform_must_be_an_integer(platform, clock):
    lock = adapter_lock(clock)
    with pytest.raises(TypeError) as e:
        lock.lifecycle(platform, "active")
    assert "platform" in str(e.value)


@pytest.mark.parametrize("name", [b"active", None, 1, ["active"]])
def test_state_name_must_be_str(name, clock):
    lock = adapter_lock(clock)
    with pytest.raises(TypeError) as e:
        lock.lifecycle(Platform.IOS_SCENE_PHASE, name)
    assert "state_name" in str(e.value)


@pytest.mark.parametrize("name", ["active\0", "act\0ive", "\ud800"])
def test_state_name_nul_and_surrogates_are_refused_by_the_binding(name, clock):
    lock = adapter_lock(clock)
    before = lock.snapshot()
    with pytest.raises(InvalidArgumentError) as e:
        lock.lifecycle(Platform.IOS_SCENE_PHASE, name)
    assert "state_name" in str(e.value)
    assert lock.snapshot() == before


def test_platform_enum_matches_the_header():
    assert issubclass(Platform, int)
    assert {m.name: int(m) for m in Platform} == {
        "IOS_SCENE_PHASE": _ffi.PLATFORM_IOS_SCENE_PHASE,
        "IOS_APPLICATION_STATE": _ffi.PLATFORM_IOS_APPLICATION_STATE,
        "ANDROID_LIFECYCLE_EVENT": _ffi.PLATFORM_ANDROID_LIFECYCLE_EVENT,
        "FLUTTER_APP_LIFECYCLE_STATE": _ffi.PLATFORM_FLUTTER_APP_LIFECYCLE_STATE,
        "REACT_NATIVE_APP_STATE": _ffi.PLATFORM_REACT_NATIVE_APP_STATE,
    }
    assert [int(m) for m in Platform] == [1, 2, 3, 4, 5]
    assert str(Platform.FLUTTER_APP_LIFECYCLE_STATE) == "FLUTTER_APP_LIFECYCLE_STATE"


def test_lifecycle_on_a_locked_session_records_the_absence(clock):
    lock = adapter_lock(clock)
    lock.lock()
    snap = lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_STOP")
    assert snap.is_away and (snap.state, snap.reason) == (State.LOCKED, Reason.MANUAL)
    snap = lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_RESUME")
    assert not snap.is_away and snap.state == State.LOCKED


def test_lifecycle_listeners_hear_the_change(clock):
    lock = adapter_lock(clock)
    heard: List[Snapshot] = []
    lock.subscribe(heard.append)
    lock.lifecycle(Platform.FLUTTER_APP_LIFECYCLE_STATE, "hidden")
    assert heard and heard[-1].is_away
    lock.close()

# SPDX-License-Identifier: MIT
"""Shared fixtures: a fake clock and a lock factory.

Every lock made here uses the Argon2id floor (2 passes, 19 MiB) so that
passcode calls take tens of milliseconds, not seconds.
"""

from __future__ import annotations

import gc
import os
import tempfile
from typing import Any, Callable, Iterator, List

import pytest
from hypothesis import settings

import idlelock
from idlelock import IdleLock

# No example database, and Hypothesis' caches go to the temp folder: the
# suite must not leave a .hypothesis/ folder in the working directory.
try:
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "idlelock-hypothesis"))
except ImportError:  # pragma: no cover - older Hypothesis
    pass
settings.register_profile("idlelock", database=None)
settings.load_profile("idlelock")

KDF = {"kdf_opslimit": 2, "kdf_memlimit": 19 * 1024 * 1024}
PASSCODE = "2468"
WRONG = "1357"
T0 = 1_000_000  # fake clock origin (ms); any fixed origin is valid


class FakeClock:
    """A clock the test moves by hand (int milliseconds)."""

    def __init__(self, start: int = T0) -> None:
        self.now = start
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return self.now

    def advance(self, ms: int) -> int:
        self.now += ms
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_lock(clock: FakeClock) -> Iterator[Callable[..., IdleLock]]:
    """Factory: IdleLock(**defaults, **overrides) on the fake clock, closed at
    teardown. Defaults: idle 60 s, KDF floor."""
    made: List[IdleLock] = []

    def make(**overrides: Any) -> IdleLock:
        options: dict = {"idle_after_ms": 60_000, "clock": clock, **KDF}
        options.update(overrides)
        lock = IdleLock(**options)
        made.append(lock)
        return lock

    yield make
    for lock in made:
        lock.close()
    gc.collect()


@pytest.fixture
def engaged(make_lock: Callable[..., IdleLock]) -> Callable[..., IdleLock]:
    """Factory: a started, engaged, unlocked lock (lock_on_start False by
    default) with PASSCODE set at the fake clock's current time."""

    def make(**overrides: Any) -> IdleLock:
        overrides.setdefault("lock_on_start", False)
        lock = make_lock(**overrides)
        lock.set_passcode(PASSCODE)
        snap = lock.start()
        assert snap.state == idlelock.State.UNLOCKED
        assert snap.is_enabled
        return lock

    return make

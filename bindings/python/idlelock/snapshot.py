# SPDX-License-Identifier: MIT
"""What a call reports: :class:`Snapshot`, with its :class:`State` and
:class:`Reason`, and the :class:`Platform` whose state names
:meth:`IdleLock.lifecycle` takes."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Dict, Optional

from . import _ffi


class _NamedIntEnum(enum.IntEnum):
    """An ``IntEnum`` whose ``str()`` is the member name on every Python.

    Python 3.11 made ``str()`` and ``format()`` of an ``IntEnum`` the bare
    number, so ``print(snapshot.state)`` showed ``0``; 3.9/3.10 showed
    ``State.UNLOCKED``. Here ``str(State.LOCKED)``, ``print()`` and
    ``f"{state}"`` give ``"LOCKED"`` everywhere; a numeric format spec
    (``f"{state:d}"``) and ``int(state)`` still give the number, and members
    compare equal to their ``int`` values. ``repr()`` is unchanged.
    """

    def __str__(self) -> str:
        return self.name

    def __format__(self, format_spec: str) -> str:
        if format_spec and format_spec[-1] in "bcdoxXneEfFgG%":
            return int.__format__(int(self), format_spec)
        return format(self.name, format_spec)


class State(_NamedIntEnum):
    """Lock state (``IDLELOCK_STATE_*``). ``str()`` is the name."""

    UNLOCKED = _ffi.STATE_UNLOCKED
    LOCKED = _ffi.STATE_LOCKED
    LOCKED_OUT = _ffi.STATE_LOCKED_OUT


class Reason(_NamedIntEnum):
    """Why the session is locked (``IDLELOCK_REASON_*``). ``str()`` is the
    name."""

    NONE = _ffi.REASON_NONE
    IDLE = _ffi.REASON_IDLE
    BACKGROUNDED = _ffi.REASON_BACKGROUNDED
    STARTUP = _ffi.REASON_STARTUP
    MANUAL = _ffi.REASON_MANUAL
    CLOCK = _ffi.REASON_CLOCK


class Platform(_NamedIntEnum):
    """The platform whose own state names :meth:`IdleLock.lifecycle` takes
    (``IDLELOCK_PLATFORM_*``). ``str()`` is the name.

    The names, as the library maps them (foreground / inactive /
    background / no presence change):

    - ``IOS_SCENE_PHASE`` (SwiftUI ``ScenePhase``) and
      ``IOS_APPLICATION_STATE`` (UIKit ``UIApplication.State``): ``active``
      / ``inactive`` / ``background``.
    - ``ANDROID_LIFECYCLE_EVENT`` (androidx ``Lifecycle.Event``):
      ``ON_RESUME`` / ``ON_PAUSE`` (still visible) / ``ON_STOP`` /
      ``ON_CREATE``, ``ON_START``, ``ON_DESTROY``.
    - ``FLUTTER_APP_LIFECYCLE_STATE`` (Flutter ``AppLifecycleState``):
      ``resumed`` / ``inactive`` / ``hidden``, ``paused`` / ``detached``.
    - ``REACT_NATIVE_APP_STATE`` (React Native ``AppState``): ``active`` /
      ``inactive`` (iOS) / ``background`` / ``unknown``, ``extension``.

    The table is the library's (README, "Lifecycle adapters"); the binding
    does not map names itself.
    """

    IOS_SCENE_PHASE = _ffi.PLATFORM_IOS_SCENE_PHASE
    """SwiftUI ``ScenePhase``."""
    IOS_APPLICATION_STATE = _ffi.PLATFORM_IOS_APPLICATION_STATE
    """UIKit ``UIApplication.State``."""
    ANDROID_LIFECYCLE_EVENT = _ffi.PLATFORM_ANDROID_LIFECYCLE_EVENT
    """androidx ``Lifecycle.Event``."""
    FLUTTER_APP_LIFECYCLE_STATE = _ffi.PLATFORM_FLUTTER_APP_LIFECYCLE_STATE
    """Flutter ``AppLifecycleState``."""
    REACT_NATIVE_APP_STATE = _ffi.PLATFORM_REACT_NATIVE_APP_STATE
    """React Native ``AppState``."""


# A newer library may append states or reasons: the raw int is kept then.
_STATES: Dict[int, State] = {int(m): m for m in State}
_REASONS: Dict[int, Reason] = {int(m): m for m in Reason}


@dataclass(frozen=True)
class Snapshot:
    """What the lock looks like after a call (``idlelock_snapshot``).

    ``state`` and ``reason`` are :class:`State` / :class:`Reason` (a plain
    ``int`` for a value a newer library added). ``seq`` numbers the latest
    change of state, reason or flag (0 at creation). ``is_away``: an absence
    is recorded; show a privacy cover whatever the state.
    ``attempts_remaining``: wrong passcodes left before ``LOCKED_OUT``
    (``max_attempts`` when no passcode is set, 0 when locked out).
    ``last_activity_ms``: clock reading (ms) of the last activity.
    ``ms_until_idle_lock``: milliseconds until the idle deadline, 0 when
    due, and ``None`` where the library reports ``IDLELOCK_NEVER`` (the idle
    timeout is never, the session is locked, or no passcode is set).

    Added in 1.1:

    ``is_warning``: within ``warn_before_ms`` of the idle lock (not while a
    prompt defers the idle rule): save a draft or ask "still there?".
    Listeners hear it open and close; activity (:meth:`IdleLock.touch`)
    ends it.
    ``ms_until_warning``: milliseconds until ``is_warning`` opens, 0 while
    it is open, ``None`` (``IDLELOCK_NEVER``) without a warning (the option
    is off, or there is no idle deadline).
    ``ms_until_retry``: milliseconds until a passcode attempt is accepted
    again while an escalating delay runs (``delay_schedule``), 0 when it
    is (never ``None``: a delay lasts one day at most).
    ``ms_until_next_deadline``: milliseconds until the earliest moment
    anything can change (the idle deadline, the warning, the end of the
    grace window or the timeout of an absence, a prompt's cap, the end of a
    delay): wake a timer then and call :meth:`IdleLock.check`. 0 when due
    now, ``None`` (``IDLELOCK_NEVER``) when nothing is due. It may wake a
    host early, never late. (:meth:`IdleLock.watch_start` does this for
    you.) Since 1.2 it also counts the moment a passcode policy starts to
    require the passcode.

    Added in 1.2:

    ``is_passcode_required``: a passcode policy (``passcode_after_reboot``,
    ``passcode_max_age_ms``, ``biometric_max_uses``) refuses the biometric
    shortcut now: show the passcode field only. Listeners hear it change.
    ``last_auth_ms``: clock reading (ms) of the last successful
    authentication on this lock (an unlock or a re-authentication, by
    passcode or biometrics; not :meth:`IdleLock.set_passcode`), ``None``
    when there was none (or it was forgotten: a sign-out, a clock step).
    :meth:`IdleLock.require_recent_auth` judges it.
    """

    state: State
    reason: Reason
    seq: int
    is_enabled: bool
    is_biometrics_enabled: bool
    is_biometrics_available: bool
    is_away: bool
    attempts_remaining: int
    last_activity_ms: int
    ms_until_idle_lock: Optional[int]
    is_warning: bool
    ms_until_warning: Optional[int]
    ms_until_retry: int
    ms_until_next_deadline: Optional[int]
    is_passcode_required: bool = False
    last_auth_ms: Optional[int] = None

    @property
    def is_locked(self) -> bool:
        """True in ``LOCKED`` and ``LOCKED_OUT``."""
        return self.state != State.UNLOCKED

    @classmethod
    def _from_struct(cls, s: _ffi.SnapshotStruct) -> "Snapshot":
        never = _ffi.NEVER
        until = s.ms_until_idle_lock
        warning = s.ms_until_warning
        deadline = s.ms_until_next_deadline
        return cls(
            state=_STATES.get(s.state, s.state),
            reason=_REASONS.get(s.reason, s.reason),
            seq=int(s.seq),
            is_enabled=bool(s.is_enabled),
            is_biometrics_enabled=bool(s.is_biometrics_enabled),
            is_biometrics_available=bool(s.is_biometrics_available),
            is_away=bool(s.is_away),
            attempts_remaining=int(s.attempts_remaining),
            last_activity_ms=int(s.last_activity_ms),
            ms_until_idle_lock=None if until == never else until,
            is_warning=bool(s.is_warning),
            ms_until_warning=None if warning == never else warning,
            ms_until_retry=int(s.ms_until_retry),
            ms_until_next_deadline=None if deadline == never else deadline,
            is_passcode_required=bool(s.is_passcode_required),
            last_auth_ms=None if s.last_auth_ms == never else int(s.last_auth_ms),
        )

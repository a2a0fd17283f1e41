# SPDX-License-Identifier: MIT
"""Python binding for libidlelock, an idle lock for signed-in sessions.

Pure :mod:`ctypes`; the shared library ``libidlelock.so.1`` is found as
described in :mod:`idlelock._ffi` (``$IDLELOCK_LIBRARY``, then the
repository's ``build/`` folder when the package sits in a source checkout,
then the system loader).

Quick start::

    from idlelock import IdleLock

    with IdleLock(idle_after_ms=5 * 60_000, background_after_ms=30_000) as lock:
        lock.start()                    # applies lock_on_start (no passcode yet)
        lock.set_passcode("2468")       # the user signs in: engages the lock
        lock.put_secret("token", b"...")
        lock.touch()                    # on every input event
        lock.lock()                     # "Lock now" (or a timeout)
        if lock.snapshot().is_locked:
            lock.unlock("2468")
        print(lock.snapshot().state, lock.get_secret("token"))  # UNLOCKED b'...'

``start()`` locks an engaged session (``lock_on_start``, default True), so a
passcode set *before* the first ``start()`` means the session is locked when
it returns: unlock before reading secrets.

With ``store_path=...`` the session (passcode wrap, sealed secrets, attempt
count, lockout) is kept on disk and shared between processes; see
:class:`IdleLock` and :class:`StorageError`.

Prompts the app opens itself (a file picker, the camera) go in
``with lock.prompt(): ...`` (:meth:`IdleLock.prompt`), and a platform's own
state names reach the right event through :meth:`IdleLock.lifecycle` with a
:class:`Platform` (``lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT,
"ON_STOP")``).

Since 1.1 a lock can also warn before the idle lock (``warn_before_ms``,
:attr:`Snapshot.is_warning`), refuse passcode attempts for a while after
wrong ones (``delay_schedule``, :class:`RetryLaterError`), say when to wake
next (:attr:`Snapshot.ms_until_next_deadline`), and keep time by itself on
a watcher thread (:meth:`IdleLock.watch_start`). :meth:`IdleLock.touch`
returns ``None`` (``touch(snapshot=True)`` returns the :class:`Snapshot`):
it is the hot path.

Units: every time and duration is an ``int`` count of **milliseconds**.

Threads: every method may be called from any thread, also concurrently on
one object; :meth:`IdleLock.close` waits for calls in flight on other
threads. Listeners run on the thread of whichever call on the object
delivers them; the clock runs on the calling thread with the library's
internal lock held. Exceptions raised by a listener, the clock or an
:class:`Authenticator` are caught in the callback (they never unwind through
C) and re-raised on that thread once the C call returns: see
:class:`ListenerError`, :class:`Authenticator` and :class:`IdleLock`.
Listeners run by the watcher thread have no call to raise from: their
exceptions go to :func:`sys.unraisablehook`.
"""

from __future__ import annotations

# The modules: _ffi (loading the library, the ctypes declarations), library
# (its version, status names, limits, presets), snapshot (Snapshot, State,
# Reason, Platform), errors, authenticator (the Authenticator interface),
# _options (validation of options and arguments), _callbacks (the thunks
# for listeners, the clock and the authenticator), lock (IdleLock, Prompt).
# This file only re-exports the public names.
from ._ffi import LibraryNotFoundError
from .authenticator import Authenticator
from .biometric import AuthResult, BiometricPurpose, BiometricRequest
from .errors import (
    AuthenticationCancelled,
    AuthenticationError,
    AuthenticationFailed,
    AuthenticatorUnavailable,
    BufferTooSmallError,
    ClosedError,
    IdleLockError,
    InternalError,
    InvalidArgumentError,
    InvalidPasscodeError,
    ListenerError,
    LockedOutError,
    LockUnavailableError,
    NoMemoryError,
    NoPasscodeError,
    NotFoundError,
    ReauthRequiredError,
    RetryLaterError,
    SessionLockedError,
    StorageError,
)
from .library import (
    AUTH_SECRET_BYTES,
    BIOMETRIC_REQUESTS_MAX,
    DELAY_MAX_MS,
    DELAY_SCHEDULE_MAX_STEPS,
    NEVER,
    PROMPT_CAP_MAX_MS,
    ios_delay_schedule,
    library_path,
    status_name,
    version,
    version_number,
)
from ._options import DEFAULT, SAME_AS_IDLE
from .lock import IdleLock, Prompt

# The callbacks' types, for annotations (importable as before, not in __all__).
from .lock import ClockCallback, ListenerCallback  # noqa: F401
from .snapshot import Platform, Reason, Snapshot, State

__all__ = [
    "IdleLock",
    "Snapshot",
    "State",
    "Reason",
    "NEVER",
    "SAME_AS_IDLE",
    "DEFAULT",
    "version",
    "version_number",
    "status_name",
    "library_path",
    "IdleLockError",
    "InvalidArgumentError",
    "SessionLockedError",
    "InvalidPasscodeError",
    "LockedOutError",
    "LockUnavailableError",
    "NoPasscodeError",
    "StorageError",
    "NotFoundError",
    "BufferTooSmallError",
    "NoMemoryError",
    "InternalError",
    "RetryLaterError",
    "ReauthRequiredError",
    "ClosedError",
    "ListenerError",
    "LibraryNotFoundError",
    "Authenticator",
    "AuthenticationError",
    "AuthenticationFailed",
    "AuthenticationCancelled",
    "AuthenticatorUnavailable",
    "AUTH_SECRET_BYTES",
    "AuthResult",
    "BiometricPurpose",
    "BiometricRequest",
    "BIOMETRIC_REQUESTS_MAX",
    "Platform",
    "Prompt",
    "PROMPT_CAP_MAX_MS",
    "DELAY_MAX_MS",
    "DELAY_SCHEDULE_MAX_STEPS",
    "ios_delay_schedule",
]

__version__ = "1.2.2"

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

Units: every time and duration is an ``int`` count of **milliseconds**.

Threads: every method may be called from any thread, also concurrently on
one object; :meth:`IdleLock.close` waits for calls in flight on other
threads. Listeners run on the thread of whichever call on the object
delivers them; the clock runs on the calling thread with the library's
internal lock held. Exceptions raised by a listener, the clock or an
:class:`Authenticator` are caught in the callback (they never unwind through
C) and re-raised on that thread once the C call returns: see
:class:`ListenerError`, :class:`Authenticator` and :class:`IdleLock`.
"""

from __future__ import annotations

import abc
import ctypes
import enum
import math
import operator
import os
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Set, Type, Union

from . import _ffi
from ._ffi import LibraryNotFoundError

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
    "ClosedError",
    "ListenerError",
    "LibraryNotFoundError",
    "Authenticator",
    "AuthenticationError",
    "AuthenticationFailed",
    "AuthenticationCancelled",
    "AuthenticatorUnavailable",
    "AUTH_SECRET_BYTES",
]

__version__ = "1.0.0"

#: ``IDLELOCK_NEVER`` (INT64_MAX): "no deadline". Timeouts also accept
#: ``None`` for it, and :attr:`Snapshot.ms_until_idle_lock` reports it as
#: ``None``.
NEVER: int = _ffi.NEVER

#: ``IDLELOCK_AUTH_SECRET_BYTES``: the length of the secret an
#: :class:`Authenticator` keeps and gives back (32).
AUTH_SECRET_BYTES: int = _ffi.AUTH_SECRET_BYTES

#: Path (or soname) of the loaded shared library.
library_path: str = _ffi.library_path


class _Sentinel(enum.Enum):
    DEFAULT = "DEFAULT"
    SAME_AS_IDLE = "SAME_AS_IDLE"

    def __repr__(self) -> str:
        return f"idlelock.{self.value}"


#: Keep the library's default for an option (what ``idlelock_config_init``
#: fills in).
DEFAULT = _Sentinel.DEFAULT
#: ``background_after_ms`` only: use the value of ``idle_after_ms``
#: (``IDLELOCK_SAME_AS_IDLE``; the library default).
SAME_AS_IDLE = _Sentinel.SAME_AS_IDLE

# --------------------------------------------------------------------------
# Module functions
# --------------------------------------------------------------------------


def version() -> str:
    """The library's version, ``"MAJOR.MINOR.PATCH"`` (``idlelock_version``)."""
    return _ffi.lib.idlelock_version()  # type: ignore[no-any-return]


def version_number() -> int:
    """The library's version as ``MAJOR*10000 + MINOR*100 + PATCH``."""
    return int(_ffi.lib.idlelock_version_number())


def status_name(code: int) -> str:
    """The fixed name of a status code (``idlelock_status_name``), e.g.
    ``"IDLELOCK_ERR_SESSION_LOCKED"``; ``"IDLELOCK_ERR_UNKNOWN"`` (the
    library's generic name) for a code it does not know, including codes
    outside the C ``int`` range.

    Raises :class:`TypeError` when ``code`` is not an integer.
    """
    if isinstance(code, bool):
        raise TypeError("status code must be an int, not bool")
    value = operator.index(code)
    if not _ffi.INT32_MIN <= value <= _ffi.INT32_MAX:
        value = -1  # never a valid status: gets the generic name
    return _ffi.lib.idlelock_status_name(value)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------
# States, reasons, snapshots
# --------------------------------------------------------------------------


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


def _enum_or_int(kind: Any, value: int) -> Any:
    # A newer library may append states or reasons; keep the raw int then.
    try:
        return kind(value)
    except ValueError:
        return int(value)


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

    @property
    def is_locked(self) -> bool:
        """True in ``LOCKED`` and ``LOCKED_OUT``."""
        return self.state != State.UNLOCKED

    @classmethod
    def _from_struct(cls, s: _ffi.SnapshotStruct) -> "Snapshot":
        until = int(s.ms_until_idle_lock)
        return cls(
            state=_enum_or_int(State, s.state),
            reason=_enum_or_int(Reason, s.reason),
            seq=int(s.seq),
            is_enabled=bool(s.is_enabled),
            is_biometrics_enabled=bool(s.is_biometrics_enabled),
            is_biometrics_available=bool(s.is_biometrics_available),
            is_away=bool(s.is_away),
            attempts_remaining=int(s.attempts_remaining),
            last_activity_ms=int(s.last_activity_ms),
            ms_until_idle_lock=None if until == _ffi.NEVER else until,
        )


# --------------------------------------------------------------------------
# Exceptions
# --------------------------------------------------------------------------


class IdleLockError(Exception):
    """A libidlelock call failed.

    ``status`` is the C status code (``IDLELOCK_ERR_*``), ``message`` the
    library's message (``idlelock_last_error()``, read right after the
    failing call on the same thread) or the binding's own, and ``snapshot``
    the state after the call when the library filled one (every call that
    takes a snapshot, except on ``InvalidArgumentError``), else ``None``.
    Statuses this binding does not know raise this base class.
    """

    STATUS: Optional[int] = None

    def __init__(
        self,
        message: str = "",
        *,
        status: Optional[int] = None,
        snapshot: Optional[Snapshot] = None,
    ) -> None:
        super().__init__(message)
        self.status: Optional[int] = self.STATUS if status is None else status
        self.message: str = message
        self.snapshot: Optional[Snapshot] = snapshot

    def __str__(self) -> str:
        name = status_name(self.status) if self.status is not None else None
        if self.message and name:
            return f"{self.message} [{name}]"
        return self.message or name or ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, status={self.status!r})"


class InvalidArgumentError(IdleLockError, ValueError):
    """``IDLELOCK_ERR_INVALID_ARGUMENT``: a bad argument or option value; the
    call changed nothing. Also raised by the binding's own validation (the
    message names the option)."""

    STATUS = _ffi.ERR_INVALID_ARGUMENT


class SessionLockedError(IdleLockError):
    """``IDLELOCK_ERR_SESSION_LOCKED``: the session is locked (or locked out);
    secrets and the gate are closed. Also an unlock overtaken by a lock."""

    STATUS = _ffi.ERR_SESSION_LOCKED


class InvalidPasscodeError(IdleLockError):
    """``IDLELOCK_ERR_INVALID_PASSCODE``: wrong passcode; the attempt counted.
    :attr:`attempts_remaining` says how many remain."""

    STATUS = _ffi.ERR_INVALID_PASSCODE

    @property
    def attempts_remaining(self) -> Optional[int]:
        """Wrong passcodes left before ``LOCKED_OUT`` (from the snapshot)."""
        return None if self.snapshot is None else self.snapshot.attempts_remaining


class LockedOutError(IdleLockError):
    """``IDLELOCK_ERR_LOCKED_OUT``: too many wrong passcodes; only
    :meth:`IdleLock.disable` (sign-out) leaves this state."""

    STATUS = _ffi.ERR_LOCKED_OUT


class LockUnavailableError(IdleLockError):
    """``IDLELOCK_ERR_LOCK_UNAVAILABLE``: the biometric shortcut is not
    enabled, not available, failed or was cancelled."""

    STATUS = _ffi.ERR_LOCK_UNAVAILABLE


class NoPasscodeError(IdleLockError):
    """``IDLELOCK_ERR_NO_PASSCODE``: no passcode is set (lock not engaged)."""

    STATUS = _ffi.ERR_NO_PASSCODE


class StorageError(IdleLockError):
    """``IDLELOCK_ERR_STORAGE``: the on-disk store (``store_path``) could not
    be read or written. Never raised by a lock without a store.

    Where it comes from and what it means:

    - :class:`IdleLock` creation: the lock file ``<store_path>.lock`` cannot
      be opened (missing or read-only folder), or the store file is damaged,
      edited, foreign, of a newer format, or was made with another device
      key (the message then says "device key does not match"), or with a
      device key when none is given (or the reverse). The file is left
      untouched and no attempt is counted. Do not delete the file to "fix"
      this: that signs the user out.
    - An event or :meth:`IdleLock.lock` that locked the session but could not
      save the lock: the session **is** ``LOCKED`` (see ``.snapshot``).
    - :meth:`IdleLock.unlock`: the raised attempt count could not be saved
      (the passcode was not checked) or the reset after a right passcode
      could not be saved (still locked).
    - :meth:`IdleLock.set_passcode`, :meth:`IdleLock.put_secret`,
      :meth:`IdleLock.remove_secret`: the change could not be written, or
      another process signed in or out meanwhile; nothing changed.
    - :meth:`IdleLock.disable`: signed out in this process, but the store
      file could not be deleted: call it again.

    Another process holding the store lock for more than 2000 ms is also a
    :class:`StorageError` ("try again").
    """

    STATUS = _ffi.ERR_STORAGE


class NotFoundError(IdleLockError, KeyError):
    """``IDLELOCK_ERR_NOT_FOUND``: no secret has that name.

    Also a :class:`KeyError`, so ``except KeyError`` works as for a mapping;
    unlike a plain ``KeyError`` its ``str()`` is the readable message."""

    STATUS = _ffi.ERR_NOT_FOUND

    __str__ = IdleLockError.__str__


class BufferTooSmallError(IdleLockError):
    """``IDLELOCK_ERR_BUFFER_TOO_SMALL`` (normally handled inside
    :meth:`IdleLock.get_secret`)."""

    STATUS = _ffi.ERR_BUFFER_TOO_SMALL


class NoMemoryError(IdleLockError, MemoryError):
    """``IDLELOCK_ERR_NO_MEMORY``: (secure) memory could not be allocated."""

    STATUS = _ffi.ERR_NO_MEMORY


class InternalError(IdleLockError):
    """``IDLELOCK_ERR_INTERNAL``: a failure inside the library or libsodium."""

    STATUS = _ffi.ERR_INTERNAL


class ClosedError(InvalidArgumentError):
    """The :class:`IdleLock` was closed; the handle no longer exists (the C
    library would see a NULL handle: ``INVALID_ARGUMENT``)."""


class ListenerError(Exception):
    """One or more listeners raised while a call delivered snapshots to them.

    The exceptions were caught inside the callback (nothing unwinds through
    C, nothing is swallowed) and this is raised on the same thread after the
    outermost call on the :class:`IdleLock` returned. ``errors`` lists them
    in delivery order; ``__cause__`` is the first. The call itself took
    effect: use :meth:`IdleLock.snapshot` for the state.
    """

    def __init__(self, errors: List[BaseException]) -> None:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"a listener raised {type(first).__name__}: {first}{more}")
        self.errors = errors


# --------------------------------------------------------------------------
# The host authenticator (biometric shortcut)
# --------------------------------------------------------------------------


class AuthenticationError(Exception):
    """Base of the three exceptions an :class:`Authenticator` raises to report
    an *expected* outcome of a biometric check. They are translated into the
    library's ``IDLELOCK_AUTH_*`` codes and are **not** re-raised to the
    caller (the caller sees :class:`LockUnavailableError`, whose message says
    which). Raised directly, this base class counts as
    :class:`AuthenticationFailed`."""


class AuthenticationFailed(AuthenticationError):
    """``load_secret``: the check failed (wrong face or finger, a locked
    sensor): ``IDLELOCK_AUTH_FAILED``."""


class AuthenticationCancelled(AuthenticationError):
    """``load_secret``: the user or the system cancelled the prompt:
    ``IDLELOCK_AUTH_CANCELLED``."""


class AuthenticatorUnavailable(AuthenticationError):
    """``load_secret``: no item, no enrolment, no hardware:
    ``IDLELOCK_AUTH_UNAVAILABLE``. From ``is_available`` it means
    ``False``."""


class Authenticator(abc.ABC):
    """The host's platform keystore behind a biometric check
    (``idlelock_authenticator``). Subclass it, implement the four methods,
    and pass an instance as ``IdleLock(authenticator=...)``.

    The library has no biometric code. :meth:`IdleLock.enable_biometrics`
    makes a random 32-byte secret, wraps the session key with it, and hands
    the secret to :meth:`store_secret`; :meth:`IdleLock.unlock_with_biometrics`
    asks :meth:`load_secret` to run the check and give the secret back, and
    unlocks only if that secret opens the wrap. A biometric result is key
    material, never a yes/no: keep the secret in an item that the platform
    releases only after a biometric check (Android Keystore with
    ``setUserAuthenticationRequired``, an iOS Keychain item with
    ``kSecAccessControlBiometryCurrentSet``), so that an enrolment change
    invalidates it.

    **Memory:** the secret passes through Python objects. :meth:`store_secret`
    receives it as ``bytes`` and :meth:`load_secret` returns it as a bytes-like
    object; Python ``bytes`` are immutable and cannot be wiped, and the
    garbage collector frees them when it likes. The binding copies the
    returned secret into the library's buffer with :func:`ctypes.memmove`,
    drops its own references at once, and clears the locals of the frames of
    an exception raised by these two methods before keeping it, but it
    cannot erase copies your code makes. Keep the secret in a real keystore,
    not in a Python attribute (the test suite's fake keystore does that; a
    production authenticator must not).

    Calls: each method runs on the thread of the :class:`IdleLock` call that
    needs it (creation and :meth:`IdleLock.foreground`: ``is_available``;
    :meth:`IdleLock.enable_biometrics`: ``is_available``, ``store_secret``;
    :meth:`IdleLock.unlock_with_biometrics`: ``load_secret``;
    :meth:`IdleLock.disable_biometrics`, :meth:`IdleLock.set_passcode` and
    :meth:`IdleLock.disable`, when the shortcut was on: ``delete_secret``),
    never with the library's internal lock held: it may block for seconds
    (a person looking at a prompt) while other threads keep calling, and it
    may call the :class:`IdleLock`'s methods.

    Errors: :class:`AuthenticationFailed`, :class:`AuthenticationCancelled`
    and :class:`AuthenticatorUnavailable` are outcomes (see each). Any other
    exception never unwinds into C: the library is told the step failed
    (``is_available``: not available; ``store_secret``: not stored, the
    shortcut stays off; ``load_secret``: a failed check; ``delete_secret``:
    ignored by the library), and the exception is re-raised on the calling
    thread once the :class:`IdleLock` call returns, with the library's own
    error (if any) as its ``__context__``. The call itself took effect: use
    :meth:`IdleLock.snapshot` for the state.
    """

    @abc.abstractmethod
    def is_available(self) -> bool:
        """``True`` when a biometric check can run now (hardware present,
        enrolled). Must return a ``bool``. The library caches the answer
        (asked at creation, at :meth:`IdleLock.enable_biometrics` and at
        every :meth:`IdleLock.foreground`): keep it quick."""

    @abc.abstractmethod
    def store_secret(self, secret: bytes) -> None:
        """Keep these 32 bytes in an item released only after a biometric
        check, replacing any earlier one. Return ``None``; raise to fail (the
        shortcut then stays off)."""

    @abc.abstractmethod
    def load_secret(self, reason: Optional[str]) -> Union[bytes, bytearray]:
        """Run the biometric check, showing ``reason`` (the lock's
        ``unlock_reason``, or ``None``), and return the stored secret: exactly
        :data:`AUTH_SECRET_BYTES` (32) bytes as ``bytes``, ``bytearray`` or
        ``memoryview``. Any other length is a failed check. Raise
        :class:`AuthenticationFailed`, :class:`AuthenticationCancelled` or
        :class:`AuthenticatorUnavailable` to report those outcomes."""

    @abc.abstractmethod
    def delete_secret(self) -> None:
        """Delete the item (the shortcut was turned off: by
        :meth:`IdleLock.disable_biometrics`, a new passcode, a sign-out
        (:meth:`IdleLock.disable`), or a secret that no longer opens the
        shortcut). Return ``None``; a failure is ignored
        by the library (it has forgotten its wrap anyway), but an exception
        other than an :class:`AuthenticationError` is still re-raised to the
        caller."""


_ERRORS: Dict[int, Type[IdleLockError]] = {
    cls.STATUS: cls
    for cls in (
        InvalidArgumentError,
        SessionLockedError,
        InvalidPasscodeError,
        LockedOutError,
        LockUnavailableError,
        NoPasscodeError,
        StorageError,
        NotFoundError,
        BufferTooSmallError,
        NoMemoryError,
        InternalError,
    )
}


def _error_for(status: int, message: str, snapshot: Optional[Snapshot]) -> IdleLockError:
    cls = _ERRORS.get(status, IdleLockError)
    return cls(message, status=status, snapshot=snapshot)


# --------------------------------------------------------------------------
# Argument validation
# --------------------------------------------------------------------------

_Duration = Union[int, None]


def _bad(option: str, message: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{option}: {message}")


def _int_value(option: str, value: Any, unit: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{option} must be an int ({unit}), not bool")
    if isinstance(value, float):
        if math.isnan(value):
            raise _bad(option, f"NaN is not a number of {unit}")
        if math.isinf(value):
            hint = "; use None for never" if unit == "ms" else ""
            raise _bad(option, f"{value} is not a number of {unit}{hint}")
        raise TypeError(f"{option} must be an int ({unit}), not float ({value!r})")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{option} must be an int ({unit}), not {type(value).__name__}"
        ) from None


def _duration(option: str, value: Any, *, never_ok: bool) -> int:
    """Validate a millisecond option; ``None`` is IDLELOCK_NEVER when allowed."""
    if value is None:
        if never_ok:
            return _ffi.NEVER
        raise TypeError(f"{option} must be an int (ms); None (never) is not allowed here")
    v = _int_value(option, value, "ms")
    if v < 0:
        raise _bad(option, f"{v} ms is negative")
    if v > _ffi.INT64_MAX:
        raise _bad(option, f"{v} ms does not fit in int64" + ("; use None for never" if never_ok else ""))
    return v


def _ranged(option: str, value: Any, lo: int, hi: int, unit: str) -> int:
    """An integer option that must fit its C type [lo, hi] (no silent wrap)."""
    v = _int_value(option, value, unit)
    if v < 0:
        raise _bad(option, f"{v} is negative")
    if not lo <= v <= hi:
        raise _bad(option, f"{v} does not fit the C field")
    return v


def _bytes_copy(option: str, value: Any, ctype: Any) -> "tuple[Any, int]":
    """Copy a str (UTF-8) or bytes-like value into a fresh ctypes buffer that
    the caller wipes after the call. Returns (buffer, length)."""
    if isinstance(value, str):
        try:
            data: Any = value.encode("utf-8")
        except UnicodeEncodeError:
            raise _bad(option, "str is not encodable as UTF-8 (lone surrogate)") from None
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = value
    else:
        raise TypeError(f"{option} must be str or bytes, not {type(value).__name__}")
    if isinstance(data, memoryview) and not data.c_contiguous:
        data = data.tobytes()
    n = memoryview(data).nbytes
    if n == 0:
        return (ctype * 1)(), 0
    return (ctype * n).from_buffer_copy(data), n


def _wipe(buf: Any) -> None:
    ctypes.memset(buf, 0, ctypes.sizeof(buf))


def _store_path(value: Any) -> bytes:
    """Validate and encode ``store_path`` (``str`` or ``os.PathLike``) for C.

    Encoded with :func:`os.fsencode`; a relative path is made absolute
    against the current directory now (the library opens ``<path>.lock``
    once at create but the store file at every durable step, so a later
    ``os.chdir`` must not split them). No normalization otherwise: ``..``
    and symlinks are left to the system."""
    if isinstance(value, (bytes, bytearray, memoryview)) or not isinstance(
        value, (str, os.PathLike)
    ):
        raise TypeError(
            f"store_path must be a str or os.PathLike, not {type(value).__name__}"
        )
    try:
        path = os.fsencode(value)
    except UnicodeEncodeError:
        raise _bad("store_path", "not encodable as a file name (lone surrogate)") from None
    except TypeError as exc:  # __fspath__ returned neither str nor bytes
        raise TypeError(f"store_path: {exc}") from None
    if b"\0" in path:
        raise _bad(
            "store_path",
            "contains a NUL character (the library takes a NUL-terminated C string)",
        )
    if path and not path.startswith(b"/"):
        path = os.path.join(os.getcwdb(), path)
    return path


def _check_device_key(value: Any) -> None:
    """``device_key`` must be bytes or bytearray of exactly 32 bytes. The
    messages never show the key."""
    if not isinstance(value, (bytes, bytearray)):
        raise TypeError(
            f"device_key must be bytes or bytearray ({_ffi.DEVICE_KEY_BYTES} bytes), "
            f"not {type(value).__name__}"
        )
    if len(value) != _ffi.DEVICE_KEY_BYTES:
        raise _bad(
            "device_key", f"must be exactly {_ffi.DEVICE_KEY_BYTES} bytes, got {len(value)}"
        )


def _unlock_reason(value: Any) -> bytes:
    """``unlock_reason``: a ``str`` of at most 512 UTF-8 bytes, no NUL."""
    if not isinstance(value, str):
        raise TypeError(f"unlock_reason must be str or None, not {type(value).__name__}")
    if "\0" in value:
        raise _bad("unlock_reason", "contains a NUL character (the library takes a NUL-terminated C string)")
    try:
        data = value.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad("unlock_reason", "not encodable as UTF-8 (lone surrogate)") from None
    if len(data) > _ffi.UNLOCK_REASON_MAX_BYTES:
        raise _bad(
            "unlock_reason",
            f"{len(data)} UTF-8 bytes, at most {_ffi.UNLOCK_REASON_MAX_BYTES} allowed",
        )
    return data


def _secret_name(name: Any) -> bytes:
    if not isinstance(name, str):
        raise TypeError(f"secret name must be str, not {type(name).__name__}")
    if "\0" in name:
        raise _bad("name", "a secret name cannot contain NUL (names are NUL-terminated C strings)")
    try:
        return name.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad("name", "not encodable as UTF-8 (lone surrogate)") from None


# --------------------------------------------------------------------------
# The lock
# --------------------------------------------------------------------------


class _ThreadState(threading.local):
    """Per object, per thread bookkeeping of binding calls and callbacks."""

    def __init__(self) -> None:
        self.depth = 0  # binding calls on this object in progress on this thread
        self.clock_errors: List[Optional[BaseException]] = []  # one slot per call
        self.auth_errors: List[Optional[BaseException]] = []  # one slot per call
        self.listener_errors: List[BaseException] = []
        self.in_clock = False
        self.delivering: List["_Listener"] = []  # listeners running on this thread
        self.retired: List["_Listener"] = []  # unsubscribed from inside themselves


class _Listener:
    __slots__ = ("callback", "thunk", "token", "__weakref__")

    def __init__(self, callback: Callable[[Snapshot], object]) -> None:
        self.callback = callback
        self.thunk: Any = None
        self.token = 0


def _make_listener_thunk(record: _Listener, tls: _ThreadState) -> Any:
    def trampoline(ctx: Any, snap_p: Any) -> None:
        # Never let anything unwind into C.
        try:
            if not snap_p:
                return
            snapshot = Snapshot._from_struct(snap_p.contents)
            tls.delivering.append(record)
            try:
                record.callback(snapshot)
            finally:
                tls.delivering.pop()
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            try:
                tls.listener_errors.append(exc)
            except BaseException:  # pragma: no cover - out of memory
                pass

    return _ffi.LISTENER_FN(trampoline)


def _make_clock_thunk(clock: Callable[[], int], tls: _ThreadState) -> Any:
    def trampoline(ctx: Any) -> int:
        try:
            tls.in_clock = True
            try:
                value = clock()
            finally:
                tls.in_clock = False
            if isinstance(value, bool) or isinstance(value, float):
                raise TypeError(f"clock returned {type(value).__name__}, expected int ms")
            ms = operator.index(value)
            if not _ffi.INT64_MIN <= ms <= _ffi.INT64_MAX:
                raise OverflowError(f"clock returned {ms}, outside int64 ms")
            return ms
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            try:
                slots = tls.clock_errors
                if slots and slots[-1] is None:
                    slots[-1] = exc
            except BaseException:  # pragma: no cover
                pass
            # The earliest possible reading: earlier than any recorded
            # activity or departure, so an engaged unlocked session locks
            # with REASON_CLOCK instead of being extended. Never "the last
            # good value" (a frozen clock would keep the session open).
            return _ffi.INT64_MIN

    return _ffi.CLOCK_FN(trampoline)


def _record_auth_error(tls: _ThreadState, exc: BaseException, secret_bearing: bool) -> None:
    """Keep an authenticator callback's exception for the call running on
    this thread (re-raised after the C call returns). Never raises."""
    try:
        if secret_bearing and exc.__traceback__ is not None:
            # The frames below the trampoline may hold the secret in their
            # locals; the traceback keeps its lines, not the values.
            traceback.clear_frames(exc.__traceback__)
        slots = tls.auth_errors
        if slots and slots[-1] is None:
            slots[-1] = exc
            return
        # A second failure in the same call (or, against the header's
        # contract, a callback outside any call): never swallowed silently.
        stream = sys.stderr
        if stream is not None:
            print(
                "idlelock: an Authenticator callback raised; not re-raised "
                "(an earlier callback error of the same call is):",
                file=stream,
            )
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=stream)
    except BaseException:  # pragma: no cover - out of memory
        pass


def _copy_secret(secret: Any, out: int, cap: int) -> int:
    """memmove the bytes-like ``secret`` (at most ``cap`` bytes of it) into
    the library's buffer at ``out``; returns its full length (the library
    treats any length but 32 as a failed check). No copy of it is kept."""
    if isinstance(secret, bytes):
        n = len(secret)
        if n:
            ctypes.memmove(out, secret, min(n, cap))
        return n
    if isinstance(secret, (bytearray, memoryview)):
        view = memoryview(secret)
        try:
            n = view.nbytes
            if n == 0:
                return 0
            if view.readonly or not view.c_contiguous:
                # ctypes can only address a writable buffer without a copy:
                # a read-only or strided view is copied once, then dropped.
                flat = view.tobytes()
                try:
                    ctypes.memmove(out, flat, min(n, cap))
                finally:
                    del flat
                return n
            window = (ctypes.c_char * n).from_buffer(view)
            try:
                ctypes.memmove(out, window, min(n, cap))
            finally:
                del window
            return n
        finally:
            view.release()
    raise TypeError(
        "Authenticator.load_secret must return bytes, bytearray or memoryview, "
        f"not {type(secret).__name__}"
    )


def _make_authenticator(auth: "Authenticator", tls: _ThreadState) -> Any:
    """The ctypes struct for ``auth``; its four trampolines are referenced by
    the struct (``_objects``) and must outlive the handle."""

    def is_available(ctx: Any) -> int:
        try:
            result = auth.is_available()
            if not isinstance(result, bool):
                raise TypeError(
                    f"Authenticator.is_available must return bool, not {type(result).__name__}"
                )
            return 1 if result else 0
        except AuthenticationError:
            return 0
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            _record_auth_error(tls, exc, False)
            return 0

    def store_secret(ctx: Any, secret_p: Any, length: int) -> int:
        try:
            if not secret_p:
                return 1
            secret = ctypes.string_at(secret_p, length)
            try:
                result = auth.store_secret(secret)
            finally:
                del secret
            if result is not None:
                raise TypeError(
                    "Authenticator.store_secret must return None (raise to fail), "
                    f"not {type(result).__name__}"
                )
            return 0
        except AuthenticationError:
            return 1
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            _record_auth_error(tls, exc, True)
            return 1

    def load_secret(ctx: Any, reason_b: Optional[bytes], out: Optional[int], cap: int, out_len: Any) -> int:
        try:
            if not out or not out_len:
                return _ffi.AUTH_FAILED
            reason = None if reason_b is None else reason_b.decode("utf-8", errors="replace")
            secret = auth.load_secret(reason)
            try:
                n = _copy_secret(secret, out, cap)
            finally:
                del secret
            out_len[0] = n
            return _ffi.AUTH_OK
        except AuthenticationCancelled:
            return _ffi.AUTH_CANCELLED
        except AuthenticatorUnavailable:
            return _ffi.AUTH_UNAVAILABLE
        except AuthenticationError:  # AuthenticationFailed, or the base class
            return _ffi.AUTH_FAILED
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            _record_auth_error(tls, exc, True)
            return _ffi.AUTH_FAILED

    def delete_secret(ctx: Any) -> int:
        try:
            result = auth.delete_secret()
            if result is not None:
                raise TypeError(
                    "Authenticator.delete_secret must return None (raise to fail), "
                    f"not {type(result).__name__}"
                )
            return 0
        except AuthenticationError:
            return 1
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            _record_auth_error(tls, exc, False)
            return 1

    struct = _ffi.AuthenticatorStruct()
    struct.size = ctypes.sizeof(struct)
    struct.reserved0 = 0
    struct.ctx = None
    struct.is_available = _ffi.AUTH_IS_AVAILABLE_FN(is_available)
    struct.store_secret = _ffi.AUTH_STORE_SECRET_FN(store_secret)
    struct.load_secret = _ffi.AUTH_LOAD_SECRET_FN(load_secret)
    struct.delete_secret = _ffi.AUTH_DELETE_SECRET_FN(delete_secret)
    return struct


class _Outcome:
    __slots__ = ("status", "clock_error", "auth_error", "listener_errors")

    def __init__(
        self,
        status: int,
        clock_error: Optional[BaseException],
        listener_errors: List[BaseException],
        auth_error: Optional[BaseException] = None,
    ) -> None:
        self.status = status
        self.clock_error = clock_error
        self.auth_error = auth_error
        self.listener_errors = listener_errors


ListenerCallback = Callable[[Snapshot], object]
ClockCallback = Callable[[], int]


class IdleLock:
    """An idle lock (``idlelock_create`` / ``idlelock_destroy``).

    All options are keyword-only and in **milliseconds** where they are
    durations. ``DEFAULT`` keeps the library default.

    :param idle_after_ms: lock after this long without :meth:`touch`; > 0,
        or ``None`` for never (the default). The library refuses a lock
        whose idle and background timeouts are both never.
    :param background_after_ms: lock when away (backgrounded) this long;
        >= 0, ``None`` for never, or ``SAME_AS_IDLE`` (default).
    :param inactive_after_ms: the timeout of an absence that never reached
        the background is the longer of this and ``background_after_ms``;
        >= 0 or ``None`` for never; library default 30000.
    :param grace_ms: an absence this short or shorter is presence;
        0..60000, library default 1500.
    :param max_attempts: wrong passcodes before ``LOCKED_OUT``; 1..100,
        library default 5.
    :param lock_on_start: ``bool``; the first :meth:`start` on an engaged
        unlocked session locks with ``Reason.STARTUP``; library default True.
    :param kdf_opslimit: Argon2id passes, 2..10 (library default 2).
    :param kdf_memlimit: Argon2id memory in bytes, 19 MiB..1 GiB (library
        default 64 MiB).
    :param clock: ``None`` for the library's ``CLOCK_BOOTTIME``, or a
        callable returning the time as an ``int`` of ms from any fixed
        origin; monotonic, counting time asleep. It is called on the thread
        making a call, with the library's internal lock held: it must be
        quick and must not call into this object (doing so raises
        ``RuntimeError`` inside the clock, handled as below). The callable
        is kept referenced by this object until :meth:`close`.

        **A clock that raises** (or returns a non-int, or a value outside
        int64) never extends the session: the library is given INT64_MIN,
        a reading earlier than anything recorded, so an engaged unlocked
        session locks with ``Reason.CLOCK`` (an unengaged one just resets
        its bookkeeping). After the C call returns, the clock's exception
        is re-raised unchanged on the calling thread (the call itself took
        effect; a library error or :class:`ListenerError` from the same call
        is attached as its ``__context__``).

    :param store_path: ``None`` (default): the session lives in memory
        only. Otherwise a ``str`` or :class:`os.PathLike` naming a store
        file the library owns, plus ``<path>.lock`` beside it, in an
        existing folder (encoded with :func:`os.fsencode`; the library
        needs UTF-8 of at most 4000 bytes; a relative path is made absolute
        against the current directory at creation). With a store the
        session outlives the process and is shared by every process that
        opens the same path: passcode, secrets, attempt count and lockout,
        sign-out, and the latest lock; each process keeps its own lock
        state. Nothing is written before :meth:`set_passcode`. Creation
        reads the store: a lockout or a saved lock is in force at once, and
        without a ``device_key`` a stored session is ``LOCKED``
        (``Reason.STARTUP``) from creation, since only the passcode can
        open it. A damaged, edited, foreign or newer-format file, or another
        device key, raises :class:`StorageError` here and the file is left
        untouched. See "The store (config.store_path)" in
        ``include/idlelock.h`` for the full rules, and
        :class:`StorageError` for what each failure means.
    :param device_key: ``None`` (default), or exactly 32 bytes (``bytes`` or
        ``bytearray``) from a hardware keystore. It is mixed into the
        passcode key, so a copied store cannot be searched offline without
        the device, keys the store's integrity check (edits of the attempt
        count are detected), and opens the session key at creation, which is
        what allows ``lock_on_start=False`` with a store: :meth:`start` then
        judges the time since the last saved activity as a backgrounded
        absence. A store made with one device key refuses any other
        (:class:`StorageError`, "device key does not match").
        **Without a device key**, anyone who can copy the store file can
        search a short passcode offline (10^4 Argon2id runs for 4 digits),
        and restoring an old copy of the file resets the attempt count.

    :param authenticator: ``None`` (default): no biometric shortcut. Otherwise
        an instance of an :class:`Authenticator` subclass: the host's
        keystore behind a biometric check, used by
        :meth:`enable_biometrics`, :meth:`unlock_with_biometrics`,
        :meth:`disable_biometrics`, and asked ``is_available`` at creation
        and at every :meth:`foreground`. This object keeps it and the ctypes
        trampolines the library calls referenced until the handle is
        destroyed. An exception its ``is_available`` raises during creation
        destroys the new handle and is raised from the constructor.
    :param unlock_reason: ``None`` (default) or a ``str`` of at most 512
        UTF-8 bytes (no NUL) that the library passes to
        :meth:`Authenticator.load_secret` for the prompt.

        The binding copies the key into a ctypes buffer that it wipes with
        ``ctypes.memset`` as soon as ``idlelock_create`` returns (the
        library keeps its own copy in secure memory). A Python ``bytes``
        object is immutable and cannot be wiped: pass a ``bytearray`` and
        clear it yourself once the lock is created (``key[:] = bytes(32)``).

    Python-side validation raises :class:`TypeError` (wrong type: bool,
    float, str...) or :class:`InvalidArgumentError` (a :class:`ValueError`:
    negative, NaN, infinite, too big for the C field; a ``store_path`` with a
    NUL; a ``device_key`` that is not 32 bytes; an ``unlock_reason`` over 512
    UTF-8 bytes or with a NUL), naming the option;
    the library's own range checks raise :class:`InvalidArgumentError`
    naming the field (``lock_on_start=False`` with a ``store_path`` but no
    ``device_key`` is one of them).

    Threads: every method may be called from any thread, also concurrently.
    Listeners run on the thread of some call on this object (often the one
    that caused the change), one at a time, in ``seq`` order.

    Store errors: with a ``store_path``, the calls listed under
    :class:`StorageError` may raise it; an event (``start``, ``touch``, ``inactive``,
    ``background``, ``foreground``, ``check``, ``lock``, ``snapshot``) raises
    it only when it locked the session and could not save the lock, and the
    session is ``LOCKED`` anyway (``error.snapshot``).

    Memory hygiene: passcodes and secret values are copied into ctypes
    buffers that are wiped after the call, but Python ``str`` and ``bytes``
    objects are immutable and cannot be wiped; pass a ``bytearray`` and
    clear it yourself to limit copies. The biometric secret passes through
    Python ``bytes`` too (see :class:`Authenticator`).
    """

    def __init__(
        self,
        *,
        idle_after_ms: Union[_Duration, _Sentinel] = None,
        background_after_ms: Union[_Duration, _Sentinel] = SAME_AS_IDLE,
        inactive_after_ms: Union[_Duration, _Sentinel] = DEFAULT,
        grace_ms: Union[int, _Sentinel] = DEFAULT,
        max_attempts: Union[int, _Sentinel] = DEFAULT,
        lock_on_start: Union[bool, _Sentinel] = DEFAULT,
        kdf_opslimit: Union[int, _Sentinel] = DEFAULT,
        kdf_memlimit: Union[int, _Sentinel] = DEFAULT,
        clock: Optional[ClockCallback] = None,
        store_path: Union[str, "os.PathLike[str]", "os.PathLike[bytes]", None] = None,
        device_key: Optional[Union[bytes, bytearray]] = None,
        authenticator: Optional[Authenticator] = None,
        unlock_reason: Optional[str] = None,
    ) -> None:
        self._handle: Any = None
        self._closed = True
        self._cond = threading.Condition(threading.RLock())
        self._active = 0
        self._destroyed = False
        self._tls = _ThreadState()
        self._listeners: Dict[int, _Listener] = {}
        self._subscribing: Set[_Listener] = set()
        self._clock = clock
        self._clock_thunk: Any = None
        # The authenticator, its C struct and its four ctypes trampolines:
        # the library copies the struct at create but calls the trampolines
        # until idlelock_destroy returns, so they live as long as the handle.
        self._authenticator: Optional[Authenticator] = None
        self._auth_struct: Any = None
        self._auth_thunks: Any = ()

        path_b = None if store_path is None else _store_path(store_path)
        if device_key is not None:
            _check_device_key(device_key)
        if authenticator is not None and not isinstance(authenticator, Authenticator):
            raise TypeError(
                "authenticator must be an idlelock.Authenticator (subclass it) or None, "
                f"not {type(authenticator).__name__}"
            )
        reason_b = None if unlock_reason is None else _unlock_reason(unlock_reason)

        cfg = _ffi.Config()
        status = _ffi.lib.idlelock_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg))
        if status != _ffi.OK:
            raise _error_for(status, status.message, None)

        def opt(name: str, value: Any, convert: Callable[[Any], int]) -> None:
            if value is DEFAULT:
                return
            if isinstance(value, _Sentinel):
                raise TypeError(f"{name} does not accept {value!r}")
            setattr(cfg, name, convert(value))

        if background_after_ms is SAME_AS_IDLE:
            cfg.background_after_ms = _ffi.SAME_AS_IDLE
        else:
            opt("background_after_ms", background_after_ms,
                lambda v: _duration("background_after_ms", v, never_ok=True))
        opt("idle_after_ms", idle_after_ms, lambda v: _duration("idle_after_ms", v, never_ok=True))
        opt("inactive_after_ms", inactive_after_ms,
            lambda v: _duration("inactive_after_ms", v, never_ok=True))
        opt("grace_ms", grace_ms, lambda v: _duration("grace_ms", v, never_ok=False))
        opt("max_attempts", max_attempts,
            lambda v: _ranged("max_attempts", v, 0, _ffi.INT32_MAX, "attempts"))
        opt("kdf_opslimit", kdf_opslimit,
            lambda v: _ranged("kdf_opslimit", v, 0, _ffi.UINT64_MAX, "passes"))
        opt("kdf_memlimit", kdf_memlimit,
            lambda v: _ranged("kdf_memlimit", v, 0, _ffi.UINT64_MAX, "bytes"))
        if lock_on_start is not DEFAULT:
            if not isinstance(lock_on_start, bool):
                raise TypeError(
                    f"lock_on_start must be bool, not {type(lock_on_start).__name__}"
                )
            cfg.lock_on_start = int(lock_on_start)
        if clock is not None:
            if not callable(clock):
                raise TypeError(f"clock must be callable or None, not {type(clock).__name__}")
            self._clock_thunk = _make_clock_thunk(clock, self._tls)
            cfg.clock = self._clock_thunk
        if authenticator is not None:
            self._authenticator = authenticator
            self._auth_struct = _make_authenticator(authenticator, self._tls)
            self._auth_thunks = (
                self._auth_struct.is_available,
                self._auth_struct.store_secret,
                self._auth_struct.load_secret,
                self._auth_struct.delete_secret,
            )
            cfg.authenticator = ctypes.pointer(self._auth_struct)

        handle = _ffi.HandleP()
        tls = self._tls
        # The C copies of store_path and device_key live only for the
        # create call (the library copies what it keeps); the key's buffer
        # is wiped as soon as the call returns.
        key_buf: Any = None
        tls.clock_errors.append(None)
        tls.auth_errors.append(None)  # create asks is_available
        tls.depth += 1
        try:
            if path_b is not None:
                cfg.store_path = path_b
            if reason_b is not None:
                cfg.unlock_reason = reason_b
            if device_key is not None:
                key_buf = (ctypes.c_uint8 * _ffi.DEVICE_KEY_BYTES).from_buffer_copy(device_key)
                cfg.device_key = ctypes.cast(key_buf, ctypes.POINTER(ctypes.c_uint8))
                cfg.device_key_len = _ffi.DEVICE_KEY_BYTES
            status = _ffi.lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
        finally:
            if key_buf is not None:
                ctypes.memset(key_buf, 0, ctypes.sizeof(key_buf))
            cfg.device_key = None
            cfg.device_key_len = 0
            cfg.store_path = None
            cfg.unlock_reason = None
            cfg.authenticator = None
            tls.depth -= 1
            clock_error = tls.clock_errors.pop()
            auth_error = tls.auth_errors.pop()
        if status != _ffi.OK:
            error: BaseException = _error_for(status, status.message, None)
            for upper in (auth_error, clock_error):
                if upper is not None:
                    if upper.__context__ is None and upper is not error:
                        upper.__context__ = error
                    error = upper
            raise error
        self._handle = handle
        self._closed = False
        if clock_error is not None or auth_error is not None:
            # The handle was created from a failed clock reading, or its
            # authenticator raised in is_available: give it back rather than
            # hand out a lock with bogus bookkeeping or a silently broken
            # keystore.
            self.close()
            if clock_error is not None:
                if auth_error is not None and clock_error.__context__ is None:
                    clock_error.__context__ = auth_error
                raise clock_error
            raise auth_error  # type: ignore[misc]

    # -- plumbing ---------------------------------------------------------

    def _call(self, fn: Any, *args: Any) -> _Outcome:
        tls = self._tls
        if tls.in_clock:
            raise RuntimeError(
                "the clock must not call into the IdleLock: it runs with the "
                "library's internal lock held"
            )
        with self._cond:
            if self._closed:
                raise ClosedError("this IdleLock is closed")
            self._active += 1
        tls.depth += 1
        tls.clock_errors.append(None)
        tls.auth_errors.append(None)
        destroy = None
        try:
            status = fn(self._handle, *args)
        finally:
            clock_error = tls.clock_errors.pop()
            auth_error = tls.auth_errors.pop()
            tls.depth -= 1
            listener_errors: List[BaseException] = []
            if tls.depth == 0:
                listener_errors, tls.listener_errors = tls.listener_errors, []
                # No C frame of ours is left on this thread: listeners that
                # unsubscribed themselves can be freed now.
                tls.retired.clear()
            with self._cond:
                self._active -= 1
                if self._active == 0:
                    if self._closed:
                        destroy = self._take_handle()
                    self._cond.notify_all()
            if destroy is not None:
                self._destroy(destroy)
        return _Outcome(status, clock_error, listener_errors, auth_error)

    def _finish(self, outcome: _Outcome, snap: Optional[_ffi.SnapshotStruct] = None) -> None:
        """Raise what the call produced: the clock's exception first, then an
        authenticator callback's, then the library's error, then a
        ListenerError; lower ones become the ``__context__`` of the one
        above."""
        chain: List[BaseException] = []
        if outcome.clock_error is not None:
            chain.append(outcome.clock_error)
        if outcome.auth_error is not None:
            chain.append(outcome.auth_error)
        status = int(outcome.status)
        if status != _ffi.OK:
            snapshot = None
            if snap is not None and status != _ffi.ERR_INVALID_ARGUMENT:
                snapshot = Snapshot._from_struct(snap)
            chain.append(_error_for(status, getattr(outcome.status, "message", ""), snapshot))
        if outcome.listener_errors:
            errors = outcome.listener_errors
            plain = [e for e in errors if not isinstance(e, Exception)]
            if plain:  # KeyboardInterrupt, SystemExit...: re-raise as is
                chain.append(plain[0])
            else:
                listener_error = ListenerError(errors)
                listener_error.__cause__ = errors[0]
                chain.append(listener_error)
        if not chain:
            return
        for upper, lower in zip(chain, chain[1:]):
            if upper.__context__ is None and upper is not lower:
                upper.__context__ = lower
        raise chain[0]

    def _snap_call(self, fn: Any, *args: Any) -> Snapshot:
        snap = _ffi.SnapshotStruct()
        snap.size = ctypes.sizeof(snap)
        outcome = self._call(fn, *args, ctypes.byref(snap))
        self._finish(outcome, snap)
        return Snapshot._from_struct(snap)

    def _simple_call(self, fn: Any, *args: Any) -> None:
        self._finish(self._call(fn, *args))

    def _take_handle(self) -> Any:
        handle, self._handle = self._handle, None
        return handle

    def _destroy(self, handle: Any) -> None:
        tls = self._tls
        tls.clock_errors.append(None)
        try:
            _ffi.lib.idlelock_destroy(handle)
        finally:
            tls.clock_errors.pop()
        # The C object is gone: nothing can call our thunks any more.
        with self._cond:
            self._listeners.clear()
            self._subscribing.clear()
            self._clock_thunk = None
            self._clock = None
            self._auth_thunks = ()
            self._auth_struct = None
            self._authenticator = None
            self._destroyed = True
            self._cond.notify_all()

    # -- life cycle -------------------------------------------------------

    def close(self) -> None:
        """Destroy the lock (``idlelock_destroy``): wipe its session key,
        passcode wrap and secrets. Idempotent. Afterwards every method raises
        :class:`ClosedError`.

        Threads: waits for calls in flight on other threads to return, then
        destroys. Called from a listener (or anything else running inside a
        call on this object on this thread) it returns at once and the
        handle is destroyed when the last call in flight returns.
        """
        tls = getattr(self, "_tls", None)
        cond = getattr(self, "_cond", None)
        if tls is None or cond is None:
            return
        handle = None
        with cond:
            if self._closed:
                return
            self._closed = True
            if self._active == 0:
                handle = self._take_handle()
            elif tls.depth == 0:
                # The last call to return destroys the handle; wait for it.
                while not self._destroyed:
                    cond.wait()
        if handle is not None:
            self._destroy(handle)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def __enter__(self) -> "IdleLock":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def __repr__(self) -> str:
        return f"<idlelock.IdleLock {'closed' if self._closed else 'open'} at {id(self):#x}>"

    # -- events -----------------------------------------------------------

    def start(self) -> Snapshot:
        """Apply ``lock_on_start`` (``idlelock_start``): the first start on an
        engaged, unlocked session with ``lock_on_start`` locks with
        ``Reason.STARTUP``; later starts only judge the deadlines.
        With a store and a ``device_key`` and ``lock_on_start=False``, the
        first start judges the time since the last saved activity as a
        backgrounded absence (see :class:`IdleLock`).
        Returns the state after the call. Raises :class:`ClosedError`, and
        with a store :class:`StorageError` when it locked but could not save
        the lock (the session is locked anyway)."""
        return self._snap_call(_ffi.lib.idlelock_start)

    def touch(self) -> Snapshot:
        """User activity (``idlelock_touch``): while locked nothing; otherwise
        judge the deadlines, and if still unlocked, last activity = now."""
        return self._snap_call(_ffi.lib.idlelock_touch)

    def inactive(self) -> Snapshot:
        """Still visible, not interactive (``idlelock_inactive``): records the
        departure if none is recorded; may lock with ``Reason.IDLE``."""
        return self._snap_call(_ffi.lib.idlelock_inactive)

    def background(self) -> Snapshot:
        """No longer visible (``idlelock_background``): as :meth:`inactive`,
        and marks the absence as having reached the background."""
        return self._snap_call(_ffi.lib.idlelock_background)

    def foreground(self) -> Snapshot:
        """Back in the foreground (``idlelock_foreground``): takes the
        departure and applies the grace window (``grace_ms``), the
        background timeout (``Reason.BACKGROUNDED``) and the idle timeout
        (``Reason.IDLE``)."""
        return self._snap_call(_ffi.lib.idlelock_foreground)

    def check(self) -> Snapshot:
        """Judge the deadlines due now (``idlelock_check``); call from a timer
        using :attr:`Snapshot.ms_until_idle_lock` (ms) to know when."""
        return self._snap_call(_ffi.lib.idlelock_check)

    def lock(self) -> Snapshot:
        """"Lock now" (``idlelock_lock``): an engaged, unlocked session locks
        with ``Reason.MANUAL``; otherwise nothing."""
        return self._snap_call(_ffi.lib.idlelock_lock)

    def snapshot(self) -> Snapshot:
        """The state now, after judging the deadlines (``idlelock_snapshot_get``).
        Everything a listener hears can also be polled here."""
        return self._snap_call(_ffi.lib.idlelock_snapshot_get)

    # -- passcode ---------------------------------------------------------

    def set_passcode(self, passcode: Union[str, bytes, bytearray]) -> None:
        """Set or replace the passcode, engaging the lock
        (``idlelock_set_passcode``). A ``str`` is encoded as UTF-8; bytes are
        passed as they are and the library validates them (valid UTF-8,
        1..1024 bytes, at least 4 Unicode scalar values). Compared exactly:
        no Unicode normalization. Runs Argon2id (blocking; the GIL is
        released).

        Raises :class:`InvalidArgumentError` (bad passcode),
        :class:`SessionLockedError` (the session is locked),
        :class:`StorageError` (with a store: not written, or another process
        signed in or out meanwhile; nothing changed),
        :class:`NoMemoryError`, :class:`InternalError`, :class:`TypeError`.
        """
        buf, n = _bytes_copy("passcode", passcode, ctypes.c_char)
        try:
            self._simple_call(_ffi.lib.idlelock_set_passcode, buf, n)
        finally:
            _wipe(buf)

    def unlock(self, passcode: Union[str, bytes, bytearray]) -> Snapshot:
        """Unlock with the passcode (``idlelock_unlock``); also a
        re-authentication check on an unlocked session (it still counts).
        ``str`` is encoded as UTF-8, bytes are passed as they are.

        Raises, in the library's order: :class:`InvalidArgumentError` (bad
        bytes; never counted), :class:`NoPasscodeError`,
        :class:`LockedOutError` (already locked out, or this wrong attempt
        reached ``max_attempts``), :class:`InvalidPasscodeError` (with
        ``attempts_remaining``), :class:`SessionLockedError` (a lock
        overtook the unlock), :class:`StorageError` (with a store: the raised
        count could not be saved, so the passcode was not checked; or the
        reset after a right passcode could not be saved, still locked),
        :class:`NoMemoryError`, :class:`InternalError`.
        Errors carry the snapshot after the call in ``.snapshot``. With a
        store the attempt count and lockout are shared by every process.
        """
        buf, n = _bytes_copy("passcode", passcode, ctypes.c_char)
        try:
            return self._snap_call(_ffi.lib.idlelock_unlock, buf, n)
        finally:
            _wipe(buf)

    # -- biometrics -------------------------------------------------------

    def enable_biometrics(self) -> None:
        """Turn the biometric shortcut on (``idlelock_enable_biometrics``): the
        library makes a random secret, wraps the session key with it and
        hands it to the authenticator's ``store_secret``. Asks
        ``is_available`` first (refreshing
        :attr:`Snapshot.is_biometrics_available`).

        Raises :class:`NoPasscodeError`, :class:`SessionLockedError` (also
        when the session locked while the secret was stored),
        :class:`LockUnavailableError` (no ``authenticator``, not available,
        or ``store_secret`` failed: nothing changed), :class:`StorageError`
        (with a store: the wrap could not be saved; the item is deleted
        again), :class:`NoMemoryError`. An exception from the authenticator
        (other than an :class:`AuthenticationError`) is re-raised after the
        call, with the library's error as its ``__context__``."""
        self._simple_call(_ffi.lib.idlelock_enable_biometrics)

    def disable_biometrics(self) -> None:
        """Turn the biometric shortcut off (``idlelock_disable_biometrics``):
        the library forgets its wrap (saved to the store) and calls the
        authenticator's ``delete_secret``. Nothing to do when it is off.
        Raises :class:`StorageError` (not saved: the shortcut stays on), or
        the exception ``delete_secret`` raised (the shortcut is off
        anyway)."""
        self._simple_call(_ffi.lib.idlelock_disable_biometrics)

    def unlock_with_biometrics(self) -> Snapshot:
        """Unlock through the host authenticator
        (``idlelock_unlock_with_biometrics``): its ``load_secret`` runs the
        check (on this thread, without the library's internal lock: other
        threads keep calling) and the secret it gives back must open the
        shortcut's wrap. Never counts an attempt; success resets the
        attempt count and unlocks (``Reason.NONE``). On an unlocked session
        it serves as a re-authentication. Returns the state after the call.

        Raises, in the library's order: :class:`NoPasscodeError`,
        :class:`LockedOutError` (``load_secret`` is not called),
        :class:`LockUnavailableError` (the shortcut is off or unavailable,
        the check failed or was cancelled, the message says which; or the
        secret no longer opens the wrap, e.g. the enrolment changed: the
        shortcut is then turned off and ``delete_secret`` called; the
        passcode still works), :class:`SessionLockedError` (a lock overtook
        the check, also one made from inside ``load_secret``),
        :class:`StorageError` (with a store: the count reset could not be
        saved, still locked). Errors carry the snapshot in ``.snapshot``.
        An exception ``load_secret`` raised (other than an
        :class:`AuthenticationError`) counts as a failed check and is
        re-raised after the call, the :class:`LockUnavailableError` as its
        ``__context__``."""
        return self._snap_call(_ffi.lib.idlelock_unlock_with_biometrics)

    # -- sign-out ---------------------------------------------------------

    def disable(self) -> None:
        """Sign out (``idlelock_disable``): forget passcode, shortcut, secrets,
        attempt count and lockout; the session is left UNLOCKED and not
        engaged. When the biometric shortcut was on, the authenticator's
        ``delete_secret`` is called (its exception, if any, is re-raised after
        the call; signed out anyway). Works in every state. With a store the file is deleted and
        every process using it is signed out at its next authenticating or
        secret call; raises :class:`StorageError` when the file could not be
        deleted (signed out here anyway: call again)."""
        self._simple_call(_ffi.lib.idlelock_disable)

    # -- listeners --------------------------------------------------------

    def subscribe(self, listener: ListenerCallback) -> int:
        """Call ``listener(snapshot)`` after each change of state, reason or
        flag, in ``seq`` order, one call at a time (``idlelock_subscribe``).
        No snapshot is delivered for the current state: use :meth:`snapshot`.

        The listener runs on the thread of some call on this object (often
        the one that caused the change) and may call this object's methods
        (not :meth:`close`'s destroy: that is deferred). It is kept alive by
        this object while subscribed. If it raises, the exception is caught,
        kept, and raised as :class:`ListenerError` on that thread after the
        outermost call on this object returns (``KeyboardInterrupt`` and
        other non-``Exception`` errors are re-raised as they are).

        Returns the token for :meth:`unsubscribe`. Raises
        :class:`InvalidArgumentError` (already 64 listeners),
        :class:`NoMemoryError`, :class:`TypeError` (not callable).
        """
        if not callable(listener):
            raise TypeError(f"listener must be callable, not {type(listener).__name__}")
        record = _Listener(listener)
        record.thunk = _make_listener_thunk(record, self._tls)
        token = ctypes.c_uint64(0)
        with self._cond:
            self._subscribing.add(record)  # alive even if we are interrupted
        outcome = None
        try:
            outcome = self._call(_ffi.lib.idlelock_subscribe, record.thunk, None, ctypes.byref(token))
        finally:
            with self._cond:
                if outcome is not None:
                    self._subscribing.discard(record)
                    if outcome.status == _ffi.OK and self._handle is not None:
                        record.token = int(token.value)
                        self._listeners[record.token] = record
        self._finish(outcome)
        return record.token

    def unsubscribe(self, token: int) -> None:
        """Remove a listener (``idlelock_unsubscribe``). Returns once no call
        of it runs on another thread; it is never called again afterwards
        (called from inside that listener, the current call finishes).
        Raises :class:`InvalidArgumentError` for a token that is not
        subscribed."""
        if isinstance(token, bool):
            raise TypeError("token must be an int, not bool")
        value = operator.index(token)
        if not 0 <= value <= _ffi.UINT64_MAX:
            raise InvalidArgumentError(f"token: {value} is not a subscribed token")
        outcome = self._call(_ffi.lib.idlelock_unsubscribe, value)
        if outcome.status == _ffi.OK:
            with self._cond:
                record = self._listeners.pop(value, None)
            if record is not None and any(r is record for r in self._tls.delivering):
                # Still running on this thread (it unsubscribed itself):
                # keep its thunk until the outermost call returns.
                self._tls.retired.append(record)
        self._finish(outcome)

    # -- secrets and the gate ---------------------------------------------

    def put_secret(self, name: str, value: Union[bytes, bytearray, memoryview]) -> None:
        """Keep ``value`` (0..65536 bytes) under ``name`` (1..64 bytes of UTF-8,
        no NUL), replacing any earlier value (``idlelock_secret_put``).

        Raises :class:`SessionLockedError` (locked), :class:`InvalidArgumentError`
        (bad name or size, too many secrets), :class:`StorageError` (with a
        store, on an engaged session: not written, nothing changed),
        :class:`TypeError` (``value`` is not bytes-like; a ``str`` value is
        refused: encode it yourself)."""
        name_b = _secret_name(name)
        if isinstance(value, str) or not isinstance(value, (bytes, bytearray, memoryview)):
            raise TypeError(f"secret value must be bytes-like, not {type(value).__name__}")
        buf, n = _bytes_copy("value", value, ctypes.c_uint8)
        try:
            self._simple_call(_ffi.lib.idlelock_secret_put, name_b, buf if n else None, n)
        finally:
            _wipe(buf)

    def get_secret(self, name: str) -> bytes:
        """The secret ``name`` (``idlelock_secret_get``; a too-small buffer is
        retried with the size the library asks for).

        Raises :class:`NotFoundError` (also a ``KeyError``),
        :class:`SessionLockedError`, :class:`InvalidArgumentError`,
        :class:`InternalError`."""
        name_b = _secret_name(name)
        size = 1024
        for _ in range(16):
            buf = (ctypes.c_uint8 * max(size, 1))()
            length = ctypes.c_size_t(size)
            try:
                outcome = self._call(_ffi.lib.idlelock_secret_get, name_b, buf, ctypes.byref(length))
                if (
                    outcome.status == _ffi.ERR_BUFFER_TOO_SMALL
                    and outcome.clock_error is None
                    and outcome.auth_error is None
                    and not outcome.listener_errors
                    and length.value > size
                ):
                    size = int(length.value)
                    continue  # grown, or growing on another thread: retry
                self._finish(outcome)
                return ctypes.string_at(buf, length.value)
            finally:
                _wipe(buf)
        raise BufferTooSmallError("get_secret: the secret kept growing while it was read")

    def remove_secret(self, name: str) -> None:
        """Forget the secret ``name`` (``idlelock_secret_remove``).
        Raises :class:`NotFoundError`, :class:`SessionLockedError`,
        :class:`InvalidArgumentError`, :class:`StorageError` (with a store,
        on an engaged session: not written, nothing changed)."""
        self._simple_call(_ffi.lib.idlelock_secret_remove, _secret_name(name))

    def require_unlocked(self) -> None:
        """The gate for protected work (``idlelock_require_unlocked``): returns
        when the session is unlocked (or not engaged) after judging the
        deadlines; raises :class:`SessionLockedError` otherwise."""
        self._simple_call(_ffi.lib.idlelock_require_unlocked)

# SPDX-License-Identifier: MIT
"""The exceptions: one :class:`IdleLockError` subclass per status code
(``IDLELOCK_ERR_*``), the binding's own (:class:`ClosedError`,
:class:`ListenerError`), and the outcomes an :class:`Authenticator` raises
(:class:`AuthenticationError` and its subclasses)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Type

from . import _ffi
from ._generated import STATUS_CLASSES
from ._words import in_python_words
from .library import status_name

if TYPE_CHECKING:
    from .snapshot import Snapshot


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


class RetryLaterError(IdleLockError):
    """``IDLELOCK_ERR_RETRY_LATER`` (1.1): an escalating delay is running
    after wrong passcodes (``delay_schedule``). The attempt was **not**
    counted and no key derivation ran: try again in :attr:`ms_until_retry`
    milliseconds."""

    STATUS = _ffi.ERR_RETRY_LATER

    @property
    def ms_until_retry(self) -> Optional[int]:
        """Milliseconds until a passcode attempt is accepted again (from the
        snapshot the call filled), or ``None`` when there is no snapshot."""
        return None if self.snapshot is None else self.snapshot.ms_until_retry


class ReauthRequiredError(IdleLockError):
    """``IDLELOCK_ERR_REAUTH_REQUIRED`` (1.2), from
    :meth:`IdleLock.require_recent_auth`: the session is unlocked, but its
    last successful authentication is older than the caller allows (or
    there was none on this lock). Ask the user again (:meth:`IdleLock.unlock`
    or the biometric shortcut on the unlocked session), then check again."""

    STATUS = _ffi.ERR_REAUTH_REQUIRED


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
# What an Authenticator raises (biometric shortcut)
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


# --------------------------------------------------------------------------
# Status codes to exceptions
# --------------------------------------------------------------------------

# Each status's class, by the name bindings/names.txt's rule gives it
# (generated into _generated.STATUS_CLASSES).
_ERRORS: Dict[int, Type[IdleLockError]] = {status: globals()[name] for status, name in STATUS_CLASSES.items()}


def _error_for(status: int, message: str, snapshot: Optional[Snapshot]) -> IdleLockError:
    """The exception for a library failure; ``message`` is the library's
    (``idlelock_last_error()``), told in this binding's words."""
    cls = _ERRORS.get(status, IdleLockError)
    return cls(in_python_words(message), status=status, snapshot=snapshot)

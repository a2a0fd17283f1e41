# SPDX-License-Identifier: MIT
"""Biometrics for hosts told the result of their check later (1.2): the
two-phase pair ``idlelock_biometric_begin`` / ``idlelock_biometric_finish``
as a :class:`BiometricRequest` object, and coroutines for asyncio hosts.

An Android ``BiometricPrompt`` answers through a callback, an iOS Keychain
read with ``biometryCurrentSet`` completes on another queue, a web or
Flutter check is a future: no synchronous :class:`Authenticator` fits.
Such a host begins a request (:meth:`IdleLock.begin_biometric_unlock`,
:meth:`IdleLock.begin_biometric_enable`), runs its check however it likes,
and finishes the request with the outcome (:meth:`BiometricRequest.finish`).
No :class:`Authenticator` is needed for it."""

from __future__ import annotations

import asyncio
import ctypes
import threading
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional, Union

from . import _ffi
from ._options import _wipe
from .errors import (
    AuthenticationCancelled,
    AuthenticationError,
    AuthenticationFailed,
    AuthenticatorUnavailable,
    ClosedError,
    InvalidArgumentError,
    LockUnavailableError,
)
from .snapshot import Snapshot, _NamedIntEnum

if TYPE_CHECKING:  # pragma: no cover
    from .lock import IdleLock

__all__ = [
    "AuthResult",
    "BiometricPurpose",
    "BiometricRequest",
]


class AuthResult(_NamedIntEnum):
    """The outcome a host reports with :meth:`BiometricRequest.finish`
    (``IDLELOCK_AUTH_*``). ``str()`` is the name."""

    OK = _ffi.AUTH_OK
    """The check passed (an unlock gives the released secret; an enable
    confirms the secret is stored behind the check)."""
    FAILED = _ffi.AUTH_FAILED
    """The check failed (a locked-out sensor, too many wrong fingers)."""
    CANCELLED = _ffi.AUTH_CANCELLED
    """The user or the system cancelled the prompt."""
    UNAVAILABLE = _ffi.AUTH_UNAVAILABLE
    """No item, no enrolment, no hardware (an enrolment change that
    invalidated the key: call :meth:`IdleLock.disable_biometrics` too)."""


class BiometricPurpose(_NamedIntEnum):
    """What a request is for (``IDLELOCK_BIOMETRIC_*``)."""

    UNLOCK = _ffi.BIOMETRIC_UNLOCK
    ENABLE = _ffi.BIOMETRIC_ENABLE


SecretLike = Union[bytes, bytearray, memoryview]

# Who owns a request's outcome: the first of the host's answer
# (finish), the caller's cancellation (cancel) and the lock's close to
# claim it; see BiometricRequest._claim.
_OPEN, _ANSWERED, _CANCELLED, _CLOSED = range(4)


class BiometricRequest:
    """An open biometric request: the one-time token the library handed out
    at begin, bound to its :class:`IdleLock`.

    While it is open, its prompt defers the rules as :meth:`IdleLock.prompt`
    does (within ``prompt_cap_ms``; a lock makes it inert). It lives
    ``prompt_cap_ms`` from the begin: a finish after that unlocks nothing
    (:class:`LockUnavailableError`, "expired"). A sign-out
    (:meth:`IdleLock.disable`), a new passcode and
    :meth:`IdleLock.disable_biometrics` void every open request; finishing
    a voided, already finished or foreign token raises
    :class:`InvalidArgumentError` and changes nothing. At most
    :data:`BIOMETRIC_REQUESTS_MAX` (8) are open on a lock at once.

    Use it as a context manager to make sure it is finished: a request
    still open when the ``with`` block ends is finished as cancelled.

    :attr:`secret` (enable requests only) is the new random secret to keep
    behind the biometric check: a ``bytearray`` of 32 bytes that the binding
    wipes when the request finishes (keep your own copy only in the
    keystore). Thread: any; a request may be finished on another thread
    than the one that began it.

    A finish and a :meth:`cancel` racing each other (two threads): whichever
    claims the request first owns its outcome. A cancel that reports
    success (returns a snapshot) means the answer unlocked nothing: the
    finish that comes then raises :class:`InvalidArgumentError` and its
    secret is wiped. An answer that reached the library first makes the
    cancel report failure: it returns ``None``.

    :meth:`IdleLock.close` ends every open request: its :attr:`secret` is
    wiped, :meth:`finish` raises :class:`ClosedError`, :meth:`cancel`
    returns ``None``. A request dropped unfinished wipes its
    :attr:`secret` when it is collected (the library's request then ends
    at ``prompt_cap_ms``: cancel a request you no longer need)."""

    def __init__(self, lock: "IdleLock", purpose: BiometricPurpose, token: int,
                 secret: Optional[bytearray], snapshot: Snapshot) -> None:
        self._lock = lock
        self._purpose = purpose
        self._token = token
        self._secret = secret
        self._snapshot = snapshot
        self._finished = False
        self._state = _OPEN
        self._guard = threading.Lock()

    @property
    def purpose(self) -> BiometricPurpose:
        return self._purpose

    @property
    def token(self) -> int:
        """The library's token (64 random bits, never 0)."""
        return self._token

    @property
    def secret(self) -> Optional[bytearray]:
        """Enable requests: the secret to keep behind the biometric check
        (wiped at finish); ``None`` for unlock requests."""
        return self._secret

    @property
    def snapshot(self) -> Snapshot:
        """The state after the begin."""
        return self._snapshot

    @property
    def finished(self) -> bool:
        """``True`` once :meth:`finish` or :meth:`cancel` reached the
        library (whatever it answered, except a bad argument: the request
        then stays open), or the lock was closed."""
        return self._finished

    def _claim(self, by: int) -> bool:
        """The one decision point: the answer (``_ANSWERED``), the caller's
        cancellation (``_CANCELLED``) or the lock's close (``_CLOSED``)
        claims the request; true when ``by`` owns it (now or already)."""
        with self._guard:
            if self._state == _OPEN:
                self._state = by
            return self._state == by

    def finish(self, secret: Optional[SecretLike] = None, *,
               result: AuthResult = AuthResult.OK) -> Snapshot:
        """End the request with the host's outcome
        (``idlelock_biometric_finish``) and return the state after it.

        For an unlock request that passed, give the ``secret`` the check
        released (32 bytes-like; copied into a buffer the binding wipes
        after the call: wipe your own copy, e.g. pass a ``bytearray`` and
        clear it). For an enable request, ``finish()`` confirms the secret
        is stored. Any other ``result`` takes no secret.

        The request's prompt ends as every prompt ends (the deadlines are
        judged first, then the end is activity while unlocked). Raises
        :class:`LockUnavailableError` (the check failed, was cancelled, is
        unavailable, the request expired, a passcode policy requires the
        passcode, or the secret does not open the shortcut: the shortcut is
        then off; the message says which), :class:`SessionLockedError` (a
        lock after the begin wins over a success; for an enable: delete
        what you stored), :class:`StorageError`,
        :class:`InvalidArgumentError` (a secret of the wrong length, a
        result that is not an :class:`AuthResult`, a token no longer open:
        nothing changed), :class:`TypeError`. Errors carry ``.snapshot``.
        """
        if isinstance(result, bool) or not isinstance(result, int):
            raise TypeError(f"result must be an AuthResult, not {type(result).__name__}")
        if int(result) not in (r.value for r in AuthResult):
            raise InvalidArgumentError(f"result: {int(result)} is not an AuthResult (IDLELOCK_AUTH_*)")
        view: Optional[memoryview] = None
        n = 0
        if secret is not None:
            if isinstance(secret, str) or not isinstance(secret, (bytes, bytearray, memoryview)):
                raise TypeError(f"secret must be bytes-like, not {type(secret).__name__}")
            view = memoryview(secret)
            n = view.nbytes
            if n != _ffi.AUTH_SECRET_BYTES:
                raise InvalidArgumentError(
                    f"secret: {n} bytes; the biometric secret is {_ffi.AUTH_SECRET_BYTES} bytes"
                )
        if not self._claim(_ANSWERED):
            raise self._refusal()
        return self._finish(int(result), view, n)

    def _refusal(self) -> InvalidArgumentError:
        """What a finish raises when the cancellation or the close owns the request."""
        if self._state == _CLOSED:
            return ClosedError("this IdleLock is closed")
        return InvalidArgumentError(
            "token: this biometric request was cancelled before the answer came; the answer "
            "unlocks nothing: begin a new request"
        )

    def _finish(self, result: int, view: Optional[memoryview], n: int) -> Snapshot:
        """``idlelock_biometric_finish`` for whoever owns the request; the
        secret's copy for C is wiped after the call."""
        buf: Any = None
        if view is not None:
            buf = (ctypes.c_uint8 * n).from_buffer_copy(view.tobytes() if not view.c_contiguous else view)
        try:
            return self._lock._biometric_finish(self, result, buf, n)
        finally:
            if buf is not None:
                _wipe(buf)

    def cancel(self) -> Optional[Snapshot]:
        """Finish the request as cancelled, if it is still open: for a
        screen that goes away without an answer. The library's
        ``LOCK_UNAVAILABLE`` ("cancelled") is the expected answer and is not
        raised; other errors are. Returns the state after it (the answer
        unlocks nothing: a finish after it raises
        :class:`InvalidArgumentError`), or ``None`` when there was nothing
        to finish: the request was finished (an answer that reached the
        library first, even on another thread at this moment), voided, or
        its lock closed."""
        if self._finished or not self._claim(_CANCELLED):
            return None
        try:
            return self._finish(int(AuthResult.CANCELLED), None, 0)
        except LockUnavailableError as error:
            return error.snapshot
        except InvalidArgumentError:  # voided, or closed (ClosedError) meanwhile
            return None

    def _done(self) -> None:
        self._finished = True
        if self._secret is not None:
            self._secret[:] = bytes(len(self._secret))
        self._lock._forget_request(self)

    def _lock_closed(self) -> None:
        """The lock was closed: the request can never be finished; its
        secret is wiped now."""
        self._claim(_CLOSED)
        self._finished = True
        if self._secret is not None:
            self._secret[:] = bytes(len(self._secret))

    def __del__(self) -> None:
        # Dropped unfinished: its secret goes with it, even where the host
        # kept the array (the library's request expires at prompt_cap_ms).
        secret = getattr(self, "_secret", None)
        if secret is not None:
            secret[:] = bytes(len(secret))

    def __enter__(self) -> "BiometricRequest":
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._finished and not self._lock.closed:
            self.cancel()

    def __repr__(self) -> str:
        state = "finished" if self._finished else "open"
        return f"<idlelock.BiometricRequest {self._purpose} {state}>"


# --------------------------------------------------------------------------
# asyncio
# --------------------------------------------------------------------------

_OUTCOMES = (
    (AuthenticationCancelled, AuthResult.CANCELLED),
    (AuthenticatorUnavailable, AuthResult.UNAVAILABLE),
    (AuthenticationFailed, AuthResult.FAILED),
    (AuthenticationError, AuthResult.FAILED),
)


def _outcome_of(error: AuthenticationError) -> AuthResult:
    for kind, result in _OUTCOMES:
        if isinstance(error, kind):
            return result
    return AuthResult.FAILED  # pragma: no cover - AuthenticationError is last


def _finish_quietly(request: BiometricRequest, result: AuthResult) -> None:
    """Finish with a failure outcome whose LOCK_UNAVAILABLE is expected:
    the caller re-raises its own exception instead."""
    if request.finished:
        return
    try:
        request.finish(result=result)
    except LockUnavailableError:
        pass
    except InvalidArgumentError:  # no longer open: cancelled, voided, or the lock closed
        pass


def _wipe_late(value: Any) -> None:
    """Wipe a writable bytes-like answer that came after the caller gave
    up (``bytes`` cannot be wiped)."""
    try:
        if isinstance(value, bytearray):
            value[:] = bytes(len(value))
        elif isinstance(value, memoryview) and not value.readonly:
            flat = value.cast("B") if value.c_contiguous else None
            if flat is not None:
                flat[:] = bytes(flat.nbytes)
    except (TypeError, ValueError):  # pragma: no cover - a view that cannot be written
        pass


def _abandon(host: "asyncio.Future[Any]", on_late_result: Optional[Callable[[Any], None]]) -> None:
    """The caller no longer waits for the host's part: ask it to stop, and
    whenever it ends anyway (or now, if it already has), take its outcome
    so that nothing of it is used or reported (an exception is retrieved,
    a secret is wiped, a late result handed to ``on_late_result``)."""

    def ended(future: "asyncio.Future[Any]") -> None:
        if future.cancelled():
            return
        error = future.exception()  # retrieved: the loop does not report it
        if error is not None:
            return
        value = future.result()
        if on_late_result is not None:
            on_late_result(value)
        _wipe_late(value)

    if host.done():  # it answered, but the caller gave up first
        ended(host)
        return
    host.add_done_callback(ended)
    host.cancel()


def _on_loop(loop: "asyncio.AbstractEventLoop") -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


async def _host_part(request: BiometricRequest, part: Awaitable[Any],
                     on_late_result: Optional[Callable[[Any], None]] = None) -> Any:
    """Awaits the host's part of `request` and returns its value. An
    AuthenticationError finishes the request with its outcome (the
    library's LockUnavailableError propagates); any other exception
    finishes it as failed and propagates.

    Cancellation ends this at once, whatever the host's part does with it:
    the part runs as its own task that this coroutine only watches, so a
    platform call that ignores cancellation, or never answers, cannot hold
    the caller. The request is finished as cancelled right away, the part
    is asked to stop, and whatever it answers later (or answered just
    before the cancellation was seen) is ignored: a secret in a
    ``bytearray`` is wiped; ``on_late_result`` sees a late success first.
    The lock's close() ends it the same way, with ClosedError, from any
    thread."""
    try:
        host = asyncio.ensure_future(part)
    except TypeError:
        _finish_quietly(request, AuthResult.FAILED)
        raise
    loop = asyncio.get_running_loop()
    waiter: "asyncio.Future[None]" = loop.create_future()

    def answered(_: Any) -> None:
        if not waiter.done():
            waiter.set_result(None)

    def closed() -> None:
        # IdleLock.close(), on any thread: end the wait on the loop's thread.
        def end() -> None:
            if not waiter.done():
                waiter.set_exception(ClosedError(
                    "the IdleLock was closed before this biometric request finished"))
        if _on_loop(loop):
            end()
        else:
            try:
                loop.call_soon_threadsafe(end)
            except RuntimeError:  # pragma: no cover - the loop is closed: nobody waits
                pass

    host.add_done_callback(answered)
    lock = request._lock
    if not lock._host_waits(closed):
        closed()
    try:
        await waiter
    except asyncio.CancelledError:
        # This task was cancelled: do not wait for the host.
        _abandon(host, on_late_result)
        request.cancel()
        raise
    except ClosedError:
        _abandon(host, on_late_result)
        raise
    finally:
        lock._host_done(closed)
    try:
        return host.result()
    except AuthenticationError as error:
        request.finish(result=_outcome_of(error))  # raises LockUnavailableError
        raise  # pragma: no cover - a failure outcome never finishes OK
    except asyncio.CancelledError:
        # The host's own task was cancelled (by the host): a cancelled check.
        request.cancel()
        raise
    except BaseException:
        _finish_quietly(request, AuthResult.FAILED)
        raise


def _started(request: BiometricRequest, host: Callable[[Any], Any], argument: Any) -> Any:
    """``host(argument)``: the awaitable of the host's part. A host that
    raises before it returns one (a plain function, a callable that
    fails) has failed its part: the request is finished as failed (an
    ENABLE secret is wiped with it) before the error propagates, so no
    request is left open."""
    try:
        return host(argument)
    except BaseException:
        _finish_quietly(request, AuthResult.FAILED)
        raise


async def unlock_with_biometrics_async(
    lock: "IdleLock", check: Callable[[BiometricRequest], Awaitable[SecretLike]]
) -> Snapshot:
    """See :meth:`IdleLock.unlock_with_biometrics_async`."""
    request = lock.begin_biometric_unlock()
    secret = await _host_part(request, _started(request, check, request))
    try:
        if secret is None or isinstance(secret, str) or not isinstance(secret, (bytes, bytearray, memoryview)):
            _finish_quietly(request, AuthResult.FAILED)
            raise TypeError(f"check must return the released secret as bytes, not {type(secret).__name__}")
        return request.finish(secret)
    finally:
        _wipe_late(secret)  # handed over: the library has its own copy, or refused it


async def _quietly(part: Awaitable[Any]) -> None:
    """Await a clean-up nobody waits for; its exception goes nowhere
    (there is no caller left to raise it to)."""
    try:
        await part
    except Exception:  # noqa: BLE001
        pass


async def enable_biometrics_async(
    lock: "IdleLock",
    store: Callable[[bytearray], Awaitable[None]],
    delete: Optional[Callable[[], Awaitable[None]]] = None,
) -> Snapshot:
    """See :meth:`IdleLock.enable_biometrics_async`."""
    request = lock.begin_biometric_enable()
    secret = request.secret
    assert secret is not None

    def stored_too_late(_: Any) -> None:
        # The keystore saved the item after the caller gave up: the
        # shortcut was never turned on, so the item must go.
        if delete is not None:
            asyncio.ensure_future(_quietly(delete()))

    await _host_part(request, _started(request, store, secret), stored_too_late)
    try:
        return request.finish()
    except BaseException:
        # Stored, but the library did not take it (a lock after the begin):
        # the item must go.
        if delete is not None:
            await delete()
        raise

# SPDX-License-Identifier: MIT
"""The ctypes thunks the library calls back: listeners, the clock and the
four authenticator callbacks. Each catches everything (nothing unwinds
into C) and keeps the exception for the binding call on the same thread,
which re-raises it once the C call returns. Private: use :mod:`idlelock`."""

from __future__ import annotations

import ctypes
import operator
import os
import sys
import threading
import traceback
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple

from . import _ffi
from .errors import AuthenticationCancelled, AuthenticationError, AuthenticatorUnavailable
from .snapshot import Snapshot

if TYPE_CHECKING:
    from .authenticator import Authenticator


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
    """A subscribed listener: the host's callable and the ctypes thunk the
    library calls. ``callback`` becomes ``None`` when the lock is closed (or
    the listener unsubscribed): the thunk then returns at once, so nothing
    of the host's runs after :meth:`IdleLock.close` returned, even when the
    library is still finishing a delivery."""

    __slots__ = ("callback", "thunk", "token", "__weakref__")

    def __init__(self, callback: Callable[[Snapshot], object]) -> None:
        self.callback: Optional[Callable[[Snapshot], object]] = callback
        self.thunk: Any = None
        self.token = 0


# -- thunks the library may still be running ---------------------------------
#
# A ctypes thunk must outlive every C frame that calls it: freeing one while
# the library is inside it (a listener that closed its own lock on the
# watcher thread, or whose IdleLock the garbage collector finalised there)
# would return into freed memory. Such thunks go to the graveyard instead of
# being dropped, tagged with the thread that may still be running them, and
# are freed once that thread runs none of our trampolines any more (checked
# at the next trampoline it enters with nothing of ours on its stack) or has
# ended (its /proc/self/task entry is gone).

_running = threading.local()  # .depth: trampolines of any lock running on this thread
_graveyard: List[Tuple[int, int, Any]] = []  # (thread ident, native id, what to keep)
_graveyard_guard = threading.Lock()


def _running_depth() -> int:
    return getattr(_running, "depth", 0)


def _bury(keep: Any) -> None:
    """Keep ``keep`` (thunks, records) alive until no trampoline of ours
    runs on this thread any more, or the thread has ended."""
    entry = (threading.get_ident(), threading.get_native_id(), keep)
    with _graveyard_guard:
        _graveyard.append(entry)
    _prune()


def _prune() -> None:
    """Free what no thread can still be running. Cheap when there is
    nothing buried (one list truth test)."""
    if not _graveyard:
        return
    here = threading.get_ident()
    busy_here = _running_depth() > 0
    with _graveyard_guard:
        kept = []
        for entry in _graveyard:
            ident, native, _ = entry
            if ident == here:
                alive = busy_here
            else:
                alive = os.path.exists(f"/proc/self/task/{native}") if sys.platform.startswith("linux") else True
            if alive:
                kept.append(entry)
        _graveyard[:] = kept


def _make_listener_thunk(record: _Listener, tls: _ThreadState) -> Any:
    def trampoline(ctx: Any, snap_p: Any) -> None:
        # Never let anything unwind into C.
        callback = None
        try:
            if _graveyard and _running_depth() == 0:
                _prune()
            callback = record.callback
            if callback is None or not snap_p:
                return  # closed or unsubscribed: nothing of the host's runs
            snapshot = Snapshot._from_struct(snap_p.contents)
            tls.delivering.append(record)
            _running.depth = _running_depth() + 1
            try:
                callback(snapshot)
            finally:
                _running.depth -= 1
                tls.delivering.pop()
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            try:
                if tls.depth > 0:
                    # Inside a binding call on this thread: re-raised there
                    # once the outermost call returns.
                    tls.listener_errors.append(exc)
                else:
                    # No binding call to raise it from: the watcher
                    # thread, or a touch() that was already running when
                    # this listener was subscribed.
                    _report_unraisable(exc, callback)
            except BaseException:  # pragma: no cover - out of memory
                pass

    return _ffi.LISTENER_FN(trampoline)


def _report_unraisable(exc: BaseException, callback: Any) -> None:
    """Hand a listener's exception that no call can raise to
    :func:`sys.unraisablehook` (by default: a traceback on stderr)."""
    hook = getattr(sys, "unraisablehook", None)
    if hook is None:  # pragma: no cover - interpreter shutdown
        return
    args = _UnraisableArgs(
        type(exc), exc, exc.__traceback__,
        "Exception ignored in an idlelock listener that ran outside any "
        "IdleLock call on its thread (the watcher thread)", callback,
    )
    hook(args)


class _UnraisableArgs:
    """What :func:`sys.unraisablehook` receives (the shape of
    ``sys.UnraisableHookArgs``, which cannot be built from Python)."""

    __slots__ = ("exc_type", "exc_value", "exc_traceback", "err_msg", "object")

    def __init__(self, exc_type: Any, exc_value: Any, exc_traceback: Any,
                 err_msg: str, obj: Any) -> None:
        self.exc_type = exc_type
        self.exc_value = exc_value
        self.exc_traceback = exc_traceback
        self.err_msg = err_msg
        self.object = obj


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

    def returns_none(method: str, call: Callable[[], object], secret_bearing: bool) -> int:
        """Run ``call``, an Authenticator method that must return ``None``:
        0, or 1 when it raised or returned something else (kept for the
        binding call on this thread, like every callback error)."""
        try:
            result = call()
            if result is not None:
                raise TypeError(
                    f"Authenticator.{method} must return None (raise to fail), "
                    f"not {type(result).__name__}"
                )
            return 0
        except AuthenticationError:
            return 1
        except BaseException as exc:  # noqa: BLE001 - re-raised after the call
            _record_auth_error(tls, exc, secret_bearing)
            return 1

    def store_secret(ctx: Any, secret_p: Any, length: int) -> int:
        if not secret_p:  # a ctypes pointer's truth value cannot raise
            return 1

        def call() -> object:
            secret = ctypes.string_at(secret_p, length)
            try:
                return auth.store_secret(secret)
            finally:
                del secret

        return returns_none("store_secret", call, True)

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
        return returns_none("delete_secret", auth.delete_secret, False)

    struct = _ffi.AuthenticatorStruct()
    struct.size = ctypes.sizeof(struct)
    struct.reserved0 = 0
    struct.ctx = None
    struct.is_available = _ffi.AUTH_IS_AVAILABLE_FN(is_available)
    struct.store_secret = _ffi.AUTH_STORE_SECRET_FN(store_secret)
    struct.load_secret = _ffi.AUTH_LOAD_SECRET_FN(load_secret)
    struct.delete_secret = _ffi.AUTH_DELETE_SECRET_FN(delete_secret)
    return struct

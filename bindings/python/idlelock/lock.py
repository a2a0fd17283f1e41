# SPDX-License-Identifier: MIT
"""The lock: :class:`IdleLock` (``idlelock_create`` / ``idlelock_destroy``
and a method per call of the header) and the :class:`Prompt` context
manager of :meth:`IdleLock.prompt`."""

from __future__ import annotations

import ctypes
import operator
import os
import threading
import weakref
from typing import (
    Any,
    Awaitable,
    Callable,
    Dict,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Literal,
    Union,
    overload,
)

from . import _ffi
from . import biometric as _biometric
from ._callbacks import (
    _bury,
    _Listener,
    _make_authenticator,
    _make_clock_thunk,
    _make_listener_thunk,
    _ThreadState,
)
from ._options import (
    DEFAULT,
    SAME_AS_IDLE,
    _bad,
    _biometric_max_uses,
    _bytes_copy,
    _check_device_key,
    _delay_schedule,
    _Duration,
    _duration,
    _passcode_max_age,
    _platform,
    _prompt_cap,
    _ranged,
    _recent_auth_max_age,
    _secret_name,
    _Sentinel,
    _state_name,
    _store_path,
    _token,
    _unlock_reason,
    _wipe,
)
from .authenticator import Authenticator
from .biometric import AuthResult, BiometricPurpose, BiometricRequest
from .errors import (
    BufferTooSmallError,
    ClosedError,
    IdleLockError,
    InvalidArgumentError,
    ListenerError,
    _error_for,
)
from .snapshot import Platform, Snapshot


_NO_ERRORS: List[BaseException] = []  # shared, never appended to


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


class Prompt:
    """What :meth:`IdleLock.prompt` returns: a context manager that opens a
    prompt on enter and ends it on exit, even when the body raises.

    ``with lock.prompt() as p:`` binds the :class:`Prompt`; :attr:`token` is
    the open prompt's token (``None`` outside the ``with`` block).
    """

    __slots__ = ("_lock", "_token", "_opening", "_guard")

    def __init__(self, lock: "IdleLock") -> None:
        self._lock = lock
        self._token: Optional[int] = None
        self._opening = False
        self._guard = threading.Lock()

    @property
    def token(self) -> Optional[int]:
        """The token of the open prompt, or ``None`` when none is open."""
        return self._token

    def __enter__(self) -> "Prompt":
        with self._guard:
            if self._token is not None or self._opening:
                raise RuntimeError("this Prompt is already open; use lock.prompt() for another")
            self._opening = True
        try:
            token = self._lock.prompt_begin()  # not under the guard: listeners may run
        finally:
            with self._guard:
                self._opening = False
        with self._guard:
            self._token = token
        return self

    def __exit__(self, *exc: Any) -> None:
        with self._guard:
            token, self._token = self._token, None
        if token is None:
            return
        try:
            self._lock.prompt_end(token)
        except ClosedError:
            # The handle was destroyed in the body: its prompts went with it.
            pass

    def __repr__(self) -> str:
        state = "closed" if self._token is None else f"open, token {self._token}"
        return f"<idlelock.Prompt {state}>"


_TOUCH = _ffi.touch_fast


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
        needs UTF-8 of at most 4000 bytes, whose file name after the last
        slash is at most 244 bytes; a relative path is made absolute
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
    :param prompt_cap_ms: how long prompts the app opened itself
        (:meth:`prompt`, :meth:`prompt_begin`) can defer the rules, counted
        from the earliest prompt still open; 0..600000
        (:data:`PROMPT_CAP_MAX_MS`), library default 120000. 0 makes
        prompts defer nothing.
    :param warn_before_ms: ``0`` (the library default: off) or 1 ms up to
        ``idle_after_ms - 1``: :attr:`Snapshot.is_warning` opens this long
        before the idle lock (listeners hear it), so the host can save a
        draft or ask "still there?"; activity ends it.
    :param delay_schedule: ``None`` (default): no delays. Otherwise
        escalating delays after wrong passcodes: a list of
        ``(failed_attempts, delay_ms)`` pairs (once that many wrong
        passcodes are counted, :meth:`unlock` is refused with
        :class:`RetryLaterError` for ``delay_ms``), at most 32 steps,
        ``failed_attempts`` strictly increasing in 1..``max_attempts``-1,
        ``delay_ms`` in 1..86400000 and never decreasing; or the string
        ``"ios"`` for the library's iOS-like preset
        (:func:`ios_delay_schedule`: 5 wrong: 1 min, 6: 5 min, 7: 15 min,
        9: 1 h), which needs ``max_attempts=10`` (its last step is at 9).
        An empty list means no delays. The steps are copied into a C array
        that lives only for the creation call (the library keeps its own
        copy). With a store, the delay an attempt would start is saved
        with its count before the check; it is restarted in full (never
        forgiven) at each creation, in another process that meets it, and
        at a clock step; ``max_attempts`` still ends in a lockout, and a
        right passcode or a biometric unlock resets the count.
    :param passcode_after_reboot: ``bool`` (1.2; library default False):
        with a ``store_path``, the first unlock after the device restarted
        must be by passcode (the biometric shortcut raises
        :class:`LockUnavailableError` until then), as iOS and Android
        require. The store knows the boot of the last passcode entry.
    :param passcode_max_age_ms: 0 (1.2; the library default: off) or 1 hour
        .. 30 days in ms: the biometric shortcut is refused once the last
        passcode entry is this old, measured on the lock's clock (an entry
        from another boot, or one a clock step made unknown, counts as too
        old).
    :param biometric_max_uses: 0 (1.2; the library default: off) or
        1..1000: after that many biometric unlocks in a row
        (re-authentications included), the next unlock needs the passcode.
        With a store, the policies' state (the last passcode entry, the
        count) is shared by every process; each lock applies its own
        options. :attr:`Snapshot.is_passcode_required` says when a policy
        refuses the shortcut (listeners hear it change).
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
    negative, NaN, infinite, too big for the C field, a ``prompt_cap_ms``
    over 600000, a ``warn_before_ms`` not below ``idle_after_ms``, a
    ``delay_schedule`` step out of range or order; a ``store_path`` with a NUL; a ``device_key`` that is not 32 bytes; an ``unlock_reason`` over 512
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
        prompt_cap_ms: Union[int, _Sentinel] = DEFAULT,
        warn_before_ms: Union[int, _Sentinel] = DEFAULT,
        delay_schedule: Union[None, str, Iterable[Sequence[int]]] = None,
        passcode_after_reboot: Union[bool, _Sentinel] = DEFAULT,
        passcode_max_age_ms: Union[int, _Sentinel] = DEFAULT,
        biometric_max_uses: Union[int, _Sentinel] = DEFAULT,
    ) -> None:
        # The handle, twice: as a ctypes pointer (the slow path, with the
        # errcheck'd declarations) and as a plain address (touch()'s fast
        # path). Both are None once close() began. A call appends to
        # _inflight *before* it reads either, and close() clears them
        # *before* it looks at _inflight: so close() either sees the call
        # in flight (and leaves the destroy to the last call out, through
        # _doomed) or the call reads None (and never reaches C with a
        # freed handle; a NULL handle is INVALID_ARGUMENT, never a crash).
        self._handle: Any = None
        self._address: Optional[int] = None
        self._inflight: List[None] = []
        self._doomed: Any = None
        self._closed = True
        self._cond = threading.Condition(threading.RLock())
        self._destroyed = False
        # True while touch() may take its fast path: no Python clock, no
        # listener subscribed or being subscribed, not closed.
        self._fast = False
        self._tls = _ThreadState()
        self._listeners: Dict[int, _Listener] = {}
        self._subscribing: Set[_Listener] = set()
        # Open biometric requests (weakly: a request the host drops wipes
        # its own secret) and the asyncio helpers waiting for the host's
        # part: close() ends them all (secrets wiped, waits ended with
        # ClosedError), whatever the host does.
        self._requests: "weakref.WeakValueDictionary[int, BiometricRequest]" = weakref.WeakValueDictionary()
        self._host_waiting: Set[Callable[[], None]] = set()
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
        opt("prompt_cap_ms", prompt_cap_ms, _prompt_cap)
        opt("warn_before_ms", warn_before_ms,
            lambda v: _duration("warn_before_ms", v, never_ok=False))
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
        if passcode_after_reboot is not DEFAULT:
            if not isinstance(passcode_after_reboot, bool):
                raise TypeError(
                    "passcode_after_reboot must be bool, not "
                    f"{type(passcode_after_reboot).__name__}"
                )
            cfg.passcode_after_reboot = int(passcode_after_reboot)
        opt("passcode_max_age_ms", passcode_max_age_ms, _passcode_max_age)
        opt("biometric_max_uses", biometric_max_uses, _biometric_max_uses)
        if cfg.warn_before_ms > 0 and 0 < cfg.idle_after_ms <= cfg.warn_before_ms:
            raise _bad(
                "warn_before_ms",
                f"{cfg.warn_before_ms} ms must be below idle_after_ms ({cfg.idle_after_ms} ms); "
                "0 turns the warning off",
            )
        steps = [] if delay_schedule is None else _delay_schedule(delay_schedule, cfg.max_attempts)
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
        # The schedule's C copy, too, lives only for the create call.
        steps_buf: Any = None
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
            if steps:
                steps_buf = (_ffi.DelayStep * len(steps))(
                    *[_ffi.DelayStep(attempts, 0, delay) for attempts, delay in steps]
                )
                cfg.delay_schedule = ctypes.cast(steps_buf, ctypes.POINTER(_ffi.DelayStep))
                cfg.delay_schedule_len = len(steps)
            status = _ffi.lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
        finally:
            if key_buf is not None:
                ctypes.memset(key_buf, 0, ctypes.sizeof(key_buf))
            cfg.device_key = None
            cfg.device_key_len = 0
            cfg.store_path = None
            cfg.unlock_reason = None
            cfg.authenticator = None
            cfg.delay_schedule = None
            cfg.delay_schedule_len = 0
            del steps_buf
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
        self._address = ctypes.cast(handle, ctypes.c_void_p).value
        self._closed = False
        self._fast = clock is None
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
        """Call ``fn(handle, *args)`` (an errcheck'd declaration) with the
        per-thread bookkeeping the callbacks need; see :meth:`touch` for the
        path without it."""
        tls = self._tls
        if tls.in_clock:
            raise RuntimeError(
                "the clock must not call into the IdleLock: it runs with the "
                "library's internal lock held"
            )
        inflight = self._inflight
        inflight.append(None)  # before reading the handle: see __init__
        try:
            handle = self._handle
            if handle is None:
                raise ClosedError("this IdleLock is closed")
            tls.depth += 1
            tls.clock_errors.append(None)
            tls.auth_errors.append(None)
            try:
                status = fn(handle, *args)
            finally:
                clock_error = tls.clock_errors.pop()
                auth_error = tls.auth_errors.pop()
                tls.depth -= 1
                listener_errors: List[BaseException] = _NO_ERRORS
                if tls.depth == 0:
                    if tls.listener_errors:
                        listener_errors, tls.listener_errors = tls.listener_errors, []
                    if tls.retired and not tls.delivering:
                        # No C frame of ours is left on this thread:
                        # listeners that unsubscribed themselves can be
                        # freed now.
                        tls.retired.clear()
        finally:
            inflight.pop()
            if self._doomed is not None:
                self._reap()
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

    def _reap(self) -> None:
        """After a call left: destroy the handle close() left to the last
        call in flight, if this was the last one."""
        with self._cond:
            if self._inflight or self._doomed is None:
                return
            handle, self._doomed = self._doomed, None
        self._destroy(handle)

    def _destroy(self, handle: Any) -> None:
        tls = self._tls
        tls.clock_errors.append(None)
        try:
            _ffi.lib.idlelock_destroy(handle)
        finally:
            tls.clock_errors.pop()
        # The C object is gone: once idlelock_destroy has returned the
        # library calls none of our thunks (header, "Destroy and callbacks").
        with self._cond:
            if tls.delivering:
                # Destroyed from inside a listener the watcher thread runs
                # (the only destroy the library lets happen inside a
                # delivery): that listener's thunk is still on this thread's
                # stack, and the library returns through it. Keep every
                # thunk of this handle until this thread is out of our
                # trampolines (not with this object: the garbage collector
                # may be finalising it right here).
                _bury((list(self._listeners.values()), list(self._subscribing),
                       self._clock_thunk, self._auth_struct, self._auth_thunks))
            self._listeners.clear()
            self._subscribing.clear()
            self._clock_thunk = None
            self._clock = None
            self._auth_thunks = ()
            self._auth_struct = None
            self._authenticator = None
            self._destroyed = True
            self._cond.notify_all()

    def _update_fast(self) -> None:
        """With ``_cond`` held: may touch() skip the callback bookkeeping?"""
        self._fast = (
            not self._closed
            and self._clock_thunk is None
            and not self._listeners
            and not self._subscribing
        )

    # -- life cycle -------------------------------------------------------

    def close(self) -> None:
        """Destroy the lock (``idlelock_destroy``): wipe its session key,
        passcode wrap and secrets, and stop the watcher. Idempotent.
        Afterwards every method raises :class:`ClosedError`.

        Threads: when calls are in flight on other threads, waits for them
        to return, then destroys (when none are, it destroys at once).
        Called from a listener (or anything else running inside a call on
        this object on this thread) it returns at once and the handle is
        destroyed when the last call in flight returns; called from a
        listener on the watcher thread with no call in flight, it destroys
        the handle there (the library allows that one case).

        Once it has returned, none of this object's listeners runs again,
        on any thread, not even the rest of a delivery in progress (the
        listener that called it may be followed by others): every
        listener's callable is dropped before the destroy. The ctypes
        trampolines stay alive until no thread can be inside one.

        Biometrics: every open :class:`BiometricRequest` ends (its secret
        wiped; ``finish()`` raises :class:`ClosedError`), and the
        coroutines :meth:`unlock_with_biometrics_async` and
        :meth:`enable_biometrics_async` still waiting for the host's part
        end with :class:`ClosedError`, whatever the host does; what it
        answers later is wiped (a late-stored item deleted).
        """
        cond = getattr(self, "_cond", None)
        if cond is None:
            return
        tls = self._tls
        with cond:
            if self._closed:
                return
            self._closed = True
            self._fast = False
            # Every biometric request ends now: a finish in flight on
            # another thread completes first (the destroy below waits for
            # it); no finish can start any more. The asyncio helpers stop
            # waiting for the host, whatever it does: their coroutines end
            # with ClosedError and a late answer is wiped (a late-stored
            # item deleted).
            requests = list(self._requests.values())
            self._requests.clear()
            waiting, self._host_waiting = list(self._host_waiting), set()
            for request in requests:
                request._lock_closed()
            for end in waiting:
                end()
            # From now on no listener of the host's runs, also not the rest
            # of a delivery in progress on this thread (a listener that
            # closed the lock) or one the library finishes before the
            # destroy below returns: the thunks stay, their callables go.
            for record in self._listeners.values():
                record.callback = None
            for record in self._subscribing:
                record.callback = None
            handle = self._handle
            # Order matters (see __init__): clear the handle, then look at
            # the calls in flight.
            self._handle = None
            self._address = None
            if handle is None:
                return
            # Hand the handle to the last call in flight *before* looking
            # for calls in flight: a call that leaves now reads _doomed
            # after it left, so one of us sees the other.
            self._doomed = handle
            if self._inflight:
                if tls.depth == 0 and not tls.delivering:
                    while not self._destroyed:
                        cond.wait()
                return
            self._doomed = None
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

    @overload
    def touch(self) -> None: ...

    @overload
    def touch(self, snapshot: Literal[False]) -> None: ...

    @overload
    def touch(self, snapshot: Literal[True]) -> Snapshot: ...

    @overload
    def touch(self, snapshot: bool) -> Optional[Snapshot]: ...

    def touch(self, snapshot: bool = False) -> Optional[Snapshot]:
        """User activity (``idlelock_touch``): while locked nothing; otherwise
        judge the deadlines, and if still unlocked, last activity = now
        (which also ends :attr:`Snapshot.is_warning`). Call it on every
        input event.

        Returns ``None``; ``touch(snapshot=True)`` returns the state after
        the call as a :class:`Snapshot` (before 1.1, ``touch()`` always
        did). The plain ``touch()`` is the hot path: on a lock with the
        default clock and no listener subscribed it is one ctypes call with
        a NULL ``out`` and a status check, about as cheap as a bare ctypes
        call (see the README, "Performance"); with a Python clock or
        listeners it takes the general path, which catches their exceptions.

        Raises :class:`ClosedError`; with a store, :class:`StorageError`
        when it locked the session but could not save the lock (the
        session is locked anyway; ``error.snapshot`` is the state read
        right after the failure). Exceptions of the clock and of
        listeners are re-raised as for every call.
        """
        if snapshot or not self._fast:
            return self._touch_general(snapshot)
        inflight = self._inflight
        inflight.append(None)  # before reading the address: see __init__
        try:
            # None once closed: a NULL handle, INVALID_ARGUMENT, no crash.
            status = _TOUCH(self._address, None)
        finally:
            inflight.pop()
        if status or self._doomed is not None:
            self._touch_aftermath(status)
        return None

    def _touch_general(self, snapshot: bool) -> Optional[Snapshot]:
        snap = _ffi.SnapshotStruct()
        snap.size = ctypes.sizeof(snap)
        # The snapshot is filled either way: an error carries it.
        self._finish(self._call(_ffi.lib.idlelock_touch, ctypes.byref(snap)), snap)
        return Snapshot._from_struct(snap) if snapshot else None

    def _touch_aftermath(self, status: int) -> None:
        """touch()'s fast path after something happened: a failure, or a
        close() that left the destroy to this call."""
        message = _ffi.last_error() if status else ""  # read first, on this thread
        if self._doomed is not None:
            self._reap()
        if not status:
            return
        if status == _ffi.ERR_INVALID_ARGUMENT and self._closed:
            raise ClosedError("this IdleLock is closed")
        state: Optional[Snapshot] = None
        if status != _ffi.ERR_INVALID_ARGUMENT:
            try:
                state = self.snapshot()
            except IdleLockError:
                state = None
        raise _error_for(status, message, state)

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
        set to :attr:`Snapshot.ms_until_next_deadline` (ms), or let
        :meth:`watch_start` do it."""
        return self._snap_call(_ffi.lib.idlelock_check)

    def lock(self) -> Snapshot:
        """"Lock now" (``idlelock_lock``): an engaged, unlocked session locks
        with ``Reason.MANUAL``; otherwise nothing."""
        return self._snap_call(_ffi.lib.idlelock_lock)

    def snapshot(self) -> Snapshot:
        """The state now, after judging the deadlines (``idlelock_snapshot_get``).
        Everything a listener hears can also be polled here."""
        return self._snap_call(_ffi.lib.idlelock_snapshot_get)

    # -- the watcher thread -----------------------------------------------

    def watch_start(self) -> None:
        """Start the library's watcher thread (``idlelock_watch_start``), for
        hosts with no event loop (a kiosk program, a game server): it sleeps
        until :attr:`Snapshot.ms_until_next_deadline` and calls
        ``idlelock_check``, so the session locks on time (and the warning
        opens) with no call from the host. Starting a running watcher does
        nothing.

        - Listeners then also run **on the watcher thread** (a thread of
          the library's, not a :class:`threading.Thread`), one at a time
          as always. An exception a listener raises there has no call to be
          re-raised from: it goes to :func:`sys.unraisablehook` (by default
          a traceback on stderr). A listener on the watcher thread may call
          :meth:`close`.
        - It sleeps on ``CLOCK_BOOTTIME``, so it needs the library's
          default clock: on a lock created with ``clock=...`` it is refused
          with :class:`InvalidArgumentError` (call :meth:`check` from your
          own timer at ``ms_until_next_deadline`` instead).
        - :meth:`close` (and so dropping the last reference to this object)
          stops it; keep a reference to the lock while it watches.

        Raises :class:`InvalidArgumentError` (a custom clock),
        :class:`InternalError` (the thread or its file descriptors could not
        be made), :class:`ClosedError`. Thread: any."""
        self._simple_call(_ffi.lib.idlelock_watch_start)

    def watch_stop(self) -> None:
        """Stop the watcher thread and wait for it to end
        (``idlelock_watch_stop``). Called from a listener running on the
        watcher thread it does not wait for itself: the thread ends when
        that listener returns. Stopping a stopped watcher does nothing.
        Raises :class:`ClosedError`. Thread: any."""
        self._simple_call(_ffi.lib.idlelock_watch_stop)

    # -- lifecycle adapters -----------------------------------------------

    def lifecycle(self, platform: Union[Platform, int], state_name: str) -> Snapshot:
        """Report the platform's own app state (``idlelock_lifecycle``): the
        library maps ``state_name`` to :meth:`foreground`, :meth:`inactive`
        or :meth:`background`, so no host maps ``paused`` or ``hidden`` the
        wrong way round (the table is under :class:`Platform`).

        ``platform`` is a :class:`Platform` (a plain ``int`` is passed on as
        it is, for a platform a newer library added). ``state_name`` is the
        platform's exact, case-sensitive spelling as a ``str``: ``"inactive"``,
        ``"ON_STOP"``, ``"hidden"``... A name that carries no presence change
        (Android ``ON_CREATE``, ``ON_START``, ``ON_DESTROY``; Flutter
        ``detached``; React Native ``unknown``, ``extension``) only judges the
        deadlines, as :meth:`check`. Returns the state after the call.

        Raises :class:`InvalidArgumentError` with the library's message for
        a platform or a name the library does not know (it lists the valid
        ones; nothing changed),
        and the binding's own (naming ``state_name`` or ``platform``) for a
        name with a NUL or a lone surrogate, or a platform outside int32;
        :class:`TypeError` for a ``state_name`` that is not a ``str`` or a
        platform that is not an integer. Otherwise what the event it maps
        to raises (:class:`StorageError` with a store when it locked but
        could not save the lock). Thread: any.
        """
        value = _platform(platform)
        name = _state_name(state_name)
        snap = _ffi.SnapshotStruct()
        snap.size = ctypes.sizeof(snap)
        outcome = self._call(_ffi.lib.idlelock_lifecycle, value, name, ctypes.byref(snap))
        self._finish(outcome, snap)
        return Snapshot._from_struct(snap)

    # -- prompts the app opens itself -------------------------------------

    def prompt(self) -> "Prompt":
        """A context manager around a prompt the app opens itself (a file
        picker, the camera, a share sheet, a biometric sheet of its own)::

            with lock.prompt():
                show_file_picker()

        Entering calls :meth:`prompt_begin` and exiting calls
        :meth:`prompt_end`, also when the body raises. While the prompt is
        open the idle rule waits, and an absence that began while it was
        open is presence (last activity = the return) if the app is back
        before the prompt's end plus ``grace_ms``; never past
        ``prompt_cap_ms`` from the earliest prompt still open, after which
        the rules apply as if no prompt had been opened, measured from the
        real departure. A lock makes open prompts inert, and a prompt opened
        on a locked session is inert: a prompt never unlocks or keeps
        unlocked a locked session. Do not wrap an informational dialog: it
        is not a prompt. The library's own biometric check
        (:meth:`unlock_with_biometrics`, and the authenticator's
        ``store_secret`` during :meth:`enable_biometrics`) already counts as
        one, and ends as one whatever it answers: the deadlines are judged
        when it returns before its end counts as activity.

        The :class:`Prompt` can be entered again once it has exited (each
        entry opens a new prompt); entering it while it is open raises
        ``RuntimeError``. Exiting after :meth:`close` ends nothing (the
        prompt went with the handle). Errors are those of
        :meth:`prompt_begin` and :meth:`prompt_end`; when the body raised
        and ``prompt_end`` raises too, the body's exception is the
        ``__context__`` of the one that propagates.
        """
        return Prompt(self)

    def prompt_begin(self) -> int:
        """Open a prompt (``idlelock_prompt_begin``): call just before showing
        a prompt the app opens itself. Judges the deadlines first, so a
        deadline already due locks before the prompt opens (the prompt is
        then inert). Returns its token: a non-zero ``int`` never reused on
        this object, for :meth:`prompt_end`. Prefer :meth:`prompt`, which
        cannot forget the end. Raises :class:`ClosedError`.

        When it raises, no prompt is left open: if the library opened one
        but the call still raises (a :class:`ListenerError`, or the clock's
        exception), the binding ends that prompt at once, since the caller
        never got its token (an orphan would defer the rules up to
        ``prompt_cap_ms``). Thread: any."""
        token = ctypes.c_uint64(0)
        outcome = self._call(_ffi.lib.idlelock_prompt_begin, ctypes.byref(token))
        try:
            self._finish(outcome)
        except BaseException:
            if int(outcome.status) == _ffi.OK and token.value:
                try:
                    # Best effort; what this second call raises is dropped
                    # in favour of the first exception.
                    self._call(_ffi.lib.idlelock_prompt_end, token.value)
                except BaseException:  # noqa: BLE001
                    pass
            raise
        return int(token.value)

    def prompt_end(self, token: int) -> None:
        """End the prompt ``token`` (``idlelock_prompt_end``) once it is gone:
        judges the deadlines, then the end is activity (last activity = now,
        when still unlocked). Every token can be ended once, inert or not.
        Raises :class:`InvalidArgumentError` with the library's message for
        a token never issued on this object or already ended (nothing
        changed), or the binding's for one outside uint64;
        :class:`TypeError` for a non-integer. Thread: any (it may be ended
        on another thread than the one that opened it)."""
        self._simple_call(_ffi.lib.idlelock_prompt_end, _token(token))

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

        With :meth:`watch_start`, listeners also run on the watcher thread,
        outside any call of this object: an exception raised there goes to
        :func:`sys.unraisablehook`; so does one raised while a plain
        :meth:`touch` that was already running when the listener was
        subscribed delivers it. While any listener is subscribed,
        :meth:`touch` takes its general path.

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
            self._fast = False  # before the library can call it
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
                    self._update_fast()
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
            tls = self._tls
            with self._cond:
                record = self._listeners.pop(value, None)
                if record is not None:
                    record.callback = None  # never called again
                if record is not None and any(r is record for r in tls.delivering):
                    # Still running on this thread (it unsubscribed
                    # itself): keep its thunk until the outermost call
                    # returns, or, with no call of ours around it (the
                    # watcher thread), until the thread leaves the delivery.
                    if tls.depth > 0:
                        tls.retired.append(record)
                    else:
                        _bury(record)
                self._update_fast()
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

    def require_recent_auth(self, max_age_ms: int) -> None:
        """The step-up check before a sensitive action (1.2,
        ``idlelock_require_recent_auth``): returns when the session is
        unlocked and its last successful authentication on this lock
        (:attr:`Snapshot.last_auth_ms`: a passcode or biometric unlock, or a
        re-authentication of the unlocked session) is at most ``max_age_ms``
        (1 ms .. 30 days) old.

        Raises :class:`ReauthRequiredError` when it is older or there was
        none (ask again: :meth:`unlock`, or the biometric shortcut, on the
        unlocked session; then check again), :class:`SessionLockedError`
        when locked, :class:`NoPasscodeError` when no passcode is set,
        :class:`InvalidArgumentError` for a ``max_age_ms`` out of range,
        :class:`TypeError`. Android Keystore's authentication validity
        duration and ``LAContext``'s reuse duration work this way."""
        self._simple_call(_ffi.lib.idlelock_require_recent_auth, _recent_auth_max_age(max_age_ms))

    # -- biometrics for asynchronous hosts (1.2) ---------------------------

    def begin_biometric_unlock(self) -> BiometricRequest:
        """Begin a biometric unlock whose result comes later
        (``idlelock_biometric_begin``, ``IDLELOCK_BIOMETRIC_UNLOCK``): show
        the platform's check, then call :meth:`BiometricRequest.finish` with
        the secret it released (or another :class:`AuthResult`). Checks
        what :meth:`unlock_with_biometrics` checks first; no
        :class:`Authenticator` is needed (when one is configured, its
        cached ``is_available`` must be true).

        Raises :class:`NoPasscodeError`, :class:`LockedOutError`,
        :class:`LockUnavailableError` (the shortcut is off, unavailable,
        refused by a passcode policy, or ``prompt_cap_ms`` is 0),
        :class:`InvalidArgumentError` (already 8 requests open),
        :class:`StorageError`. When it raises, no request is left open."""
        return self._biometric_begin(BiometricPurpose.UNLOCK)

    def begin_biometric_enable(self) -> BiometricRequest:
        """Begin turning the biometric shortcut on
        (``idlelock_biometric_begin``, ``IDLELOCK_BIOMETRIC_ENABLE``): the
        request's :attr:`~BiometricRequest.secret` holds a new random
        32-byte secret; keep it behind the platform's biometric check, then
        call :meth:`BiometricRequest.finish` (the shortcut is on only then).
        Needs an unlocked session with a passcode.

        Raises :class:`NoPasscodeError`, :class:`SessionLockedError`,
        :class:`LockUnavailableError` (``prompt_cap_ms`` is 0),
        :class:`InvalidArgumentError` (already 8 requests open),
        :class:`NoMemoryError`. When it raises, no request is left open."""
        return self._biometric_begin(BiometricPurpose.ENABLE)

    def _biometric_begin(self, purpose: BiometricPurpose) -> BiometricRequest:
        snap = _ffi.SnapshotStruct()
        snap.size = ctypes.sizeof(snap)
        token = ctypes.c_uint64(0)
        enable = purpose == BiometricPurpose.ENABLE
        buf: Any = (ctypes.c_uint8 * _ffi.AUTH_SECRET_BYTES)() if enable else None
        try:
            outcome = self._call(
                _ffi.lib.idlelock_biometric_begin, int(purpose), ctypes.byref(token), buf,
                _ffi.AUTH_SECRET_BYTES if enable else 0, ctypes.byref(snap),
            )
            secret = bytearray(buf) if enable and outcome.status == _ffi.OK else None
        finally:
            if buf is not None:
                _wipe(buf)
        request = BiometricRequest(self, purpose, int(token.value), secret, Snapshot._from_struct(snap))
        if int(outcome.status) == _ffi.OK:
            self._track_request(request)
        try:
            self._finish(outcome, snap)
        except BaseException:
            if int(outcome.status) == _ffi.OK:
                # The caller never gets the request: do not leave it open
                # (its prompt would defer the rules up to prompt_cap_ms).
                try:
                    request.cancel()
                except BaseException:  # noqa: BLE001 - the first error wins
                    pass
            raise
        return request

    def _track_request(self, request: BiometricRequest) -> None:
        with self._cond:
            if not self._closed:
                self._requests[id(request)] = request
                return
        request._lock_closed()  # closed while the begin ran: it can never be finished

    def _forget_request(self, request: BiometricRequest) -> None:
        with self._cond:
            self._requests.pop(id(request), None)

    def _host_waits(self, end: Callable[[], None]) -> bool:
        """An asyncio helper waits for the host's part; close() calls
        ``end``. False when already closed (call it yourself)."""
        with self._cond:
            if self._closed:
                return False
            self._host_waiting.add(end)
            return True

    def _host_done(self, end: Callable[[], None]) -> None:
        with self._cond:
            self._host_waiting.discard(end)

    def _biometric_finish(self, request: BiometricRequest, result: int, buf: Any, n: int) -> Snapshot:
        """``idlelock_biometric_finish`` for :meth:`BiometricRequest.finish`."""
        if request._lock is not self:  # pragma: no cover - BiometricRequest keeps its lock
            raise InvalidArgumentError("token: the request belongs to another IdleLock")
        snap = _ffi.SnapshotStruct()
        snap.size = ctypes.sizeof(snap)
        outcome = self._call(
            _ffi.lib.idlelock_biometric_finish, request.token, result, buf, n, ctypes.byref(snap)
        )
        if int(outcome.status) != _ffi.ERR_INVALID_ARGUMENT:
            request._done()
        self._finish(outcome, snap)
        return Snapshot._from_struct(snap)

    async def unlock_with_biometrics_async(
        self, check: Callable[[BiometricRequest], Awaitable[Union[bytes, bytearray, memoryview]]]
    ) -> Snapshot:
        """Unlock with a biometric check an asyncio host awaits: begins a
        request (:meth:`begin_biometric_unlock`), awaits ``check(request)``
        (a coroutine function that runs the platform's check and returns
        the 32-byte secret it released, or raises
        :class:`AuthenticationFailed`, :class:`AuthenticationCancelled` or
        :class:`AuthenticatorUnavailable`), and finishes the request with
        the outcome. The event loop keeps running meanwhile (the lock's
        other calls, its timers); the request's prompt defers the rules
        within ``prompt_cap_ms``.

        Returns the state after the finish. Raises what the begin and
        :meth:`BiometricRequest.finish` raise (an outcome other than a
        release is :class:`LockUnavailableError`). If ``check`` raises
        anything else, the request is finished as failed and that
        exception propagates: no request is ever left open.

        Cancellation ends this coroutine at once, whatever ``check`` does:
        ``check`` runs as a task of its own that this coroutine only
        watches; when the caller's task is cancelled, the request is
        finished as cancelled right away, the check's task is asked to stop
        (``Task.cancel()``), and ``CancelledError`` is raised, even if the
        platform call ignores cancellation or never answers. What the check
        answers later (or had answered when the cancellation came) is
        ignored: a ``bytearray`` (or writable ``memoryview``) secret is
        wiped, an exception is retrieved. ``CancelledError`` means nothing
        was unlocked: the finish runs after the last ``await``. The secret
        the check returns is wiped once it was handed to the library too:
        return it as a ``bytearray``.

        :meth:`close` (on any thread) ends it the same way, at once: it
        raises :class:`ClosedError` when its event loop runs again, and a
        late answer is wiped."""
        return await _biometric.unlock_with_biometrics_async(self, check)

    async def enable_biometrics_async(
        self,
        store: Callable[[bytearray], Awaitable[None]],
        delete: Optional[Callable[[], Awaitable[None]]] = None,
    ) -> Snapshot:
        """Turn the biometric shortcut on with a keystore an asyncio host
        awaits: begins a request (:meth:`begin_biometric_enable`), awaits
        ``store(secret)`` (keep the 32 bytes behind the biometric check;
        the ``bytearray`` is wiped afterwards), and finishes the request.
        If the library then refuses (a lock after the begin:
        :class:`SessionLockedError`), ``delete()`` is awaited, when given,
        before the error propagates, so no item is left behind. A shortcut
        enabled before stays on then: ``store`` should keep the new item
        beside the old one (``delete`` drops the new one), and the caller
        replaces the old one once this returns. Errors, cancellation and
        :meth:`close` as :meth:`unlock_with_biometrics_async`; a ``store``
        that completes after this coroutine was cancelled or the lock
        closed (or just before the cancellation was seen) has its item
        deleted with ``delete()`` (when given): the shortcut was never
        turned on."""
        return await _biometric.enable_biometrics_async(self, store, delete)

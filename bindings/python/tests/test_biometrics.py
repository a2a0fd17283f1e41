# SPDX-License-Identifier: MIT
"""The biometric shortcut through a host authenticator (the header's
"Biometric shortcut" block and idlelock_authenticator).

FakeKeystore is the test suite's fake keystore: it keeps the secret in a
Python attribute, which a real authenticator must never do (the secret
belongs in a platform keystore item released only after a biometric check).
"""

from __future__ import annotations

import ctypes
import gc
import os
import shutil
import subprocess
import threading
import weakref
from pathlib import Path
from typing import Any, Callable, List, Optional

import pytest

import idlelock
from idlelock import (
    AUTH_SECRET_BYTES,
    AuthenticationCancelled,
    AuthenticationError,
    AuthenticationFailed,
    Authenticator,
    AuthenticatorUnavailable,
    IdleLock,
    InvalidArgumentError,
    LockedOutError,
    LockUnavailableError,
    NoPasscodeError,
    Reason,
    SessionLockedError,
    State,
    _ffi,
    _generated,
)

from conftest import KDF, PASSCODE, WRONG

REASON_TEXT = "Unlock MyApp ✓"
HEADER = Path(__file__).resolve().parents[3] / "include" / "idlelock.h"


class FakeKeystore(Authenticator):
    """The test double: a keystore item in memory, with knobs to make each
    callback fail, block or call back into the lock."""

    def __init__(self, available: bool = True) -> None:
        self.available = available
        self.item: Optional[bytes] = None
        self.calls: List[str] = []
        self.reasons: List[Optional[str]] = []
        self.threads: List[int] = []
        # Knobs.
        self.available_error: Optional[BaseException] = None
        self.store_error: Optional[BaseException] = None
        self.load_error: Optional[BaseException] = None
        self.delete_error: Optional[BaseException] = None
        self.release: Any = None  # returned by load_secret instead of the item
        self.on_load: Optional[Callable[[], None]] = None  # runs inside load_secret
        self.available_result: Any = None  # returned by is_available instead
        self.store_result: Any = None  # returned by store_secret

    def is_available(self) -> bool:
        self.calls.append("is_available")
        if self.available_error is not None:
            raise self.available_error
        if self.available_result is not None:
            return self.available_result  # type: ignore[no-any-return]
        return self.available

    def store_secret(self, secret: bytes) -> None:
        self.calls.append("store_secret")
        if self.store_error is not None:
            raise self.store_error
        assert type(secret) is bytes and len(secret) == AUTH_SECRET_BYTES
        self.item = secret
        return self.store_result  # type: ignore[no-any-return]

    def load_secret(self, reason: Optional[str]) -> Any:
        self.calls.append("load_secret")
        self.reasons.append(reason)
        self.threads.append(threading.get_ident())
        if self.on_load is not None:
            self.on_load()
        if self.load_error is not None:
            raise self.load_error
        if self.release is not None:
            return self.release
        if self.item is None:
            raise AuthenticatorUnavailable("no item")
        return self.item

    def delete_secret(self) -> None:
        self.calls.append("delete_secret")
        self.item = None
        if self.delete_error is not None:
            raise self.delete_error

    def count(self, name: str) -> int:
        return self.calls.count(name)


@pytest.fixture
def keystore() -> FakeKeystore:
    return FakeKeystore()


@pytest.fixture
def bio(engaged, keystore):
    """Factory: an engaged, unlocked lock with the shortcut enabled."""

    def make(**overrides: Any) -> IdleLock:
        overrides.setdefault("authenticator", keystore)
        lock = engaged(**overrides)
        lock.enable_biometrics()
        snap = lock.snapshot()
        assert snap.is_biometrics_enabled and snap.is_biometrics_available
        return lock

    return make


def failed_message(lock: IdleLock, keystore: FakeKeystore) -> str:
    """The library's message for a failed check (from AuthenticationFailed)."""
    keystore.load_error = AuthenticationFailed()
    try:
        with pytest.raises(LockUnavailableError) as e:
            lock.unlock_with_biometrics()
    finally:
        keystore.load_error = None
    return e.value.message


# -- the struct mirrors and the constants ------------------------------------


def test_auth_constants():
    assert (_ffi.AUTH_OK, _ffi.AUTH_FAILED, _ffi.AUTH_CANCELLED, _ffi.AUTH_UNAVAILABLE) == (0, 1, 2, 3)
    assert _ffi.AUTH_SECRET_BYTES == AUTH_SECRET_BYTES == 32


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_struct_mirrors_match_the_c_compiler(tmp_path):
    # ctypes lays the generated mirrors out itself: every field's offset and
    # every struct's size must be the C compiler's.
    lines, ours = [], []
    for c_name, mirror in _generated.STRUCTS.items():
        lines.append(f'  printf("%zu\\n", sizeof({c_name}));')
        ours.append(ctypes.sizeof(mirror))
        for field, _ in mirror._fields_:
            lines.append(f'  printf("%zu\\n", offsetof({c_name}, {field}));')
            ours.append(getattr(mirror, field).offset)
    src = tmp_path / "layout.c"
    src.write_text('#include <stdio.h>\n#include <stddef.h>\n#include "idlelock.h"\nint main(void) {\n'
                   + "\n".join(lines) + "\n  return 0;\n}\n")
    exe = tmp_path / "layout"
    subprocess.run(["cc", "-I", str(HEADER.parent), "-o", str(exe), str(src)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    assert [int(x) for x in out] == ours
    assert len(ours) > 4 * 4


# -- options -------------------------------------------------------------------


def test_authenticator_option_types(make_lock):
    class DuckTyped:  # has the methods but is not an Authenticator
        def is_available(self): return True
        def store_secret(self, s): pass
        def load_secret(self, r): return b""
        def delete_secret(self): pass

    for bad in (DuckTyped(), FakeKeystore, 1, "keystore"):
        with pytest.raises(TypeError, match="authenticator"):
            make_lock(authenticator=bad)

    class Incomplete(Authenticator):
        def is_available(self) -> bool:
            return True

    with pytest.raises(TypeError):
        Incomplete()  # abstract methods missing


def test_unlock_reason_option(make_lock, keystore):
    make_lock(authenticator=keystore, unlock_reason="é" * 256)  # 512 bytes: fine
    make_lock(authenticator=keystore, unlock_reason="")
    make_lock(unlock_reason="works without an authenticator too")
    for bad in (b"bytes", 1, ["x"]):
        with pytest.raises(TypeError, match="unlock_reason"):
            make_lock(authenticator=keystore, unlock_reason=bad)
    for bad in ("é" * 256 + "x", "x" * 513, "a\0b", "\ud800"):
        with pytest.raises(InvalidArgumentError, match="unlock_reason"):
            make_lock(authenticator=keystore, unlock_reason=bad)


def test_unlock_reason_reaches_load_secret(bio, make_lock, keystore):
    lock = bio(unlock_reason=REASON_TEXT)
    lock.lock()
    lock.unlock_with_biometrics()
    assert keystore.reasons == [REASON_TEXT]
    other = FakeKeystore()
    lock2 = make_lock(authenticator=other, lock_on_start=False)
    lock2.set_passcode(PASSCODE)
    lock2.enable_biometrics()
    lock2.unlock_with_biometrics()
    assert other.reasons == [None]


# -- enable ------------------------------------------------------------------


def test_enable_needs_passcode_unlocked_and_available(make_lock, keystore):
    lock = make_lock(authenticator=keystore, lock_on_start=False)
    with pytest.raises(NoPasscodeError):
        lock.enable_biometrics()
    lock.set_passcode(PASSCODE)
    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.enable_biometrics()
    lock.unlock(PASSCODE)
    keystore.available = False
    with pytest.raises(LockUnavailableError) as e:
        lock.enable_biometrics()
    assert e.value.__context__ is None
    snap = lock.snapshot()
    assert not snap.is_biometrics_enabled
    assert not snap.is_biometrics_available  # enable refreshed the cache
    assert keystore.count("store_secret") == 0
    keystore.available = True
    lock.enable_biometrics()
    snap = lock.snapshot()
    assert snap.is_biometrics_enabled and snap.is_biometrics_available
    assert keystore.count("store_secret") == 1
    assert len(keystore.item) == AUTH_SECRET_BYTES


def test_enable_without_authenticator(engaged):
    lock = engaged()
    with pytest.raises(LockUnavailableError):
        lock.enable_biometrics()
    snap = lock.snapshot()
    assert not snap.is_biometrics_available and not snap.is_biometrics_enabled


@pytest.mark.parametrize("outcome", [AuthenticationFailed(), AuthenticationCancelled(),
                                     AuthenticatorUnavailable(), AuthenticationError()])
def test_store_secret_refusing_leaves_the_shortcut_off(engaged, keystore, outcome):
    lock = engaged(authenticator=keystore)
    keystore.store_error = outcome
    with pytest.raises(LockUnavailableError) as e:  # not re-raised: an outcome
        lock.enable_biometrics()
    assert e.value.__context__ is None
    assert not lock.snapshot().is_biometrics_enabled
    keystore.store_error = None
    lock.enable_biometrics()
    assert lock.snapshot().is_biometrics_enabled


def test_each_enable_stores_a_fresh_secret(bio, keystore):
    lock = bio()
    first = keystore.item
    lock.enable_biometrics()
    assert keystore.item != first and len(keystore.item) == AUTH_SECRET_BYTES
    lock.lock()
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


# -- unlock_with_biometrics ------------------------------------------------


def test_unlock_with_biometrics(bio, keystore):
    lock = bio(max_attempts=5)
    lock.put_secret("token", b"sealed")
    lock.lock()
    for _ in range(2):
        with pytest.raises(idlelock.InvalidPasscodeError):
            lock.unlock(WRONG)
    assert lock.snapshot().attempts_remaining == 3
    snap = lock.unlock_with_biometrics()
    assert (snap.state, snap.reason) == (State.UNLOCKED, Reason.NONE)
    assert snap.attempts_remaining == 5  # success resets the count
    assert lock.get_secret("token") == b"sealed"
    assert keystore.count("load_secret") == 1
    # Re-authentication on an unlocked session.
    assert lock.unlock_with_biometrics().state == State.UNLOCKED
    assert keystore.count("load_secret") == 2


@pytest.mark.parametrize("item", [bytes, bytearray, memoryview, lambda b: memoryview(bytearray(b))])
def test_load_secret_may_return_any_bytes_like(bio, keystore, item):
    lock = bio()
    keystore.release = item(keystore.item)
    lock.lock()
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_failed_and_cancelled_checks(bio, keystore):
    lock = bio(max_attempts=3)
    lock.lock()
    messages = {}
    for name, outcome in (("failed", AuthenticationFailed("no match")),
                          ("cancelled", AuthenticationCancelled("user tapped cancel")),
                          ("unavailable", AuthenticatorUnavailable("sensor gone")),
                          ("base", AuthenticationError("generic"))):
        keystore.load_error = outcome
        with pytest.raises(LockUnavailableError) as e:
            lock.unlock_with_biometrics()
        assert type(e.value) is LockUnavailableError
        assert e.value.__context__ is None  # outcomes are not re-raised
        assert e.value.snapshot.state == State.LOCKED
        assert e.value.snapshot.attempts_remaining == 3  # never counted
        assert e.value.snapshot.is_biometrics_enabled  # the shortcut stays
        # The cache changes only at create, enable and foreground (the header's "Biometric shortcut"),
        # also after an "unavailable" answer from load_secret.
        assert e.value.snapshot.is_biometrics_available
        assert lock.snapshot().is_biometrics_available
        messages[name] = e.value.message
    assert messages["failed"] != messages["cancelled"]
    assert "fail" in messages["failed"] and "cancel" in messages["cancelled"]
    assert messages["base"] == messages["failed"]  # the base class counts as failed
    assert keystore.count("load_secret") == 4
    assert messages["unavailable"] not in (messages["failed"], messages["cancelled"])
    keystore.load_error = None
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_biometric_failures_never_count(bio, keystore):
    lock = bio(max_attempts=2)
    lock.lock()
    keystore.load_error = AuthenticationFailed()
    for _ in range(10):
        with pytest.raises(LockUnavailableError):
            lock.unlock_with_biometrics()
    snap = lock.snapshot()
    assert snap.state == State.LOCKED and snap.attempts_remaining == 2


@pytest.mark.parametrize("length", [0, 1, 31, 33, 64])
def test_wrong_length_is_a_failed_check(bio, keystore, length):
    lock = bio()
    failed = failed_message(lock, keystore)
    lock.lock()
    keystore.release = (keystore.item * 3)[:length] if length else b""
    with pytest.raises(LockUnavailableError) as e:
        lock.unlock_with_biometrics()
    assert e.value.message == failed
    assert e.value.__context__ is None
    assert e.value.snapshot.state == State.LOCKED
    assert e.value.snapshot.is_biometrics_enabled  # not an enrolment change
    keystore.release = None
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_enrolment_change_turns_the_shortcut_off(bio, keystore):
    lock = bio()
    lock.lock()
    keystore.item = os.urandom(AUTH_SECRET_BYTES)  # the item was replaced
    with pytest.raises(LockUnavailableError) as e:
        lock.unlock_with_biometrics()
    assert e.value.snapshot.state == State.LOCKED
    assert not e.value.snapshot.is_biometrics_enabled
    assert not lock.snapshot().is_biometrics_enabled
    assert keystore.count("delete_secret") == 1
    assert keystore.item is None
    loads = keystore.count("load_secret")
    with pytest.raises(LockUnavailableError):
        lock.unlock_with_biometrics()
    assert keystore.count("load_secret") == loads  # off: not asked again
    assert lock.unlock(PASSCODE).state == State.UNLOCKED  # the passcode remains
    lock.enable_biometrics()  # and the shortcut can be enrolled again
    lock.lock()
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_new_passcode_turns_the_shortcut_off(bio, keystore):
    lock = bio()
    lock.set_passcode("9753")
    snap = lock.snapshot()
    assert not snap.is_biometrics_enabled
    assert keystore.count("delete_secret") == 1
    lock.lock()
    with pytest.raises(LockUnavailableError):
        lock.unlock_with_biometrics()
    assert keystore.count("load_secret") == 0
    lock.unlock("9753")


def test_disable_biometrics(bio, keystore):
    lock = bio()
    lock.disable_biometrics()
    assert not lock.snapshot().is_biometrics_enabled
    assert keystore.count("delete_secret") == 1 and keystore.item is None
    lock.disable_biometrics()  # nothing to do when off
    assert keystore.count("delete_secret") == 1
    lock.lock()
    with pytest.raises(LockUnavailableError):
        lock.unlock_with_biometrics()
    assert keystore.count("load_secret") == 0


def test_sign_out_forgets_the_shortcut(bio, keystore):
    lock = bio()
    lock.disable()
    snap = lock.snapshot()
    assert not snap.is_enabled and not snap.is_biometrics_enabled
    assert keystore.count("delete_secret") == 1 and keystore.item is None
    with pytest.raises(NoPasscodeError):
        lock.unlock_with_biometrics()
    with pytest.raises(NoPasscodeError):
        lock.enable_biometrics()


def test_lockout_refuses_biometrics(bio, keystore):
    lock = bio(max_attempts=2)
    lock.lock()
    with pytest.raises(idlelock.InvalidPasscodeError):
        lock.unlock(WRONG)
    with pytest.raises(LockedOutError):
        lock.unlock(WRONG)
    with pytest.raises(LockedOutError) as e:
        lock.unlock_with_biometrics()
    assert e.value.snapshot.state == State.LOCKED_OUT
    assert keystore.count("load_secret") == 0
    with pytest.raises(SessionLockedError):
        lock.enable_biometrics()


# -- the cached availability -----------------------------------------------


def test_availability_is_cached_and_refreshed_on_foreground(bio, make_lock, keystore):
    lock = bio()
    asked = keystore.count("is_available")
    keystore.available = False
    touch = lambda: lock.touch(snapshot=True)  # noqa: E731
    for call in (touch, lock.check, lock.snapshot, lock.inactive, lock.background):
        assert call().is_biometrics_available  # stale until foreground
    assert keystore.count("is_available") == asked
    snap = lock.foreground()
    assert not snap.is_biometrics_available
    assert snap.is_biometrics_enabled  # unavailable, not off
    assert keystore.count("is_available") == asked + 1
    lock.lock()
    with pytest.raises(LockUnavailableError):
        lock.unlock_with_biometrics()
    assert keystore.count("load_secret") == 0
    keystore.available = True
    assert lock.foreground().is_biometrics_available
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_availability_is_asked_at_create(make_lock):
    on, off = FakeKeystore(True), FakeKeystore(False)
    assert make_lock(authenticator=on).snapshot().is_biometrics_available
    assert not make_lock(authenticator=off).snapshot().is_biometrics_available
    assert on.calls == ["is_available"] and off.calls == ["is_available"]
    assert not make_lock().snapshot().is_biometrics_available  # no authenticator


# -- exceptions raised inside the callbacks -----------------------------------


def test_plain_exception_in_load_secret_is_a_failed_check_and_is_reraised(bio, keystore):
    lock = bio(max_attempts=3)
    failed = failed_message(lock, keystore)
    lock.lock()
    boom = RuntimeError("keystore exploded")
    keystore.load_error = boom
    with pytest.raises(RuntimeError) as e:
        lock.unlock_with_biometrics()
    assert e.value is boom  # re-raised unchanged on the calling thread
    # What the library saw: a failed check (LOCK_UNAVAILABLE, the same
    # message as AuthenticationFailed), chained as the context.
    library = e.value.__context__
    assert type(library) is LockUnavailableError
    assert library.message == failed
    assert library.snapshot.state == State.LOCKED
    assert library.snapshot.attempts_remaining == 3
    assert library.snapshot.is_biometrics_enabled
    # Nothing left over: the next calls are clean.
    keystore.load_error = None
    assert lock.snapshot().state == State.LOCKED
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_base_exception_in_load_secret_is_reraised_as_is(bio, keystore):
    class Abort(BaseException):
        pass

    lock = bio()
    lock.lock()
    keystore.load_error = Abort()
    with pytest.raises(Abort) as e:
        lock.unlock_with_biometrics()
    assert type(e.value.__context__) is LockUnavailableError
    assert lock.snapshot().state == State.LOCKED


def test_wrong_return_type_from_load_secret(bio, keystore):
    lock = bio()
    lock.lock()
    for bad in ("a str secret", 12345, [1, 2, 3]):
        keystore.release = bad
        with pytest.raises(TypeError, match="load_secret") as e:
            lock.unlock_with_biometrics()
        assert type(e.value.__context__) is LockUnavailableError
        assert "a str secret" not in str(e.value)  # never shows the value
    assert lock.snapshot().state == State.LOCKED


def test_plain_exception_in_store_secret(engaged, keystore):
    lock = engaged(authenticator=keystore)
    boom = OSError("keystore full")
    keystore.store_error = boom
    with pytest.raises(OSError) as e:
        lock.enable_biometrics()
    assert e.value is boom
    assert type(e.value.__context__) is LockUnavailableError
    assert not lock.snapshot().is_biometrics_enabled
    # Returning something instead of raising is a mistake, reported the same way.
    keystore.store_error = None
    keystore.store_result = False
    with pytest.raises(TypeError, match="store_secret must return None"):
        lock.enable_biometrics()
    assert not lock.snapshot().is_biometrics_enabled


def test_plain_exception_in_is_available(bio, keystore):
    lock = bio()
    keystore.available_error = RuntimeError("sensor driver crashed")
    with pytest.raises(RuntimeError, match="sensor driver") as e:
        lock.foreground()
    assert e.value.__context__ is None  # foreground itself succeeded
    snap = lock.snapshot()
    assert not snap.is_biometrics_available  # the library was told "not available"
    assert snap.state == State.UNLOCKED
    with pytest.raises(RuntimeError) as e:
        lock.enable_biometrics()
    assert type(e.value.__context__) is LockUnavailableError
    keystore.available_error = None
    keystore.available_result = 1  # not a bool
    with pytest.raises(TypeError, match="is_available must return bool"):
        lock.foreground()
    assert not lock.snapshot().is_biometrics_available
    keystore.available_result = None
    assert lock.foreground().is_biometrics_available


def test_is_available_raising_at_create_fails_the_constructor(clock):
    keystore = FakeKeystore()
    keystore.available_error = RuntimeError("no keystore service")
    with pytest.raises(RuntimeError, match="no keystore service"):
        IdleLock(idle_after_ms=60_000, clock=clock, authenticator=keystore, **KDF)
    keystore.available_error = AuthenticatorUnavailable()  # an outcome: just "no"
    with IdleLock(idle_after_ms=60_000, clock=clock, authenticator=keystore, **KDF) as lock:
        assert not lock.snapshot().is_biometrics_available


def test_plain_exception_in_delete_secret(bio, keystore):
    lock = bio()
    keystore.delete_error = RuntimeError("cannot delete")
    with pytest.raises(RuntimeError, match="cannot delete") as e:
        lock.disable_biometrics()
    assert e.value.__context__ is None  # the library ignores the failure
    assert not lock.snapshot().is_biometrics_enabled  # off anyway
    # From set_passcode (a new passcode deletes the item): the passcode is set.
    keystore.delete_error = None
    lock.enable_biometrics()
    keystore.delete_error = RuntimeError("cannot delete")
    with pytest.raises(RuntimeError):
        lock.set_passcode("9753")
    assert not lock.snapshot().is_biometrics_enabled
    lock.lock()
    lock.unlock("9753")
    # From disable (sign-out): signed out anyway.
    keystore.delete_error = None
    lock.enable_biometrics()
    keystore.delete_error = RuntimeError("cannot delete")
    with pytest.raises(RuntimeError):
        lock.disable()
    assert not lock.snapshot().is_enabled


# -- re-entrancy and threads ------------------------------------------------


def test_lock_from_inside_load_secret_wins(bio, keystore):
    lock = bio()
    inner = []
    keystore.on_load = lambda: inner.append(lock.lock())
    with pytest.raises(SessionLockedError) as e:
        lock.unlock_with_biometrics()  # a re-authentication of an unlocked session
    assert (inner[0].state, inner[0].reason) == (State.LOCKED, Reason.MANUAL)
    assert (e.value.snapshot.state, e.value.snapshot.reason) == (State.LOCKED, Reason.MANUAL)
    snap = lock.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.MANUAL)
    with pytest.raises(SessionLockedError):
        lock.get_secret("anything")
    keystore.on_load = None
    assert lock.unlock_with_biometrics().state == State.UNLOCKED


def test_other_calls_from_inside_load_secret(bio, keystore):
    lock = bio()
    lock.lock()
    seen = []
    keystore.on_load = lambda: seen.append((lock.snapshot(), lock.check(), lock.touch(snapshot=True)))
    assert lock.unlock_with_biometrics().state == State.UNLOCKED
    assert all(s.state == State.LOCKED for s in seen[0])


def run_with_timeout(fn: Callable[[], Any], seconds: float = 20.0) -> Any:
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the call did not return: deadlock?"
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_load_secret_blocking_does_not_block_other_threads(bio, keystore):
    lock = bio()
    lock.lock()
    entered, release = threading.Event(), threading.Event()

    def prompt() -> None:
        entered.set()
        assert release.wait(30)

    keystore.on_load = prompt
    result: dict = {}

    def unlocker() -> None:
        try:
            result["snap"] = lock.unlock_with_biometrics()
        except BaseException as exc:  # noqa: BLE001
            result["error"] = exc

    t = threading.Thread(target=unlocker)
    t.start()
    try:
        assert entered.wait(20)
        # The prompt is up on the other thread; this one keeps calling.
        snaps = run_with_timeout(lambda: [lock.touch(snapshot=True), lock.check(), lock.snapshot()])
        assert all(s.state == State.LOCKED for s in snaps)
        assert run_with_timeout(lock.background).is_away
        assert run_with_timeout(lock.foreground).is_biometrics_available  # asks is_available here
    finally:
        release.set()
        t.join(30)
    assert not t.is_alive()
    assert "error" not in result, result.get("error")
    assert result["snap"].state == State.UNLOCKED
    assert keystore.threads == [t.ident]  # load_secret ran on the calling thread


def test_callback_errors_stay_on_their_thread(bio, keystore):
    lock = bio()
    lock.lock()
    entered, release = threading.Event(), threading.Event()

    def prompt() -> None:
        entered.set()
        assert release.wait(30)
        raise RuntimeError("from the prompt thread")

    keystore.on_load = prompt
    result: dict = {}

    def unlocker() -> None:
        try:
            lock.unlock_with_biometrics()
        except BaseException as exc:  # noqa: BLE001
            result["error"] = exc

    t = threading.Thread(target=unlocker)
    t.start()
    assert entered.wait(20)
    release.set()
    t.join(30)
    assert isinstance(result["error"], RuntimeError)
    lock.touch()  # this thread has nothing pending
    lock.snapshot()


# -- lifetime and the store --------------------------------------------------


def test_callbacks_are_kept_alive_by_the_lock(clock):
    keystore = FakeKeystore()
    ref = weakref.ref(keystore)
    lock = IdleLock(idle_after_ms=60_000, clock=clock, lock_on_start=False,
                    authenticator=keystore, **KDF)
    del keystore
    gc.collect()
    assert ref() is not None  # kept (with its trampolines) while the handle lives
    lock.set_passcode(PASSCODE)
    lock.enable_biometrics()
    lock.lock()
    gc.collect()
    assert lock.unlock_with_biometrics().state == State.UNLOCKED
    lock.close()
    gc.collect()
    assert ref() is None  # released with the handle


def test_shortcut_survives_a_restart(make_lock, tmp_path):
    path = tmp_path / "session.idlelock"
    keystore = FakeKeystore()
    first = make_lock(store_path=path, authenticator=keystore)
    first.start()
    first.set_passcode(PASSCODE)
    first.put_secret("token", b"sealed")
    first.enable_biometrics()
    first.close()

    second = make_lock(store_path=path, authenticator=keystore)
    snap = second.start()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)
    assert snap.is_biometrics_enabled and snap.is_biometrics_available
    snap = second.unlock_with_biometrics()
    assert snap.state == State.UNLOCKED
    assert second.get_secret("token") == b"sealed"
    second.close()

    # Another keystore (no item, or another secret) cannot open it.
    stranger = FakeKeystore()
    stranger.item = os.urandom(AUTH_SECRET_BYTES)
    third = make_lock(store_path=path, authenticator=stranger)
    third.start()
    with pytest.raises(LockUnavailableError):
        third.unlock_with_biometrics()
    assert not third.snapshot().is_biometrics_enabled  # it no longer opens: off
    third.unlock(PASSCODE)


def test_close_from_inside_load_secret_is_deferred(bio, keystore):
    lock = bio()
    lock.lock()
    keystore.on_load = lock.close
    assert lock.unlock_with_biometrics().state == State.UNLOCKED
    assert lock.closed
    with pytest.raises(idlelock.ClosedError):
        lock.snapshot()


def test_an_exception_does_not_keep_the_secret_alive(bio):
    """The frames of an exception raised by load_secret/store_secret are
    cleared before it is kept: the traceback has its lines, not the locals."""

    class Leaky(FakeKeystore):
        def load_secret(self, reason):
            secret = self.item  # noqa: F841 - a local holding the secret
            raise RuntimeError("after reading the item")

    leaky = Leaky()
    lock = bio(authenticator=leaky)
    lock.lock()
    with pytest.raises(RuntimeError) as e:
        lock.unlock_with_biometrics()
    tb = e.value.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    leaky_frames = [f for f in frames if f.f_code.co_name == "load_secret"]
    assert leaky_frames, "the traceback lost the callback's frame"
    assert all("secret" not in f.f_locals for f in leaky_frames)
    assert any(line.name == "load_secret" for line in __import__("traceback").extract_tb(e.value.__traceback__))

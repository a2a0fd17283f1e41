# SPDX-License-Identifier: MIT
"""The on-disk store (``store_path``, ``device_key``): header "The store
(config.store_path)", docs/RULES.md (creation and start), the header's "Sealed secrets and the
gate" and "Listeners".

Single-process tests use the fake clock (one FakeClock shared by every
IdleLock on the same path stands for "one boot's clock") and the Argon2id
floor. The two-process test runs real processes on the default clock.
"""

from __future__ import annotations

import ctypes
import os
import pathlib
import queue
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

import idlelock
from idlelock import (
    IdleLock,
    InvalidArgumentError,
    InvalidPasscodeError,
    LockedOutError,
    NotFoundError,
    Reason,
    SessionLockedError,
    State,
    StorageError,
)

from conftest import KDF, PASSCODE, WRONG, FakeClock

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
KEY = bytes(range(32))
OTHER_KEY = bytes(range(100, 132))
IDLE = 60_000
BACKGROUND = 30_000


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "session.idlelock"


@pytest.fixture
def opened():
    """Factory for IdleLocks on a store; every one is closed at teardown."""
    made: List[IdleLock] = []

    def make(path: Path, clock: Any = None, **overrides: Any) -> IdleLock:
        options: Dict[str, Any] = {
            "idle_after_ms": IDLE,
            "background_after_ms": BACKGROUND,
            "store_path": path,
            **KDF,
        }
        if clock is not None:
            options["clock"] = clock
        options.update(overrides)
        lock = IdleLock(**options)
        made.append(lock)
        return lock

    yield make
    for lock in made:
        lock.close()


def sign_in(lock: IdleLock) -> None:
    """What a fresh sign-in does: start, set the passcode, keep a secret."""
    lock.start()
    lock.set_passcode(PASSCODE)
    lock.put_secret("access_token", b"tok-123")
    lock.put_secret("empty", b"")


# -- restart --------------------------------------------------------------


def test_nothing_is_written_before_a_passcode(opened, store, clock):
    lock = opened(store, clock)
    lock.start()
    lock.put_secret("draft", b"x")
    assert not store.exists()  # secrets live in memory until set_passcode
    lock.set_passcode(PASSCODE)
    assert store.exists()
    assert Path(str(store) + ".lock").exists()
    assert store.stat().st_mode & 0o777 == 0o600
    lock.close()
    again = opened(store, clock)
    again.start()  # a stored session hands out nothing before start
    again.unlock(PASSCODE)
    assert again.get_secret("draft") == b"x"  # written in the same replace


def test_restart_without_device_key_is_locked_startup_and_secrets_survive(opened, store, clock):
    first = opened(store, clock)
    sign_in(first)
    assert first.snapshot().state == State.UNLOCKED
    first.close()

    clock.advance(1_000)
    second = opened(store, clock)
    # Locked from create, before start: only the passcode opens the session key.
    snap = second.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)
    assert snap.is_enabled
    with pytest.raises(SessionLockedError):
        second.get_secret("access_token")
    with pytest.raises(SessionLockedError):
        second.require_unlocked()
    snap = second.start()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)

    with pytest.raises(InvalidPasscodeError) as e:
        second.unlock(WRONG)
    assert e.value.attempts_remaining == 4
    snap = second.unlock(PASSCODE)
    assert (snap.state, snap.reason) == (State.UNLOCKED, Reason.NONE)
    assert snap.attempts_remaining == 5
    assert second.get_secret("access_token") == b"tok-123"
    assert second.get_secret("empty") == b""
    second.require_unlocked()


def test_lock_on_start_false_without_device_key_is_refused(opened, store, clock):
    with pytest.raises(InvalidArgumentError) as e:
        opened(store, clock, lock_on_start=False)
    assert e.value.status == 1
    assert "lock_on_start" in e.value.message
    # A call that returns INVALID_ARGUMENT changed nothing: no files.
    assert not store.exists()
    assert not Path(str(store) + ".lock").exists()
    # With a device key it is allowed.
    opened(store, clock, lock_on_start=False, device_key=KEY).close()


@pytest.mark.parametrize(
    "elapsed, state, reason",
    [
        (10_000, State.UNLOCKED, Reason.NONE),
        (BACKGROUND - 1, State.UNLOCKED, Reason.NONE),
        (BACKGROUND, State.LOCKED, Reason.BACKGROUNDED),  # elapsed >= T locks
        (BACKGROUND + 15_000, State.LOCKED, Reason.BACKGROUNDED),
    ],
)
def test_device_key_restart_judges_time_since_saved_activity(opened, store, clock, elapsed, state, reason):
    options = {"lock_on_start": False, "device_key": KEY}
    first = opened(store, clock, **options)
    sign_in(first)  # set_passcode saves activity = T0
    first.touch()  # ordinary events are not saved
    first.close()

    clock.advance(elapsed)
    second = opened(store, clock, **options)  # same path, same fake clock
    # The device key opened the session key at create; start judges.
    snap = second.start()
    assert (snap.state, snap.reason) == (state, reason)
    if state == State.UNLOCKED:
        assert second.get_secret("access_token") == b"tok-123"
    else:
        with pytest.raises(SessionLockedError):
            second.get_secret("access_token")
        second.unlock(PASSCODE)
        assert second.get_secret("access_token") == b"tok-123"


def test_device_key_restart_with_lock_on_start_still_locks(opened, store, clock):
    first = opened(store, clock, device_key=KEY)
    sign_in(first)
    first.close()
    second = opened(store, clock, device_key=KEY)
    snap = second.start()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)


def test_a_saved_lock_is_in_force_from_create(opened, store, clock):
    options = {"lock_on_start": False, "device_key": KEY}
    first = opened(store, clock, **options)
    sign_in(first)
    first.lock()  # saved: killing the app on its lock screen is no way past it
    first.close()
    second = opened(store, clock, **options)
    snap = second.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.MANUAL)
    assert second.start().reason == Reason.MANUAL


def test_saved_activity_later_than_the_clock_locks_startup(opened, store, clock):
    options = {"lock_on_start": False, "device_key": KEY}
    first = opened(store, clock, **options)
    sign_in(first)
    first.close()
    earlier = FakeClock(clock.now - 5_000)  # not the same boot's clock
    second = opened(store, earlier, **options)
    snap = second.start()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)


def test_two_handles_share_secrets_lockout_and_sign_out(opened, store, clock):
    options = {"lock_on_start": False, "device_key": KEY, "max_attempts": 3}
    a = opened(store, clock, **options)
    sign_in(a)
    b = opened(store, clock, **options)
    assert b.start().state == State.UNLOCKED
    a.put_secret("profile", b"p")
    assert b.get_secret("profile") == b"p"  # re-read after the generation changed
    a.lock()
    assert b.snapshot().state == State.UNLOCKED  # each handle has its own lock state
    for remaining in (2, 1):
        with pytest.raises(InvalidPasscodeError) as e:
            a.unlock(WRONG)
        assert e.value.attempts_remaining == remaining
    with pytest.raises(LockedOutError):
        b.unlock(WRONG)  # the count is shared: the third wrong one anywhere
    with pytest.raises(LockedOutError):
        a.unlock(PASSCODE)
    assert a.snapshot().state == State.LOCKED_OUT
    # Sign-out deletes the store (the .lock file stays) and signs b out too.
    b.disable()
    assert not store.exists()
    assert Path(str(store) + ".lock").exists()
    with pytest.raises(NotFoundError):
        a.get_secret("profile")
    snap = a.snapshot()
    assert (snap.state, snap.is_enabled) == (State.UNLOCKED, False)


def another_sign_in(a: IdleLock, b_options: Dict[str, Any], opened, store: Path, clock, extra_writes: int):
    """A and B share a store; A signs out and signs in again with another
    passcode before B makes a call. Returns B."""
    sign_in(a)  # generation 1 (set_passcode) .. 3 (two puts)
    b = opened(store, clock, **b_options)
    assert b.start().state == State.UNLOCKED
    assert b.get_secret("access_token") == b"tok-123"
    a.disable()
    a.set_passcode("9999")  # a new store: generation 1
    a.put_secret("access_token", b"second sign-in")
    a.put_secret("empty", b"")  # generation 3: the same number B last saw
    for i in range(extra_writes):
        a.put_secret(f"extra{i}", b"")
    return b


def assert_replaced_and_locked(b: IdleLock) -> None:
    # Header, "The store": a store made by another sign-in replaces this
    # session, LOCKED (REASON_STARTUP).
    with pytest.raises(SessionLockedError):
        b.get_secret("access_token")
    snap = b.snapshot()
    assert (snap.state, snap.reason) == (State.LOCKED, Reason.STARTUP)
    with pytest.raises(SessionLockedError):
        b.require_unlocked()
    b.unlock("9999")  # the new sign-in's passcode opens the new session
    assert b.get_secret("access_token") == b"second sign-in"


def test_another_sign_in_replaces_this_session(opened, store, clock):
    options = {"lock_on_start": False, "device_key": KEY}
    a = opened(store, clock, **options)
    b = another_sign_in(a, options, opened, store, clock, extra_writes=1)
    assert_replaced_and_locked(b)


# Regression: a new store started again at generation 1 and the cheap look
# compared only the generation, so a new sign-in whose store reached the
# generation this handle last saw went unnoticed (the handle stayed UNLOCKED
# and kept serving the previous sign-in's secrets).
def test_another_sign_in_replaces_this_session_at_the_same_generation(opened, store, clock):
    options = {"lock_on_start": False, "device_key": KEY}
    a = opened(store, clock, **options)
    b = another_sign_in(a, options, opened, store, clock, extra_writes=0)
    assert_replaced_and_locked(b)


# -- refused stores ---------------------------------------------------------


def make_store(opened, store: Path, clock: FakeClock, **options: Any) -> bytes:
    lock = opened(store, clock, **options)
    sign_in(lock)
    lock.close()
    return store.read_bytes()


@pytest.mark.parametrize("with_key", [False, True], ids=["no-key", "device-key"])
@pytest.mark.parametrize(
    "where",
    [0, 8, 12, 44, 48, 130, 200, 330, -1],
    ids=lambda w: f"byte{w}",
)
def test_a_damaged_store_is_refused_and_left_untouched(opened, store, clock, with_key, where):
    options = {"device_key": KEY} if with_key else {}
    raw = make_store(opened, store, clock, **options)
    damaged = bytearray(raw)
    damaged[where] ^= 0x01
    store.write_bytes(bytes(damaged))
    before = store.stat()
    with pytest.raises(StorageError) as e:
        opened(store, clock, **options)
    assert e.value.status == 7
    assert e.value.message
    assert store.read_bytes() == bytes(damaged)  # left untouched
    after = store.stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)
    # Repaired (restored), it opens again with no attempt counted.
    store.write_bytes(raw)
    lock = opened(store, clock, **options)
    lock.start()
    assert lock.snapshot().attempts_remaining == 5
    lock.unlock(PASSCODE)
    assert lock.get_secret("access_token") == b"tok-123"


def test_another_device_key_is_refused_before_any_attempt(opened, store, clock):
    raw = make_store(opened, store, clock, device_key=KEY)
    with pytest.raises(StorageError) as e:
        opened(store, clock, device_key=OTHER_KEY)
    assert "device key" in e.value.message
    assert "does not match" in e.value.message
    assert store.read_bytes() == raw
    # A store made with a key refuses no key, and the reverse.
    with pytest.raises(StorageError) as e:
        opened(store, clock)
    assert "device key" in e.value.message
    assert store.read_bytes() == raw
    lock = opened(store, clock, device_key=KEY)
    assert lock.snapshot().attempts_remaining == 5  # nothing was counted
    lock.close()

    plain = store.with_name("plain.idlelock")
    make_store(opened, plain, clock)
    with pytest.raises(StorageError) as e:
        opened(plain, clock, device_key=KEY)
    assert "device key" in e.value.message


def test_a_missing_folder_is_a_storage_error(opened, tmp_path, clock):
    with pytest.raises(StorageError) as e:
        opened(tmp_path / "no-such-folder" / "s.idlelock", clock)
    assert e.value.status == 7


# -- the binding's validation -----------------------------------------------


@pytest.mark.parametrize("value", [b"/tmp/x", bytearray(b"/tmp/x"), 12, object()])
def test_store_path_type_is_checked(value, clock):
    with pytest.raises(TypeError) as e:
        IdleLock(idle_after_ms=IDLE, clock=clock, store_path=value, **KDF)
    assert "store_path" in str(e.value)


def test_store_path_with_nul_is_refused_in_python(tmp_path, clock):
    for value in (str(tmp_path / "a\0b"), pathlib.PurePosixPath(str(tmp_path) + "/a\0b")):
        with pytest.raises(InvalidArgumentError) as e:
            IdleLock(idle_after_ms=IDLE, clock=clock, store_path=value, **KDF)
        assert isinstance(e.value, ValueError)
        assert "store_path" in str(e.value)
        assert "NUL" in str(e.value)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "name",
    ["", "folder/", "bad-\udcff-utf8", "\ud800"],
    ids=["empty", "folder", "not-utf8", "lone-surrogate"],
)
def test_store_path_values_the_library_refuses(tmp_path, clock, name, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    with pytest.raises(InvalidArgumentError) as e:
        IdleLock(idle_after_ms=IDLE, clock=clock, store_path=name, **KDF)
    assert "store_path" in str(e.value)
    assert sorted(os.listdir(tmp_path)) == ["folder"]


class CustomPath:
    def __init__(self, path: str) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return self.path


@pytest.mark.parametrize("kind", ["str", "pathlib", "fspath-str", "fspath-bytes"])
def test_store_path_accepts_str_and_pathlike(opened, store, clock, kind):
    value: Any = {
        "str": str(store),
        "pathlib": store,
        "fspath-str": CustomPath(str(store)),
        "fspath-bytes": type("B", (), {"__fspath__": lambda self: os.fsencode(store)})(),
    }[kind]
    lock = opened(value, clock)
    lock.set_passcode(PASSCODE)
    assert store.exists()


def test_relative_store_path_is_fixed_at_creation(opened, tmp_path, clock, monkeypatch):
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(home)
    lock = opened(Path("s.idlelock"), clock)
    monkeypatch.chdir(elsewhere)  # a later chdir must not move the store
    lock.set_passcode(PASSCODE)
    lock.put_secret("k", b"v")
    assert sorted(os.listdir(home)) == ["s.idlelock", "s.idlelock.lock"]
    assert os.listdir(elsewhere) == []


@pytest.mark.parametrize("value", ["k" * 32, memoryview(KEY), 0, list(KEY)])
def test_device_key_type_is_checked(value, clock):
    with pytest.raises(TypeError) as e:
        IdleLock(idle_after_ms=IDLE, clock=clock, device_key=value, **KDF)
    assert "device_key" in str(e.value)


@pytest.mark.parametrize("size", [0, 16, 31, 33, 64])
def test_device_key_must_be_32_bytes(size, clock):
    key = bytes(range(0xA0, 0xA0 + size))
    with pytest.raises(InvalidArgumentError) as e:
        IdleLock(idle_after_ms=IDLE, clock=clock, device_key=key, **KDF)
    assert isinstance(e.value, ValueError)
    assert e.value.status == 1
    assert "device_key" in str(e.value)
    assert "32" in str(e.value)
    if size:
        assert key.hex() not in str(e.value) and repr(key) not in str(e.value)


def test_device_key_buffer_is_wiped_right_after_create(opened, store, clock, monkeypatch):
    real_memset = ctypes.memset
    seen: List[bytes] = []
    after: List[bytes] = []

    order: List[str] = []

    def spy(dst: Any, c: int, size: int) -> Any:
        before = ctypes.string_at(dst, size)
        result = real_memset(dst, c, size)
        if size == 32:
            order.append("wipe")
            seen.append(before)
            after.append(ctypes.string_at(dst, size))
        return result

    original_create = idlelock._ffi.lib.idlelock_create

    def create(*args: Any) -> Any:
        order.append("create")
        return original_create(*args)

    monkeypatch.setattr(idlelock.lock.ctypes, "memset", spy)
    monkeypatch.setattr(idlelock._ffi.lib, "idlelock_create", create)
    key = bytearray(KEY)
    lock = opened(store, clock, device_key=key)
    monkeypatch.undo()
    assert order == ["create", "wipe"]  # wiped right after the create call
    assert seen == [KEY]  # the binding's copy held the key, then was wiped
    assert after == [bytes(32)]
    assert key == bytearray(KEY)  # the caller's object is the caller's to clear

    # The library kept its own copy: the host may clear its bytearray now.
    key[:] = bytes(32)
    sign_in(lock)
    lock.close()
    again = opened(store, clock, device_key=bytes(KEY), lock_on_start=False)
    assert again.start().state == State.UNLOCKED
    assert again.get_secret("access_token") == b"tok-123"


def test_device_key_buffer_is_wiped_when_create_fails(opened, store, clock, monkeypatch):
    real_memset = ctypes.memset
    wiped: List[int] = []

    def spy(dst: Any, c: int, size: int) -> Any:
        if size == 32:
            wiped.append(size)
        return real_memset(dst, c, size)

    monkeypatch.setattr(idlelock.lock.ctypes, "memset", spy)
    with pytest.raises(InvalidArgumentError):
        opened(store, clock, device_key=KEY, grace_ms=60_001)  # the library refuses
    assert wiped == [32]


def test_storage_error_is_an_idlelock_error():
    assert issubclass(StorageError, idlelock.IdleLockError)
    assert StorageError.STATUS == 7
    assert "IDLELOCK_ERR_STORAGE" in str(StorageError("x", status=7))


# -- two real processes on one store, default clock -------------------------

CHILD_PRELUDE = """
import sys
from idlelock import IdleLock, InvalidPasscodeError, LockedOutError
lock = IdleLock(idle_after_ms=60_000, kdf_opslimit=2, kdf_memlimit=19 * 1024 * 1024,
                store_path=sys.argv[1])
snap = lock.start()
print("start", snap.state.name, snap.reason.name, flush=True)
"""

FIRST = CHILD_PRELUDE + """
for _ in range(4):
    try:
        lock.unlock("1357")
        print("unexpected unlock", flush=True)
    except InvalidPasscodeError as e:
        print("wrong", e.attempts_remaining, flush=True)
print("READY", flush=True)
sys.stdin.readline()
try:
    lock.unlock("2468")
    print("UNLOCKED", flush=True)
except LockedOutError as e:
    print("LOCKED_OUT", e.snapshot.state.name, flush=True)
except Exception as e:
    print("OTHER", type(e).__name__, e, flush=True)
lock.close()
"""

SECOND = CHILD_PRELUDE + """
try:
    lock.unlock("1357")
    print("UNLOCKED", flush=True)
except LockedOutError as e:
    print("LOCKED_OUT", e.snapshot.state.name, flush=True)
except Exception as e:
    print("OTHER", type(e).__name__, e, flush=True)
lock.close()
"""


def child_env() -> Dict[str, str]:
    env = dict(os.environ)
    pythonpath = [str(PACKAGE_ROOT)]
    if env.get("PYTHONPATH"):
        pythonpath.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(pythonpath)
    # IDLELOCK_LIBRARY (when set) passes through unchanged, so the children
    # load the same library as this process.
    if "IDLELOCK_LIBRARY" not in env:
        env["IDLELOCK_LIBRARY"] = idlelock.library_path
    return env


def test_two_processes_share_the_attempt_count_and_lockout(store):
    setup = IdleLock(idle_after_ms=IDLE, store_path=store, **KDF)  # default clock
    setup.set_passcode(PASSCODE)
    setup.put_secret("access_token", b"tok-123")
    setup.close()

    env = child_env()
    first = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(FIRST), str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: "queue.Queue[str]" = queue.Queue()

    def pump() -> None:
        assert first.stdout is not None
        for line in first.stdout:
            lines.put(line.strip())
        lines.put("EOF")

    threading.Thread(target=pump, daemon=True).start()
    try:
        got: List[str] = []
        while not got or got[-1] not in ("READY", "EOF"):
            got.append(lines.get(timeout=60))
        assert got == [
            "start LOCKED STARTUP",
            "wrong 4",
            "wrong 3",
            "wrong 2",
            "wrong 1",
            "READY",
        ], first.stderr.read() if got[-1] == "EOF" else got  # type: ignore[union-attr]

        second = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(SECOND), str(store)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert second.returncode == 0, second.stderr
        assert second.stdout.split("\n")[:2] == ["start LOCKED STARTUP", "LOCKED_OUT LOCKED_OUT"]

        assert first.stdin is not None
        first.stdin.write("go\n")
        first.stdin.flush()
        rest = []
        while not rest or rest[-1] != "EOF":
            rest.append(lines.get(timeout=60))
        # The right passcode no longer helps: the lockout is in the store.
        assert rest == ["LOCKED_OUT LOCKED_OUT", "EOF"]
        assert first.wait(timeout=60) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()

    # A lockout in the store is in force from create in any later process.
    later = IdleLock(idle_after_ms=IDLE, store_path=store, **KDF)
    try:
        assert later.snapshot().state == State.LOCKED_OUT
        with pytest.raises(LockedOutError):
            later.unlock(PASSCODE)
        later.disable()  # the only way out: sign-out
        assert not store.exists()
    finally:
        later.close()

# SPDX-License-Identifier: MIT
"""Sealed secrets and the gate (header: "Sealed secrets and the gate"; docs/STORE.md)."""

from __future__ import annotations

import ctypes

import pytest

import idlelock

from idlelock import (
    IdleLockError,
    InvalidArgumentError,
    InvalidPasscodeError,
    LockedOutError,
    NotFoundError,
    SessionLockedError,
    State,
)

from conftest import PASSCODE, WRONG


def test_secrets_sealed_while_locked_and_restored_after_unlock(engaged):
    lock = engaged()
    lock.put_secret("access_token", b"tok-123")
    lock.put_secret("profile", bytes(range(256)))
    lock.require_unlocked()

    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.get_secret("access_token")
    with pytest.raises(SessionLockedError):
        lock.put_secret("other", b"x")
    with pytest.raises(SessionLockedError):
        lock.remove_secret("profile")
    with pytest.raises(SessionLockedError):
        lock.require_unlocked()

    lock.unlock(PASSCODE)
    assert lock.get_secret("access_token") == b"tok-123"
    assert lock.get_secret("profile") == bytes(range(256))
    with pytest.raises(NotFoundError):
        lock.get_secret("other")  # the put while locked had no effect
    lock.require_unlocked()


def test_secret_calls_judge_the_deadlines(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    lock.put_secret("t", b"v")
    clock.advance(60_000)
    with pytest.raises(SessionLockedError) as e:
        lock.get_secret("t")
    assert e.value.status == 2
    assert lock.snapshot().state == State.LOCKED


def test_gate_judges_the_deadlines(engaged, clock):
    lock = engaged(idle_after_ms=60_000)
    clock.advance(59_999)
    lock.require_unlocked()
    clock.advance(1)
    with pytest.raises(SessionLockedError):
        lock.require_unlocked()


def test_secrets_sealed_when_locked_out(engaged):
    lock = engaged(max_attempts=1)
    lock.put_secret("t", b"v")
    lock.lock()
    with pytest.raises(LockedOutError):
        lock.unlock(WRONG)
    with pytest.raises(SessionLockedError):
        lock.get_secret("t")
    with pytest.raises(SessionLockedError):
        lock.require_unlocked()
    lock.disable()  # sign-out forgets every secret
    with pytest.raises(NotFoundError):
        lock.get_secret("t")
    lock.require_unlocked()  # not engaged: OK


def test_secrets_work_before_a_passcode(make_lock):
    lock = make_lock()
    lock.put_secret("t", b"memory only")
    assert lock.get_secret("t") == b"memory only"
    lock.set_passcode(PASSCODE)  # engaging keeps them
    assert lock.get_secret("t") == b"memory only"
    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.get_secret("t")
    lock.unlock(PASSCODE)
    assert lock.get_secret("t") == b"memory only"


def test_replace_and_remove(engaged):
    lock = engaged()
    lock.put_secret("t", b"one")
    lock.put_secret("t", b"two")
    assert lock.get_secret("t") == b"two"
    lock.remove_secret("t")
    with pytest.raises(NotFoundError):
        lock.get_secret("t")
    with pytest.raises(NotFoundError):
        lock.remove_secret("t")


def test_not_found_is_a_key_error_with_a_readable_message(engaged):
    lock = engaged()
    with pytest.raises(KeyError) as e:
        lock.get_secret("missing")
    assert isinstance(e.value, NotFoundError)
    assert isinstance(e.value, IdleLockError)
    assert e.value.status == 8
    assert str(e.value).endswith("[IDLELOCK_ERR_NOT_FOUND]")
    assert not str(e.value).startswith("'")  # not KeyError's repr() quirk


@pytest.mark.parametrize("size", [0, 1, 1023, 1024, 1025, 4096, 65536])
def test_value_sizes_and_buffer_retry(engaged, size):
    lock = engaged()
    value = bytes((i * 7) & 0xFF for i in range(size))
    lock.put_secret("blob", value)
    assert lock.get_secret("blob") == value


def test_value_too_large(engaged):
    lock = engaged()
    with pytest.raises(InvalidArgumentError):
        lock.put_secret("blob", b"x" * 65537)


def test_bytes_like_values(engaged):
    lock = engaged()
    lock.put_secret("a", bytearray(b"ba"))
    lock.put_secret("b", memoryview(b"mv"))
    lock.put_secret("c", memoryview(b"0123456789")[::2])  # non-contiguous
    assert lock.get_secret("a") == b"ba"
    assert lock.get_secret("b") == b"mv"
    assert lock.get_secret("c") == b"02468"
    with pytest.raises(TypeError):
        lock.put_secret("d", "a str")


def test_a_bytes_like_value_is_read_within_its_own_bounds(engaged):
    # Issue 19's sibling check: the Python API has no (buffer, length)
    # argument; a view is taken by its nbytes, only its window, whatever its
    # item size or strides.
    import array

    lock = engaged()
    backing = bytearray(b"0123456789abcdef")
    lock.put_secret("window", memoryview(backing)[4:8])
    assert lock.get_secret("window") == b"4567"
    wide = array.array("H", [0x3130, 0x3332])
    lock.put_secret("wide", memoryview(wide))
    assert lock.get_secret("wide") == wide.tobytes()
    lock.put_secret("strided", memoryview(wide).cast("B")[::2])
    assert lock.get_secret("strided") == wide.tobytes()[::2]
    with pytest.raises(TypeError):
        lock.put_secret("ctypes", (ctypes.c_uint8 * 4)())  # not bytes-like to this API: refused


@pytest.mark.parametrize("name", ["n", "x" * 64, "é" * 32, "токен"])
def test_good_names(engaged, name):
    lock = engaged()
    lock.put_secret(name, b"v")
    assert lock.get_secret(name) == b"v"


@pytest.mark.parametrize("name", ["", "x" * 65, "é" * 33, "a\x00b"])
def test_bad_names(engaged, name):
    lock = engaged()
    with pytest.raises(InvalidArgumentError):
        lock.put_secret(name, b"v")
    with pytest.raises(InvalidArgumentError):
        lock.get_secret(name)
    with pytest.raises(InvalidArgumentError):
        lock.remove_secret(name)


def test_name_type(engaged):
    lock = engaged()
    with pytest.raises(TypeError):
        lock.put_secret(b"bytes-name", b"v")


def test_at_most_256_secrets(engaged):
    lock = engaged()
    for i in range(256):
        lock.put_secret(f"s{i}", b"v")
    lock.put_secret("s0", b"replaced")  # replacing is not a new name
    # A capacity limit (NO_MEMORY), not a bad argument.
    with pytest.raises(idlelock.NoMemoryError):
        lock.put_secret("one-too-many", b"v")


def test_wrong_attempt_keeps_secrets_sealed(engaged):
    lock = engaged()
    lock.put_secret("t", b"v")
    lock.lock()
    with pytest.raises(InvalidPasscodeError):
        lock.unlock(WRONG)
    with pytest.raises(SessionLockedError):
        lock.get_secret("t")

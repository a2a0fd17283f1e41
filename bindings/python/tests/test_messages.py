# SPDX-License-Identifier: MIT
"""The library's messages reach Python callers in Python's words (issue
20): no C function names, no ``config.`` fields, no ``IDLELOCK_*``
constants, and the options, methods and constants a Python caller uses."""

from __future__ import annotations

import re
from typing import Callable

import pytest

import idlelock
from idlelock import (
    IdleLock,
    IdleLockError,
    InvalidArgumentError,
    LockUnavailableError,
    NoPasscodeError,
    SessionLockedError,
)

from conftest import KDF, PASSCODE

C_WORDS = re.compile(r"\bconfig\.|IDLELOCK_|idlelock_|\bsecret_len\b|->")


def message_of(call: Callable[[], object], kind: type = IdleLockError) -> str:
    with pytest.raises(kind) as e:
        call()
    message = e.value.message
    assert not C_WORDS.search(message), f"C words in: {message}"
    return message


def test_option_errors_name_the_keyword_and_none_for_never():
    message = message_of(lambda: IdleLock(**KDF), InvalidArgumentError)
    assert message.startswith("idle_after_ms and background_after_ms are both None (never)")
    assert "grace_ms must be 0..60000, got 60001" in message_of(
        lambda: IdleLock(idle_after_ms=1000, grace_ms=60_001, **KDF), InvalidArgumentError)
    assert "max_attempts must be 1..100, got 0" in message_of(
        lambda: IdleLock(idle_after_ms=1000, max_attempts=0, **KDF), InvalidArgumentError)


def test_store_option_errors_speak_python(tmp_path):
    message = message_of(lambda: IdleLock(idle_after_ms=1000, lock_on_start=False,
                                          store_path=tmp_path / "s", **KDF), InvalidArgumentError)
    assert "lock_on_start is False with a store_path but no device_key" in message
    assert "set lock_on_start=True or give a device_key" in message


def test_call_errors_name_the_methods(make_lock):
    lock = make_lock()
    assert message_of(lambda: lock.unlock(PASSCODE), NoPasscodeError).endswith("set one with set_passcode()")
    assert "check() from your own timer" in message_of(lock.watch_start, InvalidArgumentError)
    lock.set_passcode(PASSCODE)
    lock.lock()
    assert "begin_biometric_unlock() / BiometricRequest.finish()" in message_of(
        lock.unlock_with_biometrics, LockUnavailableError)
    message_of(lambda: lock.get_secret("x"), SessionLockedError)


def test_biometric_request_errors_name_the_python_api(make_lock):
    lock = make_lock(lock_on_start=False)
    lock.set_passcode(PASSCODE)
    request = lock.begin_biometric_enable()
    secret = bytes(request.secret)
    request.finish()
    lock.lock()
    open_ = [lock.begin_biometric_unlock() for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX)]
    message = message_of(lock.begin_biometric_unlock, InvalidArgumentError)
    assert "BIOMETRIC_REQUESTS_MAX (8)" in message and "(AuthResult.CANCELLED)" in message
    for r in open_:
        r.cancel()
    message = message_of(lambda: open_[0].finish(secret), InvalidArgumentError)
    assert "cancelled before the answer came" in message and "begin a new request" in message
    spent = lock.begin_biometric_unlock()
    message_of(lambda: spent.finish(result=idlelock.AuthResult.CANCELLED), LockUnavailableError)
    message = message_of(lambda: spent.finish(secret), InvalidArgumentError)
    assert "voided by disable(), a new passcode or disable_biometrics()" in message
    request = lock.begin_biometric_unlock()
    message = message_of(lambda: request.finish(secret, result=idlelock.AuthResult.CANCELLED),
                         InvalidArgumentError)
    assert "the secret's length must be 0 with a result other than AuthResult.OK" in message
    request.cancel()

# SPDX-License-Identifier: MIT
"""Option validation: the binding's own checks (types, signs, C field range)
and the library's range checks (the header's "Types": idlelock_config), all naming the
option."""

from __future__ import annotations

import math

import pytest

import idlelock
from idlelock import SAME_AS_IDLE, IdleLock, InvalidArgumentError, State

from conftest import KDF, PASSCODE

DURATIONS = ["idle_after_ms", "background_after_ms", "inactive_after_ms", "grace_ms",
             "prompt_cap_ms"]
INTEGERS = ["max_attempts", "kdf_opslimit", "kdf_memlimit"]


def base(**kw):
    options = {"idle_after_ms": 60_000, **KDF}
    options.update(kw)
    return options


def make(**kw):
    return IdleLock(**base(**kw))


@pytest.mark.parametrize("option", DURATIONS + INTEGERS)
@pytest.mark.parametrize(
    "value, error",
    [
        (-1, InvalidArgumentError),
        (-(2**70), InvalidArgumentError),
        (2**64 + 5, InvalidArgumentError),  # would wrap to 5 in a C field
        (math.nan, InvalidArgumentError),
        (math.inf, InvalidArgumentError),
        (-math.inf, InvalidArgumentError),
        (True, TypeError),
        (False, TypeError),
        (1.5, TypeError),
        (1500.0, TypeError),
        ("1500", TypeError),
        (object(), TypeError),
    ],
)
def test_binding_validation_names_the_option(option, value, error):
    with pytest.raises(error) as e:
        make(**{option: value})
    assert option in str(e.value)
    if error is InvalidArgumentError:
        assert isinstance(e.value, ValueError)
        assert e.value.status == 1


@pytest.mark.parametrize(
    "option, value",
    [
        ("idle_after_ms", 0),  # > 0
        ("grace_ms", 60_001),  # 0..60000
        ("max_attempts", 0),  # 1..100
        ("max_attempts", 101),
        ("kdf_opslimit", 1),  # 2..10
        ("kdf_opslimit", 11),
        ("kdf_memlimit", 19 * 1024 * 1024 - 1),  # 19 MiB..1 GiB
        ("kdf_memlimit", 1024 * 1024 * 1024 + 1),
        ("max_attempts", 2**31 - 1),
        ("grace_ms", 2**63 - 1),
    ],
)
def test_library_range_checks_name_field_and_value(option, value):
    with pytest.raises(InvalidArgumentError) as e:
        make(**{option: value})
    assert e.value.status == 1
    assert option in e.value.message
    assert str(value) in e.value.message


@pytest.mark.parametrize(
    "option, value",
    [
        ("grace_ms", 0),
        ("grace_ms", 60_000),
        ("max_attempts", 1),
        ("max_attempts", 100),
        ("kdf_opslimit", 10),
        ("inactive_after_ms", 0),
        ("background_after_ms", 0),
        ("idle_after_ms", 1),
        ("prompt_cap_ms", 0),
        ("prompt_cap_ms", 600_000),
    ],
)
def test_bounds_are_inclusive(option, value):
    make(**{option: value}).close()


def test_a_lock_that_never_times_out_is_refused():
    with pytest.raises(InvalidArgumentError) as e:
        IdleLock(**KDF)  # idle NEVER, background SAME_AS_IDLE
    assert "idle_after_ms" in e.value.message
    with pytest.raises(InvalidArgumentError) as e:
        IdleLock(idle_after_ms=None, background_after_ms=None, **KDF)
    assert "idle_after_ms" in e.value.message
    with pytest.raises(InvalidArgumentError):
        IdleLock(idle_after_ms=None, background_after_ms=SAME_AS_IDLE, **KDF)


def test_none_means_never():
    IdleLock(idle_after_ms=None, background_after_ms=10_000, **KDF).close()
    IdleLock(idle_after_ms=10_000, background_after_ms=None, **KDF).close()
    IdleLock(idle_after_ms=10_000, inactive_after_ms=None, **KDF).close()
    IdleLock(idle_after_ms=idlelock.NEVER, background_after_ms=1, **KDF).close()


def test_grace_does_not_accept_never():
    with pytest.raises(TypeError) as e:
        make(grace_ms=None)
    assert "grace_ms" in str(e.value)


def test_lock_on_start_must_be_bool():
    for value in (1, 0, "yes", None):
        with pytest.raises(TypeError) as e:
            make(lock_on_start=value)
        assert "lock_on_start" in str(e.value)


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        IdleLock(60_000)  # type: ignore[misc]


def test_clock_must_be_callable():
    with pytest.raises(TypeError) as e:
        make(clock=12345)
    assert "clock" in str(e.value)


def test_sentinel_misuse():
    with pytest.raises(TypeError):
        make(grace_ms=SAME_AS_IDLE)


def test_int_like_values_are_accepted(clock):
    class Ms:
        def __index__(self) -> int:
            return 60_000

    lock = IdleLock(idle_after_ms=Ms(), lock_on_start=False, clock=clock, **KDF)
    lock.set_passcode(PASSCODE)
    clock.advance(60_000)
    assert lock.check().state == State.LOCKED
    lock.close()


def test_kdf_floor_and_default_accepted():
    make().close()
    IdleLock(idle_after_ms=60_000).close()  # library KDF defaults


@pytest.mark.parametrize("value", [600_001, 2**63 - 1])
def test_prompt_cap_ms_over_the_maximum_names_the_option(value):
    with pytest.raises(InvalidArgumentError) as e:
        make(prompt_cap_ms=value)
    assert e.value.status == 1
    assert "prompt_cap_ms" in str(e.value)
    assert str(value) in str(e.value)
    assert str(idlelock.PROMPT_CAP_MAX_MS) in str(e.value)


def test_prompt_cap_ms_does_not_accept_never():
    with pytest.raises(TypeError) as e:
        make(prompt_cap_ms=None)
    assert "prompt_cap_ms" in str(e.value)

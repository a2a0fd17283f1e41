# SPDX-License-Identifier: MIT
"""The validation of :class:`IdleLock`'s options and of the methods'
arguments, before C sees them: each error names the option, and nothing
is wrapped silently into a C type. Private: use :mod:`idlelock`."""

from __future__ import annotations

import ctypes
import enum
import math
import operator
import os
from typing import Any, List, Union

from . import _ffi
from .errors import InvalidArgumentError


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
    against the current directory now, as the library would at create
    (which follows at once); the library holds the store's folder open
    from then on, so a later ``os.chdir`` changes nothing. No
    normalization otherwise: ``..`` and symlinks are left to the system."""
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


def _prompt_cap(value: Any) -> int:
    """``prompt_cap_ms``: an int of ms, 0..PROMPT_CAP_MAX_MS (no ``None``:
    a prompt can never defer the rules for ever)."""
    v = _duration("prompt_cap_ms", value, never_ok=False)
    if v > _ffi.PROMPT_CAP_MAX_MS:
        raise _bad("prompt_cap_ms", f"{v} ms is over the maximum of {_ffi.PROMPT_CAP_MAX_MS} ms")
    return v


def _passcode_max_age(value: Any) -> int:
    """``passcode_max_age_ms`` (1.2): 0 (off), or 1 hour .. 30 days in ms."""
    v = _duration("passcode_max_age_ms", value, never_ok=False)
    if v != 0 and not _ffi.PASSCODE_MAX_AGE_MIN_MS <= v <= _ffi.PASSCODE_MAX_AGE_MAX_MS:
        raise _bad(
            "passcode_max_age_ms",
            f"{v} ms: use 0 (off) or {_ffi.PASSCODE_MAX_AGE_MIN_MS}..{_ffi.PASSCODE_MAX_AGE_MAX_MS}"
            " (1 hour .. 30 days)",
        )
    return v


def _biometric_max_uses(value: Any) -> int:
    """``biometric_max_uses`` (1.2): 0 (off) or 1..1000."""
    v = _ranged("biometric_max_uses", value, 0, _ffi.INT32_MAX, "uses")
    if v > _ffi.BIOMETRIC_MAX_USES_MAX:
        raise _bad("biometric_max_uses", f"{v}: use 0 (off) or 1..{_ffi.BIOMETRIC_MAX_USES_MAX}")
    return v


def _recent_auth_max_age(value: Any) -> int:
    """``require_recent_auth``'s ``max_age_ms`` (1.2): 1 ms .. 30 days."""
    v = _duration("max_age_ms", value, never_ok=False)
    if not 1 <= v <= _ffi.RECENT_AUTH_MAX_MS:
        raise _bad("max_age_ms", f"{v} ms: use 1..{_ffi.RECENT_AUTH_MAX_MS} (30 days)")
    return v


def _delay_schedule(value: Any, max_attempts: int) -> "List[tuple[int, int]]":
    """``delay_schedule``: ``"ios"`` (the library's preset) or an iterable of
    ``(failed_attempts, delay_ms)`` pairs, checked against the header's
    rules before C sees it (the message names the option and the step).
    Returns the steps as ints; an empty iterable is "no delays"."""
    preset = False
    if isinstance(value, str):
        if value != "ios":
            raise _bad(
                "delay_schedule",
                f"unknown preset {value!r}: the only preset is \"ios\"; otherwise "
                "pass a list of (failed_attempts, delay_ms) pairs",
            )
        raw: List[Any] = list(_ffi.ios_delay_schedule())
        preset = True
    elif isinstance(value, (bytes, bytearray, memoryview, dict, set, frozenset)):
        raise TypeError(
            "delay_schedule must be \"ios\" or a list of (failed_attempts, delay_ms) "
            f"pairs, not {type(value).__name__}"
        )
    else:
        try:
            raw = list(value)
        except TypeError:
            raise TypeError(
                "delay_schedule must be \"ios\" or a list of (failed_attempts, delay_ms) "
                f"pairs, not {type(value).__name__}"
            ) from None
    if len(raw) > _ffi.DELAY_SCHEDULE_MAX_STEPS:
        raise _bad(
            "delay_schedule",
            f"{len(raw)} steps, at most {_ffi.DELAY_SCHEDULE_MAX_STEPS} allowed",
        )
    steps: List["tuple[int, int]"] = []
    for i, step in enumerate(raw):
        where = f"delay_schedule[{i}]"
        if not isinstance(step, (tuple, list)) or len(step) != 2:
            raise TypeError(
                f"{where} must be a (failed_attempts, delay_ms) pair, "
                f"not {type(step).__name__}" + (f" of length {len(step)}" if isinstance(step, (tuple, list)) else "")
            )
        attempts = _int_value(f"{where} failed_attempts", step[0], "attempts")
        delay = _int_value(f"{where} delay_ms", step[1], "ms")
        if not 1 <= attempts < _ffi.MAX_ATTEMPTS_MAX:
            raise _bad(where, f"failed_attempts {attempts} is not in 1..{_ffi.MAX_ATTEMPTS_MAX - 1}")
        if not 1 <= delay <= _ffi.DELAY_MAX_MS:
            raise _bad(where, f"delay_ms {delay} is not in 1..{_ffi.DELAY_MAX_MS} (one day at most)")
        if steps and attempts <= steps[-1][0]:
            raise _bad(
                where,
                f"failed_attempts {attempts} must be greater than the step before it "
                f"({steps[-1][0]}): steps are strictly increasing",
            )
        if steps and delay < steps[-1][1]:
            raise _bad(
                where,
                f"delay_ms {delay} is shorter than the step before it ({steps[-1][1]}): "
                "delays never decrease",
            )
        steps.append((attempts, delay))
    # Every step must be below max_attempts (a step at the limit would never
    # apply: that attempt locks out). An out-of-range max_attempts is left
    # to the library, which names it.
    if steps and 1 <= max_attempts <= _ffi.MAX_ATTEMPTS_MAX and steps[-1][0] >= max_attempts:
        if preset:
            raise _bad(
                "delay_schedule",
                f"the \"ios\" preset has a step at {steps[-1][0]} failed attempts, so it "
                f"needs max_attempts={steps[-1][0] + 1} (as on iOS; got max_attempts={max_attempts})",
            )
        raise _bad(
            f"delay_schedule[{len(steps) - 1}]",
            f"failed_attempts {steps[-1][0]} must be below max_attempts ({max_attempts}): "
            "a step at the limit would never apply",
        )
    return steps


def _token(value: Any) -> int:
    """A prompt token for ``idlelock_prompt_end`` (uint64)."""
    if isinstance(value, bool):
        raise TypeError("token must be an int, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"token must be an int, not {type(value).__name__}") from None
    if not 0 <= v <= _ffi.UINT64_MAX:
        raise _bad("token", f"{v} is not a prompt token (tokens are uint64)")
    return v


def _platform(value: Any) -> int:
    """A ``Platform`` (or a plain int, for a platform a newer library added);
    the library judges whether it knows it."""
    if isinstance(value, bool):
        raise TypeError("platform must be an idlelock.Platform, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(
            f"platform must be an idlelock.Platform, not {type(value).__name__}"
        ) from None
    if not _ffi.INT32_MIN <= v <= _ffi.INT32_MAX:
        raise _bad("platform", f"{v} is not an IDLELOCK_PLATFORM_* value (does not fit int32)")
    return v


def _state_name(value: Any) -> bytes:
    """A platform's state name (``str``), as a NUL-terminated C string."""
    if not isinstance(value, str):
        raise TypeError(f"state_name must be str, not {type(value).__name__}")
    if "\0" in value:
        raise _bad("state_name", "contains a NUL character (the library takes a NUL-terminated C string)")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad("state_name", "not encodable as UTF-8 (lone surrogate)") from None


def _secret_name(name: Any) -> bytes:
    if not isinstance(name, str):
        raise TypeError(f"secret name must be str, not {type(name).__name__}")
    if "\0" in name:
        raise _bad("name", "a secret name cannot contain NUL (names are NUL-terminated C strings)")
    try:
        return name.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad("name", "not encodable as UTF-8 (lone surrogate)") from None

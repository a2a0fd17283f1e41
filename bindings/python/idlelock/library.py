# SPDX-License-Identifier: MIT
"""What the loaded library says of itself: its path and version, the names
of its status codes, its limits, and its iOS-like delay preset."""

from __future__ import annotations

import operator
from typing import List

from . import _ffi


#: ``IDLELOCK_NEVER`` (INT64_MAX): "no deadline". Timeouts also accept
#: ``None`` for it, and :attr:`Snapshot.ms_until_idle_lock` reports it as
#: ``None``.
NEVER: int = _ffi.NEVER

#: ``IDLELOCK_AUTH_SECRET_BYTES``: the length of the secret an
#: :class:`Authenticator` keeps and gives back (32).
AUTH_SECRET_BYTES: int = _ffi.AUTH_SECRET_BYTES

#: The largest ``prompt_cap_ms`` the library accepts (600000 ms, 10 minutes).
PROMPT_CAP_MAX_MS: int = _ffi.PROMPT_CAP_MAX_MS

#: The longest step of a ``delay_schedule`` (86400000 ms, one day).
DELAY_MAX_MS: int = _ffi.DELAY_MAX_MS

#: The most steps a ``delay_schedule`` may have (32).
DELAY_SCHEDULE_MAX_STEPS: int = _ffi.DELAY_SCHEDULE_MAX_STEPS

#: (1.2) How many biometric requests (:meth:`IdleLock.begin_biometric_unlock`,
#: :meth:`IdleLock.begin_biometric_enable`) may be open on one lock (8).
BIOMETRIC_REQUESTS_MAX: int = _ffi.BIOMETRIC_REQUESTS_MAX

#: Path (or soname) of the loaded shared library.
library_path: str = _ffi.library_path


def version() -> str:
    """The library's version, ``"MAJOR.MINOR.PATCH"`` (``idlelock_version``)."""
    return _ffi.lib.idlelock_version()  # type: ignore[no-any-return]


def version_number() -> int:
    """The library's version as ``MAJOR*10000 + MINOR*100 + PATCH``."""
    return int(_ffi.lib.idlelock_version_number())


def ios_delay_schedule() -> List["tuple[int, int]"]:
    """The library's iOS-like escalating-delay preset
    (``idlelock_delay_schedule_ios``) as ``[(failed_attempts, delay_ms),
    ...]``: after Apple's Platform Security guide, 5 wrong passcodes: 1
    minute; 6: 5 minutes; 7: 15 minutes; 9: 1 hour. ``IdleLock(
    delay_schedule="ios", max_attempts=10)`` uses it."""
    return _ffi.ios_delay_schedule()


def status_name(code: int) -> str:
    """The fixed name of a status code (``idlelock_status_name``), e.g.
    ``"IDLELOCK_ERR_SESSION_LOCKED"``; ``"IDLELOCK_ERR_UNKNOWN"`` (the
    library's generic name) for a code it does not know, including codes
    outside the C ``int`` range.

    Raises :class:`TypeError` when ``code`` is not an integer.
    """
    if isinstance(code, bool):
        raise TypeError("status code must be an int, not bool")
    value = operator.index(code)
    if not _ffi.INT32_MIN <= value <= _ffi.INT32_MAX:
        value = -1  # never a valid status: gets the generic name
    return _ffi.lib.idlelock_status_name(value)  # type: ignore[no-any-return]

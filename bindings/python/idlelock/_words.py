# SPDX-License-Identifier: MIT
"""The library's messages in this binding's words. ``idlelock_last_error()``
speaks C: it starts with the C function's name and names config fields
(``config.idle_after_ms``), constants (``IDLELOCK_NEVER``) and functions
(``idlelock_set_passcode``). A Python caller knows the keyword option
``idle_after_ms``, ``None`` for never and ``set_passcode()``: every
message the binding raises from the library goes through
:func:`in_python_words` (on the error path only). Also the lifecycle
names each :class:`Platform` has, for the message of a wrong one.
Private: use :mod:`idlelock`."""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from . import _ffi

# (C words, Python words), applied in this order (longest first where one
# is the start of another).
_PHRASES: List[Tuple[str, str]] = [
    ("(config.authenticator is NULL)", "(the lock has no authenticator=)"),
    ("idlelock_biometric_begin / _finish",
     "begin_biometric_unlock() / BiometricRequest.finish()"),
    ("idlelock_config_init(&cfg, sizeof cfg)", "the IdleLock options"),
    ("IDLELOCK_NEVER", "None (never)"),
    ("IDLELOCK_SAME_AS_IDLE", "SAME_AS_IDLE"),
    ("IDLELOCK_AUTH_SECRET_BYTES", "AUTH_SECRET_BYTES"),
    ("IDLELOCK_AUTH_*", "AuthResult"),
    ("IDLELOCK_BIOMETRIC_REQUESTS_MAX", "BIOMETRIC_REQUESTS_MAX"),
    ("IDLELOCK_PLATFORM_*", "Platform"),
    ("secret_len", "the secret's length"),
    ("lock_on_start is 0", "lock_on_start is False"),
    ("set lock_on_start to 1", "set lock_on_start=True"),
]

# C function (or field) names that appear inside messages -> Python.
_FUNCTIONS: Dict[str, str] = {
    "idlelock_set_passcode": "set_passcode()",
    "idlelock_disable_biometrics": "disable_biometrics()",
    "idlelock_enable_biometrics": "enable_biometrics()",
    "idlelock_unlock_with_biometrics": "unlock_with_biometrics()",
    "idlelock_disable": "disable()",
    "idlelock_start": "start()",
    "idlelock_check": "check()",
    "idlelock_unlock": "unlock()",
    "idlelock_lock": "lock()",
    "idlelock_biometric_begin": "begin_biometric_unlock()",
    "idlelock_biometric_finish": "BiometricRequest.finish()",
    "idlelock_prompt_begin": "prompt_begin()",
    "idlelock_prompt_end": "prompt_end()",
}

_PREFIX = re.compile(r"^idlelock_[a-z_]+: ")
_CONFIG = re.compile(r"\bconfig\.([a-z_]+)(?:->([a-z_]+))?")
_FUNCTION = re.compile(r"\bidlelock_[a-z_]+\b")
_CONSTANT = re.compile(r"\bIDLELOCK_(AUTH|BIOMETRIC)_([A-Z_]+)\b")


def _constant(match: "re.Match[str]") -> str:
    kind, name = match.group(1), match.group(2)
    if kind == "AUTH":
        return f"AuthResult.{name}"
    return f"BiometricPurpose.{name}"


def in_python_words(message: str) -> str:
    """``message`` (the library's) with the C function's name it starts
    with dropped (the traceback names the method) and C names replaced by
    this binding's."""
    text = _PREFIX.sub("", message)
    for c, py in _PHRASES:
        text = text.replace(c, py)
    text = _CONFIG.sub(lambda m: f"{m.group(1)}.{m.group(2)}" if m.group(2) else m.group(1), text)
    text = _FUNCTION.sub(lambda m: _FUNCTIONS.get(m.group(0), m.group(0)), text)
    return _CONSTANT.sub(_constant, text)


# The states each platform's lifecycle adapter knows, in the library's
# table (Sources/IdleLock/Rules/LifecycleNames.swift, docs/LIFECYCLE.md):
# used only to list the valid names when the library refuses one (the
# library decides; tests/test_lifecycle.py checks every name here is one it
# accepts and that every platform is here).
STATE_NAMES: Dict[int, Tuple[str, ...]] = {
    _ffi.PLATFORM_IOS_SCENE_PHASE: ("active", "inactive", "background"),
    _ffi.PLATFORM_IOS_APPLICATION_STATE: ("active", "inactive", "background"),
    _ffi.PLATFORM_ANDROID_LIFECYCLE_EVENT: (
        "ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY"),
    _ffi.PLATFORM_FLUTTER_APP_LIFECYCLE_STATE: (
        "resumed", "inactive", "hidden", "paused", "detached"),
    _ffi.PLATFORM_REACT_NATIVE_APP_STATE: (
        "active", "inactive", "background", "unknown", "extension"),
}

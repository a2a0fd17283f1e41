# SPDX-License-Identifier: MIT
"""The library's messages in this binding's words. ``idlelock_last_error()``
speaks C: it starts with the C function's name and names config fields
(``config.idle_after_ms``), constants (``IDLELOCK_NEVER``) and functions
(``idlelock_set_passcode``). A Python caller knows the keyword option
``idle_after_ms``, ``None`` for never and ``set_passcode()``: every
message the binding raises from the library goes through
:func:`in_python_words` (on the error path only). Private: use
:mod:`idlelock`."""

from __future__ import annotations

import re
from typing import List, Tuple

from ._generated import NAMES

# (C words, Python words) of whole phrases, applied first, in this order.
_PHRASES: List[Tuple[str, str]] = [
    ("(config.authenticator is NULL)", "(the lock has no authenticator=)"),
    ("idlelock_biometric_begin / _finish",
     "begin_biometric_unlock() / BiometricRequest.finish()"),
    ("idlelock_config_init(&cfg, sizeof cfg)", "the IdleLock options"),
    ("lock_on_start is 0", "lock_on_start is False"),
    ("set lock_on_start to 1", "set lock_on_start=True"),
]

_PREFIX = re.compile(r"^idlelock_[a-z_]+: ")
_CONFIG = re.compile(r"\bconfig\.([a-z_]+)(?:->([a-z_]+))?")
# A C name: a constant (or a family, IDLELOCK_AUTH_*), a function, a field.
_NAME = re.compile(r"(?<![A-Za-z0-9_])(IDLELOCK_[A-Z0-9_]*[A-Z0-9](?:_\*)?|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)")


def in_python_words(message: str) -> str:
    """``message`` (the library's) with the C function's name it starts
    with dropped (the traceback names the method) and C names replaced by
    this binding's (bindings/names.txt, generated into _generated.NAMES)."""
    text = _PREFIX.sub("", message)
    for c, py in _PHRASES:
        text = text.replace(c, py)
    text = _CONFIG.sub(lambda m: f"{m.group(1)}.{m.group(2)}" if m.group(2) else m.group(1), text)
    return _NAME.sub(lambda m: NAMES.get(m.group(0), m.group(0)), text)

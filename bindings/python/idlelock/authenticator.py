# SPDX-License-Identifier: MIT
"""The host authenticator: the interface an app implements over its
platform keystore to offer the biometric shortcut."""

from __future__ import annotations

import abc
from typing import Optional, Union


class Authenticator(abc.ABC):
    """The host's platform keystore behind a biometric check
    (``idlelock_authenticator``). Subclass it, implement the four methods,
    and pass an instance as ``IdleLock(authenticator=...)``.

    The library has no biometric code. :meth:`IdleLock.enable_biometrics`
    makes a random 32-byte secret, wraps the session key with it, and hands
    the secret to :meth:`store_secret`; :meth:`IdleLock.unlock_with_biometrics`
    asks :meth:`load_secret` to run the check and give the secret back, and
    unlocks only if that secret opens the wrap. A biometric result is key
    material, never a yes/no: keep the secret in an item that the platform
    releases only after a biometric check (Android Keystore with
    ``setUserAuthenticationRequired``, an iOS Keychain item with
    ``kSecAccessControlBiometryCurrentSet``), so that an enrolment change
    invalidates it.

    **Memory:** the secret passes through Python objects. :meth:`store_secret`
    receives it as ``bytes`` and :meth:`load_secret` returns it as a bytes-like
    object; Python ``bytes`` are immutable and cannot be wiped, and the
    garbage collector frees them when it likes. The binding copies the
    returned secret into the library's buffer with :func:`ctypes.memmove`,
    drops its own references at once, and clears the locals of the frames of
    an exception raised by these two methods before keeping it, but it
    cannot erase copies your code makes. Keep the secret in a real keystore,
    not in a Python attribute (the test suite's fake keystore does that; a
    production authenticator must not).

    Calls: each method runs on the thread of the :class:`IdleLock` call that
    needs it (creation and :meth:`IdleLock.foreground`: ``is_available``;
    :meth:`IdleLock.enable_biometrics`: ``is_available``, ``store_secret``;
    :meth:`IdleLock.unlock_with_biometrics`: ``load_secret``;
    :meth:`IdleLock.disable_biometrics`, :meth:`IdleLock.set_passcode` and
    :meth:`IdleLock.disable`, when the shortcut was on: ``delete_secret``),
    never with the library's internal lock held: it may block for seconds
    (a person looking at a prompt) while other threads keep calling, and it
    may call the :class:`IdleLock`'s methods.

    Errors: :class:`AuthenticationFailed`, :class:`AuthenticationCancelled`
    and :class:`AuthenticatorUnavailable` are outcomes (see each). Any other
    exception never unwinds into C: the library is told the step failed
    (``is_available``: not available; ``store_secret``: not stored, the
    shortcut stays off; ``load_secret``: a failed check; ``delete_secret``:
    ignored by the library), and the exception is re-raised on the calling
    thread once the :class:`IdleLock` call returns, with the library's own
    error (if any) as its ``__context__``. The call itself took effect: use
    :meth:`IdleLock.snapshot` for the state.
    """

    @abc.abstractmethod
    def is_available(self) -> bool:
        """``True`` when a biometric check can run now (hardware present,
        enrolled). Must return a ``bool``. The library caches the answer
        (asked at creation, at :meth:`IdleLock.enable_biometrics` and at
        every :meth:`IdleLock.foreground`): keep it quick."""

    @abc.abstractmethod
    def store_secret(self, secret: bytes) -> None:
        """Keep these 32 bytes in an item released only after a biometric
        check, replacing any earlier one. Return ``None``; raise to fail (the
        shortcut then stays off)."""

    @abc.abstractmethod
    def load_secret(self, reason: Optional[str]) -> Union[bytes, bytearray]:
        """Run the biometric check, showing ``reason`` (the lock's
        ``unlock_reason``, or ``None``), and return the stored secret: exactly
        :data:`AUTH_SECRET_BYTES` (32) bytes as ``bytes``, ``bytearray`` or
        ``memoryview``. Any other length is a failed check. Raise
        :class:`AuthenticationFailed`, :class:`AuthenticationCancelled` or
        :class:`AuthenticatorUnavailable` to report those outcomes."""

    @abc.abstractmethod
    def delete_secret(self) -> None:
        """Delete the item (the shortcut was turned off: by
        :meth:`IdleLock.disable_biometrics`, a new passcode, a sign-out
        (:meth:`IdleLock.disable`), or a secret that no longer opens the
        shortcut). Return ``None``; a failure is ignored
        by the library (it has forgotten its wrap anyway), but an exception
        other than an :class:`AuthenticationError` is still re-raised to the
        caller."""

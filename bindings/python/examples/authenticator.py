from typing import Optional
from idlelock import (Authenticator, AuthenticationCancelled, AuthenticationFailed,
                      AuthenticatorUnavailable, IdleLock)

class Keystore(Authenticator):
    """Stand-in for a platform keystore item released only after a biometric
    check. A real one keeps the secret in the keystore, never in Python."""

    def __init__(self) -> None:
        self._item: Optional[bytes] = None

    def is_available(self) -> bool:          # hardware present and enrolled
        return True

    def store_secret(self, secret: bytes) -> None:   # raise to fail
        self._item = secret

    def load_secret(self, reason: Optional[str]) -> bytes:
        # Show the prompt with `reason`; then raise AuthenticationFailed (no
        # match), AuthenticationCancelled, or AuthenticatorUnavailable (no item).
        if self._item is None:
            raise AuthenticatorUnavailable("no item")
        return self._item                    # exactly 32 bytes

    def delete_secret(self) -> None:
        self._item = None

with IdleLock(idle_after_ms=5 * 60_000, authenticator=Keystore(),
              unlock_reason="Unlock to continue") as lock:
    lock.start()
    lock.set_passcode("2468")                # the shortcut needs a passcode
    lock.enable_biometrics()                 # calls is_available, store_secret
    lock.lock()
    snap = lock.unlock_with_biometrics()     # calls load_secret("Unlock to continue")
    print(snap.state, snap.is_biometrics_enabled, snap.attempts_remaining)  # UNLOCKED True 5

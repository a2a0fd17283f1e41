import asyncio
from typing import Optional
from idlelock import (AuthenticationCancelled, IdleLock, LockUnavailableError,
                      ReauthRequiredError)

class AsyncKeystore:
    """Stand-in for a keystore whose biometric check completes later. A real
    one keeps the secret behind the check (Android Keystore, iOS Keychain),
    never in a Python attribute."""

    def __init__(self) -> None:
        self._item: Optional[bytes] = None
        self.cancel_next = False

    async def store(self, secret: bytearray) -> None:
        await asyncio.sleep(0.01)                # the platform saves the item
        self._item = bytes(secret)

    async def check(self, request) -> bytes:
        await asyncio.sleep(0.05)                # the person looks at the sensor
        if self.cancel_next:
            raise AuthenticationCancelled("the user tapped Cancel")
        assert self._item is not None
        return self._item

async def main() -> None:
    keystore = AsyncKeystore()
    with IdleLock(idle_after_ms=5 * 60_000, biometric_max_uses=2,
                  kdf_opslimit=2, kdf_memlimit=19 * 1024 * 1024) as lock:
        lock.start()
        lock.set_passcode("2468")
        await lock.enable_biometrics_async(keystore.store)
        lock.lock()

        ticks = 0
        async def frames() -> None:              # the loop keeps running meanwhile
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                lock.check()
                ticks += 1
        ticker = asyncio.create_task(frames())
        snap = await lock.unlock_with_biometrics_async(keystore.check)
        ticker.cancel()
        print(snap.state, snap.is_biometrics_enabled, ticks > 0)   # UNLOCKED True True

        lock.require_recent_auth(60_000)         # "Confirm payment": fresh enough
        keystore.cancel_next = True
        lock.lock()
        try:
            await lock.unlock_with_biometrics_async(keystore.check)
        except LockUnavailableError as error:
            print("cancelled:", error.snapshot.state)              # cancelled: LOCKED
        keystore.cancel_next = False
        snap = await lock.unlock_with_biometrics_async(keystore.check)
        print(snap.state, snap.is_passcode_required)               # UNLOCKED True
        await asyncio.sleep(0.05)
        try:                                     # "Show recovery phrase" (10 ms just for
            lock.require_recent_auth(10)         # the example: a real screen allows more)
        except ReauthRequiredError:
            print("ask again")
        lock.unlock("2468")                      # a re-authentication resets the count too
        print(lock.snapshot().is_passcode_required)                # False

asyncio.run(main())

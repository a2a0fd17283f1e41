import os, tempfile
from idlelock import IdleLock

path = os.path.join(tempfile.mkdtemp(), "session.idlelock")
key = bytearray(os.urandom(32))              # stand-in for the keystore's key
lock = IdleLock(idle_after_ms=5 * 60_000, background_after_ms=30_000,
                store_path=path, device_key=key, lock_on_start=False)
key[:] = bytes(32)                           # the library keeps its own copy
lock.start()
lock.set_passcode("2468")
lock.close()

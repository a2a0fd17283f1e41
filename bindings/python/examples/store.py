import os, tempfile
from idlelock import IdleLock

data_dir = tempfile.mkdtemp()                # your app's private data folder
path = os.path.join(data_dir, "session.idlelock")

# First run: the user signs in.
with IdleLock(idle_after_ms=5 * 60_000, store_path=path) as lock:
    lock.start()
    lock.set_passcode("2468")                # creates the store (mode 0600)
    lock.put_secret("access_token", b"...")

# Next run (a new process): without a device key only the passcode opens
# the stored session, so it is locked from creation.
with IdleLock(idle_after_ms=5 * 60_000, store_path=path) as lock:
    snap = lock.start()
    print(snap.state, snap.reason)           # LOCKED STARTUP
    lock.unlock("2468")
    print(lock.get_secret("access_token"))   # b'...'
    lock.disable()                           # sign-out deletes the store

from idlelock import IdleLock, SessionLockedError

with IdleLock(idle_after_ms=300_000, background_after_ms=30_000) as lock:
    lock.set_passcode("4711")
    lock.put_secret("token", b"eyJhbGciOi...")
    lock.lock()                                  # "Lock now"
    try:
        lock.get_secret("token")
    except SessionLockedError:
        lock.unlock("4711")                      # InvalidPasscodeError on a wrong one
    print(lock.get_secret("token"), lock.snapshot().state.name)   # ... UNLOCKED

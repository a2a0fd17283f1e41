from idlelock import IdleLock, InvalidPasscodeError, RetryLaterError

now = [0]                                    # a hand-moved clock for the example (ms)
lock = IdleLock(idle_after_ms=5 * 60_000, warn_before_ms=30_000, max_attempts=10,
                delay_schedule="ios", lock_on_start=False, clock=lambda: now[0],
                kdf_opslimit=2, kdf_memlimit=19 * 1024 * 1024)
lock.set_passcode("2468")
now[0] += 4 * 60_000 + 30_000
snap = lock.check()
print(snap.is_warning, snap.ms_until_idle_lock)   # True 30000: "still there?"
lock.touch()                                 # the user is there: the warning ends
print(lock.snapshot().is_warning)            # False

lock.lock()
for _ in range(5):
    try:
        lock.unlock("1357")
    except InvalidPasscodeError as e:
        pass                                 # the fifth starts a one-minute delay
try:
    lock.unlock("2468")
except RetryLaterError as e:
    print("try again in", e.ms_until_retry, "ms")  # try again in 60000 ms (not counted)
now[0] += 60_000
print(lock.unlock("2468").state)             # UNLOCKED
lock.close()

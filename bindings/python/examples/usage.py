from idlelock import IdleLock, InvalidPasscodeError, SessionLockedError

with IdleLock(idle_after_ms=5 * 60_000,      # idle lock after 5 min without touch()
              background_after_ms=30_000,    # lock when away 30 s
              grace_ms=1_500) as lock:       # shorter absences are presence
    lock.start()                             # app launch: applies lock_on_start once
                                             # (no passcode yet: nothing to lock)
    # The user signs in and picks a passcode.
    lock.set_passcode("2468")                # engages the lock; str is UTF-8
    lock.put_secret("access_token", b"...")  # sealed while locked

    token = lock.subscribe(lambda s: print("heard:", s.state, s.reason, s.seq))
    lock.touch()                             # on every input event
    lock.background(); lock.foreground()     # lifecycle events
    snap = lock.check()                      # from a timer: snap.ms_until_idle_lock
    print(snap.state, snap.ms_until_idle_lock)          # UNLOCKED, about 300000

    lock.lock()                              # "Lock now"; heard: LOCKED MANUAL ...
    try:
        lock.get_secret("access_token")
    except SessionLockedError:
        print("sealed while locked")
    try:
        lock.unlock("1357")
    except InvalidPasscodeError as e:
        print(e.attempts_remaining, "attempts left")    # 4 attempts left
    lock.unlock("2468")
    lock.require_unlocked()                  # the gate: raises SessionLockedError when locked
    print(lock.get_secret("access_token"))              # b'...'
    lock.unsubscribe(token)

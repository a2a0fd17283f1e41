from idlelock import IdleLock, Platform

now = [0]                                    # a hand-moved clock for the example (ms)
lock = IdleLock(idle_after_ms=5 * 60_000, background_after_ms=0, grace_ms=1_500,
                prompt_cap_ms=120_000, lock_on_start=False, clock=lambda: now[0])
lock.start()
lock.set_passcode("2468")

def show_file_picker():                      # the picker covers the app for 40 s
    lock.background(); now[0] += 40_000; lock.foreground()

with lock.prompt():                          # prompt_begin() ... prompt_end(), also on error
    show_file_picker()
print(lock.snapshot().state)                 # UNLOCKED: the picker's absence is presence

lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_STOP")           # = background()
now[0] += 5_000
snap = lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_RESUME")  # = foreground()
print(snap.state, snap.reason)               # LOCKED BACKGROUNDED: no prompt this time
lock.close()

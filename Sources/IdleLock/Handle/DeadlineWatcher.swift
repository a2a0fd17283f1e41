// SPDX-License-Identifier: MIT
// The optional watcher thread for hosts with no event loop (header, "Life
// cycle": idlelock_watch_start): it sleeps until the handle's next deadline
// and calls `check`. It sleeps on the platform's alarm
// (Platform/WatcherAlarm.swift: a timer on the library's clock, which
// counts suspend) and the handle wakes it early (a deadline that moved
// earlier, or stop).

final class DeadlineWatcher {
    private let alarm: WatcherAlarm
    /// The one thread that runs this watcher (set under the handle's mutex
    /// before the watcher is published); a stop joins exactly this thread.
    var thread = PlatformThread.current()
    /// Set under the handle's mutex; the thread exits at its next wake-up
    /// (a wake-up already sent is never lost: the thread checks this before
    /// every sleep).
    var stopRequested = false
    /// The absolute clock reading (ms) the timer is armed for.
    var armedAt = Int64.max
    /// The reading the last `arm` could not arm the timer for (the system
    /// refused), which the next sleep's timeout then stands in for;
    /// `AlarmRules.disarmed` when the timer is armed. The watcher thread's
    /// own.
    private var unarmedAt = AlarmRules.disarmed

    private init(alarm: consuming WatcherAlarm) {
        self.alarm = alarm
    }

    static func make() throws(IdleLockError) -> DeadlineWatcher {
        DeadlineWatcher(alarm: try WatcherAlarm.make())
    }

    /// Wakes the thread (from any thread).
    func wake() { alarm.wake() }

    /// Arms the timer for the absolute reading `at` ms of the clock
    /// (`Int64.max`: disarmed). A timer the system refuses to arm is not a
    /// deadline missed: the next sleep ends on its own at `at`.
    func arm(at: Int64) {
        unarmedAt = alarm.arm(at: at) ? AlarmRules.disarmed : at
    }

    /// Sleeps until the deadline (true) or a wake-up (false).
    func sleep() -> Bool {
        let timeout = unarmedAt == AlarmRules.disarmed
            ? -1 : AlarmRules.timeout(at: unarmedAt, now: SystemClock.milliseconds())
        return alarm.sleep(timeoutMs: timeout)
    }
}

/// What a new watcher thread is handed at its start: the handle and the
/// watcher it owns from its first instruction on.
final class WatchThread {
    let handle: IdleLockHandle
    let watcher: DeadlineWatcher

    init(handle: IdleLockHandle, watcher: DeadlineWatcher) {
        self.handle = handle
        self.watcher = watcher
    }
}

// SPDX-License-Identifier: MIT
// The optional watcher thread (SPEC §9) for hosts with no event loop: it
// sleeps until the handle's next deadline and calls `check`. It sleeps on
// the platform's alarm (Platform/WatcherAlarm.swift: a timer on the
// library's clock, which counts suspend) and the handle wakes it early (a
// deadline that moved earlier, or stop).

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

    private init(alarm: consuming WatcherAlarm) {
        self.alarm = alarm
    }

    static func make() throws(IdleLockError) -> DeadlineWatcher {
        DeadlineWatcher(alarm: try WatcherAlarm.make())
    }

    /// Wakes the thread (from any thread).
    func wake() { alarm.wake() }

    /// Arms the timer for the absolute reading `at` ms of the clock
    /// (`Int64.max`: disarmed).
    func arm(at: Int64) { alarm.arm(at: at) }

    /// Sleeps until the timer fires (true) or a wake-up comes (false).
    func sleep() -> Bool { alarm.sleep() }
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

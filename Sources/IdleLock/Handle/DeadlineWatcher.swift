// The optional watcher thread (SPEC §9) for hosts with no event loop: it
// sleeps until the handle's next deadline and calls `check`. glibc refuses
// CLOCK_BOOTTIME for condition variables, so it sleeps in poll(2) on a
// timerfd armed on CLOCK_BOOTTIME (which counts suspend) and an eventfd the
// handle writes to wake it early (a deadline that moved earlier, or stop).

import CSystem

final class DeadlineWatcher {
    let timerFD: Int32
    let wakeFD: Int32
    /// The one thread that runs this watcher (set under the handle's mutex
    /// before the watcher is published); a stop joins exactly this thread.
    var thread = pthread_t()
    /// Set under the handle's mutex; the thread exits at its next wake-up
    /// (a wake-up already written to the eventfd is never lost: the
    /// thread checks this before every sleep).
    var stopRequested = false
    /// The absolute clock reading (ms) the timer is armed for.
    var armedAt = Int64.max

    private init(timerFD: Int32, wakeFD: Int32) {
        self.timerFD = timerFD
        self.wakeFD = wakeFD
    }

    static func make() throws(IdleLockError) -> DeadlineWatcher {
        let timer = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC))
        guard timer >= 0 else {
            throw IdleLockError(.internal, "timerfd_create(CLOCK_BOOTTIME) failed (errno ", Int64(ilk_errno()), ")")
        }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            close(timer)
            throw IdleLockError(.internal, "eventfd failed (errno ", Int64(ilk_errno()), ")")
        }
        return DeadlineWatcher(timerFD: timer, wakeFD: wake)
    }

    deinit {
        close(timerFD)
        close(wakeFD)
    }

    /// Wakes the thread (from any thread).
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Arms the timer for the absolute reading `at` ms of CLOCK_BOOTTIME
    /// (`Int64.max`: disarmed).
    func arm(at: Int64) {
        var spec = itimerspec()
        if at != Int64.max {
            let ms = Swift.max(at, 1)
            spec.it_value.tv_sec = Int(ms / 1000)
            spec.it_value.tv_nsec = Int((ms % 1000) * 1_000_000)
        }
        _ = timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Sleeps until the timer fires (true) or a wake-up comes (false).
    func sleep() -> Bool {
        var fds = (pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
        let ready = withUnsafeMutableBytes(of: &fds) {
            poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, -1)
        }
        if ready <= 0 { return false }
        var drained: UInt64 = 0
        if fds.1.revents != 0 { _ = read(wakeFD, &drained, 8) }
        if fds.0.revents != 0 {
            _ = read(timerFD, &drained, 8)
            return true
        }
        return false
    }
}

/// What a new watcher thread is handed at `pthread_create`: the handle and
/// the watcher it owns from its first instruction on.
final class WatchThread {
    let handle: IdleLockHandle
    let watcher: DeadlineWatcher

    init(handle: IdleLockHandle, watcher: DeadlineWatcher) {
        self.handle = handle
        self.watcher = watcher
    }
}

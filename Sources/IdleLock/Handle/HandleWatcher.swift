// SPDX-License-Identifier: MIT
// The handle's optional watcher thread (include/idlelock.h,
// idlelock_watch_start): it sleeps on the platform's alarm
// (DeadlineWatcher.swift, Platform/WatcherAlarm.swift) until the next
// deadline, then calls `check`, for hosts with no event loop.

extension IdleLockHandle {
    /// Starts the watcher (default clock only). Starting it twice is fine.
    func watchStart() throws(IdleLockError) {
        guard config.clock == nil else {
            throw .invalid("the watcher sleeps on the system's clock (Linux CLOCK_BOOTTIME) and cannot follow a caller-supplied clock; call idlelock_check from your own timer at ms_until_next_deadline")
        }
        mutex.lock()
        defer { mutex.unlock() }
        if watcher != nil { return }
        let started = try DeadlineWatcher.make()
        // The thread is handed its own watcher with the handle: it never
        // looks up the handle's current one, so after a stop and a new
        // start it cannot adopt the new thread's watcher (and swallow its
        // stop).
        let retained = Unmanaged.passRetained(WatchThread(handle: self, watcher: started))
        let rc = PlatformThread.start({ argument in
            IdleLockHandle.watch(argument)
            return nil
        }, retained.toOpaque(), as: &started.thread)
        guard rc == 0 else {
            retained.release()
            throw IdleLockError(.internal, "pthread_create failed for the watcher (error ", Int64(rc), ")")
        }
        watcher = started
    }

    /// Stops the watcher and waits for exactly the thread it stopped,
    /// unless called on that thread itself (from a listener it runs): then
    /// it is detached and ends when that call returns. Stopping a stopped
    /// watcher is fine (nothing to wait for: the stop that took it waits).
    func watchStop() {
        mutex.lock()
        guard let stopping = watcher else {
            mutex.unlock()
            return
        }
        stopping.stopRequested = true
        watcher = nil
        mutex.unlock()
        stopping.wake()
        if stopping.thread.isCurrent {
            stopping.thread.detach()
        } else {
            stopping.thread.join()
        }
    }

    /// The watcher thread: sleep until the next deadline (or a wake-up),
    /// then `check`. It holds its own references to the handle and to its
    /// watcher (its own from creation), so a listener on this thread may
    /// destroy the handle.
    private static func watch(_ argument: UnsafeMutableRawPointer?) {
        guard let argument else { return }
        let own = Unmanaged<WatchThread>.fromOpaque(argument).takeRetainedValue()
        let handle = own.handle
        let mine = own.watcher
        var lastFired = Int64.min
        while true {
            handle.mutex.lock()
            if mine.stopRequested {
                handle.mutex.unlock()
                return
            }
            let now = readClock(nil)
            let wait = handle.rules.msUntilNextDeadline(now: now)
            let at = AlarmRules.nextAlarm(now: now, wait: wait, lastFired: lastFired) // never spins
            mine.armedAt = at
            handle.mutex.unlock()
            mine.arm(at: at)
            if mine.sleep() {
                lastFired = at
                _ = handle.check()
            }
        }
    }
}

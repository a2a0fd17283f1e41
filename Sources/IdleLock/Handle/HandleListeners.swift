// SPDX-License-Identifier: MIT
// The handle's listeners (include/idlelock.h, "Listeners"): subscribe,
// unsubscribe, and the delivery of queued snapshots in `seq` order, one
// thread at a time, with no lock held while a listener runs. The registry
// and the queue are in Listeners.swift.

extension IdleLockHandle {
    /// Registers `call` to hear every later change; returns its token.
    func subscribe(_ call: @escaping (Snapshot) -> Void) throws(IdleLockError) -> UInt64 {
        mutex.lock()
        defer { mutex.unlock() }
        return try registry.add(call, since: seq)
    }

    /// Returns once no call of the listener runs on another thread.
    func unsubscribe(token: UInt64) throws(IdleLockError) {
        mutex.lock()
        defer { mutex.unlock() }
        guard registry.remove(token: token) else {
            throw .invalid("no listener is subscribed with token ", Int64(clamping: token))
        }
        while inFlightToken == token && !(draining && drainer.isCurrent) {
            mutex.wait()
        }
    }

    /// Delivers what a transaction with `ownChangesOnly` left queued; the
    /// caller's `out` keeps the state that transaction wrote.
    func deliverPending(keeping out: UnsafeMutablePointer<Snapshot>?) {
        mutex.lock()
        let pending = !queue.isEmpty
        mutex.unlock()
        guard pending else { return }
        // Read back only to restore the caller's own buffer after the
        // listeners (what listeners hear never comes from it).
        let own = out?.pointee
        deliver()
        if let out, let own { out.pointee = own }
    }

    /// Delivers queued snapshots in `seq` order, one thread at a time, with
    /// no lock held during a listener call. A thread that finds another
    /// draining leaves its snapshots to it (so a listener that calls back
    /// in has its own changes delivered after the current one).
    /// `limit`: stop before a later `seq` (what is left is delivered by the
    /// next call that delivers).
    func deliver(through limit: UInt64 = UInt64.max) {
        mutex.lock()
        if draining {
            mutex.unlock()
            return
        }
        // A listener may destroy the handle (idlelock_destroy): this thread
        // holds its own reference until the delivery is over, so the memory
        // outlives that listener's return however the call reached it.
        let held = Unmanaged.passRetained(self)
        draining = true
        drainer = PlatformThread.current()
        while let snapshot = queue.pop(through: limit) {
            var after: UInt64 = 0
            while let listener = registry.first(after: after) {
                after = listener.token
                // A listener hears only changes made after it subscribed.
                if snapshot.seq <= listener.since { continue }
                inFlightToken = listener.token
                mutex.unlock()
                listener.call(snapshot)
                mutex.lock()
                inFlightToken = 0
                mutex.broadcast()
            }
        }
        draining = false
        mutex.unlock()
        held.release() // may free the handle: nothing of it is touched after
    }
}

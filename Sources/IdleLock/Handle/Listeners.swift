// SPDX-License-Identifier: MIT
// Listener registrations and the per-handle queue of snapshots waiting to be
// delivered (header, "Listeners"). Both are guarded by the handle's mutex.

struct Listener {
    let token: UInt64
    /// `seq` when it subscribed: it hears only later changes.
    let since: UInt64
    /// Hands a snapshot to the host's listener and its context (the ABI
    /// layer's `idlelock_subscribe` makes it; it runs with no lock held).
    let call: (Snapshot) -> Void
}

enum ListenerLimits {
    static let count = 64
    /// Snapshots waiting for slow listeners; past this, pending changes
    /// are merged (the newest replaces the last queued one).
    static let queued = 1024
}

struct ListenerRegistry {
    private(set) var listeners: [Listener] = []
    private var nextToken: UInt64 = 1

    var isEmpty: Bool { listeners.isEmpty }

    /// Adds a listener; tokens start at 1 and are never reused.
    mutating func add(_ call: @escaping (Snapshot) -> Void, since: UInt64) throws(IdleLockError) -> UInt64 {
        guard listeners.count < ListenerLimits.count else {
            throw .invalid("subscribe: the handle already has 64 listeners (the limit); unsubscribe one first")
        }
        let token = nextToken
        nextToken &+= 1
        listeners.append(Listener(token: token, since: since, call: call))
        return token
    }

    /// Drops every listener (`destroy`).
    mutating func removeAll() {
        listeners.removeAll()
    }

    mutating func remove(token: UInt64) -> Bool {
        var i = 0
        while i < listeners.count {
            if listeners[i].token == token {
                listeners.remove(at: i)
                return true
            }
            i += 1
        }
        return false
    }

    /// The first listener whose token is greater than `token` (listeners are
    /// kept in token order).
    func first(after token: UInt64) -> Listener? {
        for listener in listeners where listener.token > token { return listener }
        return nil
    }
}

/// A FIFO of snapshots in a ring that only grows, up to
/// `ListenerLimits.queued`, so steady-state delivery allocates nothing and
/// slow listeners cannot make it grow without bound.
struct SnapshotQueue {
    private var ring: [Snapshot] = []
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func push(_ snapshot: Snapshot) {
        if count >= ListenerLimits.queued {
            // Listeners are far behind: merge into the newest pending one.
            ring[(head + count - 1) % ring.count] = snapshot
            return
        }
        if count == ring.count {
            var grown: [Snapshot] = []
            grown.reserveCapacity(Swift.max(8, ring.count * 2))
            var i = 0
            while i < count {
                grown.append(ring[(head + i) % ring.count])
                i += 1
            }
            while grown.count < grown.capacity { grown.append(snapshot) }
            ring = grown
            head = 0
        }
        ring[(head + count) % ring.count] = snapshot
        count += 1
    }

    /// Forgets every queued snapshot (`destroy`); the ring keeps its
    /// capacity.
    mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The oldest queued snapshot, if its `seq` is at most `limit`.
    mutating func pop(through limit: UInt64 = UInt64.max) -> Snapshot? {
        guard count > 0, ring[head].seq <= limit else { return nil }
        let snapshot = ring[head]
        head = (head + 1) % ring.count
        count -= 1
        return snapshot
    }
}

// SPDX-License-Identifier: MIT
// The test build's override of the system-call table (SystemCalls.swift):
// a plan of faults that makes chosen calls fail as the system would, so
// that every failure branch of the library is a test, not a hope (SQLite's
// test_syscall.c over aSyscall[] in src/os_unix.c; swift-system's
// Internals/Mocking.swift). Debug builds only: the shipped library is built
// without DEBUG and has none of this.
//
// A plan belongs to the thread that runs it (`run`) and to the threads that
// thread starts meanwhile (the watcher: `SystemCalls.pthread_create` hands
// the plan on), never to another thread: the tests run in parallel, each
// with its own plan or none (swift-system keeps its mocking driver in
// thread-local storage for the same reason). This file calls the C library
// directly, for its own bookkeeping only: through the table, the plan
// would consult itself.

#if DEBUG
import CSystem

/// A call of the table that a plan can fail, by its C name.
enum SystemCall: Hashable {
    case open, openat, close, read, write, pread, pwrite, fstat, fchmod, flock
    case renameat, unlinkat, fsync, fdopendir, readdir, nanosleep
    case pthread_create, timerfd_create, timerfd_settime, eventfd, poll
    /// Darwin: fcntl(F_FULLFSYNC), kqueue, kevent, mach_timebase_info, sysctlbyname.
    case fcntl_full_fsync, kqueue, kevent, mach_timebase_info, sysctlbyname
}

/// One fault of a plan: what it does to a call, and which calls it hits.
/// (Sendable for the tests' argument lists: an action runs on the thread
/// whose call it precedes.)
struct SystemCallFault: @unchecked Sendable {
    enum Effect {
        /// The call fails with this error number: it returns -1 (NULL for
        /// fdopendir and readdir) with errno set, or, for pthread_create,
        /// returns the number. A failed close still closes (as Linux does).
        case fail(Int32)
        /// The call moves at most this many bytes (read, write, pread,
        /// pwrite: a short read or write, or 0).
        case short(Int)
        /// Before the call, the action runs (what another process does at
        /// that instant: a race made exact), with no plan in force on this
        /// thread; then the call runs.
        case before(() -> Void)
    }

    let call: SystemCall
    let effect: Effect
    /// Calls of `call` under the plan let through before the first one hit.
    let after: Int
    /// Calls hit, one after the other (`Int.max`: every later one).
    let times: Int

    /// `call` fails with `errno`: the calls after the first `after`, `times` of them.
    static func fail(_ call: SystemCall, _ errno: Int32, after: Int = 0, times: Int = 1) -> SystemCallFault {
        SystemCallFault(call: call, effect: .fail(errno), after: after, times: times)
    }

    /// `call` moves at most `bytes`: the calls after the first `after`, `times` of them.
    static func short(_ call: SystemCall, to bytes: Int, after: Int = 0, times: Int = 1) -> SystemCallFault {
        SystemCallFault(call: call, effect: .short(bytes), after: after, times: times)
    }

    /// `action` runs before the call of `call` after the first `after`.
    static func before(_ call: SystemCall, after: Int = 0, _ action: @escaping () -> Void) -> SystemCallFault {
        SystemCallFault(call: call, effect: .before(action), after: after, times: 1)
    }
}

/// The calling thread's plan, if any (a `SystemCallFaults`, unretained:
/// `run` and the threads it starts keep it alive).
private let planKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// A plan of faults for the system calls of one test.
final class SystemCallFaults: @unchecked Sendable {
    private let faults: [SystemCallFault]
    /// Calls of each kind made under the plan, hit or not.
    private var made: [SystemCall: Int] = [:]
    /// Every call the plan was asked about, in order (the calls a plan can
    /// fail), for a test that counts which call to fail.
    private var calls: [SystemCall] = []
    /// Calls each fault hit.
    private var hits: [Int]
    /// The plan is shared with the threads its thread starts.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ faults: [SystemCallFault]) {
        self.faults = faults
        hits = [Int](repeating: 0, count: faults.count)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    convenience init(_ faults: SystemCallFault...) {
        self.init(faults)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with this plan in force on the calling thread (and on
    /// the threads it starts), then restores the plan that was in force.
    func run<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let previous = pthread_getspecific(planKey)
        pthread_setspecific(planKey, Unmanaged.passUnretained(self).toOpaque())
        defer {
            pthread_setspecific(planKey, previous)
            withExtendedLifetime(self) {}
        }
        return try body()
    }

    /// Whether every fault hit the calls it was planned for (a fault for
    /// every later call: at least one). A test checks this, so that a fault
    /// that no call reached cannot pass for a branch that was tested.
    var allHit: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        for (i, fault) in faults.enumerated() {
            if fault.times == Int.max ? hits[i] == 0 : hits[i] != fault.times { return false }
        }
        return true
    }

    /// How many calls of `call` were made under the plan.
    func count(of call: SystemCall) -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return made[call] ?? 0
    }

    /// The calls made under the plan, in order.
    var trace: [SystemCall] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return calls
    }

    /// The plan of the calling thread.
    static var current: SystemCallFaults? {
        guard let raw = pthread_getspecific(planKey) else { return nil }
        return Unmanaged<SystemCallFaults>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Counts a call of `call` and returns the effect of the fault that hits
    /// it, if one does (an action is run here, and is no effect on the call).
    private func take(_ call: SystemCall) -> SystemCallFault.Effect? {
        pthread_mutex_lock(mutex)
        let n = (made[call] ?? 0) + 1
        made[call] = n
        calls.append(call)
        var effect: SystemCallFault.Effect? = nil
        for (i, fault) in faults.enumerated() where fault.call == call && n > fault.after && n - fault.after <= fault.times {
            hits[i] += 1
            effect = fault.effect
            break
        }
        pthread_mutex_unlock(mutex)
        guard case .before(let action)? = effect else { return effect }
        let plan = pthread_getspecific(planKey)
        pthread_setspecific(planKey, nil)
        action()
        pthread_setspecific(planKey, plan)
        return nil
    }

    // MARK: - What the table asks

    /// Whether the calling thread's plan fails this call of `call`; errno
    /// is then set.
    static func fails(_ call: SystemCall) -> Bool {
        guard let plan = current, case .fail(let number)? = plan.take(call) else { return false }
        ilk_set_errno(number)
        return true
    }

    /// As `fails`, for a call that moves `count` bytes: a short fault
    /// lowers `count` instead.
    static func fails(_ call: SystemCall, count: inout Int) -> Bool {
        guard let plan = current else { return false }
        switch plan.take(call) {
        case .fail(let number)?:
            ilk_set_errno(number)
            return true
        case .short(let bytes)?:
            count = Swift.min(count, bytes)
            return false
        case .before?, nil:
            return false
        }
    }

    /// pthread_create under the calling thread's plan: the new thread runs
    /// `main(argument)` under the same plan, or the plan fails the call
    /// (then, as when the system refuses, no thread starts). Nil when the
    /// thread has no plan (the caller then starts the thread itself).
    static func startThread(_ thread: UnsafeMutablePointer<ilk_thread>, _ main: PlatformThread.Main,
                            _ argument: UnsafeMutableRawPointer?) -> Int32? {
        guard let plan = current else { return nil }
        let start = Unmanaged.passRetained(InheritedStart(main: main, argument: argument, plan: plan))
        var failure: Int32? = nil
        if case .fail(let number)? = plan.take(.pthread_create) { failure = number }
        let rc = failure ?? ilk_thread_create(thread, { raw in
            let start = Unmanaged<InheritedStart>.fromOpaque(raw!).takeRetainedValue()
            pthread_setspecific(planKey, Unmanaged.passUnretained(start.plan).toOpaque())
            let result = start.main(start.argument)
            pthread_setspecific(planKey, nil)
            withExtendedLifetime(start) {}
            return result
        }, start.toOpaque())
        if rc != 0 { start.release() }
        return rc
    }
}

/// What a thread started under a plan is handed: its start routine, its
/// argument, and the plan it runs under (kept alive while it runs).
private final class InheritedStart {
    let main: PlatformThread.Main
    let argument: UnsafeMutableRawPointer?
    let plan: SystemCallFaults

    init(main: PlatformThread.Main, argument: UnsafeMutableRawPointer?, plan: SystemCallFaults) {
        self.main = main
        self.argument = argument
        self.plan = plan
    }
}
#endif

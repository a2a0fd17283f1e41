// SPDX-License-Identifier: MIT
// A pthread mutex and condition variable in stable heap memory.

import CSystem

/// `pthread_mutex_t` (default, non-recursive) with one `pthread_cond_t`.
/// A non-copyable struct, not a class: stored in the handle, its pointers
/// are the handle's own fields (one load to reach the mutex on every
/// call, not two: BENCHMARKS.md "Profile").
struct Mutex: ~Copyable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        SystemCalls.pthread_mutex_init(mutex)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        SystemCalls.pthread_cond_init(condition)
    }

    deinit {
        SystemCalls.pthread_cond_destroy(condition)
        condition.deallocate()
        SystemCalls.pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { SystemCalls.pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { SystemCalls.pthread_mutex_unlock(mutex) }

    /// `pthread_cond_wait`: the mutex must be held.
    func wait() { SystemCalls.pthread_cond_wait(condition, mutex) }

    func broadcast() { SystemCalls.pthread_cond_broadcast(condition) }
}

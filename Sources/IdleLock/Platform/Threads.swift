// SPDX-License-Identifier: MIT
// Threads: the watcher's (start, join, detach) and "is this the thread
// that ...?" for the handle's turn-taking (the listener drainer, the
// passcode attempt holder). POSIX threads on every system, through the
// table (SystemCalls.swift) and the ilk_thread calls of
// Sources/CSystem/shim.h: pthread_t is an integer on glibc and bionic and a
// pointer on musl and Darwin.

import CSystem

/// A thread of this process.
struct PlatformThread {
    private var thread: ilk_thread

    /// A thread's start routine: called with the argument given to `start`.
    typealias Main = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

    private init(_ thread: ilk_thread) {
        self.thread = thread
    }

    /// The calling thread.
    @inline(__always)
    static func current() -> PlatformThread { PlatformThread(SystemCalls.pthread_self()) }

    /// This is the calling thread.
    @inline(__always)
    var isCurrent: Bool { SystemCalls.pthread_equal(thread, SystemCalls.pthread_self()) }

    /// Starts a joinable thread at `main(argument)` and stores it in
    /// `thread`. Returns 0, or the error number pthread_create gave: then
    /// no thread started, `argument` was not handed to one, and `thread`
    /// is unchanged.
    @inline(__always)
    static func start(_ main: Main, _ argument: UnsafeMutableRawPointer, as thread: inout PlatformThread) -> Int32 {
        var started = ilk_thread()
        let rc = SystemCalls.pthread_create(&started, main, argument)
        if rc == 0 { thread.thread = started }
        return rc
    }

    /// Waits for the thread to end (not the calling thread).
    func join() {
        SystemCalls.pthread_join(thread)
    }

    /// Lets the thread end on its own (its resources go when it returns).
    func detach() {
        SystemCalls.pthread_detach(thread)
    }
}

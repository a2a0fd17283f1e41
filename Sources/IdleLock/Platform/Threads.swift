// Threads: the watcher's (start, join, detach) and "is this the thread
// that ...?" for the handle's turn-taking (the listener drainer, the
// passcode attempt holder). POSIX threads on every system; what differs is
// the type: pthread_t is an integer on Linux and a pointer on Darwin, and
// a start routine's argument is optional on Linux only.

import CSystem

/// A thread of this process.
struct PlatformThread {
    private var id: pthread_t

    #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// A thread's start routine, as `pthread_create` takes it.
    typealias Main = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    #else
    typealias Main = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    #endif

    private init(id: pthread_t) {
        self.id = id
    }

    /// The calling thread.
    @inline(__always)
    static func current() -> PlatformThread { PlatformThread(id: pthread_self()) }

    /// This is the calling thread.
    @inline(__always)
    var isCurrent: Bool { pthread_equal(id, pthread_self()) != 0 }

    /// Starts a joinable thread at `main(argument)` and stores it in
    /// `thread`. Returns 0, or the error number pthread_create gave: then
    /// no thread started, `argument` was not handed to one, and `thread`
    /// is unchanged.
    @inline(__always)
    static func start(_ main: Main, _ argument: UnsafeMutableRawPointer, as thread: inout PlatformThread) -> Int32 {
        #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        var started: pthread_t? = nil
        let rc = pthread_create(&started, nil, main, argument)
        if rc == 0, let started { thread.id = started }
        return rc
        #else
        var started = pthread_t()
        let rc = pthread_create(&started, nil, main, argument)
        if rc == 0 { thread.id = started }
        return rc
        #endif
    }

    /// Waits for the thread to end (not the calling thread).
    func join() {
        pthread_join(id, nil)
    }

    /// Lets the thread end on its own (its resources go when it returns).
    func detach() {
        pthread_detach(id)
    }
}

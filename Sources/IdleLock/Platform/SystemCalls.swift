// SPDX-License-Identifier: MIT
// Every call the library makes to the C library, in one table (SQLite's
// aSyscall[] in src/os_unix.c; swift-system's Internals/Syscalls.swift).
// The rest of the library, the platform layer's other files included, asks
// the system for a service only through `SystemCalls`, and
// scripts/check-layers.sh fails when any other file names one of these
// functions (and when the built library calls one it does not list).
//
// Each entry has the C function's name, and its arguments and result
// (errno included) less those the library always passes the same (a NULL
// attribute, a NULL remainder). In a debug build (the tests') an entry that can fail first asks
// the calling thread's plan of faults (SystemCallFaults.swift) whether this
// call is to fail, and how: an error number, or fewer bytes than asked
// for. The shipped library is built without DEBUG: an entry is then the C
// call itself, inlined where it is used (no table in memory, nothing looked
// up: `make bench-instructions` counts the same instructions as before).
//
// Entries that no plan can fail, and why the library need not act on
// their failure:
//   clock_gettime(CLOCK_BOOTTIME)  fails only for a clock the kernel does
//       not have (Linux before 2.6.39, older than any the library runs on)
//       or a bad pointer (the timespec is a local);
//   pthread_join, pthread_detach  fail only for a thread that is not
//       joinable or is the caller; the watcher's thread is joined once,
//       and detached instead when it stops itself (IdleLockHandle.watchStop);
//   pthread_mutex_*, pthread_cond_*  fail only for a mutex that is not
//       initialised or (error-checking types) misused; Mutex.swift's is a
//       default mutex, initialised before first use and locked in scopes;
//   pthread_self, pthread_equal, mach_continuous_time, strnlen  cannot
//       fail.

import CSystem

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
/// What fdopendir returns: a `DIR *` (a complete type in Darwin's headers).
typealias FolderStream = UnsafeMutablePointer<DIR>
/// A kqueue event (the struct, named apart from the kevent entry below).
typealias KernelEvent = kevent
#else
/// What fdopendir returns: a `DIR *` (an incomplete type in glibc's,
/// musl's and bionic's headers).
typealias FolderStream = OpaquePointer
#endif

enum SystemCalls {
    // MARK: - Files

    /// open(2) with a mode (shim.h: Swift cannot call the variadic open).
    @inline(__always)
    static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: UInt32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.open) { return -1 }
        #endif
        return ilk_open(path, flags, mode)
    }

    /// openat(2) with a mode (shim.h).
    @inline(__always)
    static func openat(_ folder: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: UInt32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.openat) { return -1 }
        #endif
        return ilk_openat(folder, path, flags, mode)
    }

    /// close(2). Its result is never acted on: the descriptor is gone
    /// whatever it says (Linux, and POSIX.1-2024 for EINTR), so a close is
    /// never retried; a write it could report was made durable by an fsync
    /// before it. A planned failure closes all the same.
    @inline(__always)
    @discardableResult
    static func close(_ fd: Int32) -> Int32 {
        let rc = CSystem.close(fd)
        #if DEBUG
        if SystemCallFaults.fails(.close) { return -1 }
        #endif
        return rc
    }

    /// read(2).
    @inline(__always)
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        var count = count
        #if DEBUG
        if SystemCallFaults.fails(.read, count: &count) { return -1 }
        #endif
        return CSystem.read(fd, buffer, count)
    }

    /// write(2).
    @inline(__always)
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        var count = count
        #if DEBUG
        if SystemCallFaults.fails(.write, count: &count) { return -1 }
        #endif
        return CSystem.write(fd, buffer, count)
    }

    /// pread(2).
    @inline(__always)
    static func pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
        var count = count
        #if DEBUG
        if SystemCallFaults.fails(.pread, count: &count) { return -1 }
        #endif
        return CSystem.pread(fd, buffer, count, offset)
    }

    /// pwrite(2).
    @inline(__always)
    static func pwrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int {
        var count = count
        #if DEBUG
        if SystemCallFaults.fails(.pwrite, count: &count) { return -1 }
        #endif
        return CSystem.pwrite(fd, buffer, count, offset)
    }

    /// fstat(2).
    @inline(__always)
    static func fstat(_ fd: Int32, _ info: UnsafeMutablePointer<stat>) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.fstat) { return -1 }
        #endif
        return CSystem.fstat(fd, info)
    }

    /// fchmod(2).
    @inline(__always)
    static func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.fchmod) { return -1 }
        #endif
        return CSystem.fchmod(fd, mode)
    }

    /// flock(2). LOCK_UN's result is not acted on: it fails only for a
    /// descriptor that is not open, and the close releases the lock anyway.
    @inline(__always)
    @discardableResult
    static func flock(_ fd: Int32, _ operation: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.flock) { return -1 }
        #endif
        return cFlock(fd, operation)
    }

    /// renameat(2).
    @inline(__always)
    static func renameat(_ fromFolder: Int32, _ from: UnsafePointer<CChar>, _ toFolder: Int32, _ to: UnsafePointer<CChar>) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.renameat) { return -1 }
        #endif
        return CSystem.renameat(fromFolder, from, toFolder, to)
    }

    /// unlinkat(2).
    @inline(__always)
    static func unlinkat(_ folder: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.unlinkat) { return -1 }
        #endif
        return CSystem.unlinkat(folder, path, flags)
    }

    /// fsync(2).
    @inline(__always)
    static func fsync(_ fd: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.fsync) { return -1 }
        #endif
        return CSystem.fsync(fd)
    }

    #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// fcntl(fd, F_FULLFSYNC) (shim.h: Swift cannot call the variadic fcntl).
    @inline(__always)
    static func fcntl_full_fsync(_ fd: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.fcntl_full_fsync) { return -1 }
        #endif
        return ilk_full_fsync(fd)
    }
    #endif

    /// fdopendir(3): on success the stream owns `fd`.
    @inline(__always)
    static func fdopendir(_ fd: Int32) -> FolderStream? {
        #if DEBUG
        if SystemCallFaults.fails(.fdopendir) { return nil }
        #endif
        return CSystem.fdopendir(fd)
    }

    /// readdir(3): nil at the end of the folder, or with errno set when
    /// reading it failed (the library reads both as the end).
    @inline(__always)
    static func readdir(_ stream: FolderStream) -> UnsafeMutablePointer<dirent>? {
        #if DEBUG
        if SystemCallFaults.fails(.readdir) { return nil }
        #endif
        return CSystem.readdir(stream)
    }

    /// closedir(3), which closes the descriptor fdopendir took (its result
    /// is not acted on, as close's).
    @inline(__always)
    static func closedir(_ stream: FolderStream) {
        _ = CSystem.closedir(stream)
    }

    /// nanosleep(2) for the whole pause: a signal that interrupts it
    /// (EINTR) is followed by a pause for what remained, so the pause
    /// lasts as asked, and the store lock's wait, which counts each pause
    /// whole, lasts its 2000 ms also for a host that gets signals every
    /// few microseconds (a profiler, a runtime's preemption signals); it
    /// used to end after a tenth of that. A planned fault ends the pause
    /// at once (the wait is bounded either way).
    @inline(__always)
    static func nanosleep(_ nanoseconds: Int) {
        #if DEBUG
        if SystemCallFaults.fails(.nanosleep) { return }
        #endif
        var pause = timespec(tv_sec: 0, tv_nsec: nanoseconds)
        var rest = timespec()
        while CSystem.nanosleep(&pause, &rest) != 0 && Errno.last.meansInterrupted {
            pause = rest
        }
    }

    /// strnlen(3) (no failure).
    @inline(__always)
    static func strnlen(_ string: UnsafePointer<CChar>, _ limit: Int) -> Int {
        CSystem.strnlen(string, limit)
    }

    // MARK: - Threads

    /// pthread_create (through shim.h's ilk_thread): 0 or an error number.
    /// Under a test's plan, the new thread runs under the same plan.
    @inline(__always)
    static func pthread_create(_ thread: UnsafeMutablePointer<ilk_thread>, _ main: PlatformThread.Main,
                               _ argument: UnsafeMutableRawPointer?) -> Int32 {
        #if DEBUG
        if let rc = SystemCallFaults.startThread(thread, main, argument) { return rc }
        #endif
        return ilk_thread_create(thread, main, argument)
    }

    @inline(__always)
    static func pthread_join(_ thread: ilk_thread) { _ = ilk_thread_join(thread) }

    @inline(__always)
    static func pthread_detach(_ thread: ilk_thread) { _ = ilk_thread_detach(thread) }

    @inline(__always)
    static func pthread_self() -> ilk_thread { ilk_thread_self() }

    @inline(__always)
    static func pthread_equal(_ a: ilk_thread, _ b: ilk_thread) -> Bool { ilk_thread_equal(a, b) != 0 }

    @inline(__always)
    static func pthread_mutex_init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { _ = CSystem.pthread_mutex_init(mutex, nil) }

    @inline(__always)
    static func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { _ = CSystem.pthread_mutex_destroy(mutex) }

    @inline(__always)
    static func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { _ = CSystem.pthread_mutex_lock(mutex) }

    @inline(__always)
    static func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { _ = CSystem.pthread_mutex_unlock(mutex) }

    @inline(__always)
    static func pthread_cond_init(_ condition: UnsafeMutablePointer<pthread_cond_t>) { _ = CSystem.pthread_cond_init(condition, nil) }

    @inline(__always)
    static func pthread_cond_destroy(_ condition: UnsafeMutablePointer<pthread_cond_t>) { _ = CSystem.pthread_cond_destroy(condition) }

    @inline(__always)
    static func pthread_cond_wait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        _ = CSystem.pthread_cond_wait(condition, mutex)
    }

    @inline(__always)
    static func pthread_cond_broadcast(_ condition: UnsafeMutablePointer<pthread_cond_t>) { _ = CSystem.pthread_cond_broadcast(condition) }

    // MARK: - Clock, alarm, boot id

    #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    @inline(__always)
    static func mach_continuous_time() -> UInt64 { CSystem.mach_continuous_time() }

    @inline(__always)
    static func mach_timebase_info(_ info: UnsafeMutablePointer<mach_timebase_info_data_t>) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.mach_timebase_info) { return -1 }
        #endif
        return cMachTimebaseInfo(info)
    }

    @inline(__always)
    static func sysctlbyname(_ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?,
                             _ size: UnsafeMutablePointer<Int>) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.sysctlbyname) { return -1 }
        #endif
        return CSystem.sysctlbyname(name, value, size, nil, 0)
    }

    @inline(__always)
    static func kqueue() -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.kqueue) { return -1 }
        #endif
        return CSystem.kqueue()
    }

    /// kevent(2): registers `changes`, then waits for at most `capacity`
    /// events into `events` (no wait when `capacity` is 0), for at most
    /// `timeout` (nil: no limit).
    @inline(__always)
    static func kevent(_ queue: Int32, _ changes: UnsafePointer<KernelEvent>?, _ changeCount: Int32,
                       _ events: UnsafeMutablePointer<KernelEvent>?, _ capacity: Int32,
                       _ timeout: UnsafePointer<timespec>?) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.kevent) { return -1 }
        #endif
        return cKevent(queue, changes, changeCount, events, capacity, timeout)
    }
    #else
    /// clock_gettime(2) (the vDSO: no system call).
    @inline(__always)
    static func clock_gettime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) {
        _ = CSystem.clock_gettime(clock, time)
    }

    @inline(__always)
    static func timerfd_create(_ clock: clockid_t, _ flags: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.timerfd_create) { return -1 }
        #endif
        return CSystem.timerfd_create(clock, flags)
    }

    @inline(__always)
    static func timerfd_settime(_ fd: Int32, _ flags: Int32, _ value: UnsafePointer<itimerspec>) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.timerfd_settime) { return -1 }
        #endif
        return CSystem.timerfd_settime(fd, flags, value, nil)
    }

    @inline(__always)
    static func eventfd(_ initial: UInt32, _ flags: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.eventfd) { return -1 }
        #endif
        return CSystem.eventfd(initial, flags)
    }

    /// poll(2) with a timeout in ms (-1: none).
    @inline(__always)
    static func poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeoutMs: Int32) -> Int32 {
        #if DEBUG
        if SystemCallFaults.fails(.poll) { return -1 }
        #endif
        return CSystem.poll(fds, nfds_t(count), timeoutMs)
    }
    #endif
}

// The C functions whose name is also a struct's (`struct flock`, `struct
// kevent`, `struct mach_timebase_info`): `CSystem.flock` names the struct,
// so the entries above reach the functions through these, where the
// arguments pick the function.
@inline(__always)
private func cFlock(_ fd: Int32, _ operation: Int32) -> Int32 {
    flock(fd, operation)
}

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
@inline(__always)
private func cMachTimebaseInfo(_ info: UnsafeMutablePointer<mach_timebase_info_data_t>) -> Int32 {
    mach_timebase_info(info)
}

@inline(__always)
private func cKevent(_ queue: Int32, _ changes: UnsafePointer<KernelEvent>?, _ changeCount: Int32,
                     _ events: UnsafeMutablePointer<KernelEvent>?, _ capacity: Int32,
                     _ timeout: UnsafePointer<timespec>?) -> Int32 {
    kevent(queue, changes, changeCount, events, capacity, timeout)
}
#endif

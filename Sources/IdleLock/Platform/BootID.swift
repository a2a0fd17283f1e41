// SPDX-License-Identifier: MIT
// The identity of this boot: saved with the store's activity, so a restart
// can tell "the same boot, later" from "after a reboot" (docs/STORE.md).
//
//   Linux   /proc/sys/kernel/random/boot_id (a UUID, 36 characters)
//   Darwin  sysctlbyname("kern.bootsessionuuid") (a UUID string: 36
//           characters and a NUL)
// An id that cannot be read whole (an app that SELinux denies the file:
// Android 8.0 and 8.1, docs/PLATFORMS.md "Android") is this process's own
// random id instead (`processID`): a process cannot outlive its boot, so
// what it stamped itself is this boot, and every other process, the next
// one after a reboot among them, is another boot, which errs toward
// locking. What a process of the same user can show here on a Linux
// desktop is in docs/STORE.md ("What a process of the same user can
// fake").

import CSystem

enum BootID {
    /// Bytes of an id as the store holds it.
    static let count = 36

    /// Whether `stamp` (read from the store) is the boot `current`: an id
    /// that could not be read (zeros) never matches, not even another
    /// unreadable one (fail closed: a reboot).
    static func matches(_ stamp: [UInt8], _ current: [UInt8]) -> Bool {
        stamp == current && current.contains { $0 != 0 }
    }

    /// This boot's id: the system's, or `processID` when it cannot be read.
    static func current() -> [UInt8] {
        let id = system()
        return id.contains { $0 != 0 } ? id : processID
    }

    /// The stand-in for a system id this process cannot read: "process-"
    /// and 28 random hex digits (112 bits), made once per process, the same
    /// for every handle in it, never a kernel's UUID. Stamped by this
    /// process, it matches here (a passcode entered in this process counts
    /// for `passcode_after_reboot`, also when the store is read again); in
    /// any other process it does not (another boot: the passcode again).
    /// All zeros would match nothing, not even the process that wrote them,
    /// and refuse the biometric shortcut for good after every passcode.
    static let processID: [UInt8] = {
        var id = Array("process-".utf8)
        var random = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        while id.count < count { id.append(hex[Int(random.next() % 16)]) }
        return id
    }()

    /// The system's id, all zeros when it cannot be read whole. `path`:
    /// Linux's file (a test reads one that is not there).
    static func system(reading path: StaticString = "/proc/sys/kernel/random/boot_id") -> [UInt8] {
        var id = [UInt8](repeating: 0, count: count)
        #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        var text = [UInt8](repeating: 0, count: count + 1)
        var size = text.count
        let rc = text.withUnsafeMutableBytes { SystemCalls.sysctlbyname("kern.bootsessionuuid", $0.baseAddress, &size) }
        guard rc == 0, isWhole(length: size, text: text, terminated: true) else { return id }
        for i in 0..<count { id[i] = text[i] }
        return id
        #else
        let fd = path.utf8Start.withMemoryRebound(to: CChar.self, capacity: path.utf8CodeUnitCount + 1) {
            SystemCalls.open($0, O_RDONLY | O_CLOEXEC, 0)
        }
        guard fd >= 0 else { return id }
        defer { SystemCalls.close(fd) }
        let n = id.withUnsafeMutableBytes { SystemCalls.read(fd, $0.baseAddress!, count) }
        if !isWhole(length: n, text: id, terminated: false) { return [UInt8](repeating: 0, count: count) }
        return id
        #endif
    }

    /// Whether `length` bytes read into `text` are a whole id: exactly
    /// `count` of them, or, for a C string (`terminated`), `count` and the
    /// NUL. A short or failed (-1) read is not.
    static func isWhole(length: Int, text: [UInt8], terminated: Bool) -> Bool {
        if !terminated { return length == count }
        return length == count + 1 && text.count > count && text[count] == 0
    }
}

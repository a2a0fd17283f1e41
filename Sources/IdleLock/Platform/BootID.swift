// SPDX-License-Identifier: MIT
// The identity of this boot: saved with the store's activity, so a restart
// can tell "the same boot, later" from "after a reboot" (docs/STORE.md).
//
//   Linux   /proc/sys/kernel/random/boot_id (a UUID, 36 characters)
//   Darwin  sysctlbyname("kern.bootsessionuuid") (a UUID string: 36
//           characters and a NUL)
// An id that cannot be read whole is all zeros, which never matches
// (`matches`): every restart then counts as another boot, which errs toward
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

    static func current() -> [UInt8] {
        var id = [UInt8](repeating: 0, count: count)
        #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        var text = [UInt8](repeating: 0, count: count + 1)
        var size = text.count
        let rc = text.withUnsafeMutableBytes { SystemCalls.sysctlbyname("kern.bootsessionuuid", $0.baseAddress, &size) }
        guard rc == 0, isWhole(length: size, text: text, terminated: true) else { return id }
        for i in 0..<count { id[i] = text[i] }
        return id
        #else
        let fd = SystemCalls.open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC, 0)
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

// SPDX-License-Identifier: MIT
// A boot id the process cannot read (an app that SELinux denies
// /proc/sys/kernel/random/boot_id: Android 8.0 and 8.1, docs/PLATFORMS.md
// "Android"). Before: it read as zeros, which match nothing, not even the
// process that stamped them, so with passcode_after_reboot every re-read of
// the store took the passcode entry as another boot's and the biometric
// shortcut stayed refused for good. Now the process stands in its own
// random id: its own stamps are this boot, every other process's another
// boot (never a way past the passcode after a reboot). The whole library
// with the file denied: test-traces runs every trace so
// (Tests/c/deny_boot_id.c).

import Testing
@testable import IdleLock

@Suite("A boot id that cannot be read")
struct UnreadableBootIDTests {
    @Test func theProcessStandsInItsOwnId() {
        let unreadable = BootID.system(reading: "/nonexistent/boot_id")
        #expect(!unreadable.contains { $0 != 0 }, "a file that is not there reads as zeros")
        let id = BootID.processID
        #expect(id.count == BootID.count)
        #expect(Array(id.prefix(8)) == Array("process-".utf8), "never mistaken for a kernel's UUID")
        #expect(id.dropFirst(8).allSatisfy { Array("0123456789abcdef".utf8).contains($0) })
        #expect(BootID.processID == id, "one id for the whole process")
        #expect(BootID.matches(id, id), "what this process stamped is this boot")
    }

    @Test func anotherProcessOrTheSystemsIdIsAnotherBoot() {
        let id = BootID.processID
        let system = BootID.system()
        #expect(!BootID.matches(system, id), "a stamp of the system's id, read by a process that cannot read it")
        #expect(!BootID.matches(id, system), "this process's stand-in, read by one that can")
        var other = id
        other[BootID.count - 1] = other[BootID.count - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        #expect(!BootID.matches(other, id), "another process's stand-in")
        let zeros = [UInt8](repeating: 0, count: BootID.count)
        #expect(!BootID.matches(zeros, id) && !BootID.matches(zeros, zeros), "a store stamped with zeros (1.2.1 and before)")
    }

    @Test func currentIsTheSystemsIdWhereItCanBeRead() {
        let system = BootID.system()
        if system.contains(where: { $0 != 0 }) {
            #expect(BootID.current() == system)
        } else {
            #expect(BootID.current() == BootID.processID)
        }
    }
}

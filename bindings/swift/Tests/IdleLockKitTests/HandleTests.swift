// SPDX-License-Identifier: MIT
// The handle's other duties: the stream of snapshots, secrets in wiped
// buffers, the prompt shield, cancellation of a passcode check before it
// runs, and many threads at once.
import Foundation
import Testing
@testable import IdleLockKit

@Suite struct HandleTests {
    @Test func theStreamGivesTheStateThenEachChangeInOrder() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock)
        var iterator = lock.snapshots().makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.state == .unlocked)
        try lock.lock()
        let locked = try #require(await iterator.next())
        #expect(locked.state == .locked && locked.reason == .manual && locked.seq > first.seq)
        try await lock.unlock(passcode: "2468")
        var seen = [locked.seq]
        var last = locked
        while last.state != .unlocked {
            last = try #require(await iterator.next())
            seen.append(last.seq)
        }
        #expect(seen == seen.sorted() && Set(seen).count == seen.count)
        lock.close()
        #expect(await iterator.next() == nil)
    }

    @Test func secretsComeBackInWipedBuffers() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock)
        try lock.putSecret(SecretBytes(utf8: "access-token-1"), named: "token")
        let value = try lock.secret(named: "token")
        #expect(value.withUnsafeBytes { Array($0) } == Array("access-token-1".utf8))
        #expect(value.description == "SecretBytes(14 bytes)")
        try lock.putSecret(SecretBytes(count: 0), named: "empty")
        #expect(try lock.secret(named: "empty").count == 0)
        try lock.removeSecret(named: "token")
        #expect(throws: IdleLockError.notFound) { _ = try lock.secret(named: "token") }
        #expect {
            try lock.putSecret(SecretBytes(count: 1), named: "a\u{0}b")
        } throws: { error in
            if case IdleLockError.invalidArgument = error { return true }
            return false
        }
    }

    @Test func aSecretIsZeroBeforeItsMemoryIsFreed() {
        let seen = Locked<[[UInt8]]>([])
        do {
            let secret = SecretBytes(utf8: "correct horse")
            #expect(secret.count == 13 && !isZero(secret))
            secret.wipeObserverForTesting = { bytes in seen.withLock { $0.append(Array(bytes)) } }
        }
        let wiped = seen.withLock { $0 }
        #expect(wiped.count == 1 && wiped[0].count >= 13 && wiped[0].allSatisfy { $0 == 0 })
        // A string that is not stored as contiguous UTF-8 is copied byte by byte.
        let composed = SecretBytes(utf8: String(repeating: "é", count: 3))
        #expect(composed.withUnsafeBytes { Array($0) } == Array("ééé".utf8))
    }

    @Test func aPasscodeCheckCancelledBeforeItRunsCountsNothing() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock)
        try lock.lock()
        let attempt = Task { () async throws -> Snapshot in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await lock.unlock(passcode: "0000")
        }
        guard case .cancelled? = await failure(of: attempt) else {
            Issue.record("expected cancelled")
            return
        }
        #expect(try lock.snapshot().attemptsRemaining == 5)
    }

    @Test func thePromptShieldKeepsALongAbsencePresent() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock) { $0.backgroundAfterMs = 10_000 }
        let shield = PromptShield(handle: lock)
        try shield.update(isPresented: true)
        try shield.update(isPresented: true)
        #expect(shield.isOpen)
        try lock.background()
        clock.advance(30_000)  // a document picker, longer than the background timeout
        try lock.foreground()
        try shield.update(isPresented: false)
        #expect(!shield.isOpen)
        #expect(try lock.snapshot().state == .unlocked)
        // Without the shield the same absence locks.
        try lock.background()
        clock.advance(30_000)
        #expect(try lock.foreground().reason == .backgrounded)
    }

    @Test func manyThreadsAtOnce() async throws {
        let clock = TestClock()
        let lock = try await engagedHandle(clock)
        let heard = Locked(0)
        let key = lock.addListener { _ in heard.withLock { $0 += 1 } }
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        if i % 2 == 0 { _ = try? lock.touch() } else { _ = try? lock.snapshot() }
                        if i == 3 { _ = try? lock.lock() }
                    }
                }
            }
        }
        lock.removeListener(key)
        #expect(heard.withLock { $0 } >= 1)
        try await lock.unlock(passcode: "2468")
        lock.close()
    }
}

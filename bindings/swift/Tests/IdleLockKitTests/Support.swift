// SPDX-License-Identifier: MIT
// What the tests share: a clock they move by hand, options at Argon2id's
// floor, and an authenticator whose check answers when the test says.
import CIdleLock
import Foundation
@testable import IdleLockKit

/// The lock's clock, moved by the test.
final class TestClock: @unchecked Sendable {
    private let now = Locked<Int64>(1_000_000)
    var value: Int64 {
        get { now.withLock { $0 } }
        set { now.withLock { $0 = newValue } }
    }
    func advance(_ ms: Int64) { now.withLock { $0 += ms } }
}

/// Options with a test clock and the cheapest key derivation the library
/// accepts (the traces' settings).
func testOptions(_ clock: TestClock, idle: Int64 = 300_000) -> IdleLockOptions {
    var o = IdleLockOptions()
    o.clock = { clock.value }
    o.idleAfterMs = idle
    o.kdfOpslimit = 2
    o.kdfMemlimit = 19 * 1024 * 1024
    o.lockOnStart = false
    return o
}

/// A handle with the passcode "2468" set, started, unlocked.
func engagedHandle(_ clock: TestClock, authenticator: (any BiometricAuthenticator)? = nil,
                   configure: (inout IdleLockOptions) -> Void = { _ in }) async throws -> IdleLockHandle {
    var o = testOptions(clock)
    configure(&o)
    let handle = try IdleLockHandle(options: o, authenticator: authenticator)
    try handle.start()
    try await handle.setPasscode("2468")
    return handle
}

/// A keystore whose check answers only when the test calls `answer`, and
/// that records what the binding did with it.
final class ManualAuthenticator: BiometricAuthenticator, @unchecked Sendable {
    private struct State {
        var item: SecretBytes?
        var pending: CheckedContinuation<Result<SecretBytes, BiometricCheckError>, Never>?
        var checks = 0
        var cancelledChecks = 0
        var deletes = 0
        var released: [SecretBytes] = []
    }
    private let state = Locked(State())
    let available = Locked(true)

    func isAvailable() -> Bool { available.withLock { $0 } }

    func storeSecret(_ secret: SecretBytes) throws {
        let copy = secret.withUnsafeBytes { SecretBytes(copying: $0) }
        state.withLock { $0.item = copy }
    }

    func deleteSecret() {
        state.withLock {
            $0.item = nil
            $0.deletes += 1
        }
    }

    func loadSecret(reason: String?) async throws(BiometricCheckError) -> SecretBytes {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Result<SecretBytes, BiometricCheckError>, Never>) in
                state.withLock {
                    $0.checks += 1
                    $0.pending = c
                }
            }
        } onCancel: {
            state.withLock { $0.cancelledChecks += 1 }
        }
        return try result.get()
    }

    var checks: Int { state.withLock { $0.checks } }
    var cancelledChecks: Int { state.withLock { $0.cancelledChecks } }
    var deletes: Int { state.withLock { $0.deletes } }
    var hasItem: Bool { state.withLock { $0.item != nil } }
    /// The secrets this keystore released, to see that the binding wiped them.
    var released: [SecretBytes] { state.withLock { $0.released } }

    /// Waits until a check is showing.
    func waitForCheck() async throws {
        for _ in 0..<2000 {
            if state.withLock({ $0.pending != nil }) { return }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        throw BiometricCheckError.unavailable
    }

    /// The check passes (releasing the item, or `secret`) or ends with `outcome`.
    func answer(_ outcome: BiometricCheckError? = nil, secret: SecretBytes? = nil) {
        let (pending, item) = state.withLock { s -> (CheckedContinuation<Result<SecretBytes, BiometricCheckError>, Never>?, SecretBytes?) in
            let p = s.pending
            s.pending = nil
            return (p, s.item)
        }
        guard let pending else { return }
        if let outcome {
            pending.resume(returning: .failure(outcome))
            return
        }
        let release = secret ?? item!.withUnsafeBytes { SecretBytes(copying: $0) }
        state.withLock { $0.released.append(release) }
        pending.resume(returning: .success(release))
    }
}

func isZero(_ secret: SecretBytes) -> Bool {
    secret.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }
}

/// Waits (up to 5 s) until `condition` holds on the main actor.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// The IdleLockError a task ended with (nil: it succeeded, or threw
/// something else).
func failure<T>(of task: Task<T, any Error>) async -> IdleLockError? {
    if case .failure(let error) = await task.result { return error as? IdleLockError }
    return nil
}

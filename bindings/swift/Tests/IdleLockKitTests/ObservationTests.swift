// SPDX-License-Identifier: MIT
// The @Observable model follows the library: its own calls update it before
// they return; changes made elsewhere reach it through the listeners, on
// the main actor, and Observation tells the views.
import Observation
import Testing
@testable import IdleLockKit

@MainActor
@Suite struct ObservationTests {
    func engagedModel(_ clock: TestClock, configure: (inout IdleLockOptions) -> Void = { _ in }) async throws -> IdleLock {
        var options = testOptions(clock)
        configure(&options)
        let model = try IdleLock(options: options)
        try model.start()
        try await model.setPasscode("2468")
        return model
    }

    @Test func theModelsOwnCallsUpdateItAtOnce() async throws {
        let clock = TestClock()
        let model = try await engagedModel(clock)
        #expect(model.isEnabled && !model.isLocked && model.reason == .none)
        #expect(model.deadlines.msUntilIdleLock == 300_000)
        clock.advance(1000)
        try model.touch()
        #expect(model.deadlines.msUntilIdleLock == 300_000)
        try model.lock()
        #expect(model.isLocked && model.state == .locked && model.reason == .manual)
        await #expect(throws: IdleLockError.invalidPasscode(attemptsRemaining: 4)) {
            try await model.unlock(passcode: "1111")
        }
        #expect(model.attemptsRemaining == 4)
        try await model.unlock(passcode: "2468")
        #expect(!model.isLocked && model.attemptsRemaining == 5)
        try model.disable()
        #expect(!model.isEnabled)
    }

    @Test func aChangeMadeOnAnotherThreadReachesTheModel() async throws {
        let clock = TestClock()
        let model = try await engagedModel(clock)
        let handle = model.handle
        let changed = Locked(false)
        withObservationTracking {
            _ = model.isLocked
        } onChange: {
            changed.withLock { $0 = true }
        }
        // Another thread locks through the handle: the listener tells the model.
        await Task.detached { _ = try? handle.lock() }.value
        #expect(await eventually { model.isLocked })
        #expect(changed.withLock { $0 })
        #expect(model.reason == .manual)
    }

    @Test func aDeadlineThatPassesIsHeard() async throws {
        let clock = TestClock()
        let model = try await engagedModel(clock)
        clock.advance(300_000)
        await Task.detached { _ = try? model.handle.check() }.value
        #expect(await eventually { model.isLocked })
        #expect(model.reason == .idle)
        #expect(model.deadlines.msUntilIdleLock == nil)
    }

    @Test func withTheSystemClockTheWatcherLocksOnTime() async throws {
        var options = IdleLockOptions()
        options.idleAfterMs = 1000
        options.kdfOpslimit = 2
        options.kdfMemlimit = 19 * 1024 * 1024
        options.lockOnStart = false
        let model = try IdleLock(options: options)
        try model.start()  // starts the watcher thread: no clock of ours
        try await model.setPasscode("2468")
        #expect(model.isEnabled)
        // No call of ours from here: the watcher's check at the deadline,
        // then its listener, then the main actor.
        #expect(await eventually { model.isLocked })
        #expect(model.reason == .idle)
        model.close()
    }

    @Test func onlyChangedPropertiesNotify() async throws {
        let clock = TestClock()
        let model = try await engagedModel(clock)
        let biometricsChanged = Locked(false)
        withObservationTracking {
            _ = model.isBiometricsEnabled
        } onChange: {
            biometricsChanged.withLock { $0 = true }
        }
        try model.lock()
        #expect(model.isLocked)
        #expect(!biometricsChanged.withLock { $0 })
    }

    @Test func theScenePhaseDrivesTheLifecycle() async throws {
        let clock = TestClock()
        let model = try await engagedModel(clock) { $0.backgroundAfterMs = 60_000 }
        try model.phaseChanged(.inactive)
        #expect(model.isAway)
        try model.phaseChanged(.background)
        clock.advance(61_000)
        try model.phaseChanged(.active)
        #expect(!model.isAway && model.isLocked && model.reason == .backgrounded)
    }

    @Test func closingStopsFollowing() async throws {
        let clock = TestClock()
        let model = try await engagedModel(clock)
        model.close()
        #expect(throws: IdleLockError.closed) { try model.lock() }
        #expect(!model.isLocked)
    }
}

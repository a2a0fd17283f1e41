// SPDX-License-Identifier: MIT
// Lifecycle adapters: each platform's own names reach the right event.

import CIdleLock
import Testing
@testable import IdleLock

@Suite("Lifecycle adapters")
struct LifecycleTests {
    /// What each name does to a fresh, engaged lock, seen through the
    /// snapshot: away or not, and whether the absence reached the
    /// background (then a background timeout of 10 s applies, not the
    /// inactive 30 s).
    private func outcome(_ platform: Int32, _ name: String) -> (status: Int32, away: Int32, reachedBackground: Bool) {
        let l = Lock(background: 10_000, lockOnStart: 0)
        l.setPasscode("1234")
        var s = idlelock_snapshot()
        s.size = UInt32(MemoryLayout<idlelock_snapshot>.size)
        let status = idlelock_lifecycle(l.handle, platform, name, &s)
        let away = s.is_away
        // 20 s later: locked only if the absence reached the background.
        l.clock.advance(20_000)
        let after = l.snapshot()
        return (status, away, after.state == IDLELOCK_STATE_LOCKED)
    }

    @Test(arguments: [
        (IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "inactive", 1, false),
        (IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "background", 1, true),
        (IDLELOCK_PLATFORM_IOS_APPLICATION_STATE, "inactive", 1, false),
        (IDLELOCK_PLATFORM_IOS_APPLICATION_STATE, "background", 1, true),
        (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_PAUSE", 1, false),
        (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_STOP", 1, true),
        (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "inactive", 1, false),
        (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "hidden", 1, true),
        (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "paused", 1, true),
        (IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE, "inactive", 1, false),
        (IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE, "background", 1, true),
    ] as [(Int32, String, Int32, Bool)])
    func departures(platform: Int32, name: String, away: Int32, reachedBackground: Bool) {
        let result = outcome(platform, name)
        #expect(result.status == 0)
        #expect(result.away == away)
        #expect(result.reachedBackground == reachedBackground)
    }

    @Test(arguments: [
        (IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "active"),
        (IDLELOCK_PLATFORM_IOS_APPLICATION_STATE, "active"),
        (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_RESUME"),
        (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "resumed"),
        (IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE, "active"),
    ] as [(Int32, String)])
    func returns(platform: Int32, name: String) {
        let l = Lock(background: 10_000, lockOnStart: 0)
        l.setPasscode("1234")
        idlelock_background(l.handle, nil)
        #expect(l.snapshot().is_away == 1)
        l.clock.advance(1_000) // within grace
        #expect(idlelock_lifecycle(l.handle, platform, name, nil) == 0)
        let s = l.snapshot()
        #expect(s.is_away == 0 && s.state == IDLELOCK_STATE_UNLOCKED)
    }

    @Test(arguments: [
        (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_CREATE"),
        (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_START"),
        (IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_DESTROY"),
        (IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "detached"),
        (IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE, "unknown"),
        (IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE, "extension"),
    ] as [(Int32, String)])
    func namesWithoutAPresenceChangeDoNothing(platform: Int32, name: String) {
        let l = Lock(background: 10_000, lockOnStart: 0)
        l.setPasscode("1234")
        idlelock_background(l.handle, nil)
        let before = l.snapshot()
        #expect(idlelock_lifecycle(l.handle, platform, name, nil) == 0)
        let after = l.snapshot()
        #expect(after.is_away == 1 && after.seq == before.seq)
    }

    @Test func unknownNamesAndPlatformsAreInvalidAndChangeNothing() {
        let l = Lock()
        l.setPasscode("1234")
        let before = l.snapshot()
        #expect(idlelock_lifecycle(l.handle, IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE, "Paused", nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(String(cString: idlelock_last_error()).contains("case-sensitive"))
        #expect(idlelock_lifecycle(l.handle, IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_ANY", nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_lifecycle(l.handle, IDLELOCK_PLATFORM_IOS_SCENE_PHASE, "", nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_lifecycle(l.handle, IDLELOCK_PLATFORM_IOS_SCENE_PHASE, nil, nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_lifecycle(l.handle, 0, "active", nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_lifecycle(l.handle, 6, "active", nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(idlelock_lifecycle(nil, 1, "active", nil) == IDLELOCK_ERR_INVALID_ARGUMENT)
        #expect(l.snapshot().seq == before.seq)
    }
}

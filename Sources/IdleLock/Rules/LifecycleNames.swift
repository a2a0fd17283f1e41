// SPDX-License-Identifier: MIT
// Lifecycle adapters (include/idlelock.h, idlelock_lifecycle;
// docs/LIFECYCLE.md): each platform's own names for its app states, mapped
// in this one table to the three presence events, so no host maps `paused`
// or `hidden` the wrong way round. Names that carry no change of presence
// map to `.none`.
//
// Sources:
// - iOS scene phase: SwiftUI `ScenePhase` (`active`, `inactive`,
//   `background`).
// - iOS application state: UIKit `UIApplication.State` (`active`,
//   `inactive`, `background`).
// - Android: androidx `Lifecycle.Event` (`ON_CREATE`, `ON_START`,
//   `ON_RESUME`, `ON_PAUSE`, `ON_STOP`, `ON_DESTROY`). ON_PAUSE is still
//   visible, not interactive (inactive); ON_STOP is no longer visible
//   (background); ON_RESUME is back (foreground). ON_START (visible, not yet
//   interactive) and ON_CREATE / ON_DESTROY carry no presence change.
// - Flutter: `AppLifecycleState` (`resumed`, `inactive`, `hidden`, `paused`,
//   `detached`). `hidden` and `paused` are both no longer visible.
// - React Native: `AppState.currentState` (`active`, `inactive` (iOS only),
//   `background`, `unknown`, `extension`).

/// What a platform state means for the lock.
enum PresenceEvent: Equatable {
    case foreground
    case inactive
    case background
    /// A name that carries no change of presence.
    case none
}

/// `IDLELOCK_PLATFORM_*`.
enum LifecyclePlatform: Int32, CaseIterable {
    case iosScenePhase = 1
    case iosApplicationState = 2
    case androidLifecycleEvent = 3
    case flutterAppLifecycleState = 4
    case reactNativeAppState = 5

    /// The header's name, for messages.
    var name: StaticString {
        switch self {
        case .iosScenePhase: return "IDLELOCK_PLATFORM_IOS_SCENE_PHASE"
        case .iosApplicationState: return "IDLELOCK_PLATFORM_IOS_APPLICATION_STATE"
        case .androidLifecycleEvent: return "IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT"
        case .flutterAppLifecycleState: return "IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE"
        case .reactNativeAppState: return "IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE"
        }
    }
}

enum LifecycleNames {
    /// The table: platform, the platform's exact spelling, the event. The
    /// message for a name not here lists the platform's names from it, and
    /// scripts/gen-bindings.py reads it for the bindings that list them
    /// (one row a line, as below).
    private static let table: [(LifecyclePlatform, StaticString, PresenceEvent)] = [
        (.iosScenePhase, "active", .foreground),
        (.iosScenePhase, "inactive", .inactive),
        (.iosScenePhase, "background", .background),

        (.iosApplicationState, "active", .foreground),
        (.iosApplicationState, "inactive", .inactive),
        (.iosApplicationState, "background", .background),

        (.androidLifecycleEvent, "ON_CREATE", .none),
        (.androidLifecycleEvent, "ON_START", .none),
        (.androidLifecycleEvent, "ON_RESUME", .foreground),
        (.androidLifecycleEvent, "ON_PAUSE", .inactive),
        (.androidLifecycleEvent, "ON_STOP", .background),
        (.androidLifecycleEvent, "ON_DESTROY", .none),

        (.flutterAppLifecycleState, "resumed", .foreground),
        (.flutterAppLifecycleState, "inactive", .inactive),
        (.flutterAppLifecycleState, "hidden", .background),
        (.flutterAppLifecycleState, "paused", .background),
        (.flutterAppLifecycleState, "detached", .none),

        (.reactNativeAppState, "active", .foreground),
        (.reactNativeAppState, "inactive", .inactive),
        (.reactNativeAppState, "background", .background),
        (.reactNativeAppState, "unknown", .none),
        (.reactNativeAppState, "extension", .none),
    ]

    /// The event for `name` (compared byte for byte) on `platform`, or nil
    /// for a name the platform does not have.
    static func event(platform: LifecyclePlatform, name: UnsafeRawBufferPointer) -> PresenceEvent? {
        for (p, spelled, event) in table where p == platform {
            let same = spelled.withUTF8Buffer { s -> Bool in
                guard s.count == name.count else { return false }
                for i in 0..<s.count where s[i] != name[i] { return false }
                return true
            }
            if same { return event }
        }
        return nil
    }

    /// Calls `body` with each name `platform` has, in the table's order.
    static func forEachName(of platform: LifecyclePlatform, _ body: (StaticString) -> Void) {
        for (p, spelled, _) in table where p == platform { body(spelled) }
    }
}

// SPDX-License-Identifier: MIT
// Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
// The header's enumerations as Swift enums whose raw values are the C
// constants, and SwiftUI's scene phases as the library's lifecycle table
// names them.

extension Snapshot {
    /// `IDLELOCK_STATE_*`: Lock states (idlelock_snapshot.state).
    public enum State: Int32, Sendable {
        case unlocked = 0
        case locked = 1
        case lockedOut = 2
    }

    /// `IDLELOCK_REASON_*`: Why the session is locked (idlelock_snapshot.reason).
    public enum Reason: Int32, Sendable {
        /// unlocked, or locked out from unlocked
        case none = 0
        /// idle timeout passed in the foreground
        case idle = 1
        /// away for the background timeout
        case backgrounded = 2
        /// lock_on_start, a restart check, or the store (another sign-in's, or damaged)
        case startup = 3
        /// idlelock_lock() ("Lock now")
        case manual = 4
        /// the clock read earlier than before
        case clock = 5
    }
}

/// `IDLELOCK_AUTH_*`: What idlelock_authenticator.load_secret reports.
public enum BiometricResult: Int32, Sendable {
    /// the check passed; the secret was written
    case ok = 0
    /// the check failed (wrong face/finger, locked sensor)
    case failed = 1
    /// the user or the system cancelled the prompt
    case cancelled = 2
    /// no item, no enrolment, no hardware
    case unavailable = 3
}

extension BiometricRequest {
    /// `IDLELOCK_BIOMETRIC_*`: Purposes of a biometric request.
    public enum Purpose: Int32, Sendable {
        /// unlock (or re-authenticate) with the shortcut
        case unlock = 1
        /// turn the shortcut on
        case enable = 2
    }
}

/// A scene's phase, as SwiftUI's `ScenePhase` names it; the library maps
/// each (`idlelock_lifecycle`, `IDLELOCK_PLATFORM_IOS_SCENE_PHASE`). On Apple
/// platforms `AppPhase(scenePhase)` converts (IdleLockView.swift).
public enum AppPhase: String, Sendable, CaseIterable {
    /// The library takes it as foreground.
    case active
    /// The library takes it as inactive (visible, not interactive).
    case inactive
    /// The library takes it as background (no longer visible).
    case background
}

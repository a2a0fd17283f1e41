// SPDX-License-Identifier: MIT
// The prompt shield for the app's own sheets and alerts.

// AppPhase, a scene's phase as SwiftUI's `ScenePhase` names it, is
// Generated.swift's: its cases are the library's names for
// IDLELOCK_PLATFORM_IOS_SCENE_PHASE (Sources/IdleLock/Rules/LifecycleNames.swift).

/// Keeps the app's own modal presentations (a share sheet, a document or
/// photo picker, the camera, a confirmation dialog) from counting as an
/// absence: a prompt (`idlelock_prompt_begin` / `_end`) is open while
/// ``update(isPresented:)`` says one is shown. The round trip through it
/// is presence, and the idle rule waits, within prompt_cap_ms; a lock makes
/// the prompt inert, so it never keeps a locked session open. The SwiftUI
/// modifier `idleLockPrompt(_:isPresented:)` drives one. An informational
/// alert is not a prompt: shield only what takes the person out of the app.
///
/// Thread: any (the SwiftUI modifier calls it on the main actor).
public final class PromptShield: @unchecked Sendable {
    private let handle: IdleLockHandle
    private let token = Locked<UInt64?>(nil)

    public init(handle: IdleLockHandle) {
        self.handle = handle
    }

    deinit {
        if let open = token.withLock({ $0 }) { try? handle.endPrompt(open) }
    }

    /// Whether a prompt is open.
    public var isOpen: Bool { token.withLock { $0 != nil } }

    /// Opens a prompt when `isPresented` becomes true, ends it when it
    /// becomes false; repeating the same value does nothing.
    public func update(isPresented: Bool) throws(IdleLockError) {
        let (begin, end) = token.withLock { t -> (Bool, UInt64?) in
            if isPresented { return (t == nil, nil) }
            let open = t
            t = nil
            return (false, open)
        }
        if let end { try handle.endPrompt(end) }
        if begin {
            let opened = try handle.beginPrompt()
            let stale = token.withLock { t -> UInt64? in
                if t != nil { return opened }  // another update opened one meanwhile
                t = opened
                return nil
            }
            if let stale { try handle.endPrompt(stale) }
        }
    }
}

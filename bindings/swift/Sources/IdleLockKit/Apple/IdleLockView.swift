// SPDX-License-Identifier: MIT
// Apple platforms only: SwiftUI's side of the lock. Small on purpose: the
// mapping of phases, the prompt shield and the state these views show are
// IdleLock, AppPhase and PromptShield, tested on Linux.
#if canImport(SwiftUI)
import SwiftUI

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension AppPhase {
    /// SwiftUI's phase; `nil` for a phase this version does not know.
    public init?(_ phase: ScenePhase) {
        switch phase {
        case .active: self = .active
        case .inactive: self = .inactive
        case .background: self = .background
        @unknown default: return nil
        }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct IdleLockModifier<LockScreen: View>: ViewModifier {
    let lock: IdleLock
    let lockScreen: () -> LockScreen
    @Environment(\.scenePhase) private var scenePhase

    func body(content: Content) -> some View {
        content
            // Every touch is activity; the lock screen's own are not.
            .simultaneousGesture(TapGesture().onEnded { try? lock.touch() })
            .accessibilityHidden(lock.isLocked || lock.isAway)
            .overlay {
                if lock.isLocked {
                    lockScreen()
                } else if lock.isAway {
                    // The app switcher's picture is taken now: show no content.
                    Rectangle().fill(.background).ignoresSafeArea()
                }
            }
            .onChange(of: scenePhase, initial: true) { _, phase in
                if let phase = AppPhase(phase) { try? lock.phaseChanged(phase) }
            }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct IdleLockPromptModifier: ViewModifier {
    let lock: IdleLock
    let isPresented: Bool
    @State private var shield: PromptShield?

    func body(content: Content) -> some View {
        content.onChange(of: isPresented, initial: true) { _, shown in
            if shield == nil { shield = lock.promptShield() }
            try? shield?.update(isPresented: shown)
        }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension View {
    /// Guards this view (the app's root) with `lock`: reports the scene's
    /// phase, counts taps as activity, covers the content while the app is
    /// away (the app switcher's picture) and shows `lockScreen` while the
    /// session is locked. The lock screen calls `lock.unlock(passcode:)` or
    /// `lock.unlockWithBiometrics()`.
    public func idleLock<LockScreen: View>(_ lock: IdleLock,
                                           @ViewBuilder lockScreen: @escaping () -> LockScreen) -> some View {
        modifier(IdleLockModifier(lock: lock, lockScreen: lockScreen))
    }

    /// Keeps the presentation `isPresented` drives (a share sheet, a
    /// picker, the camera) from counting as an absence, through a
    /// ``PromptShield``: put it beside `.sheet(isPresented:)`.
    public func idleLockPrompt(_ lock: IdleLock, isPresented: Bool) -> some View {
        modifier(IdleLockPromptModifier(lock: lock, isPresented: isPresented))
    }
}
#endif

package org.idlelock;

/**
 * A platform whose own lifecycle state names {@link IdleLock#lifecycle} maps
 * to foreground / inactive / background ({@code IDLELOCK_PLATFORM_*}), so no
 * host maps them the wrong way round. Names are the platform's own,
 * case-sensitive spelling ({@code "ON_STOP"}, {@code "inactive"}).
 */
public enum Platform {
    /** SwiftUI {@code ScenePhase}: active, inactive, background. */
    IOS_SCENE_PHASE(1),
    /** {@code UIApplication.State}: active, inactive, background. */
    IOS_APPLICATION_STATE(2),
    /** androidx {@code Lifecycle.Event}: ON_CREATE, ON_START, ON_RESUME, ON_PAUSE, ON_STOP, ON_DESTROY, ON_ANY. */
    ANDROID_LIFECYCLE_EVENT(3),
    /** Flutter {@code AppLifecycleState}: resumed, inactive, hidden, paused, detached. */
    FLUTTER_APP_LIFECYCLE_STATE(4),
    /** React Native {@code AppState}: active, inactive, background, unknown, extension. */
    REACT_NATIVE_APP_STATE(5);

    /** The C value. */
    public final int code;

    Platform(int code) { this.code = code; }
}

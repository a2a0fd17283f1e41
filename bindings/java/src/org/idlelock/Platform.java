// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A platform whose own lifecycle state names {@link IdleLock#lifecycle} maps
 * to foreground / inactive / background ({@code IDLELOCK_PLATFORM_*}), so no
 * host maps them the wrong way round. Names are the platform's own,
 * case-sensitive spelling ({@code "ON_STOP"}, {@code "inactive"}); a name
 * the library does not know is an {@link InvalidArgumentException} that
 * lists these.
 */
public enum Platform {
    /** SwiftUI {@code ScenePhase}: active, inactive, background. */
    IOS_SCENE_PHASE(1, "active", "inactive", "background"),
    /** {@code UIApplication.State}: active, inactive, background. */
    IOS_APPLICATION_STATE(2, "active", "inactive", "background"),
    /** androidx {@code Lifecycle.Event}: ON_CREATE, ON_START, ON_RESUME, ON_PAUSE, ON_STOP, ON_DESTROY. */
    ANDROID_LIFECYCLE_EVENT(3, "ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY"),
    /** Flutter {@code AppLifecycleState}: resumed, inactive, hidden, paused, detached. */
    FLUTTER_APP_LIFECYCLE_STATE(4, "resumed", "inactive", "hidden", "paused", "detached"),
    /** React Native {@code AppState}: active, inactive, background, unknown, extension. */
    REACT_NATIVE_APP_STATE(5, "active", "inactive", "background", "unknown", "extension");

    /** The C value. */
    public final int code;
    private final List<String> names;

    Platform(int code, String... names) {
        this.code = code;
        this.names = Collections.unmodifiableList(Arrays.asList(names));
    }

    /** {@return the state names the library knows for this platform (a test checks each against it)} */
    public List<String> stateNames() { return names; }
}

// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A platform whose own lifecycle state names {@link IdleLock#lifecycle} maps
 * to foreground / inactive / background ({@code IDLELOCK_PLATFORM_*}), so no
 * host maps them the wrong way round. Names are the platform's own,
 * case-sensitive spelling ({@code "ON_STOP"}, {@code "inactive"}): {@link
 * #stateNames()}; a name the library does not know is an {@link
 * InvalidArgumentException} whose message lists them.
 */
public enum Platform {
    /** SwiftUI {@code ScenePhase}. */
    IOS_SCENE_PHASE(1),
    /** UIKit {@code UIApplication.State}. */
    IOS_APPLICATION_STATE(2),
    /** androidx {@code Lifecycle.Event}. */
    ANDROID_LIFECYCLE_EVENT(3),
    /** Flutter {@code AppLifecycleState}. */
    FLUTTER_APP_LIFECYCLE_STATE(4),
    /** React Native {@code AppState}. */
    REACT_NATIVE_APP_STATE(5);

    /** The C value. */
    public final int code;
    private final List<String> names;

    Platform(int code) {
        this.code = code;
        this.names = Collections.unmodifiableList(Arrays.asList(GeneratedTables.lifecycleNames(code)));
    }

    /**
     * {@return the state names the library knows for this platform, in its
     * table's order} (generated from the library's table, see docs/LIFECYCLE.md)
     */
    public List<String> stateNames() { return names; }
}

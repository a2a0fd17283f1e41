// SPDX-License-Identifier: MIT
package androidx.lifecycle;

/** Stub (tests only). */
public interface LifecycleEventObserver extends LifecycleObserver {
    void onStateChanged(LifecycleOwner source, Lifecycle.Event event);
}

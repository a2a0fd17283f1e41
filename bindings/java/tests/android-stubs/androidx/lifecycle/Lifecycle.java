// SPDX-License-Identifier: MIT
package androidx.lifecycle;

/** Stub (tests only): the members the examples use, with androidx's names. */
public abstract class Lifecycle {
    public abstract void addObserver(LifecycleObserver observer);

    public abstract void removeObserver(LifecycleObserver observer);

    /** androidx.lifecycle.Lifecycle.Event: the names libidlelock maps (docs/LIFECYCLE.md). */
    public enum Event { ON_CREATE, ON_START, ON_RESUME, ON_PAUSE, ON_STOP, ON_DESTROY, ON_ANY }
}

// SPDX-License-Identifier: MIT
package androidx.lifecycle;

/** Stub (tests only): androidx.lifecycle:lifecycle-process. */
public final class ProcessLifecycleOwner implements LifecycleOwner {
    private ProcessLifecycleOwner() { }

    public static LifecycleOwner get() { throw new UnsupportedOperationException("stub"); }

    @Override public Lifecycle getLifecycle() { throw new UnsupportedOperationException("stub"); }
}

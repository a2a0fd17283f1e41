// SPDX-License-Identifier: MIT
package androidx.lifecycle;

/** Stub (tests only). */
public interface LifecycleObserver {
}

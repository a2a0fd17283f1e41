// SPDX-License-Identifier: MIT
package androidx.fragment.app;

/** Stub (tests only): an Activity is a Context. */
public class FragmentActivity extends android.content.Context {
}

// SPDX-License-Identifier: MIT
package androidx.fragment.app;

/** Stub (tests only): a FragmentActivity is an Activity. */
public class FragmentActivity extends android.app.Activity {
}

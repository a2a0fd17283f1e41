// SPDX-License-Identifier: MIT
package android.app;

/** Stub (tests only): the member the examples override. */
public class Activity extends android.content.Context {
    /** Called for every touch, key and trackball event of this activity. */
    public void onUserInteraction() { }
}

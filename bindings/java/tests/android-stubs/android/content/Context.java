// SPDX-License-Identifier: MIT
package android.content;

/** Stub (tests only). */
public class Context {
}

// SPDX-License-Identifier: MIT
package androidx.biometric;

/** Stub (tests only). */
public class BiometricManager {
    public static final int BIOMETRIC_SUCCESS = 0;

    public interface Authenticators {
        int BIOMETRIC_STRONG = 0x000F;
    }

    public static BiometricManager from(android.content.Context context) { throw new UnsupportedOperationException("stub"); }

    public int canAuthenticate(int authenticators) { throw new UnsupportedOperationException("stub"); }
}

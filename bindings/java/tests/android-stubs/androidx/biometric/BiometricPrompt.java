// SPDX-License-Identifier: MIT
package androidx.biometric;

import java.util.concurrent.Executor;
import javax.crypto.Cipher;

/** Stub (tests only). */
public class BiometricPrompt {
    public static final int ERROR_HW_UNAVAILABLE = 1;
    public static final int ERROR_CANCELED = 5;
    public static final int ERROR_LOCKOUT = 7;
    public static final int ERROR_LOCKOUT_PERMANENT = 9;
    public static final int ERROR_USER_CANCELED = 10;
    public static final int ERROR_NO_BIOMETRICS = 11;
    public static final int ERROR_NEGATIVE_BUTTON = 13;

    public BiometricPrompt(androidx.fragment.app.FragmentActivity activity, Executor executor, AuthenticationCallback callback) {
        throw new UnsupportedOperationException("stub");
    }

    public void authenticate(PromptInfo info, CryptoObject crypto) { throw new UnsupportedOperationException("stub"); }

    public static class CryptoObject {
        public CryptoObject(Cipher cipher) { throw new UnsupportedOperationException("stub"); }

        public Cipher getCipher() { throw new UnsupportedOperationException("stub"); }
    }

    public static class AuthenticationResult {
        public CryptoObject getCryptoObject() { throw new UnsupportedOperationException("stub"); }
    }

    public abstract static class AuthenticationCallback {
        public void onAuthenticationError(int errorCode, CharSequence errString) { }

        public void onAuthenticationSucceeded(AuthenticationResult result) { }

        public void onAuthenticationFailed() { }
    }

    public static class PromptInfo {
        public static class Builder {
            public Builder setTitle(CharSequence title) { return this; }

            public Builder setNegativeButtonText(CharSequence text) { return this; }

            public PromptInfo build() { return new PromptInfo(); }
        }
    }
}

// SPDX-License-Identifier: MIT
package android.security.keystore;

/** Stub (tests only). */
public class KeyPermanentlyInvalidatedException extends java.security.InvalidKeyException {
    private static final long serialVersionUID = 1L;
}

// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.idlelock.AuthResult;
import org.idlelock.AuthenticationException;
import org.idlelock.Authenticator;

/**
 * An Authenticator backed by memory, with the outcomes a real keystore has:
 * an answer to wait for (a latch, as an Android app waits for
 * BiometricPrompt's callback), a failed or cancelled check, a replaced
 * item, a buggy host.
 */
class FakeKeystore implements Authenticator {
    volatile boolean available = true;
    volatile AuthResult outcome = AuthResult.OK;
    volatile byte[] item;             // what storeSecret kept (a copy)
    volatile byte[] lastStoreArgument; // the array the binding passed (it wipes it)
    volatile byte[] lastLoadReturned;  // the array loadSecret returned (the binding wipes it)
    volatile String lastReason;
    volatile boolean returnWrongLength;
    volatile CountDownLatch answer;   // when set, loadSecret waits for it
    volatile boolean stubborn;        // waits on answer through interrupts (a check that never gives up)
    volatile Thread loadRunner;       // the thread in loadSecret, while it is there
    volatile String loadThread;
    volatile int deletes;

    @Override public boolean isAvailable() { return available; }

    @Override public void storeSecret(byte[] secret) {
        lastStoreArgument = secret;
        item = Arrays.copyOf(secret, secret.length);
    }

    @Override public byte[] loadSecret(String reason) throws AuthenticationException {
        lastReason = reason;
        loadThread = Thread.currentThread().getName();
        CountDownLatch latch = answer;
        loadRunner = Thread.currentThread();
        if (latch != null && stubborn) {
            boolean interrupted = false;
            while (latch.getCount() > 0) {
                try {
                    latch.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        } else if (latch != null) {
            try {
                if (!latch.await(10, TimeUnit.SECONDS)) throw new AuthenticationException(AuthResult.CANCELLED, "timed out");
            } catch (InterruptedException e) {
                throw new AuthenticationException(AuthResult.CANCELLED, "interrupted", e);
            }
        }
        if (outcome != AuthResult.OK) throw new AuthenticationException(outcome, "the fake keystore says " + outcome);
        if (item == null) throw new AuthenticationException(AuthResult.UNAVAILABLE, "no item");
        byte[] out = returnWrongLength ? Arrays.copyOf(item, 31) : Arrays.copyOf(item, item.length);
        lastLoadReturned = out;
        return out;
    }

    @Override public void deleteSecret() {
        deletes++;
        item = null;
    }
}

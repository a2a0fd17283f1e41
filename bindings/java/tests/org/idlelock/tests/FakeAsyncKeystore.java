// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.idlelock.AsyncAuthenticator;
import org.idlelock.AuthResult;
import org.idlelock.AuthenticationException;
import org.idlelock.BiometricRequest;

/**
 * An AsyncAuthenticator backed by memory whose answers arrive on its own
 * "main-ui" thread, as BiometricPrompt's callbacks arrive on Android's main
 * thread: every stage completes there, after {@link #gate} (the person at
 * the sensor) when it is set.
 */
final class FakeAsyncKeystore implements AsyncAuthenticator, AutoCloseable {
    final ExecutorService main = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "main-ui");
        t.setDaemon(true);
        return t;
    });
    volatile byte[] item;                    // what storeSecret kept (a copy)
    volatile byte[] lastStoreArgument;       // the request's array (the binding wipes it)
    volatile byte[] lastLoadReturned;        // what loadSecret completed with (the binding wipes it)
    volatile AuthResult outcome = AuthResult.OK;
    volatile RuntimeException bug;           // thrown by the stage instead of an answer
    volatile CompletableFuture<Void> gate;   // when set, answers wait for it
    volatile int deletes;

    private void await() {
        CompletableFuture<Void> g = gate;
        if (g != null) {
            try {
                g.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new CompletionException(new AuthenticationException(AuthResult.CANCELLED, "timed out"));
            }
        }
        if (bug != null) throw bug;
        if (outcome != AuthResult.OK) {
            throw new CompletionException(new AuthenticationException(outcome, "the fake keystore says " + outcome));
        }
    }

    @Override
    public CompletionStage<byte[]> loadSecret(BiometricRequest request) {
        return CompletableFuture.supplyAsync(() -> {
            await();
            byte[] kept = item;
            if (kept == null) throw new CompletionException(new AuthenticationException(AuthResult.UNAVAILABLE, "no item"));
            byte[] out = Arrays.copyOf(kept, kept.length);
            lastLoadReturned = out;
            return out;
        }, main);
    }

    @Override
    public CompletionStage<Void> storeSecret(BiometricRequest request, byte[] secret) {
        return CompletableFuture.runAsync(() -> {
            await();
            lastStoreArgument = secret;
            item = Arrays.copyOf(secret, secret.length);
        }, main);
    }

    @Override
    public CompletionStage<Void> deleteSecret() {
        return CompletableFuture.runAsync(() -> {
            deletes++;
            item = null;
        }, main);
    }

    @Override
    public void close() { main.shutdownNow(); }
}

// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * A blocking call that a future runs on an executor's thread ({@link
 * IdleLock#unlockWithBiometricsAsync(java.util.concurrent.Executor)}), and
 * that the future's cancellation ends: cancelling marks it and interrupts
 * its thread while the call runs (as {@code FutureTask.cancel(true)} does;
 * a host's {@link Authenticator#loadSecret} that waits on a latch answers
 * {@link AuthResult#CANCELLED} when interrupted), and {@link Callbacks}
 * answers the library {@link AuthResult#CANCELLED} for a check that
 * answers after the cancellation, wiping the secret it released. The
 * interrupt never outlives the call: {@link #end()} clears one that came
 * from here.
 */
final class CancellableCall {
    private Thread runner;
    private boolean cancelled;
    private boolean ended;
    private boolean interrupted;

    /** On the runner's thread, before the call; false when already cancelled. */
    synchronized boolean begin() {
        if (cancelled || ended) return false;
        runner = Thread.currentThread();
        return true;
    }

    /** From any thread: the future was cancelled. */
    synchronized void cancel() {
        if (cancelled) return;
        cancelled = true;
        if (runner != null && !ended) {
            interrupted = true;
            runner.interrupt();
        }
    }

    synchronized boolean isCancelled() { return cancelled; }

    /** On the runner's thread, after the call (also when it threw). */
    void end() {
        boolean clear;
        synchronized (this) {
            ended = true;
            runner = null;
            clear = interrupted;
        }
        if (clear) Thread.interrupted(); // ours, not the executor's
    }
}

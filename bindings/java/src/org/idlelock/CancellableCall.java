// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * A blocking call that a future runs on an executor's thread ({@link
 * IdleLock#unlockWithBiometricsAsync(java.util.concurrent.Executor)}), and
 * that the future's cancellation ends. The call's answer and its
 * cancellation race for one claim ({@link RequestFuture.Owner}): {@link
 * Callbacks} claims it for the secret the authenticator released just
 * before handing it to the library, and answers {@link
 * AuthResult#CANCELLED} (wiping the secret) when a cancellation claimed it
 * first; a cancel that finds the answer's claim returns false. A
 * cancellation that won interrupts the call's thread while the call runs
 * (as {@code FutureTask.cancel(true)} does; a host's {@link
 * Authenticator#loadSecret} that waits on a latch answers {@link
 * AuthResult#CANCELLED} when interrupted). The interrupt never outlives the
 * call: {@link #end()} clears one that came from here.
 */
final class CancellableCall extends RequestFuture.Owner {
    private Thread runner;
    private boolean ended;
    private boolean interrupted;

    /** On the runner's thread, before the call; false when already cancelled. */
    synchronized boolean begin() {
        if (isCancelled() || ended) return false;
        runner = Thread.currentThread();
        return true;
    }

    /** From any thread, after a cancellation claimed the call: interrupts it while it runs. */
    @Override
    synchronized void cancelled() {
        if (interrupted) return;
        if (runner != null && !ended) {
            interrupted = true;
            runner.interrupt();
        }
    }

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

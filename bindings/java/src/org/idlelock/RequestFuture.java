// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The future of a biometric request or helper, whose outcome two parties
 * race for: the host's answer, and the caller who gives up ({@code
 * cancel}, or a completion from outside such as {@code orTimeout}).
 * Exactly one of them owns the outcome: the first to win a
 * compare-and-set on the request's {@link Owner} state. So a {@link
 * #cancel(boolean)} that returns true means the answer unlocked nothing
 * (it is answered to the library as cancelled, its secret wiped), and an
 * answer that reached the library first makes {@code cancel} return false
 * (the future then completes with what the library answered, a moment
 * later). The binding completes the future only through {@link
 * #settle(Snapshot)}, {@link #settleExceptionally(Throwable)} and {@link
 * #settleCancelled()}, which claim nothing.
 */
final class RequestFuture extends CompletableFuture<Snapshot> {
    /**
     * The state one request's answer and its cancellation race for, and
     * what a cancellation that won does next ({@link #cancelled()}).
     */
    abstract static class Owner {
        private static final int OPEN = 0, ANSWERED = 1, CANCELLED = 2, CLOSED = 3;
        private final AtomicInteger claim = new AtomicInteger(OPEN);

        /**
         * The host's answer is about to reach the library. False when a
         * cancellation or the lock's close owns the outcome: the answer
         * must then unlock nothing (answer CANCELLED, or refuse the
         * finish; wipe its secret).
         */
        final boolean claimAnswer() {
            return claim.compareAndSet(OPEN, ANSWERED) || claim.get() == ANSWERED;
        }

        /** The caller gives up. False when an answer (or the close) claimed it first. */
        final boolean claimCancel() {
            return claim.compareAndSet(OPEN, CANCELLED) || claim.get() == CANCELLED;
        }

        /** The lock was closed: an answer from now on unlocks nothing. False when an answer claimed it first. */
        final boolean claimClose() {
            return claim.compareAndSet(OPEN, CLOSED) || claim.get() == CLOSED;
        }

        /** True once a cancellation or the close owns the outcome: an answer must unlock nothing. */
        final boolean isCancelled() {
            int c = claim.get();
            return c == CANCELLED || c == CLOSED;
        }

        /** True once the caller's cancellation owns the outcome. */
        final boolean isCancelledByCaller() { return claim.get() == CANCELLED; }

        /** After a cancellation won (the future is done): end the request. Any thread. */
        abstract void cancelled();
    }

    /** How the caller completed the future when it gave up. */
    private static final class GiveUp {
        final Snapshot value;
        final Throwable failure; // null with value == null: cancelled

        GiveUp(Snapshot value, Throwable failure) {
            this.value = value;
            this.failure = failure;
        }
    }

    private static final GiveUp CANCEL = new GiveUp(null, null);

    private final Owner owner;
    /** Written before the caller's claim, read after it: the binding's own
     * completion of a future whose caller gave up applies the caller's. */
    private volatile GiveUp givenUp;
    /** The future holds the caller's completion (applied by whichever thread came first). */
    private volatile boolean appliedGiveUp;

    RequestFuture(Owner owner) { this.owner = owner; }

    /**
     * Cancels the request, unless the host's answer reached the library
     * first: then returns false and leaves the future to complete with the
     * library's answer. True means the answer unlocked nothing.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        givenUp = CANCEL;
        if (!owner.claimCancel()) return false;
        owner.cancelled(); // first: whoever sees the future done sees the request ended
        return super.cancel(mayInterruptIfRunning);
    }

    /**
     * Completing the future from outside (a timeout's {@code
     * completeExceptionally(TimeoutException)}) is giving up, as {@link
     * #cancel(boolean)}: false when the answer reached the library first.
     */
    @Override
    public boolean completeExceptionally(Throwable failure) {
        if (failure == null) throw new NullPointerException("failure");
        return giveUp(new GiveUp(null, failure));
    }

    /** As {@link #completeExceptionally(Throwable)} ({@code completeOnTimeout}). */
    @Override
    public boolean complete(Snapshot value) { return giveUp(new GiveUp(value, null)); }

    private boolean giveUp(GiveUp how) {
        givenUp = how;
        if (!owner.claimCancel()) return false;
        owner.cancelled();
        return apply(how) || appliedGiveUp;
    }

    private boolean apply(GiveUp how) {
        boolean done;
        if (how == CANCEL) done = super.cancel(false);
        else if (how.failure != null) done = super.completeExceptionally(how.failure);
        else done = super.complete(how.value);
        if (done) appliedGiveUp = true;
        return done;
    }

    /** The binding's own completion with the library's answer; the caller's, once the caller gave up. */
    boolean settle(Snapshot s) {
        GiveUp how = owner.isCancelledByCaller() ? givenUp : null;
        return how != null ? apply(how) : super.complete(s);
    }

    /** The binding's own failure of the future; the caller's completion, once the caller gave up. */
    boolean settleExceptionally(Throwable failure) {
        GiveUp how = owner.isCancelledByCaller() ? givenUp : null;
        return how != null ? apply(how) : super.completeExceptionally(failure);
    }

    /** The binding's own cancellation (a request that its caller cancelled through another future). */
    boolean settleCancelled() {
        GiveUp how = owner.isCancelledByCaller() ? givenUp : null;
        return how != null ? apply(how) : super.cancel(false);
    }
}

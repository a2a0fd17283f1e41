// SPDX-License-Identifier: MIT
package org.idlelock;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a clean-up action once an object has become unreachable, or earlier
 * when asked ({@link Registration#clean()}), exactly once: what {@code
 * java.lang.ref.Cleaner} does, built from what every JVM and Android 7
 * (API 24) offers ({@code Cleaner} is API 33). A {@link PhantomReference}
 * per object, queued by the collector; one daemon thread,
 * "idlelock-reaper", started at the first registration, drains the queue
 * and runs the actions. An action must not refer to its object (it would
 * never become unreachable); an exception it throws is dropped.
 */
final class Reaper {
    private Reaper() {}

    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    /** Keeps each registration reachable until it has run (a PhantomReference
     * that is itself collected is never queued). */
    private static final Set<Registration> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    /** One object's action. */
    static final class Registration extends PhantomReference<Object> {
        private final Runnable action;
        private final AtomicBoolean done = new AtomicBoolean();

        private Registration(Object referent, Runnable action) {
            super(referent, QUEUE);
            this.action = action;
        }

        /** Runs the action now unless it already ran (on any thread). */
        void clean() {
            if (!done.compareAndSet(false, true)) return;
            LIVE.remove(this);
            clear();
            action.run();
        }
    }

    /** Registers {@code action} to run once {@code object} is unreachable. */
    static Registration register(Object object, Runnable action) {
        Registration r = new Registration(object, action);
        LIVE.add(r);
        if (!STARTED.get() && STARTED.compareAndSet(false, true)) start();
        return r;
    }

    private static void start() {
        Thread t = new Thread(Reaper::drain, "idlelock-reaper");
        t.setDaemon(true);
        t.start();
    }

    private static void drain() {
        for (;;) {
            try {
                ((Registration) QUEUE.remove()).clean();
            } catch (InterruptedException e) {
                // a daemon: it runs until the JVM exits
            } catch (Throwable t) {
                // an action's failure must not stop the others
            }
        }
    }
}

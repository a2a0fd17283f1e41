// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.idlelock.IdleLock;
import org.idlelock.State;

/**
 * Scenarios that may kill or hang the JVM they run in, each run in a child
 * JVM by {@link ChildTests}: the child prints "ok" and exits 0 when the
 * scenario held; anything else (a crash, a hang, a message) is a failure.
 *
 *   java -Xcheck:jni -cp ... org.idlelock.tests.Child SCENARIO
 */
public final class Child {
    private Child() {}

    /** Kept in a static field and never closed (finding 2 of issue 19). */
    static IdleLock forever;

    static IdleLock watched(long idleMs) {
        IdleLock lock = IdleLock.builder().idleAfterMs(idleMs).kdfOpslimit(2).kdfMemlimit(Harness.MEMLIMIT_FLOOR).build();
        lock.setPasscode(new char[] {'2', '4', '6', '8'});
        return lock;
    }

    static void fail(String what) {
        System.out.println("FAIL " + what);
        System.exit(1);
    }

    /** A listener on the watcher thread closes the lock while 7 more are subscribed; 4 rounds. */
    static void closeInWatcherListener() throws Exception {
        for (int round = 0; round < 4; round++) {
            IdleLock lock = watched(100);
            CountDownLatch closed = new CountDownLatch(1);
            AtomicInteger after = new AtomicInteger();
            AtomicBoolean isClosed = new AtomicBoolean();
            lock.subscribe(s -> {
                if (s.state() == State.LOCKED) {
                    lock.close();
                    isClosed.set(true);
                    closed.countDown();
                }
            });
            for (int i = 0; i < 7; i++) {
                lock.subscribe(s -> {
                    if (isClosed.get()) after.incrementAndGet();
                });
            }
            lock.watchStart();
            if (!closed.await(20, TimeUnit.SECONDS)) fail("round " + round + ": the watcher never locked");
            Thread.sleep(300);
            if (after.get() != 0) fail("round " + round + ": " + after.get() + " listeners ran after close()");
        }
    }

    /** close() on this thread while the watcher thread is inside a delivery. */
    static void closeDuringDelivery() throws Exception {
        for (int round = 0; round < 4; round++) {
            IdleLock lock = watched(100);
            CountDownLatch inside = new CountDownLatch(1);
            AtomicBoolean closing = new AtomicBoolean();
            AtomicInteger after = new AtomicInteger();
            lock.subscribe(s -> {
                if (s.state() != State.LOCKED) return;
                inside.countDown();
                Harness.sleep(200); // close() is called meanwhile
            });
            for (int i = 0; i < 7; i++) {
                lock.subscribe(s -> {
                    if (closing.get()) after.incrementAndGet();
                });
            }
            lock.watchStart();
            if (!inside.await(20, TimeUnit.SECONDS)) fail("round " + round + ": the watcher never locked");
            closing.set(true);
            lock.close(); // waits for the watcher thread to stop
            Thread.sleep(100);
            if (after.get() != 0) fail("round " + round + ": " + after.get() + " listeners ran after close() began");
        }
    }

    /** Locks never closed, with the watcher running and listeners that capture them, destroyed by the reaper. */
    static void reaperWithWatcher() throws Exception {
        long live = GlueAccess.liveHandles();
        AtomicInteger heard = new AtomicInteger();
        for (int i = 0; i < 40; i++) {
            IdleLock lock = watched(20 + i % 7);
            for (int k = 0; k < 8; k++) {
                lock.subscribe(s -> {
                    heard.incrementAndGet();
                    if (s.state() == State.LOCKED) lock.snapshot();
                });
            }
            lock.watchStart();
            if (i % 4 == 0) Harness.sleep(25); // some mid-delivery when collected
        }
        long deadline = System.currentTimeMillis() + 30_000;
        while (GlueAccess.liveHandles() > live && System.currentTimeMillis() < deadline) {
            System.gc();
            List<byte[]> pressure = new ArrayList<>();
            for (int j = 0; j < 32; j++) pressure.add(new byte[1 << 16]);
            Harness.sleep(20);
        }
        if (GlueAccess.liveHandles() != live) fail((GlueAccess.liveHandles() - live) + " handles were never destroyed");
        if (heard.get() == 0) fail("no listener ever ran");
    }

    /** main returns with a lock never closed whose watcher thread ran a listener. */
    static void exitWithOpenLock() throws Exception {
        forever = watched(100);
        CountDownLatch heard = new CountDownLatch(1);
        forever.subscribe(s -> {
            if (s.state() == State.LOCKED) heard.countDown();
        });
        forever.watchStart();
        if (!heard.await(20, TimeUnit.SECONDS)) fail("the watcher never locked");
        // Returns without close() or System.exit: the JVM must end by itself.
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "close-in-watcher-listener": closeInWatcherListener(); break;
            case "close-during-delivery": closeDuringDelivery(); break;
            case "reaper-with-watcher": reaperWithWatcher(); break;
            case "exit-with-open-lock": exitWithOpenLock(); break;
            default: fail("unknown scenario " + args[0]);
        }
        System.out.println("ok");
    }
}

// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.idlelock.IdleLock;
import org.idlelock.IdleLockException;
import org.idlelock.InvalidPasscodeException;
import org.idlelock.SessionLockedException;

/** Threads hammering one handle, and a close in the middle of it. */
final class ThreadTests {
    private ThreadTests() {}

    static void run(Harness h) {
        h.test("four threads hammer one handle, then it is closed under them", () -> {
            long live = GlueAccess.liveHandles();
            IdleLock lock = IdleLock.builder().idleAfterMs(3_600_000).kdfOpslimit(2)
                    .kdfMemlimit(Harness.MEMLIMIT_FLOOR).build();
            lock.setPasscode(chars("2468"));
            List<Throwable> unexpected = new CopyOnWriteArrayList<>();
            AtomicInteger heard = new AtomicInteger();
            AtomicInteger closedSeen = new AtomicInteger();
            lock.subscribe(s -> heard.incrementAndGet());
            CountDownLatch go = new CountDownLatch(1);
            Thread[] threads = new Thread[4];
            for (int t = 0; t < threads.length; t++) {
                final int id = t;
                threads[t] = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; ; i++) {
                        try {
                            switch ((i + id) % 8) {
                                case 0: lock.touch(); break;
                                case 1: lock.snapshot(); break;
                                case 2: lock.putSecret("t" + id, new byte[] {(byte) i}); break;
                                case 3: lock.getSecret("t" + id); break;
                                case 4: if (i % 64 == 4) lock.lock(); else lock.check(); break;
                                case 5: if (i % 64 == 5) lock.unlock(chars(i % 128 == 5 ? "0000" : "2468")); else lock.touch(); break;
                                case 6: lock.unsubscribe(lock.subscribe(s -> { })); break;
                                default: lock.requireUnlocked(); break;
                            }
                        } catch (SessionLockedException | InvalidPasscodeException | org.idlelock.NotFoundException expected) {
                            // another thread locked it, or a wrong passcode on purpose
                        } catch (IllegalStateException closed) {
                            closedSeen.incrementAndGet();
                            return;
                        } catch (IdleLockException e) {
                            if (!(e instanceof org.idlelock.LockedOutException)) unexpected.add(e);
                            return;
                        } catch (Throwable e) {
                            unexpected.add(e);
                            return;
                        }
                    }
                }, "hammer-" + t);
                threads[t].start();
            }
            go.countDown();
            Harness.sleep(1500);
            lock.close();
            for (Thread t : threads) t.join(20_000);
            for (Thread t : threads) check(!t.isAlive(), t.getName() + " ended");
            check(unexpected.isEmpty(), "unexpected: " + unexpected);
            eq(closedSeen.get(), threads.length, "every thread saw the close as IllegalStateException");
            check(heard.get() > 0, "listeners ran meanwhile");
            eq(GlueAccess.liveHandles(), live, "destroyed exactly once");
        });
    }
}

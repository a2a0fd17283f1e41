// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.idlelock.CallbackException;
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.Reason;
import org.idlelock.Snapshot;
import org.idlelock.State;

/** Listeners (on the caller's thread, on the watcher thread, through an executor) and the clock. */
final class ListenerTests {
    private ListenerTests() {}

    static void run(Harness h) {
        h.test("listeners hear each change in seq order, until unsubscribed", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                List<Snapshot> heard = new CopyOnWriteArrayList<>();
                long token = lock.subscribe(heard::add);
                lock.setPasscode(chars("2468"));
                lock.lock();
                lock.unlock(chars("2468"));
                check(heard.size() >= 3, "heard " + heard.size());
                for (int i = 1; i < heard.size(); i++) check(heard.get(i).seq() > heard.get(i - 1).seq(), "seq order");
                eq(heard.get(heard.size() - 1).state(), State.UNLOCKED, "the last one");
                check(heard.stream().anyMatch(s -> s.reason() == Reason.MANUAL), "heard the lock");
                lock.unsubscribe(token);
                int n = heard.size();
                lock.lock();
                eq(heard.size(), n, "nothing after unsubscribe");
                expect(InvalidArgumentException.class, () -> lock.unsubscribe(token));
            }
        });
        h.test("a listener may call into the lock and unsubscribe itself", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                AtomicReference<Snapshot> inner = new AtomicReference<>();
                long[] token = new long[1];
                token[0] = lock.subscribe(s -> {
                    inner.set(lock.snapshot());
                    lock.unsubscribe(token[0]);
                });
                lock.setPasscode(chars("2468"));
                check(inner.get() != null && inner.get().isEnabled(), "called back in");
                inner.set(null);
                lock.lock();
                check(inner.get() == null, "unsubscribed itself");
            }
        });
        h.test("a listener's exception is thrown from the call that ran it, after the call", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.subscribe(s -> {
                    throw new IllegalStateException("listener bug");
                });
                CallbackException e = expect(CallbackException.class, lock::lock);
                check(e.getCause() instanceof IllegalStateException, "cause");
                eq(lock.snapshot().state(), State.LOCKED, "the call took effect");
            }
        });
        h.test("an executor hands snapshots to the thread that runs it", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                ConcurrentLinkedQueue<Runnable> mainQueue = new ConcurrentLinkedQueue<>();
                List<String> threads = new ArrayList<>();
                long token = lock.subscribe(mainQueue::add, s -> threads.add(Thread.currentThread().getName()));
                Thread other = new Thread(() -> lock.setPasscode(chars("2468")), "worker");
                other.start();
                other.join();
                check(threads.isEmpty(), "nothing ran before the main loop pumped");
                Runnable r;
                while ((r = mainQueue.poll()) != null) r.run();
                check(!threads.isEmpty(), "ran");
                eq(threads.get(0), Thread.currentThread().getName(), "on the pumping thread");
                lock.lock();
                lock.unsubscribe(token);
                int n = threads.size();
                while ((r = mainQueue.poll()) != null) r.run();
                eq(threads.size(), n, "queued events are dropped after unsubscribe");
            }
        });
        h.test("a listener fired from the watcher thread, attached once and detached at its end", () -> {
            long attachedBefore = GlueAccess.attached();
            long detachedBefore = GlueAccess.detached();
            IdleLock lock = IdleLock.builder().idleAfterMs(300).backgroundAfterMs(30_000)
                    .kdfOpslimit(2).kdfMemlimit(Harness.MEMLIMIT_FLOOR).build();
            try {
                lock.setPasscode(chars("2468"));
                CountDownLatch locked = new CountDownLatch(1);
                AtomicReference<Thread> on = new AtomicReference<>();
                lock.subscribe(s -> {
                    if (s.state() == State.LOCKED) {
                        on.set(Thread.currentThread());
                        locked.countDown();
                    }
                });
                lock.watchStart();
                check(locked.await(10, TimeUnit.SECONDS), "the watcher locked the session with no call from us");
                Thread t = on.get();
                check(t != Thread.currentThread(), "not the test thread");
                eq(t.getName(), "idlelock-native", "attached by the glue");
                check(t.isDaemon(), "as a daemon");
                eq(lock.snapshot().reason(), Reason.IDLE, "IDLE");
                lock.watchStop();
            } finally {
                lock.close();
            }
            eq(GlueAccess.attached() - attachedBefore, 1L, "attached once");
            eq(GlueAccess.detached() - detachedBefore, 1L, "detached when the thread ended");
        });
        h.test("a listener that throws on the watcher thread reaches its uncaught handler", () -> {
            Thread.UncaughtExceptionHandler old = Thread.getDefaultUncaughtExceptionHandler();
            AtomicReference<Throwable> caught = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
                caught.set(e);
                done.countDown();
            });
            try (IdleLock lock = IdleLock.builder().idleAfterMs(200).kdfOpslimit(2).kdfMemlimit(Harness.MEMLIMIT_FLOOR).build()) {
                lock.setPasscode(chars("2468"));
                lock.subscribe(s -> {
                    if (s.state() == State.LOCKED) throw new IllegalStateException("from the watcher");
                });
                lock.watchStart();
                check(done.await(10, TimeUnit.SECONDS), "handled");
                eq(caught.get().getMessage(), "from the watcher", "the listener's exception");
                lock.touch(); // nothing left pending for this thread
            } finally {
                Thread.setDefaultUncaughtExceptionHandler(old);
            }
        });
        h.test("the watcher needs the default clock", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                expect(InvalidArgumentException.class, lock::watchStart);
            }
        });
        h.test("close from a listener on the watcher thread", () -> {
            long live = GlueAccess.liveHandles();
            IdleLock lock = IdleLock.builder().idleAfterMs(200).kdfOpslimit(2).kdfMemlimit(Harness.MEMLIMIT_FLOOR).build();
            lock.setPasscode(chars("2468"));
            CountDownLatch closed = new CountDownLatch(1);
            lock.subscribe(s -> {
                if (s.state() == State.LOCKED) {
                    lock.close();
                    closed.countDown();
                }
            });
            lock.watchStart();
            check(closed.await(10, TimeUnit.SECONDS), "closed");
            check(lock.isClosed(), "isClosed");
            long deadline = System.currentTimeMillis() + 5000;
            while (GlueAccess.liveHandles() > live && System.currentTimeMillis() < deadline) Harness.sleep(10);
            eq(GlueAccess.liveHandles(), live, "destroyed on the watcher thread");
        });
        h.test("close from a listener during a call: the rest of the delivery does not run", () -> {
            IdleLock lock = fast(new Harness.FakeClock()).build();
            lock.setPasscode(chars("2468"));
            java.util.concurrent.atomic.AtomicInteger after = new java.util.concurrent.atomic.AtomicInteger();
            boolean[] closed = {false};
            lock.subscribe(s -> {
                if (s.state() == State.LOCKED) {
                    lock.close();
                    closed[0] = true;
                }
            });
            for (int i = 0; i < 7; i++) {
                lock.subscribe(s -> {
                    if (closed[0]) after.incrementAndGet();
                });
            }
            lock.lock();
            check(lock.isClosed(), "closed");
            eq(after.get(), 0, "listeners that ran after close()");
        });
        h.test("a clock that throws locks the session and surfaces after the call", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            boolean[] broken = {false};
            try (IdleLock lock = fast(null).clock(() -> {
                if (broken[0]) throw new ArithmeticException("clock broke");
                return clock.nowMs();
            }).build()) {
                lock.setPasscode(chars("2468"));
                broken[0] = true;
                CallbackException e = expect(CallbackException.class, lock::touch);
                check(e.getCause() instanceof ArithmeticException, "cause");
                broken[0] = false;
                eq(lock.snapshot().reason(), Reason.CLOCK, "failed closed: CLOCK");
            }
        });
        h.test("a clock may not call into the lock", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            IdleLock[] self = new IdleLock[1];
            boolean[] reenter = {false};
            try (IdleLock lock = fast(null).clock(() -> {
                if (reenter[0]) self[0].touch();
                return clock.nowMs();
            }).build()) {
                self[0] = lock;
                lock.setPasscode(chars("2468"));
                reenter[0] = true;
                CallbackException e = expect(CallbackException.class, lock::check);
                check(e.getCause() instanceof IllegalStateException, "refused: " + e.getCause());
                reenter[0] = false;
                eq(lock.snapshot().reason(), Reason.CLOCK, "the failed reading locked it");
            }
        });
    }
}

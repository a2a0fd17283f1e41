// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.Platform;
import org.idlelock.Reason;
import org.idlelock.Snapshot;
import org.idlelock.State;

/** Events, the decision rules, named platform states, prompts, the warning: on a hand-moved clock. */
final class RulesTests {
    private RulesTests() {}

    static void run(Harness h) {
        h.test("start, lock on start, unlock", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                Snapshot s = lock.start();
                eq(s.state(), State.UNLOCKED, "not engaged: start does not lock");
                check(!s.isEnabled(), "not engaged");
                eq(s.msUntilIdleLock(), IdleLock.NEVER, "no idle deadline without a passcode");
                lock.setPasscode(chars("2468"));
                check(lock.snapshot().isEnabled(), "engaged");
                s = lock.lock();
                eq(s.state(), State.LOCKED, "state");
                eq(s.reason(), Reason.MANUAL, "reason");
                check(s.isLocked(), "isLocked");
                s = lock.unlock(chars("2468"));
                eq(s.state(), State.UNLOCKED, "unlocked");
                eq(s.reason(), Reason.NONE, "reason none");
            }
        });
        h.test("lock_on_start locks an engaged session at the first start only", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                Snapshot s = lock.start();
                eq(s.reason(), Reason.STARTUP, "STARTUP");
                lock.unlock(chars("2468"));
                eq(lock.start().state(), State.UNLOCKED, "a second start only judges");
            }
        });
        h.test("idle timeout, touch, check and the next deadline", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                clock.advance(59_000);
                lock.touch();
                Snapshot s = lock.snapshot();
                eq(s.msUntilIdleLock(), 60_000L, "touch moved the idle deadline");
                eq(s.msUntilNextDeadline(), 60_000L, "next deadline");
                clock.advance(60_000);
                s = lock.check();
                eq(s.state(), State.LOCKED, "locked");
                eq(s.reason(), Reason.IDLE, "IDLE");
                lock.touch(); // a tap on the lock screen is not activity
                eq(lock.snapshot().state(), State.LOCKED, "still locked");
            }
        });
        h.test("grace window, background timeout, inactive", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                check(lock.background().isAway(), "away");
                clock.advance(1_500);
                Snapshot s = lock.foreground();
                eq(s.state(), State.UNLOCKED, "within grace: presence");
                check(!s.isAway(), "back");
                lock.inactive();
                clock.advance(20_000);
                eq(lock.foreground().state(), State.UNLOCKED, "inactive 20 s < 30 s");
                lock.background();
                clock.advance(30_000);
                s = lock.foreground();
                eq(s.reason(), Reason.BACKGROUNDED, "30 s in the background");
            }
        });
        h.test("a clock that steps back locks with CLOCK", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                clock.advance(-10);
                eq(lock.check().reason(), Reason.CLOCK, "CLOCK");
            }
        });
        h.test("named platform states", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                check(lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_STOP").isAway(), "ON_STOP is away");
                clock.advance(31_000);
                eq(lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_RESUME").reason(), Reason.BACKGROUNDED, "ON_RESUME judged");
                lock.unlock(chars("2468"));
                check(lock.lifecycle(Platform.FLUTTER_APP_LIFECYCLE_STATE, "hidden").isAway(), "hidden");
                check(!lock.lifecycle(Platform.IOS_SCENE_PHASE, "active").isAway(), "active");
                eq(lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_CREATE").state(), State.UNLOCKED, "ON_CREATE judges only");
                long seq = lock.snapshot().seq();
                expect(InvalidArgumentException.class, () -> lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "on_stop"));
                expect(InvalidArgumentException.class, () -> lock.lifecycle(Platform.REACT_NATIVE_APP_STATE, "hidden"));
                eq(lock.snapshot().seq(), seq, "a bad name changed nothing");
            }
        });
        h.test("prompts defer the idle rule, end once", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).build()) {
                lock.setPasscode(chars("2468"));
                long token;
                try (IdleLock.Prompt p = lock.prompt()) {
                    token = p.token();
                    check(token != 0, "token");
                    clock.advance(90_000);
                    eq(lock.check().state(), State.UNLOCKED, "the prompt defers the idle rule");
                }
                eq(lock.snapshot().state(), State.UNLOCKED, "its end is activity");
                final long ended = token;
                expect(InvalidArgumentException.class, () -> lock.promptEnd(ended));
                long t = lock.promptBegin();
                clock.advance(121_000);
                eq(lock.check().reason(), Reason.IDLE, "never past prompt_cap_ms");
                lock.promptEnd(t);
            }
        });
        h.test("the warning opens before the idle lock", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).warnBeforeMs(10_000).build()) {
                lock.setPasscode(chars("2468"));
                eq(lock.snapshot().msUntilWarning(), 50_000L, "ms until the warning");
                clock.advance(50_000);
                check(lock.check().isWarning(), "warning open");
                lock.touch();
                check(!lock.snapshot().isWarning(), "activity ends it");
            }
        });
    }
}

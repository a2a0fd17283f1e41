// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.contains;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import org.idlelock.DelayStep;
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.InvalidPasscodeException;
import org.idlelock.LockedOutException;
import org.idlelock.NoPasscodeException;
import org.idlelock.RetryLaterException;
import org.idlelock.SessionLockedException;
import org.idlelock.Snapshot;
import org.idlelock.State;

/** Passcodes: attempts, lockout, delays, and the bytes that cross (never modified UTF-8). */
final class PasscodeTests {
    private PasscodeTests() {}

    /** JNI's "modified UTF-8" (what GetStringUTFChars would hand C). */
    static byte[] modifiedUtf8(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (char c : s.toCharArray()) {
            if (c != 0 && c < 0x80) {
                out.write(c);
            } else if (c < 0x800) {
                out.write(0xC0 | (c >> 6));
                out.write(0x80 | (c & 0x3F));
            } else {
                out.write(0xE0 | (c >> 12));
                out.write(0x80 | ((c >> 6) & 0x3F));
                out.write(0x80 | (c & 0x3F));
            }
        }
        return out.toByteArray();
    }

    static void run(Harness h) {
        h.test("wrong passcodes count, then lock out; sign-out is the way out", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).maxAttempts(3).build()) {
                expect(NoPasscodeException.class, () -> lock.unlock(chars("2468")));
                lock.setPasscode(chars("2468"));
                lock.lock();
                InvalidPasscodeException e = expect(InvalidPasscodeException.class, () -> lock.unlock(chars("1111")));
                eq(e.attemptsRemaining(), 2, "attemptsRemaining");
                eq(e.snapshot().state(), State.LOCKED, "snapshot on the exception");
                contains(e.getMessage(), "2", "the message says how many remain");
                eq(expect(InvalidPasscodeException.class, () -> lock.unlock(chars("1112"))).attemptsRemaining(), 1, "1 left");
                LockedOutException out = expect(LockedOutException.class, () -> lock.unlock(chars("1113")));
                eq(out.snapshot().state(), State.LOCKED_OUT, "LOCKED_OUT");
                expect(LockedOutException.class, () -> lock.unlock(chars("2468")));
                lock.disable();
                Snapshot s = lock.snapshot();
                eq(s.state(), State.UNLOCKED, "signed out");
                check(!s.isEnabled(), "not engaged");
            }
        });
        h.test("a locked session cannot replace its passcode", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.lock();
                expect(SessionLockedException.class, () -> lock.setPasscode(chars("1357")));
                lock.unlock(chars("2468"));
            }
        });
        h.test("an escalating delay refuses attempts without counting them", () -> {
            Harness.FakeClock clock = new Harness.FakeClock();
            try (IdleLock lock = fast(clock).delaySchedule(Collections.singletonList(new DelayStep(1, 5_000))).build()) {
                lock.setPasscode(chars("2468"));
                lock.lock();
                expect(InvalidPasscodeException.class, () -> lock.unlock(chars("0000")));
                RetryLaterException e = expect(RetryLaterException.class, () -> lock.unlock(chars("2468")));
                eq(e.msUntilRetry(), 5_000L, "msUntilRetry");
                eq(e.snapshot().attemptsRemaining(), 4, "not counted");
                clock.advance(5_000);
                eq(lock.unlock(chars("2468")).state(), State.UNLOCKED, "after the delay");
            }
        });
        h.test("NUL and emoji cross as UTF-8 bytes; modified UTF-8 is another passcode", () -> {
            String pass = "a\u0000b\ud83d\ude00c";   // a NUL b 😀 c
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                char[] typed = pass.toCharArray();
                lock.setPasscode(typed);
                eq(new String(typed), pass, "the caller's array is the caller's: not wiped by the binding");
                lock.lock();
                byte[] modified = modifiedUtf8(pass);
                check(!Arrays.equals(modified, pass.getBytes(StandardCharsets.UTF_8)), "the encodings differ");
                InvalidArgumentException bad = expect(InvalidArgumentException.class, () -> lock.unlock(modified));
                contains(bad.getMessage(), "UTF-8", "modified UTF-8 is not UTF-8");
                eq(lock.snapshot().attemptsRemaining(), 5, "an invalid argument is never counted");
                eq(lock.unlock(pass.getBytes(StandardCharsets.UTF_8)).state(), State.UNLOCKED, "standard UTF-8 bytes");
                lock.lock();
                eq(lock.unlock(pass.toCharArray()).state(), State.UNLOCKED, "char[]");
            }
        });
        h.test("an unpaired surrogate is refused, never replaced", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.lock();
                char[] broken = {'2', '4', '\ud800', '8'};
                InvalidArgumentException e = expect(InvalidArgumentException.class, () -> lock.unlock(broken));
                contains(e.getMessage(), "surrogate", "message");
                eq(lock.snapshot().attemptsRemaining(), 5, "not counted");
                expect(InvalidArgumentException.class, () -> lock.setPasscode(new char[] {'a', 'b', 'c', '\udc00'}));
            }
        });
        h.test("passcode length rules", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                contains(expect(InvalidArgumentException.class, () -> lock.setPasscode(chars("123"))).getMessage(), "4", "min 4");
                contains(expect(InvalidArgumentException.class, () -> lock.setPasscode(new byte[0])).getMessage(), "empty", "empty");
                byte[] big = new byte[1025];
                Arrays.fill(big, (byte) 'x');
                contains(expect(InvalidArgumentException.class, () -> lock.setPasscode(big)).getMessage(), "1024", "max");
                lock.setPasscode("\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00".toCharArray()); // 4 scalars, 16 bytes
                check(lock.snapshot().isEnabled(), "emoji passcode");
            }
        });
        h.test("re-authentication on an unlocked session still counts", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                expect(InvalidPasscodeException.class, () -> lock.unlock(chars("0000")));
                eq(lock.snapshot().state(), State.UNLOCKED, "still unlocked");
                eq(lock.unlock(chars("2468")).attemptsRemaining(), 5, "the right one resets the count");
            }
        });
    }
}

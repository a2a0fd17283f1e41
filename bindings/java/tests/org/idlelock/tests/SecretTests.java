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
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.NoMemoryException;
import org.idlelock.NotFoundException;
import org.idlelock.SessionLockedException;

/** Sealed secrets and the gate. */
final class SecretTests {
    private SecretTests() {}

    static void run(Harness h) {
        h.test("put, get, remove; the returned array belongs to the caller", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                byte[] token = "eyJhbGciOi".getBytes(StandardCharsets.UTF_8);
                lock.putSecret("token", token);
                Arrays.fill(token, (byte) 0); // the library copied it
                byte[] got = lock.getSecret("token");
                eq(new String(got, StandardCharsets.UTF_8), "eyJhbGciOi", "value");
                Arrays.fill(got, (byte) 0);
                eq(new String(lock.getSecret("token"), StandardCharsets.UTF_8), "eyJhbGciOi", "a fresh copy each time");
                lock.putSecret("empty", new byte[0]);
                eq(lock.getSecret("empty").length, 0, "empty value");
                byte[] max = new byte[65536];
                Arrays.fill(max, (byte) 7);
                lock.putSecret("max", max);
                check(Arrays.equals(lock.getSecret("max"), max), "64 KiB");
                lock.putSecret("ünïcødé", new byte[] {1});
                eq(lock.getSecret("ünïcødé")[0], (byte) 1, "UTF-8 name");
                lock.removeSecret("token");
                expect(NotFoundException.class, () -> lock.getSecret("token"));
                expect(NotFoundException.class, () -> lock.removeSecret("token"));
            }
        });
        h.test("secrets and the gate are closed while locked", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.putSecret("a", new byte[] {1, 2, 3});
                lock.requireUnlocked();
                lock.setPasscode(chars("2468"));
                lock.lock();
                SessionLockedException e = expect(SessionLockedException.class, () -> lock.getSecret("a"));
                eq(e.status(), 2, "status");
                expect(SessionLockedException.class, () -> lock.putSecret("b", new byte[1]));
                expect(SessionLockedException.class, lock::requireUnlocked);
                lock.unlock(chars("2468"));
                check(Arrays.equals(lock.getSecret("a"), new byte[] {1, 2, 3}), "restored by the unlock");
            }
        });
        h.test("bad names and values", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                contains(expect(InvalidArgumentException.class, () -> lock.putSecret("", new byte[1])).getMessage(), "empty", "empty");
                char[] long65 = new char[65];
                Arrays.fill(long65, 'n');
                contains(expect(InvalidArgumentException.class, () -> lock.putSecret(new String(long65), new byte[1])).getMessage(), "64", "65 bytes");
                contains(expect(InvalidArgumentException.class, () -> lock.putSecret("a\0b", new byte[1])).getMessage(), "NUL", "NUL");
                contains(expect(InvalidArgumentException.class, () -> lock.getSecret("\udbff")).getMessage(), "surrogate", "surrogate");
                contains(expect(InvalidArgumentException.class, () -> lock.putSecret("big", new byte[65537])).getMessage(), "65536", "too big");
                for (int i = 0; i < 256; i++) lock.putSecret("s" + i, new byte[] {(byte) i});
                expect(NoMemoryException.class, () -> lock.putSecret("one-too-many", new byte[1]));
            }
        });
    }
}

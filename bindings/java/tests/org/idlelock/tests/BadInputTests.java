package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.contains;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.LinkedHashMap;
import java.util.Map;
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;
import org.idlelock.Platform;
import org.idlelock.Snapshot;

/** Bad input for every entry point: InvalidArgumentException with a message, and no change. */
final class BadInputTests {
    private BadInputTests() {}

    static void run(Harness h) {
        h.test("bad input for every entry point changes nothing", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.putSecret("keep", new byte[] {1});
                lock.lock();
                Snapshot before = lock.snapshot();
                Map<String, Harness.Body> bad = new LinkedHashMap<>();
                bad.put("lifecycle(null platform)", () -> lock.lifecycle(null, "active"));
                bad.put("lifecycle(null name)", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, null));
                bad.put("lifecycle(NUL in name)", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, "act\0ive"));
                bad.put("lifecycle(unknown name)", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, "ACTIVE"));
                bad.put("promptEnd(never issued)", () -> lock.promptEnd(987_654_321L));
                bad.put("promptEnd(0)", () -> lock.promptEnd(0));
                bad.put("setPasscode(null char[])", () -> lock.setPasscode((char[]) null));
                bad.put("setPasscode(null byte[])", () -> lock.setPasscode((byte[]) null));
                bad.put("setPasscode(invalid UTF-8)", () -> lock.setPasscode(new byte[] {(byte) 0xC0, (byte) 0x80, 'a', 'b'}));
                bad.put("unlock(null char[])", () -> lock.unlock((char[]) null));
                bad.put("unlock(null byte[])", () -> lock.unlock((byte[]) null));
                bad.put("unlock(empty)", () -> lock.unlock(new byte[0]));
                bad.put("unlock(empty char[])", () -> lock.unlock(new char[0]));
                bad.put("unlock(1025 bytes)", () -> lock.unlock(new byte[1025]));
                bad.put("unlock(lone surrogate)", () -> lock.unlock(new char[] {'\udfff'}));
                bad.put("unlock(invalid UTF-8)", () -> lock.unlock(new byte[] {(byte) 0xFF}));
                bad.put("unlockWithBiometricsAsync(null executor)", () -> lock.unlockWithBiometricsAsync((java.util.concurrent.Executor) null));
                bad.put("unlockWithBiometricsAsync(null authenticator)", () -> lock.unlockWithBiometricsAsync((org.idlelock.AsyncAuthenticator) null));
                bad.put("enableBiometricsAsync(null)", () -> lock.enableBiometricsAsync(null));
                bad.put("requireRecentAuth(0)", () -> lock.requireRecentAuth(0));
                bad.put("requireRecentAuth(-1)", () -> lock.requireRecentAuth(-1));
                bad.put("requireRecentAuth(30 days + 1 ms)", () -> lock.requireRecentAuth(IdleLock.RECENT_AUTH_MAX_MS + 1));
                bad.put("subscribe(null)", () -> lock.subscribe(null));
                bad.put("subscribe(executor, null)", () -> lock.subscribe(Runnable::run, null));
                bad.put("unsubscribe(never issued)", () -> lock.unsubscribe(-5));
                bad.put("putSecret(null name)", () -> lock.putSecret(null, new byte[1]));
                bad.put("putSecret(null value)", () -> lock.putSecret("n", null));
                bad.put("putSecret(empty name)", () -> lock.putSecret("", new byte[1]));
                bad.put("getSecret(null)", () -> lock.getSecret(null));
                bad.put("getSecret(65-byte name)", () -> lock.getSecret("0123456789012345678901234567890123456789012345678901234567890123x"));
                bad.put("getSecret(NUL)", () -> lock.getSecret("ke\0ep"));
                bad.put("removeSecret(null)", () -> lock.removeSecret(null));
                bad.put("removeSecret(surrogate)", () -> lock.removeSecret("\ud800x"));
                for (Map.Entry<String, Harness.Body> e : bad.entrySet()) {
                    InvalidArgumentException x = expect(InvalidArgumentException.class, e.getValue());
                    check(x.getMessage() != null && !x.getMessage().isEmpty(), e.getKey() + ": a message");
                    eq(x.snapshot(), null, e.getKey() + ": no snapshot for a bad argument");
                }
                Snapshot after = lock.snapshot();
                eq(after.seq(), before.seq(), "nothing changed (seq)");
                eq(after.attemptsRemaining(), before.attemptsRemaining(), "no attempt counted");
                eq(after.state(), before.state(), "still locked");
                lock.unlock(chars("2468"));
                eq(lock.getSecret("keep")[0], (byte) 1, "the secret is intact");
                contains(expect(InvalidArgumentException.class, () -> lock.promptEnd(42)).getMessage(), "token", "names the token");
            }
        });
        h.test("bad options on the builder", () -> {
            expect(InvalidArgumentException.class, () -> fast(null).storePath("bad\0path").build());
            contains(expect(org.idlelock.StorageException.class, () -> fast(null).storePath("/no/such/folder/x").build().close())
                    .getMessage(), "folder", "a missing folder is a storage error that says what to check");
        });
    }
}

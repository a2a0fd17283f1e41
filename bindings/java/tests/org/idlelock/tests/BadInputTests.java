// SPDX-License-Identifier: MIT
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
        h.test("bad input for every entry point changes nothing: null is NullPointerException naming the parameter, a bad value InvalidArgumentException", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.putSecret("keep", new byte[] {1});
                lock.lock();
                Snapshot before = lock.snapshot();
                // parameter name -> a call with it null
                Map<String, Harness.Body> nulls = new LinkedHashMap<>();
                nulls.put("platform", () -> lock.lifecycle(null, "active"));
                nulls.put("stateName", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, null));
                nulls.put("passcode", () -> lock.setPasscode((char[]) null));
                nulls.put("passcode ", () -> lock.setPasscode((byte[]) null));
                nulls.put("passcode  ", () -> lock.unlock((char[]) null));
                nulls.put("passcode   ", () -> lock.unlock((byte[]) null));
                nulls.put("executor", () -> lock.unlockWithBiometricsAsync((java.util.concurrent.Executor) null));
                nulls.put("authenticator", () -> lock.unlockWithBiometricsAsync((org.idlelock.AsyncAuthenticator) null));
                nulls.put("authenticator ", () -> lock.enableBiometricsAsync(null));
                nulls.put("listener", () -> lock.subscribe(null));
                nulls.put("listener ", () -> lock.subscribe(Runnable::run, null));
                nulls.put("name", () -> lock.putSecret(null, new byte[1]));
                nulls.put("value", () -> lock.putSecret("n", null));
                nulls.put("name ", () -> lock.getSecret(null));
                nulls.put("name  ", () -> lock.removeSecret(null));
                for (Map.Entry<String, Harness.Body> e : nulls.entrySet()) {
                    NullPointerException x = expect(NullPointerException.class, e.getValue());
                    contains(x.getMessage(), e.getKey().trim(), "null " + e.getKey().trim() + ": the message names the parameter");
                }
                Map<String, Harness.Body> bad = new LinkedHashMap<>();
                bad.put("lifecycle(NUL in name)", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, "act\0ive"));
                bad.put("lifecycle(unknown name)", () -> lock.lifecycle(Platform.IOS_SCENE_PHASE, "ACTIVE"));
                bad.put("promptEnd(never issued)", () -> lock.promptEnd(987_654_321L));
                bad.put("promptEnd(0)", () -> lock.promptEnd(0));
                bad.put("setPasscode(invalid UTF-8)", () -> lock.setPasscode(new byte[] {(byte) 0xC0, (byte) 0x80, 'a', 'b'}));
                bad.put("unlock(empty)", () -> lock.unlock(new byte[0]));
                bad.put("unlock(empty char[])", () -> lock.unlock(new char[0]));
                bad.put("unlock(1025 bytes)", () -> lock.unlock(new byte[1025]));
                bad.put("unlock(lone surrogate)", () -> lock.unlock(new char[] {'\udfff'}));
                bad.put("unlock(invalid UTF-8)", () -> lock.unlock(new byte[] {(byte) 0xFF}));
                bad.put("requireRecentAuth(0)", () -> lock.requireRecentAuth(0));
                bad.put("requireRecentAuth(-1)", () -> lock.requireRecentAuth(-1));
                bad.put("requireRecentAuth(30 days + 1 ms)", () -> lock.requireRecentAuth(IdleLock.RECENT_AUTH_MAX_MS + 1));
                bad.put("unsubscribe(never issued)", () -> lock.unsubscribe(-5));
                bad.put("putSecret(empty name)", () -> lock.putSecret("", new byte[1]));
                bad.put("getSecret(65-byte name)", () -> lock.getSecret("0123456789012345678901234567890123456789012345678901234567890123x"));
                bad.put("getSecret(NUL)", () -> lock.getSecret("ke\0ep"));
                bad.put("removeSecret(surrogate)", () -> lock.removeSecret("\ud800x"));
                for (Map.Entry<String, Harness.Body> e : bad.entrySet()) {
                    InvalidArgumentException x = expect(InvalidArgumentException.class, e.getValue());
                    check(x instanceof IllegalArgumentException, e.getKey() + ": an IllegalArgumentException");
                    check(x.getMessage() != null && !x.getMessage().isEmpty(), e.getKey() + ": a message");
                    ConfigTests.inJavaWords(x.getMessage());
                    eq(x.snapshot(), null, e.getKey() + ": no snapshot for a bad argument");
                    eq(x.status(), 1, e.getKey() + ": status 1");
                    eq(x.statusName(), "IDLELOCK_ERR_INVALID_ARGUMENT", e.getKey() + ": its name");
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
        h.test("a wrong lifecycle name lists the platform's valid names; every listed name is the library's", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                for (Platform p : Platform.values()) {
                    String m = expect(InvalidArgumentException.class, () -> lock.lifecycle(p, "Nope")).getMessage();
                    contains(m, "Platform." + p.name(), p + ": names the platform");
                    for (String name : p.stateNames()) {
                        contains(m, name, p + ": lists " + name);
                        lock.lifecycle(p, name); // accepted by the library
                    }
                    ConfigTests.inJavaWords(m);
                }
            }
        });
        h.test("every status can be caught at once: IdleLockException | InvalidArgumentException, both IdleLockStatus", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.lock();
                int[] statuses = new int[2];
                Harness.Body[] calls = {() -> lock.unlock(chars("1111")), () -> lock.requireRecentAuth(0)};
                for (int i = 0; i < calls.length; i++) {
                    try {
                        calls[i].run();
                    } catch (org.idlelock.IdleLockException | InvalidArgumentException e) {
                        org.idlelock.IdleLockStatus st = e;
                        statuses[i] = st.status();
                    }
                }
                eq(statuses[0], 3, "INVALID_PASSCODE through the common type");
                eq(statuses[1], 1, "INVALID_ARGUMENT through the common type");
            }
        });
        h.test("the glue refuses every (array, length) that does not fit, before the library: no read or write past a Java array", () -> {
            try (IdleLock lock = fast(new Harness.FakeClock()).build()) {
                lock.setPasscode(chars("2468"));
                lock.lock();
                Snapshot before = lock.snapshot();
                long hd = GlueAccess.handle(lock);
                Class<?> J = long.class, I = int.class, B = byte[].class, L = long[].class;
                byte[] four = {'2', '4', '6', '8'};
                long[] snap = new long[16];
                long[] shortSnap = new long[3];
                Object[][] calls = {
                    {"setPasscode", new Class<?>[] {J, B, I}, new Object[] {hd, four, 5}},
                    {"setPasscode", new Class<?>[] {J, B, I}, new Object[] {hd, four, -1}},
                    {"setPasscode", new Class<?>[] {J, B, I}, new Object[] {hd, four, Integer.MAX_VALUE}},
                    {"unlock", new Class<?>[] {J, B, I, L}, new Object[] {hd, four, 5, snap}},
                    {"unlock", new Class<?>[] {J, B, I, L}, new Object[] {hd, four, -7, snap}},
                    {"unlock", new Class<?>[] {J, B, I, L}, new Object[] {hd, four, 4, shortSnap}},
                    {"biometricFinish", new Class<?>[] {J, J, I, B, I, L}, new Object[] {hd, 1L, 0, new byte[16], 32, snap}},
                    {"biometricFinish", new Class<?>[] {J, J, I, B, I, L}, new Object[] {hd, 1L, 0, new byte[64], 64, snap}},
                    {"biometricFinish", new Class<?>[] {J, J, I, B, I, L}, new Object[] {hd, 1L, 0, null, 32, snap}},
                    {"biometricBegin", new Class<?>[] {J, I, L, B, L}, new Object[] {hd, 1, new long[0], null, snap}},
                    {"event", new Class<?>[] {J, I, L}, new Object[] {hd, 7, shortSnap}},
                    {"lifecycle", new Class<?>[] {J, I, B, L}, new Object[] {hd, 1, "active\0".getBytes(java.nio.charset.StandardCharsets.UTF_8), shortSnap}},
                    {"promptBegin", new Class<?>[] {J, L}, new Object[] {hd, new long[0]}},
                    {"unlockWithBiometrics", new Class<?>[] {J, L}, new Object[] {hd, shortSnap}},
                    {"create", new Class<?>[] {L, I, B, B, B, L, Object.class, boolean.class, boolean.class, L},
                        new Object[] {new long[2], 0, null, null, null, null, new Object(), false, false, new long[1]}},
                };
                for (Object[] c : calls) {
                    Object rc = GlueAccess.callNative((String) c[0], (Class<?>[]) c[1], (Object[]) c[2]);
                    eq(rc, -3, c[0] + " with a length that does not fit its array");
                }
                eq(four[0], (byte) '2', "the caller's array is untouched");
                // C strings without their NUL: the glue's copy ends them (the library reads no further).
                byte[] bare = "keep".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                eq(GlueAccess.callNative("secretPut", new Class<?>[] {J, B, B}, hd, bare, new byte[] {9}), 2,
                        "a name without its NUL is read as \"keep\" (SESSION_LOCKED: locked)");
                eq(GlueAccess.callNative("secretRemove", new Class<?>[] {J, B}, hd, bare), 2, "the same for remove");
                int[] noStatus = new int[0];
                eq(GlueAccess.callNative("secretGet", new Class<?>[] {J, B, int[].class}, hd, "keep\0".getBytes(java.nio.charset.StandardCharsets.UTF_8), noStatus), null,
                        "secretGet with no room for its status reads nothing");
                Snapshot after = lock.snapshot();
                eq(after.seq(), before.seq(), "nothing changed");
                eq(after.attemptsRemaining(), before.attemptsRemaining(), "no attempt counted");
                eq(lock.unlock(chars("2468")).state(), org.idlelock.State.UNLOCKED, "the lock still works");
            }
        });
        h.test("bad options on the builder", () -> {
            expect(InvalidArgumentException.class, () -> fast(null).storePath("bad\0path").build());
            contains(expect(org.idlelock.StorageException.class, () -> fast(null).storePath("/no/such/folder/x").build().close())
                    .getMessage(), "folder", "a missing folder is a storage error that says what to check");
        });
    }
}

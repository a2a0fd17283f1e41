// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.contains;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;
import static org.idlelock.tests.Harness.fast;

import java.util.Arrays;
import org.idlelock.DelayStep;
import org.idlelock.IdleLock;
import org.idlelock.InvalidArgumentException;

/** Options: the library's range checks reach Java naming the field; the binding's own checks. */
final class ConfigTests {
    private ConfigTests() {}

    static void bad(IdleLock.Builder b, String... parts) {
        InvalidArgumentException e = expect(InvalidArgumentException.class, b::build);
        eq(e.status(), 1, "status");
        eq(e.statusName(), "IDLELOCK_ERR_INVALID_ARGUMENT", "statusName");
        for (String p : parts) contains(e.getMessage(), p, "message");
        inJavaWords(e.getMessage());
    }

    /** A message in the binding's words: no C field, function or constant. */
    static void inJavaWords(String message) {
        for (String c : new String[] {"config.", "IDLELOCK_", "idlelock_", "_ms", "max_attempts", "NULL"}) {
            Harness.check(!message.contains(c), "\"" + message + "\" uses the C name " + c);
        }
    }

    static void run(Harness h) {
        h.test("a lock that never times out is refused, naming idleAfterMs and IdleLock.NEVER", () ->
                bad(IdleLock.builder(), "idleAfterMs", "backgroundAfterMs", "IdleLock.NEVER", "IdleLock.Builder.build"));
        h.test("values out of range name the field and the value", () -> {
            bad(fast(null).graceMs(60_001), "graceMs", "60001");
            bad(fast(null).maxAttempts(0), "maxAttempts");
            bad(fast(null).maxAttempts(101), "maxAttempts");
            bad(fast(null).idleAfterMs(0), "idleAfterMs");
            bad(fast(null).backgroundAfterMs(-2), "backgroundAfterMs");
            bad(fast(null).kdfOpslimit(1), "kdfOpslimit");
            bad(fast(null).kdfMemlimit(1024), "kdfMemlimit");
            bad(fast(null).promptCapMs(600_001), "promptCapMs");
            bad(fast(null).warnBeforeMs(60_000), "warnBeforeMs");
            bad(fast(null).deviceKey(new byte[31]), "deviceKey");
            bad(fast(null).passcodeMaxAgeMs(IdleLock.PASSCODE_MAX_AGE_MIN_MS - 1), "passcodeMaxAgeMs", "3599999");
            bad(fast(null).passcodeMaxAgeMs(IdleLock.PASSCODE_MAX_AGE_MAX_MS + 1), "passcodeMaxAgeMs");
            bad(fast(null).passcodeMaxAgeMs(-1), "passcodeMaxAgeMs");
            bad(fast(null).biometricMaxUses(IdleLock.BIOMETRIC_MAX_USES_MAX + 1), "biometricMaxUses", "1001");
            bad(fast(null).biometricMaxUses(-1), "biometricMaxUses");
            char[] reason = new char[513];
            Arrays.fill(reason, 'r');
            bad(fast(null).unlockReason(new String(reason)), "unlockReason");
        });
        h.test("the binding's own checks name the option", () -> {
            bad(fast(null).kdfOpslimit(-1), "kdfOpslimit", "negative");
            bad(fast(null).kdfMemlimit(-5), "kdfMemlimit");
            bad(fast(null).storePath("/tmp/a\0b"), "storePath", "NUL");
            bad(fast(null).unlockReason("why\0not"), "unlockReason", "NUL");
            bad(fast(null).unlockReason("\ud800"), "unlockReason", "surrogate");
            contains(expect(NullPointerException.class, () -> fast(null).delaySchedule(Arrays.asList(new DelayStep(1, 10), null)).build())
                    .getMessage(), "delaySchedule[1]", "a null step names its index");
        });
        h.test("a bad delay schedule is refused by the library", () -> {
            bad(fast(null).delaySchedule(Arrays.asList(new DelayStep(2, 10), new DelayStep(1, 20))), "delaySchedule[1].failedAttempts");
            bad(fast(null).delaySchedule(Arrays.asList(new DelayStep(1, 86_400_001L))), "delay");
            bad(fast(null).iosDelaySchedule(), "maxAttempts");   // needs maxAttempts(10)
            fast(null).iosDelaySchedule().maxAttempts(10).build().close();
        });
        h.test("lock_on_start false with a store and no device key", () ->
                bad(fast(null).lockOnStart(false).storePath(System.getProperty("java.io.tmpdir") + "/idlelock-nokey"),
                        "device"));
        h.test("defaults build", () -> {
            try (IdleLock lock = IdleLock.builder().idleAfterMs(1000).build()) {
                eq(lock.snapshot().attemptsRemaining(), 5, "max_attempts default 5");
                eq(lock.snapshot().isPasscodeRequired(), false, "no policy by default");
                eq(lock.snapshot().lastAuthMs(), IdleLock.NEVER, "no authentication yet");
            }
        });
        h.test("the 1.2 policies at their bounds build", () -> {
            fast(null).passcodeMaxAgeMs(0).biometricMaxUses(0).passcodeAfterReboot(false).build().close();
            fast(null).passcodeMaxAgeMs(IdleLock.PASSCODE_MAX_AGE_MIN_MS).biometricMaxUses(1).build().close();
            fast(null).passcodeMaxAgeMs(IdleLock.PASSCODE_MAX_AGE_MAX_MS).biometricMaxUses(IdleLock.BIOMETRIC_MAX_USES_MAX)
                    .passcodeAfterReboot(true).build().close();
        });
    }
}

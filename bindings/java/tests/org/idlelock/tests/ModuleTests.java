// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;

import java.util.List;
import org.idlelock.DelayStep;
import org.idlelock.IdleLock;
import org.idlelock.IdleLockException;
import org.idlelock.IdleLockStatus;

/** Versions, status names, struct sizes: the binding agrees with the library. */
final class ModuleTests {
    private ModuleTests() {}

    static void run(Harness h) {
        // The constants and the glue's slots come from include/idlelock.h
        // (GeneratedConstants, GeneratedTables, jni/idlelock_jni_generated.h,
        // checked by `make check-bindings`); the library built from that
        // header reports its version.
        h.test("the library is at the header version the binding was generated from", () -> {
            eq(IdleLock.version(), IdleLock.HEADER_VERSION, "version()");
            eq(IdleLock.versionNumber(), IdleLock.HEADER_VERSION_NUMBER, "versionNumber()");
            eq(IdleLock.HEADER_VERSION_NUMBER / 100, 102, "1.2");
        });
        h.test("struct sizes: the glue's mirrors are the library's", () -> {
            long[] s = GlueAccess.structSizes();
            for (int i = 0; i < s.length; i += 2) eq(s[i], s[i + 1], "struct " + i / 2);
        });
        h.test("status names, and a code no version knows", () -> {
            eq(IdleLock.statusName(0), "IDLELOCK_OK", "0");
            eq(IdleLock.statusName(3), "IDLELOCK_ERR_INVALID_PASSCODE", "3");
            eq(IdleLock.statusName(12), "IDLELOCK_ERR_RETRY_LATER", "12");
            eq(IdleLock.statusName(13), "IDLELOCK_ERR_REAUTH_REQUIRED", "13");
            eq(IdleLock.statusName(4242), "IDLELOCK_ERR_UNKNOWN", "4242");
            eq(IdleLock.statusName(-1), "IDLELOCK_ERR_UNKNOWN", "-1");
        });
        // The status-to-exception table is generated from the header, the
        // exception classes are written by hand, each with its status: a
        // class that reports another status than the one it is thrown for
        // (a copied class, a renumbered one) misreports every such failure.
        h.test("each status the library names is thrown as its own class, reporting that status", () -> {
            int known = 0;
            for (int code = 1; code < 64; code++) {
                String name = IdleLock.statusName(code);
                IdleLockStatus e = (IdleLockStatus) GlueAccess.exceptionFor(code);
                eq(e.status(), code, "status() of the exception for " + code);
                if (name.equals("IDLELOCK_ERR_UNKNOWN")) {
                    eq(e.getClass(), IdleLockException.class, "the class for unknown status " + code);
                    continue;
                }
                known++;
                eq(e.getClass().getSimpleName(), javaClassName(name), "the class for " + name);
                try {
                    eq(e.getClass().getField("STATUS").getInt(null), code, e.getClass().getSimpleName() + ".STATUS");
                } catch (NoSuchFieldException ignored) {
                    // (A class without the constant: status() is checked above.)
                } catch (IllegalAccessException x) {
                    throw new AssertionError(x);
                }
            }
            check(known >= 13, "the library names " + known + " statuses; 1.2 has 13");
        });
        h.test("the iOS delay preset", () -> {
            List<DelayStep> s = IdleLock.iosDelaySchedule();
            eq(s.size(), 4, "steps");
            eq(s.get(0), new DelayStep(5, 60_000), "first");
            eq(s.get(3), new DelayStep(9, 3_600_000), "last");
        });
    }

    /** IDLELOCK_ERR_NO_MEMORY -> NoMemoryException */
    private static String javaClassName(String statusName) {
        StringBuilder b = new StringBuilder();
        for (String part : statusName.substring("IDLELOCK_ERR_".length()).toLowerCase(java.util.Locale.ROOT).split("_")) {
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return b.append("Exception").toString();
    }
}

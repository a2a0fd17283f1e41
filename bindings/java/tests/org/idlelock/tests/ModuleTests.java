// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.idlelock.DelayStep;
import org.idlelock.IdleLock;

/** Versions, names, constants: the binding agrees with include/idlelock.h and the library. */
final class ModuleTests {
    private ModuleTests() {}

    /** The header's integer #defines, evaluated for the simple forms it uses. */
    static Map<String, String> headerDefines() throws Exception {
        String header = new String(Files.readAllBytes(Paths.get(System.getProperty("idlelock.header"))),
                StandardCharsets.UTF_8);
        Map<String, String> out = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^#define (IDLELOCK_[A-Z0-9_]+) (.+?)\\s*(/\\*.*)?$").matcher(header);
        while (m.find()) out.put(m.group(1), m.group(2).trim());
        return out;
    }

    static void run(Harness h) {
        h.test("version agrees with the header and the library", () -> {
            Map<String, String> d = headerDefines();
            eq("\"" + IdleLock.version() + "\"", d.get("IDLELOCK_VERSION_STRING"), "version()");
            eq(IdleLock.versionNumber(), Integer.parseInt(d.get("IDLELOCK_VERSION_NUMBER")), "versionNumber()");
            eq(IdleLock.HEADER_VERSION_NUMBER, Integer.parseInt(d.get("IDLELOCK_VERSION_NUMBER")), "HEADER_VERSION_NUMBER");
            eq("\"" + IdleLock.HEADER_VERSION + "\"", d.get("IDLELOCK_VERSION_STRING"), "HEADER_VERSION");
        });
        h.test("the binding's constants are the header's", () -> {
            Map<String, String> d = headerDefines();
            int compared = 0;
            for (Field f : IdleLock.class.getFields()) {
                String macro = "IDLELOCK_" + f.getName();
                String value = d.get(macro);
                if (value == null || f.getType() == String.class) continue;
                String expr = value.replaceAll("\\((u?int64_t)\\)", "").replace("(", "").replace(")", "").replace("INT64_MAX", "9223372036854775807");
                long want = 1;
                for (String factor : expr.split("\\*")) want *= Long.parseLong(factor.trim());
                eq(((Number) f.get(null)).longValue(), want, f.getName());
                compared++;
            }
            check(compared >= 17, "compared " + compared + " constants");
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
        h.test("the iOS delay preset", () -> {
            List<DelayStep> s = IdleLock.iosDelaySchedule();
            eq(s.size(), 4, "steps");
            eq(s.get(0), new DelayStep(5, 60_000), "first");
            eq(s.get(3), new DelayStep(9, 3_600_000), "last");
        });
    }
}

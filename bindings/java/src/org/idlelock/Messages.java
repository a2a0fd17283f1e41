// SPDX-License-Identifier: MIT
package org.idlelock;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library's messages ({@code idlelock_last_error()}) in the binding's
 * own words: they name C functions, {@code config} fields and {@code
 * IDLELOCK_*} constants ("idlelock_create: config.idle_after_ms must be > 0
 * or IDLELOCK_NEVER, got 0"); a Java caller sees the method, builder
 * option and constant it used ("IdleLock.Builder.build: idleAfterMs must
 * be > 0 or IdleLock.NEVER, got 0"). The names are generated from the
 * header and bindings/names.txt (GeneratedTables.NAMES); a name the table
 * does not have is left as it is.
 */
final class Messages {
    private Messages() {}

    /** C name, the binding's name (bindings/names.txt), longest first. */
    private static final String[][] NAMES = GeneratedTables.NAMES;

    private static final Pattern[] PATTERNS = new Pattern[NAMES.length];

    static {
        for (int i = 0; i < NAMES.length; i++) {
            // "config." goes with a field; a name is matched whole (not inside a longer one).
            PATTERNS[i] = Pattern.compile("(?:config\\.)?(?<![A-Za-z0-9_])" + Pattern.quote(NAMES[i][0]) + "(?![A-Za-z0-9_])");
        }
    }

    /** {@code message} with the C names replaced by the binding's. */
    static String of(String message) {
        if (message == null || message.isEmpty()) return message;
        String out = message;
        for (int i = 0; i < NAMES.length; i++) {
            if (out.indexOf(NAMES[i][0]) < 0) continue;
            out = PATTERNS[i].matcher(out).replaceAll(Matcher.quoteReplacement(NAMES[i][1]));
        }
        return out;
    }
}

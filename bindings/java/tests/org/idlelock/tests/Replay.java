// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.idlelock.AuthResult;
import org.idlelock.AuthenticationException;
import org.idlelock.Authenticator;
import org.idlelock.BiometricRequest;
import org.idlelock.IdleLock;
import org.idlelock.IdleLockStatus;
import org.idlelock.Snapshot;

/**
 * The trace replay of tools/replay/idlelock-replay.c, through the Java API:
 * it reads the same trace format (traces/README.md) and prints
 * the same lines, so that `make test-java` can compare its output with the
 * C tool's, trace by trace, line by line (bindings/java/tests/compare-replay.sh):
 * the binding decides as the core does.
 *
 *   java ... org.idlelock.tests.Replay [--quiet] FILE...
 *
 * Exit status as the C tool's: 0, 1 (an expect failed), 2 (a malformed
 * trace). Every call goes through IdleLock, BiometricRequest and an
 * Authenticator, never Native; where the Java API reports a failure by an
 * exception, its status and snapshot are what the C tool reads from the
 * call's return and out-parameter, and where the C tool then calls
 * idlelock_snapshot_get, this calls IdleLock.snapshot().
 */
public final class Replay {
    static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);

    static final String[] STATUS = {"OK", "INVALID_ARGUMENT", "SESSION_LOCKED", "INVALID_PASSCODE", "LOCKED_OUT",
        "LOCK_UNAVAILABLE", "NO_PASSCODE", "STORAGE", "NOT_FOUND", "BUFFER_TOO_SMALL", "NO_MEMORY", "INTERNAL",
        "RETRY_LATER", "REAUTH_REQUIRED"};
    static final String[] STATES = {"UNLOCKED", "LOCKED", "LOCKED_OUT"};
    static final String[] REASONS = {"NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK"};
    static final String[] ANSWERS = {"ok", "fail", "cancel", "unavailable"};
    static final String[] FINISHES = {"ok", "fail", "cancel", "unavailable", "wrong"};
    static final AuthResult[] RESULTS = {AuthResult.OK, AuthResult.FAILED, AuthResult.CANCELLED, AuthResult.UNAVAILABLE, AuthResult.OK};
    static final byte[] DEVICE_KEY = "idlelock-replay-test-device-key!".getBytes(StandardCharsets.US_ASCII);
    static final String UNLOCK_REASON = "Unlock the replayed session";
    static final int SHOW_MAX = 64;

    static long totalFiles, totalEvents, totalExpects, totalMismatches;

    /** A trace line that cannot be replayed: FILE:LINE: message on stderr, exit 2. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) { super(message); }
    }

    /** The fake keystore of tools/replay/fake_keystore.h, as an Authenticator. */
    static final class Keystore implements Authenticator {
        boolean available = true;
        AuthResult nextAnswer = AuthResult.OK;
        boolean hasSecret;
        final byte[] secret = new byte[32];

        void wipe() {
            Arrays.fill(secret, (byte) 0);
            hasSecret = false;
        }

        boolean store(byte[] s) {
            if (!available || s == null || s.length != 32) return false;
            System.arraycopy(s, 0, secret, 0, 32);
            hasSecret = true;
            return true;
        }

        @Override public boolean isAvailable() { return available; }

        @Override public void storeSecret(byte[] s) throws AuthenticationException {
            if (!store(s)) throw new AuthenticationException(AuthResult.UNAVAILABLE, "the fake keystore cannot store it");
        }

        @Override public byte[] loadSecret(String reason) throws AuthenticationException {
            AuthResult answer = nextAnswer;
            nextAnswer = AuthResult.OK;
            if (answer != AuthResult.OK) throw new AuthenticationException(answer, "the fake keystore answers " + answer);
            if (!available || !hasSecret) throw new AuthenticationException(AuthResult.UNAVAILABLE, "no item");
            return secret.clone();
        }

        @Override public void deleteSecret() { wipe(); }

        void changeEnrolment() {
            if (!hasSecret) return;
            for (int i = 0; i < 32; i++) secret[i] = (byte) ~secret[i];
        }
    }

    /** A named request of the two-phase pair. */
    static final class Named {
        BiometricRequest request;  // null when its begin failed
        boolean enable;
        boolean hasSecret;
    }

    // -- one trace ------------------------------------------------------------------

    final String file;
    final boolean quiet;
    long line;
    boolean configSeen, eventSeen, headerPrinted;
    long now;
    IdleLock lock;
    int lastStatus;
    Snapshot snap;
    byte[] value;                  // the previous event's get, or null
    long events, expects, mismatches;
    boolean useStore, useDeviceKey, useBiometrics, wide;
    final Keystore keystore = new Keystore();
    Path storeDir;
    final Map<String, Named> requests = new HashMap<>();
    final List<BiometricRequest> everyRequest = new ArrayList<>(); // none is left to the collector
    int reboots;
    // The config, with idlelock_config_init's defaults.
    long idle = IdleLock.NEVER, background = IdleLock.SAME_AS_IDLE, inactive = 30_000, grace = 1500;
    long attempts = 5, lockOnStart = 1, warn = 0, promptCap = 120_000, maxAge = 0, afterReboot = 0, maxUses = 0;

    Replay(String file, boolean quiet) {
        this.file = file;
        this.quiet = quiet;
    }

    Malformed malformed(String message) { return new Malformed(file + ":" + line + ": " + message); }

    // -- names and numbers ---------------------------------------------------------

    static int index(String[] names, String s) {
        for (int i = 0; i < names.length; i++) if (names[i].equals(s)) return i;
        return -1;
    }

    static String nameOf(String[] names, long v) { return v >= 0 && v < names.length ? names[(int) v] : Long.toString(v); }

    static String libraryStatusName(int status) {
        String s = IdleLock.statusName(status);
        if (s.startsWith("IDLELOCK_ERR_")) return s.substring(13);
        if (s.startsWith("IDLELOCK_")) return s.substring(9);
        return s;
    }

    /** Strict signed 64-bit decimal, as parse_i64; null when not one. */
    static Long parseI64(String s) {
        if (!s.matches("[+-]?[0-9]+")) return null;
        try {
            return Long.parseLong(s.startsWith("+") ? s.substring(1) : s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Long parseMs(String s) { return s.equals("never") ? IdleLock.NEVER : parseI64(s); }

    static Long parseI32(String s) {
        Long v = parseI64(s);
        return v == null || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE ? null : v;
    }

    static String show(String s) {
        StringBuilder b = new StringBuilder();
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i++) {
            if (i == SHOW_MAX) {
                b.append("...");
                break;
            }
            int c = bytes[i] & 0xff;
            if (c >= 0x20 && c < 0x7f) b.append((char) c);
            else b.append(String.format("\\x%02x", c));
        }
        return b.toString();
    }

    static String escaped(byte[] p) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < p.length; i++) {
            if (i == SHOW_MAX) {
                b.append("...");
                break;
            }
            int c = p[i] & 0xff;
            if (c == '"' || c == '\\') b.append('\\').append((char) c);
            else if (c >= 0x20 && c < 0x7f) b.append((char) c);
            else b.append(String.format("\\x%02x", c));
        }
        return b.toString();
    }

    static String ms(long v) { return v == IdleLock.NEVER ? "never" : Long.toString(v); }

    int eventWidth() { return useBiometrics || wide ? 18 : 10; }

    void printHeader() {
        if (headerPrinted || quiet) return;
        headerPrinted = true;
        StringBuilder b = new StringBuilder("== " + file + ": idle=" + ms(idle) + " background="
                + (background == IdleLock.SAME_AS_IDLE ? "same" : ms(background)) + " inactive=" + ms(inactive)
                + " grace=" + ms(grace) + " attempts=" + attempts + " lock_on_start=" + lockOnStart
                + (useBiometrics ? " biometrics=1" : ""));
        if (warn > 0) b.append(" warn=").append(warn);
        if (promptCap != 120_000) b.append(" prompt_cap=").append(promptCap);
        if (maxAge > 0) b.append(" max_age=").append(maxAge);
        if (afterReboot != 0) b.append(" after_reboot=1");
        if (maxUses > 0) b.append(" max_uses=").append(maxUses);
        OUT.println(b);
        b = new StringBuilder(String.format("%8s  %-" + eventWidth() + "s  %-16s  %-10s  %-12s  %4s  %4s  ",
                "time", "event", "status", "state", "reason", "left", "away"));
        if (useBiometrics) b.append(String.format("%4s  %5s  ", "bio", "avail"));
        b.append("until_idle");
        OUT.println(b);
    }

    // -- config ----------------------------------------------------------------------

    void config(String[] tok) throws Malformed {
        if (eventSeen) throw malformed("config after the first event");
        if (configSeen) throw malformed("config given twice");
        configSeen = true;
        List<String> seen = new ArrayList<>();
        for (int i = 1; i < tok.length; i++) {
            int eq = tok[i].indexOf('=');
            if (eq <= 0) throw malformed("config item '" + show(tok[i]) + "' is not key=value");
            String key = tok[i].substring(0, eq), val = tok[i].substring(eq + 1);
            if (seen.contains(key)) throw malformed("config key '" + show(key) + "' given twice");
            seen.add(key);
            Long v;
            switch (key) {
                case "idle": v = parseMs(val); if (v != null) idle = v; break;
                case "background": v = val.equals("same") ? (Long) IdleLock.SAME_AS_IDLE : parseMs(val); if (v != null) background = v; break;
                case "inactive": v = parseMs(val); if (v != null) inactive = v; break;
                case "warn": v = parseMs(val); if (v != null) warn = v; break;
                case "grace": v = parseMs(val); if (v != null) grace = v; break;
                case "attempts": v = parseI32(val); if (v != null) attempts = v; break;
                case "lock_on_start": v = parseI32(val); if (v != null) lockOnStart = v; break;
                case "store": v = flag(val); if (v != null) useStore = v == 1; break;
                case "device_key": v = flag(val); if (v != null) useDeviceKey = v == 1; break;
                case "biometrics": v = flag(val); if (v != null) useBiometrics = v == 1; break;
                case "prompt_cap": v = parseMs(val); if (v != null) promptCap = v; wide = true; break;
                case "max_age": v = parseMs(val); if (v != null) maxAge = v; wide = true; break;
                case "after_reboot": v = parseI32(val); if (v != null) afterReboot = v; wide = true; break;
                case "max_uses": v = parseI32(val); if (v != null) maxUses = v; wide = true; break;
                default: throw malformed("unknown config key '" + show(key) + "'");
            }
            if (v == null) throw malformed("bad value '" + show(val) + "' for config key '" + show(key) + "'");
        }
    }

    static Long flag(String s) { return s.equals("0") ? (Long) 0L : s.equals("1") ? (Long) 1L : null; }

    // -- expect ----------------------------------------------------------------------

    void result(boolean ok, String key, String want, String got) {
        expects++;
        if (ok) return;
        mismatches++;
        OUT.println(file + ":" + line + ": expected " + key + "=" + want + ", got " + got);
        OUT.flush();
    }

    void named(String key, String val, String[] names, long got) throws Malformed {
        int want = index(names, val);
        if (want < 0) throw malformed("unknown " + show(key) + " '" + show(val) + "'");
        result(want == got, key, val, nameOf(names, got));
    }

    void number(String key, String val, boolean allowNever, long got) throws Malformed {
        Long want = allowNever ? parseMs(val) : parseI64(val);
        if (want == null) throw malformed("bad value '" + show(val) + "' for expect key '" + show(key) + "'");
        result(want == got, key, val, allowNever && got == IdleLock.NEVER ? "never" : Long.toString(got));
    }

    void flagKey(String key, String val, long got) throws Malformed {
        if (!val.equals("0") && !val.equals("1")) throw malformed("expect key '" + show(key) + "' takes 0 or 1, not '" + show(val) + "'");
        number(key, val, false, got);
    }

    void expectValue(String val) {
        byte[] want = val.getBytes(StandardCharsets.ISO_8859_1);
        expects++;
        if (value != null && Arrays.equals(value, want)) return;
        mismatches++;
        OUT.println(file + ":" + line + ": expected value=" + show(val) + ", got "
                + (value != null ? "\"" + escaped(value) + "\"" : "no value (status " + nameOf(STATUS, lastStatus) + ")"));
        OUT.flush();
    }

    void expect(String[] tok) throws Malformed {
        if (!eventSeen) throw malformed("expect before any event");
        if (tok.length < 2) throw malformed("expect with nothing to check");
        for (int i = 1; i < tok.length; i++) {
            int eq = tok[i].indexOf('=');
            if (eq <= 0) throw malformed("expect item '" + show(tok[i]) + "' is not key=value");
            String key = tok[i].substring(0, eq), val = tok[i].substring(eq + 1);
            Snapshot s = snap;
            switch (key) {
                case "status": named(key, val, STATUS, lastStatus); break;
                case "state": named(key, val, STATES, s.stateCode()); break;
                case "reason": named(key, val, REASONS, s.reasonCode()); break;
                case "attempts": number(key, val, false, s.attemptsRemaining()); break;
                case "away": flagKey(key, val, s.isAway() ? 1 : 0); break;
                case "enabled": flagKey(key, val, s.isEnabled() ? 1 : 0); break;
                case "until_idle": number(key, val, true, s.msUntilIdleLock()); break;
                case "warning": flagKey(key, val, s.isWarning() ? 1 : 0); break;
                case "until_warning": number(key, val, true, s.msUntilWarning()); break;
                case "next": number(key, val, true, s.msUntilNextDeadline()); break;
                case "activity": number(key, val, false, s.lastActivityMs()); break;
                case "value": expectValue(val); break;
                case "bio": flagKey(key, val, s.isBiometricsEnabled() ? 1 : 0); break;
                case "bio_available": flagKey(key, val, s.isBiometricsAvailable() ? 1 : 0); break;
                case "bio_item": flagKey(key, val, keystore.hasSecret ? 1 : 0); break;
                case "passcode_required": flagKey(key, val, s.isPasscodeRequired() ? 1 : 0); break;
                case "last_auth": number(key, val, true, s.lastAuthMs()); break;
                default: throw malformed("unknown expect key '" + show(key) + "'");
            }
        }
    }

    // -- events ----------------------------------------------------------------------

    void ensureHandle() throws Malformed {
        if (lock != null) return;
        IdleLock.Builder b = IdleLock.builder().idleAfterMs(idle).backgroundAfterMs(background).inactiveAfterMs(inactive)
                .graceMs(grace).maxAttempts((int) attempts).kdfOpslimit(IdleLock.KDF_OPSLIMIT_MIN)
                .kdfMemlimit(IdleLock.KDF_MEMLIMIT_MIN).promptCapMs(promptCap).warnBeforeMs(warn)
                .passcodeMaxAgeMs(maxAge).biometricMaxUses((int) maxUses).clock(() -> now);
        if (lockOnStart != 0 && lockOnStart != 1) throw malformed("lock_on_start is a boolean in the Java API: 0 or 1");
        if (afterReboot != 0 && afterReboot != 1) throw malformed("after_reboot is a boolean in the Java API: 0 or 1");
        b.lockOnStart(lockOnStart == 1).passcodeAfterReboot(afterReboot == 1);
        if (useDeviceKey) b.deviceKey(DEVICE_KEY.clone());
        if (useBiometrics) b.authenticator(keystore).unlockReason(UNLOCK_REASON);
        if (useStore && storeDir == null) {
            try {
                storeDir = Files.createTempDirectory("idlelock-replay-");
            } catch (IOException e) {
                throw malformed("cannot create a temporary folder for the store: " + e.getMessage());
            }
        }
        if (useStore) b.storePath(storeDir.resolve("session.idlelock").toString());
        printHeader();
        try {
            lock = b.build();
        } catch (RuntimeException e) {
            String st = e instanceof IdleLockStatus ? libraryStatusName(((IdleLockStatus) e).status()) : e.toString();
            throw malformed("idlelock_create refused the config: " + st + ": " + e.getMessage());
        }
    }

    static final String[] SNAP_EVENTS = {"start", "touch", "inactive", "background", "foreground", "check", "lock", "snapshot"};
    static final Object[][] OTHER_EVENTS = {
        {"passcode", 1, 1}, {"unlock", 1, 1}, {"disable", 0, 0}, {"put", 2, 2}, {"get", 1, 1}, {"remove", 1, 1},
        {"gate", 0, 0}, {"restart", 0, 0}, {"enable-biometrics", 0, 0}, {"disable-biometrics", 0, 0},
        {"unlock-biometrics", 0, 1}, {"enrolment-change", 0, 0}, {"bio-available", 1, 1}, {"bio-begin", 1, 2},
        {"bio-finish", 2, 2}, {"recent-auth", 1, 1}, {"reboot", 0, 0},
    };

    interface Call {
        Snapshot run();
    }

    /** Runs a call: its status, and its snapshot (or the exception's; null when it reports none). */
    Snapshot call(Call c) {
        try {
            Snapshot s = c.run();
            lastStatus = 0;
            return s;
        } catch (RuntimeException e) {
            if (!(e instanceof IdleLockStatus)) throw e;
            lastStatus = ((IdleLockStatus) e).status();
            return ((IdleLockStatus) e).snapshot();
        }
    }

    static byte[] bytes(String s) { return s.getBytes(StandardCharsets.ISO_8859_1); }

    void checkArgs(String ev, String[] arg) throws Malformed {
        if (ev.equals("unlock-biometrics") && arg.length == 1 && index(ANSWERS, arg[0]) < 0) {
            throw malformed("unknown answer '" + show(arg[0]) + "' for unlock-biometrics (ok, fail, cancel or unavailable)");
        }
        if (ev.equals("bio-available") && flag(arg[0]) == null) throw malformed("bio-available takes 0 or 1, not '" + show(arg[0]) + "'");
        if ((ev.equals("enrolment-change") || ev.equals("bio-available")) && !useBiometrics) {
            throw malformed(ev + " needs config biometrics=1");
        }
        if (ev.equals("bio-begin")) {
            if (!arg[0].equals("unlock") && !arg[0].equals("enable")) throw malformed("bio-begin takes unlock or enable, not '" + show(arg[0]) + "'");
            if (arg.length == 2 && arg[1].length() > 15) throw malformed("a request name has at most 15 characters");
            if (!requests.containsKey(arg.length == 2 ? arg[1] : "req") && requests.size() == 16) {
                throw malformed("more than 16 request names in one trace");
            }
        }
        if (ev.equals("bio-finish")) {
            Named q = requests.get(arg[0]);
            int k = index(FINISHES, arg[1]);
            if (q == null) throw malformed("bio-finish of '" + show(arg[0]) + "', which no bio-begin named");
            if (k < 0) throw malformed("unknown result '" + show(arg[1]) + "' for bio-finish (ok, fail, cancel, unavailable or wrong)");
            if (q.enable && k == 4) throw malformed("bio-finish ... wrong is for an unlock request");
            if (!q.enable && RESULTS[k] == AuthResult.OK && !keystore.hasSecret) {
                throw malformed("bio-finish " + show(arg[1]) + ": the fake keystore holds no item to release");
            }
            if (q.request == null) throw malformed("bio-finish of '" + show(arg[0]) + "', whose bio-begin failed: the Java API has no request to finish");
        }
        if (ev.equals("recent-auth") && parseI64(arg[0]) == null) throw malformed("recent-auth takes ms, not '" + show(arg[0]) + "'");
        if (ev.equals("reboot") && !useStore) throw malformed("reboot needs config store=1");
    }

    Snapshot bioBegin(String[] arg) {
        String name = arg.length == 2 ? arg[1] : "req";
        Named q = requests.computeIfAbsent(name, k -> new Named());
        q.enable = arg[0].equals("enable");
        q.request = null;
        q.hasSecret = false;
        return call(() -> {
            BiometricRequest r = q.enable ? lock.beginBiometricEnable() : lock.beginBiometricUnlock();
            everyRequest.add(r);
            q.request = r;
            q.hasSecret = q.enable;
            return r.snapshot();
        });
    }

    Snapshot bioFinish(String[] arg) {
        Named q = requests.get(arg[0]);
        int k = index(FINISHES, arg[1]);
        AuthResult result = RESULTS[k];
        byte[] release = null;
        boolean kept = false;
        if (!q.enable && result == AuthResult.OK) {
            release = keystore.secret.clone();
            if (k == 4) release[0] ^= 1;
        }
        if (q.enable && result == AuthResult.OK && q.hasSecret) {
            kept = keystore.store(q.request.secret());
            if (!kept) result = AuthResult.FAILED;
        }
        q.hasSecret = false;
        AuthResult r = result;
        byte[] secret = release;
        Snapshot s = call(() -> q.request.finish(r, secret));
        if (kept && lastStatus != 0) keystore.wipe();
        return s;
    }

    void restart(boolean reboot) throws Malformed {
        if (!useStore) throw malformed("restart needs config store=1");
        lock.close();
        lock = null;
        if (reboot) {
            reboots++;
            Path store = storeDir.resolve("session.idlelock");
            if (Files.exists(store) && !stampOtherBoot(store)) {
                throw malformed("reboot: the store is no version-2 store, or cannot be rewritten");
            }
        }
        ensureHandle();
    }

    /** As stamp_other_boot in the C tool: another boot's ids, the integrity check recomputed. */
    boolean stampOtherBoot(Path store) {
        try (RandomAccessFile f = new RandomAccessFile(store.toFile(), "rw")) {
            int n = (int) f.length();
            if (n < 460 + 32 || n >= (1 << 20)) return false;
            byte[] buf = new byte[n];
            f.readFully(buf);
            if (buf[8] != 2) return false;
            byte[] boot = String.format("replay-reboot-%04d-0000-000000000000", reboots % 10000).getBytes(StandardCharsets.US_ASCII);
            for (int off : new int[] {64, 416}) System.arraycopy(boot, 0, buf, off, 36);
            byte[] key = useDeviceKey ? Blake2b.kdf(32, 1, "idlkstor", DEVICE_KEY) : null;
            byte[] sum = Blake2b.hash(32, buf, n - 32, key, null, null);
            System.arraycopy(sum, 0, buf, n - 32, 32);
            f.seek(0);
            f.write(buf);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    void event(String[] tok) throws Malformed {
        Long t = parseI64(tok[0]);
        if (t == null) throw malformed("bad time '" + show(tok[0]) + "' (a signed 64-bit decimal)");
        if (tok.length < 2) throw malformed("missing event after the time");
        String ev = tok[1];
        int min = -1, max = -1;
        if (index(SNAP_EVENTS, ev) >= 0) min = max = 0;
        for (Object[] o : OTHER_EVENTS) {
            if (o[0].equals(ev)) {
                min = (Integer) o[1];
                max = (Integer) o[2];
            }
        }
        if (min < 0) throw malformed("unknown event '" + show(ev) + "'");
        int nargs = tok.length - 2;
        if (nargs < min) throw malformed("event '" + show(ev) + "' needs " + min + " argument" + (min == 1 ? "" : "s"));
        if (nargs > max) throw malformed("unexpected '" + show(tok[2 + max]) + "' after event '" + show(ev) + "'");
        String[] arg = Arrays.copyOfRange(tok, 2, tok.length);
        checkArgs(ev, arg);

        boolean bioBefore = snap != null && snap.isBiometricsEnabled();
        now = t;
        eventSeen = true;
        ensureHandle();
        events++;
        value = null;
        Snapshot s = null;
        switch (ev) {
            case "start": s = call(lock::start); break;
            case "touch": s = call(() -> { lock.touch(); return null; }); break;
            case "inactive": s = call(lock::inactive); break;
            case "background": s = call(lock::background); break;
            case "foreground": s = call(lock::foreground); break;
            case "check": s = call(lock::check); break;
            case "lock": s = call(lock::lock); break;
            case "snapshot": s = call(lock::snapshot); break;
            case "restart": restart(false); lastStatus = 0; break;
            case "reboot": restart(true); lastStatus = 0; break;
            case "bio-begin": s = bioBegin(arg); break;
            case "bio-finish": s = bioFinish(arg); break;
            case "unlock-biometrics": {
                int k = arg.length == 1 ? index(ANSWERS, arg[0]) : 0;
                keystore.nextAnswer = RESULTS[k < 0 ? 0 : k];
                s = call(lock::unlockWithBiometrics);
                keystore.nextAnswer = AuthResult.OK;
                break;
            }
            case "passcode": call(() -> { lock.setPasscode(bytes(arg[0])); return null; }); break;
            case "unlock": s = call(() -> lock.unlock(bytes(arg[0]))); break;
            case "disable": call(() -> { lock.disable(); return null; }); break;
            case "put": call(() -> { lock.putSecret(arg[0], bytes(arg[1])); return null; }); break;
            case "get": call(() -> { value = lock.getSecret(arg[0]); return null; }); break;
            case "remove": call(() -> { lock.removeSecret(arg[0]); return null; }); break;
            case "enable-biometrics": call(() -> { lock.enableBiometrics(); return null; }); break;
            case "disable-biometrics": call(() -> { lock.disableBiometrics(); return null; }); break;
            case "enrolment-change": keystore.changeEnrolment(); lastStatus = 0; break;
            case "bio-available": keystore.available = arg[0].equals("1"); lastStatus = 0; break;
            case "recent-auth": call(() -> { lock.requireRecentAuth(parseI64(arg[0])); return null; }); break;
            case "gate": call(() -> { lock.requireUnlocked(); return null; }); break;
            default: throw malformed("unknown event '" + show(ev) + "'");
        }
        // Where the C tool reads idlelock_snapshot_get: a call that reports no
        // state (or refused its arguments), and the host-only events.
        snap = s != null ? s : lock.snapshot();
        if (!useBiometrics && bioBefore && !snap.isBiometricsEnabled()) keystore.wipe();
        printEvent(ev, arg);
    }

    void printEvent(String ev, String[] arg) {
        if (quiet) return;
        Snapshot s = snap;
        StringBuilder b = new StringBuilder(String.format("%8d  %-" + eventWidth() + "s  %-16s  %-10s  %-12s  %4d  %4d  ",
                now, ev, libraryStatusName(lastStatus), nameOf(STATES, s.stateCode()), nameOf(REASONS, s.reasonCode()),
                s.attemptsRemaining(), s.isAway() ? 1 : 0));
        if (useBiometrics) b.append(String.format("%4d  %5d  ", s.isBiometricsEnabled() ? 1 : 0, s.isBiometricsAvailable() ? 1 : 0));
        b.append(ms(s.msUntilIdleLock()));
        if (warn > 0 && s.isWarning()) b.append("  WARNING");
        if (s.isPasscodeRequired()) b.append("  PASSCODE-ONLY");
        if (arg.length > 0 && !ev.equals("passcode") && !ev.equals("unlock")) b.append("  ").append(escaped(bytes(arg[0])));
        if (value != null) b.append(" = \"").append(escaped(value)).append('"');
        OUT.println(b);
    }

    // -- lines and files -------------------------------------------------------------

    void lineOf(String text) throws Malformed {
        if (text.indexOf('\0') >= 0) throw malformed("NUL byte in line");
        int hash = text.indexOf('#');
        if (hash >= 0) text = text.substring(0, hash);
        String trimmed = text.trim();
        if (trimmed.isEmpty()) return;
        String[] tok = trimmed.split("[ \\t\\r\\n\\u000b\\f]+");
        if (tok.length > 32) throw malformed("more than 32 items on one line");
        if (tok[0].equals("config")) config(tok);
        else if (tok[0].equals("expect")) expect(tok);
        else event(tok);
    }

    /** 0, 1 or 2, as replay_file. */
    int run() {
        int rc = 0;
        try {
            String text = new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.ISO_8859_1);
            String[] lines = text.split("\n", -1);
            int n = text.endsWith("\n") ? lines.length - 1 : lines.length;
            for (int i = 0; i < n; i++) {
                line++;
                lineOf(lines[i]);
            }
        } catch (Malformed e) {
            OUT.flush();
            System.err.println(e.getMessage());
            rc = 2;
        } catch (IOException e) {
            System.err.println(file + ": cannot open: " + e.getMessage());
            return 2;
        } finally {
            if (lock != null) lock.close();
            for (BiometricRequest r : everyRequest) r.isFinished(); // kept reachable until here
            removeStore();
        }
        totalFiles++;
        totalEvents += events;
        totalExpects += expects;
        totalMismatches += mismatches;
        if (rc != 0) return rc;
        printHeader();
        if (!quiet) {
            OUT.println("-- " + file + ": " + events + " events, " + expects + " expects, " + mismatches + " failed");
            OUT.println();
        }
        return mismatches > 0 ? 1 : 0;
    }

    void removeStore() {
        if (storeDir == null) return;
        try {
            Files.deleteIfExists(storeDir.resolve("session.idlelock"));
            Files.deleteIfExists(storeDir.resolve("session.idlelock.lock"));
            Files.deleteIfExists(storeDir);
        } catch (IOException ignored) {
            // as the C tool: best effort
        }
        storeDir = null;
    }

    public static void main(String[] args) {
        int i = 0;
        boolean quiet = false;
        for (; i < args.length && args[i].startsWith("-") && args[i].length() > 1; i++) {
            if (args[i].equals("--")) {
                i++;
                break;
            }
            if (!args[i].equals("--quiet") && !args[i].equals("-q")) usage();
            quiet = true;
        }
        if (i >= args.length) usage();
        int status = 0;
        for (; i < args.length; i++) {
            int rc = new Replay(args[i], quiet).run();
            if (rc == 2) {
                OUT.flush();
                System.exit(2);
            }
            if (rc != 0) status = rc;
        }
        OUT.println("idlelock-replay: " + totalFiles + " trace" + (totalFiles == 1 ? "" : "s") + ", " + totalEvents
                + " events, " + totalExpects + " expects, " + totalMismatches + " failed");
        OUT.flush();
        System.exit(status);
    }

    static void usage() {
        System.err.println("usage: Replay [--quiet] FILE...");
        System.exit(2);
    }
}

// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.chars;
import static org.idlelock.tests.Harness.check;
import static org.idlelock.tests.Harness.eq;
import static org.idlelock.tests.Harness.expect;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;
import org.idlelock.IdleLock;
import org.idlelock.NotFoundException;
import org.idlelock.Reason;
import org.idlelock.State;
import org.idlelock.StorageException;

/** The store: a session that outlives its handle, a damaged file, a device key, sign-out. */
final class StoreTests {
    private StoreTests() {}

    static IdleLock.Builder stored(File path) {
        return IdleLock.builder().idleAfterMs(60_000).kdfOpslimit(2).kdfMemlimit(Harness.MEMLIMIT_FLOOR).storePath(path);
    }

    interface InDir {
        void run(Path dir) throws Throwable;
    }

    /** A test body given a fresh temporary folder, removed with all it holds afterwards. */
    static Harness.Body inTempDir(InDir body) {
        return () -> {
            Path dir = Files.createTempDirectory("idlelock-java");
            try {
                body.run(dir);
            } finally {
                try (Stream<Path> paths = Files.walk(dir)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
                }
            }
        };
    }

    static void run(Harness h) {
        h.test("a stored session outlives its handle", inTempDir(dir -> {
            File store = dir.resolve("session").toFile();
            try (IdleLock a = stored(store).build()) {
                a.setPasscode(chars("2468"));
                a.putSecret("token", new byte[] {4, 2});
            }
            check(store.isFile(), "written");
            try (IdleLock b = stored(store).build()) {
                eq(b.snapshot().state(), State.LOCKED, "locked from create");
                eq(b.snapshot().reason(), Reason.STARTUP, "STARTUP");
                b.start(); // a stored session hands out nothing before start
                b.unlock(chars("2468"));
                check(Arrays.equals(b.getSecret("token"), new byte[] {4, 2}), "secret read back");
                b.disable();
                check(!store.exists(), "sign-out deletes the store");
                expect(NotFoundException.class, () -> b.getSecret("token"));
            }
        }));
        h.test("a damaged store is refused and left untouched", inTempDir(dir -> {
            File store = dir.resolve("session").toFile();
            byte[] junk = new byte[600];
            Arrays.fill(junk, (byte) 0x5A);
            Files.write(store.toPath(), junk);
            StorageException e = expect(StorageException.class, () -> stored(store).build());
            eq(e.status(), 7, "status");
            check(Arrays.equals(Files.readAllBytes(store.toPath()), junk), "untouched");
        }));
        h.test("a device key opens the session at create; another key is refused", inTempDir(dir -> {
            File store = dir.resolve("session").toFile();
            byte[] key = new byte[32];
            Arrays.fill(key, (byte) 9);
            try (IdleLock a = stored(store).deviceKey(key).lockOnStart(false).build()) {
                a.setPasscode(chars("2468"));
            }
            try (IdleLock b = stored(store).deviceKey(key).lockOnStart(false).build()) {
                eq(b.start().state(), State.UNLOCKED, "opened with the device key");
            }
            byte[] other = new byte[32];
            expect(StorageException.class, () -> stored(store).deviceKey(other).build());
        }));
    }
}

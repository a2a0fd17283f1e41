// SPDX-License-Identifier: MIT
package org.idlelock;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The natives inside the jar ({@code org/idlelock/native/linux-<cpu>/}:
 * {@code libidlelock_jni.so} and the self-contained {@code libidlelock.so}
 * it NEEDs), loaded when {@code java.library.path} has none. The library
 * is loaded first, by its absolute path, and the glue after it: the glue's
 * NEEDED {@code libidlelock.so} is then the one already loaded (the dynamic
 * linker matches it by soname), never one the linker would find first on
 * {@code LD_LIBRARY_PATH}, which it searches before the glue's RUNPATH
 * {@code $ORIGIN}. They are copied into a new
 * folder that only this user can enter (made by {@code
 * Files.createTempDirectory} with the permissions {@code rwx------} from
 * the start, under {@code java.io.tmpdir}, with a unique name: never a
 * shared fixed path that another user could have planted a library in; a
 * {@code java.io.tmpdir} where another user could rename that folder, one
 * writable by others without the sticky bit or owned by another user, is
 * refused),
 * loaded, and removed at once (Linux keeps a loaded library mapped after
 * its file is gone); what cannot be removed then is removed by a shutdown
 * hook. Desktop and server JVMs only: on Android the natives come from the
 * app's {@code jniLibs} through {@code System.loadLibrary}, and this class
 * is never used.
 */
final class JarNatives {
    private JarNatives() {}

    static final String ROOT = "org/idlelock/native/";
    static final String GLUE = "libidlelock_jni.so";
    static final String LIBRARY = "libidlelock.so";

    /** The jar's folder for this JVM's OS and CPU, or null when it ships none. */
    static String folder() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) return null;
        switch (arch) {
            case "amd64": case "x86_64": return "linux-x86_64";
            case "aarch64": case "arm64": return "linux-aarch64";
            case "arm": case "armv7": case "armv7l": case "armhf": return "linux-armv7";
            default: return null;
        }
    }

    /**
     * Copies the two natives of {@code folder} into a new private folder
     * and returns it (the caller loads and removes it).
     */
    static Path unpack(String folder) throws IOException {
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        // Atomic: the folder exists with these permissions from its creation.
        Path dir = Files.createTempDirectory("idlelock-", PosixFilePermissions.asFileAttribute(owner));
        try {
            checkParent(dir);
            for (String name : new String[] {LIBRARY, GLUE}) {
                try (InputStream in = JarNatives.class.getClassLoader().getResourceAsStream(ROOT + folder + "/" + name)) {
                    if (in == null) throw new IOException("the jar has no " + ROOT + folder + "/" + name);
                    Path file = dir.resolve(name);
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r-x------"));
                }
            }
            return dir;
        } catch (IOException | RuntimeException e) {
            remove(dir);
            throw e;
        }
    }

    /**
     * Refuses a {@code java.io.tmpdir} in which another user could rename
     * the private folder away and put one of theirs in its place before it
     * is loaded: one that group or others may write without the sticky bit
     * ({@code /tmp} has it), or that belongs to a user other than this one
     * and root. A JVM without the "unix" attribute view checks nothing.
     */
    static void checkParent(Path dir) throws IOException {
        Path parent = dir.toAbsolutePath().getParent();
        int mode, uid, own;
        try {
            mode = (Integer) Files.getAttribute(parent, "unix:mode");
            uid = (Integer) Files.getAttribute(parent, "unix:uid");
            own = (Integer) Files.getAttribute(dir, "unix:uid");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return;
        }
        boolean shared = (mode & 0022) != 0 && (mode & 01000) == 0;
        if (shared || (uid != own && uid != 0)) {
            throw new IOException("java.io.tmpdir " + parent + " is not safe to load the jar's natives from ("
                    + (shared ? "writable by others without the sticky bit" : "owned by another user")
                    + "): another user could swap the natives' folder; set -Djava.io.tmpdir to a private folder");
        }
    }

    /** Loads the jar's natives for this CPU; throws what went wrong. */
    static void load() throws IOException {
        String folder = folder();
        if (folder == null) {
            throw new IOException("the jar carries natives for linux-x86_64, linux-aarch64 and linux-armv7, not for "
                    + System.getProperty("os.name") + " on " + System.getProperty("os.arch"));
        }
        Path dir = unpack(folder);
        try {
            System.load(dir.resolve(LIBRARY).toString()); // first: see the class comment
            System.load(dir.resolve(GLUE).toString());
        } finally {
            remove(dir);
        }
    }

    /** Removes the folder now, or at exit for what cannot go now. */
    static void remove(Path dir) {
        List<Path> left = new ArrayList<>();
        for (String name : new String[] {GLUE, LIBRARY}) {
            Path f = dir.resolve(name);
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                left.add(f);
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            left.add(dir);
        }
        if (!left.isEmpty()) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (Path p : left) p.toFile().delete();
            }, "idlelock-natives-cleanup"));
        }
    }
}

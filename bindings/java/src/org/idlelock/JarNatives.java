// SPDX-License-Identifier: MIT
package org.idlelock;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
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
 * {@code $ORIGIN}.
 *
 * <p><b>The private folder.</b> The natives are copied into a new folder
 * that only this user can enter (made by {@code Files.createTempDirectory}
 * with the permissions {@code rwx------} from the start, under {@code
 * java.io.tmpdir}, with a unique name: never a shared fixed path that
 * another user could have planted a library in), loaded, and removed at
 * once (Linux keeps a loaded library mapped after its file is gone); what
 * cannot be removed then is removed by a shutdown hook. Before anything
 * is copied, the whole path to the folder is checked as OpenSSH's {@code
 * safe_path} checks a key file's: every folder from {@code /} down to it,
 * through every symbolic link on the way (each link's own owner, then the
 * folders of its target), must be owned by root or this user and not
 * writable by group or others unless it has the sticky bit ({@code /tmp}
 * has it); otherwise another user could rename a folder on the way and
 * swap the natives between their copy and {@code System.load}, and the
 * load is refused with a message naming the folder.
 *
 * <p><b>Leftovers.</b> A JVM killed between the copy and the removal
 * leaves its folder behind. Each load removes the folders of {@code
 * java.io.tmpdir} that a loader made ({@code idlelock-} and the digits
 * {@code Files.createTempDirectory} adds, and a {@code lock} file that
 * holds {@link #MARK}, which the loader writes there), that belong to this
 * user (folders, not links) and are not in use. In use means: its {@code
 * lock} file is locked by a live process (the loader holds a {@code
 * FileChannel} lock on it, an fcntl record lock, from right after the
 * folder is made until the folder is removed; the kernel drops it when the
 * process dies, however it dies), or the folder has no {@code lock} file
 * yet and changed in the last {@link #UNLOCKED_IN_USE_MS} (the moment
 * between its creation and its lock; a folder of a binding before 1.2.2
 * has no lock file, and is taken for a loader's by its name alone). A
 * folder of another name, or whose lock file does not hold the mark (one
 * a user made for {@code java.library.path}, say), is never touched. Only
 * the files the loader makes are removed from it, then the folder if it is
 * then empty. Desktop and server JVMs only: on Android the natives come
 * from the app's {@code jniLibs} through {@code System.loadLibrary}, and
 * this class is never used.
 */
final class JarNatives {
    private JarNatives() {}

    static final String ROOT = "org/idlelock/native/";
    static final String GLUE = "libidlelock_jni.so";
    static final String LIBRARY = "libidlelock.so";
    /** The file whose lock says a folder is in use. */
    static final String LOCK = "lock";
    static final String PREFIX = "idlelock-";
    /** What the loader writes in its folder's lock file: only such a folder is its own to remove. */
    static final byte[] MARK = "org.idlelock: the jar's natives, unpacked by JarNatives\n"
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** How long a folder with no lock file counts as in use (ms): 10 minutes. */
    static final long UNLOCKED_IN_USE_MS = 10L * 60 * 1000;
    /** Symbolic links followed on one path before it is refused (Linux's limit, ELOOP). */
    static final int MAX_LINKS = 40;

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

    /** A private folder holding the natives, locked as in use until {@link #remove()}. */
    static final class Unpacked {
        final Path dir;
        private final FileChannel channel;
        private final FileLock lock;

        Unpacked(Path dir, FileChannel channel, FileLock lock) {
            this.dir = dir;
            this.channel = channel;
            this.lock = lock;
        }

        /**
         * Removes the folder now, or at exit for what cannot go now. The
         * lock file goes last, its lock held until then: no other JVM
         * takes the folder for a leftover while a file of it is still there.
         */
        void remove() {
            List<Path> left = new ArrayList<>();
            for (String name : new String[] {GLUE, LIBRARY, LOCK}) {
                Path f = dir.resolve(name);
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    left.add(f);
                }
            }
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                // closing a lock file cannot lose anything
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

    /**
     * Makes a new private folder, locks it as in use, checks the path to
     * it, removes this user's leftovers beside it, and copies the two
     * natives of {@code folder} into it (the caller loads and removes it).
     */
    static Unpacked unpack(String folder) throws IOException {
        Unpacked unpacked = null;
        for (int attempt = 0; unpacked == null; attempt++) {
            unpacked = lockedFolder(attempt == 2);
        }
        try {
            Integer uid = unixInt(unpacked.dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (uid != null) {
                checkPath(unpacked.dir, uid);
                removeLeftovers(unpacked.dir.getParent(), uid, unpacked.dir);
            }
            for (String name : new String[] {LIBRARY, GLUE}) {
                try (InputStream in = JarNatives.class.getClassLoader().getResourceAsStream(ROOT + folder + "/" + name)) {
                    if (in == null) throw new IOException("the jar has no " + ROOT + folder + "/" + name);
                    Path file = unpacked.dir.resolve(name);
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r-x------"));
                }
            }
            return unpacked;
        } catch (IOException | RuntimeException e) {
            unpacked.remove();
            throw e;
        }
    }

    /**
     * A new private folder with its lock file locked; null when another
     * JVM's load took it for a leftover in the moment between the lock
     * file's creation and its lock (that JVM holds the lock while it
     * removes the folder, so the lock is taken after it and the file is
     * then gone): the caller makes another. {@code last}: throw instead.
     */
    private static Unpacked lockedFolder(boolean last) throws IOException {
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        // Atomic: the folder exists with these permissions from its creation.
        Path dir = Files.createTempDirectory(PREFIX, PosixFilePermissions.asFileAttribute(owner));
        Path lockFile = dir.resolve(LOCK);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            FileLock lock = channel.lock();
            if (Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS)) {
                channel.write(java.nio.ByteBuffer.wrap(MARK));
                return new Unpacked(dir, channel, lock);
            }
            channel.close();
            deleteKnown(dir);
            if (last) throw new IOException("the natives' folder in " + dir.getParent() + " was removed by another process each time it was made");
            return null;
        } catch (IOException | RuntimeException e) {
            if (channel != null) channel.close();
            deleteKnown(dir);
            if (e instanceof NoSuchFileException && !last) return null; // the folder went before its lock file was made
            throw e;
        }
    }

    /** A "unix:" attribute as an int, or null on a JVM without the "unix" view. */
    private static Integer unixInt(Path p, String attribute, LinkOption... options) throws IOException {
        try {
            return (Integer) Files.getAttribute(p, attribute, options);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Refuses a path on which another user could swap a folder between the
     * copy and the load (OpenSSH's {@code safe_path}, extended to links):
     * walks {@code dir} from {@code /}, component by component, as the
     * kernel resolves it. Every folder on the way must be owned by root or
     * {@code uid} and not writable by group or others unless sticky; every
     * symbolic link on the way must be owned by root or {@code uid} (its
     * owner could replace it), and its target is walked the same way.
     */
    static void checkPath(Path dir, int uid) throws IOException {
        Path path = dir.toAbsolutePath();
        Deque<String> todo = new ArrayDeque<>();
        for (Path name : path) todo.addLast(name.toString());
        Path root = path.getRoot();
        Path at = root;
        checkFolder(path, at, uid);
        int links = 0;
        while (!todo.isEmpty()) {
            String name = todo.removeFirst();
            if (name.isEmpty() || name.equals(".")) continue;
            if (name.equals("..")) {
                if (at.getParent() != null) at = at.getParent(); // a real path: its parent is the kernel's ".."
                continue;
            }
            Path next = at.resolve(name);
            if (Files.isSymbolicLink(next)) {
                Integer owner = unixInt(next, "unix:uid", LinkOption.NOFOLLOW_LINKS);
                if (owner != null && owner != 0 && owner != uid) {
                    throw unsafe(path, next, "is a symbolic link owned by another user (uid " + owner + ")");
                }
                if (++links > MAX_LINKS) throw unsafe(path, next, "leads through more than " + MAX_LINKS + " symbolic links");
                Path target = Files.readSymbolicLink(next);
                List<String> names = new ArrayList<>();
                for (Path n : target) names.add(n.toString());
                for (int i = names.size() - 1; i >= 0; i--) todo.addFirst(names.get(i));
                if (target.isAbsolute()) {
                    at = root;
                    checkFolder(path, at, uid);
                }
                continue;
            }
            at = next;
            checkFolder(path, at, uid);
        }
    }

    private static void checkFolder(Path path, Path folder, int uid) throws IOException {
        Integer mode = unixInt(folder, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        Integer owner = unixInt(folder, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (mode == null || owner == null) return;
        if (owner != 0 && owner != uid) {
            throw unsafe(path, folder, "is owned by another user (uid " + owner + ")");
        }
        if ((mode & 0022) != 0 && (mode & 01000) == 0) {
            throw unsafe(path, folder, "is writable by " + ((mode & 0002) != 0 ? "others" : "its group")
                    + " without the sticky bit (mode " + Integer.toOctalString(mode & 07777) + ")");
        }
    }

    private static IOException unsafe(Path path, Path where, String why) {
        Path tmpdir = path.getParent();
        return new IOException("java.io.tmpdir " + tmpdir + " is not safe to load the jar's natives from: "
                + (where.equals(path) ? "the natives' folder " : where.equals(tmpdir) ? "it " : "the folder on its path " + where + " ")
                + why + "; another user could swap the natives' folder before it is loaded. Set -Djava.io.tmpdir to a folder "
                + "whose every folder from / down is owned by root or you and writable by no one else, or sticky as /tmp is");
    }

    /**
     * Removes this user's {@code idlelock-*} folders in {@code tmpdir}
     * that no live process uses (see the class comment). {@code tmpdir}
     * was checked: only its owner, root or (sticky) an entry's owner can
     * rename its entries, so an entry found to be this user's folder stays
     * it. Whatever fails is left for a later load. {@code own}, this
     * load's folder, is skipped: opening its lock file here and closing
     * it would drop this process's lock on it (fcntl locks belong to the
     * process, and any close of the file releases them).
     */
    static void removeLeftovers(Path tmpdir, int uid, Path own) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmpdir, PREFIX + "*")) {
            for (Path p : entries) {
                if (!p.equals(own) && madeByLoader(p.getFileName().toString())) found.add(p);
            }
        } catch (IOException | RuntimeException e) {
            return;
        }
        for (Path p : found) {
            try {
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                Integer owner = unixInt(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
                if (!a.isDirectory() || owner == null || owner != uid) continue; // a link, a file, another user's
                removeIfUnused(p, a);
            } catch (IOException | RuntimeException e) {
                // gone meanwhile, or unreadable: not ours to judge now
            }
        }
    }

    /** Whether {@code name} is one {@code Files.createTempDirectory(PREFIX)} makes: the prefix and digits. */
    static boolean madeByLoader(String name) {
        if (!name.startsWith(PREFIX) || name.length() == PREFIX.length()) return false;
        for (int i = PREFIX.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    /**
     * Removes {@code dir} (this user's) unless it is in use: its lock held
     * by a live process, or no lock file and changed too recently; or not
     * the loader's: a lock file that does not hold {@link #MARK}. The lock,
     * when free, is held while the folder is removed.
     */
    private static void removeIfUnused(Path dir, PosixFileAttributes a) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            if (System.currentTimeMillis() - a.lastModifiedTime().toMillis() >= UNLOCKED_IN_USE_MS) deleteKnown(dir);
            return;
        }
        try {
            FileLock held = channel.tryLock();
            if (held == null) return; // another process holds it: in use
            java.nio.ByteBuffer read = java.nio.ByteBuffer.allocate(MARK.length + 1);
            while (read.hasRemaining() && channel.read(read) > 0) {
                // until the end of the file, or one byte past the mark
            }
            if (read.position() != MARK.length || !java.util.Arrays.equals(java.util.Arrays.copyOf(read.array(), MARK.length), MARK)) {
                return; // not a loader's lock file: not ours to remove
            }
            deleteKnown(dir); // the process that made it is gone
        } catch (OverlappingFileLockException e) {
            // This JVM holds it (another class loader's load at this very
            // moment): in use. (Closing the channel below drops that lock
            // for other processes; the load it guards takes milliseconds.)
        } finally {
            channel.close();
        }
    }

    /** Deletes the files the loader makes in {@code dir}, then {@code dir} if that left it empty. */
    private static void deleteKnown(Path dir) {
        for (String name : new String[] {GLUE, LIBRARY, LOCK}) {
            try {
                Files.deleteIfExists(dir.resolve(name));
            } catch (IOException e) {
                // left for a later load
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // not empty (something else is in it), or gone: left as it is
        }
    }

    /** Loads the jar's natives for this CPU; throws what went wrong. */
    static void load() throws IOException {
        String folder = folder();
        if (folder == null) {
            throw new IOException("the jar carries natives for linux-x86_64, linux-aarch64 and linux-armv7, not for "
                    + System.getProperty("os.name") + " on " + System.getProperty("os.arch"));
        }
        Unpacked unpacked = unpack(folder);
        try {
            System.load(unpacked.dir.resolve(LIBRARY).toString()); // first: see the class comment
            System.load(unpacked.dir.resolve(GLUE).toString());
        } finally {
            unpacked.remove();
        }
    }
}

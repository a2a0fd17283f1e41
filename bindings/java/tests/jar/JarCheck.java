// SPDX-License-Identifier: MIT
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.idlelock.IdleLock;

/**
 * Run by bindings/java/tests/run-jar.sh with only the jar on the class path
 * and a fresh java.io.tmpdir: the natives came from the jar, through a
 * private folder that is gone once they are loaded. Prints one line per
 * failed check and "N passed, N failed".
 */
public final class JarCheck {
    static int passed;
    static int failed;

    static void check(boolean ok, String what) {
        if (ok) {
            passed++;
        } else {
            failed++;
            System.out.println("FAIL " + what);
        }
    }

    static List<String> tmpEntries(Path tmp) throws Exception {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toList());
        }
    }

    /** The folder of a JarNatives.Unpacked. */
    static Path dir(Object unpacked) throws Exception {
        java.lang.reflect.Field f = unpacked.getClass().getDeclaredField("dir");
        f.setAccessible(true);
        return (Path) f.get(unpacked);
    }

    public static void main(String[] args) throws Exception {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir")).toRealPath();
        check(System.getProperty("org.idlelock.jni.path") == null, "no org.idlelock.jni.path is set");
        check(System.getenv("LD_LIBRARY_PATH") == null, "no LD_LIBRARY_PATH is set");
        check(IdleLock.version().equals(IdleLock.HEADER_VERSION), "the natives loaded: " + IdleLock.version());

        // Where the loaded natives came from: /proc/self/maps names each mapped file.
        List<String> maps = Files.readAllLines(Paths.get("/proc/self/maps"));
        for (String name : new String[] {"libidlelock_jni.so", "libidlelock.so"}) {
            String line = maps.stream().filter(l -> l.contains("/" + name)).findFirst().orElse("");
            check(line.contains(tmp + "/idlelock-"), name + " was loaded from a folder made under java.io.tmpdir: " + line);
            check(line.endsWith("(deleted)"), name + "'s file was removed once loaded: " + line);
        }
        check(tmpEntries(tmp).isEmpty(), "nothing is left in java.io.tmpdir: " + tmpEntries(tmp));

        // The folder the loader makes: new, unique, owner-only from the start.
        Class<?> jn = Class.forName("org.idlelock.JarNatives");
        Method folder = jn.getDeclaredMethod("folder");
        Method unpack = jn.getDeclaredMethod("unpack", String.class);
        folder.setAccessible(true);
        unpack.setAccessible(true);
        String cpu = (String) folder.invoke(null);
        check("linux-x86_64".equals(cpu), "this JVM's folder: " + cpu);
        Object a = unpack.invoke(null, cpu);
        Object b = unpack.invoke(null, cpu);
        check(!dir(a).equals(dir(b)), "each load gets its own folder: " + dir(a) + ", " + dir(b));
        for (Object u : new Object[] {a, b}) {
            Path d = dir(u);
            check(d.getParent().toRealPath().equals(tmp), d + " is in java.io.tmpdir");
            check(PosixFilePermissions.toString(Files.getPosixFilePermissions(d)).equals("rwx------"), d + " is rwx------");
            for (String name : new String[] {"libidlelock_jni.so", "libidlelock.so"}) {
                Path f = d.resolve(name);
                check(Files.isRegularFile(f) && Files.size(f) > 0, f + " was copied");
                check(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)).equals("r-x------"), f + " is r-x------");
            }
            Path lock = d.resolve("lock");
            check(PosixFilePermissions.toString(Files.getPosixFilePermissions(lock)).equals("rw-------"), lock + " is rw-------");
            Method remove = u.getClass().getDeclaredMethod("remove");
            remove.setAccessible(true);
            remove.invoke(u);
            check(!Files.exists(d), d + " is removed");
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}

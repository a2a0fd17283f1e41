// SPDX-License-Identifier: MIT
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Run by bindings/java/tests/run-jar.sh with only the jar on the class
 * path: makes the loader's private folder as a load does (natives copied,
 * its lock held) and never removes it; prints the folder, then waits to be
 * killed. Alive, it is a load in progress that another JVM must leave
 * alone; killed (SIGKILL), it is the leftover a killed JVM leaves behind.
 */
public final class Hold {
    public static void main(String[] args) throws Exception {
        Class<?> jn = Class.forName("org.idlelock.JarNatives");
        Method folder = jn.getDeclaredMethod("folder");
        Method unpack = jn.getDeclaredMethod("unpack", String.class);
        folder.setAccessible(true);
        unpack.setAccessible(true);
        Object unpacked = unpack.invoke(null, folder.invoke(null));
        Field dir = unpacked.getClass().getDeclaredField("dir");
        dir.setAccessible(true);
        System.out.println(dir.get(unpacked));
        System.out.flush();
        Thread.sleep(600_000); // killed long before
    }
}

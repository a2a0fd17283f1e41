package org.idlelock.tests;

import java.lang.reflect.Method;

/** Reads the glue's test counters (package-private org.idlelock.Native) by reflection. */
final class GlueAccess {
    private GlueAccess() {}

    private static long[] call(String name) {
        try {
            Class<?> n = Class.forName("org.idlelock.Native");
            Method m = n.getDeclaredMethod(name);
            m.setAccessible(true);
            return (long[]) m.invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static long[] structSizes() { return call("structSizes"); }

    static long liveHandles() { return call("glueCounters")[0]; }

    static long attached() { return call("glueCounters")[1]; }

    static long detached() { return call("glueCounters")[2]; }
}

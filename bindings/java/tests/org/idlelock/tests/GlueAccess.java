// SPDX-License-Identifier: MIT
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

    /** The exception the binding throws for a status (package-private IdleLockException.of). */
    static RuntimeException exceptionFor(int status) {
        try {
            Method m = org.idlelock.IdleLockException.class.getDeclaredMethod("of", int.class, String.class,
                    org.idlelock.Snapshot.class);
            m.setAccessible(true);
            return (RuntimeException) m.invoke(null, status, "m", null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** The native handle of a lock (its private field). */
    static long handle(org.idlelock.IdleLock lock) {
        try {
            java.lang.reflect.Field f = org.idlelock.IdleLock.class.getDeclaredField("handle");
            f.setAccessible(true);
            return f.getLong(lock);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A native method of org.idlelock.Native, called as the binding never would. */
    static Object callNative(String name, Class<?>[] types, Object... args) {
        try {
            Class<?> n = Class.forName("org.idlelock.Native");
            Method m = n.getDeclaredMethod(name, types);
            m.setAccessible(true);
            return m.invoke(null, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new AssertionError("the glue threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static long liveHandles() { return call("glueCounters")[0]; }

    static long attached() { return call("glueCounters")[1]; }

    static long detached() { return call("glueCounters")[2]; }
}

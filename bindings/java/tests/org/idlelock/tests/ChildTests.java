// SPDX-License-Identifier: MIT
package org.idlelock.tests;

import static org.idlelock.tests.Harness.check;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Scenarios that crash or hang a JVM when they go wrong, each in a child JVM with -Xcheck:jni. */
final class ChildTests {
    private ChildTests() {}

    /** Runs {@code scenario} of {@link Child}; the child's output, or an AssertionError. */
    static String runChild(String scenario, long limitSeconds) throws Exception {
        Path dir = Files.createTempDirectory("idlelock-child");
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
            cmd.add("-Xcheck:jni");
            cmd.add("-cp");
            StringBuilder cp = new StringBuilder(); // absolute: the child runs in another folder
            for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (cp.length() > 0) cp.append(File.pathSeparator);
                cp.append(new File(e).getAbsolutePath());
            }
            cmd.add(cp.toString());
            for (String p : new String[] {"java.library.path", "org.idlelock.jni.path"}) {
                String v = System.getProperty(p);
                if (v == null) continue;
                StringBuilder abs = new StringBuilder(); // absolute, as the class path
                for (String e : v.split(File.pathSeparator)) {
                    if (abs.length() > 0) abs.append(File.pathSeparator);
                    abs.append(e.isEmpty() ? e : new File(e).getAbsolutePath());
                }
                cmd.add("-D" + p + "=" + abs);
            }
            cmd.add(Child.class.getName());
            cmd.add(scenario);
            Path out = dir.resolve("out.txt");
            // The working folder takes any hs_err file of a crash.
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            boolean ended = p.waitFor(limitSeconds, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            String text = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
            check(ended, scenario + ": the child JVM did not exit within " + limitSeconds + " s:\n" + text);
            check(p.exitValue() == 0, scenario + ": the child JVM exited with " + p.exitValue() + ":\n" + text);
            check(!text.contains("WARNING in native method"), scenario + ": -Xcheck:jni warned:\n" + text);
            check(text.trim().endsWith("ok"), scenario + ": the child did not finish:\n" + text);
            return text;
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    static void run(Harness h) {
        h.test("close() from a listener on the watcher thread with 7 more subscribed: no crash, none of them runs after it", () ->
                runChild("close-in-watcher-listener", 120));
        h.test("close() on another thread while the watcher delivers: no listener starts after it", () ->
                runChild("close-during-delivery", 120));
        h.test("never-closed locks with the watcher running and listeners are destroyed by the reaper", () ->
                runChild("reaper-with-watcher", 120));
        h.test("a JVM whose never-closed lock's watcher ran a listener exits by itself (daemon attach)", () ->
                runChild("exit-with-open-lock", 120));
    }
}

// SPDX-License-Identifier: MIT
package org.idlelock.tests;

/** Runs every test group on the real JVM and libidlelock; exit status 1 on a failure. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Harness h = new Harness();
        ModuleTests.run(h);
        ConfigTests.run(h);
        RulesTests.run(h);
        PasscodeTests.run(h);
        SecretTests.run(h);
        ListenerTests.run(h);
        BiometricTests.run(h);
        AsyncBiometricTests.run(h);
        CancellationTests.run(h);
        CancelRaceTests.run(h);
        StoreTests.run(h);
        LifetimeTests.run(h);
        BadInputTests.run(h);
        ThreadTests.run(h);
        ChildTests.run(h);
        System.exit(h.finish() == 0 ? 0 : 1);
    }
}

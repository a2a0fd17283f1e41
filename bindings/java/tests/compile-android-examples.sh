#!/bin/sh
# SPDX-License-Identifier: MIT
# compile-android-examples.sh JAR DIR: the README's Android examples
# (bindings/java/examples/android/) compile against the binding and
# against stubs of the Android APIs they use (bindings/java/tests/
# android-stubs/; no Android SDK or runtime here: compiled, never run):
# the Java ones for Java 8 as an Android app would, the Kotlin ones with
# Debian's kotlinc (1.3: the examples use nothing newer) for JVM 1.8,
# warnings as errors. DIR is made afresh for the classes.
set -eu
rm -rf "$2"
mkdir -p "$2/java" "$2/stubs" "$2/kotlin"
javac --release 8 -Xlint:all,-options -Werror -encoding UTF-8 -cp "$1" \
    -sourcepath bindings/java/tests/android-stubs -d "$2/java" bindings/java/examples/android/*.java
javac --release 8 -Xlint:all,-options -Werror -encoding UTF-8 -d "$2/stubs" \
    $(find bindings/java/tests/android-stubs -name '*.java' | sort)
# kotlinc's launcher warns about a JVM option of its own on JDK 13 and later.
status=0
kotlinc -jvm-target 1.8 -Werror -cp "$1:$2/stubs" -d "$2/kotlin" bindings/java/examples/android/*.kt \
    > "$2/kotlinc.log" 2>&1 || status=$?
grep -v 'Options -Xverify:none and -noverify were deprecated' "$2/kotlinc.log" >&2 || true
exit "$status"

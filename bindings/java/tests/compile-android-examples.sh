#!/bin/sh
# SPDX-License-Identifier: MIT
# compile-android-examples.sh JAR DIR: the README's Android examples
# (bindings/java/examples/android/) compile against the binding, for Java 8
# as an Android app would, and against stubs of the Android APIs they use
# (bindings/java/tests/android-stubs/; no Android SDK or runtime here:
# compiled, never run). DIR is made afresh for the classes.
set -eu
rm -rf "$2"
mkdir -p "$2"
javac --release 8 -Xlint:all,-options -Werror -encoding UTF-8 -cp "$1" \
    -sourcepath bindings/java/tests/android-stubs -d "$2" bindings/java/examples/android/*.java

#!/bin/sh
# Installs what the build and the tests need on a fresh Debian machine that
# has only the Swift toolchain: libsodium's headers (Debian libsodium-dev);
# with --test also the Python test packages and the bindings' runtimes (a
# JDK, Mono, LuaJIT, LÖVE, Xvfb). Does nothing for what is already there.
set -eu

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=""
[ -f /usr/include/sodium.h ] || missing="$missing libsodium-dev"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
if [ -n "$missing" ]; then
    echo "install-deps: installing$missing"
    as_root apt-get update -qq
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

if [ "${1:-}" = "--test" ]; then
    # The bindings' runtimes (make test-java, test-csharp, test-luajit):
    # a JDK (javac, jar, jni.h), Mono's compiler and runtime, LuaJIT, LÖVE,
    # and a virtual X server for the LÖVE demo.
    runtimes=""
    { command -v javac && command -v jar && command -v java; } >/dev/null 2>&1 \
        || runtimes="$runtimes openjdk-17-jdk-headless"
    command -v mcs >/dev/null 2>&1 || runtimes="$runtimes mono-mcs"
    command -v mono >/dev/null 2>&1 || runtimes="$runtimes mono-runtime"
    command -v luajit >/dev/null 2>&1 || runtimes="$runtimes luajit"
    command -v love >/dev/null 2>&1 || runtimes="$runtimes love"
    command -v xvfb-run >/dev/null 2>&1 || runtimes="$runtimes xvfb"
    command -v xauth >/dev/null 2>&1 || runtimes="$runtimes xauth"
    if [ -n "$runtimes" ]; then
        echo "install-deps: installing$runtimes"
        as_root apt-get update -qq
        # shellcheck disable=SC2086
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $runtimes >/dev/null
    fi
    if ! python3 -c "import pytest, hypothesis" >/dev/null 2>&1; then
        echo "install-deps: installing pytest and hypothesis"
        python3 -m pip install --quiet --disable-pip-version-check pytest hypothesis
    fi
fi

#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what the build and the tests need on a fresh Debian machine that
# has only the Swift toolchain. Does nothing for what is already there, and
# asks apt nothing then (a few dpkg-query calls).
#
# Levels, each a make target (the Makefile, mk/cross.mk):
#
#   install-deps.sh           `make deps`, what building the library needs
#                             (`make lib`, `make demo`, `make install`):
#                             libsodium's headers and a C compiler
#   install-deps.sh --c-tests `make c-test-deps`, and what the C suites need
#                             (test-c, test-traces, test-c-sanitized,
#                             test-dist) and bench-instructions: a C++
#                             compiler (the header as C++11), valgrind,
#                             pkg-config
#   install-deps.sh --cross   `make cross-deps`, the library's level and the
#                             other CPUs (mk/cross.mk): the arm64 and armhf
#                             architectures, their cross gcc and glibc,
#                             their libsodium (and so their libc6, whose
#                             loader qemu-user runs the tests with), qemu-user
#   install-deps.sh --musl    `make musl-deps`, the library's level and
#                             musl's compiler and C library (musl-tools:
#                             make musl, mk/musl.mk)
#   install-deps.sh --android `make android-deps`, the library's level and
#                             the compiler helpers of Android's CPUs (Debian's
#                             cross libgcc of arm64, armel and i386: make
#                             android, mk/android.mk; clang, lld and the
#                             bionic headers come with the toolchain and
#                             third_party/aosp/)
#   install-deps.sh --docs    `make docs-deps`, what test-docs needs
#                             (mk/docs.mk): a clang to read the header's
#                             documentation comments (Debian's, only when
#                             the Swift toolchain has none beside swiftc
#                             and none is on PATH), groff for the man pages
#   install-deps.sh --test-python
#                             `make check`'s Python suite: pytest and
#                             hypothesis from PyPI
#   install-deps.sh --test    `make test-deps`, everything `make test` needs:
#                             all of the above, the bindings' runtimes (a
#                             JDK, Mono, nuget, LuaJIT and luarocks, LÖVE,
#                             Xvfb), Kotlin's compiler and ProGuard (the
#                             Android examples and the AAR's rules) and
#                             the Python test packages (the
#                             wheel's tools come from PyPI into their own
#                             virtual environment: mk/wheel.mk)
set -eu

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# apt_update: refresh the package lists. A mirror in the middle of a sync
# can serve one stale index ("File has unexpected size ... Mirror sync in
# progress?"), and apt-get update then exits 100 although every package
# this script wants may still be installable from the lists it did get.
# So: warn, retry once, and go on; apt_install is what fails, naming the
# packages it could not install.
apt_update() {
    as_root apt-get update -qq && return 0
    echo "install-deps: warning: apt-get update failed; retrying once" >&2
    sleep "${IDLELOCK_APT_RETRY_SECONDS:-5}"
    as_root apt-get update -qq && return 0
    echo "install-deps: warning: apt-get update failed again; trying the install with the package lists apt has" >&2
}

# apt_install [--no-install-recommends] PACKAGE...: install them; on
# failure, stop naming the ones that are still missing.
apt_install() {
    opt=""
    [ "$1" != --no-install-recommends ] || { opt=$1; shift; }
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $opt "$@" >/dev/null && return 0
    still=""
    for p in "$@"; do installed "$p" || still="$still $p"; done
    echo "install-deps: could not install:${still:- $*} (apt-get install failed; see its message above)" >&2
    exit 1
}

c_tests=0
test_python=0
cross=0
musl=0
android=0
docs=0
test=0
for arg in "$@"; do
    case "$arg" in
        --c-tests) c_tests=1 ;;
        --cross) cross=1 ;;
        --musl) musl=1 ;;
        --android) android=1 ;;
        --docs) docs=1 ;;
        --test-python) test_python=1 ;;
        --test) c_tests=1; cross=1; musl=1; android=1; docs=1; test=1 ;;
        *) echo "install-deps: unknown option $arg (known: --c-tests, --cross, --musl, --android, --docs, --test-python, --test)" >&2; exit 2 ;;
    esac
done

missing=""
[ -f /usr/include/sodium.h ] || missing="$missing libsodium-dev"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
if [ "$c_tests" = 1 ]; then
    command -v g++ >/dev/null 2>&1 || missing="$missing g++"
    command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
    command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
fi

new_arch=0
if [ "$cross" = 1 ]; then
    for arch in arm64 armhf; do
        if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
            echo "install-deps: adding the $arch architecture"
            as_root dpkg --add-architecture "$arch"
            new_arch=1
        fi
    done
    for p in gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-armhf-cross \
             libsodium-dev:arm64 libsodium-dev:armhf qemu-user; do
        installed "$p" || missing="$missing $p"
    done
fi

if [ "$musl" = 1 ]; then
    installed musl-tools || missing="$missing musl-tools"
fi

if [ "$android" = 1 ]; then
    for p in libgcc-12-dev-arm64-cross libgcc-12-dev-armel-cross libgcc-12-dev-i386-cross; do
        installed "$p" || missing="$missing $p"
    done
fi

if [ "$docs" = 1 ]; then
    swiftc_dir=$(dirname "$(readlink -f "$(command -v swiftc 2>/dev/null || echo /nonexistent/swiftc)")")
    if [ ! -x "$swiftc_dir/clang" ] && ! command -v clang >/dev/null 2>&1; then
        missing="$missing clang"
    fi
    command -v groff >/dev/null 2>&1 || missing="$missing groff-base"
fi

if [ -n "$missing" ] || [ "$new_arch" = 1 ]; then
    echo "install-deps: installing$missing"
    apt_update
    # shellcheck disable=SC2086
    [ -z "$missing" ] || apt_install --no-install-recommends $missing
fi

if [ "$test" = 1 ]; then
    # The bindings' runtimes (make test-java, test-csharp, test-luajit):
    # a JDK (javac, jar, jni.h), Mono's compiler and runtime, LuaJIT, LÖVE,
    # and a virtual X server for the LÖVE demo.
    runtimes=""
    { command -v javac && command -v jar && command -v java; } >/dev/null 2>&1 \
        || runtimes="$runtimes openjdk-17-jdk-headless"
    command -v mcs >/dev/null 2>&1 || runtimes="$runtimes mono-mcs"
    # make nuget's netstandard2.0 assembly: .NET Framework 4.7.1's reference
    # assemblies, Mono's netstandard facade and Mono.Cecil (mk/csharp.mk).
    [ -f /usr/lib/mono/4.7.1-api/Facades/netstandard.dll ] || runtimes="$runtimes mono-devel"
    command -v mono >/dev/null 2>&1 || runtimes="$runtimes mono-runtime"
    command -v nuget >/dev/null 2>&1 || runtimes="$runtimes nuget"  # make nuget, test-nuget
    command -v luajit >/dev/null 2>&1 || runtimes="$runtimes luajit"
    # luarocks: make rock packs the LuaJIT binding, test-rock installs it.
    command -v luarocks >/dev/null 2>&1 || runtimes="$runtimes luarocks"
    command -v love >/dev/null 2>&1 || runtimes="$runtimes love"
    command -v xvfb-run >/dev/null 2>&1 || runtimes="$runtimes xvfb"
    command -v xauth >/dev/null 2>&1 || runtimes="$runtimes xauth"
    # test-jar unpacks the jar to check what it carries, and installs it into
    # a local Maven repository and builds a Maven project with it, offline:
    # Maven and the plugins it runs from Debian's maven-repo.
    command -v unzip >/dev/null 2>&1 || runtimes="$runtimes unzip"
    command -v mvn >/dev/null 2>&1 || runtimes="$runtimes maven"
    for plugin in install compiler resources; do
        [ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-$plugin-plugin ] \
            || runtimes="$runtimes libmaven-$plugin-plugin-java"
    done
    # (the compiler plugin's dependencies import JUnit 5's bill of materials)
    [ -d /usr/share/maven-repo/org/junit/junit-bom ] || runtimes="$runtimes junit5"
    # test-android: Kotlin's compiler for the README's Kotlin examples,
    # ProGuard (R8's rule language) for the AAR's consumer rules.
    command -v kotlinc >/dev/null 2>&1 || runtimes="$runtimes kotlin"
    command -v proguard >/dev/null 2>&1 || runtimes="$runtimes proguard-cli"
    if [ -n "$runtimes" ]; then
        echo "install-deps: installing$runtimes"
        apt_update
        # shellcheck disable=SC2086
        apt_install $runtimes
    fi
fi

if [ "$test" = 1 ] || [ "$test_python" = 1 ]; then
    if ! python3 -c "import pytest, hypothesis" >/dev/null 2>&1; then
        echo "install-deps: installing pytest and hypothesis"
        python3 -m pip install --quiet --disable-pip-version-check pytest hypothesis
    fi
fi

#!/bin/sh
# SPDX-License-Identifier: MIT
# check-build-tools.sh SWIFTC CC [TOOL...]: what `make lib` needs is here, or a
# message naming what to install. `make lib` and `make install` never run
# a package manager (`make deps`, `make demo` and `make test` do:
# scripts/install-deps.sh).
set -u
missing=""
command -v "$1" > /dev/null 2>&1 || missing="$missing
  $1: the Swift 6.3 toolchain (https://www.swift.org/install/linux/), with swiftc on PATH"
command -v "$2" > /dev/null 2>&1 || missing="$missing
  $2: a C compiler (Debian: apt-get install gcc)"
# TOOLs: the Swift toolchain's own, by path: lld links the library (the
# Makefile, target_ldflags_native) and llvm-objcopy takes the compiler's
# module hash out of its object (mk/target.mk); swift.org's toolchains ship
# them beside swiftc.
cc=$2
shift 2
for tool in "$@"; do
    [ -x "$tool" ] || missing="$missing
  $tool: the Swift toolchain's $(basename "$tool"), which swift.org's toolchains ship beside swiftc"
done
# libsodium's headers: the compiler's own search path decides (a header
# under /usr/local or a sysroot counts too).
if command -v "$cc" > /dev/null 2>&1 && ! printf '#include <sodium.h>\n' | "$cc" -E -x c - > /dev/null 2>&1; then
    missing="$missing
  sodium.h: libsodium's headers (Debian: apt-get install libsodium-dev)"
fi
if [ -n "$missing" ]; then
    echo "make lib: cannot build the library; missing:$missing
Install them, or run \`make deps\`, which installs them on Debian." >&2
    exit 1
fi

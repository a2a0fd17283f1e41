#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the instrumented copy of the library for the verify targets
# (mk/verify.mk: the fuzzers and the sanitized C tests), never the shipped
# one:
#
#   build-lib.sh OUT_DIR TOOLCHAIN SHIPPED_LIB SWIFTC SONAME SOURCES...
#
# The Swift code with AddressSanitizer and libFuzzer's coverage (swiftc
# -sanitize=address,fuzzer), the C support code with
# -fsanitize=address,undefined,fuzzer-no-link. A program without libFuzzer
# loads it too: the ASan runtime has no-op defaults for the coverage hooks.
#
# Embedded Swift has no UBSan; its own checks (overflow, bounds, unwrap) trap
# as they do in the shipped library, and a trap is a crash to libFuzzer.
# The instrumented library can only be linked with the sanitizer runtime of
# the same LLVM, so it is built only when TOOLCHAIN says the clang found is
# the Swift toolchain's (SWIFT_INSTRUMENT=1). Otherwise, or when swiftc
# cannot instrument, OUT_DIR gets a copy of the shipped library (the
# harnesses stay instrumented, the library does not) and OUT_DIR/MODE.txt
# says so.
set -eu
out="$1"; toolchain="$2"; shipped="$3"; swiftc="$4"; soname="$5"
shift 5
root=$(pwd)
. "$root/$toolchain"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/$soname" "$out/MODE.txt"

swift_san="-sanitize=address,fuzzer"
c_san="-fsanitize=address,undefined,fuzzer-no-link"

fallback() {
    echo "build-lib.sh: $1; $out/$soname is a copy of the shipped, uninstrumented library" >&2
    cp "$shipped" "$out/$soname"
    echo "uninstrumented: $1" > "$out/MODE.txt"
    exit 0
}

[ "${SWIFT_INSTRUMENT:-0}" = 1 ] || fallback "the clang found ($FUZZ_CC) is not the Swift toolchain's"

objects=""
for c in "$root"/Sources/CIdleLockSupport/*.c; do
    o="$out/$(basename "$c" .c).o"
    "$FUZZ_CC" -std=c11 -O1 -g -fPIC -fvisibility=hidden -Wall -Wextra -Werror $c_san \
        -fno-sanitize-recover=undefined -I"$root/Sources/CIdleLockSupport/include" -I"$root/include" \
        -c "$c" -o "$o" || fallback "the C support code did not build instrumented"
    objects="$objects $o"
done

sources=""
for s in "$@"; do sources="$sources $root/$s"; done
# Run from OUT_DIR: with -g, swiftc leaves module files in the current folder.
# shellcheck disable=SC2086
if ! (cd "$out" && "$swiftc" -enable-experimental-feature Embedded -wmo -parse-as-library -Osize -g \
        -module-name IdleLock $swift_san \
        -I "$root/include" -I "$root/Sources/CSystem" -I "$root/Sources/CIdleLockSupport/include" -Xcc -fPIC \
        -emit-library -o "$out/$soname.tmp" $sources $objects \
        -Xlinker -soname="$soname" -Xlinker --version-script="$root/idlelock.map" \
        -Xlinker -z -Xlinker now -Xlinker -z -Xlinker relro -lsodium); then
    fallback "swiftc $swift_san failed"
fi
rm -f "$out"/IdleLock*.swiftmodule "$out"/IdleLock*.swiftdoc "$out"/IdleLock*.swiftsourceinfo
if ! nm -D "$out/$soname.tmp" | grep -q ' U __asan_'; then
    rm -f "$out/$soname.tmp"
    fallback "swiftc $swift_san emitted no AddressSanitizer checks"
fi
if ! nm -D "$out/$soname.tmp" | grep -q ' U __sanitizer_cov'; then
    rm -f "$out/$soname.tmp"
    fallback "swiftc $swift_san emitted no coverage"
fi
mv "$out/$soname.tmp" "$out/$soname"
echo "instrumented: Swift $swift_san, C $c_san" > "$out/MODE.txt"
echo "build-lib.sh: $out/$soname: $(cat "$out/MODE.txt")"

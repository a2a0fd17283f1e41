#!/bin/sh
# SPDX-License-Identifier: MIT
# Finds a clang that can link libFuzzer with AddressSanitizer and UBSan, and
# writes shell assignments for the verify targets (mk/verify.mk) to $1
# ($2: the swiftc the build uses, default swiftc):
#
#   FUZZ_CC=...          the clang
#   FUZZ_LDFLAGS=...     extra link flags (-fuse-ld=lld when it is beside clang)
#   SWIFT_INSTRUMENT=1   this clang is the Swift toolchain's own (same LLVM as
#                        swiftc), so an ASan/libFuzzer-instrumented build of the
#                        Swift library can be linked with its runtime; else 0
#
# Order: $FUZZ_CC if set, the clang beside swiftc (the Swift toolchain ships
# libFuzzer and the sanitizer runtimes), then clang / clang-NN on PATH. Only
# when none works does it install Debian's clang and libclang-rt-14-dev (which
# holds libFuzzer) with apt-get, and try again.
set -eu
out="$1"
swiftc_name="${2:-swiftc}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return size > 0 && data[0] == 1;
}
EOF

# works CC LDFLAGS: can CC build and run a fuzzer with ASan and UBSan?
works() {
    "$1" $2 -fsanitize=fuzzer,address,undefined "$tmp/probe.c" -o "$tmp/probe" \
        >"$tmp/log" 2>&1 && "$tmp/probe" -runs=2 >>"$tmp/log" 2>&1
}

swift_clang=""
if command -v "$swiftc_name" >/dev/null 2>&1; then
    swiftc_path=$(command -v "$swiftc_name")
    swiftc_real=$(readlink -f "$swiftc_path" 2>/dev/null || echo "$swiftc_path")
    for d in "$(dirname "$swiftc_path")" "$(dirname "$swiftc_real")"; do
        if [ -x "$d/clang" ]; then swift_clang="$d/clang"; break; fi
    done
fi

pick() {
    for cand in ${FUZZ_CC:-} $swift_clang clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
        path=$(command -v "$cand" 2>/dev/null) || continue
        ldflags=""
        lld="$(dirname "$path")/ld.lld"
        if [ -x "$lld" ] && works "$path" "-fuse-ld=lld"; then
            ldflags="-fuse-ld=lld"
        elif ! works "$path" ""; then
            continue
        fi
        instrument=0
        if [ -n "$swift_clang" ] && [ "$(readlink -f "$path")" = "$(readlink -f "$swift_clang")" ]; then
            instrument=1
        fi
        {
            echo "FUZZ_CC='$path'"
            echo "FUZZ_LDFLAGS='$ldflags'"
            echo "SWIFT_INSTRUMENT=$instrument"
        } > "$out"
        echo "find-clang: using $path ($("$path" --version | head -n 1)) $ldflags, Swift instrumentation $instrument"
        return 0
    done
    return 1
}

if pick; then exit 0; fi

echo "find-clang: no clang with libFuzzer found; installing clang libclang-rt-14-dev"
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
if pick; then exit 0; fi
echo "find-clang: still no clang that links -fsanitize=fuzzer,address,undefined:"
cat "$tmp/log"
exit 1

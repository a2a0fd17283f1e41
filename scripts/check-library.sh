#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks a built library: its exported symbols are exactly the functions
# declared in the header, it needs no Swift runtime, its soname, what it
# needs from the system (NEEDED), and how it is linked (no text
# relocations, bind-now, a stack that is not executable, no section that
# changes with the build folder). Prints one line
# per check and "N passed, N failed".
#
#   check-library.sh [--self-contained] [--libc musl|bionic] [--strip TOOL] [--size-goal BYTES] LIB HEADER
#
# The default is the system variant, libidlelock.so.<major>: NEEDED may list
# libsodium besides the C library. --self-contained checks the variant with
# libsodium linked in (libidlelock.so, docs/PLATFORMS.md): soname
# libidlelock.so, NEEDED only the C library (libc, glibc's libpthread, the
# loader), and no libsodium symbol exported or needed. --strip names the
# strip of the library's CPU (the size line; the host's strip reads only
# the host's CPU); --size-goal fails when the stripped library is larger.
# --libc musl: the library is built for musl (mk/musl.mk), whose C library
# is the one file libc.so (also its loader); --libc bionic: for Android
# (docs/PLATFORMS.md), whose C library is libc.so, libm.so and libdl.so.
# Reads any CPU's ELF with the host's nm and readelf.
set -u
variant=system
strip_tool=strip
size_goal=
libc='libc\.so\.6|libpthread\.so\.0|ld-linux[-a-z0-9_.]*\.so\.[0-9]+'
libc_what="libc, libpthread, the loader"
while [ $# -gt 2 ]; do
    case "$1" in
        --self-contained) variant=self-contained; shift ;;
        --libc)
            case "$2" in
                musl) libc='libc\.so'; libc_what="musl's libc.so" ;;
                bionic) libc='libc\.so|libm\.so|libdl\.so'; libc_what="bionic's libc.so, libm.so, libdl.so" ;;
                *) echo "check-library.sh: unknown C library $2 (musl or bionic)" >&2; exit 2 ;;
            esac
            shift 2 ;;
        --strip) strip_tool="$2"; shift 2 ;;
        --size-goal) size_goal="$2"; shift 2 ;;
        *) echo "check-library.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
lib="$1"
header="$2"
passed=0
failed=0
check() {
    if [ "$2" = ok ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -oE '\bidlelock_[a-z_]+\(' "$header" | tr -d '(' | sort -u > "$tmp/header"
nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$tmp/exported"
if diff -u "$tmp/header" "$tmp/exported" >"$tmp/diff"; then
    check "exported symbols are exactly the header's $(wc -l < "$tmp/header") functions" ok
else
    cat "$tmp/diff"
    check "exported symbols are exactly the header's functions" fail
fi

readelf -dW "$lib" > "$tmp/dynamic"
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$tmp/dynamic" | tr '\n' ' ')
if [ "$variant" = self-contained ]; then allowed="$libc"; what="the C library ($libc_what)"
else allowed="$libc|libsodium\.so\.[0-9]+"; what="the C library ($libc_what) and libsodium"; fi
bad=$(echo "$needed" | tr ' ' '\n' | grep -vE "^($allowed)?\$" || true)
if [ -z "$bad" ]; then check "NEEDED is only $what: $needed" ok; else check "unexpected NEEDED entries: $bad" fail; fi

if [ "$variant" = self-contained ]; then
    sodium=$(nm -D "$lib" | grep -E ' (sodium_|crypto_|randombytes_)' | awk '{print $NF}' | tr '\n' ' ')
    if [ -z "$sodium" ]; then check "libsodium is inside: no libsodium symbol exported or needed" ok
    else check "libsodium symbols in the dynamic table: $sodium" fail; fi
fi

if nm -D "$lib" | grep -qi swift; then check "no Swift runtime symbol referenced" fail; else check "no Swift runtime symbol referenced or exported" ok; fi

soname=$(sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p' "$tmp/dynamic")
major=$(sed -n 's/^#define IDLELOCK_VERSION_MAJOR \([0-9]*\)/\1/p' "$header")
if [ "$variant" = self-contained ]; then
    # Flat plugin folders (Android's jniLibs, Unity's Plugins) load lib<name>.so.
    if [ "$soname" = "libidlelock.so" ]; then check "soname $soname (flat plugin folders)" ok; else check "soname '$soname', expected libidlelock.so" fail; fi
else
    if [ "$soname" = "libidlelock.so.$major" ]; then check "soname $soname matches IDLELOCK_VERSION_MAJOR" ok; else check "soname '$soname' vs major '$major'" fail; fi
fi

if grep -q '(TEXTREL)' "$tmp/dynamic"; then check "text relocations (not built position-independent)" fail
else check "no text relocations" ok; fi
if grep -qE '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' "$tmp/dynamic"; then check "bound at load (-z now)" ok
else check "not linked with -z now" fail; fi
stack=$(readelf -lW "$lib" | awk '$1 == "GNU_STACK" {print $(NF-1)}')
if [ "$stack" = RW ]; then check "stack not executable (GNU_STACK RW)" ok
else check "GNU_STACK is '$stack', expected RW" fail; fi

# The compiler's module hash differs from one build folder to another
# (mk/target.mk removes it): with it, the same commit built in two
# checkouts gives two libraries.
if readelf -SW "$lib" | grep -q '[.]swift_modhash'; then
    check "a .swift_modhash section (swiftc's module hash, which changes with the build folder; mk/target.mk removes it)" fail
else check "no .swift_modhash section (the same sources give the same bytes in any build folder)" ok; fi

stripped="$tmp/stripped.so"
if "$strip_tool" -o "$stripped" "$lib" 2>"$tmp/strip.err"; then
    size=$(wc -c < "$stripped")
    if [ -z "$size_goal" ]; then echo "info stripped size: $size bytes"
    elif [ "$size" -le "$size_goal" ]; then check "stripped size $size bytes (goal <= $size_goal)" ok
    else check "stripped size $size bytes, over the goal of $size_goal" fail; fi
else
    check "$strip_tool could not strip $lib: $(cat "$tmp/strip.err")" fail
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the shipped library against the committed ABI baseline:
#
#   check-abi.sh LIB HEADER BASELINE_DIR
#
#  - the exported symbols (nm -D --defined-only LIB) are exactly the ones in
#    BASELINE_DIR/exported-symbols.txt: a removed one is an incompatible
#    change (needs a new soname), an added one a compatible change the
#    baseline must record (and IDLELOCK_VERSION_MINOR must count);
#  - the major recorded in the baseline, LAYOUT_BASELINE_MAJOR in
#    test_layout.c, IDLELOCK_VERSION_MAJOR in the header and the soname
#    (libidlelock.so.MAJOR) are one number: an incompatible change fails
#    unless the baseline and the soname are bumped together;
#  - with a clang on PATH: test_layout.c's i386, ILP32 (armv7) and LP64
#    (aarch64) tables hold at compile time for those targets;
#  - with abidiff on PATH (Debian abigail-tools, optional, not installed
#    here): the ELF ABI against BASELINE_DIR/libidlelock.abi (symbols,
#    soname and NEEDED only: the library is Swift, without DWARF for the C
#    structs, which test_layout.c covers instead).
# Prints one line per check and "N passed, N failed".
set -u
lib="$1"
header="$2"
dir="$3"
baseline="$dir/exported-symbols.txt"
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

base_major=$(sed -n 's/^major \([0-9][0-9]*\)$/\1/p' "$baseline")
base_soname=$(sed -n 's/^soname \(.*\)$/\1/p' "$baseline")
header_major=$(sed -n 's/^#define IDLELOCK_VERSION_MAJOR \([0-9]*\)/\1/p' "$header")
layout_major=$(sed -n 's/^#define LAYOUT_BASELINE_MAJOR \([0-9]*\)/\1/p' "$dir/test_layout.c")
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')

if [ -n "$base_major" ] && [ "$base_major" = "$header_major" ]; then
    ok "baseline major $base_major == IDLELOCK_VERSION_MAJOR $header_major"
else
    bad "baseline major '$base_major' != IDLELOCK_VERSION_MAJOR '$header_major': bump the baseline (exported-symbols.txt, test_layout.c) and the soname together"
fi
if [ "$layout_major" = "$base_major" ]; then
    ok "test_layout.c LAYOUT_BASELINE_MAJOR $layout_major == exported-symbols.txt major $base_major"
else
    bad "test_layout.c LAYOUT_BASELINE_MAJOR '$layout_major' != exported-symbols.txt major '$base_major'"
fi
if [ "$soname" = "libidlelock.so.$header_major" ] && [ "$soname" = "$base_soname" ]; then
    ok "soname $soname == libidlelock.so.<major> == baseline soname"
else
    bad "soname '$soname', header major '$header_major', baseline soname '$base_soname': they must agree"
fi

grep -E '^idlelock_[a-z0-9_]+$' "$baseline" | sort -u > "$tmp/baseline"
nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$tmp/exported"
removed=$(comm -23 "$tmp/baseline" "$tmp/exported" | tr '\n' ' ')
added=$(comm -13 "$tmp/baseline" "$tmp/exported" | tr '\n' ' ')
if [ -z "$removed" ]; then
    ok "no baseline symbol removed ($(wc -l < "$tmp/baseline") in the baseline)"
else
    bad "symbols removed: $removed-- incompatible: needs a new major (soname) and a new baseline"
fi
if [ -z "$added" ]; then
    ok "no symbol exported beyond the baseline ($(wc -l < "$tmp/exported") exported)"
else
    bad "symbols added: $added-- compatible: add them to $baseline (and count them in IDLELOCK_VERSION_MINOR)"
fi

# The other data models' layout tables, at compile time.
if command -v clang >/dev/null 2>&1; then
    for target in i686-linux-gnu armv7-linux-gnueabihf aarch64-linux-gnu; do
        if clang --target="$target" -ffreestanding -fsyntax-only -std=c99 -Wall -Werror -DLAYOUT_STATIC \
            -I"$(dirname "$header")" "$dir/test_layout.c" 2>"$tmp/err"; then
            ok "layout tables hold for $target (clang -fsyntax-only)"
        else
            sed 's/^/     /' "$tmp/err" | head -n 20
            bad "layout tables do not hold for $target"
        fi
    done
else
    echo "skip cross-target layout checks: no clang on PATH"
fi

if command -v abidiff >/dev/null 2>&1 && [ -f "$dir/libidlelock.abi" ]; then
    abidiff --no-show-locs "$dir/libidlelock.abi" "$lib" > "$tmp/abidiff" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
        ok "abidiff: no ELF ABI change against $dir/libidlelock.abi"
    else
        sed 's/^/     /' "$tmp/abidiff" | head -n 30
        bad "abidiff exit $rc (4: ABI change, 12: incompatible) against $dir/libidlelock.abi"
    fi
else
    echo "skip abidiff: not installed (Debian abigail-tools) or no $dir/libidlelock.abi"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

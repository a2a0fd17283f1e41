#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the oldest glibc each built library runs on: reads the versioned
# symbols the library needs (GLIBC_x.y in its dynamic symbol table) and
# fails when one is newer than FLOOR or is glibc-private. Prints one line per
# library, with the symbols that pin it, and "N passed, N failed".
#
#   check-glibc-floor.sh FLOOR LIB...
#
# The floor is 2.17 (manylinux2014): docs/PLATFORMS.md says what pins it,
# and Sources/CIdleLockSupport/glibc_floor*.c keep the calls that would need
# a newer glibc on their older entry points. A library that needs
# libsodium.so (the system variant) also needs that libsodium's glibc: the
# system's own, on the systems that install it.
set -u
floor="$1"
shift
passed=0
failed=0
newer() { # is version $1 newer than $2?
    [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]
}
for lib in "$@"; do
    syms=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep '@GLIBC_' | sort -u)
    private=$(echo "$syms" | grep '@GLIBC_PRIVATE' | tr '\n' ' ')
    above=$(echo "$syms" | grep -v '@GLIBC_PRIVATE' | while read -r s; do
        if newer "${s##*@GLIBC_}" "$floor"; then printf '%s ' "$s"; fi
    done)
    newest=$(echo "$syms" | sed -n 's/.*@GLIBC_\([0-9][0-9.]*\)$/\1/p' | sort -uV | tail -n 1)
    pins=$(echo "$syms" | grep "@GLIBC_$newest\$" | sed 's/@.*//')
    count=$(echo "$pins" | wc -l)
    pins=$(echo "$pins" | head -n 3 | tr '\n' ' ' | sed 's/ $//')
    [ "$count" -le 3 ] || pins="$pins and $((count - 3)) more (GLIBC_$newest is this CPU's first glibc)"
    if [ -z "$newest" ]; then
        failed=$((failed + 1)); echo "FAIL $lib: no versioned glibc symbol (not a glibc build?)"
    elif [ -n "$private" ] || [ -n "$above" ]; then
        failed=$((failed + 1)); echo "FAIL $lib needs glibc $newest, above the floor $floor: $above$private"
    else
        passed=$((passed + 1)); echo "ok   $lib needs glibc $newest (floor $floor), pinned by $pins"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

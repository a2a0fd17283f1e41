#!/bin/sh
# SPDX-License-Identifier: MIT
# check-symbols.sh GLUE ALLOWLIST: the glue's imports (nm -D
# --undefined-only, weak toolchain symbols aside) are libidlelock's
# functions and the libc functions in ALLOWLIST, nothing else. Quiet when
# they are.
set -u
glue="$1"
allow="$2"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
grep -v '^#' "$allow" | sort -u > "$tmp"
extra=$(nm -D --undefined-only "$glue" | awk '$1 == "U" {print $2}' | sed 's/@.*//' \
    | grep -v '^idlelock_' | sort -u | comm -23 - "$tmp" | tr '\n' ' ')
if [ -n "$extra" ]; then
    echo "FAIL $glue imports what the Android NDK's libc may not offer: $extra"
    exit 1
fi

#!/bin/sh
# SPDX-License-Identifier: MIT
# Rewrites the symbol baseline (and, with abidw, the ELF ABI baseline) from
# the library as it is now: run it only for a deliberate ABI change, and
# review the diff (make abi-baseline).
#
#   make-baseline.sh LIB HEADER BASELINE_DIR
set -eu
lib="$1"
header="$2"
dir="$3"
major=$(sed -n 's/^#define IDLELOCK_VERSION_MAJOR \([0-9]*\)/\1/p' "$header")
version=$(sed -n 's/^#define IDLELOCK_VERSION_STRING "\(.*\)"/\1/p' "$header")
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
{
    echo "# The ABI baseline of libidlelock: the symbols libidlelock.so.$major exports"
    echo "# (nm -D --defined-only), as of version $version. Tests/abi-baseline/check-abi.sh"
    echo "# compares the built library with it (make test-abi): a symbol removed is"
    echo "# an incompatible change (a new major: bump IDLELOCK_VERSION_MAJOR, the"
    echo "# soname, 'major' here and LAYOUT_BASELINE_MAJOR in test_layout.c"
    echo "# together); a symbol added is compatible but must be recorded here (and"
    echo "# counted in IDLELOCK_VERSION_MINOR). Remake with 'make abi-baseline'."
    echo "major $major"
    echo "soname $soname"
    nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort -u
} > "$dir/exported-symbols.txt"
echo "wrote $dir/exported-symbols.txt"
if command -v abidw >/dev/null 2>&1; then
    abidw --no-corpus-path "$lib" > "$dir/libidlelock.abi"
    echo "wrote $dir/libidlelock.abi"
else
    echo "abidw not installed (Debian abigail-tools): $dir/libidlelock.abi left as it was"
fi

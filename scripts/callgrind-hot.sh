#!/bin/sh
# Instructions per hot call of two builds of the library, counted by
# valgrind's callgrind (exact, unlike wall-clock ratios on a shared
# machine): the loop of bench/hot_instructions.c, built against the header
# and run on OLD_LIB then NEW_LIB (each a libidlelock.so.1, picked through
# LD_LIBRARY_PATH), N calls per case.
#
#   scripts/callgrind-hot.sh OLD_LIB NEW_LIB [N]
set -eu
old="$1"
new="$2"
n="${3:-20000}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$tmp/old" "$tmp/new"
cp "$old" "$tmp/old/libidlelock.so.1"
cp "$new" "$tmp/new/libidlelock.so.1"
${CC:-cc} -std=c99 -O2 -Wall -Wextra -Werror -I"$here/include" "$here/bench/hot_instructions.c" \
    -L"$tmp/new" -l:libidlelock.so.1 -o "$tmp/hot"
count() { # LIBDIR CASE -> instructions in hot_loop and below
    LD_LIBRARY_PATH="$1" valgrind --tool=callgrind --toggle-collect=hot_loop \
        --callgrind-out-file="$tmp/out" "$tmp/hot" "$2" "$n" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        exit 1
    }
    sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/out"
}
printf '%-24s %12s %12s %8s\n' "instructions per call" "old" "new" "change"
for c in touch touch_out check snapshot_get require_unlocked background_foreground; do
    a=$(count "$tmp/old" "$c")
    b=$(count "$tmp/new" "$c")
    awk -v c="$c" -v a="$a" -v b="$b" -v n="$n" \
        'BEGIN { printf "%-24s %12.1f %12.1f %+7.1f%%\n", c, a / n, b / n, (b - a) * 100 / a }'
done

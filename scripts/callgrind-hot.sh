#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per hot call, of the library and of its C baseline side by
# side, counted by valgrind's callgrind: an exact count, which other work
# on the machine does not move (unlike the wall-clock ratios of `make
# bench`). It runs section 1 of the benchmark itself (idlelock-bench
# --only CASE --iters N --rounds 1: the same handles, clock callback and
# baseline, and the check that the baseline's snapshot is the library's)
# under callgrind, collecting only inside its two timing loops, and reads
# the inclusive count of each side's function (`idlelock-bench --list`
# names them), divided by N. The goal is section 1's, HOT_GOAL_ONE in
# bench/bench.h.
#
#   scripts/callgrind-hot.sh [--smoke] BENCH LIB [OLD_LIB]
#
# BENCH is build/bench/idlelock-bench, LIB the libidlelock.so.1 to count
# (loaded through LD_LIBRARY_PATH, so any build of the same header will
# do); with OLD_LIB, that build's counts too, and the change. CALLS
# (default 20000) sets N. --smoke: 200 calls, no goal judged (make
# bench-smoke: it shows the script still runs).
set -eu
smoke=0
if [ "${1:-}" = --smoke ]; then
    smoke=1
    shift
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 [--smoke] BENCH LIB [OLD_LIB]" >&2
    exit 2
fi
bench="$1"
lib="$2"
old="${3:-}"
n="${CALLS:-20000}"
[ "$smoke" -eq 0 ] || n=200
here=$(cd "$(dirname "$0")/.." && pwd)
goal=$(sed -n 's/^#define HOT_GOAL_ONE //p' "$here/bench/bench.h")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/new" "$tmp/old"
cp "$lib" "$tmp/new/libidlelock.so.1"
[ -z "$old" ] || cp "$old" "$tmp/old/libidlelock.so.1"

# run LIBDIR CASE: callgrind's output for CASE in $tmp/out
run() {
    LD_LIBRARY_PATH="$1" valgrind --tool=callgrind --toggle-collect=loop_lib --toggle-collect=loop_base \
        --callgrind-out-file="$tmp/out" "$bench" --only "$2" --iters "$n" --rounds 1 \
        >"$tmp/log" 2>&1 || {
        echo "callgrind-hot: $2 failed:" >&2
        cat "$tmp/log" >&2
        exit 1
    }
    callgrind_annotate --inclusive=yes --threshold=100 "$tmp/out" >"$tmp/annotated"
}

# per_call FUNCTION: its inclusive instructions in $tmp/annotated, per call
per_call() {
    awk -v fn="$1" -v n="$n" '
        { name = $3; sub(/^.*:/, "", name) }
        name == fn { gsub(",", "", $1); if ($1 + 0 > best) best = $1 + 0; found = 1 }
        END { if (!found) exit 1; printf "%.1f\n", best / n }' "$tmp/annotated" || {
        echo "callgrind-hot: no count for $1 (is it still in bench/hot_calls.c?)" >&2
        exit 1
    }
}

printf 'Instructions per call (valgrind --tool=callgrind, %s calls of each side in section 1'"'"'s\n' "$n"
printf 'setup; inclusive: everything the call runs, the clock callback and the mutex too).\n'
if [ "$smoke" -eq 1 ]; then
    printf 'Smoke run (--smoke): tiny counts, no goal judged.\n'
else
    printf 'Goal: ratio <= %sx.\n' "$goal"
fi
if [ -n "$old" ]; then
    printf '   %-28s %9s %9s %8s %9s %7s  %s\n' call "old lib" lib change base ratio goal
else
    printf '   %-28s %9s %9s %9s %7s  %s\n' call lib base lib-base ratio goal
fi
"$bench" --list >"$tmp/cases"
missed=0
while read -r key lib_fn base_fn label; do
    run "$tmp/new" "$key"
    l=$(per_call "$lib_fn")
    b=$(per_call "$base_fn")
    o=
    if [ -n "$old" ]; then
        run "$tmp/old" "$key"
        o=$(per_call "$lib_fn")
    fi
    line=$(awk -v label="$label" -v l="$l" -v b="$b" -v o="$o" -v goal="$goal" -v smoke="$smoke" 'BEGIN {
        r = l / b
        verdict = smoke ? "-" : (r <= goal + 0 ? "met" : "MISSED")
        if (o != "")
            printf "   %-28s %9.1f %9.1f %+7.1f%% %9.1f %6.2fx  %s\n", label, o, l, (l - o) * 100 / o, b, r, verdict
        else
            printf "   %-28s %9.1f %9.1f %+9.1f %6.2fx  %s\n", label, l, b, l - b, r, verdict
    }')
    echo "$line"
    case "$line" in *MISSED) missed=$((missed + 1)) ;; esac
done <"$tmp/cases"
[ "$smoke" -eq 1 ] || [ "$missed" -eq 0 ] || printf '%s of the calls above miss the goal.\n' "$missed"

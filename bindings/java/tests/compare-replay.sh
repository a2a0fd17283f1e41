#!/bin/sh
# SPDX-License-Identifier: MIT
# compare-replay.sh C-REPLAY JAVA-COMMAND TRACE...: the traces through the
# Java API (org.idlelock.tests.Replay, JAVA-COMMAND is the java command
# line that runs it) give exactly what the C replay tool gives: both print
# every event line (time, status, state, reason, attempts, flags, until_idle,
# values) and every expect mismatch; the outputs must be the same, trace by
# trace, and each tool must pass its expects. Prints one line per trace that
# differs (with the diff) and "N passed, N failed" (one check per trace,
# one for the totals).
set -u
c_tool=$1 java_cmd=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-replay.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$c_tool" "$@" > "$tmp/c.out" 2> "$tmp/c.err"
c_rc=$?
# shellcheck disable=SC2086 # a command line
$java_cmd "$@" > "$tmp/j.out" 2> "$tmp/j.err"
j_rc=$?
passed=0 failed=0
for f in "$@"; do
    # The block of one trace: from its "== FILE:" header to its "-- FILE:" footer.
    awk -v f="$f" 'index($0, "== " f ":") == 1 {on = 1} on {print} index($0, "-- " f ":") == 1 {on = 0}' "$tmp/c.out" > "$tmp/c.one"
    awk -v f="$f" 'index($0, "== " f ":") == 1 {on = 1} on {print} index($0, "-- " f ":") == 1 {on = 0}' "$tmp/j.out" > "$tmp/j.one"
    if [ -s "$tmp/c.one" ] && cmp -s "$tmp/c.one" "$tmp/j.one"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $f: the Java API replays it otherwise than the C tool (< C, > Java):"
        diff "$tmp/c.one" "$tmp/j.one" | head -n 40
    fi
done
if [ "$c_rc" -eq 0 ] && [ "$j_rc" -eq 0 ] && cmp -s "$tmp/c.out" "$tmp/j.out"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "FAIL the totals or exit statuses differ (C $c_rc, Java $j_rc):"
    tail -n 1 "$tmp/c.out"; cat "$tmp/c.err"
    tail -n 1 "$tmp/j.out"; cat "$tmp/j.err"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

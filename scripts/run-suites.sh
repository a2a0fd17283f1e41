#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs test suites JOBS at a time and reports them in the order given:
#
#   run-suites.sh LABEL LOGDIR JOBS TIMEOUT < suites
#
# Each line of stdin is "NAME|COMMAND" (COMMAND runs under sh from the
# current folder, its output into LOGDIR/<n>.log, killed after TIMEOUT
# seconds). Prints per suite its own summary ("N passed, N failed", or the
# replay tool's "... N expects, N failed") and any "skip" or "info" line it
# printed;
# a suite that failed also gets its FAIL lines or, without any, the tail of
# its log. Ends with the checks of all suites added up: "N passed, N failed"
# (a suite that failed without a count adds one failure).
set -u
label="$1"; logdir="$2"; jobs="$3"; limit="$4"
rm -rf "$logdir"
mkdir -p "$logdir"
n=0
while IFS='|' read -r name command; do
    [ -n "$name" ] || continue
    n=$((n + 1))
    id=$(printf '%03d' "$n")
    printf '%s\n' "$name" > "$logdir/$id.name"
    printf '%s\n' "$command" > "$logdir/$id.cmd"
done
start=$(date +%s)
ls "$logdir"/*.cmd | xargs -P "$jobs" -n 1 sh -c '
    limit="$1"; cmd="$2"; base="${cmd%.cmd}"; start=$(date +%s)
    timeout -k 10 "$limit" sh "$cmd" > "$base.log" 2>&1
    echo $? > "$base.rc"
    echo $(( $(date +%s) - start )) > "$base.time"' run-suite "$limit"

total_passed=0
total_failed=0
suites_failed=0
for cmd in "$logdir"/*.cmd; do
    base="${cmd%.cmd}"
    name=$(cat "$base.name")
    rc=$(cat "$base.rc" 2>/dev/null || echo 125)
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$base.log" | tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
    else
        replay=$(grep -E '^idlelock-replay: .* ([0-9]+) expects, ([0-9]+) failed$' "$base.log" | tail -n 1)
        if [ -n "$replay" ]; then
            f=${replay##*expects, }; f=${f%% failed}
            e=${replay% expects*}; e=${e##* }
            p=$((e - f)); line="$replay"
        else
            p=0; f=0; line="(no summary line)"
        fi
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    [ "$rc" -eq 124 ] && line="$line; TIMED OUT after $limit s"
    total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
    line="$line ($(cat "$base.time" 2>/dev/null || echo ?) s)"
    if [ "$rc" -eq 0 ]; then echo "ok   $name: $line"; else suites_failed=$((suites_failed + 1)); echo "FAIL $name: $line, exit $rc"; fi
    grep -E '^(skip|info) ' "$base.log" | sed 's/^/     /'
    if [ "$rc" -ne 0 ]; then
        if grep -qE '^FAIL' "$base.log"; then grep -E -A3 '^FAIL' "$base.log" | head -n 60 | sed 's/^/     /'
        else tail -n 30 "$base.log" | sed 's/^/     /'; fi
        echo "     (whole log: $base.log)"
    fi
done
echo "$label: $n suites, $suites_failed failed, $(( $(date +%s) - start )) s"
echo "$total_passed passed, $total_failed failed"
[ "$suites_failed" -eq 0 ]

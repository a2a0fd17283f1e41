#!/bin/sh
# make-test.sh RESULTS SUITE...: what `make test` runs after the build.
#
# Runs `$MAKE SUITE` for each suite in turn, also when an earlier one
# failed, showing its output and keeping it in RESULTS/SUITE.log; then
# prints one table of every suite's last "N passed, N failed" line, and
# exits 1 when a suite failed: it exited non-zero, printed no such line, or
# its line counts a failure. RESULTS/SUITE holds the suite's exit status
# and that line.
set -u
results=$1
shift
make=${MAKE:-make}
count_re='[0-9][0-9]* passed, [0-9][0-9]* failed$'

rm -rf "$results"
mkdir -p "$results"
for suite in "$@"; do
    echo "==== $suite"
    log="$results/$suite.log"
    { $make --no-print-directory "$suite"; echo $? > "$log.rc"; } 2>&1 | tee "$log"
    rc=$(cat "$log.rc" 2>/dev/null || echo 1)
    rm -f "$log.rc"
    line=$(grep -E "$count_re" "$log" | tail -n 1 | sed -E 's/^.*[^0-9]([0-9]+ passed, )/\1/')
    printf '%s\t%s\n' "$rc" "$line" > "$results/$suite"
done

total=0
bad=""
echo
echo "make test: every suite's result (logs in $results/)"
for suite in "$@"; do
    total=$((total + 1))
    rc=$(cut -f1 "$results/$suite")
    line=$(cut -f2 "$results/$suite")
    failed=$(echo "$line" | sed -E 's/^.* ([0-9]+) failed$/\1/')
    if [ -z "$line" ]; then
        verdict="FAILED: no \"N passed, N failed\" line (exit $rc)"
    elif [ "$rc" -ne 0 ]; then
        verdict="$line  FAILED (exit $rc)"
    elif [ "$failed" -ne 0 ]; then
        verdict="$line  FAILED"
    else
        verdict="$line"
    fi
    case $verdict in
        *FAILED*) bad="$bad $suite" ;;
    esac
    printf '  %-20s %s\n' "$suite" "$verdict"
done
if [ -n "$bad" ]; then
    set -- $bad
    echo "make test: $# of $total suites FAILED:$bad"
    exit 1
fi
echo "make test: all $total suites passed"

#!/bin/sh
# SPDX-License-Identifier: MIT
# make-test.sh RESULTS SUITE...: what `make test` runs after the build.
#
# Runs `$MAKE SUITE` for each suite, also when an earlier one failed,
# showing its output and keeping it in RESULTS/SUITE.log; then prints one
# table of every suite's last "N passed, N failed" line, and exits 1 when a
# suite failed: it exited non-zero, printed no such line, or its line counts
# a failure. RESULTS/SUITE holds the suite's exit status and that line;
# RESULTS/times.tsv one line per suite: its name, its wall time and the CPU
# time its processes used (user + system), in seconds: which suites to look
# at when `make test` grows slow, and which of them mostly wait (CPU well
# under wall: those gain from TEST_JOBS).
#
# TEST_JOBS (environment, default 1; the Makefile's default is 2): how
# many suites run at once. TEST_LABEL: the name the table is printed under
# (default "make test").
#   1   one after the other, each shown as it runs.
#   N   first one make, N jobs wide, builds what the suites' rules list as
#       prerequisites (make knows what they share, so nothing is built twice
#       at once; a build that fails there fails again, shown, in its suite);
#       then the suites run N at a time, in the order given. The output is
#       the same as with 1, in the same order: the first suite not yet shown
#       is followed live, the others' logs are shown when their turn comes.
#       Suites that run at once share the cores, so a suite with its own
#       time limits (test-cross's qemu runs, test_store's alarm) has less
#       room; see docs/TESTING.md for what it saves.
set -u
make=${MAKE:-make}

# make-test.sh --one LOG SUITE (the script's own runner): `$MAKE SUITE`,
# then "WALL CPU" in seconds into LOG.time, CPU from `times` (the children
# this shell waited for: make and everything it ran). Exits with the
# suite's status.
if [ "${1:-}" = --one ]; then
    start=$(date +%s)
    $make --no-print-directory "$3"
    rc=$?
    wall=$(( $(date +%s) - start ))
    # `times` in this shell, not in a pipeline's subshell (which has waited
    # for no one): its second line is the children's "user system".
    times > "$2.time"
    cpu=$(sed -n '2{s/m/ /g;s/s//g;p;}' "$2.time" | awk '{ printf "%d", $1 * 60 + $2 + $3 * 60 + $4 + 0.5 }')
    echo "$wall $cpu" > "$2.time"
    exit "$rc"
fi

results=$1
shift
jobs=${TEST_JOBS:-1}
# The name the table is printed under (`make check` sets it).
label=${TEST_LABEL:-make test}
count_re='[0-9][0-9]* passed, [0-9][0-9]* failed$'
case $jobs in
    ''|*[!0-9]*|0) echo "make-test: TEST_JOBS must be a number from 1 up, not \"$jobs\"" >&2; exit 2 ;;
esac

rm -rf "$results"
mkdir -p "$results"
: > "$results/times.tsv"

# summarize SUITE: RESULTS/SUITE from its log and exit status.
summarize() {
    log="$results/$1.log"
    rc=$(cat "$log.rc" 2>/dev/null || echo 1)
    rm -f "$log.rc"
    line=$(grep -E "$count_re" "$log" | tail -n 1 | sed -E 's/^.*[^0-9]([0-9]+ passed, )/\1/')
    printf '%s\t%s\n' "$rc" "$line" > "$results/$1"
    if [ -f "$log.time" ]; then times=$(tr ' ' '\t' < "$log.time"); else times=$(printf '?\t?'); fi
    printf '%s\t%s\n' "$1" "$times" >> "$results/times.tsv"
    rm -f "$log.time"
}

if [ "$jobs" -eq 1 ]; then
    for suite in "$@"; do
        echo "==== $suite"
        log="$results/$suite.log"
        { sh "$0" --one "$log" "$suite"; echo $? > "$log.rc"; } 2>&1 | tee "$log"
        summarize "$suite"
    done
else
    # The suites' prerequisites that are not suites themselves, from make's
    # database (the "# Files" part: one "target: prerequisites" line each).
    prereqs=$($make --no-print-directory -pq .idlelock-make-test-no-such-goal 2>/dev/null | awk -v suites=" $* " '
        /^# Files/ { files = 1 }
        /^# (Finished Make data base|VPATH Search Paths)/ { files = 0 }
        files && /^[^#\t][^:=]*:([^=]|$)/ {
            target = $1; sub(/:$/, "", target)
            if (index(suites, " " target " ") == 0) next
            for (i = 2; i <= NF; i++) {
                if ($i == "|") continue
                if (index(suites, " " $i " ") == 0 && !seen[$i]++) print $i
            }
        }')
    if [ -n "$prereqs" ]; then
        echo "==== build (what the suites need, $jobs jobs at once; log: $results/build.log)"
        # shellcheck disable=SC2086
        { $make --no-print-directory -k -j"$jobs" $prereqs; echo $? > "$results/build.log.rc"; } 2>&1 \
            | tee "$results/build.log" | grep -v -E "^make(\[[0-9]+\])?: '.*' is up to date\.$"
        [ "$(cat "$results/build.log.rc" 2>/dev/null || echo 1)" -eq 0 ] \
            || echo "make-test: a build failed (above); the suites that need it fail and show why"
        rm -f "$results/build.log.rc"
    fi

    # The runners: xargs starts the suites in order, TEST_JOBS at a time;
    # each writes SUITE.log.pid when it starts, then its log, its times and
    # its exit status (SUITE.log.rc, last).
    printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh -c '
        log="$1/$2.log"
        echo $$ > "$log.pid"
        sh "$0" --one "$log" "$2" > "$log" 2>&1
        echo $? > "$log.rc"' "$0" "$results" &
    runners=$!
    # The printer: each suite in order, followed live while it runs.
    # (A runner that died without its status counts as failed.)
    waitfor() { until [ -f "$1" ]; do kill -0 "$runners" 2>/dev/null || break; sleep 1; done; }
    for suite in "$@"; do
        log="$results/$suite.log"
        waitfor "$log.pid"
        echo "==== $suite"
        waitfor "$log"
        [ ! -f "$log.pid" ] || tail -n +1 -f --pid="$(cat "$log.pid")" "$log" 2>/dev/null
        waitfor "$log.rc"
        [ -f "$log.rc" ] || { echo "make-test: the runner of $suite ended without its status"; echo 1 > "$log.rc"; }
        touch "$log"
        rm -f "$log.pid"
        summarize "$suite"
    done
    wait "$runners"
fi

total=0
bad=""
echo
echo "$label: every suite's result (logs in $results/)"
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
    echo "$label: $# of $total suites FAILED:$bad"
    exit 1
fi
echo "$label: all $total suites passed"

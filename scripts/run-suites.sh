#!/bin/sh
# SPDX-License-Identifier: MIT
# run-suites.sh: the one test runner. A suite, a part of a suite and a
# step of one each end with the line "N passed, N failed"; this script
# runs them, keeps their output, and adds their counts up (docs/TESTING.md).
#
#   run-suites.sh make RESULTS SUITE...
#       `make test` and `make check`: builds what the suites' rules list as
#       prerequisites (one make, TEST_JOBS wide: make knows what they share,
#       so nothing is built twice at once; a build that fails there fails
#       again, shown, in its suite), then runs `$MAKE SUITE` for each,
#       TEST_JOBS at once (environment, default 1), in the order given, also
#       after one failed; the suites TEST_ALONE names (environment) run one
#       by one once all the others have ended. The output is the same for
#       any TEST_JOBS: each suite's in turn, the first one not yet shown
#       followed live. Ends
#       with one table of every suite's last count line (TEST_LABEL names
#       it, default "make test") and exits 1 when a suite exited non-zero,
#       printed no count line, or counted a failure. Kept in RESULTS:
#       SUITE.log, its output; SUITE, its exit status and count line;
#       build.log, the build's output; times.tsv, one line per suite and one
#       named "build": its name, its wall time and the CPU time its
#       processes used (user + system), in seconds (which suites to look at
#       when `make test` grows slow, and which mostly wait: CPU well under
#       wall).
#
#   run-suites.sh each LABEL LOGDIR JOBS TIMEOUT < parts
#       One suite made of parts that may run at once (test-cross: each
#       program on each CPU). Each line of stdin is "NAME|COMMAND" (COMMAND
#       runs under sh from the current folder, killed after TIMEOUT
#       seconds), JOBS at a time. A passing suite prints one count line,
#       its parts' counts added up (the replay tool's "... N expects, N
#       failed" counts as its expects); a part that failed is shown with
#       its FAIL lines or the tail of its log. LOGDIR/<n>.log holds each
#       part's output, LOGDIR/summary one line per part with its skip and
#       info lines (V=1 prints it).
#
#   run-suites.sh step TALLY COMMAND [ARG...]
#       One step of a suite of several (the Makefile's $(STEP)): runs
#       COMMAND (through env, so it may start with VAR=value words) and
#       adds its counts to TALLY (a step without a count line is one check,
#       passed when it exits 0). Shows the step and its output only when it
#       fails (V=1: always, as it runs); TALLY.log keeps every step's. A
#       failed step does not stop the suite's others: `end` reports it.
#   run-suites.sh end TALLY
#       The suite's count line, its steps' counts added up; fails when a
#       step failed or none ran. TALLY is removed.
#
# One rule for every count: a run's last "N passed, N failed" line, and a
# run that exits non-zero while claiming no failure counts one.
set -u
count_re='[0-9][0-9]* passed, [0-9][0-9]* failed$'

# counts FILE RC: sets passed, failed and line from FILE's last count line
# (line empty when it has none: passed and failed are then 0), then adds
# the failure a non-zero RC owes.
counts() {
    line=$(grep -E "$count_re" "$1" | tail -n 1)
    passed=0 failed=0
    if [ -n "$line" ]; then
        passed=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, [0-9]+ failed$/\2/')
        failed=$(echo "$line" | sed -E 's/^.* ([0-9]+) failed$/\1/')
        line=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+ passed, [0-9]+ failed)$/\2/')
    else
        replay=$(grep -E '^idlelock-replay: .* [0-9]+ expects, [0-9]+ failed$' "$1" | tail -n 1)
        if [ -n "$replay" ]; then
            failed=$(echo "$replay" | sed -E 's/^.* ([0-9]+) failed$/\1/')
            expects=$(echo "$replay" | sed -E 's/^.* ([0-9]+) expects, [0-9]+ failed$/\1/')
            passed=$((expects - failed))
            line=$replay
        fi
    fi
    if [ "$2" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
}

# job TIMEOUT BASE (the runner's own worker, one per suite or part):
# BASE.pid when it starts, then `sh BASE.cmd` (killed after TIMEOUT
# seconds, 0: never) with its output in BASE.log, "WALL CPU" in seconds in
# BASE.time (CPU from `times`: the children this shell waited for), and its
# exit status in BASE.rc, last. The command gets a private TMPDIR, removed
# when it ends (also when this job is stopped by a signal): what the
# toolchains leave in the temporary folder on every run (SwiftPM's
# TemporaryDirectory.* folders and lock files, the compiler's
# swift-generated-sources, pytest's pytest-of-USER, Hypothesis' cache) and
# a killed test's files do not pile up in /tmp. A suite run by itself
# (`make test-swift`) keeps the caller's TMPDIR, and what it leaves there.
if [ "${1:-}" = job ]; then
    limit=$2 base=$3 runner=${RUN_SUITES_RUNNER:-}
    echo $$ > "$base.pid"
    start=$(date +%s)
    private=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-$(basename "$base").XXXXXX") || {
        echo "run-suites: could not make a temporary folder in ${TMPDIR:-/tmp}" > "$base.log"
        echo "0 0" > "$base.time"; echo 1 > "$base.rc"; exit 0
    }
    # A test may leave a folder it made unwritable: chmod first. Not when
    # the test put a link in the folder's place: chmod follows a link it
    # is named (never one it finds inside), and would make writable every
    # folder of the one the link names; rm removes the link.
    cleanup() {
        [ -L "$private" ] || chmod -R u+rwx "$private" 2>/dev/null
        rm -rf "$private"
    }
    if [ "$limit" -gt 0 ]; then
        # timeout runs the command in a process group of its own (so that
        # it can end all of it): a signal to this job is passed on there.
        TMPDIR=$private timeout -k 10 "$limit" sh "$base.cmd" > "$base.log" 2>&1 &
        part=$!
        trap 'kill -TERM -$part 2>/dev/null; kill -TERM $part 2>/dev/null; cleanup; exit 143' INT TERM HUP
    else
        # (In the runners' process group: the runner's stop reaches it.)
        TMPDIR=$private sh "$base.cmd" > "$base.log" 2>&1 &
        part=$!
        trap 'kill -TERM $part 2>/dev/null; cleanup; exit 143' INT TERM HUP
    fi
    # A runner killed outright (SIGKILL: no trap of its runs) leaves its
    # runners, in a session of their own, with no one to stop them: xargs
    # would start every remaining suite for no one. So each job watches
    # the runner that started it, and when it is gone stops the runners'
    # whole process group, itself included (its trap then stops its
    # command and removes its TMPDIR).
    # (start() names the runner; a job run by hand has none to watch.)
    [ -z "$runner" ] || ( while kill -0 "$runner" 2>/dev/null; do sleep 1; done; kill -TERM 0 ) > /dev/null 2>&1 &
    watchdog=$!
    wait "$part"
    rc=$?
    [ -z "$runner" ] || kill "$watchdog" 2>/dev/null
    cleanup
    wall=$(( $(date +%s) - start ))
    # `times` in this shell, not in a pipeline's subshell (which has waited
    # for no one): its second line is the children's "user system".
    times > "$base.time"
    cpu=$(sed -n '2{s/m/ /g;s/s//g;p;}' "$base.time" | awk '{ printf "%d", $1 * 60 + $2 + $3 * 60 + $4 + 0.5 }')
    echo "$wall $cpu" > "$base.time"
    echo "$rc" > "$base.rc"
    exit 0
fi

# start JOBS TIMEOUT BASE...: runs every BASE.cmd, JOBS at a time, in the
# background ($runners waits for them all).
# The runners (xargs and the jobs it starts) run in a process group of
# their own; a runner stopped by a signal stops that group, so the suites it
# started do not run on without it, and nothing above it is touched. (Waits
# are `wait`, which a signal interrupts, so the stop is at once.)
# (Its own variable names: the callers' jobs and limit stay theirs.)
start() {
    start_jobs=$1 start_limit=$2
    shift 2
    start_list="$(dirname "$1")/.jobs"
    printf '%s\n' "$@" > "$start_list"
    RUN_SUITES_RUNNER=$$ setsid xargs -P "$start_jobs" -n 1 sh "$0" job "$start_limit" < "$start_list" 2>/dev/null &
    runners=$!
    trap 'trap - INT TERM HUP; kill -TERM -$runners 2>/dev/null; exit 143' INT TERM HUP
}
# orphaned: the make (or shell) that started this runner is gone; the
# runner then stops its runners and itself, instead of running every
# remaining suite for no one.
parent=$PPID
orphaned() {
    kill -0 "$parent" 2>/dev/null && return 1
    kill -TERM -"$runners" 2>/dev/null
    echo "run-suites: the process that started this run is gone; stopped" >&2
    exit 143
}
# waitfor FILE: until FILE exists or the runners are gone.
waitfor() { until [ -f "$1" ]; do kill -0 "$runners" 2>/dev/null || break; orphaned; sleep 1; done; }
# await PID: until PID, a child of this shell, has ended (polled, so that
# the run stops if its starter goes and a signal's trap runs at once).
await() { while kill -0 "$1" 2>/dev/null; do orphaned; sleep 1; done; wait "$1"; }
# follow PID LOG: LOG as it grows until PID ends.
follow() {
    tail -n +1 -f --pid="$1" "$2" 2>/dev/null &
    await $!
}

# fresh DIR: DIR emptied for this run. A folder that exists must be one
# this runner made (its mark .run-suites, or the logs of an earlier
# runner): RESULTS=build would otherwise remove the build.
fresh() {
    if [ -e "$1" ] && [ ! -e "$1/.run-suites" ] && [ ! -e "$1/times.tsv" ] && [ ! -e "$1/summary" ] && [ ! -e "$1/001.cmd" ] \
            && [ -n "$(ls -A "$1" 2>/dev/null)" ]; then
        echo "run-suites: $1 exists and holds files this runner did not write; name an empty or new folder" >&2
        exit 2
    fi
    rm -rf "$1"
    mkdir -p "$1"
    : > "$1/.run-suites"
}

jobs_of() {
    case $1 in
        [1-9]|[1-5][0-9]|6[0-4]) ;;
        *) echo "run-suites: TEST_JOBS must be a number from 1 to 64, not \"$1\"" >&2; exit 2 ;;
    esac
}

mode=${1:-}
[ $# -gt 0 ] && shift
case $mode in
step)
    tally=$1
    shift
    mkdir -p "$(dirname "$tally")"
    out=$(mktemp "${TMPDIR:-/tmp}/run-suites.XXXXXX")
    trap 'rm -f "$out" "$out.rc"' EXIT
    trap 'rm -f "$out" "$out.rc"; exit 143' INT TERM HUP
    if [ "${V:-}" = 1 ]; then
        echo "-- $*"
        { env "$@"; echo $? > "$out.rc"; } 2>&1 | tee "$out"
    else
        { env "$@"; echo $? > "$out.rc"; } > "$out" 2>&1
    fi
    { echo "-- $*"; cat "$out"; } >> "$tally.log"
    rc=$(cat "$out.rc" 2>/dev/null || echo 1)
    counts "$out" "$rc"
    if [ -z "$line" ]; then
        if [ "$rc" -eq 0 ]; then passed=1; else failed=1; fi
    fi
    if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ]; then
        if [ "${V:-}" != 1 ]; then
            echo "-- $*"
            cat "$out"
        fi
        [ "$rc" -eq 0 ] || echo "run-suites: step FAILED (exit $rc): $*"
    fi
    echo "$passed $failed" >> "$tally"
    ;;
end)
    tally=$1
    p=0 f=0
    if [ -f "$tally" ]; then
        while read -r a b; do p=$((p + a)) f=$((f + b)); done < "$tally"
        rm -f "$tally"
    fi
    if [ $((p + f)) -eq 0 ]; then
        echo "run-suites: no step ran (tally $tally)" >&2
        exit 1
    fi
    echo "$p passed, $f failed"
    [ "$f" -eq 0 ]
    ;;
each)
    label=$1 logdir=$2 jobs=$3 limit=$4
    jobs_of "$jobs"
    fresh "$logdir"
    n=0
    bases=""
    # (A last line without its newline counts too.)
    while IFS='|' read -r name command || [ -n "$name" ]; do
        [ -n "$name" ] || continue
        if [ -z "$command" ]; then
            echo "run-suites: a part with no command (\"NAME|COMMAND\" expected): $name" >&2
            exit 2
        fi
        n=$((n + 1))
        base=$logdir/$(printf '%03d' "$n")
        printf '%s\n' "$name" > "$base.name"
        printf '%s\n' "$command" > "$base.cmd"
        bases="$bases $base"
    done
    if [ "$n" -eq 0 ]; then
        echo "run-suites: $label has no part to run" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    began=$(date +%s)
    # shellcheck disable=SC2086
    start "$jobs" "$limit" $bases
    wait "$runners"
    total_passed=0 total_failed=0 parts_failed=0
    : > "$logdir/summary"
    for base in $bases; do
        name=$(cat "$base.name")
        rc=$(cat "$base.rc" 2>/dev/null || echo 125)
        counts "$base.log" "$rc"
        # A part that ran nothing (no count line, or no check counted)
        # fails: a passing part says what it checked.
        if [ -z "$line" ]; then line="(no count line)"; [ "$failed" -gt 0 ] || failed=1; fi
        [ $((passed + failed)) -gt 0 ] || { line="$line: no check ran"; failed=1; }
        wall=$(cut -d' ' -f1 "$base.time" 2>/dev/null || echo 0)
        # timeout exits 124, or 137 when its -k had to kill.
        if [ "$rc" -eq 124 ] || { [ "$rc" -eq 137 ] && [ "$wall" -ge "$limit" ]; }; then
            line="$line; TIMED OUT after $limit s"
        fi
        total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
        if [ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]; then
            echo "ok   $name: $line ($wall s)" >> "$logdir/summary"
        else
            parts_failed=$((parts_failed + 1))
            echo "FAIL $name: $line ($wall s), exit $rc" | tee -a "$logdir/summary"
            if grep -qE '^FAIL' "$base.log"; then grep -E -A3 '^FAIL' "$base.log" | head -n 60 | sed 's/^/     /'
            else tail -n 30 "$base.log" | sed 's/^/     /'; fi
            echo "     (whole log: $base.log)"
        fi
        grep -E '^(skip|info) ' "$base.log" | sed 's/^/     /' >> "$logdir/summary"
    done
    echo "$label: $n parts, $parts_failed failed, $(( $(date +%s) - began )) s" >> "$logdir/summary"
    [ "${V:-}" != 1 ] || cat "$logdir/summary"
    echo "$total_passed passed, $total_failed failed"
    [ "$parts_failed" -eq 0 ]
    ;;
make)
    results=$1
    shift
    make=${MAKE:-make}
    jobs=${TEST_JOBS:-1}
    label=${TEST_LABEL:-make test}
    jobs_of "$jobs"
    # A suite named twice would run twice at once over the same files and
    # logs, and fail for that: refused before anything runs.
    twice=$(printf '%s\n' "$@" | sort | uniq -d | tr '\n' ' ')
    if [ -n "$twice" ]; then
        echo "run-suites: suites named more than once: ${twice% }; name each once (TEST_SUITES)" >&2
        exit 2
    fi
    fresh "$results"
    : > "$results/times.tsv"

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
        echo "$make --no-print-directory -k -j$jobs" $prereqs > "$results/build.cmd"
        : > "$results/build.log"
        start 1 0 "$results/build"
        waitfor "$results/build.pid"
        tail -n +1 -f --pid="$(cat "$results/build.pid")" "$results/build.log" 2>/dev/null \
            | grep -v -E "^make(\[[0-9]+\])?: ('.*' is up to date|Nothing to be done for '.*')\.$" &
        await "$runners"
        wait $!
        printf 'build\t%s\n' "$(tr ' ' '\t' < "$results/build.time")" >> "$results/times.tsv"
        [ "$(cat "$results/build.rc")" -eq 0 ] \
            || echo "run-suites: a build failed (above); the suites that need it fail and show why"
        rm -f "$results/build.cmd" "$results/build.pid" "$results/build.rc" "$results/build.time"
    fi

    # TEST_ALONE's suites run by themselves, once every other has ended
    # (each rebuilds what the others read: test-reproducible).
    alone=" ${TEST_ALONE:-} " bases="" alone_bases="" alone_started=""
    for suite in "$@"; do
        echo "$make --no-print-directory $suite" > "$results/$suite.cmd"
        case $alone in
            *" $suite "*) alone_bases="$alone_bases $results/$suite" ;;
            *) bases="$bases $results/$suite" ;;
        esac
    done
    # start_alone: the suites that run by themselves, after the others.
    start_alone() {
        [ -z "$alone_started" ] && [ -n "$alone_bases" ] || return 0
        alone_started=1
        [ -z "$bases" ] || await "$runners"
        # shellcheck disable=SC2086
        start 1 0 $alone_bases
    }
    if [ -n "$bases" ]; then
        # shellcheck disable=SC2086
        start "$jobs" 0 $bases
    else
        start_alone
    fi
    # The printer: each suite in order, followed live while it runs (a
    # runner that died without its status counts as failed).
    for suite in "$@"; do
        base=$results/$suite
        case $alone in *" $suite "*) start_alone ;; esac
        waitfor "$base.pid"
        echo "==== $suite"
        waitfor "$base.log"
        follow "$(cat "$base.pid")" "$base.log"
        waitfor "$base.rc"
        [ -f "$base.rc" ] || { echo "run-suites: the runner of $suite ended without its status"; echo 1 > "$base.rc"; }
        touch "$base.log"
        rc=$(cat "$base.rc")
        counts "$base.log" "$rc"
        printf '%s\t%s\n' "$rc" "$line" > "$base"
        times=$(tr ' ' '\t' < "$base.time" 2>/dev/null || printf '?\t?')
        printf '%s\t%s\n' "$suite" "$times" >> "$results/times.tsv"
        rm -f "$base.cmd" "$base.pid" "$base.rc" "$base.time"
    done
    wait "$runners"

    total=0 bad=""
    echo
    echo "$label: every suite's result (logs in $results/)"
    for suite in "$@"; do
        total=$((total + 1))
        rc=$(cut -f1 "$results/$suite")
        counts "$results/$suite.log" "$rc"
        if [ -z "$line" ]; then
            verdict="FAILED: no \"N passed, N failed\" line (exit $rc)"
        elif [ $((passed + failed)) -eq 0 ]; then
            verdict="$line  FAILED: no check ran"
        elif [ "$rc" -ne 0 ]; then
            verdict="$line  FAILED (exit $rc)"
        elif [ "$failed" -ne 0 ]; then
            verdict="$line  FAILED"
        else
            verdict="$line"
        fi
        case $verdict in *FAILED*) bad="$bad $suite" ;; esac
        printf '  %-20s %s\n' "$suite" "$verdict"
    done
    if [ -n "$bad" ]; then
        # shellcheck disable=SC2086
        set -- $bad
        echo "$label: $# of $total suites FAILED:$bad"
        exit 1
    fi
    echo "$label: all $total suites passed"
    ;;
*)
    echo "usage: run-suites.sh make RESULTS SUITE... | each LABEL LOGDIR JOBS TIMEOUT | step TALLY COMMAND... | end TALLY" >&2
    exit 2
    ;;
esac

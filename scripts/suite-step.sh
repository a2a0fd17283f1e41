#!/bin/sh
# SPDX-License-Identifier: MIT
# One command of a test suite made of several (see the Makefile's header):
#
#   suite-step.sh TALLY COMMAND [ARG...]   run COMMAND (through env, so it
#                                          may start with VAR=value words),
#                                          add its result to TALLY; show it
#                                          and its output only when it
#                                          fails (V=1: always, as it runs)
#   suite-step.sh --end TALLY              print the suite's one line
#                                          "N passed, N failed" and fail when
#                                          a step failed; TALLY is removed
#
# A step that prints "N passed, N failed" adds its own counts (one more
# failure if it exits non-zero while claiming none); any other step counts
# as one check, passed when it exits 0. A step's failure does not stop the
# suite's other steps: --end reports it. The caller removes TALLY before
# the first step.
set -u

count_re='[0-9][0-9]* passed, [0-9][0-9]* failed$'

if [ "${1:-}" = --end ]; then
    tally=$2
    passed=0
    failed=0
    if [ -f "$tally" ]; then
        while read -r p f; do
            passed=$((passed + p))
            failed=$((failed + f))
        done < "$tally"
        rm -f "$tally"
    fi
    if [ $((passed + failed)) -eq 0 ]; then
        echo "suite-step: no step ran (tally $tally)" >&2
        exit 1
    fi
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

tally=$1
shift
mkdir -p "$(dirname "$tally")"
out=$(mktemp "${TMPDIR:-/tmp}/suite-step.XXXXXX")
trap 'rm -f "$out" "$out.rc"' EXIT
# The output goes to $out for the count, and to TALLY.log (kept after the
# suite, for the curious); the terminal gets it only when the step fails,
# or as it comes with V=1 (`make V=1 test-c`).
if [ "${V:-}" = 1 ]; then
    echo "-- $*"
    { env "$@"; echo $? > "$out.rc"; } 2>&1 | tee "$out"
else
    { env "$@"; echo $? > "$out.rc"; } > "$out" 2>&1
fi
{ echo "-- $*"; cat "$out"; } >> "$tally.log"
rc=$(cat "$out.rc" 2>/dev/null || echo 1)
line=$(grep -E "$count_re" "$out" | tail -n 1)
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, [0-9]+ failed$/\2/')
    f=$(echo "$line" | sed -E 's/^.* ([0-9]+) failed$/\1/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
    fi
elif [ "$rc" -eq 0 ]; then
    p=1 f=0
else
    p=0 f=1
fi
if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
    if [ "${V:-}" != 1 ]; then
        echo "-- $*"
        cat "$out"
    fi
    [ "$rc" -eq 0 ] || echo "suite-step: FAILED (exit $rc): $*"
fi
echo "$p $f" >> "$tally"
exit 0

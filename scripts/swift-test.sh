#!/bin/sh
# SPDX-License-Identifier: MIT
# swift-test.sh LOG [SWIFT-TEST-ARG...]: `swift test` for this package's
# tests, quiet when they pass, ending with "N passed, N failed".
#
# The tests use Swift Testing (`import Testing`) and none uses XCTest, so
# XCTest's runner is turned off (--disable-xctest): it would only print
# "Executed 0 tests". The whole output goes to LOG; the terminal gets
# everything but the build's progress lines, the driver's two notes on a
# whole-module build (SWIFT_TEST_WMO in the Makefile) and Swift Testing's
# lines for a test or suite that started or passed: issues, failed and
# skipped tests, sanitizer reports, compiler and linker messages and the
# run's last line stay. The counts come from that last line ("Test run with N tests ...
# passed" or "failed"): of its N tests, those with a "Test x() failed after"
# line failed (at least one when the run failed) and those skipped are
# left out. Not from the per-test lines alone: on a loaded machine Swift
# Testing's output has been seen to miss some of them. A run that fails
# with no such line (a crash, a build error) counts one failure.
set -u
log=$1
shift
mkdir -p "$(dirname "$log")"
swift test --disable-xctest "$@" > "$log" 2>&1
rc=$?
grep -v -E '^(\[[0-9]+/[0-9]+\] |Building for |Build complete!|Planning build|◇ |↳ |✔ Suite |✔ Test .* passed after |(✔|✘) Test run with )' "$log" \
    | grep -v -x -F -e "warning: ignoring '-enable-batch-mode' because '-whole-module-optimization' was also specified" \
        -e 'remark: Incremental compilation has been disabled: it is not compatible with whole module optimization' || true
# A failed run's last line ends the shown output (a passing run shows only
# the count below).
grep -E '^✘ Test run with ' "$log" | tail -n 1
run=$(grep -E '^(✔|✘) Test run with [0-9]+ tests? ' "$log" | tail -n 1)
failed=$(grep -E '^✘ Test .* failed after ' "$log" | grep -c -v -E '^✘ Test run with ')
skipped=$(grep -c -E '^➜ Test .* skipped' "$log")
if [ -z "$run" ]; then
    echo "swift-test: swift test ended (exit $rc) without its last line: see the output above and $log"
    passed=0
    failed=1
else
    tests=$(echo "$run" | sed -E 's/^.* Test run with ([0-9]+) tests? .*$/\1/')
    case $run in
        ✘*) [ "$failed" -gt 0 ] || failed=1 ;;
        *) [ "$rc" -eq 0 ] || failed=1 ;;
    esac
    passed=$((tests - failed - skipped))
fi
echo "$passed passed, $failed failed"
exit "$rc"

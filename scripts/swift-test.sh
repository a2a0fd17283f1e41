#!/bin/sh
# swift-test.sh LOG [SWIFT-TEST-ARG...]: `swift test` for this package's
# tests, quiet when they pass, ending with "N passed, N failed".
#
# The tests use Swift Testing (`import Testing`) and none uses XCTest, so
# XCTest's runner is turned off (--disable-xctest): it would only print
# "Executed 0 tests". The whole output goes to LOG; the terminal gets
# everything but the build's progress lines and Swift Testing's lines for
# a test or suite that started or passed: issues, failed and skipped tests,
# sanitizer reports, compiler and linker messages and the run's last line
# stay. The counts are those of Swift Testing's per-test lines ("Test x()
# passed after", "Test x() failed after"); a run that fails with no failed
# test (a crash, a build error) counts one failure.
set -u
log=$1
shift
mkdir -p "$(dirname "$log")"
swift test --disable-xctest "$@" > "$log" 2>&1
rc=$?
grep -v -E '^(\[[0-9]+/[0-9]+\] |Building for |Build complete!|Planning build|◇ |↳ |✔ Suite |✔ Test .* passed after |(✔|✘) Test run with )' "$log" || true
# The run's last line, whether it passed or failed, ends the shown output.
grep -E '^(✔|✘) Test run with ' "$log" | tail -n 1
passed=$(grep -E '^✔ Test .* passed after ' "$log" | grep -c -v -E '^✔ Test run with ')
failed=$(grep -E '^✘ Test .* failed after ' "$log" | grep -c -v -E '^✘ Test run with ')
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "swift-test: swift test failed (exit $rc) with no failed test: see the output above and $log"
    failed=1
fi
echo "$passed passed, $failed failed"
exit "$rc"

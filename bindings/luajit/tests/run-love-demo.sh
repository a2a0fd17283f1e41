#!/bin/sh
# SPDX-License-Identifier: MIT
# run-love-demo.sh LOVE DEMO_DIR: runs the LÖVE demo in its scripted input
# mode (IDLELOCK_DEMO_SCRIPT, set by the caller) under a virtual X server
# when there is no display, and checks what it printed. Quiet when it passes
# but for its "N passed, N failed" line.
set -u
love="$1"
demo="$2"
out=$(mktemp)
runtime=
trap 'rm -f "$out"; [ -z "$runtime" ] || rm -rf "$runtime"' EXIT
export IDLELOCK_DEMO_IDLE_MS="${IDLELOCK_DEMO_IDLE_MS:-800}"
# No sound device is needed or wanted.
export SDL_AUDIODRIVER=dummy
# LÖVE wants a runtime dir: the caller's, or a private one, removed at the
# end (every run left an empty tmp.* folder in TMPDIR).
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    runtime=$(mktemp -d)
    export XDG_RUNTIME_DIR="$runtime"
fi
if [ -n "${DISPLAY:-}" ]; then
    timeout 120 "$love" "$demo" > "$out" 2>&1
elif command -v xvfb-run > /dev/null 2>&1; then
    timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$love" "$demo" > "$out" 2>&1
else
    echo "FAIL no display and no xvfb-run: install xvfb (scripts/install-deps.sh --test)"
    exit 1
fi
rc=$?
passed=0
failed=0
expect() {
    if grep -qF -- "$1" "$out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL the demo did not print: $1"; fi
}
expect "demo: state LOCKED (STARTUP)"
expect "demo: drew the passcode screen"
expect "demo: wrong passcode: 4 attempts remaining"
expect "demo: drew the game screen"
expect "demo: state LOCKED (IDLE)"
expect "demo: state LOCKED (MANUAL)"
expect "demo: biometrics on"
expect "demo: biometric check cancelled: use the passcode"
# The unlock through the pair did not block the frame: frames were drawn
# while the (stand-in) sensor took its time.
if grep -qE -- "demo: unlocked with biometrics \(([2-9]|[1-9][0-9]+) frames drawn" "$out"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL the demo did not unlock with biometrics while drawing frames"
fi
expect "demo: script passed"
if [ "$rc" -ne 0 ]; then failed=$((failed + 1)); echo "FAIL love exited with status $rc"; fi
if [ "$failed" -ne 0 ]; then sed 's/^/    /' "$out"; fi
echo "LÖVE demo: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

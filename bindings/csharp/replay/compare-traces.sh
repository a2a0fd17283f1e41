#!/bin/sh
# SPDX-License-Identifier: MIT
# compare-traces.sh C_REPLAY LIBDIR CS_REPLAY_EXE TRACE...: replays every trace
# with the C tool (tools/replay/idlelock-replay.c) and through the C# binding
# (Replay.cs), and fails unless both print exactly the same (every event's
# status and state, every expect) and both pass. Quiet when they agree.
set -u
c_replay=$1 libdir=$2 cs_exe=$3
shift 3
out=$(mktemp -d "${TMPDIR:-/tmp}/compare-traces.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$c_replay" "$@" > "$out/c.txt" 2> "$out/c.err"
c_rc=$?
LD_LIBRARY_PATH=$libdir mono --debug "$cs_exe" "$@" > "$out/cs.txt" 2> "$out/cs.err"
cs_rc=$?
if [ "$c_rc" -ne 0 ] || [ "$cs_rc" -ne 0 ] || ! cmp -s "$out/c.txt" "$out/cs.txt"; then
    echo "compare-traces: the C tool (exit $c_rc) and the C# binding (exit $cs_rc) disagree:"
    cat "$out/c.err" "$out/cs.err"
    diff -u "$out/c.txt" "$out/cs.txt" | head -60
    exit 1
fi
n=$(grep -c '^-- ' "$out/cs.txt")
echo "$n passed, 0 failed"

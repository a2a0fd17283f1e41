#!/bin/sh
# SPDX-License-Identifier: MIT
# One build step that says what it does, in one line:
#
#   build-step.sh LOGDIR LABEL WHAT COMMAND [ARG...]
#
# prints "  LABEL WHAT" (e.g. "  SWIFTC  build/aarch64/obj/IdleLock.o")
# before it starts, runs COMMAND with its output (compiler warnings, a
# linker's notes) in LOGDIR/<WHAT with / as ->.log, and when COMMAND fails
# shows that log and exits with COMMAND's status. With V=1 in the
# environment (`make V=1 ...`) it also prints the command. The log stays
# after success too, for the curious. COMMAND gets a TMPDIR of its own in
# the caller's, removed when it ends: swiftc's driver leaves a
# TemporaryDirectory.* folder behind on every compile.
set -u
logdir=$1 label=$2 what=$3
shift 3
mkdir -p "$logdir"
log="$logdir/$(printf '%s' "$what" | tr '/ ' '--').log"
printf '  %-7s %s\n' "$label" "$what"
[ "${V:-}" != 1 ] || echo "$*"
private=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-step.XXXXXX") || exit 1
trap 'rm -rf "$private"' EXIT
trap 'exit 143' INT TERM HUP
if TMPDIR=$private "$@" > "$log" 2>&1; then
    exit 0
else
    rc=$?
    cat "$log"
    echo "$label $what: FAILED (exit $rc; log: $log)"
    exit "$rc"
fi

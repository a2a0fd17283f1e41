#!/bin/sh
# SPDX-License-Identifier: MIT
# run-readme-command.sh README: runs the README's run command as written
# (the fenced block after the line "<!-- run -->"), from the repository's
# root, with no LD_LIBRARY_PATH, IDLELOCK_LIBRARY or java.library.path,
# and compares what it prints with the block after "<!-- prints -->".
# Prints "N passed, N failed".
set -u
readme=$1
block() { awk -v m="<!-- $1 -->" '$0 == m {want = 1; next} want && /^```/ && !on {on = 1; next} on && /^```$/ {exit} on {print}' "$readme"; }
cmd=$(block run)
want=$(block prints)
if [ -z "$cmd" ] || [ -z "$want" ]; then
    echo "FAIL $readme has no <!-- run --> or <!-- prints --> block"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
got=$(env -u LD_LIBRARY_PATH -u IDLELOCK_LIBRARY -u JAVA_TOOL_OPTIONS TMPDIR="$tmp" \
    JDK_JAVA_OPTIONS="-Djava.io.tmpdir=$tmp" sh -c "$cmd" 2>&1 | grep -v '^NOTE: Picked up JDK_JAVA_OPTIONS')
if [ "$got" = "$want" ]; then
    echo "1 passed, 0 failed"
else
    printf 'FAIL %s: `%s` printed\n%s\n-- the README says\n%s\n' "$readme" "$cmd" "$got" "$want"
    echo "0 passed, 1 failed"
    exit 1
fi

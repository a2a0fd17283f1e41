#!/bin/sh
# SPDX-License-Identifier: MIT
# typecheck-readme.sh SWIFTC SCRATCH README: every ```swift block of README
# (bindings/swift/README.md) type-checks against the IdleLockKit module that
# `swift build` left in SCRATCH, each block as its own file, as a reader
# would paste it. A block whose first line is `import SwiftUI` is Apple-only
# code (SwiftUI exists on Apple's systems only): it is left out, and the
# README says so. Silent when every block type-checks; otherwise shows the
# compiler's errors and exits 1.
set -u
swiftc=$1 scratch=$2 readme=$3
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
    !block && /^```swift/ { block = 1; n++; file = sprintf("%s/block%02d.swift", dir, n); next }
    block && /^```/ { block = 0; close(file); next }
    block { print > file }
' "$readme"
checked=0
status=0
for f in "$tmp"/block*.swift; do
    [ -f "$f" ] || continue
    if head -n 1 "$f" | grep -q '^import SwiftUI'; then
        continue
    fi
    checked=$((checked + 1))
    if ! "$swiftc" -typecheck -parse-as-library -warnings-as-errors -I "$scratch/debug/Modules" \
            -I "$here/../Sources/CIdleLock" "$f" > "$tmp/out" 2>&1; then
        echo "typecheck-readme: $readme's Swift block $(basename "$f" .swift | tr -dc 0-9) does not type-check:"
        cat "$tmp/out"
        status=1
    fi
done
if [ "$checked" -eq 0 ]; then
    echo "typecheck-readme: no Swift block to check in $readme"
    status=1
fi
exit "$status"

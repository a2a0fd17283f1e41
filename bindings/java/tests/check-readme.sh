#!/bin/sh
# SPDX-License-Identifier: MIT
# check-readme.sh README: every example file the README shows is shown
# verbatim. The README marks each with a line
#   <!-- example: PATH -->
# followed by a fenced block, which must equal the file PATH (relative to
# the README's folder); and every ```java block is so marked (a ```kotlin
# block may be a Gradle build script; the Kotlin examples are marked). Prints
# "N passed, N failed".
set -u
readme=$1
base=$(dirname "$readme")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-readme.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
for path in $(sed -n 's/^<!-- example: \(.*\) -->$/\1/p' "$readme"); do
    awk -v p="$path" '
        $0 == "<!-- example: " p " -->" {want = 1; next}
        want && /^```/ && !on {on = 1; next}
        on && /^```$/ {exit}
        on {print}' "$readme" > "$tmp/block"
    if [ -f "$base/$path" ] && cmp -s "$tmp/block" "$base/$path"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $readme shows $path otherwise than the file (< README, > file):"
        diff "$tmp/block" "$base/$path" | head -n 20
    fi
done
[ $((passed + failed)) -gt 0 ] || { failed=1; echo "FAIL $readme marks no example"; }
# A ```java block with no marker above it is an example no test runs.
unmarked=$(awk '/^```java/ && prev !~ /^<!-- example: / {print NR} {prev = $0}' "$readme" | tr '\n' ' ')
if [ -n "$unmarked" ]; then
    failed=$((failed + 1))
    echo "FAIL $readme has Java code that is no example file (lines $unmarked): make it a file under examples/ and mark it"
else
    passed=$((passed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

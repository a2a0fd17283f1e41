#!/bin/sh
# check-readme.sh README: every example file the README shows is shown
# verbatim. The README marks each with a line
#   <!-- example: PATH -->
# followed by a fenced block, which must equal the file PATH (relative to
# the README's folder). Prints "N passed, N failed".
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
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

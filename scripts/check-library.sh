#!/bin/sh
# Checks the shipped library: its exported symbols are exactly the functions
# declared in the header, it needs no Swift runtime, and its soname carries
# the ABI major. Prints one line per check and "N passed, N failed".
set -u
lib="$1"
header="$2"
passed=0
failed=0
check() {
    if [ "$2" = ok ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -oE '\bidlelock_[a-z_]+\(' "$header" | tr -d '(' | sort -u > "$tmp/header"
nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort -u > "$tmp/exported"
if diff -u "$tmp/header" "$tmp/exported" >"$tmp/diff"; then
    check "exported symbols are exactly the header's $(wc -l < "$tmp/header") functions" ok
else
    cat "$tmp/diff"
    check "exported symbols are exactly the header's functions" fail
fi

needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
bad=$(echo "$needed" | tr ' ' '\n' | grep -vE '^(libc\.so\.6|libpthread\.so\.0|libsodium\.so\.[0-9]+|ld-linux[-a-z0-9_.]*\.so\.[0-9]+)?$' || true)
if [ -z "$bad" ]; then check "NEEDED is only libc/libpthread/libsodium: $needed" ok; else check "unexpected NEEDED entries: $bad" fail; fi

if nm -D "$lib" | grep -qi swift; then check "no Swift runtime symbol referenced" fail; else check "no Swift runtime symbol referenced or exported" ok; fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
major=$(sed -n 's/^#define IDLELOCK_VERSION_MAJOR \([0-9]*\)/\1/p' "$header")
if [ "$soname" = "libidlelock.so.$major" ]; then check "soname $soname matches IDLELOCK_VERSION_MAJOR" ok; else check "soname '$soname' vs major '$major'" fail; fi

stripped="$tmp/stripped.so"
strip -o "$stripped" "$lib"
echo "info stripped size: $(wc -c < "$stripped") bytes"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

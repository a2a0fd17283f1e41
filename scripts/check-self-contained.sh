#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks a self-contained folder of `make cross` (build/<cpu>/self-contained/,
# docs/PLATFORMS.md), the folder a user copies whole into a plugin folder:
# it holds exactly libidlelock.so, the header of the same version, LICENSE
# and THIRD_PARTY_NOTICES.md (the library has libsodium inside), each the
# repository's own, and the notice names the version of the libsodium.a
# that CC links in (the one it finds for -l:libsodium.a). Prints one line
# per check and "N passed, N failed".
#
#   check-self-contained.sh DIR HEADER CC
set -u
dir=$1 header=$2 cc=$3
passed=0
failed=0
check() {
    if [ "$2" = ok ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}

want="LICENSE THIRD_PARTY_NOTICES.md idlelock.h libidlelock.so"
have=$(cd "$dir" && ls -A | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
if [ "$have" = "$want" ]; then
    check "$dir holds $want" ok
else
    check "$dir holds \"$have\", expected exactly \"$want\"" fail
fi
for pair in "idlelock.h:$header" LICENSE:LICENSE THIRD_PARTY_NOTICES.md:THIRD_PARTY_NOTICES.md; do
    name=${pair%%:*} source=${pair#*:}
    if cmp -s "$dir/$name" "$source"; then
        check "$name is $source" ok
    else
        check "$dir/$name differs from $source (or is missing): make cross copies it" fail
    fi
done
# The library keeps no version string of libsodium (it does not call
# sodium_version_string()), so the version is read from the archive it was
# linked from: SODIUM_VERSION_STRING in its version.o.
notice=$(sed -n 's/^Version \([0-9][0-9.]*\)\. .*$/\1/p' THIRD_PARTY_NOTICES.md | head -n 1)
archive=$(readlink -f "$($cc -print-file-name=libsodium.a)")
member=$(ar t "$archive" 2>/dev/null | grep -E '(^|[-_])version\.o$' | head -n 1)
linked=$(ar p "$archive" "$member" 2>/dev/null | strings -a | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1)
if [ -z "$notice" ]; then
    check "THIRD_PARTY_NOTICES.md names no libsodium version (a line \"Version X.Y.Z. Source: ...\")" fail
elif [ "$linked" = "$notice" ]; then
    check "the libsodium linked in ($archive) is $notice, the version THIRD_PARTY_NOTICES.md names" ok
else
    check "the libsodium linked in ($archive) is ${linked:-of no version found}, THIRD_PARTY_NOTICES.md names $notice: update the notice" fail
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

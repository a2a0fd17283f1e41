#!/bin/sh
# SPDX-License-Identifier: MIT
# check-android-api.sh CLASSES DENYLIST: the binding's classes use none of
# the JDK members DENYLIST names (what Android 7, API 24, lacks), except
# java/nio/file/ in org/idlelock/JarNatives (the jar loader, which Android
# never runs: it loads jniLibs with System.loadLibrary). Quiet when they do.
set -u
classes=$1 deny=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/android-api.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$deny" | sed 's/#.*//; s/[[:space:]]*$//' | grep -v '^$' > "$tmp/deny"
bad=0
for c in $(cd "$classes" && find org -name '*.class' | sort); do
    javap -c -p "$classes/$c" 2>/dev/null \
        | grep -oE '(Method|InterfaceMethod|Field|class) java/[A-Za-z0-9/$]+(\.[A-Za-z0-9_$<>"]+)?' \
        | sed 's/^[A-Za-z]* //' | sort -u > "$tmp/uses"
    while read -r d; do
        case "$c:$d" in org/idlelock/JarNatives*:java/nio/file/) continue ;; esac
        hits=$(grep -F "$d" "$tmp/uses" | tr '\n' ' ')
        if [ -n "$hits" ]; then
            echo "FAIL $c uses $hits(Android API 24 lacks it: $deny)"
            bad=1
        fi
    done < "$tmp/deny"
done
exit $bad

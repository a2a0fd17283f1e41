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
# One javap for every class (a JVM start is most of a javap run: one per
# class took 25 s of CPU for the binding's 57). Its output gives each class
# as a header line at the left margin ending in "{" ("public final class
# org.idlelock.IdleLock implements ... {"), its members indented below; the
# awk names each reference with the class file it came from.
(cd "$classes" && find org -name '*.class' 2>/dev/null | LC_ALL=C sort) > "$tmp/classes"
[ -s "$tmp/classes" ] || { echo "FAIL no class files under $classes"; exit 1; }
if ! (cd "$classes" && javap -c -p $(cat "$tmp/classes")) > "$tmp/javap" 2> "$tmp/javap.err"; then
    echo "FAIL javap could not read the classes under $classes:"
    cat "$tmp/javap.err"
    exit 1
fi
awk '
    /^[^ \t].*\{$/ {
        n = split($0, w, /[ <]/)
        for (i = 1; i < n; i++) if (w[i] ~ /^(class|interface|enum|record|@interface)$/) break
        class = w[i + 1]; gsub(/\./, "/", class); class = class ".class"
        print class > "/dev/stderr"
        next
    }
    {
        while (match($0, /(Method|InterfaceMethod|Field|class) java\/[A-Za-z0-9\/$]+(\.[A-Za-z0-9_$<>"]+)?/)) {
            ref = substr($0, RSTART, RLENGTH); sub(/^[A-Za-z]* /, "", ref)
            print class " " ref
            $0 = substr($0, RSTART + RLENGTH)
        }
    }' "$tmp/javap" 2> "$tmp/headers" | LC_ALL=C sort -u > "$tmp/uses"
# Every class file read, and nothing else: a header the awk did not parse
# would leave its class's uses unchecked.
LC_ALL=C sort "$tmp/headers" | cmp -s - "$tmp/classes" || {
    echo "FAIL the classes javap printed are not the class files under $classes:"
    LC_ALL=C sort "$tmp/headers" | diff "$tmp/classes" - | sed -n '/^[<>]/p'
    exit 1
}
bad=0
while read -r c; do
    awk -v c="$c" '$1 == c { print $2 }' "$tmp/uses" > "$tmp/one"
    while read -r d; do
        case "$c:$d" in org/idlelock/JarNatives*:java/nio/file/) continue ;; esac
        hits=$(grep -F "$d" "$tmp/one" | tr '\n' ' ')
        if [ -n "$hits" ]; then
            echo "FAIL $c uses $hits(Android API 24 lacks it: $deny)"
            bad=1
        fi
    done < "$tmp/deny"
done < "$tmp/classes"
exit $bad

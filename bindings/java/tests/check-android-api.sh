#!/bin/sh
# SPDX-License-Identifier: MIT
# check-android-api.sh CLASSES DENYLIST: the binding's classes use none of
# the JDK members DENYLIST names (what Android 7, API 24, lacks), except
# java/nio/file/ in org/idlelock/JarNatives (the jar loader, which Android
# never runs: it loads jniLibs with System.loadLibrary). Quiet when they do.
#
#   sh check-android-api.sh --self-test DENYLIST
#       proves it fails on classes that use DENYLIST's members in each way
#       a class can (a call, a method reference, a lambda's body, a static
#       initializer, an anonymous class, an interface's default method, an
#       enum, a class outside org/, one compiled with -g:none) and on a
#       class file javap cannot read, and passes classes that use none;
#       prints "N passed, N failed"
set -u
if [ "${1:-}" = --self-test ]; then
    self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
    deny=$2
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/android-api-self-test.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    passed=0 failed=0
    # source_file FILE: FILE under $tmp/src, from standard input.
    source_file() { mkdir -p "$tmp/src/$(dirname "$1")" && cat > "$tmp/src/$1"; }
    # Each class below uses one denied member in one way; the line the
    # check must print for it is in $tmp/want.
    source_file bad/org/idlelock/Call.java <<'EOF'
package org.idlelock;
class Call { String f() { return String.join(",", "a", "b"); } }
EOF
    source_file bad/org/idlelock/MethodReference.java <<'EOF'
package org.idlelock;
import java.util.function.BiFunction;
class MethodReference { BiFunction<CharSequence, CharSequence[], String> f = String::join; }
EOF
    source_file bad/org/idlelock/LambdaBody.java <<'EOF'
package org.idlelock;
class LambdaBody { Runnable r = () -> java.util.Base64.getEncoder(); }
EOF
    source_file bad/org/idlelock/StaticInitializer.java <<'EOF'
package org.idlelock;
class StaticInitializer { static final String S; static { S = String.join("-", "a"); } }
EOF
    source_file bad/org/idlelock/Anonymous.java <<'EOF'
package org.idlelock;
class Anonymous { Object o = new Object() { @Override public String toString() { return java.time.Instant.now().toString(); } }; }
EOF
    source_file bad/org/idlelock/DefaultMethod.java <<'EOF'
package org.idlelock;
public interface DefaultMethod { default Object f() { return ThreadLocal.withInitial(() -> "x"); } }
EOF
    source_file bad/org/idlelock/Enumeration.java <<'EOF'
package org.idlelock;
public enum Enumeration { A; final Object o = java.util.Base64.getDecoder(); }
EOF
    source_file bad/org/idlelock/NotTheJarLoader.java <<'EOF'
package org.idlelock;
final class NotTheJarLoader<T extends Comparable<T>> { Object f() { return java.nio.file.Paths.get("x"); } }
EOF
    source_file bad/com/example/Outside.java <<'EOF'
package com.example;
public class Outside { public String f() { return String.join(",", "a"); } }
EOF
    source_file bad-g/org/idlelock/NoDebugInfo.java <<'EOF'
package org.idlelock;
class NoDebugInfo { Object f() { return java.time.Duration.ofMillis(1); } }
EOF
    cat > "$tmp/want" <<'EOF'
FAIL org/idlelock/Call.class uses java/lang/String.join
FAIL org/idlelock/MethodReference.class uses java/lang/String.join
FAIL org/idlelock/LambdaBody.class uses java/util/Base64.getEncoder
FAIL org/idlelock/StaticInitializer.class uses java/lang/String.join
FAIL org/idlelock/Anonymous$1.class uses java/time/Instant.now java/time/Instant.toString
FAIL org/idlelock/DefaultMethod.class uses java/lang/ThreadLocal.withInitial
FAIL org/idlelock/Enumeration.class uses java/util/Base64.getDecoder
FAIL org/idlelock/NotTheJarLoader.class uses java/nio/file/Paths.get
FAIL com/example/Outside.class uses java/lang/String.join
FAIL org/idlelock/NoDebugInfo.class uses java/time/Duration.ofMillis
EOF
    # ... and these use nothing denied, in the same ways (the jar loader's
    # java/nio/file/ is allowed).
    source_file good/org/idlelock/Clean.java <<'EOF'
package org.idlelock;
import java.util.function.Function;
@interface Marker { String value() default "x"; }
@Marker class Clean<T extends Comparable<T>> {
    static final int N;
    static { N = Integer.parseInt("1"); }
    Function<String, Integer> parse = Integer::parseInt;
    Runnable r = () -> System.out.println(N);
    Object o = new Object() { @Override public String toString() { return String.valueOf(N); } };
    enum Kind { A, B }
    interface Named { default String name() { return String.valueOf(N); } }
}
EOF
    source_file good/org/idlelock/JarNatives.java <<'EOF'
package org.idlelock;
final class JarNatives { Object f() { return java.nio.file.Paths.get("x"); } }
EOF
    # compile FLAGS DIR SOURCE...: javac --release 8 FLAGS -d DIR SOURCE...
    compile() {
        flags=$1 out=$2
        shift 2
        mkdir -p "$out"
        javac --release 8 $flags -d "$out" "$@" > "$tmp/javac.log" 2>&1 \
            || { echo "FAIL the self-test's classes do not compile:"; cat "$tmp/javac.log"; exit 1; }
    }
    compile -g "$tmp/bad" $(find "$tmp/src/bad" -name '*.java')
    compile -g:none "$tmp/bad" $(find "$tmp/src/bad-g" -name '*.java')
    compile -g:none "$tmp/good" $(find "$tmp/src/good" -name '*.java')
    # The denied uses, each reported for its class.
    if sh "$self" "$tmp/bad" "$deny" > "$tmp/out" 2>&1; then
        failed=$((failed + 1)); echo "FAIL self-test: classes using denied members passed"
    else
        sed 's/ (Android API 24 lacks it: .*//; s/ *$//' "$tmp/out" | LC_ALL=C sort > "$tmp/got"
        LC_ALL=C sort "$tmp/want" > "$tmp/want.sorted"
        if cmp -s "$tmp/got" "$tmp/want.sorted"; then passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAIL self-test: not the expected report (- expected, + printed):"
            diff "$tmp/want.sorted" "$tmp/got" | sed -n 's/^</-/p; s/^>/+/p'
        fi
    fi
    # Nothing denied: quiet, and a pass.
    if sh "$self" "$tmp/good" "$deny" > "$tmp/out" 2>&1 && [ ! -s "$tmp/out" ]; then passed=$((passed + 1))
    else failed=$((failed + 1)); echo "FAIL self-test: classes using nothing denied did not pass quietly:"; cat "$tmp/out"; fi
    # A class file javap cannot read fails the check.
    echo 'not a class' > "$tmp/good/org/idlelock/Unreadable.class"
    if ! sh "$self" "$tmp/good" "$deny" > "$tmp/out" 2>&1 && grep -q 'Unreadable.class' "$tmp/out"; then passed=$((passed + 1))
    else failed=$((failed + 1)); echo "FAIL self-test: an unreadable class file did not fail the check:"; cat "$tmp/out"; fi
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
classes=$1 deny=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/android-api.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$deny" | sed 's/#.*//; s/[[:space:]]*$//' | grep -v '^$' > "$tmp/deny"
# One javap for every class (a JVM start is most of a javap run: one per
# class took 25 s of CPU for the binding's 57), verbose: each class starts
# with "Classfile <its path>", then its constant pool, its members between a
# "{" and a "}" alone on their lines, then its attributes. The references
# read are the code's (instruction lines: "// Method java/...", "// Field",
# "// InterfaceMethod", "// class") and the bootstrap methods' arguments
# (" REF_invokeStatic java/...": a method reference such as String::join,
# which the code names only as an invokedynamic). The bootstrap itself,
# java/lang/invoke/LambdaMetafactory, is left out: Android's D8 turns every
# lambda and method reference into a class of its own, and runs none. The
# awk names each reference with the class file it came from.
(cd "$classes" && find . -name '*.class' 2>/dev/null | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/classes"
[ -s "$tmp/classes" ] || { echo "FAIL no class files under $classes"; exit 1; }
if ! (cd "$classes" && javap -v -p $(cat "$tmp/classes")) > "$tmp/javap" 2> "$tmp/javap.err"; then
    echo "FAIL javap could not read the classes under $classes:"
    cat "$tmp/javap.err"
    exit 1
fi
awk -v dir="$(cd "$classes" && pwd -P)/" '
    /^Classfile / {
        class = substr($0, 11)
        class = index(class, dir) == 1 ? substr(class, length(dir) + 1) : "(outside " dir ") " class
        part = "pool"
        next
    }
    /^\{$/ { if (part == "pool") part = "members"; next }
    /^\}$/ { if (part == "members") { print class > "/dev/stderr"; part = "attributes" } next }
    part == "members" && /^ +[0-9]+: / {
        while (match($0, /(Method|InterfaceMethod|Field|class) java\/[A-Za-z0-9\/$]+(\.[A-Za-z0-9_$<>"]+)?/)) {
            ref = substr($0, RSTART, RLENGTH); sub(/^[A-Za-z]* /, "", ref)
            print class " " ref
            $0 = substr($0, RSTART + RLENGTH)
        }
    }
    part == "attributes" {
        while (match($0, /REF_[A-Za-z]+ java\/[A-Za-z0-9\/$]+(\.[A-Za-z0-9_$<>"]+)?/)) {
            ref = substr($0, RSTART, RLENGTH); sub(/^[A-Za-z_]* /, "", ref)
            if (ref !~ /^java\/lang\/invoke\/LambdaMetafactory\./) print class " " ref
            $0 = substr($0, RSTART + RLENGTH)
        }
    }' "$tmp/javap" 2> "$tmp/headers" | LC_ALL=C sort -u > "$tmp/uses"
# Every class file read whole (its members' "{" and "}" both seen), and
# nothing else: a class the awk did not parse would leave its uses
# unchecked.
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

#!/bin/sh
# SPDX-License-Identifier: MIT
# run-jar.sh JAR DIR: the jar as an app uses it (mk/java.mk, test-jar). DIR
# is made afresh; the jar is copied there (a Java "install": the jar on
# the class path) and every JVM runs with no LD_LIBRARY_PATH,
# IDLELOCK_LIBRARY or java.library.path of ours, with -Xcheck:jni (a
# warning fails the run), and a java.io.tmpdir of its own:
#   1. the README's example (bindings/java/examples/Example.java, which the
#      README shows verbatim: check-readme.sh) with only the jar on the
#      class path, compiled first with javac (Java 8's way) and then run
#      from source (java -cp idlelock.jar Example.java, JDK 11+);
#   2. the example again with a libidlelock.so planted on LD_LIBRARY_PATH
#      (one that says so and exits when loaded): the jar's own library is
#      the one loaded, never the planted one;
#   3. the example with a java.io.tmpdir that anyone may write without the
#      sticky bit (refused: another user could swap the private folder) and
#      with one of /tmp's mode 1777 (loaded);
#   4. JarCheck: the natives came from the jar through a private folder
#      that was removed once they were loaded.
# Prints "N passed, N failed".
set -u
jar=$1 dir=$2
passed=0 failed=0
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/app" "$dir/plant" "$dir/tmp1" "$dir/tmp2" "$dir/tmp3" "$dir/tmp4" "$dir/tmp5" "$dir/tmp6"
chmod 700 "$dir/tmp1" "$dir/tmp2" "$dir/tmp3" "$dir/tmp4"
chmod 777 "$dir/tmp5"  # anyone may rename entries: refused
chmod 1777 "$dir/tmp6" # /tmp's mode: the sticky bit keeps others' hands off ours
cp "$jar" "$dir/app/idlelock.jar"
cp bindings/java/examples/Example.java bindings/java/tests/jar/JarCheck.java "$dir/app/"

expected='now LOCKED (MANUAL)
wrong passcode, 4 attempts left
now UNLOCKED (NONE)
UNLOCKED, token session-token'

jvm() { # jvm TMPDIR ARGS...: java with nothing of ours on the loader's paths
    t=$1
    shift
    (cd "$dir/app" && env -u LD_LIBRARY_PATH -u IDLELOCK_LIBRARY -u JAVA_TOOL_OPTIONS \
        java -Xcheck:jni -Djava.io.tmpdir="$dir/$t" "$@" 2>&1)
}

result() { # result WHAT OUTPUT EXPECTED
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s: printed\n%s\n-- expected\n%s\n' "$1" "$2" "$3"
    fi
}

if (cd "$dir/app" && javac -cp idlelock.jar -d classes Example.java > javac.log 2>&1); then
    result "Example (javac, then java -cp idlelock.jar:classes)" "$(jvm tmp1 -cp idlelock.jar:classes Example)" "$expected"
else
    failed=$((failed + 1)); echo "FAIL javac Example.java:"; cat "$dir/app/javac.log"
fi
result "Example (java -cp idlelock.jar Example.java)" "$(jvm tmp2 -cp idlelock.jar Example.java)" "$expected"
# A libidlelock.so with the jar's soname, on LD_LIBRARY_PATH (searched before
# the glue's RUNPATH): loading it would print PLANTED and end the JVM.
printf '%s\n' '#include <unistd.h>' \
    '__attribute__((constructor)) static void planted(void) {' \
    '    static const char m[] = "PLANTED libidlelock.so was loaded\n";' \
    '    (void)!write(1, m, sizeof m - 1); _exit(97); }' > "$dir/plant/planted.c"
if ${CC:-cc} -shared -fPIC -Wl,-soname,libidlelock.so -o "$dir/plant/libidlelock.so" "$dir/plant/planted.c" 2> "$dir/plant/cc.log"; then
    result "Example with a libidlelock.so planted on LD_LIBRARY_PATH: the jar's library is loaded" \
        "$(cd "$dir/app" && env -u IDLELOCK_LIBRARY -u JAVA_TOOL_OPTIONS LD_LIBRARY_PATH="$dir/plant" \
            java -Xcheck:jni -Djava.io.tmpdir="$dir/tmp4" -cp idlelock.jar:classes Example 2>&1)" "$expected"
else
    failed=$((failed + 1)); echo "FAIL cc planted.c:"; cat "$dir/plant/cc.log"
fi
# A java.io.tmpdir where another user could swap the private folder before it is loaded.
out=$(jvm tmp5 -cp idlelock.jar:classes Example)
case "$out" in
    *"java.io.tmpdir"*"writable by others without the sticky bit"*) passed=$((passed + 1)) ;;
    *) failed=$((failed + 1)); printf 'FAIL a world-writable java.io.tmpdir without the sticky bit is refused: printed\n%s\n' "$out" ;;
esac
result "Example with java.io.tmpdir of mode 1777 (as /tmp)" "$(jvm tmp6 -cp idlelock.jar:classes Example)" "$expected"
for t in tmp1 tmp2 tmp4 tmp5 tmp6; do
    left=$(ls -A "$dir/$t")
    result "nothing left in $t after the run" "$left" ""
done

out=$(jvm tmp3 -cp idlelock.jar JarCheck.java)
echo "$out" | grep -v ' passed, .* failed$'
case "$out" in *"WARNING in native method"*) failed=$((failed + 1)); echo "FAIL -Xcheck:jni warned" ;; esac
line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
if [ -n "$line" ]; then
    passed=$((passed + ${line%% *}))
    f=${line##*, }
    failed=$((failed + ${f%% *}))
else
    failed=$((failed + 1)); echo "FAIL JarCheck did not finish"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

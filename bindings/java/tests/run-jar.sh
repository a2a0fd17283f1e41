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
#      with one of /tmp's mode 1777 (loaded); then every folder on the path
#      checked as OpenSSH's safe_path does: a private tmpdir under a folder
#      anyone (or its group) may write without the sticky bit, or under one
#      another user owns, refused; a symlinked tmpdir whose target lies
#      under such a folder refused, one owned by another user refused, one
#      of ours to a safe folder loaded (the chown cases as root only);
#   4. leftovers: a JVM holding a loader's folder (tests/jar/Hold.java)
#      keeps it while it lives and the example's load leaves it alone; once
#      it is killed (SIGKILL), the next load removes it, with this user's
#      stale folders (an unlocked lock file; no lock file and an hour old),
#      and keeps a folder made a moment ago, another user's, a link, and
#      whatever else a folder holds; a folder this user made for another
#      purpose whose name happens to start with idlelock- (natives put
#      there for java.library.path or LD_LIBRARY_PATH, an hour old) keeps
#      its libidlelock.so: the loader removes only what it made;
#   5. JarCheck: the natives came from the jar through a private folder
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
cp bindings/java/examples/Example.java bindings/java/tests/jar/JarCheck.java bindings/java/tests/jar/Hold.java "$dir/app/"

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

# Every folder on the way, as OpenSSH's safe_path (tests 3).
refused() { # refused WHAT TMPDIR PART-OF-THE-MESSAGE
    out=$(jvm "$2" -cp idlelock.jar:classes Example)
    case "$out" in
        *"is not safe to load the jar's natives from"*"$3"*) passed=$((passed + 1)) ;;
        *) failed=$((failed + 1)); printf 'FAIL %s is refused: printed\n%s\n' "$1" "$out" ;;
    esac
}
mkdir -p "$dir/ww/t" "$dir/gw/t" "$dir/ww2/t" "$dir/safe"
chmod 777 "$dir/ww"; chmod 770 "$dir/gw"; chmod 777 "$dir/ww2"; chmod 700 "$dir/ww/t" "$dir/gw/t" "$dir/ww2/t" "$dir/safe"
refused "a private tmpdir under a folder anyone may write (no sticky bit)" ww/t "$dir/ww is writable by others without the sticky bit"
refused "a private tmpdir under a folder its group may write" gw/t "$dir/gw is writable by its group without the sticky bit"
ln -s "$dir/ww2/t" "$dir/link-unsafe"
refused "a symlinked tmpdir whose target lies under a folder anyone may write" link-unsafe "$dir/ww2 is writable by others"
ln -s safe "$dir/link-safe"
result "Example with java.io.tmpdir a link of ours to a private folder" "$(jvm link-safe -cp idlelock.jar:classes Example)" "$expected"
if [ "$(id -u)" = 0 ]; then
    nobody=$(id -u nobody 2>/dev/null || echo 65534)
    mkdir -p "$dir/theirs/t"; chmod 700 "$dir/theirs/t"; chown "$nobody" "$dir/theirs"
    refused "a private tmpdir under a folder another user owns" theirs/t "$dir/theirs is owned by another user"
    ln -s safe "$dir/link-theirs"; chown -h "$nobody" "$dir/link-theirs"
    refused "a symlinked tmpdir owned by another user" link-theirs "it is a symbolic link owned by another user"
fi
for t in ww/t gw/t ww2/t safe; do
    result "nothing left in $t after the run" "$(ls -A "$dir/$t")" ""
done

# Leftovers (tests 4): a live loader's folder, then the same folder once its JVM was killed.
lt=$dir/tmp-leftovers
mkdir -p "$lt" && chmod 700 "$lt"
(cd "$dir/app" && exec env -u LD_LIBRARY_PATH -u IDLELOCK_LIBRARY -u JAVA_TOOL_OPTIONS \
    java -Djava.io.tmpdir="$lt" -cp idlelock.jar Hold.java > "$dir/hold.out" 2>&1) &
holder=$!
i=0
while [ ! -s "$dir/hold.out" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
live=$(head -n 1 "$dir/hold.out")
case "$live" in
    "$lt"/idlelock-*) passed=$((passed + 1)) ;;
    *) failed=$((failed + 1)); printf 'FAIL the holding JVM made its folder: printed\n%s\n' "$(cat "$dir/hold.out")" ;;
esac
# A loader's folder: idlelock- and digits (Files.createTempDirectory), and
# a lock file holding the loader's mark (JarNatives.MARK).
mark='org.idlelock: the jar'"'"'s natives, unpacked by JarNatives'
made() { # made NAME [lock|nomark]: a folder as a loader leaves it, with or without its lock file
    mkdir -m 700 "$lt/$1"
    : > "$lt/$1/libidlelock.so"; : > "$lt/$1/libidlelock_jni.so"
    if [ "${2:-}" = lock ]; then printf '%s\n' "$mark" > "$lt/$1/lock"; fi
    if [ "${2:-}" = nomark ]; then : > "$lt/$1/lock"; fi
}
made idlelock-1001 lock                                      # a killed JVM's: its lock is free
made idlelock-1002; touch -d '1 hour ago' "$lt/idlelock-1002"  # a killed older binding's: no lock file, an hour old
made idlelock-1003                                           # no lock file yet, made a moment ago: in use
made idlelock-1004 lock; : > "$lt/idlelock-1004/mine.txt"    # stale, but holds something the loader never makes
made idlelock-1005 nomark                                    # a lock file without the loader's mark: not the loader's
mkdir -m 700 "$dir/linked"; : > "$dir/linked/lock"; ln -s "$dir/linked" "$lt/idlelock-1006" # a link: never followed
# Not a loader's: natives this user put in a folder of their own (for
# java.library.path or LD_LIBRARY_PATH), untouched for an hour.
mkdir -m 700 "$lt/idlelock-natives"; printf 'x' > "$lt/idlelock-natives/libidlelock.so"
printf 'deployed by hand\n' > "$lt/idlelock-natives/notes.txt"; touch -d '1 hour ago' "$lt/idlelock-natives"
expect_left="idlelock-1003 idlelock-1004 idlelock-1005 idlelock-1006 idlelock-natives"
if [ "$(id -u)" = 0 ]; then
    made idlelock-1007 lock; chown -R "$nobody" "$lt/idlelock-1007"    # another user's
    expect_left="idlelock-1003 idlelock-1004 idlelock-1005 idlelock-1006 idlelock-1007 idlelock-natives"
fi
result "Example while another JVM holds its folder in $lt" "$(jvm tmp-leftovers -cp idlelock.jar:classes Example)" "$expected"
result "the live JVM's folder is kept" "$(ls -A "$live" 2>&1 | sort | tr '\n' ' ')" "libidlelock.so libidlelock_jni.so lock "
kill -9 "$holder" 2> /dev/null
wait "$holder" 2> /dev/null
result "Example after the holding JVM was killed" "$(jvm tmp-leftovers -cp idlelock.jar:classes Example)" "$expected"
result "the killed JVM's folder and this user's stale ones are removed; the others kept" \
    "$(ls -A "$lt" | sort | tr '\n' ' ')" "$expect_left "
result "a stale folder keeps what the loader never makes" "$(ls -A "$lt/idlelock-1004")" "mine.txt"
result "a folder whose lock file lacks the mark keeps its files" \
    "$(ls -A "$lt/idlelock-1005" | sort | tr '\n' ' ')" "libidlelock.so libidlelock_jni.so lock "
result "a link's target is untouched" "$(ls -A "$dir/linked")" "lock"
result "a folder this user made, not the loader, keeps its natives" \
    "$(ls -A "$lt/idlelock-natives" | sort | tr '\n' ' ')" "libidlelock.so notes.txt "

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

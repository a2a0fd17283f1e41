#!/bin/sh
# SPDX-License-Identifier: MIT
# check-jar.sh JAR VERSION GLIBC-FLOOR DIR: what the jar carries (mk/java.mk,
# test-jar). Unpacks it into DIR (made afresh) and checks: LICENSE and
# THIRD_PARTY_NOTICES.md; the pom naming the MIT licence and the version;
# the classes; for each CPU, the glue and the self-contained library with
# the CPU's ELF machine and class, the glue NEEDing libidlelock.so with
# RUNPATH $ORIGIN, the library NEEDing no libsodium and with soname
# libidlelock.so, and both within the glibc floor (scripts/check-glibc-floor.sh).
# Prints one line per failed check and "N passed, N failed".
set -u
jar=$1 version=$2 floor=$3 dir=$4
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { # check WHAT COMMAND...: passes when COMMAND exits 0
    what=$1
    shift
    if "$@" > /dev/null 2>&1; then ok; else bad "$what"; fi
}

rm -rf "$dir"
mkdir -p "$dir"
if ! unzip -q "$jar" -d "$dir"; then
    echo "FAIL cannot unpack $jar"
    echo "0 passed, 1 failed"
    exit 1
fi

pom=$dir/META-INF/maven/org.idlelock/idlelock/pom.xml
props=$dir/META-INF/maven/org.idlelock/idlelock/pom.properties
check "META-INF/LICENSE is the project's MIT licence" cmp "$dir/META-INF/LICENSE" LICENSE
check "META-INF/THIRD_PARTY_NOTICES.md is the project's notices" cmp "$dir/META-INF/THIRD_PARTY_NOTICES.md" THIRD_PARTY_NOTICES.md
check "the notices name libsodium's ISC licence" grep -q "ISC" "$dir/META-INF/THIRD_PARTY_NOTICES.md"
check "the pom names the MIT licence" grep -q "<name>MIT</name>" "$pom"
check "the pom has the version $version" grep -q "<version>$version</version>" "$pom"
check "the pom is org.idlelock:idlelock" grep -q "<artifactId>idlelock</artifactId>" "$pom"
check "pom.properties has the version" grep -qx "version=$version" "$props"
check "the classes are in the jar" test -f "$dir/org/idlelock/IdleLock.class"
check "the classes are Java 8 bytecode (major 52)" sh -c "od -An -j6 -N2 -tu1 '$dir/org/idlelock/IdleLock.class' | tr -s ' ' | grep -qx ' 0 52'"
check "the manifest names the version" grep -q "Implementation-Version: $version" "$dir/META-INF/MANIFEST.MF"

for spec in x86_64:X86-64:ELF64 aarch64:AArch64:ELF64 armv7:ARM:ELF32; do
    cpu=${spec%%:*} rest=${spec#*:}
    machine=${rest%%:*} class=${rest#*:}
    d=$dir/org/idlelock/native/linux-$cpu
    glue=$d/libidlelock_jni.so lib=$d/libidlelock.so
    for f in "$glue" "$lib"; do
        if [ ! -f "$f" ]; then bad "$cpu: $f is missing"; continue; fi
        check "$cpu: $(basename "$f") is a $machine ELF" sh -c "readelf -h '$f' | grep -E 'Machine:' | grep -q '$machine'"
        check "$cpu: $(basename "$f") is $class" sh -c "readelf -h '$f' | grep -E 'Class:' | grep -q '$class'"
        check "$cpu: $(basename "$f") is stripped" sh -c "! readelf -S '$f' | grep -q '\.symtab'"
    done
    [ -f "$glue" ] && [ -f "$lib" ] || continue
    needed_glue=$(readelf -d "$glue" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    needed_lib=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    case " $needed_glue" in *" libidlelock.so "*) ok ;; *) bad "$cpu: the glue NEEDs $needed_glue, not libidlelock.so" ;; esac
    case "$needed_glue" in *libidlelock.so.1*) bad "$cpu: the glue NEEDs the system variant's libidlelock.so.1" ;; *) ok ;; esac
    check "$cpu: the glue's RUNPATH is \$ORIGIN" sh -c "readelf -d '$glue' | grep -E 'RUNPATH|RPATH' | grep -qF '[\$ORIGIN]'"
    check "$cpu: the library's soname is libidlelock.so" sh -c "readelf -d '$lib' | grep SONAME | grep -qF '[libidlelock.so]'"
    case "$needed_lib" in *sodium*) bad "$cpu: the library NEEDs libsodium ($needed_lib): not the self-contained variant" ;; *) ok ;; esac
    check "$cpu: the glue exports only JNI_OnLoad" sh -c "[ \"\$(nm -D --defined-only '$glue' | awk '\$2 ~ /[TDB]/ {print \$3}' | sort -u | tr '\n' ' ')\" = 'JNI_OnLoad ' ]"
    if out=$(sh scripts/check-glibc-floor.sh "$floor" "$glue" "$lib" 2>&1); then ok; else bad "$cpu: above the glibc floor: $out"; fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

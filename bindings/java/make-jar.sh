#!/bin/sh
# SPDX-License-Identifier: MIT
# make-jar.sh: builds build/dist/idlelock-<version>.jar (mk/java.mk, `make jar`).
#
#   make-jar.sh VERSION BUILD CLASSES JAR-FILE CPU...
#
# For each CPU: the JNI glue cross-compiled with the CPU's gcc (CC_<cpu>,
# CODEGEN_<cpu>, STRIP_<cpu> in the environment; JNI_CFLAGS for the JDK's
# headers) against BUILD/<cpu>/self-contained/libidlelock.so, so that it
# NEEDs libidlelock.so and finds it beside itself (RUNPATH $ORIGIN); both
# stripped into org/idlelock/native/linux-<cpu>/. Then the classes
# (CLASSES, compiled --release 8), META-INF/LICENSE,
# META-INF/THIRD_PARTY_NOTICES.md (libsodium's ISC notice: the natives
# carry libsodium), the pom (POM in the environment: bindings/java/pom.xml.in
# as mk/java.mk fills it) under META-INF/maven/org.idlelock/idlelock/, and
# the manifest; the jar made reproducible (scripts/reproducible.py:
# SOURCE_DATE_EPOCH, name order with the manifest first, fixed modes). One
# line per step; each tool's output goes to a log under BUILD/jar/logs,
# shown when the step fails.
set -eu
version=$1 build=$2 classes=$3 out=$4
shift 4
stage=$build/jar/stage
logs=$build/jar/logs
rm -rf "$stage"
mkdir -p "$stage/META-INF/maven/org.idlelock/idlelock" "$logs" "$(dirname "$out")"

step() { # step NAME TARGET LOG COMMAND...
    name=$1 target=$2 log=$3
    shift 3
    printf '  %-7s %s\n' "$name" "$target"
    if ! "$@" > "$log" 2>&1; then
        cat "$log"
        echo "make-jar.sh: $name $target failed (log: $log)" >&2
        exit 1
    fi
}

for cpu in "$@"; do
    eval "cc=\${CC_$cpu} codegen=\${CODEGEN_$cpu:-} strip=\${STRIP_$cpu}"
    lib=$build/$cpu/self-contained/libidlelock.so
    glue=$build/$cpu/jni/libidlelock_jni.so
    dest=$stage/org/idlelock/native/linux-$cpu
    mkdir -p "$(dirname "$glue")" "$dest"
    # shellcheck disable=SC2086 # flag lists
    step CC "$glue" "$logs/cc-$cpu.log" $cc $JNI_CFLAGS -DIDLELOCK_JNI_GLIBC_FLOOR $codegen -shared \
        bindings/java/jni/idlelock_jni.c -L"$build/$cpu/self-contained" -l:libidlelock.so \
        '-Wl,-rpath,$ORIGIN' -Wl,-z,now -Wl,-z,relro -Wl,-z,noexecstack \
        -Wl,--no-as-needed -l:libpthread.so.0 -o "$glue"
    step STRIP "$dest/libidlelock.so" "$logs/strip-$cpu-lib.log" $strip --strip-unneeded -o "$dest/libidlelock.so" "$lib"
    step STRIP "$dest/libidlelock_jni.so" "$logs/strip-$cpu-glue.log" $strip --strip-unneeded -o "$dest/libidlelock_jni.so" "$glue"
done

cp -R "$classes/." "$stage/"
cp LICENSE THIRD_PARTY_NOTICES.md "$stage/META-INF/"
cp "${POM:?make-jar.sh: POM (the filled pom.xml) is not set}" "$stage/META-INF/maven/org.idlelock/idlelock/pom.xml"
printf 'groupId=org.idlelock\nartifactId=idlelock\nversion=%s\n' "$version" \
    > "$stage/META-INF/maven/org.idlelock/idlelock/pom.properties"
cat > "$build/jar/manifest.txt" <<MANIFEST
Automatic-Module-Name: org.idlelock
Implementation-Title: libidlelock for Java
Implementation-Version: $version
Bundle-License: MIT
MANIFEST
rm -f "$out"
step JAR "$out" "$logs/jar.log" ${JAR:-jar} --create --file "$out" --manifest "$build/jar/manifest.txt" -C "$stage" .
step ZIP "$out" "$logs/reproducible.log" ${PYTHON:-python3} scripts/reproducible.py zip "$out" \
    --first META-INF/ --first META-INF/MANIFEST.MF

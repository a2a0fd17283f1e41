#!/bin/sh
# SPDX-License-Identifier: MIT
# planted-library.sh CS_DIR: the binding's NativeLoader never loads a
# libidlelock.so from a folder outside the app's own files. It looks beside
# the assembly (runtimes/<rid>/native/, the .NET SDK's bin/ layout) and, for
# an assembly still inside an installed NuGet package (lib/<tfm>/), at the
# package's runtimes/ two folders up. An app whose assembly is anywhere else
# (here <shared>/app/bin/) must not dlopen <shared>/runtimes/.../libidlelock.so:
# whoever can write <shared> (a /tmp folder, a group-writable share) would
# run code in the app.
#
# Regression: NativeLoader tried ../../runtimes/<rid>/native/libidlelock.so
# beside every assembly, and a file planted there ran (its constructor) in
# a program that only read IdleLock.Version.
# The package's own layout still loads (lib/<tfm>/ and the package's runtimes/).
# Ends with "N passed, N failed"; prints only failures besides.
set -u
cs_dir=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/planted-library.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "planted-library: FAIL: $*"; failed=$((failed + 1)); }

# A library whose constructor leaves a file behind when it is loaded.
cat > "$work/planted.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void planted(void)
{
    const char *mark = getenv("PLANTED_MARK");
    FILE *f = mark ? fopen(mark, "w") : NULL;
    if (f) fclose(f);
}
EOF
cat > "$work/Hello.cs" <<'EOF'
using System;
static class Hello
{
    static void Main()
    {
        try { Console.WriteLine(LibIdleLock.IdleLock.Version); }
        catch (Exception e) { Console.WriteLine(e.GetType().Name); }
    }
}
EOF
rid=$(uname -m)
case "$rid" in
    x86_64) rid=linux-x64 ;;
    aarch64) rid=linux-arm64 ;;
    armv7l|armv7*) rid=linux-arm ;;
    *) echo "planted-library: no NuGet RID for $rid"; echo "0 passed, 0 failed"; exit 0 ;;
esac

if ${CC:-cc} -shared -fPIC -o "$work/planted.so" "$work/planted.c" > "$work/cc.log" 2>&1 \
        && mcs -nologo -r:"$cs_dir/LibIdleLock.dll" -out:"$work/Hello.exe" "$work/Hello.cs" > "$work/mcs.log" 2>&1; then
    ok
else
    fail "could not build the probe"; cat "$work/cc.log" "$work/mcs.log"
fi

# run LABEL APP_DIR: Hello.exe from APP_DIR, no library path; the planted
# library must not have run.
run() {
    label=$1 app=$2
    rm -f "$work/ran"
    (cd "$app" && env -u LD_LIBRARY_PATH -u MONO_PATH PLANTED_MARK="$work/ran" mono Hello.exe) > "$work/run.log" 2>&1
    if [ -e "$work/ran" ]; then
        fail "$label: the binding loaded a libidlelock.so planted outside the app ($3)"; cat "$work/run.log"
    else
        ok
    fi
}

# An app folder two levels below a folder someone else can write.
mkdir -p "$work/shared/app/bin" "$work/shared/runtimes/$rid/native"
cp "$cs_dir/LibIdleLock.dll" "$work/Hello.exe" "$work/shared/app/bin/"
cp "$work/planted.so" "$work/shared/runtimes/$rid/native/libidlelock.so"
run "app in <shared>/app/bin" "$work/shared/app/bin" "<shared>/runtimes/$rid/native/libidlelock.so"

# The same one level lower: <shared>/x/app/bin, planted at <shared>/x/runtimes.
mkdir -p "$work/shared/x/app/bin" "$work/shared/x/runtimes/$rid/native"
cp "$cs_dir/LibIdleLock.dll" "$work/Hello.exe" "$work/shared/x/app/bin/"
cp "$work/planted.so" "$work/shared/x/runtimes/$rid/native/libidlelock.so"
run "app in <shared>/x/app/bin" "$work/shared/x/app/bin" "<shared>/x/runtimes/$rid/native/libidlelock.so"

# Still found where it belongs: inside an installed package, lib/<tfm>/ and
# the package's runtimes/ (a stand-in library that marks its loading).
mkdir -p "$work/pkg/lib/net45" "$work/pkg/runtimes/$rid/native"
cp "$cs_dir/LibIdleLock.dll" "$work/Hello.exe" "$work/pkg/lib/net45/"
cp "$work/planted.so" "$work/pkg/runtimes/$rid/native/libidlelock.so"
rm -f "$work/ran"
(cd "$work/pkg/lib/net45" && env -u LD_LIBRARY_PATH -u MONO_PATH PLANTED_MARK="$work/ran" mono Hello.exe) > "$work/run.log" 2>&1
if [ -e "$work/ran" ]; then
    ok
else
    fail "an assembly inside a package (lib/net45/) did not load the package's runtimes/$rid/native/libidlelock.so"
    cat "$work/run.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

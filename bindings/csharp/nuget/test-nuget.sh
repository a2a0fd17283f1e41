#!/bin/sh
# SPDX-License-Identifier: MIT
# test-nuget.sh NUPKG VERSION EXAMPLE: installs the C# binding's NuGet
# package the way a Mono user does, offline, into a fresh folder, and uses it
# with no library path set (PROJECT_URL and PROJECT_TAG in the environment).
#
#   1. the package's files: the assemblies for net45 and netstandard2.0 with
#      their XML docs, LICENSE, THIRD_PARTY_NOTICES.md, README.md; the
#      nuspec's metadata (<license type="expression">MIT</license>, <readme>,
#      <projectUrl> and <repository> naming PROJECT_URL, one empty dependency
#      group per lib/ folder); a README whose links all work outside the
#      repository (scripts/md-links.py check --packaged); for each RID the
#      self-contained libidlelock.so of that CPU (its ELF machine and class),
#      whose only NEEDED are the C library's (musl's alone for
#      linux-musl-x64); the netstandard2.0 assembly references netstandard
#      2.0.0.0 alone and says .NETStandard,Version=v2.0 (read by reflection,
#      the assembly loaded by Mono);
#   2. `nuget install LibIdleLock -Source <a local folder>` into a fresh folder,
#      with a fresh HOME and a NuGet.Config that lists no other source;
#   3. EXAMPLE (the README's example) compiled against the installed assembly and
#      run with no LD_LIBRARY_PATH, no IDLELOCK_LIBRARY and no dllmap: (a) from an
#      app folder laid out as the .NET SDK lays out bin/ (the assembly beside
#      runtimes/), (b) with the assembly where nuget installed it (MONO_PATH
#      names the assembly's folder, not a library's); the binding must load the
#      package's own x86-64 library (read from /proc/self/maps); (c) the same
#      example against the netstandard2.0 assembly, from an app folder;
#   4. the binding's tests (bindings/csharp/tests) compiled against the
#      package's netstandard2.0 assembly and run on Mono with it: their
#      counts join this script's.
# Ends with "N passed, N failed"; prints only failures besides.
set -u
nupkg=$1 version=$2 example=$3
root=$(pwd)
facade=/usr/lib/mono/4.5/Facades/netstandard.dll
work=$(mktemp -d "${TMPDIR:-/tmp}/test-nuget.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "test-nuget: FAIL: $*"; failed=$((failed + 1)); }
check() { # what, command...
    what=$1
    shift
    if "$@" > "$work/check.log" 2>&1; then ok; else fail "$what"; cat "$work/check.log"; fi
}

# -- install, offline, into a fresh folder --------------------------------------
mkdir -p "$work/feed" "$work/home" "$work/packages"
cp "$nupkg" "$work/feed/"
cat > "$work/NuGet.Config" <<EOF
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$work/feed" />
  </packageSources>
</configuration>
EOF
if HOME="$work/home" XDG_CONFIG_HOME="$work/home" nuget install LibIdleLock -Version "$version" \
        -Source "$work/feed" -ConfigFile "$work/NuGet.Config" -OutputDirectory "$work/packages" \
        -NonInteractive -NoCache > "$work/install.log" 2>&1; then
    ok
else
    fail "nuget install"; cat "$work/install.log"
fi
pkg="$work/packages/LibIdleLock.$version"

# -- its files -------------------------------------------------------------------
for f in lib/net45/LibIdleLock.dll lib/net45/LibIdleLock.xml lib/netstandard2.0/LibIdleLock.dll \
         lib/netstandard2.0/LibIdleLock.xml LICENSE THIRD_PARTY_NOTICES.md README.md; do
    check "$f is in the installed package" test -s "$pkg/$f"
done
check "LICENSE is the project's MIT licence" grep -q "MIT License" "$pkg/LICENSE"
check "THIRD_PARTY_NOTICES.md carries libsodium's ISC notice" grep -q "libsodium" "$pkg/THIRD_PARTY_NOTICES.md"
check "the nuspec's licence, readme, project URL, repository and dependency groups" \
    python3 - "$pkg/LibIdleLock.$version.nupkg" "$PROJECT_URL" <<'EOF'
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
url = sys.argv[2]
nuspec = [n for n in z.namelist() if n.endswith(".nuspec")]
text = z.read(nuspec[0]).decode()
assert '<license type="expression">MIT</license>' in text, text
assert "<readme>README.md</readme>" in text and "README.md" in z.namelist(), text
assert "<projectUrl>%s</projectUrl>" % url in text, text
assert re.search(r'<repository type="git" url="%s" commit="[0-9a-f]{40}" />' % re.escape(url), text), text
groups = re.findall(r'<group targetFramework="([^"]*)" />', text)
assert groups == [".NETFramework4.5", ".NETStandard2.0"], groups
folders = sorted({n.split("/")[1] for n in z.namelist() if n.startswith("lib/")})
assert folders == ["net45", "netstandard2.0"], folders
EOF
check "the package's README has no link that breaks outside the repository" \
    python3 "$root/scripts/md-links.py" check --packaged "$pkg/README.md" --url "$PROJECT_URL" --tag "$PROJECT_TAG" "$root"
cat > "$work/Refs.cs" <<'EOF'
using System;
using System.Linq;
using System.Reflection;
static class Refs
{
    static int Main(string[] args)
    {
        var a = Assembly.LoadFrom(args[0]);
        Console.WriteLine(string.Join(", ", a.GetReferencedAssemblies().Select(r => r.FullName)));
        var tfm = a.GetCustomAttributesData().FirstOrDefault(d => d.AttributeType.Name == "TargetFrameworkAttribute");
        Console.WriteLine(tfm == null ? "(none)" : tfm.ConstructorArguments[0].Value);
        return 0;
    }
}
EOF
mcs -nologo -out:"$work/Refs.exe" "$work/Refs.cs" > /dev/null 2>&1
mono "$work/Refs.exe" "$pkg/lib/netstandard2.0/LibIdleLock.dll" > "$work/refs.out" 2>&1
if [ "$(cat "$work/refs.out")" = "netstandard, Version=2.0.0.0, Culture=neutral, PublicKeyToken=cc7b13ffcd2ddd51
.NETStandard,Version=v2.0" ]; then
    ok
else
    fail "lib/netstandard2.0/LibIdleLock.dll must reference netstandard 2.0.0.0 alone and target .NETStandard,Version=v2.0:"
    cat "$work/refs.out"
fi
# RID -> ELF class (1: 32-bit, 2: 64-bit) and machine (EM_X86_64 62, EM_AARCH64 183, EM_ARM 40)
for spec in linux-x64:2:62 linux-arm64:2:183 linux-arm:1:40 linux-musl-x64:2:62; do
    rid=${spec%%:*} rest=${spec#*:}
    class=${rest%%:*} machine=${rest#*:}
    lib="$pkg/runtimes/$rid/native/libidlelock.so"
    check "$rid: an ELF library for its CPU (class $class, machine $machine)" python3 - "$lib" "$class" "$machine" <<'EOF'
import struct, sys
head = open(sys.argv[1], "rb").read(20)
assert head[:4] == b"\x7fELF", "not ELF"
assert head[4] == int(sys.argv[2]), "ELF class %d" % head[4]
assert struct.unpack("<H", head[18:20])[0] == int(sys.argv[3]), "machine %d" % struct.unpack("<H", head[18:20])[0]
EOF
    case $rid in
        linux-musl-*) libc='libc\.so' ;;
        *) libc='libc\.so\.6|libpthread\.so\.0|ld-linux[-a-z0-9_.]*\.so\.[0-9]' ;;
    esac
    check "$rid: soname libidlelock.so, NEEDED only the C library" sh -c '
        readelf -d "$1" > "$2/readelf.txt" &&
        grep -q "Library soname: \[libidlelock.so\]" "$2/readelf.txt" &&
        grep -q "(NEEDED)" "$2/readelf.txt" &&
        ! grep "(NEEDED)" "$2/readelf.txt" | grep -v -E "\[($3)\]"' \
        sh "$lib" "$work" "$libc"
done

# -- a program against the installed package, no library path ---------------------
run_app() { # name, folder with Example.exe, extra environment...
    name=$1 folder=$2
    shift 2
    env -u LD_LIBRARY_PATH -u IDLELOCK_LIBRARY -u MONO_PATH "$@" MONO_ENV_OPTIONS=--debug \
        timeout 120 mono "$folder/Example.exe" > "$work/$name.out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] || [ "$(tail -n 1 "$work/$name.out")" != "token: eyJhbGciOi" ]; then
        fail "$name: the example exited $rc"; cat "$work/$name.out"
    else
        ok
    fi
}
mkdir -p "$work/app" "$work/inplace"
if mcs -nologo -r:"$pkg/lib/net45/LibIdleLock.dll" -out:"$work/app/Example.exe" "$example" > "$work/mcs.log" 2>&1; then
    ok
else
    fail "the example does not compile against the installed assembly"; cat "$work/mcs.log"
fi
cp "$work/app/Example.exe" "$work/inplace/"
# (a) bin/ as the .NET SDK lays it out: the assembly and runtimes/ beside the program.
cp "$pkg/lib/net45/LibIdleLock.dll" "$work/app/"
cp -r "$pkg/runtimes" "$work/app/"
run_app "bin folder" "$work/app"
# (b) the assembly where nuget installed it.
run_app "in the package" "$work/inplace" MONO_PATH="$pkg/lib/net45"

# Which library did it load? The package's, found by the binding itself.
cat > "$work/Which.cs" <<'EOF'
using System;
using System.IO;
using System.Linq;
static class Which
{
    static int Main()
    {
        Console.WriteLine(LibIdleLock.IdleLock.Version);   // the first call: a static member
        var lib = File.ReadAllLines("/proc/self/maps").Where(l => l.Contains("libidlelock")).Select(l => l.Substring(l.IndexOf('/'))).Distinct();
        Console.WriteLine(string.Join("\n", lib));
        return 0;
    }
}
EOF
mcs -nologo -r:"$work/app/LibIdleLock.dll" -out:"$work/app/Which.exe" "$work/Which.cs" > /dev/null 2>&1
env -u LD_LIBRARY_PATH -u IDLELOCK_LIBRARY -u MONO_PATH mono "$work/app/Which.exe" > "$work/which.out" 2>&1
if [ "$(head -n 1 "$work/which.out")" = "$version" ] && [ "$(sed -n 2p "$work/which.out")" = "$work/app/runtimes/linux-x64/native/libidlelock.so" ] \
        && [ "$(wc -l < "$work/which.out")" -eq 2 ]; then
    ok
else
    fail "the program did not load the package's runtimes/linux-x64/native/libidlelock.so alone:"; cat "$work/which.out"
fi

# (c) the netstandard2.0 assembly, from an app folder (as a .NET 6 or Godot 4
# build copies it): Mono resolves netstandard 2.0.0.0 to its own facade.
mkdir -p "$work/ns"
if mcs -nologo -r:"$pkg/lib/netstandard2.0/LibIdleLock.dll" -r:"$facade" -out:"$work/ns/Example.exe" "$example" \
        > "$work/mcs-ns.log" 2>&1; then
    ok
else
    fail "the example does not compile against lib/netstandard2.0"; cat "$work/mcs-ns.log"
fi
cp "$pkg/lib/netstandard2.0/LibIdleLock.dll" "$work/ns/"
cp -r "$pkg/runtimes" "$work/ns/"
run_app "netstandard2.0 bin folder" "$work/ns"

# 4. The binding's tests against the netstandard2.0 assembly, on Mono (the
# library from the package, found by the binding as in an app's bin/).
mkdir -p "$work/tests"
cp "$pkg/lib/netstandard2.0/LibIdleLock.dll" "$work/tests/"
cp -r "$pkg/runtimes" "$work/tests/"
tests_passed=0 tests_failed=0
if mcs -nologo -warn:4 -warnaserror+ -debug -target:exe -r:"$work/tests/LibIdleLock.dll" -r:"$facade" \
        -out:"$work/tests/LibIdleLock.Tests.exe" "$root"/bindings/csharp/tests/*.cs > "$work/mcs-tests.log" 2>&1; then
    (cd "$work/tests" && env -u LD_LIBRARY_PATH -u IDLELOCK_LIBRARY -u MONO_PATH timeout 600 \
        mono --debug LibIdleLock.Tests.exe) > "$work/tests.log" 2>&1
    rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/tests.log" | tail -n 1)
    if [ -n "$line" ]; then
        tests_passed=${line%% passed*}
        tests_failed=${line#*passed, }
        tests_failed=${tests_failed%% failed}
    fi
    if [ "$rc" -ne 0 ] || [ -z "$line" ] || [ "$tests_failed" -ne 0 ]; then
        fail "the binding's tests against lib/netstandard2.0 (exit $rc):"; grep -v '^ok ' "$work/tests.log" | tail -n 40
    fi
else
    fail "the binding's tests do not compile against lib/netstandard2.0"; cat "$work/mcs-tests.log"
fi

echo "$((passed + tests_passed)) passed, $((failed + tests_failed)) failed"
[ "$failed" -eq 0 ] && [ "$tests_failed" -eq 0 ]

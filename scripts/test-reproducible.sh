#!/bin/sh
# SPDX-License-Identifier: MIT
# test-reproducible.sh VERSION DIST WORK "OUTPUTS" "STAGES": every artifact
# of `make release` is the same, byte for byte, when built again from the
# same commit (mk/release.mk).
#
# 1. `make release`; DIST is copied to WORK/first.
# 2. The packaging is undone: DIST emptied, the managed code OUTPUTS (the
#    C# assemblies, the jar of classes, the generated Lua module) and the
#    packaging folders and stamps STAGES removed; the native libraries stay
#    (built by the compilers as the suites tested them).
# 3. A second later, `make release` again with umask 077 and another time
#    zone (TZ): DIST is compared with WORK/first file by file.
# 4. SHA256SUMS lists every file of DIST but itself, and only those, and
#    `sha256sum -c` accepts it; every artifact a release has is there (the
#    source tarball, the jar with its pom, sources and Javadoc, the NuGet
#    package, the two manylinux wheels and the musllinux one, the sdist,
#    the three binary rocks, the source rockspec and rock).
# 5. The registries' own check: twine check --strict (TOOLS' twine) on the
#    wheels and the sdist (the jar's: test-jar; NuGet's package analysis:
#    make nuget; luarocks lint: test-rock).
# Ends with "N passed, N failed"; prints only failures besides (and each
# make's log when it fails).
set -u
version=$1 dist=$2 work=$(mkdir -p "$3" && cd "$3" && pwd) outputs=$4 stages=$5
make=${MAKE:-make}
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "test-reproducible: FAIL: $*"; failed=$((failed + 1)); }
rm -rf "$work" && mkdir -p "$work"

build() { # build LOG: make release, quietly; the log shown when it fails
    if $make --no-print-directory release > "$work/$1" 2>&1; then
        ok
    else
        fail "make release ($1):"; tail -n 40 "$work/$1"
        echo "$passed passed, $failed failed"
        exit 1
    fi
}

build first.log
cp -a "$dist" "$work/first"

# shellcheck disable=SC2086 # lists of paths
rm -rf "$dist" $outputs $stages
sleep 1
(umask 077 && TZ=Pacific/Kiritimati build second.log) || exit 1
passed=$((passed + 1))
# (the files themselves as a umask of 022 leaves them, for whoever uses them next)
chmod go+r "$dist"/*

for f in $(cd "$work/first" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort); do
    if [ ! -f "$dist/$f" ]; then
        fail "the second build made no ${f#./}"
    elif cmp -s "$work/first/$f" "$dist/$f"; then
        ok
    else
        fail "${f#./} differs between two builds of the same commit"
    fi
done
extra=$(cd "$dist" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | while read -r f; do
    [ -f "$work/first/$f" ] || printf '%s ' "${f#./}"; done)
if [ -z "$extra" ]; then ok; else fail "only the second build made: $extra"; fi

# SHA256SUMS: every file, nothing else, each sum right.
listed=$(awk '{print $2}' "$dist/SHA256SUMS" | LC_ALL=C sort | tr '\n' ' ')
present=$(cd "$dist" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
if [ -n "$listed" ] && [ "$listed" = "$present" ]; then ok; else fail "SHA256SUMS lists \"$listed\", build/dist holds \"$present\""; fi
if (cd "$dist" && sha256sum --quiet -c SHA256SUMS) > "$work/sums.log" 2>&1; then ok; else fail "sha256sum -c:"; cat "$work/sums.log"; fi
n=idlelock-$version
for want in "libidlelock-$version.tar.gz" "$n.jar" "$n.pom" "$n-sources.jar" "$n-javadoc.jar" \
        "LibIdleLock.$version.nupkg" "$n-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl" \
        "$n-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl" "$n-py3-none-musllinux_1_2_x86_64.whl" \
        "$n.tar.gz" "$n-1.linux-x86_64.rock" "$n-1.linux-aarch64.rock" "$n-1.linux-arm.rock" "$n-1.rockspec" \
        "$n-1.src.rock"; do
    case " $listed " in *" $want "*) ok ;; *) fail "SHA256SUMS does not list $want" ;; esac
done

# The Python registry's own check.
if "$TOOLS/bin/twine" check --strict "$dist"/*.whl "$dist/$n.tar.gz" > "$work/twine.log" 2>&1; then
    ok
else
    fail "twine check --strict:"; cat "$work/twine.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

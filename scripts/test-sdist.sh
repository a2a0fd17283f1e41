#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests the Python source distribution of `make sdist` (mk/wheel.mk):
#
#   test-sdist.sh TOOLS SDIST VERSION
#
# TOOLS is the wheel tools' virtual environment (setuptools, wheel).
# 1. What it holds: PKG-INFO at VERSION with the project URLs and a long
#    description whose links all work outside the repository; the package;
#    the library's source under libidlelock/ (the Makefile, the header, the
#    Swift and C sources, the version script); no build output.
# 2. Built as pip builds it, with the Swift toolchain here: a
#    py3-none-linux_<cpu> wheel whose idlelock/libidlelock.so is the
#    library built from that source (soname libidlelock.so.1, the system's
#    libsodium); installed into a fresh virtual environment outside the
#    checkout, the package loads that library and the README's quickstart
#    runs.
# 3. Without swiftc on PATH the build stops, and its message names swiftc
#    and the way out (IDLELOCK_INSTALL=system, the prebuilt wheels).
# 4. IDLELOCK_INSTALL=system builds the pure package: a py3-none-any wheel
#    with no library inside.
# Ends with "N passed, N failed"; prints only failures besides.
set -u
tools=$1 sdist=$(cd "$(dirname "$2")" && pwd)/$(basename "$2") version=$3
root=$(pwd)
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "test-sdist: FAIL: $*"; failed=$((failed + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-sdist.XXXXXX")
trap 'rm -rf "$work"' EXIT
name=idlelock-$version

# 1. What it holds.
tar tzf "$sdist" > "$work/list" || { fail "$sdist is not a gzip tar archive"; echo "$passed passed, $failed failed"; exit 1; }
for f in PKG-INFO pyproject.toml setup.py README.md LICENSE THIRD_PARTY_NOTICES.md idlelock/__init__.py \
         idlelock/py.typed libidlelock/Makefile libidlelock/idlelock.map libidlelock/include/idlelock.h \
         libidlelock/Sources/IdleLock/ABI/Exports.swift libidlelock/Sources/CSystem/shim.h \
         libidlelock/Sources/CIdleLockSupport/last_error.c libidlelock/scripts/build-step.sh; do
    if grep -qx "$name/$f" "$work/list"; then ok; else fail "it does not hold $f"; fi
done
stray=$(grep -E '\.(o|a|so|so\.[0-9.]+|pyc|whl)$|(^|/)build/' "$work/list" | head -n 3 | tr '\n' ' ')
if [ -z "$stray" ]; then ok; else fail "build output in it: $stray"; fi
tar xzf "$sdist" -C "$work"
if grep -qx "Version: $version" "$work/$name/PKG-INFO" \
        && grep -q "^Project-URL: Source, $PROJECT_URL\$" "$work/$name/PKG-INFO"; then
    ok
else
    fail "PKG-INFO lacks Version: $version or the Source URL $PROJECT_URL"
fi
if python3 "$root/scripts/md-links.py" check --packaged "$work/$name/README.md" --url "$PROJECT_URL" \
        --tag "$PROJECT_TAG" "$root" > "$work/links.log" 2>&1; then
    ok
else
    fail "the long description has links that break outside the repository:"; cat "$work/links.log"
fi

# 2. Built from source, installed, used.
if (cd "$work" && "$tools/bin/python" -m pip wheel --disable-pip-version-check --no-deps --no-build-isolation \
        -w "$work/built" "$sdist") > "$work/build.log" 2>&1; then
    ok
else
    fail "pip wheel $name.tar.gz with the toolchain here:"; tail -n 30 "$work/build.log"
fi
set -- "$work"/built/"$name"-py3-none-linux_*.whl
wheel=$1
if [ -f "$wheel" ]; then
    ok
    mkdir -p "$work/wheel" && (cd "$work/wheel" && python3 -m zipfile -e "$wheel" .)
    if readelf -d "$work/wheel/idlelock/libidlelock.so" 2>/dev/null | grep -q 'Library soname: \[libidlelock.so.1\]'; then
        ok
    else
        fail "the wheel built from source holds no idlelock/libidlelock.so with soname libidlelock.so.1"
    fi
    python3 -m venv "$work/venv" && "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-deps --no-index "$wheel" > "$work/install.log" 2>&1 || { fail "pip install the wheel"; cat "$work/install.log"; }
    out=$(cd "$work" && env -u PYTHONPATH -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH "$work/venv/bin/python" -c '
import idlelock, sys
print(idlelock.library_path)' 2>&1)
    case $out in
        "$work"/venv/lib/python*/site-packages/idlelock/libidlelock.so) ok ;;
        *) fail "the installed package loaded \"$out\", not its own library" ;;
    esac
    got=$(cd "$work" && env -u PYTHONPATH -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH "$work/venv/bin/python" \
        "$root/bindings/python/examples/quickstart.py" 2>&1 | tail -n 1)
    if [ "$got" = "b'eyJhbGciOi...' UNLOCKED" ]; then ok; else fail "the quickstart printed: $got"; fi
else
    fail "no py3-none-linux wheel built from the sdist (found: $(ls "$work/built" 2>&1 | tr '\n' ' '))"
fi

# 3. No swiftc: a clear stop.
path=$(printf '%s' "$PATH" | tr ':' '\n' | while IFS= read -r d; do [ -x "$d/swiftc" ] || printf '%s:' "$d"; done)
if (cd "$work" && env -u SWIFTC PATH="${path%:}" "$tools/bin/python" -m pip wheel --disable-pip-version-check \
        --no-deps --no-build-isolation -w "$work/noswift" "$sdist") > "$work/noswift.log" 2>&1; then
    fail "pip wheel with no swiftc on PATH succeeded"
elif grep -q "swiftc (the Swift toolchain, 6.3 or later" "$work/noswift.log" \
        && grep -q "IDLELOCK_INSTALL=system" "$work/noswift.log"; then
    ok
else
    fail "without swiftc the build failed without saying what is missing and what to do:"; tail -n 20 "$work/noswift.log"
fi

# 4. IDLELOCK_INSTALL=system: the pure package.
if (cd "$work" && IDLELOCK_INSTALL=system "$tools/bin/python" -m pip wheel --disable-pip-version-check --no-deps \
        --no-build-isolation -w "$work/system" "$sdist") > "$work/system.log" 2>&1 \
        && [ -f "$work/system/$name-py3-none-any.whl" ] \
        && ! python3 -m zipfile -l "$work/system/$name-py3-none-any.whl" | grep -q libidlelock; then
    ok
else
    fail "IDLELOCK_INSTALL=system did not build a pure py3-none-any wheel:"; tail -n 20 "$work/system.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

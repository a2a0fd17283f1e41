#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built x86-64 libraries on an older glibc than the build machine's:
# the C suites against both variants, and the Python suite against the
# installed wheel, inside a Debian root. By hand, not part of `make test`
# (it needs a root made once, as root, from Debian's packages):
#
#   debootstrap --variant=minbase --include=python3,python3-venv,python3-pip bullseye ROOT
#   cp /etc/resolv.conf ROOT/etc/ && chroot ROOT apt-get update
#   chroot ROOT apt-get install --no-install-recommends gcc libc6-dev libsodium23
#   make lib cross wheel && sh scripts/check-old-glibc.sh ROOT
#
# Debian 11 (bullseye) has glibc 2.31: older than each version the floor
# shims lift (fstat 2.33, pthread_create/join/detach 2.34, arc4random_buf
# 2.36; Sources/CIdleLockSupport/glibc_floor*.c). The test programs are
# compiled there, with that root's gcc and glibc, against the libraries
# built here. Ends with "N passed, N failed" (suites).
set -u
root="$1"
work=/tmp/idlelock-old-glibc
dir="$root$work"
rm -rf "$dir"
mkdir -p "$dir/build/x86_64/self-contained"
cp -R include Tests bindings "$dir/"
rm -rf "$dir/bindings/python/idlelock/__pycache__"
cp build/libidlelock.so.1 "$dir/build/"
cp build/x86_64/self-contained/libidlelock.so "$dir/build/x86_64/self-contained/"
cp build/wheel/dist/idlelock-*_x86_64.whl "$dir/"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
# pytest and hypothesis for the root's Python, fetched here (pip in the root
# has neither this machine's network settings nor its certificates).
pyver=$(chroot "$root" python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
python3 -m pip download --quiet --disable-pip-version-check --dest "$dir/wheels" --only-binary=:all: \
    --python-version "$pyver" --platform manylinux2014_x86_64 pytest hypothesis \
    exceptiongroup tomli typing_extensions  # what pip leaves out: its markers read this Python

chroot "$root" /bin/sh -s "$work" <<'EOF'
set -u
cd "$1"
passed=0; failed=0
run() { # name command...
    name="$1"; shift
    if "$@" > out.log 2>&1; then passed=$((passed + 1)); echo "ok   $name: $(tail -n 1 out.log)"
    else failed=$((failed + 1)); echo "FAIL $name"; tail -n 20 out.log; fi
}
echo "# $(ldd --version | head -n 1)"
cflags="-std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Iinclude"
for v in build:libidlelock.so.1 build/x86_64/self-contained:libidlelock.so; do
    d=${v%%:*}; f=${v#*:}; link="-L$d -l:$f -Wl,-rpath,$PWD/$d -lpthread"
    cc $cflags Tests/c/test_abi/*.c $link -o "$d/test_abi" &&
    cc $cflags Tests/c/test_store/*.c $link -o "$d/test_store" &&
    cc $cflags -O1 Tests/c/test_hygiene.c $link -o "$d/test_hygiene" &&
    cc $cflags tools/replay/idlelock-replay.c $link -o "$d/idlelock-replay" || { failed=$((failed + 1)); echo "FAIL build for $f"; continue; }
    run "$f: test_abi" "$d/test_abi"
    run "$f: test_store" "$d/test_store"
    run "$f: test_hygiene" "$d/test_hygiene"
    run "$f: traces" "$d/idlelock-replay" --quiet traces/*.trace
done
# The virtual environment outside the copied tree, as test-wheel's.
venv=/tmp/idlelock-old-glibc-venv
rm -rf "$venv"
python3 -m venv "$venv" && env -u PIP_FIND_LINKS "$venv/bin/pip" install --quiet --disable-pip-version-check \
    --no-index --find-links wheels ./idlelock-*.whl pytest hypothesis
run "the wheel on $("$venv/bin/python" --version): bindings/python/tests" \
    sh -c "cd /tmp && IDLELOCK_TEST_INSTALLED=$venv $venv/bin/python -m pytest -q -p no:cacheprovider $PWD/bindings/python/tests"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
EOF

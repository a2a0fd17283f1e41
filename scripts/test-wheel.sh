#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests the platform wheels of `make wheel` (mk/wheel.mk):
#
#   test-wheel.sh PYTHON WHEEL_DIR "CPUS" VERSION
#
# 1. What each CPU's wheel carries: the tag py3-none-manylinux_2_17_<cpu>
#    (auditwheel's verdict on the glibc floor), idlelock/libidlelock.so
#    byte for byte the self-contained library test-cross tested on that
#    CPU, stripped (no symbol table), no other compiled file, LICENSE and
#    THIRD_PARTY_NOTICES.md in .dist-info/licenses/ as at the root, and
#    metadata with the header's version, License-Expression: MIT and both
#    License-File entries, the project's URLs (PROJECT_URL in the
#    environment) and a long description whose links all work outside the
#    repository (the checkout's pyproject.toml and __version__ have the
#    header's version too). The musllinux_1_2_x86_64 wheel (in
#    WHEEL_DIR/../dist, from make musl) carries the musl build, stripped,
#    and the same metadata; no musl Python runs here, so it is not
#    installed.
# 2. The wheel of this machine's CPU installed into a fresh virtual
#    environment in a temporary folder outside the checkout, with pytest and
#    hypothesis from PyPI, and the tests of what the wheel adds
#    (bindings/python/tests: test_bundled, test_module, test_ffi,
#    test_traces, test_readme; test-python runs the whole suite) with that
#    environment's Python from that folder: the package is imported from
#    site-packages, never from the checkout (IDLELOCK_TEST_INSTALLED lets
#    test_bundled.py check it, and that the bundled library is the one
#    loaded). Ends with "N passed, N failed": these checks and the
#    suite's tests added up.
set -u
python="$1"; wheels=$(cd "$2/dist" && pwd); cpus="$3"; version="$4"
root=$(pwd)
passed=0
failed=0
check() {
    if [ "$2" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1"; fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-wheel.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for cpu in $cpus; do
    set -- "$wheels"/idlelock-*-py3-none-*_"$cpu".whl
    if [ $# -ne 1 ] || [ ! -f "$1" ]; then check "$cpu: exactly one wheel in $wheels (found: $*)" fail; continue; fi
    wheel="$1"
    name=$(basename "$wheel")
    case "$name" in
        *-py3-none-manylinux2014_"$cpu".manylinux_2_17_"$cpu".whl|*-py3-none-manylinux_2_17_"$cpu".manylinux2014_"$cpu".whl)
            check "$cpu: $name (glibc 2.17, any Python 3)" ok ;;
        *) check "$cpu: $name is not tagged py3-none-manylinux_2_17_$cpu (auditwheel found a newer glibc?)" fail ;;
    esac
    mkdir -p "$tmp/$cpu"
    (cd "$tmp/$cpu" && "$python" -m zipfile -e "$wheel" .)
    case "$cpu" in x86_64) strip=strip ;; *) strip="$cpu-linux-gnu-strip" ;; esac
    "$strip" -o "$tmp/$cpu.stripped.so" "$root/build/$cpu/self-contained/libidlelock.so"
    if cmp -s "$tmp/$cpu/idlelock/libidlelock.so" "$tmp/$cpu.stripped.so"; then
        check "$cpu: idlelock/libidlelock.so is build/$cpu/self-contained/libidlelock.so (as test-cross tested it), stripped" ok
    else
        check "$cpu: idlelock/libidlelock.so differs from build/$cpu/self-contained/libidlelock.so stripped" fail
    fi
    if readelf -S "$tmp/$cpu/idlelock/libidlelock.so" | grep -q '\.symtab'; then
        check "$cpu: the bundled library still has its symbol table" fail
    else
        check "$cpu: the bundled library is stripped" ok
    fi
    info="$tmp/$cpu/idlelock-$version.dist-info"
    for f in LICENSE THIRD_PARTY_NOTICES.md; do
        if cmp -s "$info/licenses/$f" "$root/$f"; then
            check "$cpu: .dist-info/licenses/$f" ok
        else
            check "$cpu: .dist-info/licenses/$f is the root's $f (found: $(ls "$info/licenses" 2>&1 | tr '\n' ' '))" fail
        fi
    done
    for line in "Version: $version" "License-Expression: MIT" "License-File: LICENSE" "License-File: THIRD_PARTY_NOTICES.md"; do
        if grep -qx "$line" "$info/METADATA" 2>/dev/null; then check "$cpu: METADATA $line" ok; else check "$cpu: METADATA lacks '$line'" fail; fi
    done
    if grep -q "See the libidlelock repository" "$info/METADATA" 2>/dev/null; then
        check "$cpu: METADATA still says 'See the libidlelock repository'" fail
    fi
    if grep -qx "Project-URL: Source, $PROJECT_URL" "$info/METADATA" 2>/dev/null; then
        check "$cpu: METADATA names the project's URL" ok
    else
        check "$cpu: METADATA lacks Project-URL: Source, $PROJECT_URL" fail
    fi
    sed '1,/^$/d' "$info/METADATA" > "$tmp/$cpu.description.md"
    if python3 "$root/scripts/md-links.py" check --packaged "$tmp/$cpu.description.md" --url "$PROJECT_URL" \
            --tag "$PROJECT_TAG" "$root" > "$tmp/$cpu.links.log" 2>&1; then
        check "$cpu: the long description's links work outside the repository" ok
    else
        check "$cpu: the long description has dead links: $(grep dead "$tmp/$cpu.links.log" | head -n 3)" fail
    fi
    others=$(cd "$tmp/$cpu" && find . -type f ! -name '*.py' ! -name py.typed ! -path './idlelock-*.dist-info/*' \
        ! -path ./idlelock/libidlelock.so | tr '\n' ' ')
    if [ -z "$others" ]; then check "$cpu: no other compiled or stray file" ok; else check "$cpu: unexpected files: $others" fail; fi
done

# The musl wheel: its tag, the musl library stripped, the metadata.
set -- "$wheels"/../../dist/idlelock-"$version"-py3-none-musllinux_1_2_x86_64.whl
if [ -f "$1" ]; then
    check "musl: $(basename "$1")" ok
    mkdir -p "$tmp/musl" && (cd "$tmp/musl" && "$python" -m zipfile -e "$1" .)
    strip -o "$tmp/musl.stripped.so" "$root/build/musl/libidlelock.so"
    if cmp -s "$tmp/musl/idlelock/libidlelock.so" "$tmp/musl.stripped.so"; then
        check "musl: idlelock/libidlelock.so is build/musl/libidlelock.so, stripped" ok
    else
        check "musl: idlelock/libidlelock.so differs from build/musl/libidlelock.so stripped" fail
    fi
    if grep -qx "Version: $version" "$tmp/musl/idlelock-$version.dist-info/METADATA" \
            && grep -qx "Tag: py3-none-musllinux_1_2_x86_64" "$tmp/musl/idlelock-$version.dist-info/WHEEL"; then
        check "musl: METADATA's version and WHEEL's tag" ok
    else
        check "musl: METADATA or WHEEL do not say $version, py3-none-musllinux_1_2_x86_64" fail
    fi
else
    check "no musllinux_1_2_x86_64 wheel beside the others (make wheel builds it from make musl)" fail
fi

if grep -qx "version = \"$version\"" "$root/bindings/python/pyproject.toml" \
        && grep -qx "__version__ = \"$version\"" "$root/bindings/python/idlelock/__init__.py"; then
    check "bindings/python: pyproject.toml and __version__ say $version, as the header" ok
else
    check "bindings/python: pyproject.toml's version and __version__ must be the header's $version" fail
fi

host=$(uname -m)
set -- "$wheels"/idlelock-*_"$host".whl
"$python" -m venv "$tmp/venv" || { check "python -m venv" fail; echo "$passed passed, $failed failed"; exit 1; }
if "$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$1" pytest hypothesis; then
    check "pip install $(basename "$1") pytest hypothesis" ok
else
    check "pip install $(basename "$1")" fail
fi
# From the temporary folder, with nothing of the checkout on sys.path: no
# PYTHONPATH, no IDLELOCK_LIBRARY, no LD_LIBRARY_PATH; pytest's cache off
# (its rootdir is bindings/python).
# The tests of what the wheel adds to the package test-python tests (the
# same Python code): where the package is imported from and which library
# it loads (test_bundled), the module and its version against the bundled
# self-contained library (test_module, test_ffi), and every trace replayed
# through it (test_traces: the library's rules and crypto, libsodium
# inside). The rest of the suite runs once, in test-python.
wheel_tests="test_bundled.py test_module.py test_ffi.py test_traces.py test_readme.py"
if (cd "$tmp" && env -u PYTHONPATH -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH IDLELOCK_TEST_INSTALLED="$tmp/venv" \
        "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider \
        $(for t in $wheel_tests; do printf '%s ' "$root/bindings/python/tests/$t"; done)) > "$tmp/pytest.log" 2>&1; then
    check "bindings/python/tests ($wheel_tests) against the installed wheel" ok
else
    check "bindings/python/tests ($wheel_tests) against the installed wheel" fail
    grep -vE '^\.+ *\[ *[0-9]+%\]$' "$tmp/pytest.log"
fi
# The suite's own counts join the checks above in the last line.
summary=$(tail -n 1 "$tmp/pytest.log")
p=$(echo "$summary" | sed -n 's/.*[^0-9]\([0-9][0-9]*\) passed.*/\1/p; s/^\([0-9][0-9]*\) passed.*/\1/p' | head -n 1)
f=$(echo "$summary" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p; s/^\([0-9][0-9]*\) failed.*/\1/p' | head -n 1)
echo "$((passed + ${p:-0})) passed, $((failed + ${f:-0})) failed"
[ "$failed" -eq 0 ]

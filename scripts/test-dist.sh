#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests the source tarball of `make dist` (mk/dist.mk) as a user gets it:
#
#   test-dist.sh TARBALL NAME LOGDIR
#
# 1. What it holds: one top folder NAME/; the licence, libsodium's notice,
#    the header and the build files; no VCS file and no build output; files
#    owned by 0/0 and writable by their owner only.
# 2. Unpacked in a fresh folder outside the checkout (no .git there): the
#    suites its Makefile lists leave out test-dist and the bindings', and
#    `make -n` of them finds every file their rules name; then `make test-c`
#    and `make test-traces` build the library there and pass (test_abi,
#    test_store with 20 kills, every trace), and so does `make
#    test-docs` (the manual it ships is the one its header makes, and every
#    relative link of its Markdown files resolves inside it); `make install
#    PREFIX=<fresh folder>` installs the header, the library, idlelock.pc,
#    the man pages, the HTML manual and LICENSE, `man idlelock_unlock`
#    finds its page there, and the README's C example builds with
#    pkg-config against that install and runs with no library path set;
#    `make dist` there says it needs a git checkout.
# Ends with "N passed, N failed": these checks and the counts of the
# tarball's test-c, test-traces and test-docs added up. Each step's log stays in
# LOGDIR; a failed step shows its end.
set -u
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
name=$2
logdir=$3
passed=0
failed=0
check() {
    if [ "$2" = ok ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
# run LABEL COMMAND...: runs COMMAND with its output in LOGDIR/LABEL.log;
# shows the log's end when it fails.
run() {
    label=$1
    shift
    if "$@" > "$logdir/$label.log" 2>&1; then
        return 0
    else
        rc=$?
        tail -n 40 "$logdir/$label.log" | sed 's/^/     /'
        echo "     (whole log: $logdir/$label.log)"
        return "$rc"
    fi
}
# make in the unpacked folder, as a user runs it: nothing of the make that
# runs this script (its flags, its command-line variables) passes down.
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make -C "$src" --no-print-directory "$@"
}
# suite LABEL: `make LABEL` in the unpacked folder; adds its count line.
suite() {
    if run "$1" mk "$1"; then rc=0; else rc=$?; fi
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logdir/$1.log" | tail -n 1)
    if [ -z "$line" ]; then
        check "make $1 from the tarball: no \"N passed, N failed\" line (exit $rc)" fail
        return
    fi
    p=${line%% passed*} f=${line#*passed, }
    f=${f%% failed}
    [ "$rc" -eq 0 ] || [ "$f" -ne 0 ] || f=1
    passed=$((passed + p)) failed=$((failed + f))
    if [ "$rc" -eq 0 ] && [ "$f" -eq 0 ]; then echo "ok   make $1 from the tarball: $line"
    else echo "FAIL make $1 from the tarball: $line (exit $rc)"; fi
}

rm -rf "$logdir"
mkdir -p "$logdir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# 1. What it holds.
tar tzf "$tarball" > "$tmp/list" || { check "$tarball is not a gzip tar archive" fail; echo "$passed passed, $failed failed"; exit 1; }
outside=$(grep -v "^$name/" "$tmp/list" | head -n 3 | tr '\n' ' ')
if [ -z "$outside" ]; then check "every file is under $name/" ok
else check "files outside $name/: $outside" fail; fi
for f in LICENSE THIRD_PARTY_NOTICES.md README.md Makefile idlelock.map idlelock.pc.in include/idlelock.h; do
    if grep -qx "$name/$f" "$tmp/list"; then check "holds $f" ok; else check "does not hold $f" fail; fi
done
vcs=$(grep -E '(^|/)(\.git[^/]*|\.svn|\.hg|CVS|\.ci)(/|$)' "$tmp/list" | head -n 5 | tr '\n' ' ')
if [ -z "$vcs" ]; then check "no VCS or CI file" ok
else check "VCS or CI files: $vcs" fail; fi
output=$(grep -E '(^|/)(build|\.build|__pycache__|\.pytest_cache|[^/]*\.egg-info)(/|$)|\.(o|a|so|so\.[0-9.]+|pyc|log|tar\.gz|whl|jar|class|nupkg|dll|exe|rock)$' "$tmp/list" | head -n 5 | tr '\n' ' ')
if [ -z "$output" ]; then check "no build output" ok
else check "build output: $output" fail; fi
owners=$(tar tzvf "$tarball" | awk '$2 != "0/0" || substr($1, 6, 1) == "w" || substr($1, 9, 1) == "w" { print $NF }' | head -n 3 | tr '\n' ' ')
if [ -z "$owners" ]; then check "owned by 0/0, writable by the owner only" ok
else check "not 0/0 or writable by group or others: $owners" fail; fi

# 2. Unpacked in a fresh folder.
mkdir "$tmp/unpack"
if ! tar xzf "$tarball" -C "$tmp/unpack"; then
    check "tar xzf failed" fail
    echo "$passed passed, $failed failed"
    exit 1
fi
src=$tmp/unpack/$name
for f in LICENSE THIRD_PARTY_NOTICES.md; do
    if cmp -s "$src/$f" "$f"; then check "its $f is the repository's" ok
    else check "its $f differs from the repository's" fail; fi
done

suites=$(mk -s list-suites 2>"$logdir/list-suites.log" | tr '\n' ' ')
case " $suites " in
    "  ") check "make list-suites in the tarball printed no suite (log: $logdir/list-suites.log)" fail ;;
    *" test-dist "*|*" test-python "*|*" test-model "*|*" test-wheel "*)
        check "the tarball's make test lists a suite whose files it does not hold: $suites" fail ;;
    *) check "the tarball's make test runs: $suites" ok ;;
esac
# shellcheck disable=SC2086
if mk -n $suites > "$logdir/make-n.log" 2> "$logdir/make-n.err"; then
    check "make -n of those suites finds every file their rules name" ok
else
    check "make -n of the tarball's suites failed: $(tr '\n' ' ' < "$logdir/make-n.err")" fail
fi

# What the tarball adds is that it builds, installs and passes its own
# suites; their quick forms (make check's: test_store's kill test with 20
# kills, no valgrind run of the traces) show that. The repository's own
# test-c, test-traces and test-c-sanitized run them in full.
IDLELOCK_TEST_KILLS=20 TRACES_VALGRIND=0
export IDLELOCK_TEST_KILLS TRACES_VALGRIND
suite test-c
suite test-traces
suite test-docs

prefix=$tmp/prefix
if run install mk install PREFIX="$prefix"; then
    missing=""
    for f in include/idlelock.h lib/libidlelock.so.1 lib/libidlelock.so lib/pkgconfig/idlelock.pc \
             share/doc/libidlelock/LICENSE share/doc/libidlelock/idlelock_manual.html \
             share/man/man3/idlelock.3 share/man/man3/idlelock_unlock.3 share/man/man3/idlelock_config.3; do
        [ -e "$prefix/$f" ] || missing="$missing $f"
    done
    if [ -z "$missing" ]; then check "make install PREFIX=... installs the header, the library, idlelock.pc, the manual, LICENSE" ok
    else check "make install did not install:$missing" fail; fi
    shipped=$(ls "$src/docs/man/man3" | wc -l) installed=$(ls "$prefix/share/man/man3" 2>/dev/null | wc -l)
    if [ "$shipped" -eq "$installed" ]; then check "make install installs all $shipped man pages" ok
    else check "make install installed $installed of the $shipped man pages" fail; fi
    page=$(MANPATH="$prefix/share/man" man -w idlelock_unlock 2>"$logdir/man.log")
    if [ "$page" = "$prefix/share/man/man3/idlelock_unlock.3" ]; then check "man idlelock_unlock finds the installed page" ok
    else check "man -w idlelock_unlock with MANPATH=$prefix/share/man gave \"$page\" (log: $logdir/man.log)" fail; fi
    awk '/^```c$/{on=1; next} /^```$/{on=0} on' "$src/README.md" > "$tmp/example.c"
    flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs idlelock 2>"$logdir/pkg-config.log")
    # shellcheck disable=SC2086
    if run example cc -std=c99 -Wall -Wextra -pedantic -Werror "$tmp/example.c" $flags \
            -Wl,-rpath,"$prefix/lib" -o "$tmp/example"; then
        result=$(env -u LD_LIBRARY_PATH "$tmp/example" 2>&1)
        if [ "$result" = "IDLELOCK_OK, state 0" ]; then
            check "the README's example, built with pkg-config against the install, prints \"$result\"" ok
        else
            check "the README's example against the install printed \"$result\"" fail
        fi
    else
        check "the README's example does not build with \`pkg-config --cflags --libs idlelock\` ($flags)" fail
    fi
else
    check "make install PREFIX=... failed" fail
fi

if mk dist > "$logdir/dist.log" 2>&1; then
    check "make dist in the tarball succeeded, though it has no .git" fail
elif grep -q 'needs a git checkout' "$logdir/dist.log"; then
    check "make dist in the tarball says it needs a git checkout" ok
else
    check "make dist in the tarball failed without saying why (log: $logdir/dist.log)" fail
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

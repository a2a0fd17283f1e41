#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests the LuaJIT binding's rocks of `make rock` (mk/luajit.mk):
#
#   test-rock.sh LUAJIT LUAROCKS VERSION DIST_DIR "CPU:ARCH:STRIP ..." BINARY_ROCKSPEC
#
# 0. LuaRocks' own check, `luarocks lint`, passes the source rockspec in
#    DIST_DIR and BINARY_ROCKSPEC (the one inside the binary rocks), and
#    the two say the same package, version, summary, homepage and licence.
# 1. What each CPU's rock carries: the module, lib/idlelock/libidlelock.so
#    byte for byte the stripped self-contained library of `make cross` for
#    that CPU (no symbol table), doc/LICENSE and doc/THIRD_PARTY_NOTICES.md
#    as at the root, doc/README.md with no link that breaks outside the
#    repository, the rockspec with license = "MIT", BINARY_ROCKSPEC.
# 2. This machine's rock installed with `luarocks install --tree` into a
#    fresh temporary folder, offline (a luarocks config with no server):
#    the licence files are in the installed tree, and LuaJIT, given only
#    the tree's paths (`luarocks path`), with no IDLELOCK_LIBRARY and no
#    LD_LIBRARY_PATH, loads the library from the tree and runs the README
#    example (bindings/luajit/examples/quickstart.lua) as printed.
# 3. The source rock (the source rockspec and the source tarball it names)
#    installed the same way, offline: it builds the library from source
#    (Swift, the system's libsodium) and the module from the header, and
#    the example runs on that tree; without swiftc on PATH its build stops
#    and says what it needs.
# Ends with "N passed, N failed"; quiet when everything passes.
set -u
luajit="$1"; luarocks="$2"; version="$3"; dist=$(cd "$4" && pwd); builds="$5"; binary_spec="$6"
root=$(pwd)
passed=0
failed=0
log=""
check() {
    if [ "$2" = ok ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $1"
        [ -z "${3:-}" ] || { echo "$3" | sed 's/^/    /'; }
    fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-rock.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
name="idlelock-$version-1"
host=$(uname -m)
host_arch=""
printf 'rocks_servers = {}\n' > "$tmp/luarocks-config.lua"
lr() { env HOME="$tmp" LUAROCKS_CONFIG="$tmp/luarocks-config.lua" "$luarocks" "$@"; }

# -- 0. the rockspecs ----------------------------------------------------------------
for spec in "$dist/$name.rockspec" "$binary_spec"; do
    if out=$(cd "$tmp" && lr lint "$spec" 2>&1); then
        check "luarocks lint $(basename "$(dirname "$spec")")/$(basename "$spec")" ok
    else
        check "luarocks lint $spec" fail "$out"
    fi
done
fields() { lua5.1 -e 'dofile(arg[1]); print(package, version, description.summary, description.homepage, description.license)' "$1" 2>&1; }
if [ "$(fields "$dist/$name.rockspec")" = "$(fields "$binary_spec")" ]; then
    check "the source and binary rockspecs agree on package, version, summary, homepage, licence" ok
else
    check "the source and binary rockspecs disagree" fail "$(fields "$dist/$name.rockspec"; fields "$binary_spec")"
fi

for build in $builds; do
    cpu=${build%%:*}; rest=${build#*:}; arch=${rest%%:*}; strip=${rest#*:}
    rock="$dist/$name.$arch.rock"
    if [ ! -f "$rock" ]; then check "$cpu: $rock exists" fail; continue; fi
    [ "$cpu" = "$host" ] && host_arch=$arch
    out="$tmp/$cpu"
    mkdir -p "$out"
    (cd "$out" && unzip -q "$rock") || { check "$cpu: unzip $name.$arch.rock" fail; continue; }
    files=$(cd "$out" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
    want="./doc/LICENSE ./doc/README.md ./doc/THIRD_PARTY_NOTICES.md ./$name.rockspec ./lib/idlelock/libidlelock.so ./lua/idlelock.lua ./rock_manifest "
    if [ "$files" = "$want" ]; then check "$cpu: the rock's files" ok; else check "$cpu: the rock's files" fail "$files"; fi
    "$strip" -o "$tmp/$cpu.stripped.so" "$root/build/$cpu/self-contained/libidlelock.so"
    if cmp -s "$out/lib/idlelock/libidlelock.so" "$tmp/$cpu.stripped.so"; then
        check "$cpu: libidlelock.so is build/$cpu/self-contained/libidlelock.so, stripped" ok
    else
        check "$cpu: libidlelock.so is not build/$cpu/self-contained/libidlelock.so stripped" fail
    fi
    if readelf -S "$out/lib/idlelock/libidlelock.so" | grep -q '\.symtab'; then
        check "$cpu: the library is stripped (no .symtab)" fail
    else
        check "$cpu: the library is stripped" ok
    fi
    for f in LICENSE THIRD_PARTY_NOTICES.md; do
        if cmp -s "$out/doc/$f" "$root/$f"; then check "$cpu: doc/$f" ok; else check "$cpu: doc/$f is the root's $f" fail; fi
    done
    if grep -q '^   license = "MIT",$' "$out/$name.rockspec" && cmp -s "$out/$name.rockspec" "$binary_spec"; then
        check "$cpu: the rockspec (license MIT) is the binary one" ok
    else
        check "$cpu: the rockspec inside says license = \"MIT\" and is $binary_spec" fail
    fi
    if links=$(python3 "$root/scripts/md-links.py" check --packaged "$out/doc/README.md" --url "$PROJECT_URL" \
            --tag "$PROJECT_TAG" "$root" 2>&1); then
        check "$cpu: doc/README.md has no link that breaks outside the repository" ok
    else
        check "$cpu: doc/README.md has dead links" fail "$links"
    fi
done

# -- this machine's rock, installed with luarocks into a fresh tree ----------
if [ -z "$host_arch" ]; then
    check "a rock for this machine's CPU ($host)" fail
    echo "$passed passed, $failed failed"
    exit 1
fi
tree="$tmp/tree"
if (cd "$tmp" && env HOME="$tmp" LUAROCKS_CONFIG="$tmp/luarocks-config.lua" \
        "$luarocks" install --tree "$tree" "$dist/$name.$host_arch.rock") > "$tmp/install.log" 2>&1; then
    check "luarocks install --tree (fresh folder, offline) $name.$host_arch.rock" ok
else
    check "luarocks install --tree $name.$host_arch.rock" fail "$(cat "$tmp/install.log")"
fi
for f in LICENSE THIRD_PARTY_NOTICES.md; do
    installed="$tree/lib/luarocks/rocks-5.1/idlelock/$version-1/doc/$f"
    if cmp -s "$installed" "$root/$f"; then check "installed: $f" ok; else check "installed: $f in the tree ($installed)" fail; fi
done
if [ -f "$tree/share/lua/5.1/idlelock.lua" ] && [ -f "$tree/lib/lua/5.1/idlelock/libidlelock.so" ]; then
    check "installed: the module and its library" ok
else
    check "installed: share/lua/5.1/idlelock.lua and lib/lua/5.1/idlelock/libidlelock.so" fail "$(find "$tree" -type f)"
fi

# The tree's paths, as `luarocks path` gives them to a user's shell; no
# IDLELOCK_LIBRARY, no LD_LIBRARY_PATH; run from the temporary folder.
paths=$(env HOME="$tmp" LUAROCKS_CONFIG="$tmp/luarocks-config.lua" "$luarocks" path --tree "$tree")
run() {
    (cd "$tmp" && eval "$paths" && env -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH "$luajit" "$@")
}
loaded=$(run -e 'print(require("idlelock").library_path)' 2>&1)
if [ "$loaded" = "$tree/lib/lua/5.1/idlelock/libidlelock.so" ]; then
    check "require \"idlelock\" loads the tree's library" ok
else
    check "require \"idlelock\" loads the tree's library, not: $loaded" fail
fi
if run "$root/bindings/luajit/examples/quickstart.lua" > "$tmp/example.out" 2>&1 \
        && cmp -s "$tmp/example.out" "$root/bindings/luajit/examples/quickstart.expected"; then
    check "the README example (examples/quickstart.lua) on the installed rock" ok
else
    check "the README example (examples/quickstart.lua) on the installed rock" fail "$(cat "$tmp/example.out")"
fi
# -- 3. the source rock, built from source -------------------------------------------
src="$dist/$name.src.rock"
stree="$tmp/source-tree"
if (cd "$tmp" && lr install --tree "$stree" "$src") > "$tmp/source.log" 2>&1; then
    check "luarocks install --tree (offline) $name.src.rock: the library built from source" ok
else
    check "luarocks install --tree $name.src.rock" fail "$(tail -n 30 "$tmp/source.log")"
fi
spaths=$(lr path --tree "$stree")
got=$(cd "$tmp" && eval "$spaths" && env -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH "$luajit" \
    -e 'print(require("idlelock").library_path)' 2>&1)
if [ "$got" = "$stree/lib/lua/5.1/idlelock/libidlelock.so" ] \
        && readelf -d "$got" 2>/dev/null | grep -q 'Library soname: \[libidlelock.so.1\]'; then
    check "the source rock's tree holds the library built from source (libidlelock.so.1), and the module loads it" ok
else
    check "the source rock's module loaded \"$got\", not the library it built" fail
fi
if (cd "$tmp" && eval "$spaths" && env -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH "$luajit" \
        "$root/bindings/luajit/examples/quickstart.lua") > "$tmp/source-example.out" 2>&1 \
        && cmp -s "$tmp/source-example.out" "$root/bindings/luajit/examples/quickstart.expected"; then
    check "the README example on the source rock's tree" ok
else
    check "the README example on the source rock's tree" fail "$(cat "$tmp/source-example.out")"
fi
path=$(printf '%s' "$PATH" | tr ':' '\n' | while IFS= read -r d; do [ -x "$d/swiftc" ] || printf '%s:' "$d"; done)
if (cd "$tmp" && PATH="${path%:}" lr install --tree "$tmp/noswift" "$src") > "$tmp/noswift.log" 2>&1; then
    check "the source rock built with no swiftc on PATH" fail
elif grep -q "needs the Swift toolchain 6.3 or later (swiftc" "$tmp/noswift.log"; then
    check "without swiftc the source rock's build says what it needs" ok
else
    check "without swiftc the source rock's build failed without saying why" fail "$(tail -n 15 "$tmp/noswift.log")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

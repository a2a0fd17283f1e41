#!/bin/sh
# run-examples.sh OUTDIR LIBDIR: every ```csharp block of bindings/csharp/README.md
# is a file of bindings/csharp/examples/ (its first line names it) and equals it
# byte for byte; each example is compiled against OUTDIR/LibIdleLock.dll and run
# on Mono with the library of LIBDIR. Quiet when all hold; ends with its count.
set -u
out=$1 libdir=$2
dir=bindings/csharp/examples
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0 passed=0
fail() { echo "run-examples: $*"; failed=$((failed + 1)); }

# The README's blocks, one file each.
awk -v w="$work" '/^```csharp$/ { n++; f = w "/block" n ".cs"; on = 1; next }
                  /^```$/ { on = 0 } on { print > f }' bindings/csharp/README.md
blocks=$(ls "$work"/block*.cs 2>/dev/null | wc -l)
[ "$blocks" -gt 0 ] || fail "README.md has no csharp block"
for b in "$work"/block*.cs; do
    [ -f "$b" ] || continue
    name=$(head -n 1 "$b" | sed -n 's|^// \(bindings/csharp/examples/[A-Za-z]*\.cs\):.*|\1|p')
    if [ -z "$name" ] || [ ! -f "$name" ]; then
        fail "a README block is no example file (its first line: $(head -n 1 "$b"))"
    elif ! cmp -s "$b" "$name"; then
        fail "the README's block of $name differs from the file:"; diff -u "$name" "$b" | head -20
    else
        passed=$((passed + 1))
    fi
done
for f in "$dir"/*.cs; do
    grep -q "^// $f:" bindings/csharp/README.md || fail "$f is not in README.md"
done

run() { # name, expected last line, sources...
    name=$1 want=$2
    shift 2
    if ! mcs -warn:4 -warnaserror+ -nologo -r:"$out/LibIdleLock.dll" -out:"$work/$name.exe" "$@" > "$work/$name.log" 2>&1; then
        fail "$name does not compile:"; cat "$work/$name.log"; return
    fi
    LD_LIBRARY_PATH=$libdir MONO_PATH=$out timeout 120 mono --debug "$work/$name.exe" > "$work/$name.out" 2>&1
    rc=$?
    got=$(tail -n 1 "$work/$name.out")
    if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
        fail "$name exited $rc, last line \"$got\" (want \"$want\"):"; cat "$work/$name.out"
    else
        passed=$((passed + 1))
    fi
}
run Example "token: eyJhbGciOi" "$dir/Example.cs"
run UnityBiometrics "UnityBiometrics: ok" "$dir/UnityBiometrics.cs" "$dir/driver/UnityBiometricsDriver.cs"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

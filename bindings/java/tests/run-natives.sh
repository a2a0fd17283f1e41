#!/bin/sh
# SPDX-License-Identifier: MIT
# run-natives.sh DIR BUILD CPU...: each CPU's natives of the unpacked jar
# (DIR/org/idlelock/native/linux-<cpu>/) load and work on that CPU, under
# qemu-user for ARM (no -L: the multiarch libc6 of the CPU, as mk/cross.mk
# runs its tests): load-natives.c, built with the CPU's gcc (CC_<cpu>,
# CODEGEN_<cpu>, RUN_<cpu> in the environment) into BUILD/<cpu>/jar-test/,
# dlopens the glue, whose NEEDED libidlelock.so must be found beside it.
# Prints "N passed, N failed".
set -u
dir=$1 build=$2
shift 2
passed=0 failed=0
for cpu in "$@"; do
    eval "cc=\${CC_$cpu} codegen=\${CODEGEN_$cpu:-} run=\${RUN_$cpu:-}"
    prog=$build/$cpu/jar-test/load-natives
    mkdir -p "$(dirname "$prog")"
    # shellcheck disable=SC2086 # flag lists
    if ! $cc -std=c99 -Wall -Wextra -Werror $codegen -Iinclude bindings/java/tests/load-natives.c -ldl -o "$prog" > "$prog.log" 2>&1; then
        failed=$((failed + 1)); echo "FAIL $cpu: cannot build load-natives:"; cat "$prog.log"; continue
    fi
    # shellcheck disable=SC2086
    out=$(env -u LD_LIBRARY_PATH $run "$prog" "$dir/org/idlelock/native/linux-$cpu/libidlelock_jni.so" 2>&1)
    case "$out" in
        *" ok") passed=$((passed + 1)) ;;
        *) failed=$((failed + 1)); echo "FAIL $cpu: the jar's natives do not load on the CPU: $out" ;;
    esac
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

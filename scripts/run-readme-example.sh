#!/bin/sh
# SPDX-License-Identifier: MIT
# Compiles and runs the C example of README.md exactly as written, so the
# README cannot drift from the library.
set -eu
out="${1:-build}/readme-example"
awk '/^```c$/{on=1; next} /^```$/{on=0} on' README.md > "$out.c"
cc -std=c99 -Wall -Wextra -pedantic -Werror "$out.c" -Iinclude -Lbuild -lidlelock \
    -Wl,-rpath,"$(pwd)/build" -o "$out"
result=$("$out")
echo "README example printed: $result"
[ "$result" = "IDLELOCK_OK, state 0" ]

#!/bin/sh
# SPDX-License-Identifier: MIT
# check-spdx.sh: every source file of the project names its licence (an
# `SPDX-License-Identifier: MIT` line within its first lines), LICENSE and
# THIRD_PARTY_NOTICES.md are present. Example programs (examples/ folders:
# code an app copies, shown verbatim in the READMEs) and data (corpora,
# traces, expected outputs) are left out, and so is third_party/ (files
# vendored as they are upstream, under their own licences: its README). Run from the repository root or
# an unpacked source tarball; prints "N passed, N failed".
set -u
passed=0
failed=0
for f in LICENSE THIRD_PARTY_NOTICES.md; do
    if [ -f "$f" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $f is missing"; fi
done
list=$(find . \( -path ./build -o -path ./.build -o -path ./.git -o -path ./third_party -o -name corpus -o -name examples \) -prune -o \
    -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.py' -o -name '*.java' \
    -o -name '*.cs' -o -name '*.lua' -o -name '*.sh' -o -name '*.mk' -o -name '*.modulemap' -o -name Makefile \
    -o -path ./.ci/run \) -print | sort)
for f in $list; do
    if head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $f: no 'SPDX-License-Identifier: MIT' in its first 3 lines"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

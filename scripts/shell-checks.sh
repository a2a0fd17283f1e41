# SPDX-License-Identifier: MIT
# shell-checks.sh: what a shell test of this tree's scripts shares, sourced
# after it sets checks_name (`checks_name=NAME; . "$here/shell-checks.sh"`,
# with $here its folder; the name starts each FAIL line):
#   $work     a fresh folder in TMPDIR, removed when the test exits
#   check DESCRIPTION COMMAND [ARG...]
#             one check: passes when COMMAND exits 0, else prints
#             "FAIL NAME: DESCRIPTION"
#   checks_end
#             prints "N passed, N failed" and returns 1 when a check
#             failed (the test's last command: its exit status)
set -u
work=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-$checks_name.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() {
    check_description=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $checks_name: $check_description"; fi
}
checks_end() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

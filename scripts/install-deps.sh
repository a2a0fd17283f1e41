#!/bin/sh
# Installs what the build and the tests need on a fresh Debian machine that
# has only the Swift toolchain: libsodium's headers (Debian libsodium-dev)
# and the Python test packages. Does nothing for what is already there.
set -eu

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=""
[ -f /usr/include/sodium.h ] || missing="$missing libsodium-dev"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
if [ -n "$missing" ]; then
    echo "install-deps: installing$missing"
    as_root apt-get update -qq
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

if [ "${1:-}" = "--test" ]; then
    if ! python3 -c "import pytest, hypothesis" >/dev/null 2>&1; then
        echo "install-deps: installing pytest and hypothesis"
        python3 -m pip install --quiet --disable-pip-version-check pytest hypothesis
    fi
fi

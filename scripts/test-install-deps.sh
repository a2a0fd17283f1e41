#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests scripts/install-deps.sh against a fake apt-get and dpkg-query (no
# package is installed, nothing is downloaded), for what a fresh machine
# meets: a package mirror in the middle of a sync serves a stale index and
# `apt-get update` exits 100 although the install would succeed (issue 26,
# finding 10). The script must warn, retry once, try the install anyway,
# and fail only when the install fails, naming what is still missing.
# Prints "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
checks_name=test-install-deps
. "$here/shell-checks.sh"

# The fakes: apt-get logs each call to $work/calls and exits with
# $FAKE_UPDATE_RC for update and $FAKE_INSTALL_RC for install; dpkg-query
# knows no package (so musl-tools is missing); `id -u` says root.
mkdir -p "$work/bin"
cat > "$work/bin/apt-get" <<'FAKE'
#!/bin/sh
echo "apt-get $*" >> "$FAKE_CALLS"
case " $* " in
    *" update "*) [ "$FAKE_UPDATE_RC" = 0 ] || echo "E: File has unexpected size (356624 != 356976). Mirror sync in progress?" >&2; exit "$FAKE_UPDATE_RC" ;;
    *" install "*) exit "$FAKE_INSTALL_RC" ;;
esac
exit 0
FAKE
printf '#!/bin/sh\nexit 1\n' > "$work/bin/dpkg-query"
printf '#!/bin/sh\necho 0\n' > "$work/bin/id"
chmod +x "$work/bin/apt-get" "$work/bin/dpkg-query" "$work/bin/id"

run() { # run UPDATE_RC INSTALL_RC: install-deps.sh --musl; its exit status
    : > "$work/calls"
    PATH="$work/bin:$PATH" FAKE_CALLS="$work/calls" FAKE_UPDATE_RC=$1 FAKE_INSTALL_RC=$2 \
        IDLELOCK_APT_RETRY_SECONDS=0 sh "$here/install-deps.sh" --musl > "$work/out" 2>&1
}

# A stale index: update fails twice, the install goes ahead and succeeds.
run 100 0
rc=$?
check "a failed update stops the script (exit $rc)" [ "$rc" = 0 ]
check "update is retried once" [ "$(grep -c ' update' "$work/calls")" = 2 ]
check "the install runs after a failed update" grep -q 'install .*musl-tools' "$work/calls"
check "the failed update is a warning" grep -q 'warning: apt-get update failed' "$work/out"

# The install itself fails: the script fails and names what is missing.
run 100 100
rc=$?
check "a failed install passes (exit $rc)" [ "$rc" != 0 ]
check "the failure names the missing package" grep -q 'could not install: musl-tools' "$work/out"

# The update works: one update, one install.
run 0 0
rc=$?
check "a clean install fails (exit $rc)" [ "$rc" = 0 ]
check "a working update is run once" [ "$(grep -c ' update' "$work/calls")" = 1 ]

checks_end

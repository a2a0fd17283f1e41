#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates third_party/aosp/ from AOSP's repositories at the commits
# third_party/aosp/SOURCES pins (read third_party/aosp/README.md first):
#
#   vendor-aosp.sh BIONIC_GIT LIBNATIVEHELPER_GIT [--list FILE]
#
# Each *_GIT is a clone of that repository (a bare one will do: files are
# read with `git show COMMIT:PATH`, never from a work tree). The files
# copied are those third_party/aosp/SHA256SUMS names, or, with --list, the
# paths in FILE (one per line, as third_party/aosp/<repository>/<path>: a
# new subset, when the build needs another header); SHA256SUMS is then
# written anew from what was copied, so that `sha256sum -c` in
# third_party/aosp/ (test-android does it) proves every file is the
# pinned commit's, byte for byte.
set -eu
[ $# -ge 2 ] || { echo "usage: vendor-aosp.sh BIONIC_GIT LIBNATIVEHELPER_GIT [--list FILE]" >&2; exit 2; }
bionic_git=$1 jni_git=$2
shift 2
top=third_party/aosp
list=
if [ "${1:-}" = --list ]; then list=$2; fi
[ -f "$top/SOURCES" ] || { echo "vendor-aosp.sh: run from the repository's top folder ($top/SOURCES not found)" >&2; exit 2; }

commit_of() { awk -v r="$1" '$1 == r { print $2 }' "$top/SOURCES"; }
git_of() { case "$1" in bionic) echo "$bionic_git" ;; libnativehelper) echo "$jni_git" ;; *) return 1 ;; esac; }

paths=$(mktemp)
trap 'rm -f "$paths"' EXIT
if [ -n "$list" ]; then
    sed 's|^third_party/aosp/||' "$list" | sort -u > "$paths"
else
    awk '{ print $2 }' "$top/SHA256SUMS" > "$paths"
fi

while read -r path; do
    repo=${path%%/*}
    inner=${path#*/}
    commit=$(commit_of "$repo")
    git=$(git_of "$repo") || { echo "vendor-aosp.sh: $path: no repository $repo in $top/SOURCES" >&2; exit 1; }
    mkdir -p "$top/$(dirname "$path")"
    git -C "$git" show "$commit:$inner" > "$top/$path" \
        || { echo "vendor-aosp.sh: $inner is not in $repo at $commit" >&2; exit 1; }
done < "$paths"
(cd "$top" && xargs sha256sum < "$paths" > SHA256SUMS)
echo "vendor-aosp.sh: $(wc -l < "$paths") files in $top, SHA256SUMS written"

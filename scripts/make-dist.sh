#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the source tarball of `make dist` (mk/dist.mk):
#
#   make-dist.sh TARBALL NAME PATH...
#
# TARBALL (NAME.tar.gz) holds the files git tracks under the PATHs, as they
# are in the working tree, each under the top folder NAME/. In its Markdown
# files, a relative link to a file the tarball does not hold (a binding's
# README, an example) becomes a link to that file in the repository at
# this version, PROJECT_URL/blob/PROJECT_TAG/<path> (scripts/md-links.py
# absolute; PROJECT_URL and PROJECT_TAG from the environment), so no link
# in the tarball is dead. Reproducible: names sorted, owner and group 0,
# modes 0644 or 0755, every time the last commit's (or SOURCE_DATE_EPOCH),
# gzip with no name or time stamp. A TARBALL that already holds these
# bytes is left as it is (its time too, so nothing made from it is remade);
# otherwise it is replaced, with one line saying so. A note says when the
# working tree has changes not committed (the tarball holds them: a release
# is made from a clean tree).
set -eu
tarball=$1 name=$2
shift 2
: "${PROJECT_URL:?make-dist.sh: PROJECT_URL is not set (the Makefile sets it)}"
: "${PROJECT_TAG:?make-dist.sh: PROJECT_TAG is not set (the Makefile sets it)}"

top=$(git rev-parse --show-toplevel 2>/dev/null || true)
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(pwd -P)" ]; then
    echo "make dist: needs a git checkout of libidlelock (it packs the files git tracks);" >&2
    echo "this folder is not one (a tarball's own folder?): build it with make lib, make install" >&2
    exit 2
fi
if [ -n "$(git status --porcelain --untracked-files=no -- "$@")" ]; then
    echo "  note    the working tree has changes not committed; the tarball holds them"
fi
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}

dir=$(dirname "$tarball")
mkdir -p "$dir"
# The temporary files go on any exit: sh runs no EXIT trap when a signal
# ends it, so INT, TERM and HUP exit through it (a Ctrl-C left a
# TARBALL.XXXXXX beside the tarball, which release-sums would list as part
# of the release, and a folder in /tmp).
work="" part=""
trap 'rm -rf "$work" "$part"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
work=$(mktemp -d "${TMPDIR:-/tmp}/idlelock-dist.XXXXXX")
# The tarball is written under a name of its own beside TARBALL and renamed
# into place: two makes that pack it at once (make test's suites each ask
# for `make dist`) each rename a whole file, and a reader never sees half
# of one. Its mode is the one the umask gives a new file.
part=$(mktemp "$tarball.XXXXXX" 2>/dev/null) || {
    echo "make dist: cannot create a file in $dir (read-only, or not a folder?): make it writable, or set BUILD to a folder you can write" >&2
    exit 1
}
list=$work/list
# Tracked files that exist (a file deleted but not yet `git rm`ed is left
# out), NUL-separated.
git ls-files -z -- "$@" | xargs -0 sh -c 'for f; do [ ! -f "$f" ] || printf "%s\0" "$f"; done' keep > "$list"
tr '\0' '\n' < "$list" > "$work/shipped"
# A copy of them to pack, its Markdown links made to hold outside the repository.
mkdir "$work/stage"
tar --create --null --files-from="$list" | tar --extract --directory="$work/stage"
grep '\.md$' "$work/shipped" | while IFS= read -r f; do
    python3 scripts/md-links.py absolute --url "$PROJECT_URL" --tag "$PROJECT_TAG" --path "$f" \
        --keep "$work/shipped" "$work/stage/$f" "$work/stage/$f"
done
tar --create --directory="$work/stage" --null --files-from="$list" --sort=name --format=gnu \
    --transform="flags=r;s|^|$name/|" \
    --owner=0 --group=0 --numeric-owner --mode='u+rw,go=rX,go-w' --mtime="@$epoch" \
    | gzip -9 -n > "$part"
if cmp -s "$part" "$tarball"; then
    exit 0
fi
printf '  %-7s %s\n' TAR "$tarball"
chmod "$(umask -S | tr -d x)" "$part"
mv "$part" "$tarball"

#!/bin/sh
# Check that the patch queue round-trips: a fresh unpack + apply reproduces
# build/src (when present) and re-exporting reproduces patches/ byte for
# byte; that the one-file bundle (Tools/lazy/bundle.sh) reproduces the same
# tree; and that no tracked file of the repository shadows an upstream file.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/UPSTREAM"
work=$(mktemp -d "$top/build/check.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0

tar -tf "$top/build/$TARBALL" 2>/dev/null | sed 's|^[^/]*/||' | sort >"$work/upstream-files" ||
    { sh "$top/Tools/lazy/fetch.sh" >/dev/null && tar -tf "$top/build/$TARBALL" | sed 's|^[^/]*/||' | sort >"$work/upstream-files"; }
# The project's own README.rst and .gitignore describe the repository, not
# the CPython tree, and are never copied into it.
git -C "$top" ls-files | grep -vxE 'README\.rst|\.gitignore' | sort >"$work/own-files"
clash=$(comm -12 "$work/upstream-files" "$work/own-files")
if [ -n "$clash" ]; then
    echo "check-patches: these tracked files exist in the pristine tarball; change them through patches/ instead:" >&2
    echo "$clash" >&2
    status=1
fi

sh "$top/Tools/lazy/src.sh" "$work/src" >/dev/null
if [ -d "$top/build/src/.git" ]; then
    a=$(git -C "$work/src" rev-parse 'HEAD^{tree}')
    b=$(git -C "$top/build/src" rev-parse 'HEAD^{tree}')
    if [ "$a" != "$b" ]; then
        echo "check-patches: build/src differs from a fresh apply of patches/ (run 'make patches'):" >&2
        git -C "$top/build/src" diff --stat "$a" HEAD >&2 || true
        status=1
    fi
fi
sh "$top/Tools/lazy/export-patches.sh" "$work/src" "$work/out" >/dev/null
if ! diff -r "$top/patches" "$work/out" >"$work/diff"; then
    echo "check-patches: exporting a fresh apply does not reproduce patches/ byte for byte:" >&2
    head -40 "$work/diff" >&2
    status=1
fi
# The one-file bundle of the queue and the own files (make bundle), applied
# with patch -p1 to a fresh pristine unpack, gives the same tree.
sh "$top/Tools/lazy/bundle.sh" check "$work/src" >/dev/null || status=1
# Every patch says where it comes from and why it is not sent upstream
# (DEP-3 trailers, as Debian's quilt series have), and its subject fits in
# 72 characters.
for patch in "$top"/patches/*.patch; do
    for field in Origin Forwarded; do
        if ! grep -q "^$field: " "$patch"; then
            echo "check-patches: $(basename "$patch") has no $field: trailer" >&2
            status=1
        fi
    done
    subject=$(git mailinfo /dev/null /dev/null <"$patch" | sed -n 's/^Subject: //p')
    if [ "${#subject}" -gt 72 ]; then
        echo "check-patches: $(basename "$patch"): subject longer than 72 characters" >&2
        status=1
    fi
done
[ $status = 0 ] && echo "check-patches: OK ($(grep -vc '^#' "$top/patches/series") patches round-trip)"
exit $status

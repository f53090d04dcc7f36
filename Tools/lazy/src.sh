#!/bin/sh
# Create the patch-queue tree: pristine source as a git repository (commit
# tagged 'upstream'), the fork's own files symlinked in (ignored by git), and
# one commit per patch of patches/series applied with 'git am' (no fuzz).
#   src.sh DEST
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(realpath -m "${1:-$top/build/src}")
. "$top/UPSTREAM"

if [ -e "$dest" ]; then
    echo "src: $dest exists; remove it first (rm -rf $dest) to recreate it" >&2
    exit 1
fi
sh "$top/Tools/lazy/fetch.sh" >/dev/null
tmp="$dest.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
tar -xf "$top/build/$TARBALL" -C "$tmp" --strip-components=1

export GIT_AUTHOR_NAME=upstream GIT_AUTHOR_EMAIL=upstream@invalid
export GIT_COMMITTER_NAME=lazy-cpython GIT_COMMITTER_EMAIL=lazy-cpython@invalid
export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'
g() { git -C "$tmp" -c core.autocrlf=false -c core.whitespace=-trailing-space "$@"; }
g init -q -b main
# Upstream's .gitignore would hide some pristine files; track everything.
g add -A -f .
g commit -q -m "upstream: CPython $VERSION ($TARBALL)"
g tag upstream
echo '__pycache__/' >>"$tmp/.git/info/exclude"

# The fork's own files, symlinked so that edits land in the repository.
sh "$top/Tools/lazy/link.sh" "$tmp"

grep -v '^[[:space:]]*\(#\|$\)' "$top/patches/series" 2>/dev/null | while read -r p; do
    if ! g am -q --whitespace=nowarn --keep-cr "$top/patches/$p"; then
        g am --abort 2>/dev/null || true
        echo "src: patch $p does not apply; fix it (no fuzz is allowed)" >&2
        exit 1
    fi
done
mv "$tmp" "$dest"
echo "src: $dest ready ($(git -C "$dest" rev-list --count upstream..HEAD) patches applied)"

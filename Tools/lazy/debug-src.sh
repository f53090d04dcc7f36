#!/bin/sh
# Make (or refresh) a source tree from what is committed: the patch queue of
# HEAD applied to the pristine tarball (Tools/lazy/src.sh), and the fork's
# own files copied from HEAD instead of symlinked, so that a build from it
# does not see edits in progress in the working tree or in build/src.
#   debug-src.sh DEST [COMMIT]
# COMMIT (default HEAD) is the commit of this repository to take them from
# (make install and make dist build the commit their revision names).
# The tree is remade only when HEAD's patches or own files change (the key
# is kept in DEST/.snap-id), and then only the files whose content changed
# are replaced, so that builds from it recompile only what changed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(realpath -m "$1")
commit=$(git -C "$top" rev-parse --verify "${2:-HEAD}^{commit}")
cd "$top"
own=$(git ls-tree -r --name-only "$commit" -- Objects Include Python Modules Lib Doc Misc Parser Programs PC)
key=$(git ls-tree -r "$commit" -- patches $own | git hash-object --stdin)
if [ -f "$dest/.snap-id" ] && [ "$(cat "$dest/.snap-id")" = "$key" ]; then
    echo "debug-src: $dest is up to date with $(git rev-parse --short "$commit")"
    exit 0
fi
# src.sh reads patches/ from the working tree: apply the commit's queue instead.
queue=$(mktemp -d)
trap 'rm -rf "$queue"' EXIT
git archive "$commit" patches | tar -x -C "$queue"
tmp="$dest.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
. "$top/UPSTREAM"
sh "$top/Tools/lazy/fetch.sh" >/dev/null
tar -xf "$top/build/$TARBALL" -C "$tmp" --strip-components=1
export GIT_AUTHOR_NAME=upstream GIT_AUTHOR_EMAIL=upstream@invalid
export GIT_COMMITTER_NAME=lazy-cpython GIT_COMMITTER_EMAIL=lazy-cpython@invalid
export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'
g() { git -C "$tmp" -c core.autocrlf=false -c core.whitespace=-trailing-space "$@"; }
g init -q -b main
g add -A -f .
g commit -q -m "upstream: CPython $VERSION ($TARBALL)"
g tag upstream
printf '__pycache__/\n/.snap-id\n' >>"$tmp/.git/info/exclude"
for f in $own; do
    if [ -e "$tmp/$f" ]; then
        echo "debug-src: $f exists upstream; it must change through a patch" >&2
        exit 1
    fi
    mkdir -p "$tmp/$(dirname "$f")"
    git show "$commit:$f" >"$tmp/$f"
    echo "/$f" >>"$tmp/.git/info/exclude"
done
grep -v '^[[:space:]]*\(#\|$\)' "$queue/patches/series" | while read -r p; do
    if ! g am -q --whitespace=nowarn --keep-cr "$queue/patches/$p"; then
        g am --abort 2>/dev/null || true
        echo "debug-src: patch $p does not apply" >&2
        exit 1
    fi
done
echo "$key" >"$tmp/.snap-id"
if [ -d "$dest" ]; then
    # Keep the files (and mtimes) that did not change; __pycache__
    # directories written by test runs stay.
    diff -rq -x .git -x __pycache__ "$dest" "$tmp" >"$tmp.diff" || true
    only() {  # only DIR: the paths present in DIR alone, relative to it
        sed -n -e "s|^Only in $1: \(.*\)|\1|p" \
            -e "s|^Only in $1/\([^:]*\): \(.*\)|\1/\2|p" "$tmp.diff"
    }
    only "$dest" | while read -r f; do rm -rf "$dest/$f"; done
    only "$tmp" | while read -r f; do
        mkdir -p "$dest/$(dirname "$f")"; cp -a "$tmp/$f" "$dest/$f"
    done
    sed -n "s|^Files $dest/\(.*\) and $tmp/.* differ\$|\1|p" "$tmp.diff" |
        while read -r f; do cp -a "$tmp/$f" "$dest/$f"; done
    rm -rf "$dest/.git" "$tmp.diff"
    mv "$tmp/.git" "$dest/.git"
    rm -rf "$tmp"
else
    mv "$tmp" "$dest"
fi
echo "debug-src: $dest ready at $(git rev-parse --short "$commit") ($(git -C "$dest" rev-list --count upstream..HEAD) patches)"

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
. "$(dirname "$0")/lib.sh"
dest=$(realpath -m "$1")
commit=$(git -C "$top" rev-parse --verify "${2:-HEAD}^{commit}")
cd "$top"
# shellcheck disable=SC2086
own=$(git ls-tree -r --name-only "$commit" -- $OWN_DIRS)
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
unpack_upstream "$tmp"
init_queue "$tmp"
echo '/.snap-id' >>"$tmp/.git/info/exclude"
for f in $own; do
    if [ -e "$tmp/$f" ]; then
        die "$f exists upstream; it must change through a patch"
    fi
    mkdir -p "$tmp/$(dirname "$f")"
    git show "$commit:$f" >"$tmp/$f"
    echo "/$f" >>"$tmp/.git/info/exclude"
done
apply_series "$tmp" "$queue/patches"
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

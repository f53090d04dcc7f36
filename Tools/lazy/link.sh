#!/bin/sh
# Symlink the fork's own files (those at CPython paths) into a source tree,
# hidden from its git if it is a git repository (build/src; check-series.sh
# links them into trees without one).  Idempotent: run again after adding a
# file.  A link whose file the repository no longer has (moved or deleted)
# is removed.
#   link.sh SRCDIR
set -eu
. "$(dirname "$0")/lib.sh"
dest=$(realpath "$1")
exclude="$dest/.git/info/exclude"
[ -d "$dest/.git" ] || exclude=/dev/null
own_files | while read -r f; do
    if [ -L "$dest/$f" ]; then
        grep -qxF "/$f" "$exclude" 2>/dev/null || echo "/$f" >>"$exclude"
        continue
    fi
    if [ -e "$dest/$f" ]; then
        die "$f exists upstream; it must change through a patch"
    fi
    mkdir -p "$dest/$(dirname "$f")"
    ln -s "$top/$f" "$dest/$f"
    grep -qxF "/$f" "$exclude" 2>/dev/null || echo "/$f" >>"$exclude"
done
# Links this script made (listed in the exclude file) that now point nowhere.
sed -n 's|^/||p' "$exclude" 2>/dev/null | while read -r f; do
    if [ -L "$dest/$f" ] && [ ! -e "$dest/$f" ]; then
        rm "$dest/$f"
        say "removed $f (no longer in the repository)"
    fi
done

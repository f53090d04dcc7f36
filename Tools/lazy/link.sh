#!/bin/sh
# Symlink the fork's own files (those at CPython paths) into a source tree,
# hidden from its git.  Idempotent: run again after adding a file.
#   link.sh SRCDIR
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=$(realpath "$1")
exclude="$dest/.git/info/exclude"
sh "$top/Tools/lazy/own-files.sh" list | while read -r f; do
    if [ -L "$dest/$f" ]; then
        grep -qxF "/$f" "$exclude" 2>/dev/null || echo "/$f" >>"$exclude"
        continue
    fi
    if [ -e "$dest/$f" ]; then
        echo "link: $f exists upstream; it must change through a patch" >&2
        exit 1
    fi
    mkdir -p "$dest/$(dirname "$f")"
    ln -s "$top/$f" "$dest/$f"
    grep -qxF "/$f" "$exclude" 2>/dev/null || echo "/$f" >>"$exclude"
done

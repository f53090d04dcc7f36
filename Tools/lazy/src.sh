#!/bin/sh
# Create the patch-queue tree: pristine source as a git repository (commit
# tagged 'upstream'), the fork's own files symlinked in (ignored by git), and
# one commit per patch of patches/series applied with 'git am' (no fuzz).
#   src.sh DEST
#   src.sh --pristine DEST   only the pristine source (make vanilla's tree)
set -eu
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --pristine ]; then
    dest=$(realpath -m "$2")
    rm -rf "$dest"
    unpack_upstream "$dest"
    exit 0
fi
dest=$(realpath -m "${1:-$top/build/src}")
if [ -e "$dest" ]; then
    die "$dest exists; remove it first (rm -rf $dest) to recreate it"
fi
tmp="$dest.tmp"
rm -rf "$tmp"
unpack_upstream "$tmp"
init_queue "$tmp"
# The fork's own files, symlinked so that edits land in the repository.
sh "$tools/link.sh" "$tmp"
apply_series "$tmp" "$top/patches"
mv "$tmp" "$dest"
say "$dest ready ($(git -C "$dest" rev-list --count upstream..HEAD) patches applied)"

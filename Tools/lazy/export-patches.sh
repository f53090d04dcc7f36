#!/bin/sh
# Export the commits of the patch-queue tree (upstream..HEAD) as patches/
# with stable options, and rewrite patches/series.
#   export-patches.sh [SRCDIR] [OUTDIR]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$(realpath "${1:-$top/build/src}")
out=$(realpath -m "${2:-$top/patches}")
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
    echo "patches: $src has uncommitted changes; commit them first" >&2
    git -C "$src" status --short --untracked-files=no >&2
    exit 1
fi
mkdir -p "$out"
tmp=$(mktemp -d)
git -C "$src" -c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicprefix=false \
    -c diff.renames=true -c diff.algorithm=myers -c format.signature= \
    format-patch -q --zero-commit --no-signature --no-numbered --abbrev=12 \
    --filename-max-length=100 \
    -o "$tmp" upstream..HEAD
series_tmp="$tmp/series"
{
    echo "# lazy-cpython patch queue, applied in this order on top of pristine"
    echo "# CPython (see UPSTREAM). Regenerate with 'make patches'."
    cat <<'GROUPS'
#
# Which patches belong together.  Each needs the ones before it in its
# group; the fork's own files (Python/lazyimport.c and the others at
# CPython paths) build with the core group alone, whose first patch holds
# the interpreter state they read, including fields only the optional
# patches set (the mode's value 2, the filter, __lazy_modules__).
#   core      import, dict / compile / cli: lazy objects and every read
#             that resolves them, the compiler's marking, -L.  Together
#             the feature; none is useful without the others.
#   support   docs / unittest / test.support / build: documentation and
#             what the fork's tests need from the stdlib and make install.
#   optional  cli: -X lazy_imports=verify / pep810: CPython 3.15's
#             spellings (pep810 edits the lines verify adds).  A packager
#             may drop pep810, or both: the rest applies and builds
#             without them, and -L works (their tests then fail).
#   healing   module / compile: IMPORT_NAME_GUARDED / import / runpy /
#             type, dict / import: shipped defaults: contract rules 50-58,
#             -L on programs that were written for eager imports.  They
#             apply and build without the optional group.
GROUPS
    (cd "$tmp" && ls -1 -- *.patch 2>/dev/null) || true
} >"$series_tmp"
rm -f "$out"/*.patch
for f in "$tmp"/*.patch; do [ -e "$f" ] && mv "$f" "$out/"; done
mv "$series_tmp" "$out/series"
rm -rf "$tmp"
echo "patches: exported $(grep -vc '^#' "$out/series") patches to $out"

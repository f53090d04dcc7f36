#!/bin/sh
# Build every prefix of the patch queue (make check-series): for each
# commit of the patch-queue tree after "upstream", its tree plus the fork's
# own files is configured and built by build.sh in build/series/, one
# prefix after the other (ccache makes the later ones quick).  One line per
# patch; non-zero exit status if a prefix does not build.  Not part of make
# test: it is a build per patch.
#   check-series.sh SRCDIR
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$(realpath "$1")
work="$top/build/series"
mkdir -p "$work"
status=0
n=0
for sha in $(git -C "$src" rev-list --reverse upstream..HEAD); do
    n=$((n + 1))
    subject=$(git -C "$src" log -1 --format=%s "$sha")
    rm -rf "$work/src"
    mkdir -p "$work/src"
    git -C "$src" archive "$sha" | tar -x -m -C "$work/src"
    start=$(date +%s)
    if sh "$top/Tools/lazy/link.sh" "$work/src" >"$work/build-$n.log" 2>&1 &&
        sh "$top/Tools/lazy/build.sh" "$work/src" "$work/build" \
            >>"$work/build-$n.log" 2>&1 &&
        "$work/build/python" -c "import sys, importlib" >/dev/null 2>&1
    then
        result=ok
    else
        result="FAILED (see $work/build-$n.log)"
        status=1
    fi
    printf 'check-series: %d %s: %s (%ss)\n' "$n" "$subject" "$result" \
        "$(( $(date +%s) - start ))"
done
exit $status

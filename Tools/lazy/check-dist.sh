#!/bin/sh
# make check-dist: unpack the relocatable tarball in two unrelated
# directories and run the smoke check (Tools/lazy/smoke.py: identity,
# sysconfig, -L, venv + pip of a stock cp313 wheel, pip3, python-config)
# from each copy.  The prefix the tree was configured with must not exist
# here, so that nothing can work by falling back to it.
#   check-dist.sh TARBALL
set -eu
. "$(dirname "$0")/lib.sh"
tarball=$(realpath "$1")
[ -f "$tarball" ] || { echo "check-dist: $tarball does not exist (make dist)" >&2; exit 1; }
name=$(basename "$tarball" .tar.xz)
clean_env

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lazy-check-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
for dir in "$tmp/first" "$tmp/second/somewhere/else"; do
    mkdir -p "$dir"
    tar -xJf "$tarball" -C "$dir"
    root=$dir/$name
    configured=$(sed -n "s/^def _relocate(configured='\(.*\)'):\$/\1/p" \
        "$root"/lib/python3*/_sysconfigdata_*.py)
    [ -n "$configured" ] ||
        { echo "check-dist: $root has no relocated sysconfig data" >&2; exit 1; }
    if [ -e "$configured" ]; then
        echo "check-dist: $configured exists on this machine; the check" \
            "would not prove that the tree does not need it" >&2
        exit 1
    fi
    echo "check-dist: unpacked in $dir"
    "$root/bin/python3" -I "$tools/smoke.py" "$root" --relocated "$configured" ||
        status=1
done
echo "check-dist: $(basename "$tarball") ($(du -h "$tarball" | cut -f1)):" \
    "$([ $status = 0 ] && echo OK || echo FAILED)"
exit $status

#!/bin/sh
# The relocatable tarball of the fork (make dist): install OBJDIR (built by
# build.sh with a placeholder prefix) into a staging directory, make the
# tree independent of that prefix (relocate.py: script trampolines,
# sysconfig's build-time paths, pkg-config), and pack it as
#   OUTDIR/lazy-cpython-<version>-<revision>-<arch>.tar.xz
# whose single top directory has the same name; unpacked anywhere, its
# bin/python3 runs, and so do -L, venv and pip (make check-dist checks it).
#   dist.sh OBJDIR OUTDIR
# File modification times are kept as installed: the .pyc files of the
# standard library record them, and clamping them would make every import
# recompile.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
obj=$(realpath "$1")
out=$(realpath -m "$2")

name=$(sh "$here/lib.sh" dist-name)
prefix=$(sed -n 's/^prefix=[[:space:]]*//p' "$obj/Makefile")
version=$(sed -n 's/^VERSION=[[:space:]]*//p' "$obj/Makefile")
stage=$obj/stage
rm -rf "$stage"
sh "$here/install.sh" "$obj" "$stage"

root=$stage$prefix
"$root/bin/python$version" -I -B "$here/relocate.py" "$root" "$prefix"

# The top directory of the tarball is the tree itself, renamed.
pack=$obj/pack
rm -rf "$pack"
mkdir -p "$pack" "$out"
mv "$root" "$pack/$name"
rm -rf "$stage"
echo "dist: packing $out/$name.tar.xz"
tar -C "$pack" --sort=name --owner=0 --group=0 --numeric-owner -cf - "$name" |
    xz -6 -T2 >"$out/$name.tar.xz.tmp"
mv "$out/$name.tar.xz.tmp" "$out/$name.tar.xz"
(cd "$out" && sha256sum "$name.tar.xz" >"$name.tar.xz.sha256")
rm -rf "$pack"
unpacked=$(xz --robot -l "$out/$name.tar.xz" |
    awk '$1 == "totals" {printf "%.0f MB", $5 / 1e6}')
echo "dist: $out/$name.tar.xz ($(du -h "$out/$name.tar.xz" | cut -f1), $unpacked unpacked)"

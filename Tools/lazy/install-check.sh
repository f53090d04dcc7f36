#!/bin/sh
# make test's install step: CPython's make install of a build of the fork
# (Tools/lazy/install.sh) into the prefix that build.sh configured it with,
# OBJDIR/install, emptied first, then the smoke check run by the installed
# interpreter from there (Tools/lazy/smoke.py: layout, sys.version and
# platform, sysconfig, -L, a venv installing a stock cp313 wheel, pip3).
#   install-check.sh OBJDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
obj=$(realpath "$1")
prefix=$(sed -n 's/^prefix=[[:space:]]*//p' "$obj/Makefile")
if [ "$prefix" != "$obj/install" ]; then
    echo "install-check: $obj is configured for $prefix, not $obj/install" >&2
    exit 1
fi
rm -rf "$prefix"
sh "$here/install.sh" "$obj"
"$prefix/bin/python3" -I "$here/smoke.py" "$prefix"

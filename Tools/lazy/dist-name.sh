#!/bin/sh
# Print the name of the relocatable tarball (without .tar.xz) and of its top
# directory: lazy-cpython-<CPython version>-<patch-set revision>-<machine>.
#   dist-name.sh
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/UPSTREAM"
echo "lazy-cpython-$VERSION-$(sh "$top/Tools/lazy/revision.sh")-$(uname -m)"

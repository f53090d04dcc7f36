#!/bin/sh
# Print the TESTSUBDIRS lines of Makefile.pre.in for the fork's own test
# directories (every directory under Lib/test/test_lazy_imports but
# __pycache__), as the patch "build: install the lazy import tests" lists
# them in patches/: regenerate that hunk with this after adding or removing
# a directory (test_tools checks the list).
#   testsubdirs.sh
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top/Lib"
find test/test_lazy_imports -type d ! -name __pycache__ ! -path '*/__pycache__/*' |
    LC_ALL=C sort | sed 's/^/\t\t/; s/$/ \\/'

#!/bin/sh
# List the repository's own files that live at CPython paths.
#   own-files.sh list
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
git ls-files --cached --others --exclude-standard -- \
    Objects Include Python Modules Lib Doc Misc Parser Programs PC |
    while read -r f; do [ -f "$f" ] && echo "$f"; done

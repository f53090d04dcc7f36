#!/bin/sh
# List the repository's own files that live at CPython paths.
#   own-files.sh list
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
dirs="Objects Include Python Modules Lib Doc InternalDocs Misc Parser Programs PC"
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    # shellcheck disable=SC2086
    git ls-files --cached --others --exclude-standard -- $dirs
else
    # An export without .git (make install REVISION=...): every file but
    # byte-code caches.
    # shellcheck disable=SC2086
    find $dirs -type f ! -path '*/__pycache__/*' 2>/dev/null | LC_ALL=C sort
fi | while read -r f; do [ -f "$f" ] && echo "$f"; done

#!/bin/sh
# Print the revision of the patch set that names a build of the fork: the
# REVISION environment variable when set (a build from an export without
# .git), else 'git describe' of a commit of this repository, HEAD by default
# (a tag when there is one, the abbreviated commit otherwise).  Never
# '-dirty' or a branch name: two builds of a commit print the same revision.
#   revision.sh [COMMIT]   the revision
#   revision.sh make-args  the make variables that put it in sys.version,
#                          one a line (see below)
#
# CPython's Modules/getbuildinfo.c builds sys.version's "(identifier:revision,
# date, time)" from the make variables GITTAG (or GITBRANCH) and GITVERSION,
# shell commands that configure points at the source tree's git repository.
# The fork's tree is a patch queue, so those would name the queue's branch
# ("heads/main-dirty"); the fork passes its own instead:
#   3.13.5 (lazy-cpython:<revision>, <date>, <time>) [<compiler>]
# sys._git is then ('CPython', 'lazy-cpython', '<revision>'), which
# platform.python_branch() and platform.python_revision() return, and the
# string keeps the shape of a CPython build from git (no spaces, no commas),
# so that platform._sys_version() and other parsers of sys.version read it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ -n "${REVISION:-}" ]; then
    rev=$REVISION
elif [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top" && pwd -P)" ]; then
    commit=HEAD
    [ "${1:-make-args}" = make-args ] || commit=$1
    rev=$(git -C "$top" describe --tags --always --abbrev=12 "$commit")
else
    echo "revision: $top is not a git repository; set REVISION (e.g. REVISION=1.0)" >&2
    exit 1
fi
# sys.version must stay parseable and the value ends up in a C string
# literal and a file name.
case $rev in
    '' | [!A-Za-z0-9]* | *[!A-Za-z0-9._+-]*)
        echo "revision: '$rev' is not a valid revision (letters, digits and . _ + - only)" >&2
        exit 1 ;;
esac

case ${1:-} in
    make-args)
        echo "GITTAG=echo lazy-cpython"
        echo "GITBRANCH=echo lazy-cpython"
        echo "GITVERSION=echo $rev" ;;
    *)
        echo "$rev" ;;
esac

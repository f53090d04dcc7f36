#!/bin/sh
# Configure (once) and build CPython out of tree.
#   build.sh SRCDIR OBJDIR [extra configure args...]
# The lazy and the vanilla interpreters are built by this same script, so
# they always share compiler, flags and configure options.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(realpath "$1"); obj=$(realpath -m "$2"); shift 2
jobs=${JOBS:-$(nproc)}
mkdir -p "$obj"
cd "$obj"
if command -v ccache >/dev/null 2>&1; then
    cc="ccache ${CC:-gcc}"
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(realpath "$src/..")}"
    export CCACHE_NOHASHDIR=1
else
    cc="${CC:-gcc}"
fi
stamp="$obj/.configure-args"
args="--prefix=$obj/install $*"
if [ ! -f Makefile ] || [ "$(cat "$stamp" 2>/dev/null)" != "$args|$cc" ]; then
    echo "build: configuring $obj"
    CC="$cc" "$src/configure" $args >configure.log 2>&1 ||
        { tail -30 configure.log >&2; echo "build: configure failed, see $obj/configure.log" >&2; exit 1; }
    echo "$args|$cc" >"$stamp"
fi
# A tree of the fork names the fork and the patch set's revision in
# sys.version (Tools/lazy/revision.sh); vanilla keeps CPython's own string.
# getbuildinfo.o depends on the objects only: remake it when the name changes.
set --
if [ -f "$src/Python/lazyimport.c" ]; then
    ident=$(sh "$here/revision.sh" make-args)
    if [ "$(cat .buildinfo 2>/dev/null)" != "$ident" ]; then
        rm -f Modules/getbuildinfo.o
        echo "$ident" >.buildinfo
    fi
    nl='
'
    IFS=$nl
    set -- $ident
    unset IFS
fi
echo "build: make -j$jobs in $obj"
make -j"$jobs" "$@" >make.log 2>&1 ||
    { grep -E -A5 'error:|\*\*\*' make.log | head -60 >&2; echo "build: make failed, see $obj/make.log" >&2; exit 1; }

# Fail loudly when an extension module a full build must have is missing.
missing=
for m in _ssl _ctypes _sqlite3 zlib _lzma _bz2 readline _hashlib _uuid _curses _dbm; do
    ./python -c "import $m" 2>/dev/null || missing="$missing $m"
done
if [ -n "$missing" ]; then
    echo "build: these extension modules did not build:$missing" >&2
    echo "build: install the build dependencies (make deps) and rebuild" >&2
    exit 1
fi
# Compile the standard library, as "make install" would: without its .pyc files every
# start-up compiles what it imports (PYTHONDONTWRITEBYTECODE keeps it so), which spoils
# comparisons between the two builds and between eager and -L.  Quick when up to date;
# the test data that is not valid Python is skipped.
./python -E -m compileall -qq -j0 -x '(bad|lib2to3/tests/data|test/tokenizedata|test_lib2to3/data)' \
    "$src/Lib" >/dev/null 2>&1 || true
echo "build: $obj/python ready"

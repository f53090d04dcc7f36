#!/bin/sh
# Install a built tree of the fork: CPython's own 'make install' (python3.13
# and python3, pip from ensurepip, the standard library, headers,
# python3.13-config, pkg-config files, the manual page), run in OBJDIR with
# the make variables that name the fork in sys.version (revision.sh), so that
# nothing it remakes loses them; then the compiler commands recorded for
# sysconfig lose build.sh's ccache (relocate.py --compilers-only).  OBJDIR
# was configured by build.sh with the prefix to install to; DESTDIR, when
# given, is prepended to it (staging).
#   install.sh OBJDIR [DESTDIR]
# Used by make install, make dist (staging) and make test (into the build's
# own prefix).  The log is OBJDIR/install.log.
set -eu
. "$(dirname "$0")/lib.sh"
obj=$(realpath "$1")
destdir=${2:+$(realpath -m "$2")}

[ -f "$obj/Makefile" ] && [ -x "$obj/python" ] ||
    { echo "install: $obj is not a built tree (see build.sh)" >&2; exit 1; }
prefix=$(sed -n 's/^prefix=[[:space:]]*//p' "$obj/Makefile")
version=$(sed -n 's/^VERSION=[[:space:]]*//p' "$obj/Makefile")

# The environment of this machine or of the caller must not leak into the
# compiled files or into ensurepip (clean-env.txt).
clean_env

nl='
'
IFS=$nl
set -- $(sh "$tools/revision.sh" make-args)
unset IFS

echo "install: make install in $obj -> $destdir$prefix"
make -C "$obj" install DESTDIR="$destdir" "$@" >"$obj/install.log" 2>&1 ||
    { grep -E -B2 -A8 'Error|error:|\*\*\*' "$obj/install.log" | tail -40 >&2
      echo "install: make install failed, see $obj/install.log" >&2; exit 1; }

root=$destdir$prefix
py=$root/bin/python$version
[ -x "$py" ] || { echo "install: $py is missing after make install" >&2; exit 1; }
# build.sh compiles through ccache; the compiler commands sysconfig records
# for building extensions must not need it (relocate.py).
"$py" -I -B "$tools/relocate.py" --compilers-only "$root" "$prefix"
echo "install: $root: $("$py" -VV | head -1), $(du -sh "$root" | cut -f1)"

#!/bin/sh
# The peer: stock CPython 3.15.2, whose PEP 810 global mode
# (python3.15 -X lazy_imports=all) users compare with fork -L, built from
# upstream's tarball with the same configure flags, compiler and ccache as
# build/vanilla (through build.sh).  Optional, not part of make test.
#   peer.sh OBJDIR [extra configure args...]     (make peer: build/peer)
#
# The tarball, checked against PEER_SHA256 below: $PEER_TARBALL, a cached
# copy in build/, then the .orig tarball of Debian's python3.15 source
# package (upstream's Python-3.15.2.tar.xz; the Debian patches are not
# used), fetched with an apt configuration of its own under build/peer-apt
# that leaves the machine's apt sources alone.  It is unpacked into
# build/peer-src and built out of tree in OBJDIR.  Each step is skipped when
# its result is there; JOBS (default 2) is make's -j.
set -eu
. "$(dirname "$0")/lib.sh"

PEER_VERSION=3.15.2
PEER_TARBALL_NAME=python3.15_3.15.2.orig.tar.xz
PEER_SHA256=8b5536d280142ecf6cdfe15d12a21ba1c65e300bbf7b28a8d0cdb849575797de
PEER_DEBIAN_PACKAGE=python3.15
PEER_DEBIAN_VERSION=3.15.2-1
PEER_DEBIAN_SUITE=sid

[ $# -ge 1 ] || die "usage: peer.sh OBJDIR [extra configure args...]"
obj=$(realpath -m "$1")
shift
src=$top/build/peer-src
cache=$top/build/$PEER_TARBALL_NAME
apt_dir=$top/build/peer-apt

give_up() {
    cat >&2 <<MSG

The peer build needs the CPython $PEER_VERSION source:
  $PEER_TARBALL_NAME (sha256 $PEER_SHA256)
This script gets it from Debian's $PEER_DEBIAN_SUITE source package $PEER_DEBIAN_PACKAGE $PEER_DEBIAN_VERSION
(needs apt-get).  Elsewhere, download the upstream release, e.g.
  https://www.python.org/ftp/python/$PEER_VERSION/Python-$PEER_VERSION.tar.xz
(Debian's .orig tarball is that file) and run
  make PEER_TARBALL=/path/to/Python-$PEER_VERSION.tar.xz peer
MSG
    exit 1
}

check() {
    _check_sum=$(sha256sum "$1" | cut -d' ' -f1)
    [ "$_check_sum" = "$PEER_SHA256" ] ||
        { warn "$1 has sha256 $_check_sum, expected $PEER_SHA256 (wrong or corrupt file; delete it and retry)"; give_up; }
}

# A deb-src entry for the suite, on the Debian archive the machine's apt
# sources already use (as fetch.sh does: no host is named here).
archive_uri() {
    _archive_uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk '/^URIs:/ {u=$2} /^Suites:/ && $0 !~ /security/ && u {print u; exit}')
    if [ -z "$_archive_uri" ] && [ -f /etc/apt/sources.list ]; then
        _archive_uri=$(awk '$1 == "deb" && $3 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' /etc/apt/sources.list)
    fi
    echo "$_archive_uri"
}

fetch_debian() {
    command -v apt-get >/dev/null 2>&1 || { warn "apt-get is not available on this machine"; give_up; }
    _fetch_debian_uri=$(archive_uri)
    [ -n "$_fetch_debian_uri" ] || { warn "no Debian archive found in the apt sources to derive a deb-src entry from"; give_up; }
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
        "$_fetch_debian_uri" "$PEER_DEBIAN_SUITE" >"$apt_dir/sources.list"
    set -- -o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=/nonexistent \
        -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
    say "apt-get update for $PEER_DEBIAN_SUITE's deb-src (private configuration in $apt_dir)"
    apt-get "$@" update >"$apt_dir/update.log" 2>&1 ||
        { tail -5 "$apt_dir/update.log" >&2; warn "apt-get update failed, see $apt_dir/update.log"; give_up; }
    say "apt-get source --download-only $PEER_DEBIAN_PACKAGE=$PEER_DEBIAN_VERSION"
    _fetch_debian_tmp=$(mktemp -d "$top/build/peer-apt.XXXXXX")
    if ! (cd "$_fetch_debian_tmp" && apt-get "$@" source --download-only \
            "$PEER_DEBIAN_PACKAGE=$PEER_DEBIAN_VERSION") >"$apt_dir/source.log" 2>&1; then
        rm -rf "$_fetch_debian_tmp"
        grep -E '^E:' "$apt_dir/source.log" >&2 || tail -5 "$apt_dir/source.log" >&2
        warn "apt-get source $PEER_DEBIAN_PACKAGE=$PEER_DEBIAN_VERSION failed, see $apt_dir/source.log"
        give_up
    fi
    _fetch_debian_dsc=$_fetch_debian_tmp/${PEER_DEBIAN_PACKAGE}_$PEER_DEBIAN_VERSION.dsc
    [ -f "$_fetch_debian_tmp/$PEER_TARBALL_NAME" ] && [ -f "$_fetch_debian_dsc" ] ||
        { rm -rf "$_fetch_debian_tmp"; warn "Debian's source package did not contain $PEER_TARBALL_NAME"; give_up; }
    # The .dsc must name the pinned tarball, and the file must match it.
    _fetch_debian_listed=$(awk -v f="$PEER_TARBALL_NAME" '/^Checksums-Sha256:/ {s = 1; next} /^[^ ]/ {s = 0}
        s && $3 == f {print $1}' "$_fetch_debian_dsc")
    [ "$_fetch_debian_listed" = "$PEER_SHA256" ] ||
        { rm -rf "$_fetch_debian_tmp"; warn "the .dsc lists sha256 ${_fetch_debian_listed:-none} for $PEER_TARBALL_NAME, expected $PEER_SHA256"; give_up; }
    _fetch_debian_sum=$(sha256sum "$_fetch_debian_tmp/$PEER_TARBALL_NAME" | cut -d' ' -f1)
    [ "$_fetch_debian_sum" = "$PEER_SHA256" ] ||
        { rm -rf "$_fetch_debian_tmp"; warn "the downloaded $PEER_TARBALL_NAME has sha256 $_fetch_debian_sum, expected $PEER_SHA256"; give_up; }
    say "sha256 $PEER_SHA256 matches the .dsc's Checksums-Sha256"
    mv "$_fetch_debian_tmp/$PEER_TARBALL_NAME" "$cache"
    rm -rf "$_fetch_debian_tmp"
    say "downloaded $cache"
}

# 1. The tarball.
mkdir -p "$top/build"
if [ -n "${PEER_TARBALL:-}" ]; then
    [ -f "$PEER_TARBALL" ] || die "PEER_TARBALL=$PEER_TARBALL does not exist"
    check "$PEER_TARBALL"
    if [ "$(realpath "$PEER_TARBALL")" != "$(realpath -m "$cache")" ]; then
        cp "$PEER_TARBALL" "$cache.tmp" && mv "$cache.tmp" "$cache"
    fi
    say "using PEER_TARBALL=$PEER_TARBALL (sha256 checked)"
elif [ -f "$cache" ]; then
    check "$cache"
    say "using cached $cache (sha256 checked)"
else
    fetch_debian
fi

# 2. The source tree, unpacked again (and OBJDIR emptied) when the tarball
# it came from is not the pinned one.
if [ "$(cat "$src/.peer-sha256" 2>/dev/null)" != "$PEER_SHA256" ]; then
    say "unpacking $cache into $src"
    rm -rf "$src"
    mkdir -p "$src"
    tar -xf "$cache" -C "$src" --strip-components=1
    echo "$PEER_SHA256" >"$src/.peer-sha256"
else
    say "$src is unpacked"
fi
if [ -d "$obj" ] && [ "$(cat "$obj/.peer-sha256" 2>/dev/null)" != "$PEER_SHA256" ]; then
    say "removing $obj (built from another tree)"
    rm -rf "$obj"
fi
mkdir -p "$obj"
echo "$PEER_SHA256" >"$obj/.peer-sha256"

# 3. The build: build.sh, as for build/vanilla (configure once, then make).
# build.sh takes a tree with Python/lazyimport.c for the fork's and names
# the fork in sys.version; upstream's has none.
[ ! -f "$src/Python/lazyimport.c" ] || die "$src has Python/lazyimport.c: build.sh would take it for the fork"
JOBS=${JOBS:-2}
export JOBS
start=$(date +%s)
sh "$tools/build.sh" "$src" "$obj" "$@"
say "build step took $(($(date +%s) - start)) s"

# 4. It is 3.15.2, and -X lazy_imports=all turns PEP 810's global mode on.
[ -x "$obj/python" ] || die "$obj/python was not built"
clean_env
version=$("$obj/python" -c 'import platform; print(platform.python_version())')
[ "$version" = "$PEER_VERSION" ] || die "$obj/python is $version, expected $PEER_VERSION"
mode=$("$obj/python" -X lazy_imports=all -c 'import sys; print(sys.get_lazy_imports())')
[ "$mode" = all ] || die "$obj/python -X lazy_imports=all: sys.get_lazy_imports() is '$mode', expected 'all'"
say "$obj/python ready: CPython $version; with -X lazy_imports=all, sys.get_lazy_imports() is '$mode'"

#!/bin/sh
# Fetch the pristine CPython tarball named in UPSTREAM and verify its sha256.
#
# Order of sources: $CPYTHON_TARBALL, a cached copy in build/, then Debian's
# source package through apt-get (a deb-src entry for the suite is derived
# from the apt sources this machine already uses; no host is named here).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/UPSTREAM"
cache="$top/build/$TARBALL"

die() {
    cat >&2 <<MSG
fetch: $*

To build lazy-cpython you need the pristine CPython $VERSION source:
  $TARBALL (sha256 $SHA256)
Either let this script get it from Debian's $DEBIAN_SUITE source package
(needs apt and root), or download the upstream release yourself, e.g.
  https://www.python.org/ftp/python/$VERSION/Python-$VERSION.tar.xz
(the same bytes as Debian's .orig tarball) and run
  make CPYTHON_TARBALL=/path/to/Python-$VERSION.tar.xz ...
MSG
    exit 1
}

check() {
    sum=$(sha256sum "$1" | cut -d' ' -f1)
    [ "$sum" = "$SHA256" ] || die "$1 has sha256 $sum, expected $SHA256 (wrong or corrupt file; delete it and retry)"
}

mkdir -p "$top/build"
if [ -n "${CPYTHON_TARBALL:-}" ]; then
    [ -f "$CPYTHON_TARBALL" ] || die "CPYTHON_TARBALL=$CPYTHON_TARBALL does not exist"
    check "$CPYTHON_TARBALL"
    if [ "$(realpath "$CPYTHON_TARBALL")" != "$(realpath -m "$cache")" ]; then
        cp "$CPYTHON_TARBALL" "$cache.tmp" && mv "$cache.tmp" "$cache"
    fi
    echo "fetch: using $CPYTHON_TARBALL"
    exit 0
fi

if [ -f "$cache" ]; then
    check "$cache"
    echo "fetch: using cached $cache"
    exit 0
fi

command -v apt-get >/dev/null 2>&1 || die "apt-get is not available on this machine"
[ "$(id -u)" = 0 ] || die "fetching through apt needs root (or set CPYTHON_TARBALL)"

# A deb-src entry for the suite, reusing the URIs of the configured Debian
# archive (the first deb822 or one-line source whose suite is not -security).
list=/etc/apt/sources.list.d/lazy-cpython-src.sources
if [ ! -f "$list" ]; then
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
          awk '/^URIs:/ {u=$2} /^Suites:/ && $0 !~ /security/ && u {print u; exit}')
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1 == "deb" && $3 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || die "no Debian archive found in the apt sources to derive a deb-src entry from"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" "$DEBIAN_SUITE" >"$list"
fi
apt-get update -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- \
    -o APT::Get::List-Cleanup=0 >/dev/null ||
    die "apt-get update for the $DEBIAN_SUITE deb-src entry failed"
tmp=$(mktemp -d "$top/build/apt.XXXXXX")
(cd "$tmp" && apt-get source --download-only "$DEBIAN_PACKAGE/$DEBIAN_SUITE" >/dev/null 2>&1) ||
    { rm -rf "$tmp"; die "apt-get source $DEBIAN_PACKAGE/$DEBIAN_SUITE failed"; }
[ -f "$tmp/$TARBALL" ] || { rm -rf "$tmp"; die "Debian's source package did not contain $TARBALL"; }
check "$tmp/$TARBALL"
mv "$tmp/$TARBALL" "$cache"
rm -rf "$tmp"
echo "fetch: downloaded $cache"

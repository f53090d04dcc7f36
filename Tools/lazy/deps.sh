#!/bin/sh
# Install the Debian packages a full CPython build needs, when missing.
set -eu
pkgs="build-essential pkg-config libssl-dev zlib1g-dev libffi-dev libsqlite3-dev
libbz2-dev liblzma-dev libreadline-dev libncurses-dev uuid-dev libgdbm-dev
libgdbm-compat-dev libzstd-dev tk-dev ccache xz-utils"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: missing build dependencies:$missing" >&2
    echo "deps: install them with: sudo apt-get install$missing" >&2
    exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
apt-get install -y -qq --no-install-recommends $missing >/dev/null

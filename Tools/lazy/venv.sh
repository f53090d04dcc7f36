#!/bin/sh
# Create a venv from an interpreter and install the test requirements.
#   venv.sh PYTHON VENVDIR REQUIREMENTS
set -eu
py=$1; venv=$2; req=$3
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req" ||
    { echo "venv: installing $req failed (PyPI must be reachable)" >&2; exit 1; }
touch "$venv/.ok"
echo "venv: $venv ready"

#!/bin/sh
# A venv of an interpreter with pinned requirements installed (make venv,
# the benchmark venvs): lib.sh's make_venv, for the Makefile.  Kept while
# VENVDIR/.ok is newer than REQUIREMENTS.
#   venv.sh PYTHON VENVDIR REQUIREMENTS [PIP-INSTALL-OPTION...]
set -eu
. "$(dirname "$0")/lib.sh"
clean_env
make_venv "$@"

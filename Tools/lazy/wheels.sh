#!/bin/sh
# Real binary wheels on the fork (make wheels, contract rule 31): stock cp313
# wheels from PyPI (tests/wheels/requirements.txt, --only-binary=:all:) in a
# venv of the fork and one of vanilla; tests/wheels/wheel_check.py must print
# the same on vanilla, on the fork and on the fork with -L.
#   wheels.sh FORK_PYTHON VANILLA_PYTHON FORK_VENV VANILLA_VENV REPORT
set -u
. "$(dirname "$0")/lib.sh"
fork=$1; vanilla=$2; fvenv=$3; vvenv=$4; report=$5
req=$top/tests/wheels/requirements.txt
check=$top/tests/wheels/wheel_check.py
clean_env
start=$(date +%s)

# Binary wheels only (a wheel built here from source would prove nothing),
# and the pins must be consistent (pip check).
wheel_venv() {  # wheel_venv PYTHON DIR
    make_venv "$1" "$2" "$req" --only-binary=:all: &&
        "$2/bin/python" -m pip check >/dev/null ||
        die "installing the wheels into $2 failed"
}
wheel_venv "$fork" "$fvenv"
wheel_venv "$vanilla" "$vvenv"
mkdir -p "$(dirname "$report")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$vvenv/bin/python" "$check" >"$tmp/vanilla" 2>"$tmp/vanilla.err"; rv=$?
"$fvenv/bin/python" "$check" >"$tmp/fork" 2>"$tmp/fork.err"; rf=$?
"$fvenv/bin/python" -L "$check" >"$tmp/fork-L" 2>"$tmp/fork-L.err"; rl=$?
status=0
{
    printf '%-13s %-11s %-7s %-7s %-7s\n' package version vanilla fork fork-L
    while read -r name version digest; do
        f=$(grep "^$name " "$tmp/fork")
        l=$(grep "^$name " "$tmp/fork-L")
        same_f=same; [ "$f" = "$name $version $digest" ] || { same_f=DIFF; status=1; }
        same_l=same; [ "$l" = "$name $version $digest" ] || { same_l=DIFF; status=1; }
        ok=ok; [ "$version" = ERROR ] && { ok=ERROR; status=1; }
        printf '%-13s %-11s %-7s %-7s %-7s\n' "$name" "$version" "$ok" "$same_f" "$same_l"
    done <"$tmp/vanilla"
    for run in vanilla fork fork-L; do
        if ! cmp -s "$tmp/vanilla" "$tmp/$run" || [ -s "$tmp/$run.err" ]; then
            echo "--- $run output:"; cat "$tmp/$run" "$tmp/$run.err"
        fi
    done
    echo "exit status: vanilla $rv, fork $rf, fork -L $rl; $(( $(date +%s) - start ))s"
} >"$report"    # not a pipeline: status is set in this shell
cat "$report"
[ $rv = 0 ] && [ $rf = 0 ] && [ $rl = 0 ] && cmp -s "$tmp/vanilla" "$tmp/fork" &&
    cmp -s "$tmp/vanilla" "$tmp/fork-L" && [ $status = 0 ]

#!/bin/sh
# Run CPython's stdlib test suite (regrtest) for one configuration and keep
# its results under build/reports/ for Tools/lazy/regrtest_report.py.
#   regrtest.sh CONFIG PYTHON [TEST...]
# CONFIG is vanilla, fork or fork-L (PYTHON runs with -L, and so do the
# worker processes regrtest starts).  Without TEST the whole suite runs into
# BASE = regrtest-CONFIG; with TESTs only those run, into
# BASE = regrtest-CONFIG.subset-TIMESTAMP, which the report lays over the
# full run (newer result wins).  Each run leaves
#   BASE.tests  the test modules selected (regrtest --list-tests)
#   BASE.xml    the result of every test case (regrtest --junit-xml)
#   BASE.log    regrtest's output, after a header naming the run
# Extra regrtest options: REGRTEST_OPTS (default: --timeout 900 -j$(nproc)).
# REGRTEST_REPORTS: the directory of the results (default: build/reports).
set -u
. "$(dirname "$0")/lib.sh"
cd "$top"
[ $# -ge 2 ] || die "usage: regrtest.sh vanilla|fork|fork-L PYTHON [TEST...]"
name=$1 py=$(realpath "$2"); shift 2
case $name in
    vanilla|fork) flags= ;;
    fork-L) flags=-L ;;
    *) die "unknown configuration '$name' (vanilla, fork or fork-L)" ;;
esac
reports=${REGRTEST_REPORTS:-build/reports}
mkdir -p "$reports"
clean_env
opts=${REGRTEST_OPTS:---timeout 900 -j$(nproc)}

if [ $# -eq 0 ]; then
    base=$reports/regrtest-$name
else
    base=$reports/regrtest-$name.subset-$(date -u +%Y%m%dT%H%M%S)
fi
log=$base.log
xml=$(realpath -m "$base.xml")
rm -f "$xml"
# shellcheck disable=SC2086
"$py" $flags -m test --list-tests $opts "$@" >"$base.tests" </dev/null ||
    die "$py $flags -m test --list-tests failed"

# With -L, the worker processes regrtest spawns must run lazily too
# (subprocess._args_from_interpreter_flags passes -L on): check it in a
# worker before spending the time on the suite.
if [ -n "$flags" ]; then
    tmp=$(mktemp -d)
    cat >"$tmp/test_lazy_worker_flags.py" <<'EOF'
import importlib, sys, unittest
class WorkerFlags(unittest.TestCase):
    def test_worker_is_lazy(self):
        print(f"worker: sys.flags.lazy_imports={sys.flags.lazy_imports} "
              f"is_lazy_imports_enabled={importlib.is_lazy_imports_enabled()} "
              f"argv={sys.orig_argv[:3]}")
        self.assertTrue(sys.flags.lazy_imports)
        self.assertTrue(importlib.is_lazy_imports_enabled())
EOF
    "$py" $flags -m test -j1 -v --testdir "$tmp" test_lazy_worker_flags \
        >"$tmp/out" 2>&1 </dev/null
    if ! grep -q 'lazy_imports=True is_lazy_imports_enabled=True' "$tmp/out"; then
        cat "$tmp/out" >&2
        rm -rf "$tmp"
        die "the regrtest worker processes do not run with lazy imports"
    fi
    grep -o 'worker: .*' "$tmp/out" | sed "s/^/$prog: -j1 /"
    rm -rf "$tmp"
fi

{
    echo "# regrtest-config: $name"
    echo "# python: $py $flags"
    echo "# python-mtime: $(date -u -r "$py" +%Y-%m-%dT%H:%M:%SZ)"
    echo "# started: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# command: $py $flags -m test $opts --rerun --slowest --junit-xml $xml $*"
} >"$log"
say "$name: $py $flags -m test $opts --rerun $* > $log"
# --rerun re-runs the failed tests in verbose mode: flaky tests are told
# apart from failing ones and the log has the verbose failure output.
# A shell starts background commands ("cmd &") with SIGINT and SIGQUIT
# ignored, and a shell cannot undo that; the ignored SIGINT is inherited by
# regrtest and its workers and fails the tests that send SIGINT
# (test_generators, test_asyncio.test_runners, test_multiprocessing_*,
# ...).  Restore the default dispositions, then exec regrtest.
# shellcheck disable=SC2086
"$py" -I -S -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGQUIT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' \
    "$py" $flags -m test $opts --rerun --slowest --junit-xml "$xml" "$@" \
    >>"$log" 2>&1 </dev/null
rc=$?
echo "# exit-status: $rc" >>"$log"
echo "# finished: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$log"
echo "# python-mtime-end: $(date -u -r "$py" +%Y-%m-%dT%H:%M:%SZ)" >>"$log"
tail -4 "$log" | sed "s/^/$prog: $name: /"
# Exit codes 0 (all good), 2 (tests failed), 3 (env changed), 4 (no tests
# ran) and 5 (only re-run failures) mean the run completed; the report says
# what failed.  Anything else (interrupted, crashed regrtest) is an error.
case $rc in
    0|2|3|4|5) exit 0 ;;
    *) die "$name: regrtest exited with $rc, see $log" ;;
esac

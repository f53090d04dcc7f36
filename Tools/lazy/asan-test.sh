#!/bin/sh
# Run the lazy-import suites on the AddressSanitizer interpreter (make
# asan-test): test_lazy_imports and test_dict without and with -L, and the
# in-process scenarios of test_refleaks repeated, and the thread stress.  LeakSanitizer is off
# (CPython does not free everything at exit); any ASAN report fails a run.
#   asan-test.sh PYTHON REPORTDIR [TESTS...]
set -u
. "$(dirname "$0")/lib.sh"
py=$(realpath "$1"); out=$2; shift 2
tests=${*:-test_lazy_imports test_dict}
jobs=${JOBS:-$(nproc)}
clean_env
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:${ASAN_OPTIONS:-}"
mkdir -p "$out"
out=$(realpath "$out")
# regrtest writes reflog.txt (and may leave files) in the current directory.
cd "$out"
status=0
summary="$out/summary.txt"
: >"$summary"
check() {  # check NAME MODE RC LOG
    result=$(grep -E '^Result: |^(OK|FAILED)|"failed_trials"' "$4" | tail -1 | sed 's/, "failures".*//')
    asan=$(grep -c 'ERROR: AddressSanitizer' "$4")
    printf '%-24s %-6s rc=%s asan-reports=%s %s\n' "$1" "$2" "$3" "$asan" "$result" | tee -a "$summary"
    grep -A30 'ERROR: AddressSanitizer' "$4" | head -40 | sed 's/^/    /' | tee -a "$summary"
    [ "$3" = 0 ] && [ "$asan" = 0 ] || status=1
}
for mode in fork fork-L; do
    flag=; [ $mode = fork-L ] && flag=-L
    for t in $tests; do
        log="$out/$t-$mode.log"
        "$py" $flag -m test -j"$jobs" "$t" >"$log" 2>&1
        check "$t" $mode $? "$log"
    done
done
log="$out/test_refleaks-loops.log"
LAZY_REFLEAK_LOOPS=${LAZY_REFLEAK_LOOPS:-30} "$py" -L -m test -v test_lazy_imports.test_refleaks >"$log" 2>&1
check "test_refleaks (x30)" fork-L $? "$log"
# The thread stress driver (test_errors' test_thread_stress), every kind.
for kind in same-module same-submodule same-dotted same-from failing retry \
        mixed-no-submodule mixed; do
    log="$out/stress-$kind.log"
    "$py" -L "$tools/stress_driver.py" --kind $kind \
        --trials "${ASAN_STRESS_TRIALS:-20}" >"$log" 2>&1
    check "stress $kind" fork-L $? "$log"
done
echo "asan-test: logs in $out"
exit $status

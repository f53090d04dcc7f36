#!/bin/sh
# Reference leak hunt on the --with-pydebug interpreter (make refleaks):
# regrtest -R on the suites that exercise the patched code, without and with
# -L, then the in-process lazy import leak check (test_refleaks) alone.
#   debug-refleaks.sh PYTHON REPORTDIR [TESTS...]
# One log per run in REPORTDIR; the summary lists the "leaked" lines.
set -u
. "$(dirname "$0")/lib.sh"
py=$(realpath "$1"); out=$2; shift 2
tests=${*:-test_lazy_imports test_dict test_import test_importlib}
runs=${REFLEAK_RUNS:-3:3}
jobs=${JOBS:-$(nproc)}
clean_env
mkdir -p "$out"
out=$(realpath "$out")
# regrtest writes reflog.txt (and may leave files) in the current directory.
cd "$out"
status=0
summary="$out/summary.txt"
: >"$summary"
for mode in fork fork-L; do
    flag=; [ $mode = fork-L ] && flag=-L
    for t in $tests; do
        log="$out/$t-$mode.log"
        start=$(date +%s)
        "$py" $flag -m test -R "$runs" -j"$jobs" "$t" >"$log" 2>&1
        rc=$?
        secs=$(( $(date +%s) - start ))
        result=$(grep -E '^Result: ' "$log" | tail -1)
        printf '%-18s %-6s rc=%s %4ss %s\n' "$t" "$mode" "$rc" "$secs" "$result" | tee -a "$summary"
        grep -E 'leaked \[' "$log" | sed 's/^/    /' | tee -a "$summary"
        [ $rc = 0 ] || status=1
    done
done
# The in-process check runs its scenarios many times in one process.
log="$out/test_refleaks-inprocess.log"
"$py" -L -m test -v test_lazy_imports.test_refleaks >"$log" 2>&1
rc=$?
printf '%-18s %-6s rc=%s %s\n' "test_refleaks" "fork-L" "$rc" "$(grep -E '^Result: ' "$log" | tail -1)" | tee -a "$summary"
grep -E 'references \[' "$log" | sed 's/^/    /' | tee -a "$summary"
[ $rc = 0 ] || status=1
echo "refleaks: logs in $out"
exit $status

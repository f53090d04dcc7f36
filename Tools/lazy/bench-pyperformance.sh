#!/bin/sh
# pyperformance over vanilla, the fork, and the fork with lazy imports on at entry.
#   bench-pyperformance.sh VANILLA_PY FORK_PY OUTDIR [fast|full|venvs]
# The pyperformance CLI runs from a host venv (OUTDIR/pyperformance-host, made from
# VANILLA_PY, pinned by bench/requirements-pyperformance.txt).  Each configuration runs in a
# directory of its own (OUTDIR/pyperformance/CFG), where pyperformance makes its benchmark
# venv.  For fork-L the venv is created first, then bench/pyperformance/sitecustomize.py is
# copied into it: it calls importlib.set_lazy_imports() in every process of that venv, and
# the workers log that it was on (checked at the end).
# Results: OUTDIR/pyperformance-{vanilla,fork,fork-L}[-fast].json and a compare table.
# Mode venvs only makes the three venvs of the fast mode (for bench_pyperformance_ir.py).
# BENCH_CONFIGS="fork-L" runs only some configurations (e.g. in parallel shells); the compare
# table is written when the three JSON files exist.
set -eu
. "$(dirname "$0")/lib.sh"
van=$(realpath "$1"); fork=$(realpath "$2"); out=$(realpath -m "$3"); mode=${4:-full}
clean_env
req=$top/bench/requirements-pyperformance.txt
host=$out/pyperformance-host
make_venv "$van" "$host" "$req"
pyperf="$host/bin/pyperformance"

if [ "$mode" = fast ] || [ "$mode" = venvs ]; then
    # Benchmarks without third-party requirements, chosen to fit in ~20 minutes for the three
    # configurations on the 2-core machine: start-up, import-heavy (2to3, argparse, pathlib,
    # typing) and classic interpreter loops.
    benches=${BENCH_LIST:-python_startup,python_startup_no_site,2to3,argparse,chaos,deltablue,float,json_dumps,json_loads,logging,nbody,regex_v8,richards,deepcopy,pathlib,typing_runtime_protocols}
    opts="--fast"; sfx="-fast"
else
    benches=${BENCH_LIST:-default}
    opts=""; sfx=""
fi
rev=$("$fork" -c 'import sys; print(sys.version.split()[1].strip("(),"))')
echo "bench-pyperformance: mode $mode, fork $rev, benchmarks $benches"

for cfg in ${BENCH_CONFIGS:-vanilla fork fork-L}; do
    case $cfg in vanilla) py=$van ;; *) py=$fork ;; esac
    dir=$out/pyperformance/$cfg$sfx
    json=$out/pyperformance-$cfg$sfx.json
    mkdir -p "$dir"
    if [ "$cfg" = fork-L ] || [ "$mode" = venvs ]; then
        # Make the benchmark venv first, then turn laziness on in it.  Its name hashes the
        # interpreter's build: after a rebuild, 'run' would make a new one without the
        # sitecustomize, so ask pyperformance which one it will use.
        if (cd "$dir" && "$pyperf" venv show -p "$py") | grep -q 'not created yet'; then
            (cd "$dir" && "$pyperf" venv create -p "$py" -b "$benches")
        fi
    fi
    if [ "$cfg" = fork-L ]; then
        for v in "$dir"/venv/*/; do
            sp=$("$v/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
            cp "$top/bench/pyperformance/sitecustomize.py" "$sp/sitecustomize.py"
            rm -f "$v/lazy-workers.log"
            "$v/bin/python" -c 'import importlib, sys; assert importlib.is_lazy_imports_enabled(), "sitecustomize did not enable lazy imports"'
        done
    fi
    [ "$mode" = venvs ] && continue
    rm -f "$json"
    echo "== $cfg: $py"
    (cd "$dir" && "$pyperf" run $opts -p "$py" -b "$benches" -o "$json") >"$dir/run.log" 2>&1 ||
        { tail -30 "$dir/run.log"; echo "bench-pyperformance: $cfg failed, see $dir/run.log" >&2; exit 1; }
    grep -E "^\(|ERROR|failed" "$dir/run.log" | tail -3 || true
    if [ "$cfg" = fork-L ]; then
        n=$(cat "$dir"/venv/*/lazy-workers.log 2>/dev/null | wc -l)
        off=$(grep -vc '^True ' "$dir"/venv/*/lazy-workers.log 2>/dev/null || true)
        echo "fork-L: $n worker processes logged, lazy imports off in ${off:-0} of them"
        [ "$n" -gt 0 ] || { echo "bench-pyperformance: no worker logged lazy imports" >&2; exit 1; }
    fi
done

[ "$mode" = venvs ] && { echo "bench-pyperformance: venvs ready under $out/pyperformance"; exit 0; }
for cfg in vanilla fork fork-L; do
    [ -f "$out/pyperformance-$cfg$sfx.json" ] || { echo "bench-pyperformance: no $cfg results yet, no compare table"; exit 0; }
done
echo "fork $rev" >"$out/pyperformance-compare$sfx.txt"
for cfg in fork fork-L; do
    echo "== vanilla vs $cfg" | tee -a "$out/pyperformance-compare$sfx.txt"
    "$host/bin/python" -m pyperf compare_to --table --table-format=md -G \
        "$out/pyperformance-vanilla$sfx.json" "$out/pyperformance-$cfg$sfx.json" |
        tee -a "$out/pyperformance-compare$sfx.txt"
done
"$pyperf" compare "$out/pyperformance-vanilla$sfx.json" "$out/pyperformance-fork-L$sfx.json" \
    >>"$out/pyperformance-compare$sfx.txt" 2>&1 || true
echo "results: $out/pyperformance-*$sfx.json, $out/pyperformance-compare$sfx.txt"

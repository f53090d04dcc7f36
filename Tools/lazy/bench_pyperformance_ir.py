"""pyperformance benchmarks counted in instructions: vanilla vs fork vs fork with lazy imports.

    bench_pyperformance_ir.py [--vanilla PY] [--fork PY] --venvs DIR [--benchmarks a,b,c]
                              [--out build/bench] [-j 2]

On a shared machine pyperformance's wall-clock figures vary by 10-20% per benchmark, far
more than the +-1% the targets ask for.  This runs each benchmark's own script from the
benchmark venvs that make bench-pyperformance created (DIR/CFG-fast/venv/*, CFG = vanilla,
fork, fork-L; the fork-L venv turns lazy imports on at entry through its sitecustomize) once
with pyperf's --debug-single-value (one process, no warm-up, one value) under callgrind, with
--trace-children=yes so that benchmarks that spawn interpreters (python_startup, 2to3) are
counted whole, and reports the total instructions per benchmark as ratios and their
geometric mean.  Start-up and the benchmark's own imports are included, so the fork-L column
shows what lazy imports change in a short-running program, not only its steady state.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

import lazytools

CONFIGS = lazytools.CONFIGS
DEFAULT = ("python_startup,python_startup_no_site,2to3,argparse,chaos,deltablue,float,"
           "json_dumps,json_loads,logging,nbody,regex_v8,richards,deepcopy,pathlib,"
           "typing_runtime_protocols")


def venv_python(venvs, cfg, interpreter, pyperformance):
    """The benchmark venv pyperformance uses for interpreter (named after its build)."""
    cwd = os.path.join(venvs, f"{cfg}-fast")
    out = subprocess.run([pyperformance, "venv", "show", "-p", interpreter], cwd=cwd,
                         capture_output=True, text=True).stdout
    m = re.search(r"Virtual environment path: (\S+)", out)
    python = m and os.path.join(m.group(1), "bin", "python")
    if not python or "not created yet" in out or not os.path.exists(python):
        sys.exit(f"bench-pyperformance-ir: no benchmark venv of {interpreter} under {cwd}: "
                 f"run bench-pyperformance.sh ... venvs (make bench-pyperformance-ir does)")
    return python


def benchmark_scripts(host):
    """name -> (run_benchmark.py, extra options), from pyperformance's data files."""
    code = ("import os, pyperformance; print(os.path.join(os.path.dirname("
            "pyperformance.__file__), 'data-files', 'benchmarks'))")
    root = subprocess.run([host, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()
    found = {}
    for toml in glob.glob(os.path.join(root, "bm_*", "*.toml")):
        with open(toml, "rb") as f:
            meta = tomllib.load(f).get("tool", {}).get("pyperformance", {})
        bm_dir = os.path.dirname(toml)
        entry = (os.path.join(bm_dir, "run_benchmark.py"), meta.get("extra_opts", []))
        if meta.get("name"):
            found[meta["name"]] = entry
        if os.path.basename(toml) == "pyproject.toml":
            # The MANIFEST names a benchmark by its directory (argparse: bm_argparse).
            found.setdefault(os.path.basename(bm_dir)[3:], entry)
    return found


def install_vendored(pythons, scripts):
    """Install the packages that benchmarks vendor (2to3's lib2to3) into each venv first.

    run_benchmark.py installs them on first use: under callgrind that pip run would be
    counted, and runs of several configurations at once would build in the same vendor
    directory (setuptools builds in place) and fail."""
    for script, _opts in scripts:
        vendor = os.path.join(os.path.dirname(script), "vendor")
        if not os.path.isdir(vendor):
            continue
        for python in dict.fromkeys(pythons.values()):
            shutil.rmtree(os.path.join(vendor, "build"), ignore_errors=True)
            ok = subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", vendor],
                                env=lazytools.clean_env(), capture_output=True, text=True)
            shutil.rmtree(os.path.join(vendor, "build"), ignore_errors=True)
            if ok.returncode != 0:
                raise RuntimeError(f"{python}: cannot install {vendor}:\n{ok.stderr[-3000:]}")


def count(python, script, opts, tmp, tag):
    outdir = os.path.join(tmp, tag)
    os.mkdir(outdir)
    cmd = ["valgrind", "-q", "--tool=callgrind", "--trace-children=yes",
           "--callgrind-out-file=" + os.path.join(outdir, "cg.%p"),
           python, script, "--debug-single-value", *opts]
    env = lazytools.clean_env(PYTHONHASHSEED="0")
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=outdir)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-3000:]}")
    total = 0
    for fn in os.listdir(outdir):
        if not fn.startswith("cg."):
            continue
        with open(os.path.join(outdir, fn)) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    total += int(line.split()[1])
                    break
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla", default=lazytools.VANILLA_PYTHON)
    ap.add_argument("--fork", default=lazytools.FORK_PYTHON)
    ap.add_argument("--venvs", required=True, help="build/bench/pyperformance")
    ap.add_argument("--benchmarks", default=DEFAULT)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    host = os.path.join(os.path.dirname(os.path.abspath(args.venvs)), "pyperformance-host",
                        "bin")
    interpreters = {"vanilla": args.vanilla, "fork": args.fork, "fork-L": args.fork}
    pythons = {c: venv_python(args.venvs, c, os.path.abspath(interpreters[c]),
                              os.path.join(host, "pyperformance")) for c in CONFIGS}
    names = [n for n in args.benchmarks.split(",") if n]
    known = benchmark_scripts(os.path.join(host, "python"))
    missing = [n for n in names if n not in known]
    if missing:
        sys.exit(f"bench-pyperformance-ir: unknown benchmarks: {', '.join(missing)}")
    print(f"bench-pyperformance-ir: {len(names)} benchmarks x {len(CONFIGS)} configurations "
          f"under callgrind", flush=True)
    install_vendored(pythons, [known[n] for n in names])
    results = {n: {} for n in names}
    with tempfile.TemporaryDirectory(prefix="bench-ir-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futures = {ex.submit(count, pythons[c], *known[n], tmp, f"{n}-{c}"): (n, c)
                   for n in names for c in CONFIGS}
        for fut in concurrent.futures.as_completed(futures):
            n, c = futures[fut]
            results[n][c] = fut.result()
    lines = [f"{'benchmark':26} {'Ir vanilla':>14} {'fork/vanilla':>13} {'fork-L/vanilla':>15}"]
    for n in names:
        r = results[n]
        lines.append(f"{n:26} {r['vanilla']:>14,} {(r['fork'] / r['vanilla'] - 1) * 100:>+12.2f}% "
                     f"{(r['fork-L'] / r['vanilla'] - 1) * 100:>+14.2f}%")
    gm = {c: (lazytools.geomean(results[n][c] / results[n]["vanilla"] for n in names) - 1) * 100
          for c in ("fork", "fork-L")}
    lines.append(f"{'geometric mean':26} {'':>14} {gm['fork']:>+12.2f}% {gm['fork-L']:>+14.2f}%")
    text = "\n".join(lines)
    print(text)
    lazytools.write_report(args.out, "pyperformance-ir", text,
                 {"pythons": pythons, "counts": results, "geomean_percent": gm})


if __name__ == "__main__":
    main()

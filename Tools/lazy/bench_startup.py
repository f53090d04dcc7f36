"""Start-up benchmark: real command-line tools from PyPI, fork vs fork -L.

    bench_startup.py --vanilla-venv DIR --fork-venv DIR [--reps 15] [--out build/bench]
    bench_startup.py --fork-venv DIR --explain TOOL   # what -L still imports, and why

Configurations, run interleaved (A B C, then B C A, ... so that drift hits all alike):
  vanilla   DIR/bin/python TOOL ARGS     in the venv of build/vanilla/python
  fork      DIR/bin/python TOOL ARGS     in the venv of build/lazy/python
  fork-L    DIR/bin/python -L TOOL ARGS  same venv
Each tool runs through its console-script file with the venv's python, as its shebang would.
Peak RSS (VmHWM) and len(sys.modules) come from the child itself, at exit, through the
bench/startup/sitecustomize.py hook copied into each venv.  Output (stdout, stderr, exit code)
must be identical between fork and fork-L; vanilla's is compared too, after replacing the
venv path.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import lazytools

SITECUSTOMIZE = os.path.join(lazytools.ROOT, "bench", "startup", "sitecustomize.py")

# name -> argv after the venv's python; "{bin}" is the venv's bin directory.
TOOLS = {
    "floor (-c pass)": ["-c", "pass"],
    "black --code": ["{bin}/black", "--code", "x = [1,2]\n"],
    "http --offline": ["{bin}/http", "--ignore-stdin", "--offline", "example.org", "a=b"],
    "pip list": ["{bin}/pip", "list"],
    "sphinx-build --version": ["{bin}/sphinx-build", "--version"],
    "pytest --version": ["{bin}/pytest", "--version"],
    "flake8 --version": ["{bin}/flake8", "--version"],
    "pylint --version": ["{bin}/pylint", "--version"],
    "aws --version": ["{bin}/aws", "--version"],
    "poetry --version": ["{bin}/poetry", "--version"],
    # attrs classes in many modules (attrs copies each module's namespace)
    "twist web --help": ["{bin}/twist", "web", "--help"],
    # nltk/__init__.py re-exports its subpackages through star imports
    "nltk --help": ["{bin}/nltk", "--help"],
}
CONFIGS = lazytools.CONFIGS


def site_packages(venv):
    py = os.path.join(venv, "bin", "python")
    return subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()


def install_hook(venv):
    shutil.copy(SITECUSTOMIZE, os.path.join(site_packages(venv), "sitecustomize.py"))


def run_once(venv, flags, argv, cwd, env, trace=False):
    bindir = os.path.join(venv, "bin")
    cmd = [os.path.join(bindir, "python"), *flags] + [a.replace("{bin}", bindir) for a in argv]
    fd, stats = tempfile.mkstemp(prefix="bench-stats-")
    os.close(fd)
    env = dict(env, BENCH_STARTUP_STATS=stats)
    if trace:
        env["BENCH_STARTUP_TRACE"] = "1"
    for attempt in range(60):
        try:
            t0 = time.perf_counter()
            r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL)
            wall = time.perf_counter() - t0
            break
        except PermissionError:
            # the interpreter is being relinked (a rebuild in progress): wait for it
            time.sleep(5)
    else:
        raise RuntimeError(f"cannot run {cmd[0]}")
    with open(stats) as f:
        lines = f.read().splitlines()
    os.unlink(stats)
    rss = mods = None
    traced = []
    for line in lines:
        if line.startswith("T "):
            _, name, where = line.split(" ", 2)
            traced.append((name, where))
        elif rss is None:
            a, b = line.split()
            rss, mods = int(a), int(b)
    return {"wall": wall, "rss_kb": rss, "modules": mods, "rc": r.returncode,
            "stdout": r.stdout, "stderr": r.stderr, "trace": traced}


def normalize(out, venv):
    # the venv path differs between interpreters; the build string in sys.version (printed
    # by e.g. pylint --version) differs between vanilla and the fork and across rebuilds
    out = out.replace(os.path.abspath(venv).encode(), b"<venv>")
    return re.sub(rb"\([^():,]*(?::[0-9a-f]+)?, [A-Z][a-z]{2} [ 0-9]{2} [0-9]{4}, [0-9:]{8}\)",
                  b"(<build>)", out)


def interp_version(venv):
    return lazytools.build_identifier(os.path.join(venv, "bin", "python"))


def bench(args):
    venvs = {"vanilla": args.vanilla_venv, "fork": args.fork_venv, "fork-L": args.fork_venv}
    flags = lazytools.FLAGS
    for v in set(venvs.values()):
        install_hook(v)
    tools = [t for t in TOOLS if not args.only or t in args.only.split(",")]
    cwd = tempfile.mkdtemp(prefix="bench-startup-cwd-")
    env = lazytools.clean_env(PYTHONHASHSEED="0", PIP_DISABLE_PIP_VERSION_CHECK="1",
                              NO_COLOR="1", TERM="dumb", COLUMNS="100")
    runs = {t: {c: [] for c in CONFIGS} for t in tools}
    ref = {t: {} for t in tools}  # first output per config
    differs = {t: {} for t in tools}
    rev = interp_version(args.fork_venv)
    # one warm-up round (page cache, .pyc files)
    for t in tools:
        for c in CONFIGS:
            run_once(venvs[c], flags[c], TOOLS[t], cwd, env)
    print(f"bench-startup: {len(tools)} commands x {len(CONFIGS)} configurations x {args.reps} "
          f"repetitions, interleaved (fork {rev})", flush=True)
    for rep in range(args.reps):
        order = CONFIGS[rep % 3:] + CONFIGS[:rep % 3]
        for t in tools:
            for c in order:
                r = run_once(venvs[c], flags[c], TOOLS[t], cwd, env)
                runs[t][c].append(r)
                key = (r["rc"], normalize(r["stdout"], venvs[c]), normalize(r["stderr"], venvs[c]))
                if c not in ref[t]:
                    ref[t][c] = key
                elif key != ref[t][c]:
                    differs[t][c] = "output varies between repetitions"
        print(f"  repetition {rep + 1}/{args.reps} done", flush=True)

    if interp_version(args.fork_venv) != rev:
        print("WARNING: the fork was rebuilt during the run; the results mix two builds")
    rows = []
    for t in tools:
        row = {"tool": t}
        for c in CONFIGS:
            rs = runs[t][c]
            row[c] = {"wall_median": statistics.median(r["wall"] for r in rs),
                      "wall_min": min(r["wall"] for r in rs),
                      "rss_kb": statistics.median(r["rss_kb"] for r in rs),
                      "modules": statistics.median(r["modules"] for r in rs),
                      "rc": rs[0]["rc"]}
        row["identical_fork_L"] = ref[t]["fork"] == ref[t]["fork-L"] and not differs[t]
        row["identical_vanilla_fork"] = ref[t]["vanilla"] == ref[t]["fork"]
        if not row["identical_fork_L"]:
            row["diff"] = {c: {"rc": ref[t][c][0], "stdout": ref[t][c][1].decode(errors="replace")[-1500:],
                               "stderr": ref[t][c][2].decode(errors="replace")[-1500:]}
                           for c in ("fork", "fork-L")}
            row["varies"] = differs[t]
        rows.append(row)
    report(rows, args)


def report(rows, args):
    groups = (f"{'':24} {'wall time, median (ms)':^33}  {'peak RSS, median (MB)':^32}  "
              f"{'modules':^14}")
    hdr = (f"{'command':24} {'vanilla':>8} {'fork':>7} {'fork-L':>7} {'-L/fork':>8}  "
           f"{'vanilla':>7} {'fork':>7} {'fork-L':>7} {'-L/fork':>8}  {'fork':>7} {'fork-L':>6}  "
           f"same")
    lines = [groups, hdr, "-" * len(hdr)]
    wall_r, rss_r, fork_wall_r = [], [], []
    for row in rows:
        v, f, l = row["vanilla"], row["fork"], row["fork-L"]
        wr = l["wall_median"] / f["wall_median"]
        rr = l["rss_kb"] / f["rss_kb"]
        same = "yes" if row["identical_fork_L"] else "NO"
        if not row["identical_vanilla_fork"]:
            same += " (vanilla differs)"
        lines.append(f"{row['tool']:24} {v['wall_median'] * 1e3:8.1f} {f['wall_median'] * 1e3:7.1f} "
                     f"{l['wall_median'] * 1e3:7.1f} {wr:8.2f}  {v['rss_kb'] / 1024:7.1f} "
                     f"{f['rss_kb'] / 1024:7.1f} {l['rss_kb'] / 1024:7.1f} {rr:8.2f}  "
                     f"{f['modules']:7.0f} {l['modules']:6.0f}  {same}")
        if row["tool"].startswith("floor"):
            continue
        fork_wall_r.append(f["wall_median"] / v["wall_median"])
        if row["identical_fork_L"]:
            wall_r.append(wr)
            rss_r.append(rr)
    gw, gr = lazytools.geomean(wall_r), lazytools.geomean(rss_r)
    lines.append("")
    lines.append(f"geomean over the {len(wall_r)} tools whose output is unchanged (floor excluded):")
    lines.append(f"  wall  fork-L/fork {gw:.3f} ({(1 - gw) * 100:.1f}% lower; target >= 50%)")
    lines.append(f"  RSS   fork-L/fork {gr:.3f} ({(1 - gr) * 100:.1f}% lower; target >= 30%)")
    lines.append(f"  wall  fork/vanilla {lazytools.geomean(fork_wall_r):.3f} (all tools)")
    for row in rows:
        if not row["identical_fork_L"]:
            lines.append(f"\noutput differs between fork and fork -L: {row['tool']}")
            for c, d in row["diff"].items():
                lines.append(f"  [{c}] rc={d['rc']} stderr tail: {d['stderr'][-600:]!r}")
    text = "\n".join(lines)
    print(text)
    lazytools.write_report(args.out, "startup", text,
                           {"fork_version": interp_version(args.fork_venv), "reps": args.reps,
                            "rows": rows, "geomean_wall_fork_L_over_fork": gw,
                            "geomean_rss_fork_L_over_fork": gr})


def explain(args):
    """Which modules does -L still import for TOOL, and which line forced each one."""
    install_hook(args.fork_venv)
    cwd = tempfile.mkdtemp(prefix="bench-startup-cwd-")
    env = lazytools.clean_env(PYTHONHASHSEED="0", NO_COLOR="1", TERM="dumb", COLUMNS="100")
    argv = TOOLS[args.explain]
    eager = run_once(args.fork_venv, [], argv, cwd, env, trace=True)
    lazy = run_once(args.fork_venv, ["-L"], argv, cwd, env, trace=True)
    print(f"{args.explain}: {eager['modules']} modules by fork, {lazy['modules']} by fork -L")
    # classify each forced import by the text of the line that forced it
    import linecache
    kinds = {}
    by_site = {}
    for name, where in lazy["trace"]:
        fn, _, ln = where.rpartition(":")
        text = linecache.getline(fn, int(ln)).strip() if ln.isdigit() else ""
        kind = "import statement" if text.startswith(("import ", "from ")) else "use of a name"
        kinds[kind] = kinds.get(kind, 0) + 1
        site = where.replace(site_packages(args.fork_venv) + "/", "")
        by_site.setdefault((site, text), []).append(name)
    print("forced by:", ", ".join(f"{k}: {v}" for k, v in kinds.items()))
    top = sorted(by_site.items(), key=lambda kv: -len(kv[1]))[: args.top]
    for (site, text), names in top:
        print(f"  {len(names):4}  {site}\n        {text[:100]}\n        first: {', '.join(names[:6])}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla-venv")
    ap.add_argument("--fork-venv", required=True)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--only", default="")
    ap.add_argument("--explain", help="trace what -L imports for this command")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    args.fork_venv = os.path.abspath(args.fork_venv)
    if args.vanilla_venv:
        args.vanilla_venv = os.path.abspath(args.vanilla_venv)
    if args.explain:
        explain(args)
    else:
        bench(args)


if __name__ == "__main__":
    main()

"""Memory of deferred imports, and what stays alive after they are resolved.

    bench_memory.py [--vanilla PY] [--fork PY] [--out build/bench] [-n 2000] [--reps 3] [-j 2]
                    [--keep DIR]

A temporary directory (--keep DIR: that one, kept) gets a package ``pkg`` of N one-line
modules ``pkg/mI.py`` (``X = I``), N top-level modules ``mI.py`` alike, a probe module
(PROBE below) and, per pattern of the table PATTERNS, three main scripts run with ``-m``:
*defer* (the N statements), *use* (the N statements, then each bound name used once, e.g.
``pkg.mI.X`` or ``xI``) and *empty* (neither).  Every script runs the pattern's prologue
(``import pkg`` and a use of it, for the pattern "package imported"), then
``memprobe.start()``; ``memprobe.mark()`` follows the statements and again the uses.  All .py
files are compiled by both interpreters beforehand (their cache tags differ), so no run
compiles anything.

memprobe.start() first reads every name of every module in sys.modules until no module is
added: under -L that resolves the lazy objects left by start-up and by the probe's own imports
(tracemalloc's), so that fork -L starts the measurement with the modules of an eager start-up.
Otherwise one-off growths of shared tables (the interned strings' dict: a single block of
207552 bytes) fall inside the measured window in one configuration and not in the other.

Runs, per pattern (-L makes module-level imports lazy):
  fork-L defer   build/fork/python -L, defer script: N deferred imports, never used
  fork-L use     build/fork/python -L, use script: N deferred imports, all used
  fork           build/fork/python, use script: N eager imports (then the same uses)
  vanilla        build/vanilla/python, use script: the same on unpatched 3.13.5
Each run is made in two kinds of processes, so that neither measurement disturbs the other:
  traced   tracemalloc started by memprobe.start(); at each mark, after gc.collect(), the bytes
           of the blocks alive minus those alive at the start, leaving out blocks allocated by
           the probe's own lines; also the lazy objects alive (gc.get_objects(), type name
           'lazy_import', contract rule 22), those not alive at the start and their
           sys.getsizeof(), the lazy objects whose gc referents include the namespace of the
           main script or of a generated module, the generated modules in sys.modules, and
           the live bytes per allocation site.  fork-L use and fork are traced twice: the
           difference between the two runs is the noise column.
  rss      no tracemalloc; at each mark, after gc.collect(), the peak RSS (VmHWM of
           /proc/self/status).  The figure is that peak minus the peak of the pattern's empty
           script with the same interpreter and flags (start-up, the probe and the prologue
           cancel), each the median of --reps runs.
Before each snapshot the probe empties the type attribute cache (sys._clear_type_cache()),
which keeps the attribute names of its entries alive: hundreds of 45-byte "open" strings, one
per .pyc read, in a number that varies from run to run (the slots follow addresses).
Figures are divided by N: bytes per module, i.e. per import statement.  PYTHONHASHSEED=0,
and the environment of clean-env.txt removed (PYTHONDONTWRITEBYTECODE included).

The report:
  deferred     fork-L defer at the first mark: bytes per deferred import (traced and RSS), the
               lazy objects made per import and their own size (sys.getsizeof); the rest of
               the traced bytes is the namespace's slot, the pending submodule bindings (the
               registry) and anything else the statement keeps; beside it the eager fork's
               cost of the same statements.
  after use    fork-L use vs fork at the last mark: what -L keeps alive that eager does not
               (traced and RSS per module, -L minus eager; ~0 expected), the lazy objects made
               since the start still alive (0 expected), and lazy objects referencing a
               generated namespace (0 expected).
  eager cost   fork vs vanilla after the N eager imports (first mark): the patch's cost when
               imports are eager.
Where -L keeps more than RETAINED_LIMIT traced bytes per module after use, or leaves a lazy
object, the report lists the allocation sites (innermost Python frame; the main script's
lines count as one site) whose live bytes differ most between fork-L use and fork, and how
many names of submodules in pkg.__dict__ are not interned strings.  Exit status 1 when a run
did not do what the figures assume (-L did not defer, an eager run did not import, the runs
started from different modules).
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import lazytools

# key -> (label, prologue, statement, use), each a format string of I; prologue is run once.
PATTERNS = {
    "dotted": ("import pkg.mI", "", "import pkg.m{i}", "pkg.m{i}.X"),
    "top": ("import mI", "", "import m{i}", "m{i}.X"),
    "from_sub": ("from pkg.mI import X", "", "from pkg.m{i} import X as x{i}", "x{i}"),
    "from_sub_pkg": ("  same, pkg imported", "import pkg\npkg.__name__",
                     "from pkg.m{i} import X as x{i}", "x{i}"),
    "from_top": ("from mI import X", "", "from m{i} import X as x{i}", "x{i}"),
    "assign": ("xI = I (reference)", "", "x{i} = {i}", "x{i}"),
}
# run -> (configuration, script)
RUNS = {
    "fork-L defer": ("fork-L", "defer"),
    "fork-L use": ("fork-L", "use"),
    "fork": ("fork", "use"),
    "vanilla": ("vanilla", "use"),
}
RETAINED_LIMIT = 8.0  # traced bytes per module (the noise column: between two runs)
TWICE = ("fork-L use", "fork")  # traced twice: the noise column

PROBE = r'''"""The probe of Tools/lazy/bench_memory.py: start(), mark(name), report()."""
import gc
import os
import sys

MODE = os.environ["BENCH_MEMORY_MODE"]
HERE = os.path.dirname(os.path.abspath(__file__))
_state = {}
_marks = {}


def _peak_rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024


def _lazy():
    return [o for o in gc.get_objects() if type(o).__name__ == "lazy_import"]


def _generated():
    """The namespaces of the main script and of the generated modules; the modules."""
    mods = [m for name, m in list(sys.modules.items())
            if name not in ("memprobe", "__main__")
            and str(getattr(m, "__file__", "")).startswith(HERE)]
    spaces = {id(vars(m)) for m in mods}
    spaces.add(id(vars(sys.modules["__main__"])))
    return spaces, len([m for m in mods if m.__name__ != "pkg"])


def _traced():
    import tracemalloc
    # The type attribute cache holds a strong reference to the name of each of its 4096
    # entries, slotted by the string's address: e.g. the "open" that PyFile_OpenCodeObject()
    # makes for every .pyc read stays alive in a varying number of slots.
    sys._clear_type_cache()
    snap = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, os.path.abspath(__file__))])
    main = os.path.abspath(sys.modules["__main__"].__file__)
    sites = {}
    for stat in snap.statistics("lineno"):
        frame = stat.traceback[0]
        site = "<main script>" if frame.filename == main else f"{frame.filename}:{frame.lineno}"
        sites[site] = sites.get(site, 0) + stat.size
    return sum(sites.values()), sites


def _resolve_startup():
    """Read every name of every module, which resolves the lazy objects left by start-up
    and by the probe's own imports (a no-op when eager), until no module is added: -L
    then starts the measurement with the modules, and so the shared tables (interned
    strings, sys.modules), of an eager start-up."""
    seen = 0
    while len(sys.modules) != seen:
        seen = len(sys.modules)
        for m in list(sys.modules.values()):
            d = getattr(m, "__dict__", None)
            for k in list(d) if isinstance(d, dict) else ():
                try:
                    d[k]
                except BaseException:
                    pass


def start():
    gc.collect()
    if MODE == "traced":
        import tracemalloc  # before _resolve_startup(), which resolves its imports
    _resolve_startup()
    _state["modules"] = len(sys.modules)
    gc.collect()
    if MODE == "traced":
        import tracemalloc
        tracemalloc.start()
        # A first round resolves what the probe's own code imports lazily under -L
        # (tracemalloc's fnmatch, re, ...), which would otherwise count as measured.
        _state.update(traced=0, sites={}, lazy_ids=set())
        mark("warm-up")
        del _marks["warm-up"]
        gc.collect()
        _state["lazy_ids"] = set(map(id, _lazy()))
        _state["traced"], _state["sites"] = _traced()


def mark(name):
    gc.collect()
    rec = {}
    if MODE == "rss":
        rec["peak_rss"] = _peak_rss()
    else:
        total, sites = _traced()
        rec["traced"] = total - _state["traced"]
        base = _state["sites"]
        rec["sites"] = {k: v - base.get(k, 0) for k, v in sites.items() if v != base.get(k, 0)}
        spaces, rec["modules"] = _generated()
        pkg = sys.modules.get("pkg")
        names = [k for k in (vars(pkg) if pkg else ()) if k[:1] == "m" and k[1:].isdigit()]
        rec["pkg_keys"] = len(names)
        is_interned = getattr(sys, "_is_interned", None)
        rec["pkg_keys_not_interned"] = (sum(1 for k in names if not is_interned(k))
                                        if is_interned else None)
        lazy = _lazy()
        new = [o for o in lazy if id(o) not in _state["lazy_ids"]]
        rec["lazy"] = len(lazy)
        rec["lazy_start"] = len(_state["lazy_ids"])
        rec["modules_start"] = _state["modules"]
        rec["lazy_new"] = len(new)
        rec["lazy_new_bytes"] = sum(map(sys.getsizeof, new))
        rec["lazy_new_sample"] = sorted({repr(o) for o in new})[:6]
        rec["lazy_ref_generated"] = sum(
            1 for o in lazy if any(id(r) in spaces for r in gc.get_referents(o)))
        rec["lazy_ref_generated_sample"] = sorted(
            {repr(o) for o in lazy if any(id(r) in spaces for r in gc.get_referents(o))})[:6]
        del lazy, new
    _marks[name] = rec


def report():
    import json
    print("BENCH_MEMORY " + json.dumps(_marks))
'''


def generate(tmp, n):
    os.makedirs(os.path.join(tmp, "pkg"))
    open(os.path.join(tmp, "pkg", "__init__.py"), "w").close()
    for i in range(n):
        for path in (os.path.join(tmp, "pkg", f"m{i}.py"), os.path.join(tmp, f"m{i}.py")):
            with open(path, "w") as f:
                f.write(f"X = {i}\n")
    with open(os.path.join(tmp, "memprobe.py"), "w") as f:
        f.write(PROBE)
    for key, (_, prologue, stmt, use) in PATTERNS.items():
        for script in ("defer", "use", "empty"):
            lines = ["import memprobe", prologue, "memprobe.start()"]
            if script != "empty":
                lines += [stmt.format(i=i) for i in range(n)]
            lines.append("memprobe.mark('statements')")
            if script == "use":
                lines += [use.format(i=i) for i in range(n)]
            lines += ["memprobe.mark('use')", "memprobe.report()"]
            with open(os.path.join(tmp, f"main_{key}_{script}.py"), "w") as f:
                f.write("\n".join(line for line in lines if line) + "\n")


def run(cmd, tmp, module, mode):
    env = lazytools.clean_env(PYTHONHASHSEED="0", BENCH_MEMORY_MODE=mode)
    r = subprocess.run([*cmd, "-m", module], cwd=tmp, env=env, capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("BENCH_MEMORY "):
            if r.returncode == 0:
                return json.loads(line.split(" ", 1)[1])
    raise RuntimeError(f"{' '.join(cmd)} -m {module} ({mode}) failed ({r.returncode}):\n"
                       f"{r.stderr[-3000:]}")


def measure(pythons, n, reps, jobs, tmp):
    generate(tmp, n)
    for py in sorted({cmd[0] for cmd in pythons.values()}):
        subprocess.run([py, "-m", "compileall", "-q", tmp], env=lazytools.clean_env(),
                       check=True)
    tasks = {}  # (pattern, run or config, mode, rep) -> (cmd, module, mode)
    for key in PATTERNS:
        for name, (cfg, script) in RUNS.items():
            for rep in range(2 if name in TWICE else 1):
                tasks[key, name, "traced", rep] = (pythons[cfg], f"main_{key}_{script}",
                                                   "traced")
            for rep in range(reps):
                tasks[key, name, "rss", rep] = (pythons[cfg], f"main_{key}_{script}", "rss")
        for cfg in lazytools.CONFIGS:
            for rep in range(reps):
                tasks[key, "empty " + cfg, "rss", rep] = (pythons[cfg], f"main_{key}_empty",
                                                          "rss")
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futures = {k: ex.submit(run, cmd, tmp, module, mode)
                   for k, (cmd, module, mode) in tasks.items()}
        raw = {k: f.result() for k, f in futures.items()}
    data = {}
    for key in PATTERNS:
        d = data[key] = {}
        for name, (cfg, _) in RUNS.items():
            d[name] = {"traced": raw[key, name, "traced", 0], "peak_rss": {}}
            if name in TWICE:
                d[name]["traced_again"] = raw[key, name, "traced", 1]
            for mark in ("statements", "use"):
                peaks = [raw[key, name, "rss", r][mark]["peak_rss"] for r in range(reps)]
                empty = [raw[key, "empty " + cfg, "rss", r][mark]["peak_rss"]
                         for r in range(reps)]
                d[name]["peak_rss"][mark] = {
                    "runs": peaks, "empty": empty,
                    "delta": statistics.median(peaks) - statistics.median(empty)}
    return data


def check(data, n):
    """What the figures rest on: -L deferred, the uses imported, eager imported."""
    problems = []
    for key, d in data.items():
        imports = key != "assign"
        defer = d["fork-L defer"]["traced"]["statements"]
        if imports and (defer["modules"] != 0 or defer["lazy_new"] < n):
            problems.append(f"{key}: fork -L did not defer ({defer['modules']} modules "
                            f"imported, {defer['lazy_new']} lazy objects)")
        for name in ("fork-L use", "fork", "vanilla"):
            t = d[name]["traced"]
            if imports and t["use"]["modules"] != n:
                problems.append(f"{key}: {name}: {t['use']['modules']} of {n} modules "
                                f"imported after use")
            if name != "fork-L use" and imports and t["statements"]["modules"] != n:
                problems.append(f"{key}: {name}: {t['statements']['modules']} of {n} modules "
                                f"imported by the statements")
        starts = {name: d[name]["traced"]["use"]["modules_start"] for name in RUNS}
        if len(set(starts[name] for name in ("fork-L defer", "fork-L use", "fork"))) != 1:
            problems.append(f"{key}: the runs start from different modules: {starts}")
    return problems


def site_diff(a, b, top=8):
    """The allocation sites whose live bytes differ most between a and b (dicts)."""
    keys = set(a) | set(b)
    diffs = sorted(((a.get(k, 0) - b.get(k, 0), k) for k in keys), key=lambda x: -abs(x[0]))
    return [(d, k) for d, k in diffs[:top] if d]


def short_site(site):
    lib = os.sep + "Lib" + os.sep
    return site[site.index(lib) + 1:] if lib in site else site


def report(data, n, reps):
    per = lambda x: x / n  # noqa: E731
    lines = [f"N = {n} modules per pattern; figures in bytes per module (= per import "
             f"statement); RSS: peak, median of {reps} runs, minus the empty script's", ""]
    lines.append("deferred, never used (fork -L), and the eager fork's cost of the same "
                 "statements")
    lines.append(f"{'pattern':22} {'traced':>7} {'lazy obj':>8} {'obj B':>6} {'rest':>6} "
                 f"{'RSS':>6} | {'eager traced':>12} {'eager RSS':>9}")
    for key, (label, *_) in PATTERNS.items():
        d = data[key]
        t = d["fork-L defer"]["traced"]["statements"]
        e = d["fork"]["traced"]["statements"]
        lines.append(
            f"{label:22} {per(t['traced']):>7.1f} {per(t['lazy_new']):>8.2f} "
            f"{per(t['lazy_new_bytes']):>6.1f} {per(t['traced'] - t['lazy_new_bytes']):>6.1f} "
            f"{per(d['fork-L defer']['peak_rss']['statements']['delta']):>6.0f} | "
            f"{per(e['traced']):>12.1f} {per(d['fork']['peak_rss']['statements']['delta']):>9.0f}")
    lines.append("")
    lines.append("after use: fork -L (deferred, then all used) vs fork (eager, the same uses)")
    lines.append(f"{'pattern':22} {'traced -L':>9} {'eager':>7} {'-L-eager':>8} {'noise':>5} "
                 f"{'RSS -L':>7} {'eager':>6} {'-L-eager':>8} | {'lazy left':>9} {'ref ns':>6}")
    retained = []
    for key, (label, *_) in PATTERNS.items():
        d = data[key]
        lu, fe = d["fork-L use"]["traced"]["use"], d["fork"]["traced"]["use"]
        noise = max(abs(per(d[r]["traced"]["use"]["traced"]
                            - d[r]["traced_again"]["use"]["traced"])) for r in TWICE)
        rl, rf = (d[r]["peak_rss"]["use"]["delta"] for r in ("fork-L use", "fork"))
        diff = per(lu["traced"] - fe["traced"])
        if diff > RETAINED_LIMIT or lu["lazy_new"] or lu["lazy_ref_generated"]:
            retained.append(key)
        lines.append(
            f"{label:22} {per(lu['traced']):>9.1f} {per(fe['traced']):>7.1f} {diff:>+8.1f} "
            f"{noise:>5.1f} {per(rl):>7.0f} {per(rf):>6.0f} {per(rl - rf):>+8.0f} | "
            f"{lu['lazy_new']:>9} {lu['lazy_ref_generated']:>6}")
    lines.append("")
    lines.append("eager cost: fork vs vanilla after the N imports (no -L)")
    lines.append(f"{'pattern':22} {'traced vanilla':>14} {'fork':>7} {'diff':>6} "
                 f"{'RSS vanilla':>11} {'fork':>6} {'diff':>6}")
    for key, (label, *_) in PATTERNS.items():
        d = data[key]
        tv, tf = (per(d[r]["traced"]["statements"]["traced"]) for r in ("vanilla", "fork"))
        rv, rf = (per(d[r]["peak_rss"]["statements"]["delta"]) for r in ("vanilla", "fork"))
        lines.append(f"{label:22} {tv:>14.1f} {tf:>7.1f} {tf - tv:>+6.1f} {rv:>11.0f} "
                     f"{rf:>6.0f} {rf - rv:>+6.0f}")
    t0 = data["top"]["fork-L use"]["traced"]["use"]
    lines += [
        "",
        "traced     tracemalloc: bytes of the blocks alive at the mark, after gc.collect(), "
        "minus those at the start, / N",
        "lazy obj   lazy objects made since the start and alive, / N; obj B: their "
        "sys.getsizeof(), / N",
        "rest       traced - obj B: the namespace's slot, the pending submodule bindings, "
        "strings, ...",
        "RSS        peak RSS (VmHWM) minus the empty script's (same interpreter and flags), / N",
        "noise      |first - second| traced run of the same configuration, / N "
        "(the larger of -L and eager)",
        "lazy left  lazy objects made since the start still alive after use (count)",
        "ref ns     lazy objects alive whose gc referents include the main script's or a "
        "generated module's namespace (count)",
        f"start-up   lazy objects alive at the start (fork -L, after the probe resolved "
        f"start-up's): {t0['lazy_start']}; modules at the start: fork -L {t0['modules_start']}, "
        f"fork {data['top']['fork']['traced']['use']['modules_start']}",
    ]
    if retained:
        lines.append("")
        lines.append(f"RETAINED after use (-L keeps > {RETAINED_LIMIT:.0f} traced B/module more "
                     f"than eager, or lazy objects): {', '.join(retained)}")
        for key in retained:
            d = data[key]
            lu, fe = d["fork-L use"]["traced"]["use"], d["fork"]["traced"]["use"]
            lines.append(f"  {PATTERNS[key][0]}: {lu['lazy_new']} lazy left "
                         f"{lu['lazy_new_sample']}, {lu['lazy_ref_generated']} referencing a "
                         f"generated namespace {lu['lazy_ref_generated_sample']}")
            if lu["pkg_keys"]:
                lines.append(f"    names of submodules in pkg.__dict__: {lu['pkg_keys']}, not "
                             f"interned: fork -L {lu['pkg_keys_not_interned']}, fork "
                             f"{fe['pkg_keys_not_interned']}")
            lines.append("    allocation sites (innermost frame), live bytes fork-L use - fork:")
            for diff, site in site_diff(lu["sites"], fe["sites"]):
                lines.append(f"      {diff:>+9} B  {short_site(site)}")
    else:
        lines.append(f"retained after use: none (no pattern keeps more than {RETAINED_LIMIT:.0f} "
                     f"traced B/module over eager, no lazy object left)")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla", default=lazytools.VANILLA_PYTHON)
    ap.add_argument("--fork", default=lazytools.FORK_PYTHON)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("-n", type=int, default=2000, help="modules per pattern")
    ap.add_argument("--reps", type=int, default=3, help="runs per peak RSS figure")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="generate the modules and scripts in DIR "
                    "(emptied first) and keep them, to run one by hand: cd DIR; "
                    "BENCH_MEMORY_MODE=traced PY [-L] -m main_PATTERN_use")
    args = ap.parse_args()
    pythons = {c: lazytools.command(c, args.vanilla, args.fork) for c in lazytools.CONFIGS}
    rev = lazytools.build_identifier(args.fork)
    fork_mtime = os.stat(args.fork).st_mtime
    print(f"bench-memory: {len(PATTERNS)} patterns x {len(RUNS)} runs, N={args.n} "
          f"(fork {rev})", flush=True)
    if args.keep:
        shutil.rmtree(args.keep, ignore_errors=True)
        os.makedirs(args.keep)
        data = measure(pythons, args.n, args.reps, args.jobs, os.path.abspath(args.keep))
    else:
        with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
            data = measure(pythons, args.n, args.reps, args.jobs, tmp)
    problems = check(data, args.n)
    text = report(data, args.n, args.reps)
    if problems:
        text += "\n\nINVALID RUNS:\n" + "\n".join("  " + p for p in problems)
    if os.stat(args.fork).st_mtime != fork_mtime:
        text += f"\nWARNING: {args.fork} was rebuilt during the run; the results mix two builds"
    print(text)
    lazytools.write_report(args.out, "memory", f"fork {rev}\n{text}",
                           {"fork_version": rev, "n": args.n, "reps": args.reps,
                            "patterns": {k: v[0] for k, v in PATTERNS.items()},
                            "runs": {k: list(v) for k, v in RUNS.items()}, "data": data})
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

"""Instruction-count micro-benchmarks for the code paths the lazy-import patch touches.

    bench_micro.py [--vanilla PY] [--fork PY] [--out build/bench] [--only NAME,...] [-j 2]

Every loop is generated as a small script and run by bench/micro/driver.py under
``valgrind --tool=callgrind``: set up, warmed up (specialization, the first resolution of lazy
names), then counted alone between two client requests that zero and dump the counters.
Each loop runs in a process of its own, so that its count does not depend on the heap that
the loops before it left (allocation-heavy loops moved by a few percent with their
neighbours).  Three configurations: vanilla 3.13.5, the fork without -L, and the fork with -L
(steady state after the first use of each lazy name).  Instruction counts do not depend on
the machine's load.

The script also measures what a lazy import costs: N synthetic modules imported eagerly vs
lazily (and then used once), and lazily without use, per module; and the instructions of the
whole ``python -c pass`` process (with ``-I`` and ``-S`` too), the interpreter's own start-up.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import tempfile

import lazytools

UNROLL = 8

# name -> (level, N, setup, body).  level is "func" (the body runs in a function, the usual
# case for hot code) or "module" (the body runs at module level: LOAD_NAME/STORE_NAME and
# module-level imports, which -L makes lazy).  setup runs at module level before the loop,
# so with -L its imports are lazy and get resolved by the first iteration.  The body is
# repeated UNROLL times per iteration.
LOOPS = {
    "global_load": ("func", 400_000, "G = 1", "x = G"),
    "builtin_load": ("func", 400_000, "", "x = len"),
    "global_call_builtin": ("func", 200_000, "s = 'abc'", "x = len(s)"),
    "module_attr": ("func", 300_000, "import math", "x = math.pi"),
    "module_attr_submod": ("func", 200_000, "import os.path", "x = os.path.join"),
    "getattr_module": ("func", 150_000, "import math", "x = getattr(math, 'pi')"),
    "getattr_module_missing": ("func", 100_000, "import math",
                               "x = getattr(math, 'nope', None)"),
    "from_imported_name": ("func", 400_000, "from math import pi", "x = pi"),
    "dict_getitem_str": ("func", 300_000, "d = {'k%d' % i: i for i in range(64)}", "x = d['k7']"),
    "dict_getitem_int": ("func", 300_000, "d = {i: i for i in range(64)}", "x = d[7]"),
    "dict_get": ("func", 200_000, "d = {'k%d' % i: i for i in range(64)}", "x = d.get('k7')"),
    "dict_get_missing": ("func", 200_000, "d = {'k%d' % i: i for i in range(64)}", "x = d.get('zz')"),
    "dict_contains": ("func", 300_000, "d = {'k%d' % i: i for i in range(64)}", "x = 'k7' in d"),
    "dict_setitem": ("func", 300_000, "d = {'k%d' % i: i for i in range(64)}", "d['k7'] = i"),
    "dict_setdefault": ("func", 200_000, "d = {'k%d' % i: i for i in range(64)}", "x = d.setdefault('k7', 0)"),
    "dict_iter": ("func", 6_000, "d = {'k%d' % i: i for i in range(64)}", "for k in d: pass"),
    "dict_keys": ("func", 6_000, "d = {'k%d' % i: i for i in range(64)}", "for k in d.keys(): pass"),
    "dict_values": ("func", 6_000, "d = {'k%d' % i: i for i in range(64)}", "for v in d.values(): pass"),
    "dict_items": ("func", 5_000, "d = {'k%d' % i: i for i in range(64)}", "for k, v in d.items(): pass"),
    "dict_copy": ("func", 30_000, "d = {'k%d' % i: i for i in range(64)}", "x = d.copy()"),
    "dict_ctor": ("func", 30_000, "d = {'k%d' % i: i for i in range(64)}", "x = dict(d)"),
    "dict_update": ("func", 30_000, "d = {'k%d' % i: i for i in range(64)}\ne = {}", "e.update(d)"),
    "dict_list_values": ("func", 30_000, "d = {'k%d' % i: i for i in range(64)}", "x = list(d.values())"),
    "dict_update_1000": ("func", 3_000, "d = {'k%d' % i: i for i in range(1000)}", "e = {}; e.update(d)"),
    "dict_ctor_1000": ("func", 3_000, "d = {'k%d' % i: i for i in range(1000)}", "x = dict(d)"),
    "dict_unpack_1000": ("func", 3_000, "d = {'k%d' % i: i for i in range(1000)}", "x = {**d}"),
    "dict_ior_1000": ("func", 3_000, "d = {'k%d' % i: i for i in range(1000)}", "e = {'a': 1}; e |= d"),
    "dict_star_kwargs": ("func", 30_000, "d = {'k%d' % i: i for i in range(16)}\ndef f(**kw): pass", "f(**d)"),
    "moddict_getitem": ("func", 300_000, "import os\nmd = vars(os)", "x = md['path']"),
    "moddict_get": ("func", 200_000, "import os\nmd = vars(os)", "x = md.get('path')"),
    "moddict_values": ("func", 800, "import os\nmd = vars(os)", "for v in md.values(): pass"),
    "moddict_items": ("func", 600, "import os\nmd = vars(os)", "for k, v in md.items(): pass"),
    "moddict_copy": ("func", 4_000, "import os\nmd = vars(os)", "x = md.copy()"),
    "globals_dict_read": ("func", 200_000, "G = 1", "x = globals()['G']"),
    "inst_attr": ("func", 300_000, "class C:\n    def __init__(self): self.a = 1\no = C()", "x = o.a"),
    "inst_attr_dict": ("func", 300_000,
                       "class C: pass\no = C()\no.__dict__.update({'a%d' % i: i for i in range(40)})",
                       "x = o.a7"),
    "class_attr": ("func", 300_000, "class C:\n    a = 1", "x = C.a"),
    "import_in_func": ("func", 100_000, "import os", "import os"),
    "from_import_in_func": ("func", 80_000, "import os", "from os import path"),
    "module_level_loop": ("module", 200_000, "G = 1", "y = G + 1"),
    "module_level_builtin": ("module", 200_000, "", "y = len"),
    "module_level_import": ("module", 60_000, "import os", "import os"),
    "module_level_dotted_import": ("module", 50_000, "import os.path", "import os.path"),
    "module_level_from_import": ("module", 50_000, "import os", "from os import path"),
}


DRIVER = os.path.join(lazytools.ROOT, "bench", "micro", "driver.py")
CGCTL_C = os.path.join(lazytools.ROOT, "bench", "micro", "cgctl.c")
CONFIGS = lazytools.CONFIGS
FA_COUNT = 200
FA_KINDS = ("import+use", "from+use", "import only", "top import+use", "top from+use")


def build_cgctl(out):
    so = os.path.join(out, "cgctl.so")
    if not os.path.exists(so) or os.path.getmtime(so) < os.path.getmtime(CGCTL_C):
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", so, CGCTL_C], check=True)
    return so


def first_access_entries(tmp, pythons):
    """FA_COUNT one-line modules per pattern, in a package or at the top level (a module
    imports only once)."""
    entries = []
    os.makedirs(tmp)
    for k, kind in enumerate(FA_KINDS):
        if kind.startswith("top "):
            # Top-level modules: no package to bind them in (contract rule 49).
            for i in range(FA_COUNT):
                with open(os.path.join(tmp, f"fa{k}_{i}.py"), "w") as f:
                    f.write(f"X = {i}\n")
        else:
            pkg = os.path.join(tmp, f"fa{k}")
            os.makedirs(pkg)
            open(os.path.join(pkg, "__init__.py"), "w").close()
            for i in range(FA_COUNT):
                with open(os.path.join(pkg, f"m{i}.py"), "w") as f:
                    f.write(f"X = {i}\n")
        if kind == "top import+use":
            code = "".join(f"import fa{k}_{i}\n" for i in range(FA_COUNT))
            code += "".join(f"fa{k}_{i}.X\n" for i in range(FA_COUNT))
        elif kind == "top from+use":
            code = "".join(f"from fa{k}_{i} import X as x{i}\n" for i in range(FA_COUNT))
            code += "".join(f"x{i}\n" for i in range(FA_COUNT))
        elif kind == "import+use":
            code = "".join(f"import fa{k}.m{i}\n" for i in range(FA_COUNT))
            code += "".join(f"fa{k}.m{i}.X\n" for i in range(FA_COUNT))
        elif kind == "from+use":
            code = "".join(f"from fa{k}.m{i} import X as x{i}\n" for i in range(FA_COUNT))
            code += "".join(f"x{i}\n" for i in range(FA_COUNT))
        else:
            code = "".join(f"import fa{k}.m{i}\n" for i in range(FA_COUNT))
        entries.append({"name": "fa:" + kind, "level": "once", "path": tmp, "code": code})
    for py in {pythons[c][0] for c in CONFIGS}:
        subprocess.run([py, "-m", "compileall", "-q", tmp], env=lazytools.clean_env(),
                       check=True)
    return entries


def run_config(cfg, pythons, spec_path, so, tmp, tag):
    py, *flags = pythons[cfg]
    outdir = os.path.join(tmp, f"cg-{cfg}-{tag}")
    os.mkdir(outdir)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(outdir, "cg.out"),
           py, *flags, DRIVER, so, spec_path]
    r = subprocess.run(cmd, env=lazytools.clean_env(PYTHONHASHSEED="0"), capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-3000:]}")
    counts = {}
    for fn in os.listdir(outdir):
        name = total = None
        with open(os.path.join(outdir, fn)) as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    name = line.split(": ", 3)[3].strip()
                elif line.startswith(("summary:", "totals:")):
                    total = int(line.split()[1])
        if name is not None and total is not None:
            counts[name] = total
    return counts


def measure(pythons, names, scale, jobs, out, first_access=True, loops=True):
    so = build_cgctl(out)
    with tempfile.TemporaryDirectory(prefix="bench-micro-") as tmp:
        spec = []
        if loops:
            for name in names:
                level, n, setup, body = LOOPS[name]
                spec.append({"name": name, "level": level, "n": max(1, int(n * scale)),
                             "setup": setup, "body": body, "unroll": UNROLL})
        if first_access:
            spec += first_access_entries(os.path.join(tmp, "fa"), pythons)
        # One process per entry and configuration; each subtracts its own empty region.
        runs = {}
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            for k, e in enumerate(spec):
                spec_path = os.path.join(tmp, f"spec{k}.json")
                with open(spec_path, "w") as f:
                    json.dump([e], f)
                for c in CONFIGS:
                    runs[e["name"], c] = ex.submit(run_config, c, pythons, spec_path, so, tmp,
                                                   str(k))
            counts = {key: fut.result() for key, fut in runs.items()}
    empty = {c: max(counts[e["name"], c].get("_empty", 0) for e in spec) for c in CONFIGS}
    table = {}
    for e in spec:
        table[e["name"]] = {"n": e.get("n")}
        for c in CONFIGS:
            got = counts[e["name"], c]
            if e["name"] not in got:
                raise RuntimeError(f"{c}: no counts for {e['name']}")
            table[e["name"]][c] = got[e["name"]] - got.get("_empty", 0)
    return table, empty


# Whole-process instruction counts of an empty program: the interpreter's own start-up.
# "-S" skips site, which leaves only the codec machinery's imports, all of them used.
STARTUP_VARIANTS = {"-c pass": [], "-I -c pass": ["-I"], "-S -c pass": ["-S"]}


def run_startup(cfg, pythons, flags, tmp, tag):
    """Program total of ``python FLAGS -c pass`` under callgrind, in the clean environment."""
    py, *config_flags = pythons[cfg]
    out = os.path.join(tmp, f"startup-{cfg}-{tag}.out")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
           py, *config_flags, *flags, "-c", "pass"]
    r = subprocess.run(cmd, env=lazytools.clean_env(PYTHONHASHSEED="0"), capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-3000:]}")
    with open(out) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no total in {out}")


def measure_startup(pythons, jobs):
    with tempfile.TemporaryDirectory(prefix="bench-startup-ir-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        runs = {(v, c): ex.submit(run_startup, c, pythons, flags, tmp, str(k))
                for k, (v, flags) in enumerate(STARTUP_VARIANTS.items()) for c in CONFIGS}
        return {v: {c: runs[v, c].result() for c in CONFIGS} for v in STARTUP_VARIANTS}


def fmt_ratio(a, b):
    return f"{(a / b - 1) * 100:+7.2f}%"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla", default=lazytools.VANILLA_PYTHON)
    ap.add_argument("--fork", default=lazytools.FORK_PYTHON)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--only", default="")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N")
    ap.add_argument("-j", "--jobs", type=int, default=3)
    ap.add_argument("--no-first-access", action="store_true")
    ap.add_argument("--first-access-only", action="store_true")
    args = ap.parse_args()
    pythons = {c: lazytools.command(c, args.vanilla, args.fork) for c in CONFIGS}
    rev = lazytools.build_identifier(args.fork)
    fork_mtime = os.stat(args.fork).st_mtime
    os.makedirs(args.out, exist_ok=True)
    names = [n for n in args.only.split(",") if n] or list(LOOPS)
    do_loops = not args.first_access_only
    print(f"bench-micro: {len(names) if do_loops else 0} loops"
          f"{' + lazy-import cost' if not args.no_first_access else ''}, one callgrind run per "
          f"configuration (fork {rev})", flush=True)
    table, empty = measure(pythons, names, args.scale, args.jobs, args.out,
                           first_access=not args.no_first_access, loops=do_loops)
    startup = measure_startup(pythons, args.jobs) if not args.no_first_access else {}
    lines = []
    if do_loops:
        lines.append(f"{'loop':26} {'N':>7} {'Ir/stmt vanilla':>16} {'fork/vanilla':>13} "
                     f"{'fork-L/vanilla':>15}")
        for name in names:
            r = table[name]
            v, f, fl = (r[c] for c in CONFIGS)
            lines.append(f"{name:26} {r['n']:>7} {v / r['n'] / UNROLL:>16.1f} {fmt_ratio(f, v):>13} "
                         f"{fmt_ratio(fl, v):>15}")
        worst = max(names, key=lambda n: table[n]["fork"] / table[n]["vanilla"])
        over = [n for n in names if table[n]["fork"] / table[n]["vanilla"] > 1.005]
        lines.append(f"worst fork/vanilla: {worst} "
                     f"{fmt_ratio(table[worst]['fork'], table[worst]['vanilla']).strip()} "
                     f"(target: within +0.50% on every loop); over target: {', '.join(over) or 'none'}")
    if not args.no_first_access:
        lines.append("")
        lines.append(f"import cost per module, Ir ({FA_COUNT} one-line modules, first import):")
        lines.append(f"{'pattern':16} {'vanilla':>10} {'fork':>10} {'fork-L':>10} {'fork-L - fork':>14}"
                     f" {'':>8}")
        for kind in FA_KINDS:
            r = {c: table["fa:" + kind][c] / FA_COUNT for c in CONFIGS}
            lines.append(f"{kind:16} {r['vanilla']:>10.0f} {r['fork']:>10.0f} {r['fork-L']:>10.0f} "
                         f"{r['fork-L'] - r['fork']:>+14.0f} {fmt_ratio(r['fork-L'], r['fork']):>8}")
    if startup:
        lines.append("")
        lines.append("start-up, Ir of the whole process (clean environment):")
        lines.append(f"{'command':16} {'vanilla':>12} {'fork':>12} {'fork-L':>12} "
                     f"{'fork/vanilla':>13} {'fork-L/fork':>12}")
        for v, r in startup.items():
            lines.append(f"{v:16} {r['vanilla']:>12,} {r['fork']:>12,} {r['fork-L']:>12,} "
                         f"{fmt_ratio(r['fork'], r['vanilla']):>13} "
                         f"{fmt_ratio(r['fork-L'], r['fork']):>12}")
    if os.stat(args.fork).st_mtime != fork_mtime:
        lines.append(f"WARNING: {args.fork} was rebuilt during the run; the results mix two builds")
    text = "\n".join(lines)
    print(text)
    lazytools.write_report(args.out, "micro" if do_loops else "first-access", f"fork {rev}\n{text}",
                 {"fork_version": rev, "unroll": UNROLL, "scale": args.scale,
                  "empty_region": empty, "counts": table, "startup": startup})


if __name__ == "__main__":
    main()

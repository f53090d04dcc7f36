"""Instruction-count micro-benchmarks for the code paths the lazy-import patch touches.

    bench_micro.py --vanilla PY --lazy PY [--out build/bench] [--only NAME,...] [-j 2]

Every loop is generated as a small script, run under ``valgrind --tool=callgrind`` at two
sizes N and 2N, and the loop's own cost is I(2N) - I(N): start-up, imports, the first
(specializing) iterations and the first resolution of lazy names cancel out.  Three
configurations: vanilla 3.13.5, the fork without -L, and the fork with -L (steady state after
the first use of each lazy name).  Instruction counts do not depend on the machine's load.

The script also measures what a lazy import costs: N synthetic modules imported eagerly vs
lazily (and then used once), and lazily without use, again as I(2N) - I(N) per module.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap

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
    "module_level_from_import": ("module", 50_000, "import os", "from os import path"),
}


def loop_source(name, n):
    level, _, setup, body = LOOPS[name]
    unrolled = "\n".join([body] * UNROLL)
    if level == "func":
        return (f"{setup}\n"
                f"def run(n):\n"
                f"    for i in range(n):\n"
                f"{textwrap.indent(unrolled, ' ' * 8)}\n"
                f"run({n})\n")
    return (f"{setup}\n"
            f"for i in range({n}):\n"
            f"{textwrap.indent(unrolled, ' ' * 4)}\n")


def callgrind(python, flags, script, tmp):
    out = os.path.join(tmp, "cg.out.%p")
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
           python, *flags, script]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-3000:]}")
    m = re.search(r"Collected : (\d+)", r.stderr)
    if not m:
        raise RuntimeError("no 'Collected' line in callgrind output:\n" + r.stderr[-2000:])
    for f in os.listdir(tmp):
        if f.startswith("cg.out."):
            os.unlink(os.path.join(tmp, f))
    return int(m.group(1))


CONFIGS = ("vanilla", "fork", "fork-L")


def measure_loop(name, pythons, n_scale):
    n = max(1, int(LOOPS[name][1] * n_scale))
    res = {"n": n}
    with tempfile.TemporaryDirectory(prefix="bench-micro-") as tmp:
        scripts = {}
        for k in (n, 2 * n):
            path = os.path.join(tmp, f"loop_{k}.py")
            with open(path, "w") as f:
                f.write(loop_source(name, k))
            scripts[k] = path
        cg = os.path.join(tmp, "cg")
        os.mkdir(cg)
        for cfg in CONFIGS:
            py, flags = pythons[cfg]
            i1 = callgrind(py, flags, scripts[n], cg)
            i2 = callgrind(py, flags, scripts[2 * n], cg)
            res[cfg] = {"I_N": i1, "I_2N": i2, "loop": i2 - i1, "fixed": 2 * i1 - i2}
    return name, res


def first_access_sources(tmp, count):
    """A package of `count` tiny modules and three drivers importing all of them."""
    pkg = os.path.join(tmp, "fa_pkg")
    os.makedirs(pkg, exist_ok=True)
    open(os.path.join(pkg, "__init__.py"), "w").close()
    for i in range(count):
        with open(os.path.join(pkg, f"m{i}.py"), "w") as f:
            f.write(f"X = {i}\n")
    imports = "".join(f"import fa_pkg.m{i}\n" for i in range(count))
    froms = "".join(f"from fa_pkg.m{i} import X as x{i}\n" for i in range(count))
    uses = "".join(f"fa_pkg.m{i}.X\n" for i in range(count))
    fuses = "".join(f"x{i}\n" for i in range(count))
    drivers = {
        "import+use": f"import sys\nsys.path.insert(0, {tmp!r})\n{imports}{uses}",
        "import only": f"import sys\nsys.path.insert(0, {tmp!r})\n{imports}",
        "from+use": f"import sys\nsys.path.insert(0, {tmp!r})\n{froms}{fuses}",
    }
    paths = {}
    for k, src in drivers.items():
        p = os.path.join(tmp, f"drv_{k.replace('+', '_').replace(' ', '_')}_{count}.py")
        with open(p, "w") as f:
            f.write(src)
        paths[k] = p
    return paths


def measure_first_access(pythons, count=200):
    """Per-module cost of eager vs lazy import (+ first use), from I(2N) - I(N)."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="bench-fa-") as tmp:
        cg = os.path.join(tmp, "cg")
        os.mkdir(cg)
        d1 = os.path.join(tmp, "a")
        d2 = os.path.join(tmp, "b")
        s1 = first_access_sources(d1, count)
        s2 = first_access_sources(d2, 2 * count)
        # compile the .pyc files once so both sizes measure the same thing
        for cfg in ("vanilla", "fork"):
            py, _ = pythons[cfg]
            subprocess.run([py, "-m", "compileall", "-q", d1, d2], check=True)
        for kind in s1:
            for cfg in CONFIGS:
                py, flags = pythons[cfg]
                i1 = callgrind(py, flags, s1[kind], cg)
                i2 = callgrind(py, flags, s2[kind], cg)
                out.setdefault(kind, {})[cfg] = (i2 - i1) / count
    return out


def fmt_ratio(a, b):
    return f"{(a / b - 1) * 100:+7.2f}%"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla", required=True)
    ap.add_argument("--lazy", required=True)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--only", default="")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--no-first-access", action="store_true")
    ap.add_argument("--first-access-only", action="store_true")
    args = ap.parse_args()
    pythons = {"vanilla": (args.vanilla, []), "fork": (args.lazy, []), "fork-L": (args.lazy, ["-L"])}
    rev = subprocess.run([args.lazy, "-c", "import sys; print(sys.version.split()[1].strip(\"(),\"))"],
                         capture_output=True, text=True).stdout.strip()
    lazy_mtime = os.stat(args.lazy).st_mtime
    os.makedirs(args.out, exist_ok=True)
    names = [n for n in args.only.split(",") if n] or list(LOOPS)
    results = {}
    if not args.first_access_only:
        print(f"bench-micro: {len(names)} loops x 2 sizes x 3 configurations under callgrind "
              f"(fork {rev})", flush=True)
        print(f"{'loop':26} {'N':>7} {'Ir/iter vanilla':>16} {'fork/vanilla':>13} "
              f"{'fork-L/vanilla':>15}", flush=True)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            futs = [ex.submit(measure_loop, n, pythons, args.scale) for n in names]
            for fut in futs:
                name, r = fut.result()
                results[name] = r
                v, f, fl = (r[c]["loop"] for c in CONFIGS)
                print(f"{name:26} {r['n']:>7} {v / r['n'] / UNROLL:>16.1f} {fmt_ratio(f, v):>13} "
                      f"{fmt_ratio(fl, v):>15}", flush=True)
        worst = max(results, key=lambda n: results[n]["fork"]["loop"] / results[n]["vanilla"]["loop"])
        w = results[worst]
        print(f"worst fork/vanilla: {worst} {fmt_ratio(w['fork']['loop'], w['vanilla']['loop'])}"
              f" (target: within +0.50% on every loop)")
        fx = {c: min(results[n][c]["fixed"] for n in results) for c in CONFIGS}
        print(f"fixed cost (start-up + setup, smallest over loops): vanilla {fx['vanilla']:,} Ir, "
              f"fork {fmt_ratio(fx['fork'], fx['vanilla']).strip()}, "
              f"fork-L {fmt_ratio(fx['fork-L'], fx['vanilla']).strip()}")
    fa = None
    if not args.no_first_access:
        print("\nlazy import cost per module (Ir, from 200 vs 400 one-line modules):", flush=True)
        fa = measure_first_access(pythons)
        print(f"{'pattern':14} {'vanilla':>10} {'fork':>10} {'fork-L':>10} {'fork-L - fork':>14}")
        for kind, r in fa.items():
            print(f"{kind:14} {r['vanilla']:>10.0f} {r['fork']:>10.0f} {r['fork-L']:>10.0f} "
                  f"{r['fork-L'] - r['fork']:>+14.0f}")
    if os.stat(args.lazy).st_mtime != lazy_mtime:
        print(f"WARNING: {args.lazy} was rebuilt during the run; the results mix two builds")
    path = os.path.join(args.out, "micro.json" if not args.first_access_only else "first-access.json")
    with open(path, "w") as f:
        json.dump({"fork_version": rev, "unroll": UNROLL, "loops": results, "first_access": fa},
                  f, indent=1)
    print(f"results: {path}")


if __name__ == "__main__":
    main()

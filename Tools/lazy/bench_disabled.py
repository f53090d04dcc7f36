"""What the fork costs when no lazy mode is on: whole-process instruction counts, fork vs vanilla.

    bench_disabled.py [--vanilla PY] [--fork PY] [--out build/bench] [--reps 3] [-j 2]
                      [--no-hooks] [--top 15]

Issue 37, "Disabled means free": the fork without -L runs what vanilla runs, plus the tests of
the hooks that -L needs.  Three commands, each the whole process under
``valgrind --tool=callgrind`` in vanilla, the fork and the fork with -L (for reference):
``python -c pass``, ``python -I -c pass`` and ``python import_heavy.py``, a script that imports
asyncio, email.message, email.parser, http.client, argparse, json, logging, decimal,
xml.etree.ElementTree and unittest (written to OUT/disabled/, so that its path and sys.path[0]
are the same in every run).  The environment is lazytools.clean_env() (so no
PYTHONDONTWRITEBYTECODE and no PYTHONUNBUFFERED): both interpreters read their standard
library from .pyc files.  Each command is run once to warm up, then once with -v, which must
print no "created" line (no .pyc written: the runs measured load the same files).  Then
--reps rounds; round k runs every command and configuration with PYTHONHASHSEED=k, so the
three ratios of a row come from three hash seeds and show how stable it is.

Then where the fork's extra instructions are, on the profiles of the first round:

* the self cost per function, fork - vanilla, of the import-heavy script (the largest
  differences; a function of the evaluation loop that moves in both directions is the compiler
  laying the loop out differently, see bench/README.rst);
* the fork's own C functions (in Python/lazyimport.c, Python/lazyimport_heal.c or
  Objects/lazyimportobject.c, or named
  *LazyImport*, lazy_*, _imp__lazy*, and the _imp hooks the import system calls) with their
  calls and inclusive instructions without -L, as a share of vanilla's whole process;
* the hooks that importlib._bootstrap and _bootstrap_external call from Python code on every
  import (``_imp._lazy_module_loaded``, ``_imp._lazy_complete_package``,
  ``_imp._keeps_attribute``, ``_imp._skipped_import_hooks`` and ``_imp._run_import_hook``,
  the ``_lazy_compiled`` test of get_code()), measured by ablation: the import-heavy script is
  run by the fork after the functions that call them got, in place, the code of the same
  function without the hook (their ``__code__`` replaced from a marshal file compiled by the
  fork beforehand), and the count compared with a run where they got their own code back.
  Every variant replaces the same functions, so the difference is the hook's whole cost: the
  bytecode of the call site, the call, and the C function.

The target is at most +0.3% for each hook and for the fork's whole process over vanilla's.
Results: OUT/disabled.txt and .json; the profiles: OUT/disabled/*.out (callgrind_annotate).
"""
import argparse
import collections
import concurrent.futures
import json
import marshal
import os
import re
import subprocess
import time

import lazytools

HEAVY_MODULES = ("asyncio", "email.message", "email.parser", "http.client", "argparse",
                 "json", "logging", "decimal", "xml.etree.ElementTree", "unittest")
HEAVY = "import_heavy.py"
COMMANDS = {"-c pass": ["-c", "pass"], "-I -c pass": ["-I", "-c", "pass"],
            "import-heavy": [HEAVY]}
TARGET = 0.3    # percent, per hook and for the whole process
CWD = [None]    # where the commands run: OUT/disabled/scripts, set by main()

# The functions of the fork's own: where they are defined, or how they are named.
FORK_FILES = ("Python/lazyimport.c", "Python/lazyimport_heal.c",
              "Objects/lazyimportobject.c")
FORK_NAMES = re.compile(r"LazyImport|^lazy_|^_imp__lazy|^_imp__keeps_attribute$"
                        r"|^_imp__skipped_import_hooks$|^_imp__run_import_hook$|LazyItem"
                        r"|MayHoldLazy|^_PyDict_.*NoResolve")

# The Python call sites of the hooks, by ablation: name -> [(module, qualname, edit)], where
# edit is a list of (old, new) replacements in the fork's source of that function, or
# "vanilla" for vanilla's source of it.  Every variant replaces all the functions listed in
# any of them (the others with their own code), so that variants differ by the hook alone.
BOOTSTRAP = {"_bootstrap": "importlib/_bootstrap.py",
             "_bootstrap_external": "importlib/_bootstrap_external.py"}
HOOKS = {
    "_imp._lazy_module_loaded (_load_unlocked, each module loaded)": [
        ("_bootstrap", "_load_unlocked",
         [("        _imp._lazy_module_loaded(module, spec.name)\n", "")])],
    "_imp._lazy_complete_package (_find_and_load_unlocked, each submodule)": [
        ("_bootstrap", "_find_and_load_unlocked",
         [("        if _imp._lazy_complete_package(parent_module, name):\n"
           "            return sys.modules[name]\n", "")])],
    "_imp._keeps_attribute (_find_and_load_unlocked, each submodule)": [
        ("_bootstrap", "_find_and_load_unlocked",
         [("if not _imp._keeps_attribute(parent_module, child, name):", "if True:")])],
    "_imp._skipped_import_hooks, _is_in, finder tests (_find_spec, each module)": [
        ("_bootstrap", "_find_spec", "vanilla")],
    "_skipped_import_hooks + _run_import_hook (PathFinder, each new path entry)": [
        ("_bootstrap_external", "PathFinder._path_hooks", "vanilla"),
        ("_bootstrap_external", "PathFinder._path_importer_cache", "vanilla"),
        ("_bootstrap_external", "PathFinder._get_spec", "vanilla")],
    "_lazy_compiled test (SourceLoader.get_code, each source module)": [
        ("_bootstrap_external", "SourceLoader.get_code", "vanilla")],
}
ALL_HOOKS = "all of the above"

# Run by the fork under callgrind: put the code objects of the marshal file argv[1] in place
# in the frozen import system, then import what the import-heavy script imports.
ABLATION_PROLOGUE = """\
import sys
import marshal
import _frozen_importlib
import _frozen_importlib_external
with open(sys.argv[1], 'rb') as f:
    codes = marshal.load(f)
for key, code in codes.items():
    mod, qualname = key
    module = _frozen_importlib if mod == '_bootstrap' else _frozen_importlib_external
    owner, _, name = qualname.rpartition('.')
    holder = vars(getattr(module, owner)) if owner else vars(module)
    fn = holder[name]
    getattr(fn, '__func__', fn).__code__ = code
del codes, key, code, mod, qualname, module, owner, name, holder, fn, f
"""


def wait_for(python, tries=15):
    """Another build may be relinking *python*: wait until it is there again."""
    for _ in range(tries):
        if os.path.exists(python):
            return
        print(f"{python} is missing (relinked?); waiting 20 s", flush=True)
        time.sleep(20)
    raise SystemExit(f"{python} did not come back")


def run(cmd, seed=0, check=True):
    """Run *cmd* in the clean environment, from the directory of the scripts (which holds
    nothing else, so that every run finds the same files there)."""
    r = subprocess.run(cmd, env=lazytools.clean_env(PYTHONHASHSEED=str(seed)),
                       capture_output=True, text=True, cwd=CWD[0])
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stderr[-3000:]}")
    return r


def warm(argv):
    """Run once to warm up (and compile what is not compiled yet), then once with -v:
    no .pyc may be written by the second run.  Returns how many code objects came from
    .pyc files."""
    wait_for(argv[0])
    run(argv)
    r = run([*argv[:1], "-v", *argv[1:]])
    created = [line for line in r.stderr.splitlines() if line.startswith("# created ")]
    if created:
        raise SystemExit(f"{' '.join(argv)} still writes .pyc files on its second run "
                         f"(read-only tree?):\n" + "\n".join(created[:10]))
    return sum(line.startswith("# code object from ") for line in r.stderr.splitlines())


def callgrind(argv, out, seed):
    wait_for(argv[0])
    run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, *argv], seed)
    return parse_total(out)


def parse_total(path):
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no total in {path}")


def parse_profile(path):
    """Self cost, inclusive cost, calls and source files per function of a callgrind file
    (recursion levels, name'2, folded into the function; a function's calls to itself are
    not added to its inclusive cost)."""
    names = {"fn": {}, "fl": {}}
    self_ir = collections.Counter()
    incl_ir = collections.Counter()
    calls = collections.Counter()
    files = collections.defaultdict(set)
    fn = cfn = fl = None
    pending_call = None
    kind_of = {"fn": "fn", "cfn": "fn", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl",
               "cfl": "fl"}

    def name(kind, value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        table = names[kind]
        if m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        return table[m.group(1)]

    with open(path, errors="replace") as f:
        for line in f:
            c = line[:1]
            if c.isdigit() or c in ("+", "-", "*"):
                parts = line.split()
                ir = int(parts[1]) if len(parts) > 1 else 0
                if pending_call is not None:
                    if pending_call != fn:
                        incl_ir[fn] += ir
                    pending_call = None
                else:
                    self_ir[fn] += ir
                continue
            key, eq, value = line.rstrip("\n").partition("=")
            if not eq:
                continue
            if key in kind_of:
                v = name(kind_of[key], value)
                if key == "fn":
                    fn = re.sub(r"'\d+$", "", v)
                    files[fn].add(fl)
                elif key == "cfn":
                    cfn = re.sub(r"'\d+$", "", v)
                elif key == "fl":
                    fl = v
                elif key in ("fi", "fe") and fn is not None:
                    files[fn].add(v)
            elif key == "calls":
                calls[cfn] += int(value.split()[0])
                pending_call = cfn
    for f, ir in self_ir.items():
        incl_ir[f] += ir
    return self_ir, incl_ir, calls, files


def is_fork_function(fn, files):
    return bool(FORK_NAMES.search(fn)) or any(
        p.replace("\\", "/").endswith(FORK_FILES) for p in files.get(fn, ()))


# ----- ablation of the Python call sites ---------------------------------------------------

def function_source(source, qualname):
    """The source of the function *qualname* (Class.method or function) in *source*,
    dedented."""
    lines = source.splitlines(keepends=True)
    start, indent = 0, ""
    for part in qualname.split("."):
        pat = re.compile(rf"^{indent}(\s*)(?:class|def) {re.escape(part)}\b")
        for i in range(start, len(lines)):
            m = pat.match(lines[i])
            if m:
                start, indent = i, indent + m.group(1)
                break
        else:
            raise SystemExit(f"{qualname}: not found")
        if part != qualname.split(".")[-1]:
            start += 1
            indent += "    "
    end = start + 1
    while end < len(lines) and (not lines[end].strip()
                                or lines[end].startswith(indent + " ")):
        end += 1
    return "".join(line[len(indent):] if line.strip() else "\n" for line in lines[start:end])


def write_ablation_codes(fork, vanilla_lib, fork_lib, variant, path):
    """Compile, with the fork, the code objects of *variant* (None: every function with its
    own code) and marshal them to *path* as {(module, qualname): code}."""
    sources = {}
    for mod, rel in BOOTSTRAP.items():
        for lib, which in ((fork_lib, "fork"), (vanilla_lib, "vanilla")):
            with open(os.path.join(lib, rel), encoding="utf-8") as f:
                sources[mod, which] = f.read()
    funcs = {}
    for sites in HOOKS.values():
        for mod, qualname, _ in sites:
            funcs[mod, qualname] = function_source(sources[mod, "fork"], qualname)
    chosen = HOOKS.values() if variant == ALL_HOOKS else [HOOKS[variant]] if variant else []
    for sites in chosen:
        for mod, qualname, edit in sites:
            if edit == "vanilla":
                funcs[mod, qualname] = function_source(sources[mod, "vanilla"], qualname)
            else:
                for old, new in edit:
                    if old not in funcs[mod, qualname]:
                        raise SystemExit(f"{qualname}: the call site changed, not found: {old!r}")
                    funcs[mod, qualname] = funcs[mod, qualname].replace(old, new)
    compile_src = ("import marshal, sys\n"
                   "funcs = eval(sys.stdin.read())\n"
                   "codes = {}\n"
                   "for key, src in funcs.items():\n"
                   "    mod = compile(src, '<bench_disabled %s>' % key[1], 'exec')\n"
                   "    [code] = [c for c in mod.co_consts if hasattr(c, 'co_code')]\n"
                   "    codes[key] = code\n"
                   f"with open({path!r}, 'wb') as f:\n"
                   "    marshal.dump(codes, f)\n")
    wait_for(fork)
    subprocess.run([fork, "-c", compile_src], input=repr(funcs), text=True, check=True,
                   env=lazytools.clean_env())


def ablation(fork, vanilla_lib, fork_lib, script, outdir, jobs, seeds):
    """Instructions of the import-heavy *script* in the fork, per variant and seed."""
    variants = [None, *HOOKS, ALL_HOOKS]
    codes = {}
    for k, v in enumerate(variants):
        codes[v] = os.path.join(outdir, f"ablation-{k}.marshal")
        write_ablation_codes(fork, vanilla_lib, fork_lib, v, codes[v])
        warm([fork, script, codes[v]])
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = {(v, s): ex.submit(callgrind, [fork, script, codes[v]],
                                  os.path.join(outdir, f"ablation-{k}-{s}.out"), s)
                for s in seeds for k, v in enumerate(variants)}
        return {v: [futs[v, s].result() for s in seeds] for v in variants}


def slug(command):
    return re.sub(r"[^a-z0-9]+", "-", command.lower()).strip("-")


def pct(a, b):
    return (a / b - 1) * 100


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla", default=lazytools.VANILLA_PYTHON)
    ap.add_argument("--fork", default=lazytools.FORK_PYTHON)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--reps", type=int, default=3, help="rounds, one hash seed each")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--no-hooks", action="store_true", help="skip the ablation of the hooks")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    vanilla, fork = os.path.abspath(args.vanilla), os.path.abspath(args.fork)
    wait_for(fork)
    rev = lazytools.build_identifier(fork)
    fork_mtime = os.stat(fork).st_mtime
    outdir = os.path.abspath(os.path.join(args.out, "disabled"))
    CWD[0] = os.path.join(outdir, "scripts")
    os.makedirs(CWD[0], exist_ok=True)
    heavy = os.path.join(CWD[0], HEAVY)
    with open(heavy, "w") as f:
        f.write("".join(f"import {m}\n" for m in HEAVY_MODULES))
    ablation_script = os.path.join(CWD[0], "ablation.py")
    with open(ablation_script, "w") as f:
        f.write(ABLATION_PROLOGUE + "".join(f"import {m}\n" for m in HEAVY_MODULES))
    pythons = {c: lazytools.command(c, vanilla, fork) for c in lazytools.CONFIGS}
    argvs = {(w, c): [*pythons[c], *[heavy if a == HEAVY else a for a in argv]]
             for w, argv in COMMANDS.items() for c in lazytools.CONFIGS}
    seeds = list(range(args.reps))
    print(f"bench-disabled: {len(COMMANDS)} commands x {len(lazytools.CONFIGS)} configurations "
          f"x {args.reps} hash seeds under callgrind (fork {rev})", flush=True)
    pyc = {}
    for key, argv in argvs.items():
        pyc[key] = warm(argv)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {(w, c, s): ex.submit(callgrind, argv,
                                     os.path.join(outdir, f"{slug(w)}-{c}-{s}.out"), s)
                for s in seeds for (w, c), argv in argvs.items()}
        counts = {k: fut.result() for k, fut in futs.items()}

    lines = [f"whole process, Ir (callgrind), clean environment, .pyc files compiled; "
             f"hash seeds {', '.join(map(str, seeds))}:",
             f"{'command':14} {'vanilla':>13} {'fork':>13} {'fork-L':>13} "
             f"{'fork/vanilla':>22} {'fork-L/vanilla':>22}"]
    summary = {}
    for w in COMMANDS:
        v, f, fl = ([counts[w, c, s] for s in seeds] for c in lazytools.CONFIGS)
        rf = [pct(a, b) for a, b in zip(f, v)]
        rl = [pct(a, b) for a, b in zip(fl, v)]
        summary[w] = {"vanilla": v, "fork": f, "fork-L": fl, "fork/vanilla %": rf,
                      "fork-L/vanilla %": rl,
                      "pyc code objects": {c: pyc[w, c] for c in lazytools.CONFIGS}}
        lines.append(f"{w:14} {v[0]:>13,} {f[0]:>13,} {fl[0]:>13,} "
                     f"{' '.join(f'{x:+.2f}%' for x in rf):>22} "
                     f"{' '.join(f'{x:+.2f}%' for x in rl):>22}")
    lines.append(f"(counts of seed {seeds[0]}; one ratio per seed; target fork/vanilla "
                 f"<= +{TARGET}%)")

    # Where: self cost per function, and the fork's own functions, on the first round.
    first = seeds[0]
    prof = {(w, c): parse_profile(os.path.join(outdir, f"{slug(w)}-{c}-{first}.out"))
            for w in COMMANDS for c in ("vanilla", "fork")}
    diffs = {}
    for w in COMMANDS:
        v_self, f_self = prof[w, "vanilla"][0], prof[w, "fork"][0]
        v_total = summary[w]["vanilla"][0]
        diff = {fn: f_self.get(fn, 0) - v_self.get(fn, 0) for fn in set(v_self) | set(f_self)}
        top = sorted(diff, key=lambda k: -abs(diff[k]))[:args.top]
        diffs[w] = {fn: diff[fn] for fn in top}
        lines += ["", f"{w}, self Ir per function, fork - vanilla (seed {first}), the "
                      f"{args.top} largest differences:",
                  f"{'function':44} {'vanilla':>12} {'fork':>12} {'fork-vanilla':>13} "
                  f"{'of total':>9}"]
        for fn in top:
            lines.append(f"{fn[:44]:44} {v_self.get(fn, 0):>12,} {f_self.get(fn, 0):>12,} "
                         f"{diff[fn]:>+13,} {diff[fn] / v_total * 100:>+8.3f}%")
        lines.append(f"{'(all functions)':44} {sum(v_self.values()):>12,} "
                     f"{sum(f_self.values()):>12,} {sum(diff.values()):>+13,} "
                     f"{sum(diff.values()) / v_total * 100:>+8.3f}%")
    hooks_c = {}
    for w in COMMANDS:
        _, incl, calls, files = prof[w, "fork"]
        vt = summary[w]["vanilla"][0]
        own = sorted((fn for fn in incl if is_fork_function(fn, files)), key=lambda k: -incl[k])
        hooks_c[w] = {fn: {"calls": calls.get(fn, 0), "inclusive": incl[fn]} for fn in own}
        lines += ["", f"{w}: the fork's own C functions without -L (seed {first}), inclusive "
                      f"Ir, share of vanilla's whole process:",
                  f"{'function':44} {'calls':>8} {'inclusive':>12} {'share':>9}"]
        for fn in own:
            if incl[fn] >= 500 or calls.get(fn, 0) >= 10:
                lines.append(f"{fn[:44]:44} {calls.get(fn, 0):>8,} {incl[fn]:>12,} "
                             f"{incl[fn] / vt * 100:>+8.3f}%")

    abl = {}
    if not args.no_hooks:
        vanilla_lib = os.path.join(lazytools.BUILD, "pristine", "Lib")
        fork_lib = os.path.join(lazytools.BUILD, "src", "Lib")
        abl = ablation(fork, vanilla_lib, fork_lib, ablation_script, outdir, args.jobs, seeds)
        base = abl[None]
        lines += ["", "import-heavy, the hooks of the import system called from Python, by "
                      "ablation (fork without -L, the call site removed), Ir and share of "
                      "vanilla's whole process, per seed:",
                  f"{'hook (call site)':78} {'Ir saved':>10} {'share':>26}"]
        for v in [*HOOKS, ALL_HOOKS]:
            saved = [b - a for a, b in zip(abl[v], base)]
            shares = [s / vt * 100 for s, vt in zip(saved, summary["import-heavy"]["vanilla"])]
            over = " over target" if max(shares) > TARGET else ""
            lines.append(f"{v[:78]:78} {saved[0]:>10,} "
                         f"{' '.join(f'{x:+.3f}%' for x in shares):>26}{over}")
        lines.append(f"(the baseline run, every function with its own code: "
                     f"{', '.join(f'{x:,}' for x in base)})")
        # The start-up imports run the same hooks before any code can replace them:
        # scaled by the modules loaded (calls of _imp._lazy_module_loaded).
        loaded = {w: prof[w, "fork"][2].get("_imp__lazy_module_loaded", 0) for w in COMMANDS}
        mean_all = sum(b - a for a, b in zip(abl[ALL_HOOKS], base)) / len(seeds)
        for w in COMMANDS:
            if w != "import-heavy" and loaded["import-heavy"]:
                est = mean_all * loaded[w] / loaded["import-heavy"]
                lines.append(f"{w}: {loaded[w]} modules loaded (import-heavy "
                             f"{loaded['import-heavy']}): all the hooks, scaled, about "
                             f"{est:,.0f} Ir, {est / summary[w]['vanilla'][0] * 100:+.3f}%")

    if os.stat(fork).st_mtime != fork_mtime:
        lines.append(f"WARNING: {fork} was rebuilt during the run; the results mix two builds")
    text = "\n".join(lines)
    print(text)
    lazytools.write_report(args.out, "disabled", f"fork {rev}\n{text}",
                           {"fork_version": rev, "seeds": seeds, "commands": summary,
                            "fork_functions": hooks_c,
                            "ablation": {str(k): v for k, v in abl.items()},
                            "self_diff_top": diffs})


if __name__ == "__main__":
    main()

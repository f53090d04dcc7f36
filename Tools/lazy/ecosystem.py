"""Import the most-downloaded PyPI packages eagerly and lazily; compare.

    ecosystem.py [--python PY] [--lazy-flag=FLAG] [--venv DIR]
                 [--peer-python PY315] [--peer-lazy-flag=FLAG]
                 [--peer-venv DIR] [--packages FILE] [--out DIR]
                 [--limit N] [--only NAMES] [--timeout SECONDS]
                 [--per N]

The corpus is bench/ecosystem/packages.txt (the top 200; --packages
bench/ecosystem/packages-400.txt for the top 400): PyPI's most-downloaded
packages in the order of their rank, one a line as "name [import_name]".
For the interpreter PY (default build/fork/python, the fork, labelled
"fork", lazy with -L) and, with --peer-python, for CPython 3.15 side by
side (labelled "peer", lazy with -X lazy_imports=all, PEP 810's global
mode):

1. a venv of the interpreter (--venv, default build/ecosystem/venv-fork;
   --peer-venv, default build/ecosystem/venv-peer), made once.  A Python
   whose venv gets no pip (Debian's python3.15) is given pip from a wheel
   that the first venv's pip downloads;
2. each package of the corpus (the first --limit N, or the --only ones),
   installed into it one at a time with ``pip install
   --only-binary=:all: NAME``.  A package pip cannot install is recorded as
   "not installable" and the next one goes on.  VENV/.ecosystem.json keeps
   what was installed, so that a second run installs only what is new
   (remove the venv to start over);
3. per package, fresh processes of the venv's python, each with a timeout
   (--timeout, default 120 s), in an empty directory:
   (a) eager: ``python -c PROBE IMPORT_NAME``.  The probe imports the
       module with importlib.import_module (eager in both lazy modes; the
       imports its module body runs are what lazy mode defers), counts
       len(sys.modules) right after the import, lists the public API
       (``__all__`` when it is a list or tuple of str, else the names of
       dir() without a leading underscore) and records, for each name,
       ``type(getattr(module, name)).__name__``, or "ERROR: <ExcType>" when
       getting it raises; it prints that as JSON;
   (b) lazy: the same with the lazy flag.  The probe also asserts that no
       value's type is ``lazy_import`` (a lazy object that leaked out);
   (c) the module counts of (a) and (b), taken before the API is listed
       (which resolves what it touches): what lazy mode deferred.
   When the lazy dir() lacks names the eager one has, one more lazy
   process gets each of the eager names by name: when that gives the eager
   JSON, the difference is "dir() only" (submodules bound on first access).

A package works lazily when the eager probe succeeded and the lazy one
printed the same {name: type} JSON.  Otherwise the cause is recorded: the
first name whose type differs, or the last line of the lazy traceback.

Output: OUT/ecosystem.json (everything) and OUT/ecosystem.md, a table
headed "works lazily: fork N/M, peer K/M" with each failure and its cause
and the module counts eager vs lazy (with --per N, also a summary of
each N packages in the corpus's order: ranks 1-N, N+1-2N, ...); OUT/logs/
holds the pip logs.  The exit status is 1 when a package the first
interpreter imports eagerly does not work lazily there, 0 otherwise.
Needs the network (pip).

Examples, from the repository's top directory::

    build/fork/python Tools/lazy/ecosystem.py --limit 60
    build/fork/python Tools/lazy/ecosystem.py --limit 60 \\
        --peer-python /path/to/python3.15
    build/fork/python Tools/lazy/ecosystem.py --per 200 \\
        --packages bench/ecosystem/packages-400.txt
"""

import argparse
import glob
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import lazytools

ROOT = lazytools.ROOT
PACKAGES = os.path.join(ROOT, "bench", "ecosystem", "packages.txt")
WORKDIR = os.path.join(lazytools.BUILD, "ecosystem")
MARK = "ECOSYSTEM-PROBE-JSON "
PIP_TIMEOUT = 900          # seconds for one pip install
TAIL = 15                  # lines of stderr kept for a failed probe

STATUSES = ("works", "lazy fails", "differs", "eager fails",
            "not installable")

# Run as "python [FLAGS] -c PROBE IMPORT_NAME [NAME ...]"; the NAMEs, when
# given, replace the listed API.  Everything is inside a function, so that
# the probe's own imports are eager in either lazy mode and are counted in
# the same place in both runs.
PROBE = r'''
def main():
    import importlib
    import json
    import sys
    name = sys.argv[1]
    before = len(sys.modules)
    module = importlib.import_module(name)
    after = len(sys.modules)
    names = sys.argv[2:] or getattr(module, "__all__", None)
    if not (isinstance(names, (list, tuple))
            and all(isinstance(n, str) for n in names)):
        names = [n for n in dir(module) if not n.startswith("_")]
    api, errors = {}, {}
    for n in names:
        try:
            api[n] = type(getattr(module, n)).__name__
        except Exception as exc:
            api[n] = "ERROR: " + type(exc).__name__
            errors[n] = (type(exc).__name__ + ": " + str(exc))[:300]
    leaked = sorted(n for n, t in api.items() if t == "lazy_import")
    assert not leaked, "lazy_import objects in the API: %s" % leaked[:5]
    print(MARK + json.dumps({
        "api": api, "errors": errors, "modules_before": before,
        "modules": after, "modules_after_api": len(sys.modules)},
        sort_keys=True))


main()
'''.replace("MARK + ", repr(MARK) + " + ")


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def read_packages(path):
    """[(name, import name)] of the corpus file, in its order."""
    packages = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.partition("#")[0].split()
            if fields:
                name = fields[0]
                packages.append((name, fields[1] if len(fields) > 1
                                 else name.replace("-", "_")))
    return packages


def run(cmd, timeout, cwd=None, env=None):
    """(exit status or None after a timeout, stdout, stderr, seconds)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env or lazytools.clean_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rc = None
    return rc, out, err, time.monotonic() - start


def last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


class Side:
    """One interpreter: its venv, its installs and its probe results."""

    def __init__(self, label, python, lazy_flag, venv, out, timeout):
        self.label = label
        self.python = os.path.abspath(python)
        self.venv = os.path.abspath(venv)
        self.vpython = os.path.join(self.venv, "bin", "python")
        self.timeout = timeout
        self.log = os.path.join(out, "logs", f"{label}-install.log")
        code = "import sys; print(*sys.version_info[:2]); print(sys.version)"
        major_minor, _, self.version = run(
            [self.python, "-c", code], 60)[1].strip().partition("\n")
        if lazy_flag is None:
            lazy_flag = ("-X lazy_imports=all" if tuple(map(
                int, major_minor.split())) >= (3, 15) else "-L")
        self.lazy = shlex.split(lazy_flag)
        self.state_path = os.path.join(self.venv, ".ecosystem.json")
        self.installed = {}
        self.results = {}

    def describe(self):
        return (f"`{self.python} {shlex.join(self.lazy)}` "
                f"({self.version.splitlines()[0]})")

    def logged(self, cmd, timeout):
        rc, out, err, _ = run(cmd, timeout)
        with open(self.log, "a", encoding="utf-8") as f:
            f.write("$ " + shlex.join(cmd) + "\n" + out + err
                    + (f"\n*** killed after {timeout} s\n" if rc is None
                       else f"[exit {rc}]\n"))
        return rc, out + err

    # -- the venv ----------------------------------------------------------

    def make_venv(self, helper=None):
        """Make the venv once; give it pip from a wheel when it has none.
        *helper* is a python with pip that downloads the wheel."""
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        if os.path.exists(self.state_path):
            with open(self.state_path, encoding="utf-8") as f:
                state = json.load(f)
            if state.get("python") == self.python:
                self.installed = state["installed"]
                return
        if os.path.exists(self.vpython):
            raise SystemExit(f"ecosystem: {self.venv} is not a venv of "
                             f"{self.python} made by this driver: remove it")
        print(f"ecosystem: {self.label}: making {self.venv}", flush=True)
        rc, _ = self.logged([self.python, "-m", "venv", self.venv], 300)
        if rc != 0 or not self.has_pip():
            rc, _ = self.logged([self.python, "-m", "venv", "--clear",
                                 "--without-pip", self.venv], 300)
            if rc != 0:
                raise SystemExit(f"ecosystem: making {self.venv} failed, "
                                 f"see {self.log}")
            wheels = os.path.join(self.venv, "pip-wheel")
            self.logged([helper or sys.executable, "-m", "pip",
                         "download", "--no-deps", "--only-binary=:all:",
                         "-d", wheels, "pip"], PIP_TIMEOUT)
            found = glob.glob(os.path.join(wheels, "pip-*.whl"))
            if found:
                self.logged([self.vpython, os.path.join(found[0], "pip"),
                             "install", "--no-index", found[0]], PIP_TIMEOUT)
            if not self.has_pip():
                raise SystemExit(f"ecosystem: no pip in {self.venv}, see "
                                 f"{self.log}")
        self.save()

    def has_pip(self):
        return run([self.vpython, "-m", "pip", "--version"], 120)[0] == 0

    def save(self):
        with open(self.state_path, "w", encoding="utf-8") as f:
            json.dump({"python": self.python, "installed": self.installed},
                      f, indent=1)

    def install(self, name):
        """Install one package from wheels, unless it already was."""
        if self.installed.get(name, {}).get("ok"):
            return
        rc, output = self.logged(
            [self.vpython, "-m", "pip", "--disable-pip-version-check",
             "install", "--only-binary=:all:", name], PIP_TIMEOUT)
        errors = [line.strip() for line in output.splitlines()
                  if line.startswith("ERROR:")]
        error = ("" if rc == 0 else errors[0][:300] if errors
                 else f"pip exited with status {rc}")
        self.installed[name] = {"ok": rc == 0, "error": error}
        self.save()
        print(f"ecosystem: {self.label}: pip install {name}: "
              f"{'ok' if rc == 0 else error}", flush=True)

    # -- the probes --------------------------------------------------------

    def probe(self, import_name, flags, cwd, names=()):
        rc, out, err, seconds = run([self.vpython, *flags, "-c", PROBE,
                                     import_name, *names], self.timeout,
                                    cwd=cwd)
        result = {"returncode": rc, "seconds": round(seconds, 2)}
        data = None
        for line in out.splitlines():
            if line.startswith(MARK):
                data = json.loads(line[len(MARK):])
        if rc == 0 and data is not None:
            result.update(ok=True, **data)
        else:
            result["ok"] = False
            result["error"] = (f"timed out after {self.timeout} s"
                               if rc is None else last_line(err)
                               or f"exit status {rc}, no output")
            result["stderr"] = err.splitlines()[-TAIL:]
        return result

    def measure(self, name, import_name, cwd):
        entry = {"import": import_name,
                 "install": self.installed.get(name, {})}
        if not entry["install"].get("ok"):
            entry.update(status="not installable",
                         cause=entry["install"].get("error", ""))
            self.results[name] = entry
            return entry
        eager = entry["eager"] = self.probe(import_name, [], cwd)
        lazy = entry["lazy"] = self.probe(import_name, self.lazy, cwd)
        if not eager["ok"]:
            entry.update(status="eager fails", cause=eager["error"])
        elif not lazy["ok"]:
            entry.update(status="lazy fails", cause=lazy["error"])
        elif lazy["api"] != eager["api"]:
            entry.update(status="differs",
                         cause=first_difference(eager, lazy))
            if eager["api"].keys() - lazy["api"].keys():
                # Names the lazy dir() lacks: are they there on access?
                again = entry["lazy_by_name"] = self.probe(
                    import_name, self.lazy, cwd, sorted(eager["api"]))
                entry["dir_only"] = (again["ok"]
                                     and again["api"] == eager["api"])
                if entry["dir_only"]:
                    entry["cause"] += (" (dir() only: every eager name "
                                       "resolves on access, same types)")
        else:
            entry.update(status="works", cause="")
        self.results[name] = entry
        return entry

    def count(self, status):
        return sum(1 for e in self.results.values() if e["status"] == status)

    def median_modules(self):
        """Median modules after the import, eager and lazy, over the
        packages whose two probes succeeded."""
        pairs = [(e["eager"]["modules"], e["lazy"]["modules"])
                 for e in self.results.values()
                 if e.get("eager", {}).get("ok") and e["lazy"]["ok"]]
        if not pairs:
            return None, None, 0
        return (statistics.median(p[0] for p in pairs),
                statistics.median(p[1] for p in pairs), len(pairs))


def first_difference(eager, lazy):
    a, b = eager["api"], lazy["api"]
    for name in sorted(a.keys() | b.keys()):
        if a.get(name) != b.get(name):
            cause = (f"{name}: eager {a.get(name, 'missing')}, "
                     f"lazy {b.get(name, 'missing')}")
            if name in lazy.get("errors", {}):
                cause += f" ({lazy['errors'][name]})"
            return cause
    return ""


def cell(entry):
    """Status and modules eager/lazy of one package on one side."""
    if entry is None:
        return "", ""
    mods = ""
    if entry.get("eager", {}).get("ok"):
        lazy = entry["lazy"]
        mods = f"{entry['eager']['modules']}/" + (
            str(lazy["modules"]) if lazy["ok"] else "-")
    return entry["status"], mods


def ranges(sides, packages, per):
    """Lines of the summary of each *per* packages of the corpus, in its
    order: ranks 1-per, per+1-2*per, ...  "differs" leaves out the dir()
    only ones; modules: the median counts eager/lazy and the geometric mean
    of lazy/eager, over the packages whose two probes succeeded."""
    out = ["| ranks | side | packages | works | differs in dir() only | "
           "differs | lazy fails | eager fails | not installable | "
           "modules eager/lazy (median) | lazy/eager (geometric mean) |",
           "| --- | --- |" + " --- |" * 9]
    for start in range(0, len(packages), per):
        names = [name for name, _ in packages[start:start + per]]
        for s in sides:
            entries = [s.results[n] for n in names if n in s.results]
            n = {status: sum(1 for e in entries if e["status"] == status)
                 for status in STATUSES}
            dir_only = sum(1 for e in entries if e.get("dir_only"))
            pairs = [(e["eager"]["modules"], e["lazy"]["modules"])
                     for e in entries
                     if e.get("eager", {}).get("ok") and e["lazy"]["ok"]]
            mods = ratio = ""
            if pairs:
                mods = (f"{statistics.median(p[0] for p in pairs):g}/"
                        f"{statistics.median(p[1] for p in pairs):g}")
                ratio = f"{lazytools.geomean(b / a for a, b in pairs):.3f}"
            out.append(
                f"| {start + 1}-{start + len(names)} | {s.label} | "
                f"{len(entries)} | {n['works']} | {dir_only} | "
                f"{n['differs'] - dir_only} | {n['lazy fails']} | "
                f"{n['eager fails']} | {n['not installable']} | {mods} | "
                f"{ratio} |")
    return out


def report(sides, packages, elapsed, corpus, per=None):
    m = len(packages)
    head = ", ".join(f"{s.label} {s.count('works')}/{m}" for s in sides)
    out = ["# Ecosystem corpus: the top PyPI packages, eager vs lazy", "",
           f"works lazily: {head}", ""]
    for s in sides:
        out.append(f"- {s.label}: {s.describe()}, venv `{s.venv}`")
    out += ["",
            f"{m} packages of {corpus}, each "
            "installed with `pip install --only-binary=:all:` and imported "
            "by Tools/lazy/ecosystem.py's probe in a fresh process, eagerly "
            "and lazily.  A package works lazily when the eager probe "
            "succeeds and the lazy one gives the same {public name: type} "
            "JSON.  Modules: len(sys.modules) right after the import, eager/"
            f"lazy.  {elapsed:.0f} s in all.", ""]
    out.append("| status | " + " | ".join(s.label for s in sides) + " |")
    out.append("| --- |" + " --- |" * len(sides))
    for status in STATUSES:
        out.append(f"| {status} | "
                   + " | ".join(str(s.count(status)) for s in sides) + " |")
    out.append("| of which differs in dir() only | " + " | ".join(
        str(sum(1 for e in s.results.values() if e.get("dir_only")))
        for s in sides) + " |")
    out.append("")
    for s in sides:
        eager, lazy, n = s.median_modules()
        if n:
            out.append(f"- {s.label}: median modules after the import, "
                       f"eager {eager:g}, lazy {lazy:g} (over {n} packages "
                       "whose two probes succeeded)")
    if per:
        out += ["", f"Per {per} packages, in the corpus's order:", ""]
        out += ranges(sides, packages, per)
    out += ["", "| # | package | import | "
            + " | ".join(f"{s.label} | {s.label} modules" for s in sides)
            + " |", "| --- | --- | --- |" + " --- | --- |" * len(sides)]
    for i, (name, import_name) in enumerate(packages, 1):
        cells = []
        for s in sides:
            cells += cell(s.results.get(name))
        out.append(f"| {i} | {name} | `{import_name}` | "
                   + " | ".join(cells) + " |")
    for s in sides:
        failed = [(name, e) for name, e in s.results.items()
                  if e["status"] != "works"]
        out += ["", f"## Failures on {s.label} ({len(failed)})", ""]
        if not failed:
            out.append("None.")
        for name, e in failed:
            out.append(f"- {name} (`{e['import']}`): {e['status']}: "
                       f"{e['cause'] or '?'}")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Give a flag starting with a dash with '=': --lazy-flag=-L.")
    parser.add_argument("--python", default=lazytools.FORK_PYTHON,
                        help="interpreter to make the venv from "
                        "(default: the fork, build/fork/python)")
    parser.add_argument("--lazy-flag", default=None,
                        help="its lazy mode: -L (the fork) or "
                        "'-X lazy_imports=all' (CPython 3.15); default: "
                        "by its version")
    parser.add_argument("--venv", default=os.path.join(WORKDIR, "venv-fork"))
    parser.add_argument("--label", default="fork",
                        help="its name in the report (default fork)")
    parser.add_argument("--peer-python", default=None,
                        help="a CPython 3.15 interpreter to run side by side")
    parser.add_argument("--peer-lazy-flag", default="-X lazy_imports=all")
    parser.add_argument("--peer-venv",
                        default=os.path.join(WORKDIR, "venv-peer"))
    parser.add_argument("--packages", default=PACKAGES,
                        help="the corpus (default bench/ecosystem/"
                        "packages.txt)")
    parser.add_argument("--out", default=os.path.join(lazytools.BUILD,
                                                      "reports"),
                        help="where ecosystem.md and ecosystem.json go "
                        "(default build/reports)")
    parser.add_argument("--limit", type=int, default=None,
                        help="only the first N packages")
    parser.add_argument("--only", default=None,
                        help="only these packages (comma or space "
                        "separated)")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per probe process (default 120)")
    parser.add_argument("--per", type=int, default=None,
                        help="also summarize each N packages in the "
                        "corpus's order (ranks 1-N, N+1-2N, ...)")
    args = parser.parse_args(argv)

    packages = read_packages(args.packages)
    if args.only:
        wanted = {canonical(n) for n in re.split(r"[,\s]+", args.only) if n}
        unknown = wanted - {canonical(n) for n, _ in packages}
        if unknown:
            parser.error("not in the corpus: " + ", ".join(sorted(unknown)))
        packages = [p for p in packages if canonical(p[0]) in wanted]
    if args.limit is not None:
        packages = packages[:args.limit]

    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    sides = [Side(args.label, args.python, args.lazy_flag, args.venv, out,
                  args.timeout)]
    if args.peer_python:
        sides.append(Side("peer", args.peer_python, args.peer_lazy_flag,
                          args.peer_venv, out, args.timeout))
    start = time.monotonic()
    for side in sides:
        side.make_venv(helper=sides[0].vpython)
    with tempfile.TemporaryDirectory(prefix="ecosystem-") as cwd:
        for side in sides:
            for name, _ in packages:
                side.install(name)
            for name, import_name in packages:
                e = side.measure(name, import_name, cwd)
                mods = cell(e)[1]
                print(f"ecosystem: {side.label}: {name}: {e['status']}"
                      + (f" ({mods})" if mods else "")
                      + (f": {e['cause']}" if e["cause"] else ""),
                      flush=True)
    elapsed = time.monotonic() - start

    text = report(sides, packages, elapsed,
                  os.path.relpath(os.path.abspath(args.packages), ROOT),
                  args.per)
    data = {"packages": [{"name": n, "import": i} for n, i in packages],
            "sides": {s.label: {"python": s.python, "version": s.version,
                                "lazy_flag": s.lazy, "venv": s.venv,
                                "results": s.results} for s in sides},
            "seconds": round(elapsed)}
    with open(os.path.join(out, "ecosystem.json"), "w",
              encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    with open(os.path.join(out, "ecosystem.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print()
    print(text, end="")
    print(f"ecosystem: results in {out}/ecosystem.md, ecosystem.json")
    first = sides[0]
    return 1 if first.count("lazy fails") or first.count("differs") else 0


if __name__ == "__main__":
    sys.exit(main())

"""Run third-party test suites on the fork and on fork -L; compare per test.

    thirdparty.py [--python PY] [--libraries FILE] [--workdir DIR]
                  [--report FILE] [--jobs N] [--timeout SECONDS]
                  [--offline] [NAME ...]

For each library of bench/thirdparty/libraries.toml (or only the NAMEs
given), in WORKDIR/NAME/ (default build/thirdparty/):

1. a venv of PY (default build/fork/python), made once and remade when the
   interpreter or the pins change;
2. the library's sdist, downloaded into WORKDIR/cache/sdist with
   ``pip download --no-binary :all: --no-deps NAME==VERSION`` and built
   once into a wheel (WORKDIR/cache/built), and its pinned test
   dependencies, downloaded as wheels into WORKDIR/cache/wheels; the venv
   is always installed from the cache with ``pip install --no-index``, so
   that a second run needs no network (--offline: never download);
3. the suite, run from a fresh copy of the unpacked sdist as
   ``VENV/bin/python -m pytest ARGS --junitxml=fork.xml`` (fork) and then
   ``VENV/bin/python -L -m pytest ARGS --junitxml=fork-L.xml`` (fork -L),
   in the same environment (this one, less the variables of
   clean-env.txt).

The junit files are read into {test id: outcome}.  A table of the counts
and the differing test ids, with the start of each -L failure, is printed
and written to --report (default build/reports/thirdparty.md).  The exit
status is 1 when a test id's outcome differs between the two runs or a
suite could not be run, 0 otherwise.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field

import lazytools

ROOT = lazytools.ROOT

# Outcomes, from best to worst; a test reported twice keeps the worst.
RANK = {"passed": 0, "skipped": 1, "xfailed": 2, "failed": 3, "error": 4}
# The two runs of each suite: configuration -> interpreter options.
MODES = {config: list(lazytools.FLAGS[config]) for config in ("fork", "fork-L")}
LABELS = lazytools.LABELS
MAX_LISTED = 30   # differing test ids listed per library


@dataclass
class Library:
    name: str
    version: str
    requires: list
    args: list
    deselect: list = field(default_factory=list)   # [(test id, reason)]
    eager: list = field(default_factory=list)      # [(package, reason)]
    env: dict = field(default_factory=dict)        # for the build and runs


@dataclass
class Run:
    """One pytest run of a suite."""

    returncode: int | None = None
    outcomes: dict = field(default_factory=dict)
    messages: dict = field(default_factory=dict)
    seconds: float = 0.0
    log: str = ""
    problem: str = ""

    def count(self, *outcomes):
        return sum(1 for o in self.outcomes.values() if o in outcomes)


@dataclass
class Result:
    library: Library
    runs: dict = field(default_factory=dict)
    problem: str = ""
    notes: list = field(default_factory=list)

    def differing(self):
        fork = self.runs["fork"].outcomes
        fork_l = self.runs["fork-L"].outcomes
        return sorted(tid for tid in fork.keys() | fork_l.keys()
                      if fork.get(tid, "missing") != fork_l.get(tid, "missing"))


def canonical(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def load_libraries(path):
    with open(path, "rb") as f:
        data = tomllib.load(f)
    common = data.get("common", {})
    libraries = []
    for entry in data["library"]:
        deselect = [(d["id"], " ".join(d["reason"].split()))
                    for d in entry.get("deselect", [])]
        eager = [(e["package"], " ".join(e["reason"].split()))
                 for e in entry.get("eager", [])]
        libraries.append(Library(
            name=entry["name"], version=entry["version"],
            requires=common.get("requires", []) + entry.get("requires", []),
            args=common.get("args", []) + entry.get("args", []),
            deselect=deselect, eager=eager,
            env={str(k): str(v) for k, v in entry.get("env", {}).items()}))
    return libraries


# A .pth line run by site: under -L, the imports of the packages a library's
# entry lists in "eager" (and of their submodules) are eager, as an
# application adopting -L keeps them with excluding= (see "What can break"
# in Doc/library/lazy_imports.rst).  Without -L it does nothing.
EAGER_PTH = ("import importlib, sys; sys.flags.lazy_imports and "
             "importlib.set_lazy_imports(excluding=lambda name, "
             "_eager=frozenset({packages!r}): "
             "name.partition('.')[0] in _eager)\n")


def write_eager_pth(venv, packages):
    """Write (or remove) the venv's .pth keeping *packages* eager."""
    for site in glob.glob(os.path.join(venv, "lib", "python*",
                                       "site-packages")):
        path = os.path.join(site, "_lazy_thirdparty_eager.pth")
        if packages:
            with open(path, "w") as f:
                f.write(EAGER_PTH.format(packages=sorted(packages)))
        elif os.path.exists(path):
            os.remove(path)


class Runner:
    def __init__(self, python, workdir, timeout, offline):
        self.python = os.path.abspath(python)
        self.workdir = os.path.abspath(workdir)
        self.cache = os.path.join(self.workdir, "cache")
        self.timeout = timeout
        self.offline = offline
        self.env = lazytools.clean_env()

    # -- helpers ----------------------------------------------------------

    def call(self, cmd, log, cwd=None, timeout=None, env=None):
        """Run cmd, appending its output to log; return its exit status.
        *env* adds variables to the clean environment."""
        with open(log, "a") as out:
            out.write("$ " + " ".join(cmd) + "\n")
            out.flush()
            proc = subprocess.Popen(cmd, cwd=cwd, env={**self.env,
                                                       **(env or {})},
                                    stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT,
                                    start_new_session=True)
            try:
                return proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                out.write(f"\n*** killed after {timeout} s\n")
                return None

    def pip(self, venv, args, log, env=None):
        python = os.path.join(venv, "bin", "python")
        return self.call([python, "-m", "pip", "--disable-pip-version-check",
                          *args], log, env=env)

    def find(self, directory, lib, suffixes):
        """The file of lib's pinned version in directory, or None."""
        if not os.path.isdir(directory):
            return None
        for fname in sorted(os.listdir(directory)):
            for suffix in suffixes:
                if not fname.endswith(suffix):
                    continue
                parts = fname[:-len(suffix)].split("-")
                if (len(parts) >= 2 and canonical(parts[0]) == canonical(
                        lib.name) and parts[1] == lib.version):
                    return os.path.join(directory, fname)
        return None

    # -- preparing a library ----------------------------------------------

    def sdist(self, lib, venv, log):
        directory = os.path.join(self.cache, "sdist")
        path = self.find(directory, lib, (".tar.gz", ".zip"))
        if path is None and not self.offline:
            os.makedirs(directory, exist_ok=True)
            self.pip(venv, ["download", "--no-binary", ":all:", "--no-deps",
                            "-d", directory, f"{lib.name}=={lib.version}"],
                     log)
            path = self.find(directory, lib, (".tar.gz", ".zip"))
        if path is None:
            raise RuntimeError(f"no sdist of {lib.name}=={lib.version} in "
                               f"{directory}")
        return path

    def wheel(self, lib, sdist, venv, log):
        """The wheel built from the sdist (built on first use)."""
        directory = os.path.join(self.cache, "built")
        path = self.find(directory, lib, ("-py3-none-any.whl",
                                          "-py2.py3-none-any.whl"))
        if path is None:
            os.makedirs(directory, exist_ok=True)
            args = ["wheel", "--no-deps", "-w", directory]
            if self.offline:
                args += ["--no-index", "--find-links",
                         os.path.join(self.cache, "wheels")]
            self.pip(venv, args + [sdist], log, env=lib.env)
            path = self.find(directory, lib, ("-py3-none-any.whl",
                                              "-py2.py3-none-any.whl"))
        if path is None:
            raise RuntimeError(f"building a pure-Python wheel from {sdist} "
                               "failed")
        return path

    def prepare(self, lib, base):
        """Make base/venv with lib and its test dependencies installed."""
        log = os.path.join(base, "setup.log")
        venv = os.path.join(base, "venv")
        reqfile = os.path.join(base, "requirements.txt")
        with open(reqfile, "w") as f:
            f.write("\n".join(lib.requires) + "\n")
        st = os.stat(self.python)
        stamp = json.dumps({"python": self.python, "mtime": st.st_mtime_ns,
                            "size": st.st_size, "library": lib.name,
                            "version": lib.version,
                            "requires": lib.requires})
        stamp_path = os.path.join(venv, ".thirdparty-stamp")
        vpython = os.path.join(venv, "bin", "python")
        if os.path.exists(stamp_path):
            with open(stamp_path) as f:
                if f.read() == stamp:
                    write_eager_pth(venv, [p for p, _ in lib.eager])
                    return vpython, self.sdist(lib, venv, log)
        shutil.rmtree(venv, ignore_errors=True)
        open(log, "w").close()
        if self.call([self.python, "-m", "venv", venv], log) != 0:
            raise RuntimeError(f"creating the venv failed, see {log}")
        sdist = self.sdist(lib, venv, log)
        wheel = self.wheel(lib, sdist, venv, log)
        wheels = os.path.join(self.cache, "wheels")
        os.makedirs(wheels, exist_ok=True)
        install = ["install", "--no-index", "--find-links", wheels,
                   "-r", reqfile, wheel]
        if self.pip(venv, install, log) != 0:
            if self.offline:
                raise RuntimeError(f"installing offline failed, see {log}")
            self.pip(venv, ["download", "--prefer-binary", "-d", wheels,
                            "-r", reqfile], log)
            if self.pip(venv, install, log) != 0:
                raise RuntimeError(f"installing failed, see {log}")
        with open(stamp_path, "w") as f:
            f.write(stamp)
        write_eager_pth(venv, [p for p, _ in lib.eager])
        return vpython, sdist

    def unpack(self, sdist, dest):
        """Unpack sdist's top directory as dest (replacing it)."""
        shutil.rmtree(dest, ignore_errors=True)
        tmp = dest + ".unpack"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        if sdist.endswith(".zip"):
            with zipfile.ZipFile(sdist) as z:
                z.extractall(tmp)
        else:
            with tarfile.open(sdist) as t:
                t.extractall(tmp, filter="data")
        (top,) = os.listdir(tmp)
        os.rename(os.path.join(tmp, top), dest)
        os.rmdir(tmp)

    def unpinned(self, lib, vpython, base):
        """Installed distributions that the pins do not name."""
        out = subprocess.run(
            [vpython, "-m", "pip", "--disable-pip-version-check", "list",
             "--format=json"], env=self.env, capture_output=True, text=True)
        try:
            installed = json.loads(out.stdout)
        except ValueError:
            return ["(pip list failed)"]
        pinned = {canonical(r.split("==")[0]) for r in lib.requires}
        pinned |= {canonical(lib.name), "pip"}
        return sorted(f"{d['name']}=={d['version']}" for d in installed
                      if canonical(d["name"]) not in pinned)

    # -- running ----------------------------------------------------------

    def run_suite(self, lib, vpython, sdist, base, mode, flags):
        src = os.path.join(base, "src")
        self.unpack(sdist, src)
        xml = os.path.join(base, f"{mode}.xml")
        log = os.path.join(base, f"{mode}.log")
        for path in (xml, log):
            if os.path.exists(path):
                os.remove(path)
        cmd = [vpython, *flags, "-m", "pytest", *lib.args]
        for tid, _ in lib.deselect:
            cmd += ["--deselect", tid]
        cmd += [f"--junitxml={xml}",
                f"--basetemp={os.path.join(base, 'tmp')}"]
        start = time.monotonic()
        rc = self.call(cmd, log, cwd=src, timeout=self.timeout, env=lib.env)
        run = Run(returncode=rc, seconds=time.monotonic() - start, log=log)
        if rc is None:
            run.problem = f"timed out after {self.timeout} s"
        elif rc not in (0, 1):
            run.problem = f"pytest exited with status {rc}"
        if os.path.exists(xml):
            run.outcomes, run.messages = parse_junit(xml)
        elif not run.problem:
            run.problem = "no junit XML written"
        if not run.outcomes and not run.problem:
            run.problem = "no tests"
        return run

    def run_library(self, lib):
        base = os.path.join(self.workdir, canonical(lib.name))
        os.makedirs(base, exist_ok=True)
        result = Result(lib)
        try:
            vpython, sdist = self.prepare(lib, base)
        except (RuntimeError, OSError, ValueError) as exc:
            result.problem = f"setup: {exc}"
            return result
        extra = self.unpinned(lib, vpython, base)
        if extra:
            result.notes.append("installed but not pinned: "
                                + ", ".join(extra))
        for mode, flags in MODES.items():
            run = self.run_suite(lib, vpython, sdist, base, mode, flags)
            result.runs[mode] = run
            problem = f"; {run.problem}" if run.problem else ""
            print(f"thirdparty: {lib.name} {LABELS[mode]}: "
                  f"{run.count('passed')} passed, "
                  f"{run.count('failed', 'error')} failed, "
                  f"{run.count('skipped', 'xfailed')} skipped "
                  f"({run.seconds:.0f} s){problem}", flush=True)
        problems = [f"{LABELS[mode]}: {run.problem}"
                    for mode, run in result.runs.items() if run.problem]
        result.problem = "; ".join(problems)
        return result


def parse_junit(path):
    """{test id: outcome} and {test id: (message, text)} of a junit file."""
    outcomes, messages = {}, {}
    for case in ET.parse(path).iter("testcase"):
        cls = case.get("classname", "")
        name = case.get("name", "")
        tid = f"{cls}::{name}" if cls else name
        outcome, message = "passed", None
        for child in case:
            if child.tag == "failure":
                this = "failed"
            elif child.tag == "error":
                this = "error"
            elif child.tag == "skipped":
                this = ("xfailed" if child.get("type") == "pytest.xfail"
                        else "skipped")
            else:
                continue
            if RANK[this] > RANK[outcome]:
                outcome = this
                message = (child.get("message", ""), child.text or "")
        if RANK[outcome] >= RANK.get(outcomes.get(tid), -1):
            outcomes[tid] = outcome
            if message:
                messages[tid] = message
    return outcomes, messages


def first_lines(message, limit=8):
    """The start of a failure: its message, then pytest's E lines."""
    msg, text = message
    lines = [line for line in msg.splitlines() if line.strip()][:3]
    elines = [line for line in text.splitlines() if line.startswith("E ")]
    for line in elines or text.strip().splitlines()[-4:]:
        if len(lines) >= limit:
            break
        bare = line[1:].strip() if line.startswith("E ") else line.strip()
        if bare and bare not in lines:
            lines.append(line.rstrip())
    return [line[:200] for line in lines]


def crashed(result):
    """The modes whose pytest run stopped before running tests."""
    return [mode for mode, run in result.runs.items()
            if run.problem and len(run.outcomes) <= 1]


def counts(run):
    if run is None or (not run.outcomes and run.problem):
        return "-", "-", "-"
    return (str(run.count("passed")), str(run.count("failed", "error")),
            str(run.count("skipped", "xfailed")))


def report(results, python, elapsed):
    header = ["library", "version", "tests", "fork passed",
              "fork failed", "fork skipped", "fork -L passed",
              "fork -L failed", "fork -L skipped", "differing",
              "time fork/fork -L"]
    rows = []
    for r in results:
        fork, fork_l = r.runs.get("fork"), r.runs.get("fork-L")
        if fork and fork_l:
            ids = fork.outcomes.keys() | fork_l.outcomes.keys()
            differing = str(len(r.differing()))
            seconds = f"{fork.seconds:.0f}/{fork_l.seconds:.0f} s"
        else:
            ids, differing, seconds = (), "-", "-"
        if crashed(r):
            differing = "all: " + " and ".join(
                LABELS[m] for m in crashed(r)) + " did not run"
        elif r.problem:
            differing += " (problem)"
        rows.append([r.library.name, r.library.version, str(len(ids)),
                     *counts(fork), *counts(fork_l), differing, seconds])
    widths = [max(len(row[i]) for row in rows + [header])
              for i in range(len(header))]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in
                                 zip(cells, widths)) + " |"

    out = ["# Third-party test suites, fork vs fork -L", "",
           f"Interpreter: `{python}`; each suite ran as "
           "`VENV/bin/python -m pytest` and `VENV/bin/python -L -m pytest` "
           "(Tools/lazy/thirdparty.py, pins in "
           "bench/thirdparty/libraries.toml); "
           f"{elapsed:.0f} s in all.", "",
           line(header), line(["-" * w for w in widths])]
    out += [line(row) for row in rows]
    compared = [r for r in results
                if "fork" in r.runs and "fork-L" in r.runs and not crashed(r)]
    total_diff = sum(len(r.differing()) for r in compared)
    libs_diff = sum(1 for r in compared if r.differing())
    bad = [r for r in results if r.problem]
    out += ["", f"{len(results)} libraries: {len(compared)} compared test "
            f"by test, {total_diff} differing test ids in {libs_diff} of "
            f"them; {len(bad)} suites with a problem."]
    for r in results:
        details = []
        if r.problem:
            details.append(f"Problem: {r.problem}.")
            for mode, run in r.runs.items():
                if run.problem and run.log:
                    details.append(f"Last lines of the {LABELS[mode]} log "
                                   f"(`{run.log}`):")
                    details.append("```")
                    details += tail(run.log, 15)
                    details.append("```")
        if "fork" in r.runs and "fork-L" in r.runs:
            fork, fork_l = r.runs["fork"], r.runs["fork-L"]
            differing = r.differing()
            if crashed(r):
                details.append(f"{len(differing)} test ids differ: the "
                               f"{' and '.join(LABELS[m] for m in crashed(r))} run did not "
                               "get to run the tests (see its log above).")
                differing = []
            elif len(differing) > MAX_LISTED:
                details.append(f"{len(differing)} test ids differ; the "
                               f"first {MAX_LISTED}:")
                differing = differing[:MAX_LISTED]
            for tid in differing:
                e, lz = fork.outcomes.get(tid, "missing"), \
                    fork_l.outcomes.get(tid, "missing")
                details.append(f"- `{tid}`: fork {e}, fork -L {lz}")
                message = fork_l.messages.get(tid) or fork.messages.get(tid)
                if message and (RANK.get(lz, 0) >= RANK["failed"]
                                or RANK.get(e, 0) >= RANK["failed"]):
                    which = "fork -L" if tid in fork_l.messages else "fork"
                    details.append(f"  ({which} failure)")
                    details += ["      " + x for x in first_lines(message)]
            both = sorted(tid for tid, o in fork.outcomes.items()
                          if RANK[o] >= RANK["failed"]
                          and fork_l.outcomes.get(tid) == o)
            if both:
                details.append(f"Failing identically in both runs "
                               f"({len(both)}): "
                               + ", ".join(f"`{t}`" for t in both[:20])
                               + (" ..." if len(both) > 20 else ""))
        if r.library.eager:
            details.append("Kept eager under -L (excluding=, the adopter's "
                           "fix for a documented difference):")
            details += [f"- `{package}`: {reason}"
                        for package, reason in r.library.eager]
        if r.library.deselect:
            details.append("Deselected (they fail the same way in both "
                           "runs, for reasons of this machine):")
            details += [f"- `{tid}`: {reason}"
                        for tid, reason in r.library.deselect]
        details += r.notes
        if details:
            out += ["", f"## {r.library.name} {r.library.version}", ""]
            out += details
    return "\n".join(out) + "\n"


def tail(path, n):
    """The last n lines of a log; of an INTERNALERROR, the exception."""
    try:
        with open(path, errors="replace") as f:
            lines = [line.rstrip("\n") for line in f]
    except OSError:
        return []
    internal = [line for line in lines if line.startswith("INTERNALERROR> ")
                and not line[len("INTERNALERROR> "):].startswith(
                    (" ", "Traceback"))]
    if internal:
        lines = internal
    return [line[:300] for line in lines[-n:]]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0])
    parser.add_argument("--python",
                        default=lazytools.FORK_PYTHON)
    parser.add_argument("--libraries", default=os.path.join(
        ROOT, "bench", "thirdparty", "libraries.toml"))
    parser.add_argument("--workdir",
                        default=os.path.join(ROOT, "build", "thirdparty"))
    parser.add_argument("--report", default=os.path.join(
        ROOT, "build", "reports", "thirdparty.md"))
    parser.add_argument("--jobs", type=int, default=1,
                        help="libraries run at the same time (default 1)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds per pytest run (default 1800)")
    parser.add_argument("--offline", action="store_true",
                        help="use only the cache, never download")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="only these libraries")
    args = parser.parse_args(argv)

    libraries = load_libraries(args.libraries)
    if args.names:
        wanted = {canonical(n) for n in args.names}
        unknown = wanted - {canonical(lib.name) for lib in libraries}
        if unknown:
            parser.error("not in the list: " + ", ".join(sorted(unknown)))
        libraries = [lib for lib in libraries
                     if canonical(lib.name) in wanted]
    runner = Runner(args.python, args.workdir, args.timeout, args.offline)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(runner.run_library, libraries))
    text = report(results, runner.python, time.monotonic() - start)
    os.makedirs(os.path.dirname(os.path.abspath(args.report)),
                exist_ok=True)
    with open(args.report, "w") as f:
        f.write(text)
    print()
    print(text, end="")
    print(f"thirdparty: report written to {args.report}")
    failed = any(r.problem or r.differing() for r in results
                 if r.runs.get("fork") and r.runs.get("fork-L")) or any(
        r.problem for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The console scripts of the top PyPI packages: modules loaded, per mode.

    clicorpus.py [--python PY] [--venv DIR] [--peer-python PY315]
                 [--peer-venv DIR] [--base-python PY] [--base-venv DIR]
                 [--packages FILE] [--out DIR] [--limit N] [--only NAMES]
                 [--args ARGS] [--timeout SECONDS] [--resume]
                 [--install-only] [--report-only] [--time ROUNDS]
                 [--time-tools NAMES]

The wide CLI corpus of issue 37: a command-line tool a user picks from
PyPI, not one of the repository's start-up corpus that the healing rules
were tuned on.  The corpus is bench/clicorpus/packages.txt, PyPI's 300
most-downloaded packages in order ("rank name" a line).

1. The venvs and the installs are those of Tools/lazy/ecosystem.py (its
   Side class): a venv of the fork (--venv, default
   build/clicorpus/venv-fork) and, with --peer-python, one of CPython 3.15
   (--peer-venv, default build/clicorpus/venv-peer); each package of the
   selection (the first --limit N, or the --only ones) is installed with
   ``pip install --only-binary=:all:``, in batches of BATCH names, and one
   name at a time when a batch fails, so that a package that does not
   install is recorded and skipped.  With --base-python (an earlier build
   of the fork, e.g. a copy kept before a change) a third venv
   (--base-venv, default build/clicorpus/venv-base) shares the fork venv's
   site-packages through a symbolic link: the same files, another
   interpreter.

2. The commands: every console script (entry point group console_scripts)
   of every distribution of the selection that is installed, when its
   file in VENV/bin is a Python script, run with each of --args (default
   ``--version`` and ``--help``) as ``VENV/bin/python [FLAGS]
   VENV/bin/SCRIPT ARG``, so that the flags apply.

3. The modes, each a fresh process with a fresh temporary HOME, an empty
   working directory, TMPDIR inside it, stdin from /dev/null, a timeout
   (--timeout, default 30 s), the environment of lazytools.clean_env()
   without proxies, XDG directories and pip settings (PIP_NO_INDEX=1,
   PIP_CONFIG_FILE=/dev/null: nothing needs the network), TERM=dumb and a
   fixed COLUMNS and LINES:

       fork            the fork, eager (the reference)
       fork-L          the fork with -L
       fork-L-heal0    the fork with -L -X lazy_imports_heal=0
       fork-L-v        fork-L again with -v: its "completed early" lines,
                       and the import observer's statements run at once
       fork-again      fork once more: output that changes between two
                       eager runs ("unstable") is compared on exit status
       peer            CPython 3.15 eager (with --peer-python)
       peer-L          CPython 3.15 with PYTHON_LAZY_IMPORTS=all
       base-L          the --base-python build with -L

   The instrument is the number of modules in sys.modules at exit
   (deterministic): bench/startup/sitecustomize.py, placed first on
   PYTHONPATH in a directory of its own (it then also shadows a
   sitecustomize of the interpreter's own, as Debian's python3.15 has),
   appends "PID NAME ..." to the file BENCH_STARTUP_MODULES names from an
   atexit handler registered before the program runs, so it runs after the
   program's own handlers and after sys.exit().  It imports only the
   built-in atexit; "sitecustomize" itself is not counted, atexit is (in
   every mode alike).  A process that ends by os._exit() or a signal
   reports nothing ("-").  Modules are split into the standard library's
   (their top-level name in sys.stdlib_module_names of that interpreter)
   and the others: 3.15's standard library is not 3.13's, so only the
   non-stdlib counts compare the fork with the peer fairly.

   A mode's output is the same as its reference's when the exit status,
   stdout and stderr are equal after the venv, interpreter, home and
   temporary paths and hexadecimal addresses are normalised; the reference
   of the fork's modes and base-L is fork, that of peer-L is peer.  A
   command is "correct" in a lazy mode when its output is the same; on the
   peer also only when peer's exit status is the fork's and it prints no
   traceback the fork does not.  The package versions of the two venvs
   are recorded (pip resolves for each Python) and named where they
   differ.

4. Early completions: the stderr lines of fork-L-v with "completed early",
   counted per reason (the cause with its quoted names replaced by '...'),
   kept in full for the commands where fork-L loads more modules than
   fork-L-heal0; and, with BENCH_STARTUP_LAZY_EVENTS, the statements the
   rules run at once (the observer's "eager" events: try ImportError,
   side-effect import, ...; not those that load nothing), which -v does
   not print.  A command during which build/fork/python was relinked, or
   one of whose processes reported no modules, is measured again.

Output: OUT/clicorpus.json (everything, written after each package, so
that --resume can go on after an interruption) and OUT/clicorpus.md (per
command the module counts and flags, then the summary).

--time ROUNDS adds a wall-time subset: the --version commands of
--time-tools (default: of 10 packages, the one with the most modules
eagerly among those correct in every mode), every mode but fork-L-v and
fork-again run once per round in an order rotated between rounds, after
one warm-up round; medians and geometric means of the ratios lazy/eager
go to the report.  --report-only rewrites OUT/clicorpus.md from
OUT/clicorpus.json.

Examples, from the repository's top directory::

    build/fork/python Tools/lazy/clicorpus.py --limit 50
    build/fork/python Tools/lazy/clicorpus.py \\
        --peer-python /path/to/python3.15 --base-python /path/to/old/python
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import ecosystem
import lazytools

ROOT = lazytools.ROOT
PACKAGES = os.path.join(ROOT, "bench", "clicorpus", "packages.txt")
PROBE = os.path.join(ROOT, "bench", "startup", "sitecustomize.py")
WORKDIR = os.path.join(lazytools.BUILD, "clicorpus")
BATCH = 20                # packages per pip install before one at a time
TAIL = 8                  # lines of stderr kept for a command that differs
EARLY = "completed early"

MODES = ("fork", "fork-again", "fork-L", "fork-L-heal0", "fork-L-v",
         "peer", "peer-L", "base-L")
REFERENCE = {"fork-L": "fork", "fork-L-heal0": "fork", "fork-L-v": None,
             "peer-L": "peer", "base-L": "fork", "fork": None, "peer": None,
             "fork-again": "fork"}
LAZY_MODES = ("fork-L", "fork-L-heal0", "peer-L", "base-L")

# Printed by each venv's python: {distribution: [[script, entry point]]}
# and its standard library's top-level names.
SCRIPTS = r'''
import json, sys
from importlib.metadata import distributions
scripts, versions = {}, {}
for d in distributions():
    versions[d.metadata["Name"]] = d.version
    eps = [[e.name, e.value] for e in d.entry_points
           if e.group == "console_scripts"]
    scripts.setdefault(d.metadata["Name"], []).extend(eps)
print(json.dumps({"scripts": scripts, "versions": versions,
                  "stdlib": sorted(sys.stdlib_module_names)}))
'''


def read_corpus(path):
    """[(rank, name)] of the corpus file, in its order."""
    corpus = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.partition("#")[0].split()
            if fields:
                corpus.append((int(fields[0]), fields[1]))
    return corpus


def wait_for(python, limit=1800):
    """Wait while *python* is missing or does not run (a build relinking
    it); give up after *limit* seconds."""
    deadline = time.monotonic() + limit
    while True:
        try:
            if subprocess.run([python, "-c", "pass"], env=lazytools.
                              clean_env(), capture_output=True,
                              timeout=60).returncode == 0:
                return
        except (OSError, subprocess.TimeoutExpired):
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"clicorpus: {python} does not run")
        print(f"clicorpus: {python} does not run (being rebuilt?): "
              "waiting", flush=True)
        time.sleep(30)


def install_all(side, names):
    """Install *names* into *side*'s venv: in batches, and one name at a
    time (ecosystem.Side.install) where a batch fails.  A name recorded as
    not installable for this interpreter is not tried again."""
    todo = [n for n in names if n not in side.installed]
    for i in range(0, len(todo), BATCH):
        chunk = todo[i:i + BATCH]
        wait_for(side.vpython)
        rc, _ = side.logged(
            [side.vpython, "-m", "pip", "--disable-pip-version-check",
             "install", "--only-binary=:all:", *chunk],
            ecosystem.PIP_TIMEOUT * 2)
        if rc == 0:
            for name in chunk:
                side.installed[name] = {"ok": True, "error": ""}
            side.save()
            print(f"clicorpus: {side.label}: installed {len(chunk)}: "
                  + " ".join(chunk), flush=True)
        else:
            for name in chunk:
                side.install(name)


def venv_info(vpython):
    rc, out, err, _ = ecosystem.run([vpython, "-c", SCRIPTS], 120)
    if rc != 0:
        raise SystemExit(f"clicorpus: {vpython} cannot list its scripts: "
                         f"{ecosystem.last_line(err)}")
    return json.loads(out)


def is_python_script(path):
    try:
        with open(path, "rb") as f:
            first = f.readline()
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def commands_of(corpus, side, scripts, args):
    """The commands of the installed packages: [{package, rank, script,
    arg}], and {package: why it has none}."""
    by_dist = {ecosystem.canonical(d): eps for d, eps in scripts.items()}
    commands, none, seen = [], {}, set()
    for rank, name in corpus:
        if not side.installed.get(name, {}).get("ok"):
            none[name] = "not installable: " + side.installed.get(
                name, {}).get("error", "not installed")
            continue
        eps = sorted(set(map(tuple, by_dist.get(ecosystem.canonical(name),
                                                 []))))
        runnable = []
        for script, _ in eps:
            if script in seen:
                continue
            if is_python_script(os.path.join(side.venv, "bin", script)):
                runnable.append(script)
                seen.add(script)
        if not runnable:
            none[name] = ("no console script" if not eps else
                          "no Python console script in bin/")
        for script in runnable:
            for arg in args:
                commands.append({"package": name, "rank": rank,
                                 "script": script, "arg": arg})
    return commands, none


class Runner:
    """Runs one command in one mode and measures it."""

    def __init__(self, venvs, pythons, stdlib, timeout, workroot, probe_dir):
        self.venvs = venvs          # {"fork": dir, "peer": dir, "base": dir}
        self.pythons = pythons      # interpreters the venvs point at
        self.stdlib = stdlib        # {"fork": set, "peer": set}
        self.timeout = timeout
        self.workroot = workroot
        self.probe_dir = probe_dir

    def build(self):
        """When the fork's interpreter was linked (a rebuild during a run
        mixes two builds)."""
        try:
            return int(os.stat(self.pythons[0]).st_mtime)
        except OSError:
            return 0

    def argv(self, mode, script, arg):
        side = {"peer": "peer", "peer-L": "peer",
                "base-L": "base"}.get(mode, "fork")
        python = os.path.join(self.venvs[side], "bin", "python")
        # base-L runs the fork venv's script: the same site-packages.
        script_dir = self.venvs["peer" if side == "peer" else "fork"]
        flags = {"fork-L": ["-L"], "fork-L-v": ["-L", "-v"],
                 "fork-L-heal0": ["-L", "-X", "lazy_imports_heal=0"],
                 "base-L": ["-L"]}.get(mode, [])
        return side, [python, *flags,
                      os.path.join(script_dir, "bin", script), arg]

    def environment(self, run_dir, modules_file, mode):
        env = lazytools.clean_env()
        for name in list(env):
            if (name.lower().endswith("_proxy") or name.startswith("PIP_")
                    or name.startswith("XDG_") or name.startswith("PYTHON")):
                del env[name]
        env.update(
            HOME=os.path.join(run_dir, "home"),
            TMPDIR=os.path.join(run_dir, "tmp"),
            PYTHONPATH=self.probe_dir,
            BENCH_STARTUP_MODULES=modules_file,
            PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull,
            PIP_DISABLE_PIP_VERSION_CHECK="1",
            TERM="dumb", COLUMNS="100", LINES="40", LANG="C.UTF-8")
        if mode == "peer-L":
            env["PYTHON_LAZY_IMPORTS"] = "all"
        if mode == "fork-L-v":
            env["BENCH_STARTUP_LAZY_EVENTS"] = "1"
        return env

    def normalise(self, text, run_dir):
        subs = [(os.path.join(run_dir, "home"), "<home>"),
                (os.path.join(run_dir, "cwd"), "<cwd>"),
                (os.path.join(run_dir, "tmp"), "<tmp>"), (run_dir, "<run>")]
        for key, path in self.venvs.items():
            subs += [(path, "<venv>"), (os.path.realpath(path), "<venv>")]
        for path in self.pythons:
            subs += [(path, "<python>"), (os.path.realpath(path), "<python>")]
        for old, new in sorted(subs, key=lambda s: -len(s[0])):
            text = text.replace(old, new)
        return re.sub(r"0x[0-9a-fA-F]{6,}", "0x?", text)

    def run(self, mode, script, arg):
        side, argv = self.argv(mode, script, arg)
        run_dir = tempfile.mkdtemp(prefix="run-", dir=self.workroot)
        for sub in ("home", "cwd", "tmp"):
            os.mkdir(os.path.join(run_dir, sub))
        modules_file = os.path.join(run_dir, "modules")
        while True:
            start = time.perf_counter()
            try:
                proc = subprocess.Popen(
                    argv, cwd=os.path.join(run_dir, "cwd"),
                    env=self.environment(run_dir, modules_file, mode),
                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, start_new_session=True)
                break
            except OSError:             # the interpreter being relinked
                wait_for(argv[0])
        try:
            out, err = proc.communicate(timeout=self.timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            rc = None
        seconds = time.perf_counter() - start
        names, events = None, []
        try:
            with open(modules_file, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("E\t"):
                        fields = line.rstrip("\n").split("\t")
                        if fields[1] == str(proc.pid) and len(fields) == 7:
                            events.append(fields[2:])
                        continue
                    pid, _, rest = line.partition(" ")
                    if pid == str(proc.pid):
                        names = rest.split()
        except OSError:
            pass
        out = self.normalise(out.decode("utf-8", "replace"), run_dir)
        err = self.normalise(err.decode("utf-8", "replace"), run_dir)
        shutil.rmtree(run_dir, ignore_errors=True)
        result = {"rc": rc, "seconds": round(seconds, 3),
                  "stdout": out, "stderr": err, "events": events}
        if names is not None:
            names = [n for n in names if n != "sitecustomize"]
            stdlib = self.stdlib[side]
            std = sum(1 for n in names if n.partition(".")[0] in stdlib)
            result.update(modules=len(names), stdlib=std,
                          nonstdlib=len(names) - std, names=names)
        return result


def early_completions(stderr):
    """The "completed early" lines of -v, and their count per reason."""
    lines = [line.strip() for line in stderr.splitlines() if EARLY in line]
    reasons = {}
    for line in lines:
        cause = line.partition(EARLY + ":")[2].strip() or line
        reason = re.sub(r"'[^']*'", "'...'", cause)
        reasons[reason] = reasons.get(reason, 0) + 1
    return lines, reasons


# Reasons of the observer's "eager" events that load nothing -L would not:
# the import system's own modules, and a from-import whose module is
# imported and whose names are bound.
FREE_EAGER = ("import system", "names bound")

# Short names of the causes -v prints (Python/lazyimport.c), for the table.
SHORT = (("imports its submodule", "package order"),
         ("had no attribute", "missing attribute"),
         ("which its package's imports may fill", "registry read"))


def short(reason):
    for text, name in SHORT:
        if text in reason:
            return name
    return reason


def same_output(a, b):
    return (a["rc"] == b["rc"] and a["stdout"] == b["stdout"]
            and a["stderr"] == b["stderr"])


def measure(runner, command, modes):
    """Run *command* in *modes*; the entry that goes into the JSON."""
    builds = set()
    runs = {}
    for m in modes:
        builds.add(runner.build())
        runs[m] = runner.run(m, command["script"], command["arg"])
    builds.add(runner.build())
    entry = dict(command, modes={}, fork_build=sorted(builds))
    for mode, r in runs.items():
        ref = REFERENCE[mode]
        info = {k: r.get(k) for k in ("rc", "seconds", "modules", "stdlib",
                                       "nonstdlib")}
        if ref in runs:
            info["same"] = same_output(r, runs[ref])
            if not info["same"]:
                info["stderr_tail"] = r["stderr"].splitlines()[-TAIL:]
                info["stdout_head"] = r["stdout"].splitlines()[:TAIL]
                info["ref_stderr_tail"] = runs[ref]["stderr"].splitlines(
                    )[-TAIL:]
        if mode in ("fork", "peer"):
            info["traceback"] = "Traceback (most recent call last)" in (
                r["stderr"])
        entry["modes"][mode] = info
    if "fork-again" in runs:
        # Output that changes from one eager run to the next (a time, a
        # random name) is no evidence against a lazy mode.
        entry["unstable"] = not entry["modes"]["fork-again"]["same"]
    if "fork-L-v" in runs:
        lines, reasons = early_completions(runs["fork-L-v"]["stderr"])
        entry["early"] = reasons
        entry["early_count"] = len(lines)
        # The statements -L ran at once by a rule of its own (the import
        # observer's "eager" events), but those that cost nothing.
        eager = [(imp, name, fl, why) for event, imp, name, fl, why
                 in runs["fork-L-v"]["events"]
                 if event == "eager" and why not in FREE_EAGER]
        entry["eager_rules"] = {}
        for *_, why in eager:
            entry["eager_rules"][why] = entry["eager_rules"].get(why, 0) + 1
        lazy, heal0 = runs["fork-L"].get("names"), runs["fork-L-heal0"].get(
            "names")
        if lazy is not None and heal0 is not None:
            extra = sorted(set(lazy) - set(heal0))
            if extra:
                entry["more_than_heal0"] = extra
                entry["early_lines"] = lines
                entry["eager_statements"] = [
                    f"{imp}: {name}" + (f" ({fl})" if fl else "")
                    + f" [{why}]" for imp, name, fl, why in eager]
    lazy, peer = runs.get("fork-L", {}), runs.get("peer-L", {})
    if lazy.get("names") is not None and peer.get("names") is not None:
        std_f, std_p = runner.stdlib["fork"], runner.stdlib["peer"]
        entry["more_than_peer"] = sorted(
            set(n for n in lazy["names"] if n.partition(".")[0] not in std_f)
            - set(n for n in peer["names"]
                  if n.partition(".")[0] not in std_p))
    base = runs.get("base-L", {})
    if lazy.get("names") is not None and base.get("names") is not None:
        entry["base_diff"] = {
            "more": sorted(set(lazy["names"]) - set(base["names"])),
            "fewer": sorted(set(base["names"]) - set(lazy["names"]))}
    return entry


def key(command):
    return f"{command['package']} {command['script']} {command['arg']}"


# -- the report -----------------------------------------------------------

def n(info, field="modules"):
    value = (info or {}).get(field)
    return "-" if value is None else str(value)


def works(entry, mode):
    """Same output as the reference and a module count.  For a command
    whose eager output is unstable only the exit status can be compared."""
    info = entry["modes"].get(mode)
    if not info:
        return False
    ref = entry["modes"][REFERENCE[mode]]
    same = info.get("same") or (entry.get("unstable") and mode != "peer-L"
                                and info["rc"] == ref["rc"])
    return bool(same and info.get("modules") is not None
                and ref.get("modules") is not None)


def by_package(names, limit=6):
    """'top-level x count, ...' of module names, the largest first."""
    counts = {}
    for name in names:
        top = name.partition(".")[0]
        counts[top] = counts.get(top, 0) + 1
    tops = sorted(counts.items(), key=lambda x: (-x[1], x[0]))
    return ", ".join(f"{t} x{c}" if c > 1 else t for t, c in tops[:limit]) + (
        f", ... ({len(tops)} packages)" if len(tops) > limit else "")


def version_note(data, entry):
    """' (fork X, peer Y)' when the two venvs have other versions of the
    command's package, else ''."""
    for p in data["packages"]:
        if p["name"] == entry["package"]:
            v = p.get("versions") or {}
            if v.get("peer") and v.get("fork") != v.get("peer"):
                return (f" (versions differ: fork {v['fork']}, "
                        f"peer {v['peer']})")
    return ""


def peer_works(entry):
    """peer-L gives peer's output, and the peer runs the command as the
    fork does: the same exit status, no traceback the fork has not."""
    if not works(entry, "peer-L"):
        return False
    fork, peer = entry["modes"]["fork"], entry["modes"]["peer"]
    return fork["rc"] == peer["rc"] and (fork["traceback"]
                                         or not peer["traceback"])


def ratio_line(entries, mode, ref, field="modules"):
    pairs = [(e["modes"][mode][field], e["modes"][ref][field])
             for e in entries if works(e, mode)
             and e["modes"][mode].get(field) and e["modes"][ref].get(field)]
    if not pairs:
        return f"{mode}/{ref}: no command"
    return (f"{mode}/{ref} x{lazytools.geomean(a / b for a, b in pairs):.3f}"
            f" over {len(pairs)} commands")


def report(data):
    entries = data["commands"]
    modes = data["modes"]
    has_peer = "peer-L" in modes
    has_base = "base-L" in modes
    out = ["# Wide CLI corpus: console scripts of the top PyPI packages", ""]
    for label, info in data["interpreters"].items():
        out.append(f"- {label}: `{info['python']}` ({info['version']})")
    out += ["",
            f"{len(data['packages'])} packages of bench/clicorpus/packages."
            f"txt ({data['installed']} installed on the fork), "
            f"{len(entries)} commands (console scripts x "
            f"{', '.join(data['args'])}), "
            f"{data.get('seconds', 0) / 60:.0f} min.  Modules: "
            "len(sys.modules) at exit (Tools/lazy/clicorpus.py's probe, "
            "atexit included, its own sitecustomize not); `-` no count (a "
            "timeout, os._exit() or a crash).  Flags: `=` same output as "
            "the reference (fork for the fork's lazy modes and base-L, "
            "peer for peer-L), `D` differs, `T` timed out.  The peer's "
            "standard library (3.15) is not the fork's (3.13): compare "
            "the non-stdlib counts (`ns`), the fairer figure.", ""]

    if has_peer:
        differ = [p["name"] for p in data["packages"]
                  if (p.get("versions") or {}).get("peer")
                  and p["versions"]["peer"] != p["versions"].get("fork")]
        out += [f"The peer's venv has other versions than the fork's of "
                f"{len(differ)} packages (pip resolves for each Python): "
                + ", ".join(differ[:20]) + (" ..." if len(differ) > 20
                                            else "")
                + "; a command of one is marked where it is compared.", ""]
    builds = sorted({b for e in entries for b in e.get("fork_build", [])})
    if len(builds) > 1:
        stamps = ", ".join(time.strftime("%H:%M:%S", time.gmtime(b))
                           for b in builds)
        mixed = [key(e) for e in entries if len(e.get("fork_build", [])) > 1]
        out += [f"**The fork was rebuilt during the run** (builds linked at "
                f"{stamps} UTC): its figures mix builds; "
                f"{len(mixed)} commands saw two builds.", ""]
    # Summary first.
    out += ["## Summary", ""]
    agree = [e for e in entries if works(e, "fork-L")]
    out.append(f"- fork -L same output as eager: {len(agree)}/{len(entries)}"
               " commands")
    if "fork-L-heal0" in modes:
        h0 = sum(1 for e in entries if works(e, "fork-L-heal0"))
        out.append(f"- fork -L -X lazy_imports_heal=0 same output as eager: "
                   f"{h0}/{len(entries)}")
    more = [e for e in agree if e.get("more_than_heal0")
            and e["modes"]["fork-L"]["modules"]
            > e["modes"]["fork-L-heal0"]["modules"]]
    needed = [e for e in more if not e["modes"]["fork-L-heal0"].get("same")]
    out.append(f"- fork -L loads more modules than with heal=0 (among the "
               f"{len(agree)}): {len(more)}; of which heal=0's output "
               f"differs from eager's (the healing is needed there): "
               f"{len(needed)}, and is the same (the extra modules buy "
               f"nothing visible): {len(more) - len(needed)}")
    if has_peer:
        both = [e for e in entries if works(e, "fork-L")
                and peer_works(e)]
        more_peer = [e for e in both if e["modes"]["fork-L"]["nonstdlib"]
                     > e["modes"]["peer-L"]["nonstdlib"]]
        more_peer_all = [e for e in both if e["modes"]["fork-L"]["modules"]
                         > e["modes"]["peer-L"]["modules"]]
        peer_ok = sum(1 for e in entries if works(e, "peer-L"))
        peer_runs = sum(1 for e in entries if peer_works(e))
        peer_ran = sum(1 for e in entries if "peer-L" in e["modes"])
        out.append(f"- peer-L same output as peer: {peer_ok}/{peer_ran} "
                   "commands the peer has; of which the peer runs as the "
                   f"fork does (same exit status, no new traceback): "
                   f"{peer_runs}")
        out.append(f"- fork -L loads more non-stdlib modules than peer-L "
                   f"(among the {len(both)} both run correctly): "
                   f"{len(more_peer)}; more modules in all: "
                   f"{len(more_peer_all)}")
    vdiff = [e for e in entries if "fork-L-v" in e["modes"]
             and e["modes"]["fork-L-v"].get("modules")
             != e["modes"]["fork-L"].get("modules")]
    if vdiff:
        out.append("- the `-L -v` run (early completions) loads other "
                   "modules than `-L` on: " + ", ".join(
                       f"`{key(e)}` ({e['modes']['fork-L']['modules']} -> "
                       f"{e['modes']['fork-L-v']['modules']})"
                       for e in vdiff))
    if has_base:
        base_ok = [e for e in entries if works(e, "base-L")
                   and works(e, "fork-L")]
        up = sum(1 for e in base_ok if e["modes"]["fork-L"]["modules"]
                 > e["modes"]["base-L"]["modules"])
        down = sum(1 for e in base_ok if e["modes"]["fork-L"]["modules"]
                   < e["modes"]["base-L"]["modules"])
        out.append(f"- fork -L vs base -L (both correct, {len(base_ok)}): "
                   f"more modules on {up}, fewer on {down}")
    out += ["", "Geometric means of modules lazy/eager, over the commands "
            "whose lazy output is the same as the reference's:", ""]
    for mode in LAZY_MODES:
        if mode in modes:
            ref = REFERENCE[mode]
            out.append(f"- {ratio_line(entries, mode, ref)}; non-stdlib "
                       + ratio_line(entries, mode, ref, "nonstdlib"
                                    ).split(" ", 1)[1])
    if has_peer:
        both = [e for e in entries if works(e, "fork-L")
                and peer_works(e)]
        out.append("- on the commands both run correctly: "
                   + ratio_line(both, "fork-L", "fork") + ", "
                   + ratio_line(both, "peer-L", "peer") + "; non-stdlib "
                   + ratio_line(both, "fork-L", "fork", "nonstdlib") + ", "
                   + ratio_line(both, "peer-L", "peer", "nonstdlib"))
    reasons = {}
    for e in entries:
        for r, c in e.get("early", {}).items():
            reasons.setdefault(r, [0, 0])
            reasons[r][0] += c
            reasons[r][1] += 1
    if reasons:
        out += ["", "Early completions of fork -L (`-v`), per reason "
                "(lines, commands):", ""]
        for r, (c, k) in sorted(reasons.items(), key=lambda x: -x[1][0]):
            out.append(f"- {c} in {k} commands: {r}")
    rules = {}
    for e in entries:
        for r, c in e.get("eager_rules", {}).items():
            rules.setdefault(r, [0, 0])
            rules[r][0] += c
            rules[r][1] += 1
    if rules:
        out += ["", "Statements fork -L ran at once by a rule (the import "
                "observer's reasons, in the `-v` run; those that load "
                "nothing, " + ", ".join(FREE_EAGER) + ", left out), "
                "(statements, commands):", ""]
        for r, (c, k) in sorted(rules.items(), key=lambda x: -x[1][0]):
            out.append(f"- {c} in {k} commands: {r}")

    out += ["", "### fork -L loads more than fork -L -X lazy_imports_heal=0",
            "", "Commands whose -L output is the eager one; +N is -L minus "
            "heal=0; the reasons are those of the completed-early lines.",
            ""]
    if not more:
        out.append("None.")
    for e in sorted(more, key=lambda e: -(e["modes"]["fork-L"]["modules"]
                                          - e["modes"]["fork-L-heal0"]
                                          ["modules"])):
        d = e["modes"]["fork-L"]["modules"] - e["modes"]["fork-L-heal0"][
            "modules"]
        why = "; ".join(f"{c}x {r}" for r, c in sorted(
            e.get("early", {}).items(), key=lambda x: -x[1])) or "none"
        h0, lz = e["modes"]["fork-L-heal0"], e["modes"]["fork-L"]
        broken = "" if h0.get("same") else " (heal=0 output differs)"
        extra = e["more_than_heal0"]
        out.append(f"- `{key(e)}`: +{d} ({h0['modules']} -> "
                   f"{lz['modules']}, eager {e['modes']['fork']['modules']})"
                   f"{broken}; early: {why}; the extra modules: "
                   + by_package(extra))
        first = [line for line in e.get("early_lines", [])][:3]
        for line in first:
            out.append(f"    - `{line}`")
        rules = e.get("eager_rules", {})
        if rules:
            out.append("    - ran at once by a rule: " + "; ".join(
                f"{c}x {r}" for r, c in sorted(rules.items(),
                                               key=lambda x: -x[1]))
                + ": " + ", ".join(f"`{x}`" for x in
                                   e.get("eager_statements", [])[:4]))
    if has_peer:
        out += ["", "### fork -L loads more non-stdlib modules than peer-L",
                "", "Among the commands both run correctly; the modules are "
                "the non-stdlib ones fork -L has and peer-L has not, per "
                "top-level package.",
                ""]
        both = [e for e in entries if works(e, "fork-L")
                and peer_works(e)]
        more_peer = [e for e in both if e["modes"]["fork-L"]["nonstdlib"]
                     > e["modes"]["peer-L"]["nonstdlib"]]
        if not more_peer:
            out.append("None.")
        for e in sorted(more_peer, key=lambda e: -(
                e["modes"]["fork-L"]["nonstdlib"]
                - e["modes"]["peer-L"]["nonstdlib"])):
            f, p = e["modes"]["fork-L"], e["modes"]["peer-L"]
            names = e.get("more_than_peer", [])
            out.append(f"- `{key(e)}`{version_note(data, e)}: "
                       f"non-stdlib {f['nonstdlib']} vs "
                       f"{p['nonstdlib']} (+{f['nonstdlib'] - p['nonstdlib']}"
                       f"; all {f['modules']} vs {p['modules']}): "
                       + by_package(names))
    unstable = [e for e in entries if e.get("unstable")]
    diff = [e for e in entries if not e.get("unstable")
            and e["modes"].get("fork-L", {}).get("same") is False]
    out += ["", "### fork -L output differs from eager", "",
            "Unstable commands (two eager runs differ) left out: "
            + (", ".join(f"`{key(e)}`" for e in unstable) or "none") + ".",
            ""]
    if not diff:
        out.append("None.")
    for e in diff:
        f, L = e["modes"]["fork"], e["modes"]["fork-L"]
        tail = (L.get("stderr_tail") or [""])[-1:]
        note = (" (eager fails too: "
                + ((L.get("ref_stderr_tail") or [""])[-1][:120]) + ")"
                if f["rc"] != 0 and f.get("traceback") else "")
        out.append(f"- `{key(e)}`: exit {f['rc']} -> {L['rc']}; -L stderr "
                   f"ends: `{tail[0][:200]}`{note}")
    if has_peer:
        pdiff = [e for e in entries
                 if e["modes"].get("peer-L", {}).get("same") is False]
        out += ["", "### peer-L output differs from peer", ""]
        if not pdiff:
            out.append("None.")
        for e in pdiff:
            p, L = e["modes"]["peer"], e["modes"]["peer-L"]
            tail = (L.get("stderr_tail") or [""])[-1:]
            out.append(f"- `{key(e)}`: exit {p['rc']} -> {L['rc']}; stderr "
                       f"ends: `{tail[0][:200]}`")
    if data.get("timing"):
        out += ["", "## Wall time", "", data["timing"]["text"]]

    # The table.
    cols = [m for m in ("fork", "fork-L", "fork-L-heal0", "base-L", "peer",
                        "peer-L") if m in modes]
    out += ["", "## Per command", "", "Modules (all / non-stdlib), flag; "
            "early: completed-early lines of fork -L -v per cause, and "
            "(eager) statements -L ran at once by a rule.", "",
            "| # | package | command | " + " | ".join(cols)
            + " | early |", "| --- | --- | --- |" + " --- |" * (len(cols) + 1)]
    for e in entries:
        cells = []
        for m in cols:
            info = e["modes"].get(m)
            if info is None:
                cells.append("")
                continue
            flag = ("T" if info["rc"] is None else
                    "" if "same" not in info else
                    "=" if info["same"] else "D")
            cells.append(f"{n(info)}/{n(info, 'nonstdlib')} {flag}".strip())
        early = ", ".join(
            [f"{c} {short(r)}" for r, c in sorted(
                e.get("early", {}).items(), key=lambda x: -x[1])]
            + [f"{c} {r} (eager)" for r, c in sorted(
                e.get("eager_rules", {}).items(), key=lambda x: -x[1])])
        mark = " (unstable)" if e.get("unstable") else ""
        out.append(f"| {e['rank']} | {e['package']} | `{e['script']} "
                   f"{e['arg']}`{mark} | " + " | ".join(cells)
                   + f" | {early} |")
    if data.get("without_commands"):
        out += ["", "## Packages without a command", ""]
        for name, why in data["without_commands"].items():
            out.append(f"- {name}: {why}")
    return "\n".join(out) + "\n"


# -- wall time ------------------------------------------------------------

def timing(runner, entries, modes, rounds, tools):
    """Interleaved wall times of the --version commands of *tools*."""
    pool = [e for e in entries if e["arg"] == "--version"]
    if tools:
        wanted = set(tools)
        chosen = [e for e in pool if e["script"] in wanted]
    else:
        ok = [e for e in pool
              if all(works(e, m) for m in LAZY_MODES if m in modes)]
        chosen, packages = [], set()
        for e in sorted(ok, key=lambda e: -e["modes"]["fork"]["modules"]):
            if e["package"] not in packages and len(chosen) < 10:
                chosen.append(e)        # one script of a package
                packages.add(e["package"])
    tmodes = [m for m in modes if m not in ("fork-L-v", "fork-again")]
    times = {(e["script"], m): [] for e in chosen for m in tmodes}
    for r in range(rounds + 1):          # round 0 warms up
        order = tmodes[r % len(tmodes):] + tmodes[:r % len(tmodes)]
        for e in chosen:
            for m in order:
                t = runner.run(m, e["script"], e["arg"])["seconds"]
                if r:
                    times[(e["script"], m)].append(t)
        print(f"clicorpus: timing round {r}/{rounds}", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    lines = [f"{len(chosen)} `--version` commands, {rounds} rounds after a "
             "warm-up, modes interleaved; median wall time in ms.", "",
             "| command | " + " | ".join(tmodes) + " |",
             "| --- |" + " --- |" * len(tmodes)]
    for e in chosen:
        lines.append(f"| `{e['script']} --version` | " + " | ".join(
            f"{med[(e['script'], m)] * 1000:.0f}" for m in tmodes) + " |")
    lines.append("")
    for mode in LAZY_MODES:
        ref = REFERENCE[mode]
        if mode in tmodes and ref in tmodes:
            ok = [e for e in chosen if works(e, mode)]
            g = lazytools.geomean(med[(e["script"], mode)]
                                  / med[(e["script"], ref)] for e in ok)
            lines.append(f"- wall {mode}/{ref}: x{g:.3f} over {len(ok)}")
    return {"tools": [e["script"] for e in chosen], "modes": tmodes,
            "seconds": {f"{s} {m}": v for (s, m), v in times.items()},
            "text": "\n".join(lines)}


# -- main -----------------------------------------------------------------

def check_probe(runner, modes):
    """The probe must report in every mode, and add nothing but atexit."""
    for mode in modes:
        side, argv = runner.argv(mode, "x", "")
        env = runner.environment("/nonexistent", "/dev/null", mode)
        env.pop("PYTHONPATH")
        env.pop("BENCH_STARTUP_MODULES")
        code = "import sys; print(' '.join(sorted(sys.modules)))"
        bare = subprocess.run([*argv[:-2], "-c", code], env=env,
                              capture_output=True, text=True).stdout.split()
        with tempfile.TemporaryDirectory(dir=runner.workroot) as d:
            f = os.path.join(d, "m")
            env.update(PYTHONPATH=runner.probe_dir, BENCH_STARTUP_MODULES=f)
            proc = subprocess.Popen([*argv[:-2], "-c", "import sys; "
                                     "sys.exit(3)"], env=env)
            proc.wait()
            with open(f, encoding="utf-8") as fh:
                pid, *names = fh.read().split()
        added = set(names) - set(bare) - {"sitecustomize"}
        if pid != str(proc.pid) or proc.returncode != 3 or not (
                added <= {"atexit"}):
            raise SystemExit(f"clicorpus: the probe fails in mode {mode}: "
                             f"pid {pid}/{proc.pid}, exit {proc.returncode},"
                             f" adds {sorted(added)}")
    print(f"clicorpus: probe checked in {len(modes)} modes (adds only "
          "atexit; reports after sys.exit())", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Give an argument starting with a dash with '=': "
        "--args=--version.")
    parser.add_argument("--python", default=lazytools.FORK_PYTHON,
                        help="the fork (default build/fork/python)")
    parser.add_argument("--venv", default=os.path.join(WORKDIR, "venv-fork"))
    parser.add_argument("--peer-python", default=None,
                        help="CPython 3.15 for peer and peer-L")
    parser.add_argument("--peer-venv",
                        default=os.path.join(WORKDIR, "venv-peer"))
    parser.add_argument("--base-python", default=None,
                        help="an earlier build of the fork, for base-L")
    parser.add_argument("--base-venv",
                        default=os.path.join(WORKDIR, "venv-base"))
    parser.add_argument("--packages", default=PACKAGES)
    parser.add_argument("--out", default=os.path.join(lazytools.BUILD,
                                                      "reports"))
    parser.add_argument("--limit", type=int, default=300,
                        help="the first N packages (default 300)")
    parser.add_argument("--only", default=None,
                        help="only these packages (comma or space separated)")
    parser.add_argument("--args", default="--version,--help",
                        help="the arguments, comma separated")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--resume", action="store_true",
                        help="keep the commands OUT/clicorpus.json has "
                        "measured in the same modes")
    parser.add_argument("--install-only", action="store_true")
    parser.add_argument("--report-only", action="store_true",
                        help="write OUT/clicorpus.md from OUT/clicorpus.json")
    parser.add_argument("--time", type=int, default=0, metavar="ROUNDS",
                        help="add the wall-time subset, ROUNDS rounds")
    parser.add_argument("--time-tools", default=None,
                        help="its scripts (comma separated; default the "
                        "10 with the most modules eagerly)")
    args = parser.parse_args(argv)

    if args.report_only:
        with open(os.path.join(args.out, "clicorpus.json"),
                  encoding="utf-8") as f:
            data = json.load(f)
        with open(os.path.join(args.out, "clicorpus.md"), "w",
                  encoding="utf-8") as f:
            f.write(report(data))
        return 0
    corpus = read_corpus(args.packages)
    if args.only:
        wanted = {ecosystem.canonical(x)
                  for x in re.split(r"[,\s]+", args.only) if x}
        corpus = [c for c in corpus if ecosystem.canonical(c[1]) in wanted]
    else:
        corpus = corpus[:args.limit]
    names = [name for _, name in corpus]
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    os.makedirs(WORKDIR, exist_ok=True)
    start = time.monotonic()

    fork = ecosystem.Side("fork", args.python, "-L", args.venv, out, 60)
    sides = [fork]
    if args.peer_python:
        sides.append(ecosystem.Side("peer", args.peer_python,
                                    "-X lazy_imports=all", args.peer_venv,
                                    out, 60))
    for side in sides:
        side.make_venv(helper=fork.vpython)
        install_all(side, names)
    if args.base_python:
        lazytools.make_base_venv(args.base_python, fork.venv, args.base_venv)
    if args.install_only:
        return 0

    modes = ["fork", "fork-L", "fork-L-heal0", "fork-L-v", "fork-again"]
    venvs = {"fork": fork.venv}
    pythons = [fork.python]
    info = {"fork": venv_info(fork.vpython)}
    interpreters = {"fork": {"python": fork.python,
                             "version": fork.version.splitlines()[0]}}
    stdlib = {"fork": set(info["fork"]["stdlib"])}
    if args.peer_python:
        peer = sides[1]
        modes += ["peer", "peer-L"]
        venvs["peer"] = peer.venv
        pythons.append(peer.python)
        info["peer"] = venv_info(peer.vpython)
        stdlib["peer"] = set(info["peer"]["stdlib"])
        interpreters["peer"] = {"python": peer.python,
                                "version": peer.version.splitlines()[0]}
    if args.base_python:
        modes.append("base-L")
        venvs["base"] = os.path.abspath(args.base_venv)
        pythons.append(os.path.abspath(args.base_python))
        stdlib["base"] = stdlib["fork"]
        interpreters["base"] = {
            "python": os.path.abspath(args.base_python),
            "version": lazytools.build_identifier(args.base_python)}

    commands, without = commands_of(corpus, fork, info["fork"]["scripts"],
                                    args.args.split(","))
    peer_scripts = set()
    if args.peer_python:
        peer_ok = {ecosystem.canonical(x) for x in names
                   if sides[1].installed.get(x, {}).get("ok")}
        for dist, eps in info["peer"]["scripts"].items():
            if ecosystem.canonical(dist) in peer_ok:
                peer_scripts.update(s for s, _ in eps if is_python_script(
                    os.path.join(sides[1].venv, "bin", s)))

    json_path = os.path.join(out, "clicorpus.json")
    done = {}
    if args.resume and os.path.exists(json_path):
        with open(json_path, encoding="utf-8") as f:
            old = json.load(f)
        if old.get("modes") == modes:
            done = {key(e): e for e in old["commands"]}
    workroot = tempfile.mkdtemp(prefix="clicorpus-")
    probe_dir = os.path.join(workroot, "probe")
    os.mkdir(probe_dir)
    shutil.copy(PROBE, os.path.join(probe_dir, "sitecustomize.py"))
    runner = Runner(venvs, pythons, stdlib, args.timeout, workroot,
                    probe_dir)
    check_probe(runner, [m for m in modes
                         if m not in ("fork-L-v", "fork-again")])

    versions = {side: {ecosystem.canonical(d): v
                       for d, v in i["versions"].items()}
                for side, i in info.items()}
    data = {"packages": [{"rank": r, "name": x,
                          "install": fork.installed.get(x),
                          "peer_install": (sides[1].installed.get(x)
                                           if args.peer_python else None),
                          "versions": {side: v.get(ecosystem.canonical(x))
                                       for side, v in versions.items()}}
                         for r, x in corpus],
            "installed": sum(1 for x in names
                             if fork.installed.get(x, {}).get("ok")),
            "interpreters": interpreters, "modes": modes,
            "args": args.args.split(","), "without_commands": without,
            "commands": []}

    def save(final=False):
        data["seconds"] = round(time.monotonic() - start)
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
        if final:
            with open(os.path.join(out, "clicorpus.md"), "w",
                      encoding="utf-8") as f:
                f.write(report(data))

    print(f"clicorpus: {len(commands)} commands of {len(corpus)} packages, "
          f"modes {', '.join(modes)}", flush=True)
    try:
        for i, command in enumerate(commands, 1):
            if key(command) in done:
                data["commands"].append(done[key(command)])
                continue
            cmodes = [m for m in modes if not m.startswith("peer")
                      or command["script"] in peer_scripts]
            entry = measure(runner, command, cmodes)
            if len(entry["fork_build"]) > 1 or any(
                    info.get("modules") is None
                    for info in entry["modes"].values()):
                # Rebuilt meanwhile, or a process that did not report
                # (a build being relinked fails at start-up): again.
                for venv in venvs.values():
                    wait_for(os.path.join(venv, "bin", "python"))
                entry = measure(runner, command, cmodes)
            data["commands"].append(entry)
            m = entry["modes"]
            print(f"clicorpus: {i}/{len(commands)} {key(command)}: "
                  + " ".join(f"{x}={n(m[x])}"
                             + ("" if m[x].get("same", True) else "(D)")
                             for x in cmodes if x != "fork-L-v")
                  + f" early={entry.get('early_count', 0)}", flush=True)
            if i == len(commands) or commands[i]["package"] != command[
                    "package"]:
                save()
        if args.time:
            data["timing"] = timing(runner, data["commands"], modes,
                                    args.time,
                                    args.time_tools and
                                    args.time_tools.split(","))
    finally:
        save(final=True)
        shutil.rmtree(workroot, ignore_errors=True)
    print(f"clicorpus: results in {out}/clicorpus.md, clicorpus.json "
          f"({data['seconds'] / 60:.0f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

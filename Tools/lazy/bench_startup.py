"""Start-up benchmark: real command-line tools from PyPI, fork vs fork -L.

    bench_startup.py --vanilla-venv DIR --fork-venv DIR [--peer-venv DIR] [--base-python PY]
                     [--group version|work|all] [--only NAMES] [--reps 15] [--out build/bench]
    bench_startup.py --fork-venv DIR --explain NAME [--group G]  # what -L still imports, and why

Two groups of commands (the table JOBS), each tool of the corpus in both:
  version   a --version-style command: start-up and little else
  work      one small real job on the fixture files of bench/startup/work (format a file,
            lint a module, build a page, run tests, ...), each run in a fresh copy of them
The floor, ``python -c pass``, is run in every configuration and reported with each group.

Configurations, run interleaved (A B C, then B C A, ... so that drift hits all alike):
  vanilla   DIR/bin/python TOOL ARGS     in the venv of build/vanilla/python
  fork      DIR/bin/python TOOL ARGS     in the venv of build/fork/python
  fork-L    DIR/bin/python -L TOOL ARGS  same venv
and with --peer-venv (another implementation of lazy imports, CPython 3.15's):
  peer      DIR/bin/python TOOL ARGS
  peer-L    DIR/bin/python -X lazy_imports=all TOOL ARGS
and with --base-python (an earlier build of the fork, to compare a change with the build
before it), from a venv of it, OUT/venv-base, that runs the fork venv's packages (its
site-packages is a symbolic link to the fork venv's):
  base      DIR/bin/python TOOL ARGS
  base-L    DIR/bin/python -L TOOL ARGS
  both with PYTHONPYCACHEPREFIX inside DIR, so that the two builds never read each other's
  bytecode caches.
Each tool runs through its console-script file with the venv's python, as its shebang would.
Peak RSS (VmHWM) and len(sys.modules) come from the child itself, at exit, through the
bench/startup/sitecustomize.py hook copied into each venv.  Output (stdout, stderr, exit code,
and the files a work job writes that JOBS names) must be identical between fork and fork-L;
vanilla's is compared too, after replacing the venv path; peer-L's with peer's.

Distance to the floor, per tool: (T_L - F_L) / (T_eager - F_eager), where T is the tool's
median wall time and F the median of ``-c pass`` in the same configuration (fork-L's floor
for T_L, fork's for T_eager; peer-L's and peer's for the peer): the share of what the tool
costs above a bare interpreter start-up that lazy imports leave.  0 is the floor, 1 no gain.
"""
import argparse
import difflib
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import lazytools

SITECUSTOMIZE = os.path.join(lazytools.ROOT, "bench", "startup", "sitecustomize.py")
WORK = os.path.join(lazytools.ROOT, "bench", "startup", "work")
GROUPS = ("version", "work")


def job(group, tool, name, argv, env=None, collect=(), subst=(), excluding=()):
    """One command of the table.  argv follows the venv's python; "{bin}" is the venv's bin
    directory.  Work jobs only: env is added to the run's environment ("{cwd}" is the run's
    directory), collect names files (relative to it) whose text is compared as output after
    the run, subst holds (regex, replacement) pairs applied to the output before comparing.
    excluding names the modules a lazy run imports eagerly, as the tool's maintainer adopting
    -L would set them (bench/startup/sitecustomize.py applies them)."""
    return {"group": group, "tool": tool, "name": name, "argv": argv, "env": env or {},
            "collect": list(collect), "subst": list(subst), "excluding": list(excluding)}



FLOOR = job("floor", "python", "floor (-c pass)", ["-c", "pass"])
JOBS = [
    FLOOR,
    # -- version: start-up and little else, from an empty directory
    job("version", "black", "black --code", ["{bin}/black", "--code", "x = [1,2]\n"]),
    job("version", "http", "http --offline",
        ["{bin}/http", "--ignore-stdin", "--offline", "example.org", "a=b"]),
    job("version", "pip", "pip list", ["{bin}/pip", "list"]),
    job("version", "sphinx", "sphinx-build --version", ["{bin}/sphinx-build", "--version"]),
    job("version", "pytest", "pytest --version", ["{bin}/pytest", "--version"]),
    job("version", "flake8", "flake8 --version", ["{bin}/flake8", "--version"]),
    job("version", "pylint", "pylint --version", ["{bin}/pylint", "--version"]),
    job("version", "aws", "aws --version", ["{bin}/aws", "--version"]),
    job("version", "poetry", "poetry --version", ["{bin}/poetry", "--version"]),
    # attrs classes in many modules (attrs copies each module's namespace)
    job("version", "twist", "twist web --help", ["{bin}/twist", "web", "--help"]),
    # nltk/__init__.py re-exports its subpackages through star imports
    job("version", "nltk", "nltk --help", ["{bin}/nltk", "--help"]),
    # -- work: one small real job each, in a fresh copy of bench/startup/work with a fresh HOME
    job("work", "black", "black format_me.py", ["{bin}/black", "format_me.py"],
        collect=["format_me.py"]),
    job("work", "http", "http --offline PUT json",
        ["{bin}/http", "--ignore-stdin", "--offline", "--pretty=all", "--style=monokai",
         "--print=HB", "PUT", "https://api.example.org/v1/runs/42?verbose=1",
         "Authorization:Bearer token", "X-Bench:work", "run:=@request.json", "note=@README.rst"]),
    job("work", "sphinx", "sphinx-build -b html", ["{bin}/sphinx-build", "-q", "-b", "html",
                                                   "docs", "out"],
        collect=["out/index.html"]),
    job("work", "pytest", "pytest test_sample.py",
        ["{bin}/pytest", "-q", "-p", "no:cacheprovider", "--basetemp=pytest-tmp",
         "test_sample.py"],
        subst=[(rb" in [0-9.]+s\b", b" in <t>s")]),
    job("work", "flake8", "flake8 lint_me.py", ["{bin}/flake8", "lint_me.py"]),
    job("work", "pylint", "pylint lint_me.py", ["{bin}/pylint", "lint_me.py"]),
    job("work", "aws", "aws run-instances skeleton",
        ["{bin}/aws", "ec2", "run-instances", "--generate-cli-skeleton"],
        env={"AWS_DEFAULT_REGION": "us-east-1"},
        # the skeleton shows a random member of each enum (botocore's ArgumentGenerator)
        subst=[(rb'(": )"[^"\n]*"', rb'\1"<s>"'), (rb'(?m)^(\s*)"[^"\n]*"(,?)$', rb'\1"<s>"\2')]),
    job("work", "poetry", "poetry check", ["{bin}/poetry", "check"]),
    job("work", "pip", "pip check", ["{bin}/pip", "check"]),
    # a twist plugin of the fixtures (twisted/plugins/bench_twist_job.py): serve, fetch, stop
    job("work", "twist", "twist benchweb", ["{bin}/twist", "--log-file=twist.log", "benchweb",
                                            "--socket", "web.sock"],
        env={"PYTHONPATH": "{cwd}"}),
    job("work", "nltk", "nltk_job.py text.txt", ["nltk_job.py", "text.txt"]),
]
JOB_BY_NAME = {j["name"]: j for j in JOBS}
# Work jobs get a fresh HOME; these would still point them at the caller's settings.
WORK_ENV_DROP = ("XDG_", "AWS_", "POETRY_", "PYLINTHOME", "PYLINTRC", "BLACK_CACHE_DIR")

FLAGS = dict(lazytools.FLAGS, **{"peer": (), "peer-L": ("-X", "lazy_imports=all"),
                                  "base": (), "base-L": ("-L",)})
PAIRS = {"fork": ("fork", "fork-L"), "peer": ("peer", "peer-L"),
         "base": ("base", "base-L")}  # (eager, lazy)


def site_packages(venv):
    py = os.path.join(venv, "bin", "python")
    return subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()


def install_hook(venv):
    shutil.copy(SITECUSTOMIZE, os.path.join(site_packages(venv), "sitecustomize.py"))


def work_env(env, home):
    env = {k: v for k, v in env.items() if not k.startswith(WORK_ENV_DROP)}
    env["HOME"] = home
    return env


def run_once(venv, flags, j, cwd, env, trace=False):
    """Run job *j* once.  A version job runs in *cwd*; a work job in a fresh copy of the
    fixtures (outside the timing), whose files named by j["collect"] are appended to its
    stdout, and whose temporary path is replaced by <tmp> in the output."""
    bindir = os.path.join(venv, "bin")
    fd, stats = tempfile.mkstemp(prefix="bench-stats-")
    os.close(fd)
    env = dict(env, BENCH_STARTUP_STATS=stats)
    if trace:
        env["BENCH_STARTUP_TRACE"] = "1"
    if j["excluding"]:
        env["BENCH_LAZY_EXCLUDING"] = ",".join(j["excluding"])
    root = None
    if j["group"] == "work":
        root = tempfile.mkdtemp(prefix="bench-work-")
        cwd = os.path.join(root, "w")
        shutil.copytree(WORK, cwd)
        os.mkdir(os.path.join(root, "home"))
        env = work_env(env, os.path.join(root, "home"))
        env.update({k: v.replace("{cwd}", cwd) for k, v in j["env"].items()})
    cmd = [os.path.join(bindir, "python"), *flags] + [a.replace("{bin}", bindir)
                                                      for a in j["argv"]]
    try:
        for attempt in range(60):
            try:
                t0 = time.perf_counter()
                r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True,
                                   stdin=subprocess.DEVNULL)
                wall = time.perf_counter() - t0
                break
            except PermissionError:
                # the interpreter is being relinked (a rebuild in progress): wait for it
                time.sleep(5)
        else:
            raise RuntimeError(f"cannot run {cmd[0]}")
        stdout, stderr = r.stdout, r.stderr
        for name in j["collect"]:
            try:
                with open(os.path.join(cwd, name), "rb") as f:
                    stdout += b"\n==> " + name.encode() + b" <==\n" + f.read()
            except OSError as e:
                stdout += f"\n==> {name}: {e.strerror} <==\n".encode()
        if root is not None:
            for path in {root, os.path.realpath(root)}:
                stdout = stdout.replace(path.encode(), b"<tmp>")
                stderr = stderr.replace(path.encode(), b"<tmp>")
        for pattern, repl in j["subst"]:
            stdout = re.sub(pattern, repl, stdout)
            stderr = re.sub(pattern, repl, stderr)
        with open(stats) as f:
            lines = f.read().splitlines()
    finally:
        os.unlink(stats)
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)
    rss = mods = None
    traced = []
    for line in lines:
        if line.startswith("T "):
            _, name, where = line.split(" ", 2)
            traced.append((name, where))
        elif rss is None:
            a, b = line.split()
            rss, mods = (int(a) if a.isdigit() else None), int(b)
    return {"wall": wall, "rss_kb": rss, "modules": mods, "rc": r.returncode,
            "stdout": stdout, "stderr": stderr, "trace": traced}


def normalize(out, venv):
    # the venv path differs between interpreters; the build string in sys.version (printed
    # by e.g. pylint --version) differs between vanilla and the fork and across rebuilds
    out = out.replace(os.path.abspath(venv).encode(), b"<venv>")
    return re.sub(rb"\([^():,]*(?::[0-9a-f]+)?, [A-Z][a-z]{2} [ 0-9]{2} [0-9]{4}, [0-9:]{8}\)",
                  b"(<build>)", out)


def interp_version(venv):
    return lazytools.build_identifier(os.path.join(venv, "bin", "python"))


def build_stamps(venvs):
    """The modification time of each venv's interpreter binary: a rebuild of uncommitted
    changes keeps the revision in sys.version but relinks the binary."""
    stamps = {}
    for v in sorted(set(venvs.values())):
        try:
            stamps[v] = os.stat(os.path.realpath(os.path.join(v, "bin", "python"))).st_mtime_ns
        except OSError:
            stamps[v] = None
    return stamps


def select_jobs(group, only):
    """The floor, then the jobs of *group* ("all": both), restricted by *only*: a
    comma-separated list of job names or tools (e.g. "black,pip list")."""
    names = [n for n in only.split(",") if n] if only else []
    unknown = [n for n in names
               if n not in JOB_BY_NAME and not any(j["tool"] == n for j in JOBS)]
    if unknown:
        raise SystemExit(f"bench_startup: unknown job or tool {', '.join(unknown)}; jobs: "
                         + ", ".join(repr(j["name"]) for j in JOBS[1:]))
    groups = GROUPS if group == "all" else (group,)
    return [FLOOR] + [j for j in JOBS if j["group"] in groups
                      and (not names or j["name"] in names or j["tool"] in names)]


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def check_peer_lazy(venv):
    """Does peer-L defer a module-level import at all?  (Unknown -X options are ignored.)"""
    d = tempfile.mkdtemp(prefix="bench-peer-check-")
    try:
        with open(os.path.join(d, "bench_probe_mod.py"), "w") as f:
            f.write("import builtins\nbuiltins.bench_probe_loaded = True\n")
        with open(os.path.join(d, "main.py"), "w") as f:
            f.write("import bench_probe_mod\nimport builtins\n"
                    "print(getattr(builtins, 'bench_probe_loaded', False))\n")
        r = subprocess.run([os.path.join(venv, "bin", "python"), *FLAGS["peer-L"], "main.py"],
                           cwd=d, env=lazytools.clean_env(), capture_output=True, text=True)
        return r.returncode == 0 and r.stdout.strip() == "False", (r.stdout + r.stderr).strip()
    finally:
        shutil.rmtree(d, ignore_errors=True)


def bench(args):
    env = lazytools.clean_env(PYTHONHASHSEED="0", PIP_DISABLE_PIP_VERSION_CHECK="1",
                              NO_COLOR="1", TERM="dumb", COLUMNS="100")
    configs = list(lazytools.CONFIGS)
    venvs = {"vanilla": args.vanilla_venv, "fork": args.fork_venv, "fork-L": args.fork_venv}
    if args.peer_venv:
        configs += ["peer", "peer-L"]
        venvs.update({"peer": args.peer_venv, "peer-L": args.peer_venv})
    envs = dict.fromkeys(configs, env)
    if args.base_venv:
        configs += ["base", "base-L"]
        venvs.update({"base": args.base_venv, "base-L": args.base_venv})
        base_env = dict(env, PYTHONPYCACHEPREFIX=os.path.join(args.base_venv, "pycache"))
        envs.update({"base": base_env, "base-L": base_env})
    for v in set(venvs.values()):
        if not os.path.exists(os.path.join(v, "bin", "python")):
            raise SystemExit(f"bench_startup: no venv at {v}"
                             + (" (the peer's: make peer)" if v == args.peer_venv else ""))
        install_hook(v)
    peer_note = None
    if args.peer_venv:
        ok, out = check_peer_lazy(args.peer_venv)
        if not ok:
            peer_note = (f"WARNING: peer -X lazy_imports=all did not defer a module-level "
                         f"import (probe said {out[-200:]!r}): peer-L may be eager")
            print(peer_note, flush=True)
    jobs = select_jobs(args.group, args.only)
    cwd = tempfile.mkdtemp(prefix="bench-startup-cwd-")
    names = [j["name"] for j in jobs]
    runs = {t: {c: [] for c in configs} for t in names}
    ref = {t: {} for t in names}  # first output per config
    differs = {t: {} for t in names}
    rev = interp_version(args.fork_venv)
    stamps = build_stamps(venvs)
    peer_rev = interp_version(args.peer_venv) if args.peer_venv else None
    base_rev = interp_version(args.base_venv) if args.base_venv else None
    if args.warmup:
        # one warm-up round (page cache, .pyc files)
        for j in jobs:
            for c in configs:
                run_once(venvs[c], FLAGS[c], j, cwd, envs[c])
    print(f"bench-startup: {len(jobs)} commands x {len(configs)} configurations x {args.reps} "
          f"repetitions, interleaved (fork {rev}"
          + (f"; peer {peer_rev}" if peer_rev else "")
          + (f"; base {base_rev}" if base_rev else "") + ")", flush=True)
    for rep in range(args.reps):
        k = rep % len(configs)
        order = configs[k:] + configs[:k]
        for j in jobs:
            t = j["name"]
            for c in order:
                r = run_once(venvs[c], FLAGS[c], j, cwd, envs[c])
                runs[t][c].append(r)
                key = (r["rc"], normalize(r["stdout"], venvs[c]),
                       normalize(r["stderr"], venvs[c]))
                if c not in ref[t]:
                    ref[t][c] = key
                elif key != ref[t][c]:
                    differs[t][c] = "output varies between repetitions"
        print(f"  repetition {rep + 1}/{args.reps} done", flush=True)
    shutil.rmtree(cwd, ignore_errors=True)

    warnings = [peer_note] if peer_note else []
    rebuilt = [v for v, st in build_stamps(venvs).items() if st != stamps[v]]
    if interp_version(args.fork_venv) != rev or rebuilt:
        warnings.append("WARNING: an interpreter was rebuilt during the run (" + ", ".join(
            os.path.realpath(os.path.join(v, "bin", "python")) for v in rebuilt or
            [args.fork_venv]) + "); the results mix two builds")
    rows = []
    for j in jobs:
        t = j["name"]
        row = {"tool": t, "group": j["group"], "argv": j["argv"]}
        for c in configs:
            rs = runs[t][c]
            row[c] = {"wall_median": statistics.median(r["wall"] for r in rs),
                      "wall_min": min(r["wall"] for r in rs),
                      "rss_kb": median(r["rss_kb"] for r in rs),
                      "modules": median(r["modules"] for r in rs),
                      "rc": rs[0]["rc"]}
        row["identical_fork_L"] = ref[t]["fork"] == ref[t]["fork-L"] and not (
            {"fork", "fork-L"} & set(differs[t]))
        row["identical_vanilla_fork"] = ref[t]["vanilla"] == ref[t]["fork"]
        if not row["identical_fork_L"]:
            row["diff"] = output_diff(ref[t], "fork", "fork-L")
            row["varies"] = differs[t]
        if args.peer_venv:
            row["identical_peer_L"] = ref[t]["peer"] == ref[t]["peer-L"] and not (
                {"peer", "peer-L"} & set(differs[t]))
            row["identical_peer_fork"] = ref[t]["peer"] == ref[t]["fork"]
            row["peer_failure"] = peer_failure(row, ref[t])
            if not row["identical_peer_L"] or row["peer_failure"]:
                row["peer_diff"] = output_diff(ref[t], "peer", "peer-L")
        if args.base_venv:
            row["identical_base_L"] = ref[t]["base"] == ref[t]["base-L"] and not (
                {"base", "base-L"} & set(differs[t]))
            row["identical_base_fork"] = ref[t]["base"] == ref[t]["fork"]
        rows.append(row)
    report(rows, jobs, configs, args, rev, peer_rev, warnings, base_rev)


def peer_failure(row, ref):
    """Why the peer fails this tool (None: it does not): its exit code differs from the
    fork's, or it prints a traceback the fork does not, or the -X run's output differs."""
    why = []
    for c in ("peer", "peer-L"):
        rc, _, err = ref[c]
        if rc != ref["fork"][0]:
            why.append(f"{c} exit code {rc} (fork {ref['fork'][0]})")
        elif b"Traceback (most recent call last)" in err and b"Traceback" not in ref["fork"][2]:
            why.append(f"{c} prints a traceback")
        if row[c]["rss_kb"] is None:
            why.append(f"{c} reported no statistics")
    if not why and not row["identical_peer_L"]:
        why.append("peer-L output differs from peer")
    return "; ".join(why) or None


def output_diff(ref, a, b):
    d = {c: {"rc": ref[c][0], "stdout": ref[c][1].decode(errors="replace")[-1500:],
             "stderr": ref[c][2].decode(errors="replace")[-1500:]} for c in (a, b)}
    d["stdout_diff"] = "".join(difflib.unified_diff(
        ref[a][1].decode(errors="replace").splitlines(True),
        ref[b][1].decode(errors="replace").splitlines(True), a, b, n=1))[:3000]
    return d


def floor_distance(row, floor, eager, lazy):
    """(T_lazy - F_lazy) / (T_eager - F_eager), each the median wall of the configuration."""
    num = row[lazy]["wall_median"] - floor[lazy]["wall_median"]
    den = row[eager]["wall_median"] - floor[eager]["wall_median"]
    return num / den if den > 0 else None


def fmt(x, spec, width):
    return f"{x:{width}{spec}}" if x is not None else f"{'-':>{width}}"


def ratio(a, b):
    return a / b if a is not None and b else None


def group_table(g, rows, floor, args):
    lines = []
    hdr_groups = (f"{'':28} {'wall time, median (ms)':^33} {'floor':>6}  "
                  f"{'peak RSS, median (MB)':^32}  {'modules':^14}")
    hdr = (f"{'command':28} {'vanilla':>8} {'fork':>7} {'fork-L':>7} {'-L/fork':>8} {'dist':>6}  "
           f"{'vanilla':>7} {'fork':>7} {'fork-L':>7} {'-L/fork':>8}  {'fork':>7} {'fork-L':>6}  "
           f"same")
    lines += [hdr_groups, hdr, "-" * len(hdr)]
    wall_r, rss_r, dist_r, fork_wall_r, nodist = [], [], [], [], []
    for row in [floor] + rows:
        v, f, l = row["vanilla"], row["fork"], row["fork-L"]
        wr = l["wall_median"] / f["wall_median"]
        rr = ratio(l["rss_kb"], f["rss_kb"])
        dist = None if row is floor else floor_distance(row, floor, "fork", "fork-L")
        row["floor_distance_fork"] = dist
        same = "yes" if row["identical_fork_L"] else "NO"
        if not row["identical_vanilla_fork"]:
            same += " (vanilla differs)"
        mb = lambda r: r["rss_kb"] / 1024 if r["rss_kb"] is not None else None  # noqa: E731
        lines.append(f"{row['tool']:28} {v['wall_median'] * 1e3:8.1f} "
                     f"{f['wall_median'] * 1e3:7.1f} {l['wall_median'] * 1e3:7.1f} {wr:8.2f} "
                     f"{fmt(dist, '.2f', 6)}  {fmt(mb(v), '.1f', 7)} {fmt(mb(f), '.1f', 7)} "
                     f"{fmt(mb(l), '.1f', 7)} {fmt(rr, '.2f', 8)}  "
                     f"{fmt(f['modules'], '.0f', 7)} {fmt(l['modules'], '.0f', 6)}  {same}")
        if row is floor:
            continue
        fork_wall_r.append(f["wall_median"] / v["wall_median"])
        if row["identical_fork_L"]:
            wall_r.append(wr)
            if rr is not None:
                rss_r.append(rr)
            if dist is not None and dist > 0:
                dist_r.append(dist)
            else:
                nodist.append(row["tool"])
    gw, gr, gd = (lazytools.geomean(wall_r), lazytools.geomean(rss_r),
                  lazytools.geomean(dist_r))
    gv = lazytools.geomean(fork_wall_r)
    lines.append("")
    lines.append(f"geomean over the {len(wall_r)} {g} commands whose output is unchanged "
                 f"(floor excluded):")
    lines.append(f"  wall  fork-L/fork {gw:.3f} ({(1 - gw) * 100:.1f}% lower; target >= 50%)")
    lines.append(f"  RSS   fork-L/fork {gr:.3f} ({(1 - gr) * 100:.1f}% lower; target >= 30%)")
    lines.append(f"  distance to the floor, fork -L {gd:.3f}"
                 + (f" (left out, not above the floor: {', '.join(nodist)})" if nodist else ""))
    lines.append(f"  wall  fork/vanilla {gv:.3f} (all commands)")
    return lines, {"commands": len(wall_r), "wall_fork_L_over_fork": gw,
                   "rss_fork_L_over_fork": gr, "floor_distance_fork_L": gd,
                   "wall_fork_over_vanilla": gv}


def peer_table(g, rows, floor):
    lines = []
    hdr = (f"{'command':28} {'fork':>7} {'fork-L':>7} {'peer':>7} {'peer-L':>7}  "
           f"{'-L/fork':>7} {'pL/peer':>7}  {'-L/fork':>7} {'pL/peer':>7}  "
           f"{'fork-L':>6} {'peer-L':>6}  {'fork':>5} {'fork-L':>6} {'peer':>5} {'peer-L':>6}  "
           f"peer")
    lines += [f"{'':28} {'wall time, median (ms)':^31}  {'wall ratio':^15}  {'RSS ratio':^15}  "
              f"{'floor dist':^13}  {'modules':^26}", hdr, "-" * len(hdr)]
    wall_r, rss_r, dist_r, failed = [], [], [], []
    for row in [floor] + rows:
        f, l, p, pl = row["fork"], row["fork-L"], row["peer"], row["peer-L"]
        pwr = pl["wall_median"] / p["wall_median"]
        prr = ratio(pl["rss_kb"], p["rss_kb"])
        pdist = None if row is floor else floor_distance(row, floor, "peer", "peer-L")
        row["floor_distance_peer"] = pdist
        status = "FAILS" if row["peer_failure"] else "ok"
        if row["peer_failure"] is None and not row["identical_peer_fork"]:
            status += " (output differs from fork)"
        lines.append(
            f"{row['tool']:28} {f['wall_median'] * 1e3:7.1f} {l['wall_median'] * 1e3:7.1f} "
            f"{p['wall_median'] * 1e3:7.1f} {pl['wall_median'] * 1e3:7.1f}  "
            f"{l['wall_median'] / f['wall_median']:7.2f} {pwr:7.2f}  "
            f"{fmt(ratio(l['rss_kb'], f['rss_kb']), '.2f', 7)} {fmt(prr, '.2f', 7)}  "
            f"{fmt(row.get('floor_distance_fork'), '.2f', 6)} {fmt(pdist, '.2f', 6)}  "
            f"{fmt(f['modules'], '.0f', 5)} {fmt(l['modules'], '.0f', 6)} "
            f"{fmt(p['modules'], '.0f', 5)} {fmt(pl['modules'], '.0f', 6)}  {status}")
        if row is floor:
            continue
        if row["peer_failure"]:
            failed.append(row["tool"])
            continue
        wall_r.append(pwr)
        if prr is not None:
            rss_r.append(prr)
        if pdist is not None and pdist > 0:
            dist_r.append(pdist)
    gw, gr, gd = (lazytools.geomean(wall_r), lazytools.geomean(rss_r),
                  lazytools.geomean(dist_r))
    lines.append("")
    lines.append(f"peer geomean over the {len(wall_r)} {g} commands it runs"
                 + (f" (left out, failing on the peer: {', '.join(failed)})" if failed else "")
                 + ":")
    lines.append(f"  wall peer-L/peer {gw:.3f}   RSS peer-L/peer {gr:.3f}   "
                 f"distance to the floor, peer-L {gd:.3f}")
    return lines, {"commands": len(wall_r), "failing": failed, "wall_peer_L_over_peer": gw,
                   "rss_peer_L_over_peer": gr, "floor_distance_peer_L": gd}


def base_table(g, rows, floor):
    """fork -L beside base -L (an earlier build of the fork), each over its own eager run."""
    hdr = (f"{'command':28} {'fork':>7} {'fork-L':>7} {'base':>7} {'base-L':>7}  "
           f"{'-L/fork':>7} {'bL/base':>7}  {'-L/fork':>7} {'bL/base':>7}  "
           f"{'fork-L':>6} {'base-L':>6}  {'fork-L':>6} {'base-L':>6}  same")
    lines = [f"{'':28} {'wall time, median (ms)':^31}  {'wall ratio':^15}  {'RSS ratio':^15}  "
             f"{'floor dist':^13}  {'modules':^13}", hdr, "-" * len(hdr)]
    fork_r, base_r, fd_r, bd_r, both = [], [], [], [], []
    for row in [floor] + rows:
        f, l, b, bl = row["fork"], row["fork-L"], row["base"], row["base-L"]
        fwr = l["wall_median"] / f["wall_median"]
        bwr = bl["wall_median"] / b["wall_median"]
        bdist = None if row is floor else floor_distance(row, floor, "base", "base-L")
        fdist = row.get("floor_distance_fork")
        ok = (row["identical_fork_L"] and row["identical_base_L"]
              and row["identical_base_fork"])
        same = ("yes" if ok else "base differs from fork" if not row["identical_base_fork"]
                else "fork-L differs" if row["identical_base_L"]
                else "base-L differs" if row["identical_fork_L"] else "both differ")
        lines.append(
            f"{row['tool']:28} {f['wall_median'] * 1e3:7.1f} {l['wall_median'] * 1e3:7.1f} "
            f"{b['wall_median'] * 1e3:7.1f} {bl['wall_median'] * 1e3:7.1f}  "
            f"{fwr:7.2f} {bwr:7.2f}  "
            f"{fmt(ratio(l['rss_kb'], f['rss_kb']), '.2f', 7)} "
            f"{fmt(ratio(bl['rss_kb'], b['rss_kb']), '.2f', 7)}  "
            f"{fmt(fdist, '.2f', 6)} {fmt(bdist, '.2f', 6)}  "
            f"{fmt(l['modules'], '.0f', 6)} {fmt(bl['modules'], '.0f', 6)}  {same}")
        if row is floor or not ok:
            continue
        both.append(row["tool"])
        fork_r.append(fwr)
        base_r.append(bwr)
        if fdist is not None and fdist > 0 and bdist is not None and bdist > 0:
            fd_r.append(fdist)
            bd_r.append(bdist)
    gf, gb = lazytools.geomean(fork_r), lazytools.geomean(base_r)
    lines.append("")
    lines.append(f"geomean over the {len(both)} {g} commands whose output both builds keep:")
    lines.append(f"  wall  fork-L/fork {gf:.3f}   base-L/base {gb:.3f}")
    lines.append(f"  distance to the floor, fork -L {lazytools.geomean(fd_r):.3f}   "
                 f"base -L {lazytools.geomean(bd_r):.3f} (over {len(fd_r)})")
    return lines, {"commands": len(both), "wall_fork_L_over_fork": gf,
                   "wall_base_L_over_base": gb,
                   "floor_distance_fork_L": lazytools.geomean(fd_r),
                   "floor_distance_base_L": lazytools.geomean(bd_r)}


def report(rows, jobs, configs, args, rev, peer_rev, warnings, base_rev=None):
    floor = rows[0]
    lines = [f"fork {rev}" + (f"; peer {peer_rev}" if peer_rev else "")
             + (f"; base {base_rev}" if base_rev else "")
             + f"; {args.reps} repetitions",
             "dist: distance to the floor, (T_L - F_L) / (T_eager - F_eager), F = the median of "
             "`-c pass` in the same configuration"]
    summary = {}
    for g in GROUPS:
        grows = [r for r in rows[1:] if r["group"] == g]
        if not grows:
            continue
        title = {"version": "version group: --version-style commands (start-up)",
                 "work": "work group: one small real job per tool (bench/startup/work)"}[g]
        lines += ["", f"== {title}", ""]
        t, summary[g] = group_table(g, grows, floor, args)
        lines += t
        if args.peer_venv:
            lines += ["", f"-- {g} group, the peer: CPython 3.15 eager (peer) and "
                      "-X lazy_imports=all (peer-L), beside fork and fork -L", ""]
            t, summary[g]["peer"] = peer_table(g, grows, floor)
            lines += t
        if args.base_venv:
            lines += ["", f"-- {g} group, the base: an earlier build of the fork ({base_rev}), "
                      "eager (base) and -L (base-L), beside fork and fork -L", ""]
            t, summary[g]["base"] = base_table(g, grows, floor)
            lines += t
    adopted = [j for j in jobs if j["excluding"]]
    if adopted:
        lines.append("")
        lines.append("run with the setting a maintainer adopting -L would make (lazy runs only):")
        for j in adopted:
            lines.append(f"  {j['name']}: excluding={j['excluding']}")
    for row in rows:
        if not row["identical_fork_L"]:
            lines.append(f"\noutput differs between fork and fork -L: {row['tool']}"
                         + (f" ({'; '.join(f'{c}: {w}' for c, w in row['varies'].items())})"
                            if row.get("varies") else ""))
            lines += diff_lines(row["diff"], "fork", "fork-L")
    for row in rows:
        if row.get("peer_failure"):
            lines.append(f"\nfails on the peer: {row['tool']}: {row['peer_failure']}")
            lines += diff_lines(row["peer_diff"], "peer", "peer-L")
    lines += [""] + warnings if warnings else []
    text = "\n".join(lines)
    print(text)
    lazytools.write_report(args.out, "startup", text,
                           {"fork_version": rev, "peer_version": peer_rev,
                            "base_version": base_rev, "reps": args.reps,
                            "configs": configs, "group": args.group, "rows": rows,
                            "groups": summary, "warnings": warnings})


def diff_lines(d, a, b):
    out = []
    for c in (a, b):
        out.append(f"  [{c}] rc={d[c]['rc']} stderr tail: {d[c]['stderr'][-600:]!r}")
    if d["stdout_diff"]:
        diff = d["stdout_diff"].splitlines()
        out.append("  stdout diff:")
        out += ["    " + s[:160] for s in diff[:25]]
        if len(diff) > 25:
            out.append(f"    ... {len(diff) - 25} more lines")
    return out


def explain(args):
    """Which modules does -L still import for a command, and which line forced each one."""
    install_hook(args.fork_venv)
    j = JOB_BY_NAME.get(args.explain)
    if j is None:
        group = "version" if args.group == "all" else args.group
        matches = [j for j in JOBS if j["tool"] == args.explain and j["group"] == group]
        if not matches:
            raise SystemExit(f"bench_startup: no job {args.explain!r}; jobs: "
                             + ", ".join(repr(j["name"]) for j in JOBS[1:]))
        j = matches[0]
    cwd = tempfile.mkdtemp(prefix="bench-startup-cwd-")
    env = lazytools.clean_env(PYTHONHASHSEED="0", NO_COLOR="1", TERM="dumb", COLUMNS="100")
    eager = run_once(args.fork_venv, [], j, cwd, env, trace=True)
    lazy = run_once(args.fork_venv, ["-L"], j, cwd, env, trace=True)
    shutil.rmtree(cwd, ignore_errors=True)
    print(f"{j['name']}: {eager['modules']} modules by fork, {lazy['modules']} by fork -L")
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
    ap.add_argument("--peer-venv", help="also run CPython 3.15 from this venv, eager (peer) "
                    "and with -X lazy_imports=all (peer-L)")
    ap.add_argument("--base-python", help="also run this earlier build of the fork, eager "
                    "(base) and with -L (base-L), from OUT/venv-base")
    ap.add_argument("--group", choices=("all",) + GROUPS, default="all",
                    help="which group of commands to run (the floor always runs)")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--no-warmup", dest="warmup", action="store_false",
                    help="skip the warm-up round (for iteration only)")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--only", default="", help="comma-separated job names or tools")
    ap.add_argument("--explain", help="trace what -L imports for this job (name or tool)")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    args.fork_venv = os.path.abspath(args.fork_venv)
    for a in ("vanilla_venv", "peer_venv"):
        if getattr(args, a):
            setattr(args, a, os.path.abspath(getattr(args, a)))
    args.base_venv = None
    if args.base_python and not args.explain:
        args.base_venv = os.path.abspath(os.path.join(args.out, "venv-base"))
        lazytools.make_base_venv(args.base_python, args.fork_venv, args.base_venv)
    if args.explain:
        explain(args)
    else:
        if not args.vanilla_venv:
            ap.error("--vanilla-venv is required (except with --explain)")
        bench(args)


if __name__ == "__main__":
    main()

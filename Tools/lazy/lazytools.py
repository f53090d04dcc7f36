"""What the Python drivers of Tools/lazy share.

The drivers (demo.py, regrtest_report.py, thirdparty.py, bench_*.py) run
from the repository's checkout with any Python 3.11 or later and import
this module from their own directory.  It holds

* the three configurations every driver compares, named alike everywhere:
  ``vanilla`` (unpatched CPython 3.13.5), ``fork`` (the patched interpreter
  without -L) and ``fork -L`` (the patched interpreter with -L); file
  names, JSON keys and option values write the last one ``fork-L``;
* where the interpreters are: build/vanilla/python and build/fork/python
  (the fork's build directory is build/fork);
* the environment the runs get: the caller's without the variables of
  clean-env.txt, which lib.sh's clean_env removes for the shell drivers;
* the benchmark reports: a geometric mean, and OUT/BASE.txt + .json.
"""

import json
import math
import os
import shutil
import subprocess

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(TOOLS))
BUILD = os.path.join(ROOT, "build")

CONFIGS = ("vanilla", "fork", "fork-L")
LABELS = {"vanilla": "vanilla", "fork": "fork", "fork-L": "fork -L"}
FLAGS = {"vanilla": (), "fork": (), "fork-L": ("-L",)}

VANILLA_PYTHON = os.path.join(BUILD, "vanilla", "python")
FORK_PYTHON = os.path.join(BUILD, "fork", "python")


def command(config, vanilla=VANILLA_PYTHON, fork=FORK_PYTHON):
    """The command line that runs Python in *config*: [python, *flags]."""
    python = vanilla if config == "vanilla" else fork
    return [os.path.abspath(python), *FLAGS[config]]


def _clean_env_names():
    names = []
    with open(os.path.join(TOOLS, "clean-env.txt"), encoding="utf-8") as f:
        for line in f:
            names += line.partition("#")[0].split()
    return tuple(names)


CLEAN_ENV = _clean_env_names()


def clean_env(base=None, **extra):
    """A copy of *base* (os.environ) without CLEAN_ENV, updated with *extra*."""
    env = dict(os.environ if base is None else base)
    for name in CLEAN_ENV:
        env.pop(name, None)
    env.update(extra)
    return env


def build_identifier(python):
    """The build named in sys.version of *python*: lazy-cpython:<revision>
    for a build of the fork, CPython's own string for vanilla."""
    code = "import sys; print(sys.version.split()[1].strip('(),'))"
    return subprocess.run([python, "-c", code], env=clean_env(),
                          capture_output=True, text=True).stdout.strip()


def geomean(xs):
    xs = list(xs)
    if not xs:
        return float("nan")
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def write_report(out, base, text, data):
    """Write OUT/BASE.txt (the table printed) and OUT/BASE.json (the data)."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, base + ".txt"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    with open(os.path.join(out, base + ".json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    print(f"results: {out}/{base}.txt, {base}.json")


def make_base_venv(base_python, fork_venv, venv):
    """A venv of *base_python* (an earlier build of the fork) that runs what the
    fork venv *fork_venv* has installed: its site-packages is a symbolic link to
    the fork venv's, and its bin/ links each script of the fork venv's bin/ that
    it lacks (a script is run as "VENV/bin/python VENV/bin/SCRIPT").  Kept
    while *base_python* is the same."""
    marker = os.path.join(venv, ".lazy-base")
    base_python = os.path.abspath(base_python)
    if os.path.exists(marker):
        with open(marker, encoding="utf-8") as f:
            if f.read().strip() == base_python:
                return
    if os.path.exists(venv):
        shutil.rmtree(venv)
    subprocess.run([base_python, "-m", "venv", "--without-pip", venv],
                   check=True, env=clean_env())
    version = subprocess.run(
        [os.path.join(venv, "bin", "python"), "-c",
         "import sys; print('python%d.%d' % sys.version_info[:2])"],
        check=True, capture_output=True, text=True, env=clean_env()).stdout.strip()
    site = os.path.join(venv, "lib", version, "site-packages")
    shutil.rmtree(site)
    os.symlink(os.path.join(os.path.abspath(fork_venv), "lib", version, "site-packages"),
               site)
    fork_bin = os.path.join(os.path.abspath(fork_venv), "bin")
    for name in os.listdir(fork_bin):
        dest = os.path.join(venv, "bin", name)
        if not os.path.lexists(dest):
            os.symlink(os.path.join(fork_bin, name), dest)
    with open(marker, "w", encoding="utf-8") as f:
        f.write(base_python + "\n")

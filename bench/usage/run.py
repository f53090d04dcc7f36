"""Common uses of popular packages, eagerly and under -L.

The API probe of the ecosystem corpus (Tools/lazy/ecosystem.py) imports
each package and reads its public names; it never calls them.  These
programs (use_NAME.py) do what a user does (print a DataFrame, open an
image, store a password, ...), each in a fresh process, eagerly, with -L, and with
-L -X lazy_imports_defaults=0, and compare the output: stdout, the exit
status, and whether stderr holds a traceback or an "Exception ignored".

    python bench/usage/run.py --python VENV/bin/python [NAME ...]

The interpreter must have the packages installed (a venv of the fork with
the top PyPI packages: Tools/lazy/ecosystem.py makes one).  What each
program shows is in bench/usage/README.rst.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = {
    "eager": [],
    "-L": ["-L"],
    "-L, defaults off": ["-L", "-X", "lazy_imports_defaults=0"],
}


def run(python, flags, path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONHASHSEED="0", MPLBACKEND="Agg")
    with tempfile.TemporaryDirectory() as cwd:
        try:
            proc = subprocess.run([python, *flags, path], cwd=cwd, env=env,
                                  stdin=subprocess.DEVNULL, timeout=120,
                                  capture_output=True, text=True)
        except subprocess.TimeoutExpired:
            return ("timeout", "", "")
    failed = ("Traceback (most recent call last)" in proc.stderr
              or "Exception ignored" in proc.stderr)
    last = proc.stderr.strip().splitlines()[-1:] if failed else []
    return (proc.returncode, proc.stdout, failed, last)


def show(result):
    return result[3][0][:100] if result[3] else ""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    names = args.names or sorted(f[4:-3] for f in os.listdir(HERE)
                                 if f.startswith("use_") and f.endswith(".py"))
    differing = 0
    for name in names:
        path = os.path.join(HERE, f"use_{name}.py")
        results = {mode: run(args.python, flags, path)
                   for mode, flags in MODES.items()}
        eager = results["eager"]
        verdicts = []
        for mode in list(MODES)[1:]:
            same = results[mode] == eager
            verdicts.append(f"{mode}: {'same' if same else 'DIFFERS'}")
            if mode == "-L" and not same:
                differing += 1
        print(f"{name:12} " + "; ".join(verdicts))
        for mode, result in results.items():
            if result[3]:
                print(f"{'':12}   {mode}: {show(result)}")
    print(f"{len(names)} programs, {differing} differ under -L")
    return 0


if __name__ == "__main__":
    sys.exit(main())

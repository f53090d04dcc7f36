"""Thread stress of lazy import resolution (contract rule 27), run by the fork.

    python -L Tools/lazy/stress_driver.py --kind KIND --trials N [options]

Each trial writes a fresh module tree (module names carry the trial number,
so nothing is shared with earlier trials) into a temporary directory, imports
its ``main`` module, whose module-level imports are lazy, and starts THREADS
threads that wait on a barrier and then all read the lazy names of KIND at
once (in a random order per thread).  Module bodies are slow (time.sleep, a
nested lazy import resolved inside the body) and log their execution in a
list kept in builtins.  After the threads end the trial checks:

* no thread is still alive (a deadlock: faulthandler dumps every thread's
  stack and the process exits 1; the time limit per trial is --timeout);
* every module body ran once (a module that fails and is retried: once per
  failure plus once);
* every thread got the same object for a name, the object eager code would
  get (looked up in sys.modules), never a lazy object (type name, repr);
  resolved names are no longer lazy in the namespace, package dicts hold
  no lazy object (lazy objects among gc.get_referrers() of the results are
  counted in the summary: resolved ones cache their value, they are inert);
* names that cannot be imported raise the expected exception, every time;
  names that fail a few times and are retried succeed afterwards;
* afterwards no resolved name is still lazy and sys.modules is consistent.

The last line of output is a JSON summary: {"trials": ..., "failures": [...],
"failed_trials": ...}.  Exit status 0 when no trial failed, 1 otherwise.
"""

import argparse
import builtins
import faulthandler
import gc
import importlib
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import traceback

LAZY_TYPE = "lazy_import"

# Module tree of trial P (a prefix such as "s12_").  {sleep} is the body's
# sleep in seconds, {fail} how many times the flaky module fails.
TREE = {
    "{p}a/__init__.py": """\
_stress_log.append(__name__)
import time
time.sleep({sleep})
VALUE = object()
""",
    "{p}a/b/__init__.py": """\
_stress_log.append(__name__)
__import__("time").sleep({sleep})
""",
    "{p}a/b/c.py": """\
_stress_log.append(__name__)
import {p}leaf
__import__("time").sleep({sleep})
X = ({p}leaf.Y, object())
""",
    "{p}a/slow.py": """\
_stress_log.append(__name__)
import {p}a.b.c as inner
__import__("time").sleep({sleep})
value = (inner.X, object())
""",
    "{p}a/flaky.py": """\
_stress_log.append(__name__)
__import__("time").sleep({sleep})
_stress_flaky[__name__] = _stress_flaky.get(__name__, 0) + 1
if _stress_flaky[__name__] <= {fail}:
    raise RuntimeError("stress flaky failure")
OK = object()
""",
    "{p}leaf.py": """\
_stress_log.append(__name__)
__import__("time").sleep({sleep})
Y = object()
""",
    "{p}slow.py": """\
_stress_log.append(__name__)
import time
time.sleep({sleep})
value = object()
""",
    "{p}main.py": """\
_stress_log.append(__name__)
import {p}slow
import {p}a.b.c
import {p}a.slow
import {p}a.flaky
import {p}a.b.c as abc_alias
from {p}a import b
from {p}a.b import c
from {p}a import VALUE
from {p}a import flaky as flaky_from
import {p}missing
from {p}a import no_such_name
from {p}missing_pkg import anything

def get_slow():
    return {p}slow.value

def get_abc():
    return {p}a.b.c.X

def get_a_slow():
    return {p}a.slow.value

def get_flaky():
    return {p}a.flaky.OK

def get_alias():
    return abc_alias.X

def get_b():
    return b

def get_c():
    return c

def get_value():
    return VALUE

def get_flaky_from():
    return flaky_from.OK

def get_missing():
    return {p}missing

def get_no_such_name():
    return no_such_name

def get_missing_pkg():
    return anything
""",
}

# accessor -> (how to get it, expected value from sys.modules, error)
# "how": a function name of main, or "attr:NAME" for getattr(main, NAME)
# from this module.  error: None (must succeed), "retry" (fails with
# RuntimeError a few times, then succeeds), or the exception type it must
# always raise.
ACCESSORS = {
    "slow": ("get_slow", lambda m, p: m[p + "slow"].value, None),
    "abc": ("get_abc", lambda m, p: m[p + "a.b.c"].X, None),
    "a_slow": ("get_a_slow", lambda m, p: m[p + "a.slow"].value, None),
    "alias": ("get_alias", lambda m, p: m[p + "a.b.c"].X, None),
    "from_b": ("get_b", lambda m, p: m[p + "a.b"], None),
    "from_c": ("get_c", lambda m, p: m[p + "a.b.c"], None),
    "from_value": ("get_value", lambda m, p: m[p + "a"].VALUE, None),
    "attr_b": ("attr:b", lambda m, p: m[p + "a.b"], None),
    "attr_a": ("attr:{p}a", lambda m, p: m[p + "a"], None),
    "flaky": ("get_flaky", lambda m, p: m[p + "a.flaky"].OK, "retry"),
    "flaky_from": ("get_flaky_from", lambda m, p: m[p + "a.flaky"].OK,
                   "retry"),
    "missing": ("get_missing", None, ModuleNotFoundError),
    "no_such_name": ("get_no_such_name", None, ImportError),
    "missing_pkg": ("get_missing_pkg", None, ModuleNotFoundError),
}

KINDS = {
    # one lazy name, every thread
    "same-module": ["slow"],
    "same-submodule": ["a_slow"],          # import pkg.slow; pkg.slow.value
    "same-dotted": ["abc"],
    "same-from": ["from_b"],
    # failing names, retried by every thread
    "failing": ["missing", "no_such_name", "missing_pkg"],
    "retry": ["flaky", "flaky_from"],
    # everything, each thread in its own order
    "mixed": list(ACCESSORS),
    "mixed-no-submodule": [a for a in ACCESSORS if a != "a_slow"],
}

MAX_RETRIES = 50

#: Lazy objects found among gc.get_referrers() of results (informative).
RETAINED = [0]


class TrialFailure(Exception):
    pass


def write_tree(root, prefix, sleep, fail):
    for relative, text in TREE.items():
        path = os.path.join(root, relative.format(p=prefix))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text.format(p=prefix, sleep=sleep, fail=fail))


def describe(exc):
    return f"{type(exc).__name__}: {exc}"


def is_lazy_object(obj):
    # No repr() here: the repr of a namespace would resolve its lazy names.
    return type(obj).__name__ == LAZY_TYPE


def run_trial(root, number, kind, threads, rng):
    prefix = f"s{number}_"
    sleep = rng.choice([0, 0.0005, 0.002, 0.01])
    fail = rng.choice([1, 2, 3])
    write_tree(root, prefix, sleep, fail)
    importlib.invalidate_caches()
    if rng.random() < 0.5:
        sys.setswitchinterval(rng.choice([1e-6, 1e-5, 1e-4]))
    else:
        sys.setswitchinterval(0.005)
    builtins._stress_log = log = []
    builtins._stress_flaky = {}
    main = importlib.import_module(prefix + "main")
    accessors = KINDS[kind]
    for name in accessors:
        how = ACCESSORS[name][0]
        if how.startswith("attr:"):
            key = how[5:].format(p=prefix)
            if not importlib.is_lazy_import(vars(main), key):
                raise TrialFailure(f"{key} is not lazy before the threads")
    barrier = threading.Barrier(threads)
    results = [dict() for _ in range(threads)]
    errors = [dict() for _ in range(threads)]

    def get(name):
        how = ACCESSORS[name][0]
        if how.startswith("attr:"):
            return getattr(main, how[5:].format(p=prefix))
        return getattr(main, how)()

    def worker(index):
        order = list(accessors)
        random.Random(number * 1000 + index).shuffle(order)
        barrier.wait()
        for name in order:
            expected_error = ACCESSORS[name][2]
            attempts = MAX_RETRIES if expected_error == "retry" else 3
            for _ in range(attempts):
                try:
                    value = get(name)
                except BaseException as exc:
                    errors[index].setdefault(name, []).append(exc)
                    if expected_error is None:
                        break
                else:
                    results[index][name] = value
                    break

    workers = [threading.Thread(target=worker, args=(i,), daemon=True)
               for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()

    problems = []
    modules = sys.modules
    for name in accessors:
        _, expect, expected_error = ACCESSORS[name]
        for index in range(threads):
            excs = errors[index].get(name, [])
            got = name in results[index]
            if expected_error is None:
                if excs or not got:
                    problems.append(f"{name}: thread {index} failed: "
                                    + "; ".join(map(describe, excs)))
            elif expected_error == "retry":
                bad = [e for e in excs if not (
                    type(e) is RuntimeError
                    and str(e) == "stress flaky failure")]
                if bad or not got:
                    problems.append(f"{name}: thread {index}: "
                                    + "; ".join(map(describe, excs))
                                    + ("" if got else " (never succeeded)"))
            else:
                if got:
                    problems.append(f"{name}: thread {index} got "
                                    f"{results[index][name]!r}, expected "
                                    f"{expected_error.__name__}")
                bad = [e for e in excs if not (
                    isinstance(e, expected_error) and e.__notes__)]
                if bad:
                    problems.append(f"{name}: thread {index}: unexpected "
                                    + "; ".join(map(describe, bad)))
        if expect is None:
            continue
        try:
            want = expect(modules, prefix)
        except BaseException as exc:
            problems.append(f"{name}: expected value unavailable: "
                            f"{describe(exc)}")
            continue
        values = [r[name] for r in results if name in r]
        for value in values:
            if value is not want:
                problems.append(f"{name}: a thread got {value!r}, eager code "
                                f"would get {want!r}")
                break
        for value in [want] + values[:1]:
            if is_lazy_object(value) or "lazy_import" in repr(value):
                problems.append(f"{name}: lazy object leaked: {value!r}")
            # A lazy object may refer to the result: a resolved one caches
            # its value (a package may hold a resolved reference).  It
            # is inert; count it, but a namespace must not hold it.
            for ref in gc.get_referrers(value):
                if is_lazy_object(ref):
                    RETAINED[0] += 1

    # Module bodies: once each (the flaky module once per failure, + 1).
    counts = {}
    for name in log:
        counts[name] = counts.get(name, 0) + 1
    flaky = prefix + "a.flaky"
    for name, count in counts.items():
        if name == flaky:
            if count != fail + 1:
                problems.append(f"{name}: body ran {count} times, expected "
                                f"{fail} failures + 1")
        elif count != 1:
            problems.append(f"{name}: body ran {count} times")
    # State afterwards: resolved names are not lazy, failed ones still are.
    ns = vars(main)
    failing = {"missing": prefix + "missing", "no_such_name": "no_such_name",
               "missing_pkg": "anything"}
    for accessor, key in failing.items():
        if accessor in accessors and not importlib.is_lazy_import(ns, key):
            problems.append(f"{key}: a failed name is no longer lazy")
    resolved = {"get_b": "b", "get_c": "c", "get_value": "VALUE",
                "get_alias": "abc_alias", "get_slow": prefix + "slow"}
    for name in accessors:
        key = resolved.get(ACCESSORS[name][0])
        if key and importlib.is_lazy_import(ns, key):
            problems.append(f"{key}: still lazy after every thread used it")
    for name in (prefix + "missing", prefix + "missing_pkg"):
        if name in modules:
            problems.append(f"{name} is in sys.modules")
    package = modules.get(prefix + "a")
    if package is not None:
        namespace = vars(package)
        for key in list(namespace):
            # A submodule bound lazily in its package (contract rule 49)
            # stays so until it is used: reading it would import it.
            if importlib.is_lazy_import(namespace, key):
                continue
            if is_lazy_object(namespace.get(key)):
                problems.append(f"{prefix}a.{key} is a lazy object")
        for sub in ("b", "slow", "flaky"):
            full = f"{prefix}a.{sub}"
            if full in modules and getattr(package, sub, None) is not modules[full]:
                problems.append(f"{prefix}a.{sub} is not sys.modules[{full!r}]")
    # Forget the trial.
    for name in [n for n in modules if n.startswith(prefix)]:
        del modules[name]
    del main, results, errors
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=sorted(KINDS), default="mixed")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds a trial may take before it counts "
                             "as a deadlock")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop starting new trials after this long")
    args = parser.parse_args()
    if not importlib.is_lazy_imports_enabled():
        sys.exit("stress_driver: run it with python -L")
    rng = random.Random(args.seed)
    root = tempfile.mkdtemp(prefix="lazy_stress_")
    sys.path.insert(0, root)
    failures = []
    failed = 0
    done = 0
    start = time.monotonic()
    try:
        for number in range(args.trials):
            if (args.max_seconds is not None
                    and time.monotonic() - start > args.max_seconds):
                break
            faulthandler.dump_traceback_later(args.timeout, exit=True)
            try:
                problems = run_trial(root, number, args.kind, args.threads,
                                     rng)
            except BaseException as exc:
                problems = ["trial crashed: " + "".join(
                    traceback.format_exception(exc))]
            faulthandler.cancel_dump_traceback_later()
            done += 1
            if problems:
                failed += 1
                if len(failures) < 20:
                    failures.append({"trial": number,
                                     "problems": sorted(set(problems))})
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({"kind": args.kind, "trials": done,
                      "failed_trials": failed, "failures": failures,
                      "lazy_referrers_of_results": RETAINED[0],
                      "seconds": round(time.monotonic() - start, 2)}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

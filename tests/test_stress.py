"""Rule 27 under load: many threads resolving lazy imports at once.

Each test runs Tools/lazy/stress_driver.py in a child ``python -L`` for one
kind of access (one name from every thread, ``import a.b.c``, ``import
pkg.slow``, ``from a import b``, names that always fail, a module that fails
a few times and is retried, everything mixed).  The driver runs many trials,
each on a fresh module tree with slow module bodies, and checks that no
thread deadlocks, no module body runs twice, every thread gets the object
eager code would bind and never a lazy object; see its docstring.

Environment variables (besides those of conftest.py):

LAZY_STRESS_TRIALS
    Trials per kind (default 10: the whole file runs in well under a minute).
LAZY_STRESS_THREADS
    Threads per trial (default 8).
LAZY_STRESS_SECONDS
    Stop starting trials of a kind after this many seconds (default: none).
LAZY_STRESS_SEED
    Seed of the trials' random choices (default 0).

``make stress`` runs this file with many more trials.
"""

import json
import os
from pathlib import Path

import pytest

from conftest import TIMEOUT

DRIVER = Path(__file__).resolve().parent.parent / "Tools/lazy/stress_driver.py"

TRIALS = int(os.environ.get("LAZY_STRESS_TRIALS", "10"))
THREADS = int(os.environ.get("LAZY_STRESS_THREADS", "8"))
SECONDS = os.environ.get("LAZY_STRESS_SECONDS")
SEED = int(os.environ.get("LAZY_STRESS_SEED", "0"))

KINDS = ["same-module", "same-submodule", "same-dotted", "same-from",
         "failing", "retry", "mixed-no-submodule", "mixed"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_r27_thread_stress(interpreter, tmp_path, kind):
    args = [DRIVER, "--kind", kind, "--trials", TRIALS, "--threads", THREADS,
            "--seed", SEED, "--timeout", TIMEOUT]
    limit = TIMEOUT
    if SECONDS:
        args += ["--max-seconds", SECONDS]
        limit += float(SECONDS)
    else:
        limit += TRIALS * 5
    result = interpreter.run(*args, cwd=tmp_path, lazy=True, timeout=limit)
    assert result.lines, f"no summary (deadlock or crash?)\n{result.report()}"
    try:
        summary = json.loads(result.lines[-1])
    except ValueError:
        pytest.fail(f"no summary (deadlock or crash?)\n{result.report()}")
    failures = "\n".join([
        f"trial {f['trial']}: {problem}"
        for f in summary["failures"] for problem in f["problems"]][:12])
    print(json.dumps({key: value for key, value in summary.items()
                      if key != "failures"}))
    assert summary["trials"] > 0, result.report()
    assert summary["failed_trials"] == 0, (
        f"{summary['failed_trials']} of {summary['trials']} trials failed "
        f"({THREADS} threads, seed {SEED}), first ones:\n{failures}")
    assert result.returncode == 0 and not result.stderr, result.report()

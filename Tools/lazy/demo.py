"""Compare a command line application run with eager and with lazy imports.

Usage: demo.py [--fork PYTHON] [--vanilla PYTHON] [--runs N]

The application is logtool (bench/demo/logtool), which imports a broad
part of the standard library at the top of its modules, as real tools
do, while its ``summary`` command needs only a few of those modules.  The
demo runs ``python -m logtool summary data/access.log`` in bench/demo:

    fork     the patched interpreter (build/fork/python), without -L
    fork -L  the same with -L (see --fork-L-options)
    vanilla  the unpatched interpreter (build/vanilla/python), for reference

Each is run once to populate the .pyc caches, then --runs times, the
three interleaved.  Every run goes through demo_probe.py, which makes the
process report its own peak RSS and modules at exit.  The environment is
the caller's without the variables of clean-env.txt.

All runs must succeed with the same output and exit status, otherwise
the differences are shown and the exit status is 1.  The exit status is
also 1 when the fork rejects -L.  It is 0 otherwise, after printing a
table of wall time, peak RSS and imported modules.

--fork-L-options, left out of --help, replaces -L by other options, split
as a shell would, so that the demo can be tried on an interpreter without
lazy imports: --fork-L-options=-B, for instance.

Runs under Python 3.11 or later, with the standard library only.
"""

import argparse
import dataclasses
import difflib
import json
import os
import pathlib
import shlex
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import lazytools

APP_DIR = pathlib.Path(lazytools.ROOT, "bench", "demo")
PROBE = pathlib.Path(lazytools.TOOLS, "demo_probe.py")
APP = ["-m", "logtool", "summary", "data/access.log"]

FORK, FORK_L, VANILLA = "fork", "fork-L", "vanilla"

FORK_L_HINT = ("The fork must support lazy imports for this demo: "
               "build it with 'make build'.")

LABEL_WIDTH = 24
COLUMN_WIDTH = 9
LINE_WIDTH = 100


@dataclasses.dataclass(frozen=True)
class Run:
    """The outcome of one run of the application."""

    label: str
    number: int
    seconds: float
    returncode: int
    stdout: str
    stderr: str
    vmhwm_kb: int
    modules: frozenset


class DemoError(Exception):
    """A problem that stops the demo, with the message to show."""


def check_interpreter(command, env, hint=""):
    """Raise DemoError unless *command*, a Python and options, works.

    *hint* is added to the message of the error.
    """
    if not os.access(command[0], os.X_OK):
        raise DemoError(f"no Python interpreter at {command[0]}")
    result = subprocess.run([*command, "-c", "pass"], env=env,
                            capture_output=True, text=True)
    if result.returncode:
        raise DemoError(
            f"{shlex.join(command)} -c pass failed with status "
            f"{result.returncode}:\n{result.stderr}{hint}".rstrip())


def run_app(label, number, command, report, env):
    """Run the application with the interpreter *command*; return a Run.

    *label* names the mode and *number* the run in messages; *report* is
    the file the probe writes.
    """
    report.unlink(missing_ok=True)
    start = time.perf_counter()
    result = subprocess.run(
        [*command, str(PROBE), str(report), *APP],
        cwd=APP_DIR, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DemoError(
            f"{label} run {number} wrote no report; it ended with status "
            f"{result.returncode} and this error output:\n"
            f"{result.stderr}") from None
    return Run(label, number, seconds, result.returncode, result.stdout,
               result.stderr, data["vmhwm_kb"], frozenset(data["modules"]))


def check_outputs(runs):
    """Raise DemoError unless all *runs* succeeded with the same output."""
    reference = runs[0]
    if reference.returncode:
        raise DemoError(
            f"the application failed with status {reference.returncode}:\n"
            f"{reference.stderr}")
    for run in runs[1:]:
        if (run.returncode, run.stdout) == (reference.returncode,
                                            reference.stdout):
            continue
        names = [f"{r.label} run {r.number}" for r in (reference, run)]
        message = [f"{names[1]} does not behave as {names[0]}:\n"]
        if run.returncode != reference.returncode:
            message.append(f"exit status {run.returncode} instead of "
                           f"{reference.returncode}\n")
        message += difflib.unified_diff(
            reference.stdout.splitlines(keepends=True),
            run.stdout.splitlines(keepends=True), *names)
        message.append(run.stderr)
        raise DemoError("".join(message).rstrip())


def outermost(modules):
    """Return the sorted *modules* that have no parent package in *modules*.

    >>> outermost({"email", "email.parser", "json.decoder", "zipfile"})
    ['email', 'json.decoder', 'zipfile']
    """
    def has_parent(name):
        while "." in name:
            name = name.rpartition(".")[0]
            if name in modules:
                return True
        return False

    return sorted(name for name in modules if not has_parent(name))


def wrap_list(title, modules):
    """Return *title*, the number of *modules* and their outermost names.

    The lines are wrapped to LINE_WIDTH.
    """
    text = f"{title} ({len(modules)}): {', '.join(outermost(modules))}"
    return textwrap.fill(text, width=LINE_WIDTH, subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


def format_table(runs_by_mode, labels, count):
    """Return the lines of the table comparing the modes.

    *runs_by_mode* holds the timed runs of each mode, and *count* their
    number.  The module sets compared are those of the first runs.
    """
    def row(label, eager, lazy=None, spec=".1f"):
        cells = [f"{eager:{COLUMN_WIDTH}{spec}}"]
        if lazy is not None:
            cells.append(f"{lazy:{COLUMN_WIDTH}{spec}}")
            cells.append(f"{lazy / eager:{COLUMN_WIDTH}.2f}")
        return f"{label:{LABEL_WIDTH}}" + "".join(cells)

    milliseconds = {mode: [1000 * run.seconds for run in runs]
                    for mode, runs in runs_by_mode.items()}
    mebibytes = {mode: [run.vmhwm_kb / 1024 for run in runs]
                 for mode, runs in runs_by_mode.items()}
    eager_modules = runs_by_mode[FORK][0].modules
    lazy_modules = runs_by_mode[FORK_L][0].modules
    header = "".join(f"{label:>{COLUMN_WIDTH}}"
                     for label in (labels[FORK], labels[FORK_L], "ratio"))
    lines = [
        f"lazy-cpython demo: logtool {APP[2]} "
        f"({count} run{'s' if count > 1 else ''} each, interleaved)",
        " " * LABEL_WIDTH + header,
        row("wall time, median (ms)",
            statistics.median(milliseconds[FORK]),
            statistics.median(milliseconds[FORK_L])),
        row("wall time, min (ms)",
            min(milliseconds[FORK]), min(milliseconds[FORK_L])),
        row("peak RSS, median (MiB)",
            statistics.median(mebibytes[FORK]),
            statistics.median(mebibytes[FORK_L])),
        row("modules imported", len(eager_modules), len(lazy_modules),
            spec="d"),
        row("vanilla, median (ms)", statistics.median(milliseconds[VANILLA])),
        f"{'output':{LABEL_WIDTH}}{'identical':>{COLUMN_WIDTH}}",
        wrap_list("deferred and never needed", eager_modules - lazy_modules),
    ]
    if lazy_modules - eager_modules:
        lines.append(wrap_list(f"imported only by {labels[FORK_L]}",
                               lazy_modules - eager_modules))
    return lines


def parse_args():
    """Return the parsed command line."""
    parser = argparse.ArgumentParser(
        description="Compare the demo application run eagerly and with "
                    "lazy imports.")
    parser.add_argument("--fork", default=lazytools.FORK_PYTHON,
                        metavar="PYTHON",
                        help="the patched interpreter (default: %(default)s)")
    parser.add_argument("--vanilla", default=lazytools.VANILLA_PYTHON,
                        metavar="PYTHON",
                        help="the unpatched interpreter, for reference "
                             "(default: %(default)s)")
    parser.add_argument("--runs", type=int, default=7, metavar="N",
                        help="timed runs per mode (default: %(default)s)")
    parser.add_argument("--fork-L-options", default="-L", type=shlex.split,
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def main():
    """Run the demo; return the exit status."""
    args = parse_args()
    fork = os.path.abspath(args.fork)
    commands = {
        FORK: [fork],
        FORK_L: [fork, *args.fork_L_options],
        VANILLA: [os.path.abspath(args.vanilla)],
    }
    labels = {FORK: "fork", FORK_L: shlex.join(["fork", *args.fork_L_options]),
              VANILLA: "vanilla"}
    env = lazytools.clean_env()
    runs_by_mode = {mode: [] for mode in commands}
    try:
        for mode, command in commands.items():
            hint = FORK_L_HINT if mode == FORK_L else ""
            check_interpreter(command, env, hint)
        with tempfile.TemporaryDirectory(prefix="lazy-demo-") as tmp:
            report = pathlib.Path(tmp, "report.json")
            # Run 0 of each mode is a warm-up that writes the .pyc files.
            runs = [run_app(labels[mode], 0, command, report, env)
                    for mode, command in commands.items()]
            check_outputs(runs)
            for number in range(1, args.runs + 1):
                for mode, command in commands.items():
                    run = run_app(labels[mode], number, command, report, env)
                    runs.append(run)
                    runs_by_mode[mode].append(run)
        check_outputs(runs)
    except DemoError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    print("\n".join(format_table(runs_by_mode, labels, args.runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Shared fixtures of the pytest tests of lazy-cpython.

These tests compare the fork with stock CPython or use PyPI packages; the
rest of the behaviour contract is tested by Lib/test/test_lazy_imports.
Every test drives a real interpreter in a subprocess, on a module tree
written into a temporary directory.

Environment variables:

FORK_PYTHON
    Interpreter under test (default: the interpreter running pytest).
VANILLA_PYTHON
    Stock CPython 3.13.5 built from the same tarball; tests comparing the
    fork with it are skipped when unset.
LAZY_TEST_TIMEOUT
    Seconds a child interpreter may run before the test fails (120).

test_compat.py's differential test also reads the knobs of
Lib/test/test_lazy_imports/test_differential.py (LAZY_HYPOTHESIS_EXAMPLES,
...).  Each test names the contract rules it covers in a comment after
its ``def`` (``# Contract rule 31.``), as test_lazy_imports' tests do.
"""

import dataclasses
import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

# make test also runs this suite under -L (dogfooding).  hypothesis fills a
# registry of strategies as a side effect of importing its modules and
# checks it while hypothesis.strategies is imported (the guide's "What can
# break": import side effects): keep hypothesis eager, as an application
# adopting -L would.
if sys.flags.lazy_imports:
    importlib.set_lazy_imports(
        excluding=lambda name: name.partition(".")[0] == "hypothesis")

import pytest

#: Seconds a child interpreter may run before the test fails.  Generous: the
#: machine may be busy building CPython, and a hang is a failure anyway.
TIMEOUT = float(os.environ.get("LAZY_TEST_TIMEOUT", "120"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "vanilla: compares the fork with the stock interpreter named by "
        "VANILLA_PYTHON (skipped when unset)")


def pytest_report_header(config):
    lines = [f"interpreter under test: {FORK_EXECUTABLE}"]
    vanilla = os.environ.get("VANILLA_PYTHON")
    lines.append(f"vanilla interpreter: {vanilla or '(unset)'}")
    return lines


FORK_EXECUTABLE = os.environ.get("FORK_PYTHON") or sys.executable


def clean_environ(extra=None):
    """Return os.environ without the PYTHON* variables, plus *extra*."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("PYTHON")}
    env.update(extra or {})
    return env


def source(text):
    """Dedent a triple-quoted source, dropping its first newline."""
    return textwrap.dedent(text.removeprefix("\n"))


@dataclasses.dataclass(frozen=True, repr=False)
class Completed:
    """Outcome of one child interpreter."""

    args: tuple
    returncode: int
    stdout: str
    stderr: str

    def __repr__(self):
        return f"<Completed exit status {self.returncode}>"

    @property
    def lines(self):
        return self.stdout.splitlines()

    def report(self):
        return (f"command: {' '.join(self.args)}\n"
                f"exit status: {self.returncode}\n"
                f"--- stdout ---\n{self.stdout}"
                f"--- stderr ---\n{self.stderr}")

    def ok(self):
        """Assert a clean exit (status 0, nothing on stderr); return self."""
        assert self.returncode == 0 and not self.stderr, self.report()
        return self


class Interpreter:
    """An interpreter executable, run with a clean environment."""

    def __init__(self, executable):
        self.executable = str(executable)

    def __repr__(self):
        return f"Interpreter({self.executable!r})"

    def run(self, *args, cwd, lazy=False, env=None, timeout=TIMEOUT):
        """Run ``python [-L] *args`` in *cwd*; return a Completed."""
        argv = [self.executable, *(["-L"] if lazy else []), *map(str, args)]
        proc = subprocess.run(
            argv, cwd=cwd, env=clean_environ(env), capture_output=True,
            text=True, encoding="utf-8", errors="backslashreplace",
            timeout=timeout, stdin=subprocess.DEVNULL)
        return Completed(tuple(argv), proc.returncode, proc.stdout,
                         proc.stderr)

    def evaluate(self, expression):
        """Return the repr of *expression* evaluated by this interpreter."""
        code = f"import sys; sys.stdout.write(repr({expression}))"
        return self.run("-c", code, cwd=os.getcwd()).ok().stdout


class Tree:
    """A directory of modules and the interpreter that runs them."""

    def __init__(self, interpreter, root):
        self.interpreter = interpreter
        self.root = Path(root)

    def write(self, files):
        """Write ``{relative path: source}`` under the tree."""
        for relative, text in files.items():
            path = self.root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source(text), encoding="utf-8")
        return self

    def run(self, *args, lazy=False, **kwargs):
        """Run the interpreter in the tree; the default script is main.py."""
        return self.interpreter.run(*(args or ("main.py",)), cwd=self.root,
                                    lazy=lazy, **kwargs)


@pytest.fixture(scope="session")
def interpreter():
    """The interpreter under test (FORK_PYTHON or sys.executable)."""
    return Interpreter(FORK_EXECUTABLE)


@pytest.fixture(scope="session")
def vanilla():
    """The stock interpreter named by VANILLA_PYTHON."""
    executable = os.environ.get("VANILLA_PYTHON")
    if not executable:
        pytest.skip("VANILLA_PYTHON is not set")
    return Interpreter(executable)


@pytest.fixture
def tree(interpreter, tmp_path):
    """An empty module tree in tmp_path, run by the interpreter under test."""
    return Tree(interpreter, tmp_path)

"""Shared fixtures for the lazy-cpython behaviour suite.

Every test drives a real interpreter in a subprocess, on a module tree
written into a temporary directory.  Nothing of the import system is mocked:
laziness is observed through real effects (module bodies printing when they
run, ``sys.modules``, ``importlib.is_lazy_import()``, ...).

Environment variables:

LAZY_PYTHON
    Interpreter under test (default: the interpreter running pytest).
VANILLA_PYTHON
    Stock CPython 3.13.5 built from the same tarball; tests comparing the
    fork with it are skipped when unset.
LAZY_HYPOTHESIS_EXAMPLES
    Number of random programs the differential tests run (default 300);
    they run LAZY_DIFFERENTIAL_BATCH (default 25) programs per hypothesis
    example, i.e. per pair of interpreter runs.
LAZY_HYPOTHESIS_PROFILE
    ``ci`` (default: derandomized, no example database, no shrinking: the
    failure report names the program that differs) or ``explore`` (random
    seeds, example database kept, failing batches shrunk).

Test names carry the SPEC rule they cover (``test_r12_...``), so a subset is
selected with ``-k r12_`` and a rule is found with ``grep -n r12_ tests``.
"""

import dataclasses
import importlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

# make test also runs this suite under -L (dogfooding).  hypothesis fills a
# registry of strategies as a side effect of importing their modules and
# checks it while hypothesis.strategies is imported (the guide's "What can
# break": import side effects): keep hypothesis eager, as an application
# adopting -L would.
if sys.flags.lazy_imports:
    importlib.set_lazy_imports(
        excluding=lambda name: name.partition(".")[0] == "hypothesis")

import pytest
from hypothesis import HealthCheck, Phase, settings

#: Seconds a child interpreter may run before the test fails.  Generous: the
#: machine may be busy building CPython, and a hang is a failure anyway.
TIMEOUT = float(os.environ.get("LAZY_TEST_TIMEOUT", "120"))

#: Module bodies written by the tests start with ``print("exec", __name__)``;
#: ``Completed.executed`` collects these lines.
EXEC_PREFIX = "exec "


_HYPOTHESIS_COMMON = dict(
    max_examples=int(os.environ.get("LAZY_HYPOTHESIS_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "ci", derandomize=True, database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate], **_HYPOTHESIS_COMMON)
settings.register_profile("explore", **_HYPOTHESIS_COMMON)
settings.load_profile(os.environ.get("LAZY_HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "vanilla: compares the fork with the stock interpreter named by "
        "VANILLA_PYTHON (skipped when unset)")
    config.addinivalue_line(
        "markers", "slow: starts several interpreters or threads")


def pytest_report_header(config):
    lines = [f"interpreter under test: {LAZY_EXECUTABLE}"]
    vanilla = os.environ.get("VANILLA_PYTHON")
    lines.append(f"vanilla interpreter: {vanilla or '(unset)'}")
    return lines


LAZY_EXECUTABLE = os.environ.get("LAZY_PYTHON") or sys.executable

#: Scenario trees shared with the regrtest package test_lazy_imports.
DATA_DIR = (Path(__file__).resolve().parent.parent
            / "Lib" / "test" / "test_lazy_imports" / "data")


def clean_environ(extra=None):
    """Return os.environ without the PYTHON* variables, plus *extra*."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("PYTHON")}
    env.update(extra or {})
    return env


def source(text):
    """Dedent a triple-quoted source, dropping its first newline."""
    return textwrap.dedent(text.removeprefix("\n"))


def write_tree(root, files):
    """Write ``{relative path: source}`` under *root* and return *root*."""
    root = Path(root)
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source(text), encoding="utf-8")
    return root


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

    @property
    def executed(self):
        """Names of the modules whose body ran, in order (see EXEC_PREFIX)."""
        return [line.removeprefix(EXEC_PREFIX) for line in self.lines
                if line.startswith(EXEC_PREFIX)]

    @property
    def output(self):
        """Lines of stdout other than the execution log."""
        return [line for line in self.lines
                if not line.startswith(EXEC_PREFIX)]

    def report(self):
        return (f"command: {' '.join(self.args)}\n"
                f"exit status: {self.returncode}\n"
                f"--- stdout ---\n{self.stdout}"
                f"--- stderr ---\n{self.stderr}")

    def ok(self):
        """Assert a clean exit (status 0, nothing on stderr); return self."""
        assert self.returncode == 0 and not self.stderr, self.report()
        return self

    def failed(self):
        """Assert the child exited with an error; return self."""
        assert self.returncode not in (0, None), self.report()
        assert self.returncode > 0, f"killed by a signal\n{self.report()}"
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
        write_tree(self.root, files)
        return self

    def scenario(self, name):
        """Copy the scenario tree DATA_DIR/<name> into the tree."""
        shutil.copytree(DATA_DIR / name, self.root, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
        return self

    def run(self, *args, lazy=False, **kwargs):
        """Run the interpreter in the tree; the default script is main.py."""
        return self.interpreter.run(*(args or ("main.py",)), cwd=self.root,
                                    lazy=lazy, **kwargs)

    def run_code(self, code, *args, lazy=False, **kwargs):
        """Run ``python [-L] *args -c code`` in the tree."""
        return self.run(*args, "-c", source(code), lazy=lazy, **kwargs)

    def run_both(self, *args, **kwargs):
        """Run eagerly, then with -L; return (eager, lazy) Completed."""
        return (self.run(*args, lazy=False, **kwargs),
                self.run(*args, lazy=True, **kwargs))


@pytest.fixture(scope="session")
def interpreter():
    """The interpreter under test (LAZY_PYTHON or sys.executable)."""
    return Interpreter(LAZY_EXECUTABLE)


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


@pytest.fixture(params=[False, True], ids=["eager", "lazy"])
def lazy(request):
    """Run the test once without and once with -L: the value is the flag."""
    return request.param

"""Helpers shared by the lazy imports tests.

Every test runs child interpreters, with and without -L, on module trees
copied from data/ (or written by the test) into a temporary directory.
The test process itself may or may not run with -L: the children always get
the flag explicitly, and test.support never relies on lazy imports.
"""

import os
import shutil
import textwrap
import unittest

from test.support import os_helper
from test.support.script_helper import assert_python_failure, assert_python_ok

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

#: Prefix of the lines module bodies in data/ print when they run.
EXEC = "exec "

MODES = (False, True)


def write_files(root, files):
    """Write {relative path: source} under root."""
    for relative, source in (files or {}).items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as file:
            file.write(textwrap.dedent(source))


class Result:
    """Outcome of a child interpreter, decoded."""

    def __init__(self, run_result):
        self.rc = run_result.rc
        self.out = run_result.out.decode("utf-8", "backslashreplace")
        self.err = run_result.err.decode("utf-8", "backslashreplace")
        self.lines = self.out.splitlines()

    @property
    def executed(self):
        """Modules whose body ran, in order."""
        return [line[len(EXEC):] for line in self.lines
                if line.startswith(EXEC)]

    @property
    def output(self):
        """Lines other than the execution log."""
        return [line for line in self.lines if not line.startswith(EXEC)]


class LazyImportsTestCase(unittest.TestCase):
    maxDiff = None

    def run_python(self, *args, lazy, cwd=None, failure=False, env=None):
        """Run ``python [-L] args`` in *cwd*; it must exit with status 0, or
        with an error status if *failure* (a crash fails the test).  With
        *env*, the child gets these variables and none of the PYTHON*
        variables of the test process."""
        runner = assert_python_failure if failure else assert_python_ok
        flags = ["-L"] if lazy else []
        if env is not None:
            env = {key: value for key, value in os.environ.items()
                   if not key.startswith("PYTHON")} | env
            env["__cleanenv"] = True
        result = Result(runner(*flags, *args, __cwd=cwd, __isolated=False,
                               **(env or {})))
        if failure:
            self.assertGreater(result.rc, 0,
                               f"killed by a signal\n{result.err}")
        return result

    def run_scenario(self, scenario, *args, lazy, files=None, failure=False):
        """Run ``python [-L] args`` (default main.py) on a copy of
        data/<scenario>, plus *files*."""
        with os_helper.temp_dir() as root:
            shutil.copytree(os.path.join(DATA_DIR, scenario), root,
                            dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
            write_files(root, files)
            return self.run_python(*(args or ("main.py",)), lazy=lazy,
                                   cwd=root, failure=failure)

    def run_files(self, files, *args, lazy, failure=False, env=None):
        """Run ``python [-L] args`` (default main.py) in a directory
        holding *files*."""
        with os_helper.temp_dir() as root:
            write_files(root, files)
            return self.run_python(*(args or ("main.py",)), lazy=lazy,
                                   cwd=root, failure=failure, env=env)

    def run_code(self, code, *args, lazy, files=None, failure=False,
                 path=False, env=None):
        """Run ``python [-L] args -c code`` in a directory holding *files*
        (with the directory in PYTHONPATH if *path*), with the environment
        variables *env* (see run_python())."""
        with os_helper.temp_dir() as root:
            write_files(root, files)
            if path:
                env = dict(env or {}, PYTHONPATH=root)
            return self.run_python(*args, "-c", textwrap.dedent(code),
                                   lazy=lazy, cwd=root, failure=failure,
                                   env=env)

    def assert_lines(self, result, expected):
        """The child printed *expected* and nothing on stderr."""
        self.assertEqual(result.lines, expected, result.err)
        self.assertEqual(result.err, "")

    def assert_printed(self, result, expected):
        """As assert_lines(), the execution log left out."""
        self.assertEqual(result.output, expected, result.err)
        self.assertEqual(result.err, "")

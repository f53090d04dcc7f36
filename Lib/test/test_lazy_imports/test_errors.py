"""Errors, cycles and threads (contract rules 24-27)."""

import json
import os
import re
import textwrap
import unittest

from test import support
from test.support import os_helper, threading_helper

from .util import MODES, LazyImportsTestCase, write_files

#: The thread stress driver, in the repository this package is linked from.
STRESS_DRIVER = os.path.join(
    os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir,
    os.pardir, "Tools", "lazy", "stress_driver.py")

#: Modules that fail when imported, for the error tests.  "missing" is
#: never written (ModuleNotFoundError).
FAILING_MODULES = {
    "names.py": "present = 1",
    "broken.py": "def broken(:\n    pass",
    "raiser.py": 'raise LookupError("raised by the module body")',
    "skipper.py": 'import unittest\nraise unittest.SkipTest("not here")',
    "pkg/__init__.py": "",
    "pkg/bad.py": 'raise LookupError("raised by a submodule")',
}

#: case: (statement, module named in the note, expression using it,
#: exception type name)
FAILURES = {
    "module-not-found": ("import missing", "missing", "missing.attr",
                         "ModuleNotFoundError"),
    "submodule-not-found": ("import pkg.missing", "pkg.missing",
                            "pkg.missing", "ModuleNotFoundError"),
    "cannot-import-name": ("from names import absent", "names", "absent",
                           "ImportError"),
    "syntax-error": ("import broken", "broken", "broken.broken",
                     "SyntaxError"),
    "body-raises": ("import raiser", "raiser", "raiser.attr", "LookupError"),
    "submodule-raises": ("from pkg import bad", "pkg", "bad", "LookupError"),
    "skip-test": ("import skipper", "skipper", "skipper.attr", "SkipTest"),
}

IMPORT_LINE = 3
USE_LINE = 6


def lazy_script(statement, use, handler):
    """A script importing on line IMPORT_LINE and using on line USE_LINE;
    *handler* is the body of the ``except BaseException as exc:`` clause
    around the use."""
    lines = ["import sys", "import traceback", statement, 'print("bound")',
             "try:", f"    {use}", "except BaseException as exc:",
             textwrap.indent(textwrap.dedent(handler).strip(), "    ")]
    assert lines[IMPORT_LINE - 1] == statement
    assert lines[USE_LINE - 1].strip() == use
    return "\n".join(lines) + "\n"


def exception_lines(stderr, name):
    """The ``Name: message`` lines of a traceback (notes follow them)."""
    return re.findall(rf"^(?:\w+\.)*{name}(?::.*)?$", stderr, re.MULTILINE)


class ResolutionErrorTests(LazyImportsTestCase):

    def run_eager_and_lazy(self, files):
        """Run eager.py without -L and main.py with -L, in one directory
        holding *files*."""
        with os_helper.temp_dir() as root:
            write_files(root, files)
            return (self.run_python("eager.py", lazy=False, cwd=root),
                    self.run_python("main.py", lazy=True, cwd=root))

    def test_original_exception_with_note(self):
        # Contract rule 24
        result = self.run_scenario("errors", "use_raiser.py", lazy=True)
        self.assertEqual(result.lines[:3],
                         ["bound", "exec raiser",
                          "LookupError raised by the module body"])
        notes = result.lines[3:]
        self.assertEqual(len(notes), 1, notes)
        self.assertRegex(notes[0], r"\braiser\b")
        self.assertRegex(notes[0], r"use_raiser\.py.*\b1\b")

    def test_traceback_shows_line_of_use(self):
        # Contract rule 24
        result = self.run_scenario("errors", "use_raiser_uncaught.py",
                                   lazy=True, failure=True)
        self.assertIn('use_raiser_uncaught.py", line 3, in <module>',
                      result.err)
        self.assertIn('raiser.py", line 2, in <module>', result.err)
        self.assertRegex(result.err,
                         r"(?m)^LookupError: raised by the module body$")

    def test_failures_of_each_kind(self):
        # Contract rule 24: the exception eager code would get, at the first
        # use.
        cases = {
            "import missing_module": ("missing_module.x",
                                      "ModuleNotFoundError"),
            "from state import absent": ("absent", "ImportError"),
            "import broken": ("broken.x", "SyntaxError"),
            "import skipper": ("skipper.x", "SkipTest"),
        }
        for statement, (use, name) in cases.items():
            with self.subTest(statement=statement):
                result = self.run_scenario("errors", "-c", f"""if 1:
                    {statement}
                    try:
                        {use}
                    except BaseException as exc:
                        print(type(exc).__name__)
                """, lazy=True, files={"broken.py": "def broken(:\n"})
                self.assert_lines(result, [name])

    def test_original_exception_at_first_use(self):
        # Contract rule 24: the exception and message of the eager import,
        # for every kind of failure.
        report = 'print(type(exc).__name__, str(exc))'
        for case, (statement, _, use, exception) in FAILURES.items():
            with self.subTest(case=case):
                files = dict(FAILING_MODULES, **{
                    "eager.py": (f"try:\n    {statement}\n"
                                 f"except BaseException as exc:\n"
                                 f"    {report}\n"),
                    "main.py": lazy_script(statement, use, report)})
                eager, lazy = self.run_eager_and_lazy(files)
                self.assertEqual(eager.err, "")
                self.assertEqual(eager.lines[0].split()[0], exception)
                self.assert_lines(lazy, ["bound", *eager.lines])

    def test_note_names_the_deferred_statement(self):
        # Contract rule 24: one note, naming the module, file and line of
        # the deferred statement.
        handler = """
            for note in getattr(exc, "__notes__", ()):
                print("note:", note)
        """
        for case, (statement, module, use, _) in FAILURES.items():
            with self.subTest(case=case):
                result = self.run_files(dict(FAILING_MODULES, **{
                    "main.py": lazy_script(statement, use, handler)}),
                    lazy=True)
                self.assertEqual(result.err, "")
                notes = [line for line in result.lines
                         if line.startswith("note:")]
                self.assertEqual(len(notes), 1, result.lines)
                self.assertRegex(notes[0], rf"\b{re.escape(module)}\b")
                self.assertIn("main.py", notes[0])
                self.assertRegex(notes[0], rf"\b{IMPORT_LINE}\b")

    def test_uncaught_failure_traceback(self):
        # Contract rule 24: the traceback shows the line of the use and
        # ends with the original exception, for every kind of failure.
        for case, (statement, _, use, exception) in FAILURES.items():
            with self.subTest(case=case):
                result = self.run_files(dict(FAILING_MODULES, **{
                    "main.py": lazy_script(statement, use, "raise")}),
                    lazy=True, failure=True)
                self.assertEqual(result.lines, ["bound"])
                self.assertIn(f'main.py", line {USE_LINE}, in <module>',
                              result.err)
                self.assertIn(use, result.err)
                self.assertTrue(exception_lines(result.err, exception),
                                result.err)

    def test_skip_test_reaches_unittest(self):
        # Contract rule 24
        result = self.run_scenario("errors", "skip.py", lazy=True)
        self.assertIn("OK (skipped=1)", result.err)

    def test_one_note_for_a_failing_submodule(self):
        # Contract rule 24
        result = self.run_scenario("errors", "-c", """if 1:
            from pkg import bad
            try:
                bad
            except LookupError as exc:
                print(len(exc.__notes__))
                print(exc.__notes__[0])
        """, lazy=True)
        self.assertEqual(result.lines[0], "1", result.out)
        self.assertRegex(result.lines[1], r"\bpkg\b.*<string>.*\b2\b")

    def test_failure_retries(self):
        # Contract rule 25
        result = self.run_scenario("errors", "retry.py", lazy=True)
        self.assert_lines(result, ["exec flaky",
                                   "failed: first attempt fails",
                                   "False True", "exec flaky",
                                   "second attempt works", "2"])

    def test_failed_submodule_leaves_sys_modules_as_eager(self):
        # Contract rules 25 and 49: sys.modules as eagerly.  The lazy
        # reference to pkg.bad that the statement bound in pkg stays, so
        # that the next use retries the import (as in CPython 3.15):
        # hasattr(), which only swallows AttributeError, raises the error
        # again.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("errors", "submodule.py",
                                           lazy=lazy)
                self.assert_lines(result, ["['pkg'] True", "retried"]
                                  if lazy else ["['pkg'] False", "False"])

    def test_failed_from_import_leaves_no_attribute(self):
        # Contract rules 25 and 49: "from pkg.bad import value" bound
        # pkg.bad in pkg once pkg was loaded; the reference stays and
        # retries.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("errors", "submodule.py", "from",
                                           lazy=lazy)
                self.assert_lines(result, ["['pkg'] True", "retried"]
                                  if lazy else ["['pkg'] False", "False"])

    def test_failed_submodule_import_of_every_form(self):
        # Contract rules 25 and 49: sys.modules is as after the failed
        # eager import.  Every form binds pkg.bad in pkg to a lazy reference
        # once pkg is loaded, as the eager statement binds the submodule;
        # after the failure the reference stays and its next use retries
        # (as in CPython 3.15): hasattr(), which only swallows
        # AttributeError, then raises the LookupError again.
        state = """
            package = sys.modules["pkg"]
            print(sorted(m for m in sys.modules if m.startswith("pkg")),
                  "bad" in vars(package))
            try:
                print(hasattr(package, "bad"))
            except LookupError:
                print("retried")
        """
        handler = textwrap.indent(textwrap.dedent(state).strip(), "    ")
        for statement, use in (("import pkg.bad", "pkg.bad"),
                               ("from pkg import bad", "bad"),
                               ("from pkg.bad import value", "value"),
                               ("import pkg.bad as bad", "bad")):
            with self.subTest(statement=statement):
                files = dict(FAILING_MODULES, **{
                    "eager.py": (f"import sys\ntry:\n    {statement}\n"
                                 f"except LookupError:\n{handler}\n"),
                    "main.py": lazy_script(statement, use, state)})
                eager, lazy = self.run_eager_and_lazy(files)
                self.assert_lines(eager, ["['pkg'] False", "False"])
                self.assert_lines(lazy, ["bound", "['pkg'] True", "retried"])


class CycleTests(LazyImportsTestCase):

    def test_cycle_raises_import_error(self):
        # Contract rule 26
        result = self.run_scenario("cycle", lazy=True)
        self.assert_lines(result, ["ImportError True", "ImportError True",
                                   "done"])

    def test_cycle_message_names_every_module(self):
        # Contract rule 26
        result = self.run_scenario("cycle", "two.py", lazy=True)
        self.assert_lines(result, ["ImportError True True"])

    def test_uncaught_cycle(self):
        # Contract rule 26: one ImportError naming every module of the
        # cycle; no RecursionError, no crash.
        cycles = {
            "self": {
                "holder.py": """
                    import target
                    def get():
                        return target
                """,
                "target.py": """
                    import holder
                    holder.get()
                """,
            },
            "two-modules": {
                "first.py": """
                    import second
                    def get():
                        return second.value
                """,
                "second.py": """
                    import first
                    value = first.get()
                """,
            },
        }
        main = {"self": "import holder\nholder.get()\n",
                "two-modules": "import first\nfirst.get()\n"}
        names = {"self": ["target"], "two-modules": ["first", "second"]}
        for cycle, files in cycles.items():
            with self.subTest(cycle=cycle):
                result = self.run_files(
                    dict(files, **{"main.py": main[cycle]}), lazy=True,
                    failure=True)
                errors = exception_lines(result.err, "ImportError")
                self.assertEqual(len(errors), 1, result.err)
                self.assertNotIn("RecursionError", result.err)
                self.assertNotIn("Fatal Python error", result.err)
                for name in names[cycle]:
                    self.assertRegex(errors[0], rf"\b{name}\b")


class ThreadTests(LazyImportsTestCase):

    @threading_helper.requires_working_threading()
    def test_threads_share_one_resolution(self):
        # Contract rule 27
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                for form in ("import", "from"):
                    result = self.run_scenario("threads", "main.py", form,
                                               lazy=lazy)
                    self.assert_lines(result, ["exec slow", "False", "8 1",
                                               "True"])

    @threading_helper.requires_working_threading()
    def test_threads_share_one_submodule_resolution(self):
        # Contract rule 27
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                result = self.run_scenario("threads", "main.py", "submodule",
                                           lazy=lazy)
                self.assert_lines(result, ["exec pkg.slow", "False", "8 1",
                                           "True"])

    @threading_helper.requires_working_threading()
    def test_thread_stress(self):
        # Contract rule 27 under load: Tools/lazy/stress_driver.py runs
        # many trials of each kind of access (one name from every thread,
        # "import a.b.c", "import pkg.slow", "from a import b", names that
        # always fail, a module failing a few times and retried, all
        # mixed), each on a fresh tree of slow modules, and checks that no
        # thread deadlocks, no module body runs twice, and every thread
        # gets the object eager code binds, never a lazy object.  Knobs:
        # LAZY_STRESS_TRIALS (10 per kind), LAZY_STRESS_THREADS (8),
        # LAZY_STRESS_SECONDS (a time limit per kind, none by default),
        # LAZY_STRESS_SEED (0); make stress runs many more trials.
        if not os.path.isfile(STRESS_DRIVER):
            self.skipTest("needs Tools/lazy/stress_driver.py of the checkout")
        trials = os.environ.get("LAZY_STRESS_TRIALS", "10")
        threads = os.environ.get("LAZY_STRESS_THREADS", "8")
        seconds = os.environ.get("LAZY_STRESS_SECONDS")
        seed = os.environ.get("LAZY_STRESS_SEED", "0")
        for kind in ("same-module", "same-submodule", "same-dotted",
                     "same-from", "failing", "retry", "mixed-no-submodule",
                     "mixed"):
            args = [STRESS_DRIVER, "--kind", kind, "--trials", trials,
                    "--threads", threads, "--seed", seed]
            if seconds:
                args += ["--max-seconds", seconds]
            with self.subTest(kind=kind), os_helper.temp_cwd() as cwd:
                result = self.run_python(*args, lazy=True, cwd=cwd)
                summary = json.loads(result.lines[-1])
                if support.verbose:
                    print(json.dumps({key: value for key, value
                                      in summary.items()
                                      if key != "failures"}))
                failures = "\n".join(
                    f"trial {failure['trial']}: {problem}"
                    for failure in summary["failures"]
                    for problem in failure["problems"])
                self.assertGreater(summary["trials"], 0)
                self.assertEqual(
                    summary["failed_trials"], 0,
                    f"{summary['failed_trials']} of {summary['trials']} "
                    f"trials failed ({threads} threads, seed {seed}):\n"
                    f"{failures}")
                self.assertEqual(result.err, "")


if __name__ == "__main__":
    unittest.main()

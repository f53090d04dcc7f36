"""Errors, cycles and threads (SPEC rules 24-27)."""

import unittest

from test.support import threading_helper

from .util import MODES, LazyImportsTestCase


class ResolutionErrorTests(LazyImportsTestCase):

    def test_original_exception_with_note(self):
        # Rule 24
        result = self.run_scenario("errors", "use_raiser.py", lazy=True)
        self.assertEqual(result.lines[:3],
                         ["bound", "exec raiser",
                          "LookupError raised by the module body"])
        notes = result.lines[3:]
        self.assertEqual(len(notes), 1, notes)
        self.assertRegex(notes[0], r"\braiser\b")
        self.assertRegex(notes[0], r"use_raiser\.py.*\b1\b")

    def test_traceback_shows_line_of_use(self):
        # Rule 24
        result = self.run_scenario("errors", "use_raiser_uncaught.py",
                                   lazy=True, failure=True)
        self.assertIn('use_raiser_uncaught.py", line 3, in <module>',
                      result.err)
        self.assertIn('raiser.py", line 2, in <module>', result.err)
        self.assertRegex(result.err,
                         r"(?m)^LookupError: raised by the module body$")

    def test_failures_of_each_kind(self):
        # Rule 24: the exception eager code would get, at the first use.
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

    def test_skip_test_reaches_unittest(self):
        # Rule 24
        result = self.run_scenario("errors", "skip.py", lazy=True)
        self.assertIn("OK (skipped=1)", result.err)

    def test_one_note_for_a_failing_submodule(self):
        # Rule 24
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
        # Rule 25
        result = self.run_scenario("errors", "retry.py", lazy=True)
        self.assert_lines(result, ["exec flaky",
                                   "failed: first attempt fails",
                                   "False True", "exec flaky",
                                   "second attempt works", "2"])

    def test_failed_submodule_leaves_sys_modules_as_eager(self):
        # Rules 25 and 49: sys.modules as eagerly.  The lazy reference to
        # pkg.bad that the statement bound in pkg stays, so that the next
        # use retries the import (as in CPython 3.15): hasattr(), which only
        # swallows AttributeError, raises the error again.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("errors", "submodule.py",
                                           lazy=lazy)
                self.assert_lines(result, ["['pkg'] True", "retried"]
                                  if lazy else ["['pkg'] False", "False"])

    def test_failed_from_import_leaves_no_attribute(self):
        # Rules 25 and 49: "from pkg.bad import value" bound pkg.bad in pkg
        # once pkg was loaded; the reference stays and retries.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("errors", "submodule.py", "from",
                                           lazy=lazy)
                self.assert_lines(result, ["['pkg'] True", "retried"]
                                  if lazy else ["['pkg'] False", "False"])


class CycleTests(LazyImportsTestCase):

    def test_cycle_raises_import_error(self):
        # Rule 26
        result = self.run_scenario("cycle", lazy=True)
        self.assert_lines(result, ["ImportError True", "ImportError True",
                                   "done"])

    def test_cycle_message_names_every_module(self):
        # Rule 26
        result = self.run_scenario("cycle", "two.py", lazy=True)
        self.assert_lines(result, ["ImportError True True"])


class ThreadTests(LazyImportsTestCase):

    @threading_helper.requires_working_threading()
    def test_threads_share_one_resolution(self):
        # Rule 27
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                for form in ("import", "from"):
                    result = self.run_scenario("threads", "main.py", form,
                                               lazy=lazy)
                    self.assert_lines(result, ["exec slow", "False", "8 1",
                                               "True"])

    @threading_helper.requires_working_threading()
    def test_threads_share_one_submodule_resolution(self):
        # Rule 27
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                result = self.run_scenario("threads", "main.py", "submodule",
                                           lazy=lazy)
                self.assert_lines(result, ["exec pkg.slow", "False", "8 1",
                                           "True"])


if __name__ == "__main__":
    unittest.main()

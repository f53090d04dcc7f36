"""Turning lazy imports on and off (SPEC rules 1-7)."""

import unittest

from test.support import import_helper, os_helper

from .util import MODES, LazyImportsTestCase, write_files

LOGGED = 'print("exec", __name__)\nvalue = 42\n'
TARGET = {"target.py": LOGGED}


class CommandLineTests(LazyImportsTestCase):

    def test_site_imports_are_lazy(self):
        # Rule 1: -L applies from the first import, site's included.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, site
                    print(importlib.is_lazy_import(vars(site), "errno"))
                """, lazy=lazy)
                self.assert_lines(result, [str(lazy)])

    def test_help_lists_option(self):
        # Rule 1
        result = self.run_python("--help", lazy=False)
        options = [line for line in result.lines if line.startswith("-L ")]
        self.assertEqual(len(options), 1, result.out)

    def test_flag_records_command_line(self):
        # Rule 2: sys.flags tells how the process started, not the state.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, sys
                    print(sys.flags.lazy_imports)
                    importlib.set_lazy_imports(not sys.flags.lazy_imports)
                    print(sys.flags.lazy_imports,
                          importlib.is_lazy_imports_enabled())
                """, lazy=lazy)
                self.assert_lines(result, [str(lazy), f"{lazy} {not lazy}"])

    def test_subprocess_flags(self):
        # Rule 3: children inherit -L, in isolated mode too.
        for lazy in MODES:
            for isolated in ([], ["-I"]):
                with self.subTest(lazy=lazy, isolated=isolated):
                    result = self.run_code("""
                        import subprocess
                        args = subprocess._args_from_interpreter_flags()
                        print("-L" in args)
                    """, *isolated, lazy=lazy)
                    self.assert_lines(result, [str(lazy)])

    def test_nothing_lazy_without_flag(self):
        # Rule 30: without -L (and set_lazy_imports) nothing is ever lazy,
        # at start-up or after importing stdlib packages.
        code = """
            import importlib, sys
            import json, logging, email.message, unittest
            import target
            print("bound")
            print(any(importlib.is_lazy_import(vars(module), name)
                      for module in list(sys.modules.values())
                      for name in list(vars(module))))
        """
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy, files=TARGET)
                order = ["bound"] if lazy else ["exec target", "bound"]
                self.assert_lines(result, order + [str(lazy)])

    def test_no_environment_variable(self):
        # Rule 7
        result = self.run_code("""
            import importlib, os, sys
            os.environ["PYTHONLAZYIMPORTS"] = "1"
            import subprocess
            subprocess.run([sys.executable, "-c",
                            "import sys; print(sys.flags.lazy_imports)"],
                           env=os.environ, check=True)
        """, lazy=False)
        self.assert_lines(result, ["False"])


class SetLazyImportsTests(LazyImportsTestCase):

    def test_applies_to_rest_of_calling_module(self):
        # Rule 4
        result = self.run_code("""
            import importlib
            import before
            importlib.set_lazy_imports()
            import target
            print("bound")
            target.value
        """, lazy=False, files={"before.py": LOGGED, "target.py": LOGGED})
        self.assert_lines(result, ["exec before", "bound", "exec target"])

    def test_disable(self):
        # Rule 4
        result = self.run_code("""
            import importlib
            importlib.set_lazy_imports(False)
            import target
            print("bound")
        """, lazy=True, files=TARGET)
        self.assert_lines(result, ["exec target", "bound"])

    def test_excluding_is_keyword_only(self):
        # Rule 4
        result = self.run_code("""
            import importlib
            try:
                importlib.set_lazy_imports(True, ["x"])
            except TypeError:
                print("TypeError")
        """, lazy=False)
        self.assert_lines(result, ["TypeError"])

    def test_is_lazy_imports_enabled(self):
        # Rule 5
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib
                    states = [importlib.is_lazy_imports_enabled()]
                    importlib.set_lazy_imports()
                    states.append(importlib.is_lazy_imports_enabled())
                    importlib.set_lazy_imports(False)
                    states.append(importlib.is_lazy_imports_enabled())
                    print(states)
                """, lazy=lazy)
                self.assert_lines(result, [f"[{lazy}, True, False]"])


class SubinterpreterTests(LazyImportsTestCase):

    def test_starts_from_command_line(self):
        # Rule 6: state is per interpreter; a new one starts from -L.
        import_helper.import_module("_interpreters")
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import _interpreters, importlib, os, sys
                    importlib.set_lazy_imports(not sys.flags.lazy_imports)
                    read_end, write_end = os.pipe()
                    interp = _interpreters.create()
                    failure = _interpreters.run_string(interp, f'''if 1:
                        import importlib, os
                        state = importlib.is_lazy_imports_enabled()
                        importlib.set_lazy_imports(not state)
                        os.write({write_end}, repr(state).encode())
                    ''')
                    assert failure is None, failure
                    _interpreters.destroy(interp)
                    print(os.read(read_end, 100).decode(),
                          importlib.is_lazy_imports_enabled())
                """, lazy=lazy)
                self.assert_lines(result, [f"{lazy} {not lazy}"])


if __name__ == "__main__":
    unittest.main()


class VerifyTests(LazyImportsTestCase):
    """-X lazy_imports=verify (rule 44) and -X lazy_imports=all (rule 48)."""

    FILES = {
        "good.py": "import json\nimport colorsys\nprint('done')\n",
        "bad.py": ("import json\nimport no_such_module_xyz\n"
                   "from os import no_such_name_xyz\nprint('done')\n"),
        "raises.py": "import no_such_module_xyz\nraise SystemExit(3)\n",
    }

    def verify(self, script, failure=False):
        with os_helper.temp_dir() as root:
            write_files(root, self.FILES)
            return self.run_python("-X", "lazy_imports=verify", script,
                                   lazy=False, cwd=root, failure=failure)

    def test_program_whose_imports_all_work(self):
        result = self.verify("good.py")
        self.assertEqual(result.lines, ["done"])
        self.assertNotIn("lazy import verify", result.err)

    def test_failures_are_listed_and_fail_the_run(self):
        # Rule 44: each failure with its deferred statement; status 1.
        result = self.verify("bad.py", failure=True)
        self.assertEqual(result.rc, 1)
        self.assertEqual(result.lines, ["done"])
        err = result.err.splitlines()
        self.assertIn("lazy import verify: __main__.no_such_module_xyz: "
                      "ModuleNotFoundError: No module named "
                      "'no_such_module_xyz'", err)
        self.assertTrue(any("no_such_name_xyz" in line for line in err))
        self.assertEqual(sum("bad.py:2" in line or "bad.py:3" in line
                             for line in err), 2, result.err)
        self.assertEqual(err[-1], "lazy import verify: 2 failed")

    def test_not_after_an_abnormal_end(self):
        result = self.verify("raises.py", failure=True)
        self.assertEqual(result.rc, 3)
        self.assertNotIn("lazy import verify", result.err)

    def test_all_and_verify_turn_lazy_imports_on(self):
        code = ("import sys, importlib, json; "
                "print(sys.flags.lazy_imports, "
                "importlib.is_lazy_import(globals(), 'json'))")
        for value in ("all", "verify"):
            with self.subTest(value=value):
                result = self.run_python("-X", f"lazy_imports={value}",
                                         "-c", code, lazy=False)
                self.assertEqual(result.lines, ["True True"])


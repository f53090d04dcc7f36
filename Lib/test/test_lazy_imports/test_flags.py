"""Turning lazy imports on and off (contract rules 1-7)."""

import os
import re
import sysconfig
import unittest

from test.support import import_helper, os_helper

from .util import MODES, LazyImportsTestCase, write_files

LOGGED = 'print("exec", __name__)\nvalue = 42\n'
TARGET = {"target.py": LOGGED}


class CommandLineTests(LazyImportsTestCase):

    def test_site_imports_are_lazy(self):
        # Contract rule 1: -L applies from the first import, site's included.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, site
                    print(importlib.is_lazy_import(vars(site), "errno"))
                """, lazy=lazy)
                self.assert_lines(result, [str(lazy)])

    def test_startup_modules_hold_lazy_imports(self):
        # Contract rule 1: under -L the modules imported before the main
        # code ran hold lazy imports, not only site; without -L no module
        # dict holds a lazy object at all.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, sys
                    holders = sorted(
                        name for name, module in list(sys.modules.items())
                        if name not in ("__main__", "importlib")
                        and any(importlib.is_lazy_import(vars(module), key)
                                for key in list(vars(module))))
                    print(holders)
                """, lazy=lazy)
                self.assertEqual(result.err, "")
                holders = eval(result.out)
                if lazy:
                    self.assertIn("site", holders)
                    self.assertTrue(set(holders) - {"site"},
                                    "only site's imports were lazy")
                else:
                    self.assertEqual(holders, [])

    def test_main_script_imports_are_lazy(self):
        # Contract rule 1
        files = dict(TARGET, **{"main.py": """
            import target
            print("bound")
            print(target.value)
        """})
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                order = (["bound", "exec target"] if lazy
                         else ["exec target", "bound"])
                self.assert_lines(result, order + ["42"])

    def test_help_lists_option(self):
        # Contract rule 1
        result = self.run_python("--help", lazy=False)
        options = [line for line in result.lines if line.startswith("-L ")]
        self.assertEqual(len(options), 1, result.out)
        self.assertIn("lazy", options[0].lower())

    def test_man_page_lists_option(self):
        # Contract rule 1
        man_page = os.path.join(sysconfig.get_config_var("srcdir") or "",
                                "Misc", "python.man")
        if not os.path.isfile(man_page):
            self.skipTest(f"no man page in the source tree ({man_page})")
        with open(man_page, encoding="utf-8") as file:
            text = file.read()
        self.assertRegex(text, re.compile(r"^\.B \\-L\s*\n(?:.*\n){0,3}.*lazy",
                                          re.MULTILINE | re.IGNORECASE))

    def test_flag_records_command_line(self):
        # Contract rule 2: sys.flags tells how the process started, not the
        # state.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, sys
                    print(type(sys.flags.lazy_imports).__name__,
                          sys.flags.lazy_imports)
                    importlib.set_lazy_imports(not sys.flags.lazy_imports)
                    print(sys.flags.lazy_imports,
                          importlib.is_lazy_imports_enabled())
                """, lazy=lazy)
                self.assert_lines(result, [f"bool {lazy}",
                                           f"{lazy} {not lazy}"])

    def test_subprocess_flags(self):
        # Contract rule 3: children inherit -L, in isolated mode too.
        for lazy in MODES:
            for flags in ([], ["-I"], ["-E", "-s"], ["-I", "-B"]):
                with self.subTest(lazy=lazy, flags=flags):
                    result = self.run_code("""
                        import subprocess
                        print(subprocess._args_from_interpreter_flags())
                    """, *flags, lazy=lazy)
                    self.assertEqual(result.err, "")
                    args = eval(result.out)
                    self.assertEqual("-L" in args, lazy, args)
                    if "-I" in flags:
                        self.assertIn("-I", args)

    def test_subprocess_child_inherits(self):
        # Contract rule 3
        files = dict(TARGET, **{"main.py": """
            import subprocess, sys
            child = '''
            import sys, importlib
            import target
            print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
            print("target" in sys.modules)
            '''
            subprocess.run([sys.executable,
                            *subprocess._args_from_interpreter_flags(),
                            "-c", child], check=True)
        """})
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                executed = [] if lazy else ["exec target"]
                self.assert_lines(result, executed + [f"{lazy} {lazy}",
                                                      str(not lazy)])

    def test_multiprocessing_spawn_child_inherits(self):
        # Contract rule 3
        import_helper.import_module("_multiprocessing")
        files = {"main.py": """
            import importlib
            import multiprocessing
            import sys

            def report(queue):
                queue.put((sys.flags.lazy_imports,
                           importlib.is_lazy_imports_enabled()))

            if __name__ == "__main__":
                context = multiprocessing.get_context("spawn")
                queue = context.Queue()
                process = context.Process(target=report, args=(queue,))
                process.start()
                process.join(60)
                print(process.exitcode)
                print(queue.get(timeout=5))
        """}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                self.assert_lines(result, ["0", f"({lazy}, {lazy})"])

    def test_nothing_lazy_without_flag(self):
        # Contract rule 30: without -L (and set_lazy_imports) nothing is
        # ever lazy, at start-up or after importing stdlib packages.
        code = """
            import importlib, sys
            import json, logging, email.message, unittest
            import target
            print("bound")
            print(any(importlib.is_lazy_import(vars(module), name)
                      for module in list(sys.modules.values())
                      for name in list(vars(module))))
            def _uses():
                return target
        """
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy, files=TARGET)
                order = ["bound"] if lazy else ["exec target", "bound"]
                self.assert_lines(result, order + [str(lazy)])

    def test_no_environment_variable(self):
        # Contract rule 7: PEP 690 had no environment variable; a guess at
        # one does nothing, in the process or in its children.
        code = """
            import importlib, sys
            import target
            print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
        """
        result = self.run_code(code, lazy=False, files=TARGET,
                               env={"PYTHONLAZYIMPORTS": "1"})
        self.assert_lines(result, ["exec target", "False False"])
        result = self.run_code("""
            import importlib, os, sys
            os.environ["PYTHONLAZYIMPORTS"] = "1"
            import subprocess
            subprocess.run([sys.executable, "-c",
                            "import sys; print(sys.flags.lazy_imports)"],
                           env=os.environ, check=True)
        """, lazy=False)
        self.assert_lines(result, ["False"])

    def test_pep_810_environment_variable(self):
        # Contract rules 7 and 48: CPython 3.15's PYTHON_LAZY_IMPORTS.
        code = """
            import importlib, sys
            import target
            print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
            def _uses():
                return target
        """
        for value, lazy in (("all", True), ("normal", False)):
            with self.subTest(value=value):
                result = self.run_code(code, lazy=False, files=TARGET,
                                       env={"PYTHON_LAZY_IMPORTS": value})
                executed = [] if lazy else ["exec target"]
                self.assert_lines(result, executed + [f"{lazy} {lazy}"])

    def test_help_env_lists_only_the_pep_810_variable(self):
        # Contract rule 7
        result = self.run_python("--help-env", lazy=False)
        lines = [line for line in result.lines if "LAZY" in line]
        self.assertEqual(len(lines), 1, result.out)
        self.assertTrue(lines[0].startswith("PYTHON_LAZY_IMPORTS:"), lines)

    def test_x_option_is_an_alias_or_nothing(self):
        # Contract rule 7: -X lazy_imports, if it exists, is -L.
        result = self.run_files(TARGET, "-X", "lazy_imports", "-c", """if 1:
            import importlib, subprocess, sys
            import target
            print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled(),
                  "target" in sys.modules,
                  "-L" in subprocess._args_from_interpreter_flags())
        """, lazy=False)
        self.assertEqual(result.err, "")
        self.assertIn(result.lines,
                      (["True True False True"],
                       ["exec target", "False False True False"]))


class SetLazyImportsTests(LazyImportsTestCase):

    def test_applies_to_rest_of_calling_module(self):
        # Contract rule 4
        for call in ("set_lazy_imports()", "set_lazy_imports(True)",
                     "set_lazy_imports(enabled=True)",
                     "set_lazy_imports(False)"):
            with self.subTest(call=call):
                result = self.run_files({
                    "before.py": 'print("exec", __name__)',
                    "after.py": 'print("exec", __name__)\nvalue = 1',
                    "main.py": f"""
                        import importlib
                        import before
                        importlib.{call}
                        import after
                        print("bound")
                        after.value
                        before
                    """}, lazy=False)
                if "False" in call:
                    expected = ["exec before", "exec after", "bound"]
                else:
                    expected = ["exec before", "bound", "exec after"]
                self.assert_lines(result, expected)

    def test_disable(self):
        # Contract rule 4: under -L, set_lazy_imports(False) makes what
        # follows eager; what was bound before stays lazy.
        result = self.run_files({
            "before.py": 'print("exec", __name__)',
            "after.py": 'print("exec", __name__)',
            "main.py": """
                import importlib
                import before
                importlib.set_lazy_imports(False)
                import after
                print("bound")
                before
            """}, lazy=True)
        self.assert_lines(result, ["exec after", "bound", "exec before"])

    def test_applies_to_modules_imported_later(self):
        # Contract rule 4
        result = self.run_files({
            "outer.py": """
                print("exec", __name__)
                import inner
                print("outer done")
                def get():
                    return inner.value
            """,
            "inner.py": 'print("exec", __name__)\nvalue = 7',
            "main.py": """
                import importlib
                importlib.set_lazy_imports()
                import outer
                print("bound")
                print(outer.get())
            """}, lazy=False)
        self.assert_lines(result, ["bound", "exec outer", "outer done",
                                   "exec inner", "7"])

    def test_applies_to_every_thread(self):
        # Contract rule 4: the switch made by the main thread is seen by a
        # waiting thread, which imports with the state opposite to the
        # command line.
        files = dict(TARGET, **{"main.py": """
            import importlib, sys, threading
            switched = threading.Event()
            report = []

            def worker():
                switched.wait()
                namespace = {}
                exec("import target\\ndef uses(): return target", namespace)
                report.append("target" in sys.modules)
                report.append(importlib.is_lazy_import(namespace, "target"))

            thread = threading.Thread(target=worker, daemon=True)
            thread.start()
            try:
                importlib.set_lazy_imports(not sys.flags.lazy_imports)
            finally:
                switched.set()
            thread.join()
            print(report)
        """})
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                self.assert_lines(result, ["exec target", "[True, False]"]
                                  if lazy else ["[False, True]"])

    def test_excluding_is_replaced_and_cleared(self):
        # Contract rule 4: each call replaces the exclusions; None clears.
        files = {f"{name}.py": 'print("exec", __name__)'
                 for name in ("x1", "y1", "x2", "y2", "x3", "y3")}
        files["main.py"] = """
            import importlib
            importlib.set_lazy_imports(excluding=["x1", "y2"])
            import x1, y1
            print("phase 1")
            importlib.set_lazy_imports(excluding=["x2", "x3"])
            import x2, y2
            print("phase 2")
            importlib.set_lazy_imports(excluding=None)
            import x3
            print("phase 3")
            importlib.set_lazy_imports(excluding=["y3"])
            importlib.set_lazy_imports()
            import y3
            print("phase 4")
            x3, y3, y1, y2
        """
        result = self.run_files(files, lazy=False)
        self.assert_lines(result, ["exec x1", "phase 1",
                                   "exec x2", "phase 2",
                                   "phase 3",
                                   "phase 4",
                                   "exec x3", "exec y3", "exec y1",
                                   "exec y2"])

    def test_excluding_is_keyword_only(self):
        # Contract rule 4: the failed call changes nothing.
        result = self.run_code("""
            import importlib
            try:
                importlib.set_lazy_imports(True, ["x"])
            except TypeError:
                print("TypeError")
            print(importlib.is_lazy_imports_enabled())
        """, lazy=False)
        self.assert_lines(result, ["TypeError", "False"])

    def test_is_lazy_imports_enabled(self):
        # Contract rule 5
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib
                    states = [importlib.is_lazy_imports_enabled()]
                    importlib.set_lazy_imports()
                    states.append(importlib.is_lazy_imports_enabled())
                    importlib.set_lazy_imports(False)
                    states.append(importlib.is_lazy_imports_enabled())
                    importlib.set_lazy_imports(True, excluding=["x"])
                    states.append(importlib.is_lazy_imports_enabled())
                    print(states, {type(state) for state in states} == {bool})
                """, lazy=lazy)
                self.assert_lines(result,
                                  [f"[{lazy}, True, False, True] True"])


class SubinterpreterTests(LazyImportsTestCase):

    def test_starts_from_command_line(self):
        # Contract rule 6: state is per interpreter.  A new one starts from
        # the -L setting, not from the main interpreter's current state,
        # and its own switch does not leak back.
        import_helper.import_module("_interpreters")
        for lazy in MODES:
            for config in ("isolated", "legacy"):
                with self.subTest(lazy=lazy, config=config):
                    result = self.run_code(f"""
                        import _interpreters, importlib, os, sys
                        importlib.set_lazy_imports(not sys.flags.lazy_imports)
                        read_end, write_end = os.pipe()
                        interp = _interpreters.create({config!r})
                        failure = _interpreters.run_string(interp, f'''if 1:
                            import importlib, os, sys
                            import __hello__
                            report = (importlib.is_lazy_imports_enabled(),
                                      "__hello__" in sys.modules)
                            importlib.set_lazy_imports(not report[0])
                            os.write({{write_end}}, repr(report).encode())
                        ''')
                        assert failure is None, failure
                        _interpreters.destroy(interp)
                        os.close(write_end)
                        print(os.read(read_end, 1000).decode())
                        print(importlib.is_lazy_imports_enabled())
                    """, lazy=lazy)
                    self.assert_lines(result, [f"({lazy}, {not lazy})",
                                               str(not lazy)])


class VerifyTests(LazyImportsTestCase):
    """-X lazy_imports=verify (contract rule 44) and -X lazy_imports=all
    (contract rule 48)."""

    # Each program reads the names it imports in a function it never calls:
    # an import whose name no code of its module reads would run at once
    # (contract rule 57), leaving nothing deferred to verify.
    FILES = {
        "good.py": ("import json\nimport colorsys\nprint('done')\n\n\n"
                    "def _never():\n    return json, colorsys\n"),
        "bad.py": ("import json\nimport no_such_module_xyz\n"
                   "from os import no_such_name_xyz\nprint('done')\n\n\n"
                   "def _never():\n"
                   "    return json, no_such_module_xyz, no_such_name_xyz\n"),
        "raises.py": ("import no_such_module_xyz\n\n\n"
                      "def _never():\n    return no_such_module_xyz\n\n\n"
                      "raise SystemExit(3)\n"),
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
        # Contract rule 44: each failure with its deferred statement; status 1.
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

    # A console script's wrapper: the failure is in a helper module whose
    # import only a function never called uses, and the program ends with
    # sys.exit(main()).
    HELPER = {"helper.py": ("import nosuchmod_xyz\n\n"
                            "def main():\n    return 0\n\n"
                            "def _never():\n    return nosuchmod_xyz\n")}
    NORMAL_ENDS = {
        "returns": "from helper import main\nmain()\n",
        "sys.exit(main())": ("import sys\nfrom helper import main\n"
                             "sys.exit(main())\n"),
        "sys.exit()": "import sys\nfrom helper import main\nsys.exit()\n",
        "sys.exit(None)": ("import sys\nfrom helper import main\n"
                           "sys.exit(None)\n"),
        "SystemExit(0)": ("from helper import main\n"
                          "raise SystemExit(main())\n"),
        "SystemExit(False)": ("from helper import main\n"
                              "raise SystemExit(False)\n"),
    }

    def check_verified(self, result):
        self.assertEqual(result.rc, 1)
        err = result.err.splitlines()
        self.assertIn("lazy import verify: helper.nosuchmod_xyz: "
                      "ModuleNotFoundError: No module named "
                      "'nosuchmod_xyz'", err)
        self.assertTrue(any("helper.py:1" in line for line in err),
                        result.err)
        self.assertEqual(err[-1], "lazy import verify: 1 failed")

    def test_an_exit_with_status_0_is_a_normal_end(self):
        # Contract rule 44: however the program ends with status 0 (its
        # code returns, or a SystemExit whose status is 0), it is verified.
        for name, source in self.NORMAL_ENDS.items():
            files = dict(self.HELPER, **{"cli.py": source})
            for args in (("cli.py",), ("-m", "cli"),
                         ("-c", "exec(open('cli.py').read())")):
                with self.subTest(end=name, args=args):
                    result = self.run_files(
                        files, "-X", "lazy_imports=verify", *args,
                        lazy=False, failure=True)
                    self.check_verified(result)

    def test_the_status_of_a_failing_exit_is_kept(self):
        # Contract rule 44: a non-zero status is the program's failure:
        # kept as it is, and nothing is verified.
        for source, status in (("sys.exit(2)", 2), ("sys.exit('bye')", 1),
                               ("raise SystemExit(5)", 5)):
            files = dict(self.HELPER, **{
                "cli.py": f"import sys\nfrom helper import main\n{source}\n"})
            for args in (("cli.py",), ("-m", "cli")):
                with self.subTest(source=source, args=args):
                    result = self.run_files(
                        files, "-X", "lazy_imports=verify", *args,
                        lazy=False, failure=True)
                    self.assertEqual(result.rc, status)
                    self.assertNotIn("lazy import verify", result.err)

    def test_a_system_exit_raised_while_verifying(self):
        # The verification runs module bodies; a SystemExit one raises is
        # a failure of the verification, not a second exit.
        files = {"exits.py": "raise SystemExit(0)\n",
                 "cli.py": ("import sys\nimport exits\n\n\n"
                            "def _never():\n    return exits\n\n\n"
                            "sys.exit(0)\n")}
        result = self.run_files(files, "-X", "lazy_imports=verify", "cli.py",
                                lazy=False, failure=True)
        self.assertEqual(result.rc, 1)
        self.assertIn("SystemExit", result.err)

    def test_verify_command(self):
        # python -m importlib.lazy verify runs the program as
        # -X lazy_imports=verify does, and exits with its status.
        files = dict(self.HELPER, **{"cli.py": self.NORMAL_ENDS[
            "sys.exit(main())"]})
        for args in (("cli.py",), ("-m", "cli")):
            with self.subTest(args=args):
                result = self.run_files(
                    files, "-m", "importlib.lazy", "verify", *args,
                    lazy=False, failure=True)
                self.check_verified(result)
        files = {"good.py": self.FILES["good.py"],
                 "exits.py": "import sys\nprint(sys.argv[1:])\n"
                             "sys.exit(int(sys.argv[1]))\n"}
        result = self.run_files(files, "-m", "importlib.lazy", "verify",
                                "good.py", lazy=False)
        self.assertEqual(result.lines, ["done"])
        self.assertEqual(result.err, "")
        result = self.run_files(files, "-m", "importlib.lazy", "verify",
                                "exits.py", "3", lazy=False, failure=True)
        self.assertEqual(result.rc, 3)
        self.assertEqual(result.lines, ["['3']"])

    def test_all_and_verify_turn_lazy_imports_on(self):
        code = ("import sys, importlib, json; "
                "print(sys.flags.lazy_imports, "
                "importlib.is_lazy_import(globals(), 'json'))")
        for value in ("all", "verify"):
            with self.subTest(value=value):
                result = self.run_python("-X", f"lazy_imports={value}",
                                         "-c", code, lazy=False)
                self.assertEqual(result.lines, ["True True"])


class HealOptionTests(LazyImportsTestCase):
    """-X lazy_imports_heal (contract rule 52): 0 or 1, nothing else."""

    # Contract rule 51 catches up pkg.curry; -X lazy_imports_heal=0 does not.
    FILES = {
        "pkg/__init__.py": "from .fill import fill\n",
        "pkg/fill.py": "import pkg\npkg.curry = 'curry'\nfill = 1\n",
        "main.py": "import pkg\nprint(getattr(pkg, 'curry', None))\n",
    }

    def test_values(self):
        cases = [
            ((), "curry"),
            (("-X", "lazy_imports_heal=0"), "None"),
            (("-X", "lazy_imports_heal=1"), "curry"),
            (("-X", "lazy_imports_heal"), "curry"),
            # The last one given wins.
            (("-X", "lazy_imports_heal=1", "-X", "lazy_imports_heal=0"),
             "None"),
            (("-X", "lazy_imports_heal=0", "-X", "lazy_imports_heal"),
             "curry"),
        ]
        for args, expected in cases:
            with self.subTest(args=args):
                result = self.run_files(self.FILES, *args, "main.py",
                                        lazy=True)
                self.assert_printed(result, [expected])

    def test_invalid_value_stops_start_up(self):
        for value in ("off", "on", "2", "", "00", "true"):
            with self.subTest(value=value):
                result = self.run_python(
                    "-X", f"lazy_imports_heal={value}", "-c", "print('ran')",
                    lazy=True, failure=True)
                self.assertEqual(result.out, "")
                self.assertIn("-X lazy_imports_heal must be 0 or 1",
                              result.err)

    def test_children_inherit_it(self):
        # Contract rules 3 and 52: passed on as -L is.
        result = self.run_python(
            "-X", "lazy_imports_heal=0", "-c",
            "import subprocess, sys\n"
            "flags = subprocess._args_from_interpreter_flags()\n"
            "print(flags, flush=True)\n"
            "subprocess.run([sys.executable, *flags, '-c', 'import sys; "
            "print(sys._xoptions.get(\"lazy_imports_heal\"))'])",
            lazy=True)
        self.assertEqual(len(result.lines), 2, result.err)
        self.assertIn("'-X', 'lazy_imports_heal=0'", result.lines[0])
        self.assertEqual(result.lines[1], "0")

    def test_help(self):
        result = self.run_python("--help-xoptions", lazy=False)
        self.assertIn("-X lazy_imports_heal=[0|1]: a diagnostic", result.out)
        self.assertIn("rule 54", result.out)


if __name__ == "__main__":
    unittest.main()

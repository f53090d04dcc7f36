"""Code written for CPython 3.15's lazy imports (PEP 810) runs lazily here.

Contract rule 48: a module's ``__lazy_modules__``, ``-X lazy_imports=
all|normal|none``, ``PYTHON_LAZY_IMPORTS`` and ``sys.set_lazy_imports()``,
``sys.get_lazy_imports()`` and the ``sys`` lazy imports filter.
"""

import textwrap
import unittest

from test.support import os_helper

from .util import LazyImportsTestCase

LOGGED = 'print("exec", __name__)\nvalue = 42\n'

# A small library written the 3.15 way: its package lists the modules it
# wants lazy, which a 3.13 interpreter ignores.
LIBRARY = {
    "fastlib/__init__.py": """
        __lazy_modules__ = ["fastlib.plot", "fastlib.io", "json"]
        print("exec", __name__)
        import json
        import fastlib.plot
        from fastlib.io import load
        from fastlib import core            # not listed: eager

        def dump(value):
            return json.dumps(value)
    """,
    "fastlib/core.py": LOGGED,
    "fastlib/plot.py": LOGGED,
    "fastlib/io.py": LOGGED + "def load(): return 'loaded'\n",
}

SHOW = """
    import importlib, sys
    import fastlib
    ns = vars(fastlib)
    print(*(name for name in ("json", "fastlib", "load", "core")
            if importlib.is_lazy_import(ns, name)))
    print(*sorted(m for m in ("json", "fastlib.plot", "fastlib.io")
                  if m in sys.modules))
"""


class LazyModulesTests(LazyImportsTestCase):

    def test_library_written_for_315(self):
        # The listed imports are lazy without -L; the others run now; the
        # lazy ones resolve on first use, invisibly.
        result = self.run_code(textwrap.dedent(SHOW) + textwrap.dedent("""
            print(fastlib.load(), fastlib.dump([1]))
            print(fastlib.plot.value)
            print(*sorted(m for m in ("json", "fastlib.plot", "fastlib.io")
                          if m in sys.modules))
        """), lazy=False, files=LIBRARY, path=True)
        self.assertEqual(result.executed, ["fastlib", "fastlib.core",
                                           "fastlib.io", "fastlib.plot"])
        self.assertEqual(result.output, [
            "json fastlib load", "",
            "loaded [1]", "42",
            "fastlib.io fastlib.plot json"], result.err)

    def test_containers(self):
        # Any container, asked with "in" for the absolute name imported.
        # A str is a container too ("target" in "xtargetx"), as in 3.15.
        for container, lazy in (('["target"]', True), ('("target",)', True),
                                ('{"target"}', True), ('{"target": 1}', True),
                                ('Box()', True), ('"xtargetx"', True),
                                ('["targets"]', False), ('()', False)):
            with self.subTest(container=container):
                result = self.run_code(f"""
                    import importlib, sys
                    class Box:
                        def __contains__(self, name):
                            print("asked", name)
                            return name == "target"
                    __lazy_modules__ = {container}
                    import target
                    print(importlib.is_lazy_import(globals(), "target"))
                """, lazy=False, files={"target.py": LOGGED})
                expected = (["asked target"] if container == "Box()"
                            else [])
                expected += [str(lazy)] if lazy else ["exec target", "False"]
                self.assertEqual(result.lines, expected, result.err)

    def test_absolute_names(self):
        # "import a.b" asks for "a.b"; "from M import x" and relative
        # imports for the absolute name of M.
        files = {
            "pkg/__init__.py": "",
            "pkg/sub.py": LOGGED,
            "pkg/mod.py": """
                __lazy_modules__ = ["pkg", "pkg.sub"]
                from . import sub
                from .sub import value
                import pkg.sub
                import importlib
                print(*(importlib.is_lazy_import(globals(), n)
                        for n in ("sub", "value", "pkg")))
            """,
        }
        result = self.run_code("import pkg.mod", lazy=False, files=files)
        self.assertEqual(result.lines, ["True True True"], result.err)

    def test_only_where_3_15_defers(self):
        # Imports in try, with, functions and class bodies, and star
        # imports, stay eager, as with -L.
        files = {f"m{i}.py": LOGGED + "__all__ = ['value']\n"
                 for i in range(5)}
        result = self.run_code("""
            __lazy_modules__ = {"m0", "m1", "m2", "m3", "m4"}
            import contextlib
            try:
                import m0
            except ImportError:
                pass
            with contextlib.nullcontext():
                import m1
            def f():
                import m2
            f()
            class C:
                import m3
            from m4 import *
        """, lazy=False, files=files)
        self.assertEqual(result.executed, ["m0", "m1", "m2", "m3", "m4"])

    def test_excluding_and_eager_imports_win(self):
        result = self.run_code("""
            import importlib, sys
            importlib.set_lazy_imports(False, excluding=["a"])
            __lazy_modules__ = ["a", "b", "c"]
            import a
            import b
            with importlib.eager_imports():
                import c
            print(sorted(m for m in "abc" if m in sys.modules))
        """, lazy=False, files={f"{m}.py": LOGGED for m in "abc"})
        self.assertEqual(result.output, ["['a', 'c']"], result.err)

    def test_errors_and_retry(self):
        # Same errors and notes as under -L; a failed import is retried.
        result = self.run_code("""
            __lazy_modules__ = ["broken"]
            import sys
            import broken
            for attempt in range(2):
                try:
                    broken.value
                except ZeroDivisionError as exc:
                    print(type(exc).__name__, exc.__notes__)
                print("broken" in sys.modules)
        """, lazy=False, files={"broken.py": "1/0\n"})
        self.assertEqual(len(result.lines), 4, result.err)
        for line in result.lines[::2]:
            self.assertTrue(line.startswith("ZeroDivisionError"), line)
            self.assertIn("'broken' was deferred at <string>:4", line)
        self.assertEqual(result.lines[1::2], ["False", "False"])

    def test_mode_none_ignores_lazy_modules(self):
        for args in (["-X", "lazy_imports=none"],
                     ["-c", "import sys; sys.set_lazy_imports('none')"]):
            with self.subTest(args=args):
                code = "import fastlib, sys; print('json' in sys.modules)"
                if args[0] == "-c":
                    code = args[1] + "\n" + code
                    args = []
                result = self.run_code(code, *args, lazy=False,
                                       files=LIBRARY, path=True)
                self.assertEqual(result.output, ["True"], result.err)

    def test_costs_nothing_unused(self):
        # Without __lazy_modules__, nothing is lazy and nothing is asked.
        result = self.run_code("""
            import importlib, sys
            import target
            print(importlib.is_lazy_import(globals(), "target"),
                  sys.get_lazy_imports())
        """, lazy=False, files={"target.py": LOGGED})
        self.assertEqual(result.lines, ["exec target", "False normal"])


class ModeTests(LazyImportsTestCase):

    def mode_of(self, *args, env=None, code=""):
        return self.run_python(*args, "-c", code + "import sys; print("
                               "sys.get_lazy_imports(), "
                               "sys.flags.lazy_imports)",
                               lazy=False, env=env).lines

    def test_command_line_and_environment(self):
        cases = [
            ((), None, "normal False"),
            (("-L",), None, "all True"),
            (("-X", "lazy_imports"), None, "all True"),
            (("-X", "lazy_imports=all"), None, "all True"),
            (("-X", "lazy_imports=normal"), None, "normal False"),
            (("-X", "lazy_imports=none"), None, "none False"),
            (("-X", "lazy_imports=verify"), None, "all True"),
            ((), "all", "all True"),
            ((), "normal", "normal False"),
            ((), "none", "none False"),
            (("-E",), "all", "normal False"),
            (("-X", "lazy_imports=normal"), "all", "normal False"),
            (("-L",), "none", "all True"),
            # The last option given wins.
            (("-L", "-X", "lazy_imports=normal"), None, "normal False"),
        ]
        for args, env, expected in cases:
            with self.subTest(args=args, env=env):
                environ = {"PYTHON_LAZY_IMPORTS": env} if env else None
                self.assertEqual(self.mode_of(*args, env=environ),
                                 [expected])

    def test_invalid_mode_stops_start_up(self):
        for args, env in ((("-X", "lazy_imports=sometimes"), None),
                          (("-X", "lazy_imports="), None),
                          ((), "ALL"), ((), "1x")):
            with self.subTest(args=args, env=env):
                environ = {"PYTHON_LAZY_IMPORTS": env} if env else {}
                result = self.run_python(*args, "-c", "print('ran')",
                                         lazy=False, failure=True,
                                         env=environ)
                self.assertEqual(result.out, "")
                self.assertIn("lazy_imports", result.err)
                self.assertIn('"all", "normal", "none" or "verify"',
                              result.err)

    def test_children_inherit_the_mode(self):
        result = self.run_python(
            "-X", "lazy_imports=none", "-c",
            "import subprocess, sys\n"
            "flags = subprocess._args_from_interpreter_flags()\n"
            "subprocess.run([sys.executable, *flags, '-c', 'import sys; "
            "print(sys.get_lazy_imports())'])", lazy=False)
        self.assertEqual(result.lines, ["none"])

    def test_help(self):
        result = self.run_python("--help-env", lazy=False)
        self.assertIn("PYTHON_LAZY_IMPORTS", result.out)
        result = self.run_python("--help-xoptions", lazy=False)
        self.assertIn("lazy_imports", result.out)


class SysAPITests(LazyImportsTestCase):

    def test_same_state_as_importlib(self):
        result = self.run_code("""
            import importlib, sys
            print(sys.get_lazy_imports(), importlib.is_lazy_imports_enabled())
            sys.set_lazy_imports("all")
            print(importlib.is_lazy_imports_enabled())
            import target
            print(importlib.is_lazy_import(globals(), "target"))
            importlib.set_lazy_imports(False)
            print(sys.get_lazy_imports())
            importlib.set_lazy_imports()
            print(sys.get_lazy_imports())
            sys.set_lazy_imports(mode="normal")
            print(sys.get_lazy_imports(), importlib.is_lazy_imports_enabled())
        """, lazy=False, files={"target.py": LOGGED})
        self.assertEqual(result.lines, [
            "normal False", "True", "True", "normal", "all",
            "normal False"], result.err)

    def test_bad_arguments(self):
        result = self.run_code("""
            import sys
            for call, arg in ((sys.set_lazy_imports, None),
                              (sys.set_lazy_imports, 1),
                              (sys.set_lazy_imports, "ALL"),
                              (sys.set_lazy_imports, "verify"),
                              (sys.set_lazy_imports_filter, 42)):
                try:
                    call(arg)
                except (TypeError, ValueError) as exc:
                    print(type(exc).__name__, exc)
            print(sys.get_lazy_imports(), sys.get_lazy_imports_filter())
        """, lazy=False)
        self.assertEqual(result.lines, [
            "TypeError lazy imports mode must be a str, not NoneType",
            "TypeError lazy imports mode must be a str, not int",
            "ValueError lazy imports mode must be 'all', 'normal' or "
            "'none', not 'ALL'",
            "ValueError lazy imports mode must be 'all', 'normal' or "
            "'none', not 'verify'",
            "TypeError lazy imports filter must be callable or None, "
            "not int",
            "normal None"], result.err)

    def test_filter(self):
        # filter(importer, name, fromlist) for every import that would be
        # lazy, under -L and for __lazy_modules__; false means eager.
        files = {"pkg/__init__.py": "", "pkg/a.py": LOGGED,
                 "pkg/b.py": LOGGED,
                 "mod.py": """
                     __lazy_modules__ = ["pkg.a", "pkg"]
                     import pkg.a
                     from pkg import b
                     import json

                     def _uses():  # an unread import runs at once (rule 57)
                         return json
                 """}
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, sys
                    calls = []
                    def keep(importer, name, fromlist):
                        calls.append((importer, name, fromlist))
                        return name != "pkg.a"
                    sys.set_lazy_imports_filter(keep)
                    print(sys.get_lazy_imports_filter() is keep)
                    mod = importlib.import_module("mod")
                    print(calls)
                    print(*(importlib.is_lazy_import(vars(mod), n)
                            for n in ("pkg", "b")))
                    sys.set_lazy_imports_filter(None)
                    print(sys.get_lazy_imports_filter())
                """, lazy=lazy, files=files)
                calls = [("mod", "pkg.a", None), ("mod", "pkg", ("b",))]
                if lazy:
                    calls.append(("mod", "json", None))
                self.assertEqual(result.output, [
                    "True", str(calls), "False True", "None"], result.err)

    def test_filter_error_propagates(self):
        # The import statement raises the filter's error; nothing is lost.
        result = self.run_code("""
            import importlib, sys
            def broken(importer, name, fromlist):
                raise RuntimeError("no " + name)
            sys.set_lazy_imports_filter(broken)
            sys.set_lazy_imports("all")
            try:
                importlib.import_module("user")
            except RuntimeError as exc:
                print(exc, "target" in sys.modules, "user" in sys.modules)
            sys.set_lazy_imports_filter(None)
            user = importlib.import_module("user")
            print(importlib.is_lazy_import(vars(user), "target"))
            print(user.target.value)
        """, lazy=False, files={"target.py": LOGGED,
                                "user.py": ("import target\n\n\n"
                                            "def _uses():\n"
                                            "    return target\n")})
        self.assertEqual(result.lines, ["no target False False", "True",
                                        "exec target", "42"], result.err)

    def test_filter_replaced_while_the_decision_reads_the_importer(self):
        # The filter is asked with the importer's __name__, whose lookup may
        # run code (here a lazy __name__ resolves) that replaces the filter:
        # the statement still asks the one it started with.
        result = self.run_code("""
            import sys
            class Filter:
                def __call__(self, importer, name, fromlist):
                    print("asked", importer, name)
                    return True
                def __del__(self):
                    print("filter freed")
            sys.set_lazy_imports_filter(Filter())
            import user
            print("done", user.__name__)
        """, lazy=True, files={
            "victim.py": ("import sys\n"
                          "sys.set_lazy_imports_filter(None)\n"),
            "user.py": "from victim import __name__\nimport json\n"})
        self.assertEqual(result.lines, ["asked __main__ user",
                                        "asked user victim",
                                        "asked victim sys",
                                        "asked victim json", "filter freed",
                                        "done victim"], result.err)


if __name__ == "__main__":
    unittest.main()

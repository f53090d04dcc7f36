"""Lazy imports (PEP 690): each scenario runs in a child interpreter, with
and without -L, on a module tree written to a temporary directory."""

import os
import textwrap
import unittest

from test.support import os_helper
from test.support.script_helper import assert_python_ok


class LazyImportTestCase(unittest.TestCase):

    def make_tree(self, files):
        tmp = self.enterContext(os_helper.temp_dir())
        for name, source in files.items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(source))
        return tmp

    def run_main(self, files, *args):
        tmp = self.make_tree(files)
        res = assert_python_ok(*args, os.path.join(tmp, "main.py"),
                               __cwd=tmp, PYTHONPATH=tmp)
        return res.out.decode().splitlines()

    TREE = {
        "mod.py": """\
            print("mod executed")
            VALUE = 42
            """,
        "main.py": """\
            import sys, importlib
            import mod
            from mod import VALUE
            print("mod" in sys.modules,
                  importlib.is_lazy_import(globals(), "mod"))
            print(mod.VALUE, VALUE)
            print("mod" in sys.modules,
                  importlib.is_lazy_import(globals(), "mod"))
            """,
    }

    def test_eager_without_flag(self):
        self.assertEqual(self.run_main(self.TREE),
                         ["mod executed", "True False", "42 42",
                          "True False"])

    def test_lazy_with_flag(self):
        self.assertEqual(self.run_main(self.TREE, "-L"),
                         ["False True", "mod executed", "42 42",
                          "True False"])

    def test_flag(self):
        files = {"main.py": "import sys; print(sys.flags.lazy_imports)\n"}
        self.assertEqual(self.run_main(files), ["False"])
        self.assertEqual(self.run_main(files, "-L"), ["True"])

    def test_try_and_with_are_eager(self):
        files = {name + ".py": f"print('{name}')\n"
                 for name in ("a", "b", "c", "d", "e")}
        files["main.py"] = """\
            import importlib
            try:
                import a
            except ImportError:
                pass
            else:
                import b
            finally:
                import c
            with importlib.eager_imports():
                import d
            import e
            print(importlib.is_lazy_import(globals(), "e"))
            """
        self.assertEqual(self.run_main(files, "-L"),
                         ["a", "b", "c", "d", "True"])

    def test_values_never_lazy(self):
        files = {"mod.py": "X = 1\n", "main.py": """\
            import mod
            values = list(globals().values())
            print(any(type(v).__name__ == "lazy_import" for v in values))
            print(mod.X)
            """}
        self.assertEqual(self.run_main(files, "-L"), ["False", "1"])

    def test_error_at_first_use(self):
        files = {"main.py": """\
            import missing_module_for_test
            print("deferred")
            try:
                missing_module_for_test.x
            except ModuleNotFoundError as exc:
                print(type(exc).__name__, "main.py:1" in exc.__notes__[0])
            """}
        self.assertEqual(self.run_main(files, "-L"),
                         ["deferred", "ModuleNotFoundError True"])


if __name__ == "__main__":
    unittest.main()

"""Tools, C API, ABI and .pyc compatibility (SPEC rules 28, 29, 31, 32)."""

import os
import sys
import sysconfig
import unittest
from importlib.util import MAGIC_NUMBER

from test.support import import_helper, os_helper

from .util import MODES, LazyImportsTestCase, write_files

TARGET = {"target.py": 'print("exec", __name__)\nvalue = 42\n'}

MARKED = """
import sys
import target
print("MARK", file=sys.stderr, flush=True)
target.value
"""


class VerboseTests(LazyImportsTestCase):

    def test_verbose(self):
        # Rule 28: one line when deferred, the usual ones when executed.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(MARKED, "-v", lazy=lazy, files=TARGET)
                lines = result.err.splitlines()
                mark = lines.index("MARK")
                executed = [i for i, line in enumerate(lines)
                            if line.startswith("import 'target' #")]
                deferred = [i for i, line in enumerate(lines)
                            if "target" in line and "<string>:3" in line]
                self.assertEqual(len(executed), 1)
                self.assertEqual(executed[0] > mark, lazy)
                self.assertEqual(len(deferred), int(lazy), result.err)

    def test_importtime(self):
        # Rule 28: -X importtime reports the import when it happens.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(MARKED, "-X", "importtime", lazy=lazy,
                                       files=TARGET)
                lines = result.err.splitlines()
                reported = [i for i, line in enumerate(lines)
                            if line.startswith("import time:")
                            and line.endswith("| target")]
                self.assertEqual(len(reported), 1, result.err)
                self.assertEqual(reported[0] > lines.index("MARK"), lazy)


class CAPITests(LazyImportsTestCase):

    def setUp(self):
        import_helper.import_module("ctypes")

    def test_c_api(self):
        # Rule 29: the scenario capi (ctypes bindings) on the C API.
        result = self.run_scenario("capi", "-c", """if 1:
            import importlib
            from capi import *
            print(is_enabled())
            print(set_lazy(True, ["excluded"]) == (False, None))
            print(is_enabled(), importlib.is_lazy_imports_enabled())
            namespace = {}
            exec("import target\\nimport excluded", namespace)
            print(is_lazy(namespace, "target"), is_lazy(namespace, "excluded"))
            print(resolve(namespace), is_lazy(namespace, "target"))
            print(set_lazy(False, None) == (True, ["excluded"]))
            namespace = {}
            try:
                set_lazy(True, None)
                exec("import missing_module", namespace)
                resolve(namespace)
            except ModuleNotFoundError:
                print("ModuleNotFoundError")
        """, lazy=False, files=dict(TARGET, **{"excluded.py": ""}))
        self.assert_lines(result, ["0", "True", "1 True", "1 0",
                                   "exec target", "0 0", "True",
                                   "ModuleNotFoundError"])

    def test_next_with_error(self):
        # Rule 29: PyDict_NextWithError resolves, and reports failures.
        result = self.run_scenario("capi", "-c", """if 1:
            import sys
            from capi import items_with_error
            namespace = {}
            exec("import target", namespace)
            del namespace["__builtins__"]
            print("bound")
            print(items_with_error(namespace)
                  == [("target", sys.modules["target"])])
            failing = {}
            exec("import missing_module", failing)
            try:
                items_with_error(failing)
            except ModuleNotFoundError:
                print("ModuleNotFoundError")
        """, lazy=True, files=TARGET)
        self.assert_lines(result, ["bound", "exec target", "True",
                                   "ModuleNotFoundError"])


#: Stock CPython 3.13 on 64-bit Linux (default build, no Py_TRACE_REFS):
#: __basicsize__ of types whose C struct is public (Include/cpython).
#: tests/test_compat.py compares with a stock build directly, headers too.
STOCK_BASICSIZE = {
    "dict": 48, "type": 928, "module": 56, "dict_keys": 24,
    "dict_keyiterator": 56, "object": 16, "function": 144, "code": 200,
}


class ABITests(unittest.TestCase):

    @unittest.skipUnless(sys.platform == "linux" and sys.maxsize > 2**32
                         and not sysconfig.get_config_var("Py_GIL_DISABLED")
                         and not hasattr(sys, "getobjects"),
                         "stock sizes recorded for 64-bit Linux only")
    def test_public_structs_keep_their_size(self):
        # Rule 31
        import types
        classes = {"dict": dict, "type": type, "module": types.ModuleType,
                   "dict_keys": type({}.keys()),
                   "dict_keyiterator": type(iter({})), "object": object,
                   "function": types.FunctionType, "code": types.CodeType}
        sizes = {name: cls.__basicsize__ for name, cls in classes.items()}
        self.assertEqual(sizes, STOCK_BASICSIZE)
        self.assertEqual(sys.getsizeof({}), 64)

    def test_extension_abi_tag_is_stock(self):
        # Rule 31: cp313 wheels and extensions load unchanged.
        soabi = sysconfig.get_config_var("SOABI") or ""
        self.assertTrue(soabi.startswith("cpython-313"), soabi)
        self.assertNotIn("lazy", soabi)
        self.assertEqual(sys.implementation.name, "cpython")
        self.assertEqual(sys.version_info[:2], (3, 13))


class PycTests(LazyImportsTestCase):

    def test_pyc_written_by_the_fork_reads_back(self):
        # Rule 32: the eagerness decisions survive the .pyc round trip.
        files = {
            "mod.py": ('print("exec", __name__)\n'
                       "try:\n    import eager_target\nfinally:\n    pass\n"
                       "import target\n"
                       'print("mod done")\n'),
            "eager_target.py": 'print("exec", __name__)\n',
        }
        files.update(TARGET)
        expected = ["exec mod", "exec eager_target", "mod done",
                    "exec target"]
        with os_helper.temp_dir() as root:
            write_files(root, files)
            for run in ("from source", "from .pyc"):
                with self.subTest(run=run):
                    result = self.run_python(
                        "-c", "import mod; mod.target.value", lazy=True,
                        cwd=root)
                    self.assert_lines(result, expected)
            self.assertTrue(os.listdir(os.path.join(root, "__pycache__")))

    def test_magic_number_differs_if_bytecode_changed(self):
        # Rule 32: this is a lazy-cpython build; stock 3.13's magic number
        # is 3571.  If the fork kept it, it must not have changed bytecode.
        magic = int.from_bytes(MAGIC_NUMBER[:2], "little")
        if magic == 3571:
            self.skipTest("bytecode unchanged (stock magic number); "
                          "compared with stock in tests/test_compat.py")
        result = self.run_code("import sys; "
                               "print(sys.implementation.cache_tag)",
                               lazy=False)
        self.assertNotEqual(result.lines, ["cpython-313"])


if __name__ == "__main__":
    unittest.main()


class ResolveLazyImportsTests(LazyImportsTestCase):
    """importlib.resolve_lazy_imports() (rule 43)."""

    FILES = {
        "mod.py": "import json\nimport pkg.sub\nfrom pkg import name\n",
        "pkg/__init__.py": "print('exec pkg')\nname = 'name'\n",
        "pkg/sub.py": "print('exec pkg.sub')\nimport colorsys\n",
        "bad.py": "import no_such_module_xyz\n",
    }

    def test_module_dict_and_every_module(self):
        # Rule 43: resolving binds new lazy names (pkg.sub's colorsys):
        # it repeats until none is left, and counts what it resolved.
        result = self.run_code("""
            import importlib, sys
            import mod
            mod.__name__
            lazy = lambda ns: sorted(k for k in list(ns)
                                     if importlib.is_lazy_import(ns, k))
            print(lazy(vars(mod)))
            print(importlib.resolve_lazy_imports(vars(mod)) > 0,
                  lazy(vars(mod)), "json" in sys.modules)
            print(importlib.resolve_lazy_imports(mod))
            n = importlib.resolve_lazy_imports()
            print(n > 0, "colorsys" in sys.modules, [
                name for name, m in list(sys.modules.items())
                if lazy(getattr(m, "__dict__", {}))])
        """, lazy=True, files=self.FILES, path=True)
        self.assertEqual(result.output, [
            "['json', 'name', 'pkg']", "True [] True", "0", "True True []"],
            result.err)

    def test_failure_raises_and_retries(self):
        # Rule 43: the first failure raises with the note of rule 24; the
        # name stays lazy (rule 25).
        result = self.run_code("""
            import importlib
            import bad
            bad.__name__
            for _ in range(2):
                try:
                    importlib.resolve_lazy_imports(bad)
                except ModuleNotFoundError as exc:
                    print(exc.name, any("bad.py:1" in n
                                        for n in exc.__notes__))
            print(importlib.is_lazy_import(vars(bad), "no_such_module_xyz"))
        """, lazy=True, files=self.FILES, path=True)
        self.assertEqual(result.output, ["no_such_module_xyz True"] * 2
                         + ["True"], result.err)

    def test_wrong_argument(self):
        result = self.run_code("""
            import importlib
            for bad in ("mod", 1, [{}]):
                try:
                    importlib.resolve_lazy_imports(bad)
                except TypeError as exc:
                    print(exc)
            print(importlib.resolve_lazy_imports({}))
        """, lazy=False)
        self.assertEqual(result.output, [
            "resolve_lazy_imports() argument must be a module, a dict or "
            f"None, not {name}" for name in ("str", "int", "list")] + ["0"])


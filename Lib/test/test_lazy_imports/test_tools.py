"""Tools, C API, ABI and .pyc compatibility (contract rules 28, 29, 31,
32)."""

import os
import re
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
        # Contract rule 28: one line (naming the statement's file and line)
        # when an import is deferred, the usual ones when it runs.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(MARKED, "-v", lazy=lazy, files=TARGET)
                lines = result.err.splitlines()
                mark = lines.index("MARK")
                executed = [i for i, line in enumerate(lines)
                            if line.startswith("import 'target' #")]
                deferred = [i for i, line in enumerate(lines)
                            if "target" in line
                            and re.search(r"<string>:3\b", line)]
                self.assertEqual(len(executed), 1, result.err)
                self.assertEqual(executed[0] > mark, lazy)
                self.assertEqual(len(deferred), int(lazy), result.err)
                if lazy:
                    self.assertLess(deferred[0], mark)

    def test_importtime(self):
        # Contract rule 28: -X importtime reports an import when it runs,
        # and an import that never runs not at all.
        # A function reads unused: an import whose name no code of its
        # module reads runs at once (contract rule 57).
        code = (MARKED
                + "import unused\n\n\ndef _uses():\n    return unused\n")
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, "-X", "importtime", lazy=lazy,
                                       files=dict(TARGET, **{"unused.py": ""}))
                lines = result.err.splitlines()

                def reported(name):
                    return [i for i, line in enumerate(lines)
                            if line.startswith("import time:")
                            and line.rsplit("|", 1)[-1].strip() == name]

                self.assertEqual(len(reported("target")), 1, result.err)
                self.assertEqual(reported("target")[0] > lines.index("MARK"),
                                 lazy)
                self.assertEqual(len(reported("unused")), 0 if lazy else 1,
                                 result.err)


#: The C API functions of contract rule 29.
C_API_FUNCTIONS = ["PyImport_SetLazyImports", "PyImport_IsLazyImportsEnabled",
                   "PyDict_IsLazyImport", "PyDict_ResolveLazyImports",
                   "PyDict_NextWithError"]


class CAPITests(LazyImportsTestCase):

    def setUp(self):
        import_helper.import_module("ctypes")

    def test_c_api(self):
        # Contract rule 29: the scenario capi (ctypes bindings) on the C
        # API.
        result = self.run_scenario("capi", "-c", """if 1:
            import importlib
            from capi import *
            print(is_enabled())
            print(set_lazy(True, ["excluded"]) == (False, None))
            print(is_enabled(), importlib.is_lazy_imports_enabled())
            namespace = {}
            exec("import target\\nimport excluded\\n"
                 "def uses(): return target, excluded", namespace)
            print(is_lazy(namespace, "target"), is_lazy(namespace, "excluded"))
            print(resolve(namespace), is_lazy(namespace, "target"))
            print(set_lazy(False, None) == (True, ["excluded"]))
            namespace = {}
            try:
                set_lazy(True, None)
                exec("import missing_module\\n"
                     "def uses(): return missing_module", namespace)
                resolve(namespace)
            except ModuleNotFoundError:
                print("ModuleNotFoundError")
        """, lazy=False, files=dict(TARGET, **{"excluded.py": ""}))
        self.assert_lines(result, ["0", "True", "1 True", "1 0",
                                   "exec target", "0 0", "True",
                                   "ModuleNotFoundError"])

    def test_set_and_query_state(self):
        # Contract rule 29: PyImport_SetLazyImports() returns the previous
        # (enabled, excluding) and applies at once, as
        # importlib.set_lazy_imports() does.
        files = {"plain.py": 'print("exec", __name__)',
                 "excluded.py": 'print("exec", __name__)',
                 "main.py": """
                    import importlib, sys
                    from capi import *
                    print(is_enabled())
                    previous = set_lazy(True, ["excluded"])
                    print(previous == (sys.flags.lazy_imports, None),
                          type(previous).__name__)
                    print(is_enabled(), importlib.is_lazy_imports_enabled())
                    import plain
                    import excluded
                    print("bound")
                    previous = set_lazy(False, None)
                    print(previous == (True, ["excluded"]))
                    print(is_enabled(), importlib.is_lazy_imports_enabled())
                    plain
                 """}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("capi", lazy=lazy, files=files)
                self.assert_lines(result, [str(int(lazy)), "True tuple",
                                           "1 True", "exec excluded", "bound",
                                           "True", "0 False", "exec plain"])

    def test_dict_is_lazy_import_and_resolve(self):
        # Contract rule 29: PyDict_IsLazyImport() does not resolve;
        # PyDict_ResolveLazyImports() does, and returns 0 on success.
        result = self.run_scenario("capi", "-c", """if 1:
            import sys
            from capi import *
            namespace = {}
            exec("import target\\nplain = 1\\n"
                 "def uses(): return target", namespace)
            print(is_lazy(namespace, "target"), is_lazy(namespace, "plain"))
            print("target" in sys.modules)
            print(resolve(namespace))
            print(is_lazy(namespace, "target"), namespace["target"].value)
            print(resolve({}), resolve(namespace))
        """, lazy=True, files=TARGET)
        self.assert_lines(result, ["1 0", "False", "exec target", "0",
                                   "0 42", "0 0"])

    def test_resolve_reports_errors(self):
        # Contract rule 29: a failed resolution raises the original
        # exception and leaves the name lazy.
        result = self.run_scenario("capi", "-c", """if 1:
            from capi import *
            namespace = {}
            exec("import missing_module\\n"
                 "def uses(): return missing_module", namespace)
            try:
                resolve(namespace)
            except ModuleNotFoundError as exc:
                print("ModuleNotFoundError", exc.name)
            print(is_lazy(namespace, "missing_module"))
        """, lazy=True)
        self.assert_lines(result, ["ModuleNotFoundError missing_module", "1"])

    def test_next_with_error(self):
        # Contract rule 29: PyDict_NextWithError resolves, and reports
        # failures.
        result = self.run_scenario("capi", "-c", """if 1:
            import sys
            from capi import items_with_error
            namespace = {}
            # The lambdas read the names (contract rule 57) and add no key.
            exec("import target\\nlambda: target", namespace)
            del namespace["__builtins__"]
            print("bound")
            print(items_with_error(namespace)
                  == [("target", sys.modules["target"])])
            failing = {}
            exec("import missing_module\\nlambda: missing_module", failing)
            try:
                items_with_error(failing)
            except ModuleNotFoundError:
                print("ModuleNotFoundError")
        """, lazy=True, files=TARGET)
        self.assert_lines(result, ["bound", "exec target", "True",
                                   "ModuleNotFoundError"])

    def test_c_api_is_documented(self):
        # Contract rule 29
        docs = os.path.join(sysconfig.get_config_var("srcdir") or "", "Doc",
                            "c-api")
        if not os.path.isdir(docs):
            self.skipTest(f"no Doc/c-api in the source tree ({docs})")
        texts = []
        for name in sorted(os.listdir(docs)):
            if name.endswith(".rst"):
                with open(os.path.join(docs, name), encoding="utf-8") as file:
                    texts.append(file.read())
        for function in C_API_FUNCTIONS:
            with self.subTest(function=function):
                pattern = re.compile(rf"^\.\. c:function:: .*\b{function}\(",
                                     re.MULTILINE)
                self.assertTrue(any(pattern.search(text) for text in texts),
                                f"{function} is not documented in {docs}")


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
        # Contract rule 31
        import types
        classes = {"dict": dict, "type": type, "module": types.ModuleType,
                   "dict_keys": type({}.keys()),
                   "dict_keyiterator": type(iter({})), "object": object,
                   "function": types.FunctionType, "code": types.CodeType}
        sizes = {name: cls.__basicsize__ for name, cls in classes.items()}
        self.assertEqual(sizes, STOCK_BASICSIZE)
        self.assertEqual(sys.getsizeof({}), 64)

    def test_extension_abi_tag_is_stock(self):
        # Contract rule 31: cp313 wheels and extensions load unchanged.
        soabi = sysconfig.get_config_var("SOABI") or ""
        self.assertTrue(soabi.startswith("cpython-313"), soabi)
        self.assertNotIn("lazy", soabi)
        self.assertEqual(sys.implementation.name, "cpython")
        self.assertEqual(sys.version_info[:2], (3, 13))


class PycTests(LazyImportsTestCase):

    def test_pyc_written_by_the_fork_reads_back(self):
        # Contract rule 32: the eagerness decisions survive the .pyc round
        # trip.
        files = {
            "mod.py": ('print("exec", __name__)\n'
                       "try:\n    import eager_target\nfinally:\n    pass\n"
                       "import target\n"
                       'print("mod done")\n\n\n'
                       "def _uses():\n    return target\n"),
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
        # Contract rule 32: this is a lazy-cpython build; stock 3.13's magic
        # number is 3571.  If the fork kept it, it must not have changed
        # bytecode.
        magic = int.from_bytes(MAGIC_NUMBER[:2], "little")
        if magic == 3571:
            self.skipTest("bytecode unchanged (stock magic number); "
                          "compared with stock in tests/test_compat.py")
        result = self.run_code("import sys; "
                               "print(sys.implementation.cache_tag)",
                               lazy=False)
        self.assertNotEqual(result.lines, ["cpython-313"])



class ResolveLazyImportsTests(LazyImportsTestCase):
    """importlib.resolve_lazy_imports() (contract rule 43)."""

    # Each module reads the names it imports in a function: an import whose
    # name no code of its module reads runs at once (contract rule 57).
    FILES = {
        "mod.py": ("import json\nimport pkg.sub\nfrom pkg import name\n\n\n"
                   "def _uses():\n    return json, pkg, name\n"),
        "pkg/__init__.py": "print('exec pkg')\nname = 'name'\n",
        "pkg/sub.py": ("print('exec pkg.sub')\nimport colorsys\n\n\n"
                       "def _uses():\n    return colorsys\n"),
        "bad.py": ("import no_such_module_xyz\n\n\n"
                   "def _uses():\n    return no_such_module_xyz\n"),
    }

    def test_module_dict_and_every_module(self):
        # Contract rule 43: resolving binds new lazy names (pkg.sub's
        # colorsys): it repeats until none is left, and counts what it
        # resolved.
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
        # Contract rule 43: the first failure raises with the note of
        # contract rule 24; the name stays lazy (contract rule 25).
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


if __name__ == "__main__":
    unittest.main()

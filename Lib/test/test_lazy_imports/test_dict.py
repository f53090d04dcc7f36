"""Lazy objects are invisible (SPEC rules 19-23)."""

import unittest

from test.support import import_helper

from .util import MODES, LazyImportsTestCase

TARGET = {"target.py": 'print("exec", __name__)\nvalue = [1, 2, 3]\n'}

# d holds one key, "value", bound by a lazy from-import under -L.
PRELUDE = """
import importlib, sys
d = {}
exec("from target import value", d)
del d["__builtins__"]
print("lazy", importlib.is_lazy_import(d, "value"))
"""

READS = [
    ("d['value']", "is"),
    ("d.get('value')", "is"),
    ("d.setdefault('value')", "is"),
    ("d.pop('value')", "is"),
    ("d.popitem()[1]", "is"),
    ("list(d.values())[0]", "is"),
    ("list(d.items())[0][1]", "is"),
    ("next(reversed(d.values()))", "is"),
    ("next(reversed(d.items()))[1]", "is"),
    ("eval(repr(d))['value']", "=="),
    ("[1, 2, 3] if d == {'value': [1, 2, 3]} else None", "=="),
    ("__import__('copy').deepcopy(d)['value']", "=="),
    ("__import__('pickle').loads(__import__('pickle').dumps(d))['value']",
     "=="),
    ("__import__('json').loads(__import__('json').dumps(d))['value']", "=="),
]

C_READS = [
    "PyDict_GetItem", "PyDict_GetItemWithError", "PyObject_GetItem",
]


class ValueReadTests(LazyImportsTestCase):

    def check_read(self, expression, relation, lazy, prelude=PRELUDE):
        code = prelude + f"""
obtained = {expression}
print(type(obtained).__name__,
      obtained {relation} sys.modules["target"].value)
"""
        result = self.run_code(code, lazy=lazy, files=TARGET)
        order = (["lazy True", "exec target"] if lazy
                 else ["exec target", "lazy False"])
        self.assert_lines(result, order + ["list True"])

    def test_reads_resolve(self):
        # Rule 19
        for expression, relation in READS:
            for lazy in MODES:
                with self.subTest(expression=expression, lazy=lazy):
                    self.check_read(expression, relation, lazy)

    def test_c_api_reads_resolve(self):
        # Rule 19: C code reading a dict never sees a lazy object.
        import_helper.import_module("ctypes")
        for function in C_READS:
            # PyDict_GetItem*() return a borrowed reference: take the
            # address and make a new reference from it, as ctypes' py_object
            # restype would steal one.
            borrowed = function.startswith("PyDict_")
            prelude = PRELUDE + f"""
import ctypes
_function = ctypes.pythonapi.{function}
_function.restype = ctypes.c_void_p if {borrowed} else ctypes.py_object
_function.argtypes = (ctypes.py_object, ctypes.py_object)
def function(*args):
    result = _function(*args)
    if {borrowed}:
        result = ctypes.cast(result, ctypes.py_object).value
    return result
"""
            for lazy in MODES:
                with self.subTest(function=function, lazy=lazy):
                    self.check_read("function(d, 'value')", "is", lazy,
                                    prelude)

    def test_module_namespace_reads_resolve(self):
        # Rule 19: globals(), vars(), module.__dict__, frame.f_globals.
        reads = ["list(globals().values())", "list(vars(holder).items())",
                 "list(holder.__dict__.values())",
                 "list(sys._getframe().f_globals.values())",
                 "[holder.__dict__[key] for key in list(holder.__dict__)]"]
        for read in reads:
            with self.subTest(read=read):
                result = self.run_code(f"""
                    import sys
                    import holder
                    holder.__name__
                    import target
                    values = {read}
                    print(any(type(v).__name__ == "lazy_import"
                              for v in values
                              for v in (v if isinstance(v, tuple) else (v,))))
                    print("target" in sys.modules)
                """, lazy=True, files=dict(TARGET,
                                           **{"holder.py": "import target"}))
                self.assertEqual(result.output, ["False", "True"], result.err)

    def test_reads_after_some_resolutions(self):
        # Rule 19: while some of a dict's lazy objects are resolved, the
        # others still resolve on each read; once none is left, a lazy
        # import stored in the same dict again resolves on read.
        files = {f"m{i}.py": f"value = {i}\n" for i in range(4)}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib
                    d = {}
                    exec("import m0, m1, m2", d)
                    print(d["m1"].value, importlib.is_lazy_import(d, "m0"),
                          importlib.is_lazy_import(d, "m2"))
                    print([v.value for k, v in d.items() if k[0] == "m"])
                    print(any(importlib.is_lazy_import(d, k) for k in d))
                    exec("import m3", d)
                    print(importlib.is_lazy_import(d, "m3"), d["m3"].value)
                """, lazy=lazy, files=files)
                self.assert_lines(result, [f"1 {lazy} {lazy}", "[0, 1, 2]",
                                           "False", f"{lazy} 3"])

    def test_copies_resolve_on_read(self):
        # Rule 21
        for copy in ("d.copy()", "dict(d)", "{**d}", "d | {}",
                     "(lambda **kwargs: kwargs)(**d)"):
            with self.subTest(copy=copy):
                self.check_read(f"({copy})['value']", "is", lazy=True)


class KeyReadTests(LazyImportsTestCase):

    def test_key_reads_do_not_resolve(self):
        # Rule 20
        for operation in ("'target' in d", "len(d)", "list(d)",
                          "list(d.keys())", "list(reversed(d))",
                          "dir(holder)", "del d['target']"):
            with self.subTest(operation=operation):
                result = self.run_code(f"""
                    import importlib, sys
                    import holder
                    d = vars(holder)
                    {operation}
                    print("target" in sys.modules,
                          "target" not in d
                          or importlib.is_lazy_import(d, "target"))
                """, lazy=True, files=dict(TARGET,
                                           **{"holder.py": "import target"}))
                self.assert_lines(result, ["False True"])


class LazyObjectTests(LazyImportsTestCase):

    def test_lazy_object_is_inert(self):
        # Rule 22
        # Only local variables hold the lazy object: stored in a dict, it
        # would be resolved by the next read of that dict (rule 19).
        result = self.run_code("""
            import gc, sys
            def probe():
                namespace = {}
                exec("import pkg.sub", namespace)
                del namespace["__builtins__"]
                found = [o for o in gc.get_referents(namespace)
                         if not isinstance(o, str)]
                if len(found) != 1:
                    print("not exposed")
                    return
                lazy_object = found[0]
                print(repr(lazy_object))
                print([name for name in dir(lazy_object)
                       if not name.startswith("_")], callable(lazy_object))
                print("pkg" in sys.modules)
            probe()
        """, lazy=True, files={"pkg/__init__.py": "", "pkg/sub.py": ""})
        if result.lines == ["not exposed"]:
            self.skipTest("the garbage collector does not expose it")
        self.assert_lines(result, ["<lazy_import 'pkg.sub'>", "[] False",
                                   "False"])

    def test_is_lazy_import(self):
        # Rule 23
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, sys
                    import target
                    state = [importlib.is_lazy_import(globals(), "target"),
                             "target" in sys.modules]
                    target.value
                    state.append(importlib.is_lazy_import(globals(), "target"))
                    print(state)
                    try:
                        importlib.is_lazy_import(globals(), "missing")
                    except KeyError:
                        print("KeyError")
                """, lazy=lazy, files=TARGET)
                self.assertEqual(result.output,
                                 [f"[{lazy}, {not lazy}, False]", "KeyError"])


if __name__ == "__main__":
    unittest.main()

"""Lazy objects are invisible (contract rules 19-23).

The dict under test, ``d``, is built by ``exec("from target import value",
d)`` (lazy under -L, contract rule 8) and holds a single key, ``value``,
bound to a list: it can be pickled, copied and dumped as JSON.  Every
accessor must return the real list, never a lazy object.
"""

import unittest

from test.support import Py_GIL_DISABLED, import_helper

from .util import MODES, LazyImportsTestCase

TARGET = {"target.py": 'print("exec", __name__)\nvalue = [1, 2, 3]\n'}

# holder reads target in a function, never called: an import whose name no
# code of its module reads would run at once (contract rule 57).
HOLDER = dict(TARGET, **{"holder.py": "import target\n\n\n"
                                      "def _uses():\n"
                                      "    return target\n"})

# d holds one key, "value", bound by a lazy from-import under -L.
PRELUDE = """
import importlib, sys
d = {}
exec("from target import value", d)
del d["__builtins__"]
KEY = "value"
print("lazy", importlib.is_lazy_import(d, KEY))
"""

#: Helpers for reading d through the C API with ctypes.
C_PRELUDE = '''
import ctypes
api = ctypes.pythonapi
PyObject = ctypes.py_object
Pointer = ctypes.c_void_p

def declare(name, restype, *argtypes):
    function = getattr(api, name)
    function.restype = restype
    function.argtypes = argtypes
    return function

def from_address(address):
    return ctypes.cast(address, PyObject).value

def borrowed(name, *argtypes):
    """A C function returning a borrowed reference (a py_object restype
    would take it for a new one and steal it)."""
    function = declare(name, Pointer, *argtypes)
    return lambda *args: from_address(function(*args))

def out_call(name, *args):
    """Call a C function whose last argument is a PyObject** result."""
    argtypes = [PyObject if isinstance(a, (dict, str)) or a is None
                else type(a) for a in args]
    function = declare(name, ctypes.c_int, *argtypes, ctypes.POINTER(Pointer))
    result = Pointer()
    status = function(*args, ctypes.byref(result))
    assert status == 1, (name, status)
    return from_address(result.value)

def dict_next(mapping, key):
    next_item = declare("PyDict_Next", ctypes.c_int, PyObject,
                        ctypes.POINTER(ctypes.c_ssize_t),
                        ctypes.POINTER(Pointer), ctypes.POINTER(Pointer))
    position = ctypes.c_ssize_t(0)
    item_key, item_value = Pointer(), Pointer()
    while next_item(mapping, ctypes.byref(position), ctypes.byref(item_key),
                    ctypes.byref(item_value)):
        if from_address(item_key.value) == key:
            return from_address(item_value.value)
    raise KeyError(key)
'''

#: Expressions reading d's value, and their relation to the module's real
#: value: "is" for the same object, "==" for a copy.
READS = {
    "subscript": ("d[KEY]", "is"),
    "get": ("d.get(KEY)", "is"),
    "setdefault": ("d.setdefault(KEY)", "is"),
    "pop": ("d.pop(KEY)", "is"),
    "popitem": ("d.popitem()[1]", "is"),
    "values": ("list(d.values())[0]", "is"),
    "items": ("list(d.items())[0][1]", "is"),
    "values-iterator": ("next(iter(d.values()))", "is"),
    "items-iterator": ("next(iter(d.items()))[1]", "is"),
    "values-reversed": ("next(reversed(d.values()))", "is"),
    "items-reversed": ("next(reversed(d.items()))[1]", "is"),
    "items-loop": ("[v for k, v in d.items() if k == KEY][0]", "is"),
    "dict-of-items": ("dict(d.items())[KEY]", "is"),
    "itemgetter": ("__import__('operator').itemgetter(KEY)(d)", "is"),
    "chainmap": ("__import__('collections').ChainMap(d)[KEY]", "is"),
    "format-map": ("eval('{value!r}'.format_map(d))", "=="),
    "repr": ("eval(repr(d))[KEY]", "=="),
    "eq": ("[1, 2, 3] if d == {KEY: [1, 2, 3]} else None", "=="),
    "eq-reflected": ("[1, 2, 3] if {KEY: [1, 2, 3]} == d else None", "=="),
    "ne": ("None if d != {KEY: [1, 2, 3]} else [1, 2, 3]", "=="),
    "copy.copy": ("__import__('copy').copy(d)[KEY]", "is"),
    "copy.deepcopy": ("__import__('copy').deepcopy(d)[KEY]", "=="),
    "pickle": ("__import__('pickle').loads("
               "__import__('pickle').dumps(d))[KEY]", "=="),
    "pickle-python": ("__import__('pickle')._loads("
                      "__import__('pickle')._dumps(d))[KEY]", "=="),
    "json": ("__import__('json').loads(__import__('json').dumps(d))[KEY]",
             "=="),
}

#: The same through the C API (with C_PRELUDE's helpers).
C_READS = {
    "PyDict_GetItem": ("borrowed('PyDict_GetItem', PyObject, "
                       "PyObject)(d, KEY)", "is"),
    "PyDict_GetItemWithError": ("borrowed('PyDict_GetItemWithError', "
                                "PyObject, PyObject)(d, KEY)", "is"),
    "PyDict_GetItemString": ("borrowed('PyDict_GetItemString', PyObject, "
                             "ctypes.c_char_p)(d, b'value')", "is"),
    "PyDict_GetItemRef": ("out_call('PyDict_GetItemRef', d, KEY)", "is"),
    "PyDict_GetItemStringRef": ("out_call('PyDict_GetItemStringRef', d, "
                                "ctypes.c_char_p(b'value'))", "is"),
    "PyDict_SetDefault": ("borrowed('PyDict_SetDefault', PyObject, "
                          "PyObject, PyObject)(d, KEY, None)", "is"),
    "PyDict_SetDefaultRef": ("out_call('PyDict_SetDefaultRef', d, KEY, None)",
                             "is"),
    "PyDict_Pop": ("out_call('PyDict_Pop', d, KEY)", "is"),
    "PyDict_PopString": ("out_call('PyDict_PopString', d, "
                         "ctypes.c_char_p(b'value'))", "is"),
    "PyDict_Next": ("dict_next(d, KEY)", "is"),
    "PyDict_Items": ("declare('PyDict_Items', PyObject, PyObject)(d)[0][1]",
                     "is"),
    "PyDict_Values": ("declare('PyDict_Values', PyObject, PyObject)(d)[0]",
                      "is"),
    "PyMapping_GetItemString": ("declare('PyMapping_GetItemString', "
                                "PyObject, PyObject, ctypes.c_char_p)"
                                "(d, b'value')", "is"),
    "PyMapping_GetOptionalItem": ("out_call('PyMapping_GetOptionalItem', d, "
                                  "KEY)", "is"),
    "PyMapping_GetOptionalItemString": (
        "out_call('PyMapping_GetOptionalItemString', d, "
        "ctypes.c_char_p(b'value'))", "is"),
    "PyMapping_Items": ("declare('PyMapping_Items', PyObject, PyObject)(d)"
                        "[0][1]", "is"),
    "PyMapping_Values": ("declare('PyMapping_Values', PyObject, PyObject)(d)"
                         "[0]", "is"),
    "PyObject_GetItem": ("declare('PyObject_GetItem', PyObject, PyObject, "
                         "PyObject)(d, KEY)", "is"),
}

#: A module dict holding a lazy "target" (under -L), and helpers copying
#: it in C.
COPY_PRELUDE = """
import ctypes, sys
import holder
d = vars(holder)
PyObject = ctypes.py_object

def declare(name, restype, *argtypes):
    function = getattr(ctypes.pythonapi, name)
    function.restype = restype
    function.argtypes = argtypes
    return function

def updated(mapping):
    result = {}
    result.update(mapping)
    return result

def updated_in_place(mapping):
    result = {}
    result |= mapping
    return result

def c_merged(mapping, name, *override):
    result = {}
    argtypes = [PyObject, PyObject]
    argtypes += [ctypes.c_int] * len(override)
    assert declare(name, ctypes.c_int, *argtypes)(
        result, mapping, *override) == 0
    return result

print("bound")
"""

COPIES = ["d.copy()", "dict(d)", "dict(**d)", "{**d}", "d | {}", "{} | d",
          "(lambda **kwargs: kwargs)(**d)", "__import__('copy').copy(d)",
          "updated(d)", "updated_in_place(d)",
          "declare('PyDict_Copy', PyObject, PyObject)(d)",
          "c_merged(d, 'PyDict_Update')", "c_merged(d, 'PyDict_Merge', 1)"]


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
        # Contract rule 19
        for name, (expression, relation) in READS.items():
            for lazy in MODES:
                with self.subTest(read=name, lazy=lazy):
                    self.check_read(expression, relation, lazy)

    def test_c_api_reads_resolve(self):
        # Contract rule 19: C code reading a dict never sees a lazy object.
        import_helper.import_module("ctypes")
        for name, (expression, relation) in C_READS.items():
            for lazy in MODES:
                with self.subTest(function=name, lazy=lazy):
                    self.check_read(expression, relation, lazy,
                                    PRELUDE + C_PRELUDE)

    def test_module_namespace_reads_resolve(self):
        # Contract rule 19: globals(), vars(), module.__dict__,
        # frame.f_globals.
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
                """, lazy=True, files=HOLDER)
                self.assertEqual(result.output, ["False", "True"], result.err)

    def test_reads_of_another_module_resolve(self):
        # Contract rule 19: a module's namespace read from outside, however
        # it is reached.
        files = dict(TARGET, **{"holder.py": """
            import sys
            import target
            def module_globals():
                return globals()
            def frame_globals():
                return sys._getframe().f_globals
            def _uses():
                return target
        """})
        for access in ("vars(holder)['target']",
                       "holder.__dict__['target']",
                       "holder.module_globals()['target']",
                       "holder.frame_globals()['target']",
                       "dict(__import__('inspect').getmembers(holder))"
                       "['target']",
                       "[v for k, v in vars(holder).items()"
                       " if k == 'target'][0]"):
            for lazy in MODES:
                with self.subTest(access=access, lazy=lazy):
                    result = self.run_code(f"""
                        import sys
                        import holder
                        holder.__name__
                        print("bound")
                        obtained = {access}
                        print(obtained is sys.modules["target"])
                    """, lazy=lazy, files=files)
                    order = (["bound", "exec target"] if lazy
                             else ["exec target", "bound"])
                    self.assert_lines(result, order + ["True"])

    def test_reads_after_some_resolutions(self):
        # Contract rule 19: while some of a dict's lazy objects are
        # resolved, the others still resolve on each read; once none is
        # left, a lazy import stored in the same dict again resolves on
        # read.
        files = {f"m{i}.py": f"value = {i}\n" for i in range(4)}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib
                    d = {}
                    exec("import m0, m1, m2\\n"
                         "def uses(): return m0, m1, m2", d)
                    print(d["m1"].value, importlib.is_lazy_import(d, "m0"),
                          importlib.is_lazy_import(d, "m2"))
                    print([v.value for k, v in d.items() if k[0] == "m"])
                    print(any(importlib.is_lazy_import(d, k) for k in d))
                    exec("import m3\\ndef uses(): return m3", d)
                    print(importlib.is_lazy_import(d, "m3"), d["m3"].value)
                """, lazy=lazy, files=files)
                self.assert_lines(result, [f"1 {lazy} {lazy}", "[0, 1, 2]",
                                           "False", f"{lazy} 3"])

    def test_copies_resolve_on_read(self):
        # Contract rule 21: a copy, made in Python or in C, may carry the
        # lazy object; reading it gives the module, as in the original.
        import_helper.import_module("ctypes")
        for copy in COPIES:
            code = COPY_PRELUDE + f"""
copied = {copy}
print(copied["target"] is sys.modules["target"])
print(d["target"] is copied["target"])
"""
            for lazy in MODES:
                with self.subTest(copy=copy, lazy=lazy):
                    result = self.run_code(code, lazy=lazy, files=HOLDER)
                    order = (["bound", "exec target"] if lazy
                             else ["exec target", "bound"])
                    self.assert_lines(result, order + ["True", "True"])


class KeyReadTests(LazyImportsTestCase):

    def test_key_reads_do_not_resolve(self):
        # Contract rule 20
        for operation in ("'target' in d", "'target' in holder.__dict__",
                          "len(d)", "list(d.keys())", "list(iter(d))",
                          "list(reversed(d))", "sorted(d)",
                          "d.keys() & {'target'}", "dir(holder)",
                          "del d['target']", "del holder.target"):
            with self.subTest(operation=operation):
                result = self.run_code(f"""
                    import importlib, sys
                    import holder
                    d = vars(holder)
                    {operation}
                    print("target" in sys.modules)
                    print("target" not in d
                          or importlib.is_lazy_import(d, "target"))
                """, lazy=True, files=HOLDER)
                self.assert_lines(result, ["False", "True"])


# Only local variables hold the lazy object: stored in a dict (a module
# global, say), it would be resolved by the next read (contract rule 19).
GC_PROBE = """
import gc, importlib, sys

def probe():
    namespace = {{}}
    exec({statement!r}, namespace)
    del namespace["__builtins__"], namespace["uses"]
    name, = namespace
    assert importlib.is_lazy_import(namespace, name)
    candidates = [o for o in gc.get_referents(namespace)
                  if not isinstance(o, str)]
    if len(candidates) != 1:
        print("not exposed")
        return
    lazy_object, = candidates
    print(repr(lazy_object))
    print([n for n in dir(lazy_object) if not n.startswith("_")])
    print(callable(lazy_object))
    for operation in (str, hash, bool, type, dir, lambda o: o == o,
                      lambda o: getattr(o, "anything", None)):
        try:
            operation(lazy_object)
        except Exception:
            pass
    print(sorted(m for m in sys.modules if m.startswith("pkg")))
    print(importlib.is_lazy_import(namespace, name))

probe()
"""


class LazyObjectTests(LazyImportsTestCase):

    def test_lazy_object_is_inert(self):
        # Contract rule 22: what gc.get_referents() shows has no public
        # method, and nothing done with it imports anything.
        files = {"pkg/__init__.py": 'print("exec", __name__)',
                 "pkg/sub.py": 'print("exec", __name__)'}
        # A name's full name is built when first needed: repr() shows it.
        for statement, shown in (("import pkg.sub", "pkg.sub"),
                                 ("import pkg", "pkg"),
                                 ("from pkg import sub", "pkg.sub"),
                                 ("import pkg.sub as alias", "pkg.sub")):
            with self.subTest(statement=statement):
                # A function reads the bound name (contract rule 57).
                bound = statement.split()[-1].split(".")[0]
                source = f"{statement}\ndef uses(): return {bound}"
                result = self.run_code(GC_PROBE.format(statement=source),
                                       lazy=True, files=files)
                if result.lines == ["not exposed"]:
                    self.skipTest("the garbage collector does not expose it")
                self.assert_lines(result, [f"<lazy_import {shown!r}>", "[]",
                                           "False", "[]", "True"])

    @unittest.skipIf(Py_GIL_DISABLED, "the free-threaded collector counts "
                     "allocations per thread")
    def test_lazy_objects_do_not_start_collections(self):
        # Contract rule 22 (lazy objects and the collector): a lazy object
        # does not count as an allocation towards the next automatic
        # collection (gc.get_count()[0]), so that a module's burst of
        # deferred imports starts no collection of its own; nor does
        # freeing one lower the count.
        code = """
            import gc, importlib
            source = "".join(f"import missing_{i}\\n" for i in range(200))
            # A function reads the names (contract rule 57).
            source += "def uses():\\n" + "".join(
                f"    missing_{i}\\n" for i in range(200))
            code = compile(source, "burst", "exec")
            namespace = {}
            gc.disable()
            gc.collect()
            before = gc.get_count()[0]
            exec(code, namespace)
            after = gc.get_count()[0]
            print(all(importlib.is_lazy_import(namespace, f"missing_{i}")
                      for i in range(200)))
            print(after - before)
            # Nor does freeing them lower the count.
            before = gc.get_count()[0]
            namespace.clear()
            print(gc.get_count()[0] - before)
        """
        result = self.run_code(code, lazy=True)
        self.assertEqual(result.lines[0], "True", result.err)
        made, freed = map(int, result.lines[1:])
        self.assertLess(made, 50)
        self.assertGreater(freed, -50)

    def test_is_lazy_import(self):
        # Contract rule 23
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib, sys
                    import target
                    state = [importlib.is_lazy_import(globals(), "target"),
                             "target" in sys.modules]
                    target.value
                    state.append(importlib.is_lazy_import(globals(), "target"))
                    plain = 1
                    state.append(importlib.is_lazy_import(globals(), "plain"))
                    namespace = {}
                    exec("import other\\ndef uses(): return other",
                         namespace)
                    state.append(importlib.is_lazy_import(namespace, "other"))
                    print(state)
                    try:
                        importlib.is_lazy_import(globals(), "missing")
                    except KeyError as exc:
                        print("KeyError", exc)
                """, lazy=lazy, files=dict(TARGET, **{"other.py": ""}))
                self.assert_printed(
                    result, [f"[{lazy}, {not lazy}, False, False, {lazy}]",
                             "KeyError 'missing'"])


if __name__ == "__main__":
    unittest.main()

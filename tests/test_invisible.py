"""SPEC section 4: lazy objects are invisible (rules 19-23).

The dict under test, ``d``, is built by ``exec("from target import value",
d)`` (lazy under -L, rule 8) and holds a single key, ``value``, bound to a
list: it can be pickled, copied and dumped as JSON.  Every accessor must
return the real list, never a lazy object.
"""

import pytest

TARGET = {"target.py": """
    print("exec", __name__)
    value = [1, 2, 3]
"""}

#: Builds ``d`` and defines helpers for reading it through the C API.
PRELUDE = """
import ctypes, importlib, sys
d = {}
exec("from target import value", d)
del d["__builtins__"]
KEY = "value"
print("lazy before:", importlib.is_lazy_import(d, KEY))

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
    '''A C function returning a borrowed reference (a py_object restype
    would take it for a new one and steal it).'''
    function = declare(name, Pointer, *argtypes)
    return lambda *args: from_address(function(*args))

def out_call(name, *args):
    '''Call a C function whose last argument is a PyObject** result.'''
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
"""

#: accessor id: (expression giving the value read from d, relation to the
#: module's real value: "is" for the same object, "==" for a copy)
ACCESSORS = {
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


# Rule 19 --------------------------------------------------------------------

@pytest.mark.parametrize("accessor", ACCESSORS)
def test_r19_every_value_read_resolves(tree, lazy, accessor):
    expression, relation = ACCESSORS[accessor]
    tree.write(TARGET).write({"main.py": PRELUDE + f"""
obtained = {expression}
expected = sys.modules["target"].value
print(type(obtained).__name__, obtained {relation} expected)
"""})
    result = tree.run(lazy=lazy).ok()
    order = (["lazy before: True", "exec target"] if lazy
             else ["exec target", "lazy before: False"])
    assert result.lines == order + ["list True"]


@pytest.mark.parametrize("access", [
    "vars(holder)['target']",
    "holder.__dict__['target']",
    "holder.module_globals()['target']",
    "holder.frame_globals()['target']",
    "dict(__import__('inspect').getmembers(holder))['target']",
    "[v for k, v in vars(holder).items() if k == 'target'][0]",
])
def test_r19_module_dict_reads_resolve(tree, lazy, access):
    tree.write(TARGET).write({
        "holder.py": """
            import sys
            import target
            def module_globals():
                return globals()
            def frame_globals():
                return sys._getframe().f_globals
        """,
        "main.py": f"""
            import sys
            import holder
            holder.__name__
            print("bound")
            obtained = {access}
            print(obtained is sys.modules["target"])
        """})
    result = tree.run(lazy=lazy).ok()
    order = ["bound", "exec target"] if lazy else ["exec target", "bound"]
    assert result.lines == order + ["True"]


# Rule 20 --------------------------------------------------------------------

@pytest.mark.parametrize("operation", [
    "'target' in d",
    "'target' in holder.__dict__",
    "len(d)",
    "list(d.keys())",
    "list(iter(d))",
    "list(reversed(d))",
    "sorted(d)",
    "d.keys() & {'target'}",
    "dir(holder)",
    "del d['target']",
    "del holder.target",
])
def test_r20_reading_keys_does_not_resolve(tree, operation):
    tree.write(TARGET).write({
        "holder.py": "import target",
        "main.py": f"""
            import importlib, sys
            import holder
            d = vars(holder)
            {operation}
            print("target" in sys.modules)
            print("target" not in d or importlib.is_lazy_import(d, "target"))
        """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["False", "True"]


# Rule 21 --------------------------------------------------------------------

@pytest.mark.parametrize("copy", [
    "d.copy()",
    "dict(d)",
    "dict(**d)",
    "{**d}",
    "d | {}",
    "{} | d",
    "(lambda **kwargs: kwargs)(**d)",
    "__import__('copy').copy(d)",
    "updated(d)",
    "updated_in_place(d)",
    "declare('PyDict_Copy', PyObject, PyObject)(d)",
    "c_merged(d, 'PyDict_Update')",
    "c_merged(d, 'PyDict_Merge', 1)",
])
def test_r21_copies_resolve_on_read(tree, lazy, copy):
    tree.write(TARGET).write({
        "holder.py": "import target",
        "main.py": """
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
        """ + f"""
            copied = {copy}
            print(copied["target"] is sys.modules["target"])
            print(d["target"] is copied["target"])
        """})
    result = tree.run(lazy=lazy).ok()
    order = ["bound", "exec target"] if lazy else ["exec target", "bound"]
    assert result.lines == order + ["True", "True"]


# Rule 22 --------------------------------------------------------------------

# The lazy object is only kept in local variables: stored into a dict (a
# module global, say), it would be resolved by the next read (rule 19).
GC_PROBE = """
    import gc, importlib, sys

    def probe():
        namespace = {{}}
        exec({statement!r}, namespace)
        del namespace["__builtins__"]
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


@pytest.mark.parametrize("statement, shown", [
    ("import pkg.sub", "pkg.sub"),
    ("import pkg", "pkg"),
])
def test_r22_lazy_object_seen_by_gc_is_inert(tree, statement, shown):
    tree.write({"pkg/__init__.py": 'print("exec", __name__)',
                "pkg/sub.py": 'print("exec", __name__)'})
    tree.write({"main.py": GC_PROBE.format(statement=statement)})
    result = tree.run(lazy=True).ok()
    if result.lines == ["not exposed"]:
        pytest.skip("the garbage collector does not expose lazy objects")
    assert result.lines == [f"<lazy_import {shown!r}>", "[]", "False", "[]",
                            "True"]


# Rule 23 --------------------------------------------------------------------

def test_r23_is_lazy_import(tree, lazy):
    tree.write(TARGET).write({"other.py": "", "main.py": """
        import importlib, sys
        import target
        state = [importlib.is_lazy_import(globals(), "target"),
                 "target" in sys.modules]
        target.value
        state.append(importlib.is_lazy_import(globals(), "target"))
        plain = 1
        state.append(importlib.is_lazy_import(globals(), "plain"))
        namespace = {}
        exec("import other", namespace)
        state.append(importlib.is_lazy_import(namespace, "other"))
        print(state)
        try:
            importlib.is_lazy_import(globals(), "missing")
        except KeyError as exc:
            print("KeyError", exc)
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.output == [f"[{lazy}, {not lazy}, False, False, {lazy}]",
                             "KeyError 'missing'"]

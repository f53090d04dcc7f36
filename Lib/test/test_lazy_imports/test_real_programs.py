"""What real programs do under -L (contract rules 34-41).

Patterns found in C extensions (PyO3), debuggers, test runners and
libraries, each run in a child interpreter on a module tree written by the
test, with and without -L.
"""

import sys
import textwrap
import unittest

from test.support import import_helper, os_helper

from .util import MODES, LazyImportsTestCase, write_files

# A module whose body raises AttributeError, imported lazily by holder.
# holder reads bad in a function: an import whose name no code of its
# module reads runs at once (contract rule 57).
RAISING = {
    "bad.py": "print('exec bad')\nraise AttributeError('raised by bad')\n",
    "holder.py": "import bad\ndef uses():\n    return bad\n",
    "holder_getattr.py": ("import bad\n"
                          "def __getattr__(name):\n"
                          "    return 'from __getattr__'\n"
                          "def uses():\n"
                          "    return bad\n"),
}


class AttributeErrorTests(LazyImportsTestCase):

    def test_attribute_error_of_resolution_propagates(self):
        # Contract rule 37: not "no attribute", not False, not the default.
        probes = {
            "getattr": "getattr(holder, 'bad')",
            "hasattr": "hasattr(holder, 'bad')",
            "default": "getattr(holder, 'bad', 'default')",
            "attribute": "holder.bad",
            "getattr_hook": "holder_getattr.bad",
            "from_import": "from_import()",
        }
        for label, expr in probes.items():
            with self.subTest(label):
                result = self.run_code(f"""
                    import holder, holder_getattr
                    def from_import():
                        from holder import bad
                        return bad
                    try:
                        print(repr({expr}))
                    except AttributeError as exc:
                        print(type(exc).__name__, exc)
                        print(any("deferred" in note
                                  for note in exc.__notes__))
                """, lazy=True, files=RAISING)
                self.assertEqual(result.lines, [
                    "exec bad", "AttributeError raised by bad", "True"])

    def test_missing_attribute_imports_only_its_submodule(self):
        # Contract rule 37: a failed lookup on pkg does not import pkg.a or
        # pkg.b.
        files = {
            "pkg/__init__.py": "",
            "pkg/a.py": "print('exec pkg.a')\n",
            "pkg/b.py": "print('exec pkg.b')\n",
            "other/__init__.py": "",
            "other/c.py": "print('exec other.c')\n",
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import sys
                    import pkg.a
                    import pkg.b
                    import other.c
                    print(getattr(pkg, "missing", None))
                    print(hasattr(pkg, "other"))
                    print(sorted(m for m in sys.modules
                                 if m.startswith(("pkg.", "other."))))
                    print(pkg.b.__name__)
                """, lazy=lazy, files=files)
                if lazy:
                    self.assertEqual(result.lines, [
                        "None", "False", "[]", "exec pkg.b", "pkg.b"])
                else:
                    self.assertEqual(result.lines[-4:], [
                        "None", "False",
                        "['other.c', 'pkg.a', 'pkg.b']", "pkg.b"])

    def test_module_registering_its_own_submodules(self):
        # Contract rule 37: a module that, like a PyO3 extension, puts its
        # submodules in sys.modules while its body runs, after looking up
        # a missing attribute of itself (PyO3's __all__).
        files = {"native.py": """\
            import sys
            import types
            _self = sys.modules[__name__]
            try:
                _self.__all__
            except AttributeError:
                _self.__all__ = []
            internal = types.ModuleType("native.internal")
            floats = types.ModuleType("native.internal.floats")
            floats.next_up = lambda x: x + 1
            internal.floats = floats
            sys.modules["native.internal"] = internal
            sys.modules["native.internal.floats"] = floats
            """}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    from native.internal.floats import next_up
                    import native.internal
                    print(next_up(1), native.internal.__name__)
                """, lazy=lazy, files=files)
                self.assertEqual(result.lines, ["2 native.internal"])


class RebindDuringResolutionTests(LazyImportsTestCase):

    def test_module_body_rebinding_its_importers_name(self):
        # Contract rule 42: the statement's store runs after the imported
        # module's body, so the name gets the module, as eagerly.
        files = {"app.py": "import plugin\n",
                 "plugin.py": ("import app\n"
                               "app.plugin = 'rebound by plugin'\n"
                               "app.other = 'set by plugin'\n")}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import app
                    print(type(app.plugin).__name__, app.other)
                """, lazy=lazy, files=files)
                self.assertEqual(result.lines, ["module set by plugin"])

    def test_module_body_deleting_its_importers_name(self):
        # Contract rule 42: a name deleted while it resolves is bound again, as
        # the eager statement binds it after the body.
        files = {"app.py": "import plugin\n",
                 "plugin.py": ("import app\n"
                               "if 'plugin' in vars(app):\n"
                               "    del vars(app)['plugin']\n")}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import app
                    try:
                        print(type(app.plugin).__name__)
                    except AttributeError as exc:
                        print("AttributeError")
                """, lazy=lazy, files=files)
                self.assertEqual(result.lines[-1:], ["module"])


class DeleteTests(LazyImportsTestCase):

    def test_no_form_of_delete_imports(self):
        # Contract rule 36
        forms = {
            "module_level": "del target",
            "global_in_function": ("def f():\n"
                                   "    global target\n"
                                   "    del target\n"
                                   "f()"),
            "del_item": "del globals()['target']",
            "delattr": "delattr(sys.modules[__name__], 'target')",
            "pop_default": "globals().pop('target', None) and None",
        }
        for label, statement in forms.items():
            with self.subTest(label):
                result = self.run_code(
                    "import sys\nimport target\n" + statement + "\n"
                    "print('target' in sys.modules, 'target' in globals())\n",
                    lazy=True, files={"target.py": "print('exec target')\n"})
                expected = (["exec target", "True False"]
                            if label == "pop_default" else ["False False"])
                self.assertEqual(result.lines, expected)


class ExcludingArgumentTests(LazyImportsTestCase):

    def test_strings_and_iterators_are_rejected(self):
        # Contract rule 38: "json" in "jsonschema" is true; "in" consumes
        # iterators.
        for value in ('"jsonschema"', 'b"json"', 'bytearray(b"json")',
                      'iter(["json"])', '(name for name in ["json"])'):
            with self.subTest(value):
                result = self.run_code(f"""
                    import importlib
                    try:
                        importlib.set_lazy_imports(excluding={value})
                    except TypeError as exc:
                        print("TypeError", "container" in str(exc))
                    print(importlib.is_lazy_imports_enabled())
                """, lazy=False)
                self.assertEqual(result.lines, ["TypeError True", "False"])

    def test_containers_are_asked_and_never_consumed(self):
        # Contract rule 38
        result = self.run_code("""
            import importlib, sys
            class Names:
                asked = []
                def __contains__(self, name):
                    self.asked.append(name)
                    return name == "a"
            for excluding in (["a"], ("a",), {"a"}, frozenset({"a"}),
                              {"a": 1}, Names(), lambda name: name == "a"):
                importlib.set_lazy_imports(excluding=excluding)
                for _ in range(2):
                    for name in ("a", "b"):
                        sys.modules.pop(name, None)
                    exec("import a\\nimport b\\n"
                         "def uses(): return a, b\\n", {})
                    print(type(excluding).__name__,
                          "a" in sys.modules, "b" in sys.modules)
            print(Names.asked)
        """, lazy=False, files={"a.py": "", "b.py": ""})
        self.assertEqual(result.lines[:14:2], [
            "list True False", "tuple True False", "set True False",
            "frozenset True False", "dict True False", "Names True False",
            "function True False"])
        self.assertEqual(result.lines[1:14:2], result.lines[:14:2])
        self.assertEqual(result.lines[-1], "['a', 'b', 'a', 'b']")


# Prelude of the programs below: a dict holding lazy imports, as module-level
# code run by exec() leaves them.
FRESH = """\
def namespace(source):
    ns = {}
    exec(source, ns)
    del ns["__builtins__"]
    return ns
"""


class CApiContractTests(LazyImportsTestCase):

    def test_failed_resolution_in_cpython_callers(self):
        # Contract rule 34: the original exception, never SystemError or a
        # crash (functools.partial corrupted the heap).
        result = self.run_code(FRESH + textwrap.dedent("""
            import functools, marshal, pickle
            def fresh():
                # The lambda reads the name (contract rule 57) and adds
                # no key.
                return namespace("import missing_mod\\nlambda: missing_mod")
            def f(**kw):
                return kw
            p = functools.partial(print)
            p.__setstate__((print, (), fresh(), None))
            calls = [("partial", p), ("kwargs", lambda: f(**fresh())),
                     ("marshal", lambda: marshal.dumps(fresh())),
                     ("pickle", lambda: pickle.dumps(fresh())),
                     ("type", lambda: type("X", (), fresh()))]
            for label, call in calls:
                for attempt in range(2):
                    try:
                        call()
                    except Exception as exc:
                        print(label, type(exc).__name__, exc.name)
        """), lazy=True)
        self.assertEqual(result.lines, [
            f"{label} ModuleNotFoundError missing_mod"
            for label in ("partial", "kwargs", "marshal", "pickle", "type")
            for attempt in range(2)])

    def test_kwargs_dict_whose_resolution_binds_names(self):
        # Contract rule 34: f(**ns) sized the stack before resolving
        # (segfault).
        files = {"holder.py": "import binder\ndef uses(): return binder\n",
                 "binder.py": ("import holder\n"
                               "for i in range(50):\n"
                               "    setattr(holder, f'new{i}', i)\n")}
        result = self.run_code("""
            def f(**kw):
                return kw
            import holder
            kw = f(**vars(holder))
            print(type(kw["binder"]).__name__, kw["new49"])
        """, lazy=True, files=files)
        self.assertEqual(result.lines, ["module 49"])

    def test_pydict_next_keeps_its_contract(self):
        # Contract rule 34: no lazy object, no exception set, every item; the
        # error is reported as unraisable.  PyDict_NextWithError returns -1.
        result = self.run_code("""
            import ctypes, importlib, sys
            ns = {}
            # The lambda reads the names (contract rule 57), adding no key.
            exec("import missing_mod\\nimport json\\n"
                 "lambda: (missing_mod, json)", ns)
            del ns["__builtins__"]
            reported = []
            sys.unraisablehook = lambda u: reported.append(
                type(u.exc_value).__name__)
            argtypes = [ctypes.py_object, ctypes.POINTER(ctypes.c_ssize_t),
                        ctypes.POINTER(ctypes.py_object),
                        ctypes.POINTER(ctypes.py_object)]
            for name in ("PyDict_Next", "PyDict_NextWithError"):
                func = getattr(ctypes.pythonapi, name)
                func.argtypes = argtypes
                pos = ctypes.c_ssize_t(0)
                key, value = ctypes.py_object(), ctypes.py_object()
                try:
                    while (r := func(ns, ctypes.byref(pos), ctypes.byref(key),
                                     ctypes.byref(value))):
                        print(name, r, key.value, type(value.value).__name__)
                except ModuleNotFoundError as exc:
                    print(name, "raised", exc.name)
            print(reported, importlib.is_lazy_import(ns, "missing_mod"))
        """, lazy=True)
        self.assertEqual(result.lines, [
            "PyDict_Next 1 missing_mod NoneType",
            "PyDict_Next 1 json module",
            "PyDict_NextWithError raised missing_mod",
            "['ModuleNotFoundError'] True"])


    def test_pydict_next_walk_sees_a_fixed_set_of_keys(self):
        # Contract rule 34: resolving pkg.sub, whose body adds 200
        # attributes to pkg, happens before the walk's first step, and
        # PyDict_Size() counts the keys the walk will see.
        files = {
            "pkg/__init__.py": "from . import sub\n"
                               "def reads(): return sub\n",
            "pkg/sub.py": "import pkg\n"
                          "for i in range(200):\n"
                          "    setattr(pkg, f'added_{i}', i)\n",
        }
        code = """
            import ctypes, pkg
            api = ctypes.pythonapi
            api.PyDict_Size.argtypes = [ctypes.py_object]
            api.PyDict_Size.restype = ctypes.c_ssize_t
            api.PyDict_Next.argtypes = [
                ctypes.py_object, ctypes.POINTER(ctypes.c_ssize_t),
                ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_void_p)]
            ns = pkg.__dict__
            size = api.PyDict_Size(ns) if {size_first} else None
            pos = ctypes.c_ssize_t(0)
            key, value = ctypes.c_void_p(), ctypes.c_void_p()
            steps, sizes = 0, set()
            while api.PyDict_Next(ns, ctypes.byref(pos),
                                  ctypes.byref(key), ctypes.byref(value)):
                steps += 1
                sizes.add(len(ns))
            print(size in (None, steps), sizes == {{steps}}, "added_199" in ns)
            """
        for lazy in MODES:
            for size_first in (True, False):
                with self.subTest(lazy=lazy, size_first=size_first):
                    result = self.run_code(code.format(size_first=size_first),
                                           lazy=lazy, files=files)
                    self.assertEqual(result.lines, ["True True True"])


class LeakTests(LazyImportsTestCase):

    def test_items_view_set_operations(self):
        # Contract rule 35: either operand, every operator.
        result = self.run_code(FRESH + textwrap.dedent("""
            import importlib
            def fresh():
                return namespace("import json")
            ops = {"^": lambda a, b: a ^ b, "-": lambda a, b: a - b,
                   "&": lambda a, b: a & b, "|": lambda a, b: a | b}
            for symbol, op in ops.items():
                for left in (True, False):
                    g = fresh()
                    other = {("x", 1)}
                    res = op(g.items(), other) if left else op(
                        {}.items(), g.items())
                    names = sorted(type(v).__name__ for k, v in res)
                    print(symbol, left, names)
        """), lazy=True)
        for line in result.lines:
            self.assertNotIn("lazy_import", line)
        self.assertEqual(len(result.lines), 8)

    def test_copy_of_a_dict_read_by_specialized_code(self):
        # Contract rule 35: the copy shared the keys version of the original.
        result = self.run_code("""
            import copy
            code = compile("def f():\\n    return json\\n", "<g>", "exec")
            g = {}
            exec("import json", g)
            copies = {"copy": g.copy(), "or": g | {},
                      "copy.copy": copy.copy(g)}
            exec(code, g)
            for _ in range(100):
                g["f"]()
            for label, c in copies.items():
                exec(code, c)
                print(label, [type(c["f"]()).__name__ for _ in range(3)])
        """, lazy=True)
        self.assertEqual(result.lines, [
            f"{label} ['module', 'module', 'module']"
            for label in ("copy", "or", "copy.copy")])

    def test_store_replacing_a_value_with_del(self):
        # Contract rule 35: __del__ of the replaced value reads the dict.
        result = self.run_code("""
            class Spy:
                def __del__(self):
                    print(type(g["json"]).__name__)
            g = {"json": Spy()}
            exec("import json", g)
            print("done")
        """, lazy=True)
        self.assertEqual(result.lines, ["module", "done"])

    def test_dict_watchers(self):
        # Contract rule 35: a watcher is never handed a lazy object.  Storing
        # one takes the value away from C code (a deletion), its resolution
        # makes it available (an addition), with the eager final state.
        import_helper.import_module("_testcapi")
        code = """
            import _testcapi
            wid = _testcapi.add_dict_watcher(0)
            g = {"__builtins__": __builtins__}
            _testcapi.watch_dict(wid, g)
            exec("json = 1\\nimport json\\nimport colorsys\\n"
                 "f = colorsys.rgb_to_hsv\\ndel colorsys\\nj = json", g)
            events = _testcapi.get_dict_watcher_events()
            _testcapi.clear_dict_watcher(wid)
            state = {}
            for event in events:
                kind, key, *value = event.split(":", 2)
                if kind == "del":
                    state.pop(key, None)
                else:
                    state[key] = value[0].split(" ")[0]
                print(kind, key, "lazy" in event)
            print(sorted(state.items()))
        """
        results = [self.run_code(code, lazy=lazy) for lazy in MODES]
        eager, lazy = (result.lines for result in results)
        self.assertEqual(eager[-1], lazy[-1])
        self.assertEqual(lazy[:-1], [
            "new json False", "del json False", "del colorsys False",
            "new colorsys False", "new f False", "del colorsys False",
            "new json False", "new j False"])


class UnittestByNameTests(LazyImportsTestCase):

    def test_failing_lazy_import_of_a_test_module_named(self):
        # Contract rule 24: "python -L -m unittest test_mod" reports the failed
        # import as without -L, instead of a traceback.
        files = {"test_mod.py": """\
            import unittest
            import missing_dependency
            class T(unittest.TestCase):
                def test_a(self):
                    pass
            """}
        for name in ("test_mod", "test_mod.T", "test_mod.T.test_a"):
            with os_helper.temp_dir() as root:
                write_files(root, files)
                results = [self.run_python("-m", "unittest", name, lazy=lazy,
                                           cwd=root, failure=True)
                           for lazy in MODES]
            with self.subTest(name):
                for result in results:
                    self.assertIn("FAILED (errors=1)", result.err)
                    self.assertIn("No module named 'missing_dependency'",
                                  result.err)


class StockBytecodeTests(LazyImportsTestCase):

    def test_code_assembled_for_stock_cpython(self):
        # Contract rule 39: IMPORT_NAME keeps its stock meaning (the name
        # index), and is never lazy; bytecode rewriters emit it.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import dis, importlib
                    code = compile("import os\\nimport sys\\n", "<m>",
                                   "exec")
                    raw = bytearray(code.co_code)
                    for i in range(0, len(raw), 2):
                        if raw[i] == dis.opmap["IMPORT_NAME_LAZY"]:
                            raw[i] = dis.opmap["IMPORT_NAME"]
                    ns = {}
                    exec(code.replace(co_code=bytes(raw)), ns)
                    print(ns["os"].__name__, ns["sys"].__name__,
                          importlib.is_lazy_import(ns, "sys"))
                """, lazy=lazy)
                self.assertEqual(result.lines, ["os sys False"])

    def test_lazy_opcode_in_a_function_is_eager(self):
        # Contract rule 39: a lazy object never lands in a local variable.
        result = self.run_code("""
            import dis, types
            def f():
                import json
                return json
            raw = bytearray(f.__code__.co_code)
            for i in range(0, len(raw), 2):
                if raw[i] == dis.opmap["IMPORT_NAME"]:
                    raw[i] = dis.opmap["IMPORT_NAME_LAZY"]
            g = types.FunctionType(f.__code__.replace(co_code=bytes(raw)),
                                   globals())
            print(type(g()).__name__)
        """, lazy=True)
        self.assertEqual(result.lines, ["module"])


WARNING_TREE = {
    "lib.py": ("import warnings\n"
               "warnings.warn('lib is deprecated', DeprecationWarning,\n"
               "              stacklevel=2)\n"
               "X = 1\n"),
    "app.py": "import lib\n",
}


class WarningAttributionTests(LazyImportsTestCase):

    def test_import_time_warning_blames_the_import_statement(self):
        # Contract rule 40: stacklevel=2 in the body names the deferred
        # statement.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import warnings
                    def show(message, category, filename, lineno,
                             file=None, line=None):
                        print(category.__name__, message,
                              filename.rsplit("/", 1)[-1], lineno)
                    warnings.showwarning = show
                    warnings.simplefilter("always")
                    import app
                    print(app.lib.X)
                """, lazy=lazy, files=WARNING_TREE)
                self.assertEqual(result.lines, [
                    "DeprecationWarning lib is deprecated app.py 1", "1"])

    def test_default_filters_and_module_filters(self):
        # Contract rule 40: DeprecationWarning is shown only when attributed to
        # __main__; a -W filter naming the importing module matches.
        # (A debug build shows every DeprecationWarning: then both runs
        # show it, attributed to app.py.)
        code = "import app\nprint(app.lib.X)\n"
        shown = {}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy, files=WARNING_TREE)
                self.assertEqual(result.lines, ["1"])
                self.assertNotIn("<string>", result.err)
                shown[lazy] = result.err.replace(
                    result.err.partition("app.py")[0], "")
                result = self.run_code(code, "-W", "error:::app",
                                       lazy=lazy, files=WARNING_TREE,
                                       failure=True)
                self.assertIn("DeprecationWarning: lib is deprecated",
                              result.err)
        self.assertEqual(shown[True], shown[False])
        if not hasattr(sys, "gettotalrefcount"):
            self.assertEqual(shown[True], "")


OBSERVER = """
import sys
import slow
seen = []
main = sys.modules[__name__].__dict__
def observe(code):
    if code.co_name == "<module>" and code.co_filename.endswith("slow.py"):
        seen.append(main.get("slow", "unbound"))
        seen.append("'slow':" in repr(main))
        seen.append([k for k, v in main.items() if k == "slow"])
        seen.append(dict(main).get("slow", "unbound"))
        seen.append([type(v).__name__ for v in main.values()
                     if type(v).__name__ == "lazy_import"])
        try:
            eval("slow", main)
        except NameError:
            seen.append("NameError")
"""


class ObserverTests(LazyImportsTestCase):

    FILES = {"slow.py": "X = 42\n"}
    EXPECTED = ["42", "['unbound', False, [], 'unbound', [], 'NameError']",
                "module"]

    def test_trace_function_reads_a_name_being_resolved(self):
        # Contract rule 41: a tracer reading the namespace while the name
        # resolves sees it unbound, not an import cycle that kills the program.
        result = self.run_code(OBSERVER + textwrap.dedent("""
            def tracer(frame, event, arg):
                if event == "call":
                    observe(frame.f_code)
            sys.settrace(tracer)
            print(slow.X)
            sys.settrace(None)
            print(seen)
            print(type(main["slow"]).__name__)
        """), lazy=True, files=self.FILES)
        self.assertEqual(result.lines, self.EXPECTED)

    def test_monitoring_callback_reads_a_name_being_resolved(self):
        # Contract rule 41
        result = self.run_code(OBSERVER + textwrap.dedent("""
            mon = sys.monitoring
            mon.use_tool_id(mon.DEBUGGER_ID, "test")
            mon.register_callback(mon.DEBUGGER_ID, mon.events.PY_START,
                                  lambda code, offset: observe(code))
            mon.set_events(mon.DEBUGGER_ID, mon.events.PY_START)
            print(slow.X)
            mon.set_events(mon.DEBUGGER_ID, 0)
            print(seen)
            print(type(main["slow"]).__name__)
        """), lazy=True, files=self.FILES)
        self.assertEqual(result.lines, self.EXPECTED)

    def test_real_cycle_under_a_tracer_still_raises(self):
        # Contract rules 26 and 41: the program's own cycle is still an error.
        result = self.run_scenario("cycle", "-c", """if 1:
            import sys
            sys.settrace(lambda frame, event, arg: None)
            exec(open("main.py").read())
        """, lazy=True)
        self.assertEqual(result.lines, ["ImportError True", "ImportError True",
                                        "done"])

    def test_cycle_message_says_circular_import(self):
        # Contract rule 26: programs and tests recognise cycles by this phrase.
        result = self.run_scenario("cycle", "-c", """if 1:
            import holder
            try:
                holder.get()
            except ImportError as exc:
                print("circular import" in str(exc), "target" in str(exc))
        """, lazy=True)
        self.assertEqual(result.lines, ["True True"])

class ThreadTests(LazyImportsTestCase):

    def test_lazy_from_import_does_not_wait_for_another_thread(self):
        # Contract rule 27: a deferred "from a import b" runs nothing, so it
        # does not wait while another thread imports a (the eager one would).
        files = {"slowmod.py": ("import builtins\n"
                                "builtins.started.set()\n"
                                "builtins.released = "
                                "builtins.release.wait(30)\n"
                                "x = 1\n")}
        result = self.run_code("""
            import builtins, importlib, threading
            builtins.started = threading.Event()
            builtins.release = threading.Event()
            t = threading.Thread(
                target=lambda: importlib.import_module("slowmod"))
            t.start()
            builtins.started.wait(30)
            ns = {}
            exec("from slowmod import x", ns)
            print("bound", importlib.is_lazy_import(ns, "x"))
            builtins.release.set()
            t.join()
            print(ns["x"], builtins.released)
        """, lazy=True, files=files)
        self.assertEqual(result.lines, ["bound True", "1 True"])


if __name__ == "__main__":
    unittest.main()

"""What real programs do under -L (SPEC rules 34-41).

Patterns found in C extensions (PyO3), debuggers, test runners and
libraries, each run in a child interpreter on a module tree written by the
test, with and without -L.
"""

import unittest

from .util import MODES, LazyImportsTestCase

# A module whose body raises AttributeError, imported lazily by holder.
RAISING = {
    "bad.py": "print('exec bad')\nraise AttributeError('raised by bad')\n",
    "holder.py": "import bad\n",
    "holder_getattr.py": ("import bad\n"
                          "def __getattr__(name):\n"
                          "    return 'from __getattr__'\n"),
}


class AttributeErrorTests(LazyImportsTestCase):

    def test_attribute_error_of_resolution_propagates(self):
        # Rule 37: not "no attribute", not False, not the default.
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
        # Rule 37: a failed lookup on pkg does not import pkg.a or pkg.b.
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
        # Rule 37: a module that, like a PyO3 extension, puts its
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


class DeleteTests(LazyImportsTestCase):

    def test_no_form_of_delete_imports(self):
        # Rule 36
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
        # Rule 38: "json" in "jsonschema" is true; "in" consumes iterators.
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
        # Rule 38
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
                    exec("import a\\nimport b\\n", {})
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


if __name__ == "__main__":
    unittest.main()

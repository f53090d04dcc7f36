"""Binding and resolution (SPEC rules 12-18)."""

import unittest

from .util import MODES, LazyImportsTestCase


class SubmoduleTests(LazyImportsTestCase):

    def test_from_import_binds_independent_objects(self):
        # Rule 13
        expected = {
            False: ["exec pkg", "exec pkg.__version__", "exec pkg.b",
                    "exec pkg.c", "bound", "b", "True", "c"],
            True: ["bound", "exec pkg", "exec pkg.b", "b", "False",
                   "exec pkg.c", "c"],
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("packages", "from_import.py",
                                           lazy=lazy)
                self.assert_lines(result, expected[lazy])

    def test_dotted_imports(self):
        # Rule 14
        expected = {
            False: ["exec pkg", "exec pkg.__version__", "exec pkg.sub",
                    "exec pkg.sub.leaf", "exec pkg.b", "exec pkg.c",
                    "bound [True, False, True]", "b", "True",
                    "c leaf True"],
            True: ["bound [True, False, True]", "exec pkg", "exec pkg.b", "b",
                   "False", "exec pkg.c", "exec pkg.sub", "exec pkg.sub.leaf",
                   "c leaf True"],
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("packages", "dotted.py", lazy=lazy)
                self.assert_lines(result, expected[lazy])

    def test_package_attribute_not_clobbered(self):
        # Rule 14
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("packages", "version.py",
                                           lazy=lazy)
                self.assertEqual(result.output,
                                 ["1.0", "pkg.__version__", "1.0 1.0 1.0"],
                                 result.err)

    def test_package_binding_a_submodule_name(self):
        # Rule 14
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("packages", "same_name.py",
                                           lazy=lazy)
                self.assertEqual(result.output, ["gamma.a.a",
                                                 "gamma.a.a gamma.a.a",
                                                 "gamma.a.a"], result.err)

    def test_submodule_resolved_while_package_initializes(self):
        # Rule 14
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("packages", "resolve_early.py",
                                           lazy=lazy)
                self.assert_lines(result, ["exec early", "exec early.a",
                                           "exec early.b", "early.b b"])

    # Rule 14 bug: under -L, setter.a is the submodule setter.a, not the 100
    # the package set after its lazy `import setter.a.b`.
    def test_attribute_set_after_own_lazy_import(self):
        # Rule 14
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("packages", "set_after_import.py",
                                           lazy=lazy)
                self.assertEqual(result.output, ["100"], result.err)


class EagerOrderTests(LazyImportsTestCase):
    """Rule 49: packages go through the eager states, in eager order."""

    def check_same(self, code, files, expected=None):
        results = [self.run_code(code, lazy=lazy, files=files)
                   for lazy in MODES]
        eager, lazy = (result.output for result in results)
        self.assertEqual(lazy, eager, results[1].err)
        if expected is not None:
            self.assertEqual(eager, expected)
        return eager

    TREE = {
        "p/__init__.py": "",
        "p/sub/__init__.py": "print('exec p.sub')\n",
        "p/sub/other.py": "print('exec p.sub.other')\n",
        "p/sub/more.py": "",
    }

    def test_module_deleted_from_sys_modules_before_the_statement(self):
        self.check_same("""
            import sys
            import p.sub.more
            old = p.sub
            del sys.modules["p.sub"]
            import p.sub.other
            p.sub.other
            print(p.sub is old, sys.modules["p.sub"] is p.sub,
                  p.sub.other is sys.modules["p.sub.other"],
                  hasattr(old, "other"))
        """, self.TREE, ["False True True False"])

    def test_module_deleted_from_sys_modules_after_the_statement(self):
        # Lazily the import runs at first use: as an eager import run then,
        # it imports p.sub afresh.
        results = [self.run_code("""
            import sys
            import p.sub.more
            old = p.sub
            import p.sub.other
            del sys.modules["p.sub"]
            p.sub.other
            print(p.sub is old, "p.sub" in sys.modules,
                  p.sub is sys.modules.get("p.sub"))
        """, lazy=lazy, files=self.TREE) for lazy in MODES]
        self.assertEqual(results[0].lines,
                         ["exec p.sub", "exec p.sub.other",
                          "True False False"])
        self.assertEqual(results[1].lines,
                         ["exec p.sub", "exec p.sub", "exec p.sub.other",
                          "False True True"], results[1].err)

    def test_package_name_bound_before_the_from_import(self):
        # Cinder: module_same_name_var_order, both orders.
        for first, second in (("bar = 'x'", "from .bar import Bar"),
                              ("from .bar import Bar", "bar = 'x'")):
            with self.subTest(first=first):
                self.check_same("""
                    import pkg
                    print(pkg.Bar, type(pkg.bar).__name__, pkg.bar
                          if isinstance(pkg.bar, str) else "")
                """, {"pkg/__init__.py": f"{first}\n{second}\nBar\n",
                      "pkg/bar.py": "Bar = 'Bar'\n"})

    def test_sibling_import_binds_the_submodule_in_the_package(self):
        out = self.check_same("""
            import pkg
            import pkg.user
            pkg.user.f()
            print("sub" in vars(pkg), "sub" in dir(pkg))
            print(pkg.sub.__name__)
        """, {"pkg/__init__.py": "",
              "pkg/sub.py": "",
              "pkg/user.py": "import pkg.sub\ndef f(): pass\n"})
        self.assertEqual(out, ["True True", "pkg.sub"])

    def test_package_deleting_its_submodule_name(self):
        # Cinder: deleted_side_effects.
        self.check_same("""
            import pkg
            print(pkg.run(), hasattr(pkg, "core"))
        """, {"pkg/__init__.py": "from .core import run\ndel core\n",
              "pkg/core.py": "def run(): return 'run'\n"},
              ["run False"])

    def test_later_rebinding_by_the_package_wins(self):
        self.check_same("""
            import importlib, pkg
            import pkg.util
            print(pkg.util, importlib.import_module("pkg.util").__name__)
        """, {"pkg/__init__.py": ("import pkg.util\n"
                                  "util = 'rebound'\n"),
              "pkg/util.py": ""}, ["rebound pkg.util"])

    def test_star_import_takes_the_names_bound_so_far(self):
        # Contract rule 21: "from pkg import *" without __all__ copies the
        # names the package has now, lazy ones unresolved (as Cinder and
        # CPython 3.15 do).  A name that a deferred import of the package
        # would bind when it runs (pkg.foo binds its sibling "string") is
        # not there yet: eagerly it is.  The one pinned difference.
        files = {"pkg/__init__.py": "import pkg.foo\n",
                 "pkg/string.py": "spam = 1\n",
                 "pkg/foo.py": "from . import string\nstring.spam\n"}
        code = """
            import importlib
            from pkg import *
            print(sorted(n for n in dir()
                         if not n.startswith("_") and n != "importlib"),
                  importlib.is_lazy_import(globals(), "foo"))
        """
        for lazy, expected in ((False, "['foo', 'pkg', 'string'] False"),
                               (True, "['foo', 'pkg'] True")):
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy, files=files)
                self.assert_lines(result, [expected])

    def test_star_import_of_a_name_taken_from_the_importer(self):
        # Contract rule 21: "from pkg.util import *" in pkg copies the names
        # that are lazy in pkg.util, except one that pkg.util takes from
        # pkg itself ("from pkg import sub"): copied into pkg it would read
        # itself (nltk's "from nltk import redos" in nltk.util).
        self.check_same("""
            import pkg
            print(pkg.Tok.value, type(pkg.sub).__name__)
        """, {"pkg/__init__.py": ("from pkg.util import *\n"
                                  "from pkg.tok import Tok\n"),
              "pkg/util.py": "from pkg import sub\n",
              "pkg/sub.py": "import pkg.util\nVALUE = 1\n",
              "pkg/tok.py": ("from pkg import sub\n"
                             "class Tok:\n    value = sub.VALUE\n")},
            ["1 module"])

    def test_from_import_of_a_name_served_by_getattr(self):
        self.check_same("""
            from pkg import dynamic
            import pkg
            print(dynamic, "dynamic" in vars(pkg))
        """, {"pkg/__init__.py": ("def __getattr__(name):\n"
                                  "    return 'from getattr'\n")},
              ["from getattr False"])

    def test_from_import_of_a_missing_name_fails_as_eagerly(self):
        code = """
            import pkg
            try:
                from pkg import missing
                missing
            except ImportError as exc:
                print(type(exc).__name__, "missing" in vars(pkg))
        """
        self.check_same(code, {"pkg/__init__.py": ""},
                        ["ImportError False"])


class ResolutionTests(LazyImportsTestCase):

    def test_specialized_global_read(self):
        # Rule 15: LOAD_GLOBAL_MODULE specialized before the lazy store.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "specialized.py",
                                           lazy=lazy)
                order = (["bound", "exec target"] if lazy
                         else ["exec target", "bound"])
                self.assert_lines(result, order + ["42"])

    def test_import_audit_event_at_resolution(self):
        # Rule 12: no "import" audit event until the import really runs.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "-c", """if 1:
                    import sys
                    events = []
                    sys.addaudithook(lambda event, args: events.append(args[0])
                                     if event == "import"
                                     and args[0] == "target" else None)
                    import target
                    print("bound", events)
                    target.value
                    print(events)
                """, lazy=lazy)
                expected = (["bound []", "exec target", "['target']"] if lazy
                            else ["exec target", "bound ['target']",
                                  "['target']"])
                self.assert_lines(result, expected)

    def test_getattr_hasattr_and_from_import(self):
        # Rule 15: reads from other modules resolve.
        for access in ("holder.target", "getattr(holder, 'target')",
                       "hasattr(holder, 'target') and vars(holder)['target']"):
            with self.subTest(access=access):
                result = self.run_scenario("deferred", "-c", f"""if 1:
                    import sys
                    import holder
                    holder.__name__
                    print("bound")
                    print({access} is sys.modules["target"])
                """, lazy=True)
                self.assert_lines(result, ["exec holder", "bound",
                                           "exec target", "True"])

    def test_relative_import_resolves_in_its_package(self):
        # Rule 15: resolution uses the importing module's globals.
        result = self.run_code("""
            import pkg.mod
            print(pkg.mod.sibling.__name__)
        """, lazy=True, files={
            "sibling.py": "",
            "pkg/__init__.py": "",
            "pkg/sibling.py": "",
            "pkg/mod.py": "from . import sibling\n",
        })
        self.assert_lines(result, ["pkg.sibling"])

    def test_replaced_builtins_import(self):
        # Rule 16: the __import__ of builtins at resolution time is used.
        result = self.run_scenario("deferred", "-c", """if 1:
            import builtins
            original = builtins.__import__
            calls = []
            def tracing(name, globals=None, *args, **kwargs):
                calls.append((name, (globals or {}).get("__name__")))
                return original(name, globals, *args, **kwargs)
            import target
            builtins.__import__ = tracing
            target.value
            builtins.__import__ = original
            # The import system's own calls (_io, ...) are not of interest.
            print([call for call in calls if call[0] == "target"])
        """, lazy=True)
        self.assert_lines(result, ["exec target",
                                   "[('target', '__main__')]"])

    def test_replaced_import_sees_what_eager_code_calls(self):
        # Rule 16: the same calls as the eager statements, nothing more.
        results = [self.run_scenario("packages", "traced.py", lazy=lazy)
                   for lazy in MODES]
        eager, lazy = (sorted(result.output) for result in results)
        self.assertIn("bound", eager)
        self.assertEqual(lazy, eager)

    def test_delete_and_rebind_do_not_import(self):
        # Rule 17
        result = self.run_scenario("deferred", "rebind.py", lazy=True)
        self.assert_lines(result, ["exec holder", "False"])

    def test_specialized_attribute_read_with_hint(self):
        # Rule 15: LOAD_ATTR_WITH_HINT specialized on an instance dict
        # that later gets a lazy import.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "with_hint.py",
                                           lazy=lazy)
                order = (["bound", "exec target"] if lazy
                         else ["exec target", "bound"])
                self.assert_lines(result, order + ["42 42"])

    def test_module_getattr(self):
        # Rule 18
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import sys
                    from dyn import computed
                    print(computed, "dyn.computed" in sys.modules)
                """, lazy=lazy, files={
                    "dyn/__init__.py": (
                        "def __getattr__(name):\n"
                        "    if name == 'computed':\n"
                        "        return 'from __getattr__'\n"
                        "    raise AttributeError(name)\n"),
                    "dyn/computed.py": "",
                })
                self.assert_lines(result, ["from __getattr__ False"])


if __name__ == "__main__":
    unittest.main()

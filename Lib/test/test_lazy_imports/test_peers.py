"""The scenarios of the peer implementations' own test suites.

CinderScenarioTests covers the scenarios of Cinder's Lib/test/lazyimports/
(each run by Cinder once with lazy imports and once without), and
PEP810Tests the tests of CPython 3.15's Lib/test/test_lazy_import/ that
need neither the ``lazy`` keyword nor PEP 810's own objects: their
``lazy import`` and ``-X lazy_imports=all`` are spelled ``-L`` here.

Each test writes its own module tree and runs child interpreters on it.
Where the fork deliberately differs from a peer (contract rules 9, 11, 19,
24, 42), the test pins the fork's documented behaviour and says why.
"""

import textwrap
import unittest

from test.support import os_helper, requires_subprocess

from .util import MODES, LazyImportsTestCase, write_files

EAGER, LAZY = MODES

# Cinder's data/metasyntactic tree: packages whose bodies bind their name.
META = {
    "meta/__init__.py": "",
    "meta/foo/__init__.py": "Foo = 'Foo'\n",
    "meta/foo/ack/__init__.py": "Ack = 'Ack'\n",
    "meta/foo/bar/__init__.py": "Bar = 'Bar'\n",
    "meta/foo/bar/baz/__init__.py": "Baz = 'Baz'\n",
    "meta/foo/bar/thud/__init__.py": "Thud = 'Thud'\n",
    "meta/waldo/__init__.py": "Waldo = 'Waldo'\n",
    "meta/waldo/fred/__init__.py": "Fred = 'Fred'\n",
    "meta/plugh/__init__.py": "Plugh = 'Plugh'\n",
    "meta/names.py": """\
        from .foo import Foo
        from .foo.ack import Ack
        from .foo.bar import Bar
        from .foo.bar.baz import Baz
        from .foo.bar.thud import Thud
        from .waldo import Waldo
        from .waldo.fred import Fred
        from .plugh import Plugh
        Metasyntactic = 'Metasyntactic'
        """,
}

# A package whose attributes come from its __version__ submodule, as in
# requests (Cinder's data/versioned).
VERSIONED = {
    "versioned/__init__.py": """\
        from .__version__ import __version__
        from .__version__ import __copyright__
        """,
    "versioned/__version__.py": """\
        __version__ = '1.0'
        __copyright__ = 'Copyright 2001 nobody'
        """,
}

# A module that has no use but to be imported.
PLAIN = {"plain.py": "VALUE = 'plain'\n"}

# CPython 3.15's data package: basic2 and the modules importing it.
DATA = {
    "data/__init__.py": "",
    "data/basic2.py": """\
        print('exec data.basic2')
        x = 42
        def f():
            return 'f'
        """,
}

# CPython 3.15's data.basic_unused, whose import of data.basic2 nothing
# uses.  Here a function, never called, reads the name: one that no code of
# the module reads would be an import made for its side effects, which
# runs at once under -L (contract rule 57).
BASIC_UNUSED = "import data.basic2\n\n\ndef _uses():\n    return data\n"


# Module bodies shared by the CPython 3.15 tests.

GETATTR_MODULE = {"getattr_mod.py": """\
    def __getattr__(name):
        if name == 'dynamic_attr':
            return 'from_getattr'
        raise AttributeError(name)
    """}

PKG = {
    "data/pkg/__init__.py": """\
        x = 42
        def __getattr__(name):
            if name == 'dynamic_attr':
                return 'from_getattr'
            raise AttributeError(name)
        """,
    "data/pkg/b.py": "def foo():\n    return 'foo'\n",
    "data/pkg/bar.py": "print('BAR_MODULE_LOADED')\ndef f():\n    pass\n",
}

BROKEN = {
    "data/__init__.py": "",
    "data/broken_module.py": """\
        print('exec data.broken_module')
        raise ValueError('This module always fails to import')
        """,
}

GLOBALS_ACCESS = dict(DATA)
GLOBALS_ACCESS["data/globals_access.py"] = """\
    import data.basic2 as basic2
    def get_from_globals():
        g = globals()
        return g['basic2']
    def get_direct():
        return basic2
    """

# A module holding a lazy import and reading an attribute of itself.
MODULE_READS_ITSELF = """\
import data.basic2 as basic2
import sys
mod = sys.modules[__name__]
x = {}
"""

# Import data.<module> and tell whether its body imported data.basic2.
EAGER_CHECK = """
import sys
import data.{0}
data.{0}
print("data.basic2" in sys.modules)
"""


def threads_code(prelude, threads, body, summary):
    """Code running body(idx) in threads released together, then printing
    the errors, whether every thread got the same result, and summary."""
    body = textwrap.indent(textwrap.dedent(body).strip(), " " * 12)
    return textwrap.dedent(prelude) + f"""
import threading
results = [None] * {threads}
errors = []
barrier = threading.Barrier({threads})
def run(idx):
    try:
        barrier.wait()
        def body():
{body}
        results[idx] = body()
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=run, args=(i,))
           for i in range({threads})]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors, all(r == results[0] for r in results), {summary})
"""


def is_lazy_lines(*names):
    """Code printing, for each name, whether globals() holds it lazily."""
    probes = ", ".join(f"is_lazy_import(globals(), {name!r})"
                       for name in names)
    return f"print({probes})\n"


class PeerTestCase(LazyImportsTestCase):

    def assert_output(self, code, expected, *, files=None, modes=MODES,
                      **kwargs):
        """Run code (or the tuple of its parts, each dedented) in each
        mode; expected is the list of output lines (execution log
        excluded), or a {lazy: lines} dict."""
        if isinstance(code, tuple):
            code = "".join(textwrap.dedent(part) for part in code)
        for lazy in modes:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy, files=files,
                                       **kwargs)
                want = (expected[lazy] if isinstance(expected, dict)
                        else expected)
                self.assertEqual(result.output, want, result.err)

    def assert_imports_basic2(self, name, source, imported):
        """Under -L, does importing and using data.<name> (source) import
        data.basic2 at once?"""
        files = dict(DATA)
        files[f"data/{name}.py"] = source
        self.assert_output(EAGER_CHECK.format(name), [str(imported)],
                           files=files, modes=[LAZY])

    def run_script(self, script, *, lazy, files, failure=False):
        with os_helper.temp_dir() as root:
            write_files(root, files)
            return self.run_python(script, lazy=lazy, cwd=root,
                                   failure=failure)


@requires_subprocess()
class CinderScenarioTests(PeerTestCase):
    """Cinder's Lib/test/lazyimports/, -X lazyimportsall spelled -L.

    Cinder's set_lazy_imports(excluding=...) names the modules whose own
    imports are eager; the fork's names the modules that are imported
    eagerly (contract rules 11 and 42).  Those scenarios pin the fork's
    meaning.  Cinder's earlier eager=[...] list had the fork's meaning and
    is spelled excluding=[...] here.
    """

    # Cinder: attribute_side_effect
    def test_version_attribute_of_package_kept(self):
        # requests' "from .__version__ import __version__" must leave the
        # string, not the submodule, on the package.
        self.assert_output("""
            import versioned
            print(versioned.__version__, versioned.__copyright__)
        """, ["1.0 Copyright 2001 nobody"], files=VERSIONED)

    # Cinder: attr_side_effect (the version of attribute_side_effect with
    # a third submodule imported by the package and by its user)
    def test_version_attribute_with_submodule_imported_by_user(self):
        files = dict(VERSIONED)
        files["versioned/__init__.py"] += (
            "from .structures import Structure\n")
        files["versioned/structures.py"] = "class Structure: pass\n"
        self.assert_output("""
            import versioned
            from versioned import structures
            print(versioned.__version__, versioned.__copyright__)
            print(versioned.structures.Structure.__qualname__,
                  structures is versioned.structures,
                  versioned.Structure is structures.Structure)
        """, ["1.0 Copyright 2001 nobody", "Structure True True"],
            files=files)

    # Cinder: builtins_override
    def test_import_uses_builtins_of_exec_globals(self):
        # Contract rule 16: the __import__ of the namespace's builtins is used.
        self.assert_output("""
            calls = []
            def replaced_import(*args):
                calls.append(args[0])
            ns = {"__builtins__": {"__import__": replaced_import}}
            exec("import os; os", ns)
            print(calls, ns["os"])
        """, ["['os'] None"])

    # Cinder: dict_changes_when_loading (and its driver,
    # check_dict_changes_when_loading)
    def test_package_iterating_its_namespace_while_it_resolves(self):
        # Iterating locals().items() resolves elements_function, whose
        # import binds more submodules on the package; no "dictionary
        # changed size during iteration", and the package ends with the
        # names it has eagerly (contract rule 49).
        files = {
            "pkg/__init__.py": """\
                from .elements import elements_function
                before = 'elements_sub' in globals()
                def _go(lcls):
                    global __all__
                    __all__ = sorted(name for name, obj in lcls.items()
                                     if not name.startswith('_'))
                _go(locals())
                after = 'elements_sub' in globals()
                """,
            "pkg/elements.py": """\
                from .elements_sub import elements_sub_function
                def elements_function():
                    pass
                """,
            "pkg/elements_sub.py": """\
                def elements_sub_function():
                    pass
                """,
        }
        names = "['before', 'elements', 'elements_function', 'elements_sub']"
        self.assert_output("""
            import pkg
            print(pkg.before, pkg.after)
            print(pkg.__all__)
        """, {EAGER: ["True True", names],
              # elements has not run yet when the package checks.
              LAZY: ["False True", names]}, files=files)

    # Cinder: circular_import
    def test_cycle_eager_imports_cannot_handle(self):
        # x imports y, which imports a name x binds later: eagerly an
        # ImportError; lazily the name is only needed once x has run.  A
        # try that catches ImportError sees the eager outcome (contract
        # rule 54), so the lazy run that works has no try.
        files = {
            "cyc/__init__.py": "",
            "cyc/main.py": "from .x import X2\nresult = X2()\n",
            "cyc/x.py": """\
                def X1():
                    return 'X'
                from .y import Y1
                def X2():
                    return Y1()
                """,
            "cyc/y.py": """\
                def Y1():
                    return 'Y'
                from .x import X2
                def Y2():
                    return X2()
                """,
        }
        self.assert_output("""
            try:
                import cyc.main
                print(cyc.main.result)
            except ImportError as exc:
                print("ImportError", "circular import" in str(exc))
        """, ["ImportError True"], files=files)
        self.assert_output("""
            import cyc.main
            print(cyc.main.result)
        """, ["Y"], files=files, modes=[LAZY])

    # Cinder: cycle_with_load_global
    def test_cycle_through_global_read_by_function(self):
        # b calls a function of a that reads a's name being resolved:
        # both modes raise an ImportError saying "circular import", never
        # a RecursionError or a crash (contract rule 26).
        files = {
            "cyc/__init__.py": """\
                try:
                    from . import a
                    a
                except ImportError as exc:
                    print(type(exc).__name__, 'circular import' in str(exc))
                """,
            "cyc/a.py": """\
                from .b import B
                def get_B():
                    return B
                B
                """,
            "cyc/b.py": """\
                B = 'B'
                from .a import get_B
                get_B()
                """,
        }
        self.assert_output("import cyc\ncyc\n", ["ImportError True"],
                           files=files)

    # Cinder: deferred_resolve_failure
    def test_cycle_across_package_levels(self):
        # gql.type and gql.utilities import each other (graphql-core's
        # layout): eagerly a circular ImportError, lazily it works (without
        # a try catching ImportError: contract rule 54).
        files = {
            "gql/__init__.py": "",
            "gql/main.py": """\
                from gql import type
                from gql.utilities import type_from_ast
                """,
            "gql/type.py": """\
                from gql.utilities import value_from_ast_untyped
                value_from_ast_untyped = value_from_ast_untyped
                class GraphQLSchema:
                    pass
                """,
            "gql/utilities/__init__.py": """\
                from gql.utilities.type_from_ast import type_from_ast
                value_from_ast_untyped = 'value_from_ast_untyped'
                """,
            "gql/utilities/type_from_ast.py": """\
                from gql.type import GraphQLSchema
                def type_from_ast(schema: GraphQLSchema):
                    pass
                """,
            "app.py": """\
                import gql.main
                print(type(gql.main.type_from_ast).__name__,
                      gql.main.type.GraphQLSchema.__name__)
                """,
        }
        self.assert_output("""
            try:
                import app
            except ImportError as exc:
                print("ImportError", "circular import" in str(exc))
        """, ["ImportError True"], files=files)
        self.assert_output("import app\napp\n", ["function GraphQLSchema"],
                           files=files, modes=[LAZY])

    # Cinder: deleted_side_effects
    def test_submodule_deleted_from_sys_modules_is_imported_afresh(self):
        # Contract rule 49: after del sys.modules['meta.foo.bar'], a later
        # import of meta.foo.bar.thud imports a new meta.foo.bar, and each bar
        # keeps the submodule attributes of its own imports.
        self.assert_output("""
            import sys
            import meta.foo as foo
            import meta.foo.bar.baz
            first_bar = meta.foo.bar
            del sys.modules["meta.foo.bar"]
            import meta.foo.bar.thud
            second_bar = meta.foo.bar
            bar = sys.modules["meta.foo.bar"]
            print(first_bar is second_bar, bar is first_bar,
                  bar is second_bar)
            print("baz" in dir(first_bar), "thud" in dir(first_bar))
            print("baz" in dir(second_bar), "thud" in dir(second_bar))
        """, ["False False True", "True False", "False True"], files=META)

    # Cinder: dict_delete
    def test_package_deleted_from_sys_modules_is_imported_afresh(self):
        # Contract rule 49: the second "import meta.waldo" gives the new module
        # in sys.modules, not the deleted one.  Cinder also checks that the
        # second "import meta.waldo.fred" binds fred lazily on the new waldo
        # under -L, where eagerly (fred already imported) it does not bind it
        # at all.
        code = """
            import sys, importlib
            import meta.waldo
            old = meta.waldo
            import meta.waldo.fred
            del sys.modules["meta.waldo"]
            import meta.waldo
            new = meta.waldo
            import meta.waldo.fred
            print(new is sys.modules.get("meta.waldo"), new is not old)
            waldo = vars(meta.waldo)
            print("fred" in waldo and importlib.is_lazy_import(waldo, "fred"))
        """
        self.assert_output(code, {EAGER: ["True True", "False"],
                                  LAZY: ["True True", "True"]}, files=META)

    # Cinder: dict_tests.
    def test_copies_and_merges_carry_lazy_values(self):
        # Contract rule 21: copy(), | and update() carry lazy values
        # unresolved; reading the values of one copy resolves that copy only.
        self.assert_output("""
            from importlib import is_lazy_import
            from meta import names
            print(is_lazy_import(globals(), "names"))
            g = globals()
            gcopy = g.copy()
            resolved = gcopy.copy()
            list(resolved.values())
            print(is_lazy_import(g, "names"), is_lazy_import(gcopy, "names"),
                  is_lazy_import(resolved, "names"))
            print(is_lazy_import(gcopy | resolved, "names"),
                  is_lazy_import(resolved | gcopy, "names"))
            gcopy.update(resolved)
            print(is_lazy_import(gcopy, "names"))
            gcopy.update(g)
            print(is_lazy_import(gcopy, "names"))
        """, ["True", "True True False", "False True", "False", "True"],
            files=META, modes=[LAZY])

    # Cinder: dict_update
    def test_update_from_globals_gives_the_module(self):
        self.assert_output("""
            import plain
            ns = {}
            ns.update(globals())
            print(repr(ns["plain"]).startswith("<module 'plain'"),
                  ns["plain"] is plain)
        """, ["True True"], files=PLAIN)

    # Cinder: dict_values
    def test_values_of_namespace_copies_are_never_lazy(self):
        # Contract rule 19: values(), items(), their iterators and d[k] of
        # copies of a namespace holding lazy names never give a lazy object.
        names = ["Foo", "Ack", "Bar", "Baz", "Thud", "Waldo", "Fred",
                 "Plugh", "Metasyntactic"]
        self.assert_output(f"""
            from meta import names
            from meta.names import *
            g = globals().copy()
            seen = [repr(v) for v in g.copy().values()]
            seen += [repr(v) for k, v in g.copy().items()]
            seen += [repr(v) for v in iter(g.copy().values())]
            seen += [repr(v) for k, v in iter(g.copy().items())]
            print([r for r in seen if r.startswith("<lazy_import")])
            print(repr(g["names"]).startswith("<module 'meta.names'"))
            print(*[g[name] for name in {names!r}])
        """, ["[]", "True", " ".join(names)], files=META)

    # Cinder: disable_lazy_imports
    def test_disable_from_a_function(self):
        self.assert_output("""
            import importlib
            def disable_lazy_imports():
                importlib.set_lazy_imports(False)
            print(importlib.is_lazy_imports_enabled())
            disable_lazy_imports()
            print(importlib.is_lazy_imports_enabled())
            import plain
            print(importlib.is_lazy_import(globals(), "plain"))
        """, ["True", "False", "False"], files=PLAIN, modes=[LAZY])

    # Cinder: enable_lazy_imports_at_runtime (and importlib_apis/'s
    # version, which turns them off again at the end)
    def test_enable_at_runtime(self):
        self.assert_output("""
            import importlib
            from importlib import is_lazy_import
            from meta import foo
            print(is_lazy_import(globals(), "foo"))
            importlib.set_lazy_imports()
            print(importlib.is_lazy_imports_enabled())
            from meta import plugh
            print(is_lazy_import(globals(), "plugh"))
            with importlib.eager_imports():
                from meta import waldo
            print(is_lazy_import(globals(), "waldo"))
            importlib.set_lazy_imports(False)
            from meta.waldo import fred
            print(is_lazy_import(globals(), "fred"))
        """, ["False", "True", "True", "False", "False"], files=META,
            modes=[EAGER])

    # Cinder: from_import_star.
    def test_star_import_keeps_names_lazy(self):
        # Contract rule 21: the names bound by "from m import *" stay lazy
        # where they are lazy in m.
        self.assert_output(("""
            from importlib import is_lazy_import
            from meta.names import *
        """, is_lazy_lines("Foo", "Ack", "Bar", "Metasyntactic")),
            ["True True True False"], files=META, modes=[LAZY])

    # Cinder: future_eager.  Cinder's "from __future__ import
    # eager_imports" makes one module's imports eager; the fork spells it
    # "with importlib.eager_imports():", which is lexical in the same way
    # (contract rule 10): the imported module's own imports stay lazy.
    def test_eager_module_imports_lazy_module(self):
        files = {
            "fe/__init__.py": "",
            "fe/eagerly_imported.py": """\
                import importlib
                from fe import lazily_imported
                print(importlib.is_lazy_import(globals(), 'lazily_imported'))
                """,
            "fe/lazily_imported.py": "print('exec fe.lazily_imported')\n",
        }
        result = self.run_code("""
            import importlib
            with importlib.eager_imports():
                from fe import eagerly_imported
            print(importlib.is_lazy_import(globals(), "eagerly_imported"))
        """, lazy=True, files=files)
        self.assert_lines(result, ["True", "False"])

    # Cinder: immediate_set_lazy_import (and its earlier version, which
    # passed eager=[...])
    def test_set_lazy_imports_applies_to_next_statement(self):
        # Contract rule 4: the call applies at once to the rest of the module.
        # Contract rule 11: excluding names modules imported eagerly (plugh),
        # not importers: excluding "__main__" leaves waldo lazy, where Cinder
        # makes the imports of __main__ eager.
        self.assert_output(("""
            import importlib
            from importlib import is_lazy_import
            from meta import foo
            importlib.set_lazy_imports(excluding=["meta.plugh"])
            from meta import plugh
            importlib.set_lazy_imports(excluding=["__main__"])
            from meta import waldo
        """, is_lazy_lines("foo", "plugh", "waldo")),
            ["True False True"], files=META, modes=[LAZY])

    # Cinder: immediate_set_lazy_import_global
    def test_set_lazy_imports_by_module_being_resolved(self):
        # A module resolved in the middle of a package body changes the setting
        # for the rest of that body (contract rule 4).  Cinder excludes the
        # importing package ("impkg") to make its later imports eager; the
        # fork's excluding names the imported module instead (contract rule
        # 11), so with "impkg" waldo stays lazy and with "meta.waldo" it is
        # eager.
        for excluded, waldo_lazy in (("impkg", True), ("meta.waldo", False)):
            files = dict(META)
            files["impkg/__init__.py"] = """\
                from importlib import is_lazy_import
                from . import excluding
                excluding
                from meta import foo
                from meta import waldo
                print(is_lazy_import(globals(), 'foo'),
                      is_lazy_import(globals(), 'waldo'))
                """
            files["impkg/excluding.py"] = (
                "import importlib\n"
                f"importlib.set_lazy_imports(excluding=[{excluded!r}])\n")
            with self.subTest(excluded=excluded):
                self.assert_output("import impkg\nimpkg.foo\n",
                                   [f"True {waldo_lazy}"], files=files,
                                   modes=[LAZY])

    # Cinder: import_same_name_variable (data/module_same_name_var_order1
    # and 2)
    def test_package_variable_named_like_submodule(self):
        # Contract rule 14: set after the import statement, the variable keeps
        # its value; set before it, the submodule replaces it.
        files = {
            "order1/__init__.py": "from .bar import Bar\nbar = 'Blah'\nBar\n",
            "order1/bar.py": "Bar = 'Bar'\n",
            "order2/__init__.py": "bar = 'Blah'\nfrom .bar import Bar\nBar\n",
            "order2/bar.py": "Bar = 'Bar'\n",
        }
        self.assert_output("""
            import sys
            import order1
            print(order1.bar)
            import order2
            print(order2.bar is sys.modules["order2.bar"])
        """, ["Blah", "True"], files=files)

    # Cinder: is_lazy_imports_enabled
    def test_is_lazy_imports_enabled_follows_state(self):
        # The fork's _imp._set_lazy_imports takes (enabled, excluding) and
        # returns the previous pair, which restores it.
        self.assert_output("""
            import _imp, importlib
            previous = importlib.is_lazy_imports_enabled()
            p = _imp._set_lazy_imports(True, None)
            now = importlib.is_lazy_imports_enabled()
            _imp._set_lazy_imports(*p)
            print(previous, now,
                  importlib.is_lazy_imports_enabled() == previous)
        """, {EAGER: ["False True True"], LAZY: ["True True True"]})

    # Cinder: lazy_attribute_side_effect (both versions: importing the
    # package, then its __version__ submodule, eagerly in a try statement)
    def test_eager_submodule_import_keeps_lazy_attribute(self):
        # The eager import of versioned.__version__ does not bind the
        # submodule over the package's pending __version__ string.
        self.assert_output("""
            try:
                import versioned as versioned
            finally:
                pass
            try:
                import versioned.__version__
            finally:
                pass
            print(versioned.__version__, versioned.__copyright__)
        """, ["1.0 Copyright 2001 nobody"], files=VERSIONED)

    # Cinder: lazy_side_effects.  Cinder expects AttributeError for foo.ack
    # under lazy imports; the fork gives what eager code gives: "from meta.foo
    # import ack" named the submodule meta.foo.ack, so the failed lookup on
    # meta.foo imports it (contract rule 37, guide "Submodules").
    def test_submodule_named_by_from_import_reachable(self):
        self.assert_output("""
            import meta.foo.bar
            from meta.foo import ack
            import meta.foo as foo
            print(foo.bar.Bar)
            print(foo.ack.Ack)
        """, ["Bar", "Ack"], files=META)

    # Cinder: lazy_submodules
    def test_submodules_imported_when_reached(self):
        self.assert_output("""
            import sys
            import meta
            import meta.foo.bar as bar
            import meta.foo.ack as ack
            bar.Bar
            print("meta.foo.bar" in sys.modules,
                  "meta.foo.ack" in sys.modules)
            import meta.waldo.fred as fred
            print(meta.waldo.Waldo)
            def _uses():
                return ack, fred
        """, {EAGER: ["True True", "Waldo"], LAZY: ["True False", "Waldo"]},
            files=META)

    # Cinder: max_recursion (data/max_recursion: setuptools' vendoring
    # meta path importer, here with find_spec as setuptools has it since
    # Python 3.12 dropped find_module)
    def test_vendoring_meta_path_importer(self):
        files = {
            "mr/__init__.py": """\
                import sys
                old_meta_path = sys.meta_path.copy()
                try:
                    from .extern.packaging import markers
                finally:
                    sys.meta_path[:] = old_meta_path
                """,
            "mr/extern/__init__.py": """\
                import importlib.util
                import sys

                class VendorImporter:
                    def __init__(self, root_name, vendored_names):
                        self.root_name = root_name
                        self.vendored_names = set(vendored_names)
                        self.vendor_pkg = root_name.replace('extern',
                                                            '_vendor')

                    def load_module(self, fullname):
                        root, base, target = fullname.partition(
                            self.root_name + '.')
                        for prefix in (self.vendor_pkg + '.', ''):
                            try:
                                extant = prefix + target
                                __import__(extant)
                                mod = sys.modules[extant]
                                sys.modules[fullname] = mod
                                return mod
                            except ImportError:
                                pass
                        raise ImportError(f'{target} is required')

                    def create_module(self, spec):
                        return self.load_module(spec.name)

                    def exec_module(self, module):
                        pass

                    def find_spec(self, fullname, path=None, target=None):
                        root, base, target = fullname.partition(
                            self.root_name + '.')
                        if root or not any(map(target.startswith,
                                               self.vendored_names)):
                            return None
                        return importlib.util.spec_from_loader(fullname,
                                                               self)

                    def install(self):
                        if self not in sys.meta_path:
                            sys.meta_path.append(self)

                VendorImporter(__name__, ['packaging']).install()
                """,
            "mr/_vendor/packaging/__init__.py": "",
            "mr/_vendor/packaging/_compat.py": "string_types = (str,)\n",
            "mr/_vendor/packaging/_typing.py": "TYPE_CHECKING = False\n",
            "mr/_vendor/packaging/markers.py": """\
                from ._compat import string_types
                from ._typing import TYPE_CHECKING
                """,
        }
        self.assert_output("""
            from mr import _vendor
            print(_vendor.packaging._compat.string_types)
        """, ["(<class 'str'>,)"], files=files)

    # Cinder: parent_eager_import.  Cinder expects the excluded parent's
    # submodule baz to be bound eagerly on it.  In the fork, excluding
    # meta.foo.bar makes "import meta.foo.bar" eager but not "import
    # meta.foo.bar.baz" (contract rule 11), which binds baz on the loaded bar
    # as a lazy reference (contract rule 49).
    def test_import_of_submodule_of_excluded_module(self):
        self.assert_output("""
            import importlib, sys
            importlib.set_lazy_imports(excluding=["meta.foo.bar"])
            import meta.foo.bar as bar
            import meta.foo.bar.baz
            print(importlib.is_lazy_import(globals(), "bar"),
                  "meta.foo.bar.baz" in sys.modules)
            print("baz" in vars(bar),
                  importlib.is_lazy_import(vars(bar), "baz"))
            print(bar.baz.Baz, "meta.foo.bar.baz" in sys.modules)
        """, ["False False", "True True", "Baz True"], files=META,
            modes=[LAZY])

    # Cinder: set_lazy_imports_eager (its eager=[...] is the fork's
    # excluding=[...])
    def test_excluding_list_of_imported_modules(self):
        self.assert_output(("""
            import importlib
            from importlib import is_lazy_import
            importlib.set_lazy_imports(excluding=[
                "meta.foo", "meta.waldo", "meta.plugh.Plugh"])
            import meta.foo as foo
            from meta.foo import bar
            from meta.waldo import Waldo
            import meta.waldo.fred as fred
            fred_import_as = is_lazy_import(globals(), "fred")
            from meta.waldo.fred import Fred
            print(is_lazy_import(globals(), "foo"),
                  is_lazy_import(globals(), "bar"),
                  is_lazy_import(globals(), "Waldo"),
                  fred_import_as, is_lazy_import(globals(), "Fred"))
            from meta.waldo import fred
            import meta.plugh as plugh
            from meta.plugh import Plugh
        """, is_lazy_lines("fred", "plugh", "Plugh")),
            ["False False False True True", "False True False"],
            files=META, modes=[EAGER])

    def check_excluding_container(self, container_class):
        # Cinder expects "from meta import plugh" to stay lazy with meta.plugh
        # excluded, and plugh's own imports to be eager.  The fork imports
        # meta.plugh eagerly (contract rule 11), and the imports of its body
        # follow the normal rules.
        files = dict(META)
        files["meta/plugh/__init__.py"] = """\
            from importlib import is_lazy_import
            from meta import waldo
            print('waldo lazy in plugh:', is_lazy_import(globals(), 'waldo'))
            """
        self.assert_output((container_class, """
            import importlib
            from importlib import is_lazy_import
            importlib.set_lazy_imports(excluding=Checker())
            from meta import foo
            print(is_lazy_import(globals(), "foo"))
            from meta import plugh
            print(is_lazy_import(globals(), "plugh"))
            foo
            print(is_lazy_import(globals(), "foo"))
        """), ["True", "waldo lazy in plugh: True", "False", "False"],
            files=files, modes=[EAGER])

    # Cinder: set_lazy_imports_excluding_cb (and importlib_apis/'s)
    def test_excluding_container_delegating_to_method(self):
        self.check_excluding_container("""
            class Checker:
                def filter(self, name):
                    return name == "meta.plugh"
                def __contains__(self, name):
                    return self.filter(name)
        """)

    # Cinder: set_lazy_imports_excluding_cb_list (and importlib_apis/'s)
    def test_excluding_container_testing_a_list(self):
        self.check_excluding_container("""
            class Checker:
                def __contains__(self, name):
                    return name in ["meta.plugh"]
        """)

    # Cinder: set_lazy_imports_excluding_list (data/excluding, and
    # importlib_apis/'s).  Cinder expects the excluded module "bar" to
    # run its own import of Bar eagerly; in the fork bar is imported
    # eagerly and its import of Bar stays lazy (contract rule 11).
    def test_excluding_list(self):
        files = dict(META)
        files["ex/__init__.py"] = ""
        files["ex/foo.py"] = "from meta.foo import Foo\n"
        files["ex/bar.py"] = "from meta.foo.bar import Bar\n"
        self.assert_output("""
            import importlib
            from importlib import is_lazy_import
            importlib.set_lazy_imports(excluding=["ex.bar"])
            from ex import foo
            print(is_lazy_import(globals(), "foo"),
                  is_lazy_import(foo.__dict__, "Foo"))
            from ex import bar
            print(is_lazy_import(globals(), "bar"),
                  is_lazy_import(bar.__dict__, "Bar"))
            print(foo.Foo, is_lazy_import(foo.__dict__, "Foo"))
        """, ["True True", "False True", "Foo False"], files=files,
            modes=[EAGER])

    # Cinder: set_lazy_imports_false
    def test_set_lazy_imports_false(self):
        self.assert_output("""
            from importlib import set_lazy_imports, is_lazy_import
            set_lazy_imports(False)
            import plain
            print(is_lazy_import(globals(), "plain"))
        """, ["False"], files=PLAIN)

    # Cinder: split_fromlist (both versions: the names of one from-import
    # are independent)
    def test_from_import_names_are_independent(self):
        # Contract rule 13: using foo does not import waldo.
        self.assert_output("""
            import sys
            from meta import foo, waldo
            foo
            print("meta.foo" in sys.modules, "meta.waldo" in sys.modules)
        """, {EAGER: ["True True"], LAZY: ["True False"]}, files=META)
        files = {
            "sf/__init__.py": "",
            "sf/foo/__init__.py": """\
                import sys
                from . import bar, baz
                def test():
                    bar
                    print(sorted(m for m in sys.modules
                                 if m.startswith('sf.')))
                """,
            "sf/foo/bar.py": "",
            "sf/foo/baz.py": "",
        }
        self.assert_output(
            "from sf.foo import test\ntest()\n",
            {EAGER: ["['sf.foo', 'sf.foo.bar', 'sf.foo.baz']"],
             LAZY: ["['sf.foo', 'sf.foo.bar']"]}, files=files)


@requires_subprocess()
class PEP810Tests(PeerTestCase):
    """CPython 3.15's Lib/test/test_lazy_import/, "lazy import" and
    "-X lazy_imports=all" spelled -L.

    The 3.15 tests run these module bodies in the test process with
    test.test_lazy_import.data already imported; here "data" is a package
    of the temporary tree, and the code imports the module whose body
    holds the lazy import before checking what it imported.
    """

    # CPython 3.15: test_basic_unused (its sys.lazy_modules half is
    # PEP 810's own object)
    def test_unused_import_not_loaded(self):
        files = dict(DATA)
        files["data/basic_unused.py"] = BASIC_UNUSED
        result = self.run_code("""
            import sys
            import data.basic_unused
            data.basic_unused
            print("data.basic2" in sys.modules)
            print(data.basic_unused.data.basic2.x)
        """, lazy=True, files=files)
        self.assert_lines(result, ["False", "exec data.basic2", "42"])

    def test_unread_import_runs_at_once(self):
        # Contract rule 57: the documented difference.  CPython 3.15 defers
        # an import whose name no code of its module reads; under -L it is
        # an import made for its side effects, and runs at once.
        files = dict(DATA)
        files["data/basic_unused.py"] = "import data.basic2\n"
        result = self.run_code("""
            import sys
            import data.basic_unused
            data.basic_unused
            print("data.basic2" in sys.modules)
            print(data.basic_unused.data.basic2.x)
        """, lazy=True, files=files)
        self.assert_lines(result, ["exec data.basic2", "True", "42"])

    # CPython 3.15: test_basic_unused_use_externally
    def test_unused_import_used_from_outside(self):
        files = dict(DATA)
        files["data/basic_unused.py"] = BASIC_UNUSED
        self.assert_output("""
            import sys
            from data import basic_unused
            basic_unused
            print("data.basic2" in sys.modules)
            x = basic_unused.data.basic2
            print("data.basic2" in sys.modules, x.x)
        """, ["False", "True 42"], files=files, modes=[LAZY])

    # CPython 3.15: test_basic_from_unused_use_externally
    def test_unused_from_import_used_from_outside(self):
        files = dict(DATA)
        files["data/basic_from_unused.py"] = "from data import basic2\n"
        self.assert_output("""
            import sys
            from data import basic_from_unused
            basic_from_unused
            print("data.basic2" in sys.modules)
            x = basic_from_unused.basic2
            print("data.basic2" in sys.modules, x.x)
        """, ["False", "True 42"], files=files, modes=[LAZY])

    # CPython 3.15: test_basic_unused_dir
    def test_dir_of_module_does_not_resolve(self):
        files = dict(DATA)
        files["data/basic_unused.py"] = BASIC_UNUSED
        self.assert_output("""
            import sys
            import data.basic_unused
            print("data" in dir(data.basic_unused),
                  "data.basic2" in sys.modules)
        """, ["True False"], files=files, modes=[LAZY])

    # CPython 3.15: test_basic_dir
    def test_dir_in_module_body_does_not_resolve(self):
        files = dict(DATA)
        files["data/basic_dir.py"] = ("import data.basic2\nx = dir()\n\n\n"
                                      "def _uses():\n    return data\n")
        self.assert_output("""
            import sys
            from data import basic_dir
            print("data" in basic_dir.x, "data.basic2" in sys.modules)
        """, ["True False"], files=files, modes=[LAZY])

    # CPython 3.15: test_basic_used
    def test_use_in_module_body_resolves(self):
        files = dict(DATA)
        files["data/basic_used.py"] = (
            "import data.basic2 as basic2\nbasic2.f()\n")
        self.assert_output("""
            import sys
            import data.basic_used
            data.basic_used
            print("data.basic2" in sys.modules)
        """, ["True"], files=files)

    # CPython 3.15: test_from_import_with_module_getattr
    def test_from_import_uses_module_getattr(self):
        # Contract rule 18.
        self.assert_output("""
            from getattr_mod import dynamic_attr
            print(dynamic_attr)
        """, ["from_getattr"], files=GETATTR_MODULE)

    # CPython 3.15: test_from_import_with_imported_module_getattr
    def test_from_import_leaves_imported_module_getattr(self):
        self.assert_output("""
            import importlib
            with importlib.eager_imports():
                import getattr_mod as mod
            from getattr_mod import dynamic_attr
            print(dynamic_attr, mod.dynamic_attr, "dynamic_attr" in vars(mod))
        """, ["from_getattr from_getattr False"], files=GETATTR_MODULE)

    # CPython 3.15: test_global_on (sys.set_lazy_imports("all") is the
    # fork's importlib.set_lazy_imports())
    def test_enable_at_runtime_makes_imports_lazy(self):
        self.assert_output("""
            import importlib, sys
            importlib.set_lazy_imports()
            import data.basic2 as basic2
            print("data.basic2" in sys.modules)
            def _uses():
                return basic2
        """, ["False"], files=DATA, modes=[EAGER])

    # CPython 3.15: test_modules_dict
    def test_module_dict_access_does_not_resolve(self):
        files = dict(DATA)
        files["data/modules_dict.py"] = MODULE_READS_ITSELF.format(
            "mod.__dict__")
        self.assert_output("""
            import sys
            import data.modules_dict
            print(type(data.modules_dict.x).__name__,
                  "data.basic2" in sys.modules)
        """, ["dict False"], files=files, modes=[LAZY])

    # CPython 3.15: test_modules_getattr
    def test_module_attribute_of_lazy_name_resolves(self):
        files = dict(DATA)
        files["data/modules_getattr.py"] = MODULE_READS_ITSELF.format(
            "mod.basic2")
        self.assert_output("""
            import sys
            import data.modules_getattr
            print(data.modules_getattr.x.__name__,
                  "data.basic2" in sys.modules)
        """, ["data.basic2 True"], files=files)

    # CPython 3.15: test_modules_getattr_other
    def test_module_attribute_of_other_name_does_not_resolve(self):
        files = dict(DATA)
        files["data/modules_getattr_other.py"] = MODULE_READS_ITSELF.format(
            "mod.__name__")
        self.assert_output("""
            import sys
            import data.modules_getattr_other
            print(data.modules_getattr_other.x,
                  "data.basic2" in sys.modules)
        """, ["data.modules_getattr_other False"], files=files,
            modes=[LAZY])

    # CPython 3.15: test_lazy_import_exec_at_module_level
    def test_exec_at_module_level_is_lazy(self):
        # Contract rule 8: exec of module code with a dict as globals.
        self.assert_output("""
            import sys
            exec("import plain\\ndef uses(): return plain")
            print("plain" in sys.modules)
            print(plain.VALUE)
        """, ["False", "plain"], files=PLAIN, modes=[LAZY])

    # CPython 3.15: test_try_except_eager
    def test_import_in_try_is_eager(self):
        self.assert_imports_basic2("try_except_eager", """\
            try:
                import data.basic2
            except:
                pass
            """, True)

    # CPython 3.15: test_try_except_eager_from
    def test_from_import_in_try_is_eager(self):
        self.assert_imports_basic2("try_except_eager_from", """\
            try:
                from data.basic2 import f
            except:
                pass
            """, True)

    # CPython 3.15: test_eager_import_func
    def test_import_in_function_returns_module(self):
        files = dict(DATA)
        files["data/eager_import_func.py"] = """\
            def f():
                import data.basic2 as basic2
                return basic2
            """
        self.assert_output("""
            import sys, types
            from data.eager_import_func import f
            print(type(f()) is types.ModuleType,
                  "data.basic2" in sys.modules)
        """, ["True True"], files=files)

    # CPython 3.15: test_exec_import_func
    def test_exec_in_function_is_eager(self):
        # Contract rule 9: exec with separate globals and locals runs like a
        # class body.
        self.assert_output("""
            import sys
            def f():
                exec("import data.basic2")
            f()
            print("data.basic2" in sys.modules)
        """, ["True"], files=DATA, modes=[LAZY])

    # CPython 3.15: test_exec_import_class
    def test_exec_in_class_body_is_eager(self):
        self.assert_output("""
            import sys
            class C:
                exec("import data.basic2")
            print("data.basic2" in sys.modules)
        """, ["True"], files=DATA, modes=[LAZY])

    # CPython 3.15: test_lazy_with.  PEP 810 lets "lazy import" be lazy inside
    # a with block; in the fork every import written in a with statement is
    # eager (contract rule 9), which importlib.eager_imports() relies on
    # (contract rule 10).
    def test_import_in_with_is_eager(self):
        self.assert_imports_basic2("lazy_with", """\
            import contextlib
            with contextlib.nullcontext():
                import data.basic2
            """, True)

    # CPython 3.15: test_lazy_with_from (same difference as above)
    def test_import_as_in_with_is_eager(self):
        self.assert_imports_basic2("lazy_with_from", """\
            import contextlib
            with contextlib.nullcontext():
                import data.basic2 as basic2
            """, True)

    # CPython 3.15: test_lazy_import_pkg
    def test_import_of_package_submodule(self):
        files = dict(DATA)
        files.update(PKG)
        files["data/lazy_import_pkg.py"] = (
            "import data.pkg.bar\nx = data.pkg.bar.f\n")
        self.assert_output("""
            import sys
            import data.lazy_import_pkg
            data.lazy_import_pkg
            print("data.pkg" in sys.modules, "data.pkg.bar" in sys.modules)
        """, ["BAR_MODULE_LOADED", "True True"], files=files)

    # CPython 3.15: test_lazy_import_pkg_cross_import.  3.15 expects
    # globals()["b"] to be its lazy object; in the fork reading the value
    # resolves it (contract rule 19), so it is the module.
    def test_cross_import_in_package(self):
        files = dict(DATA)
        files.update(PKG)
        files["data/pkg/c.py"] = (
            "from . import b, x\ndef get_globals():\n    return globals()\n")
        self.assert_output("""
            import sys
            import data.pkg.c
            data.pkg.c
            print([m in sys.modules
                   for m in ("data.pkg", "data.pkg.c", "data.pkg.b")])
            g = data.pkg.c.get_globals()
            print(type(g["x"]).__name__)
            print(type(g["b"]).__name__, "data.pkg.b" in sys.modules)
        """, ["[True, True, False]", "int", "module True"], files=files,
            modes=[LAZY])

    # CPython 3.15: test_package_from_import_with_module_getattr
    def test_from_import_uses_package_getattr(self):
        files = dict(DATA)
        files.update(PKG)
        self.assert_output("""
            import importlib
            with importlib.eager_imports():
                import data.pkg as pkg
            from data.pkg import dynamic_attr
            print(dynamic_attr, pkg.dynamic_attr)
        """, ["from_getattr from_getattr"], files=files)

    # CPython 3.15: test_import_error_shows_chained_traceback.  3.15
    # chains an exception to tell where the import was deferred; the fork
    # raises the original ModuleNotFoundError with a note naming the
    # statement (contract rule 24).
    def test_import_error_carries_deferred_statement(self):
        self.assert_output("""
            import data.nonexistent_module
            try:
                data.nonexistent_module
            except ImportError as exc:
                print(type(exc).__name__, exc.name)
                print([n for n in exc.__notes__ if "<string>:2" in n] != [])
        """, ["ModuleNotFoundError data.nonexistent_module", "True"],
            files=DATA, modes=[LAZY])

    # CPython 3.15: test_attribute_error_on_from_import_shows_chained_
    # traceback (same difference as above)
    def test_missing_name_of_from_import_carries_deferred_statement(self):
        self.assert_output("""
            from data.basic2 import nonexistent_name
            try:
                nonexistent_name
            except ImportError as exc:
                print(type(exc).__name__, "nonexistent_name" in str(exc))
                print([n for n in exc.__notes__ if "<string>:2" in n] != [])
        """, ["ImportError True", "True"], files=DATA, modes=[LAZY])

    # CPython 3.15: test_reification_retries_on_failure
    def test_failed_resolution_retried(self):
        # Contract rule 25.
        result = self.run_code("""
            import sys
            import data.broken_module
            for attempt in range(2):
                try:
                    data.broken_module
                except ValueError as exc:
                    print("ValueError", "data.broken_module" in sys.modules)
        """, lazy=True, files=BROKEN)
        self.assert_lines(result, ["exec data.broken_module",
                                   "ValueError False"] * 2)

    # CPython 3.15: test_error_during_module_execution_propagates
    def test_error_of_module_body_propagates(self):
        self.assert_output("""
            import data.broken_module
            try:
                data.broken_module
            except ValueError as exc:
                print(exc)
        """, ["This module always fails to import"], files=BROKEN,
            modes=[LAZY])

    # CPython 3.15: test_circular_lazy_import_does_not_crash_for_gh_144727
    def test_circular_import_of_main_script(self):
        files = {
            "a.py": """\
                import b
                def something():
                    b.hello()
                something()
                """,
            "b.py": """\
                import a
                def hello():
                    print(a)
                """,
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_script("a.py", lazy=lazy, files=files,
                                         failure=True)
                self.assertEqual(result.rc, 1, result.err)
                self.assertIn("Error", result.err)

    # CPython 3.15: test_globals_returns_lazy_proxy_when_accessed_from_
    # function.  3.15 gives its lazy object; in the fork globals()[name]
    # resolves (contract rule 19).
    def test_globals_subscript_in_function_resolves(self):
        self.assert_output("""
            import sys
            from data.basic2 import x
            print("data.basic2" in sys.modules)
            def check():
                g = globals()
                return g["x"]
            print(check(), "data.basic2" in sys.modules)
        """, ["False", "42 True"], files=DATA, modes=[LAZY])

    # CPython 3.15: test_globals_dict_access_returns_lazy_proxy_inline
    # (same difference as above)
    def test_globals_subscript_inline_resolves(self):
        self.assert_output("""
            import sys
            import plain
            print(type(globals()["plain"]).__name__, "plain" in sys.modules)
        """, ["module True"], files=PLAIN, modes=[LAZY])

    # CPython 3.15: test_module_dict_returns_lazy_proxy_without_reifying
    # (same difference as above)
    def test_module_globals_subscript_resolves(self):
        self.assert_output("""
            import sys
            from data import globals_access
            globals_access
            print("data.basic2" in sys.modules)
            value = globals_access.get_from_globals()
            print(type(value).__name__, "data.basic2" in sys.modules)
        """, ["False", "module True"], files=GLOBALS_ACCESS, modes=[LAZY])

    # CPython 3.15: test_direct_access_triggers_reification
    def test_name_read_in_function_resolves(self):
        self.assert_output("""
            import sys
            from data import globals_access
            globals_access
            print("data.basic2" in sys.modules)
            value = globals_access.get_direct()
            print(value.x, "data.basic2" in sys.modules)
        """, ["False", "42 True"], files=GLOBALS_ACCESS, modes=[LAZY])

    # CPython 3.15: test_add_lazy_to_globals
    def test_global_rebound_to_lazy_value_after_specialization(self):
        # Contract rules 15 and 35: f's specialized global and attribute reads
        # see the new value.
        self.assert_output("""
            from data import basic2
            class C:
                pass
            sneaky = C()
            sneaky.x = 1
            def f():
                t = 0
                for _ in range(5):
                    t += sneaky.x
                return t
            print(f())
            globals()["sneaky"] = globals()["basic2"]
            print(f())
        """, ["5", "210"], files=DATA)

    # CPython 3.15: test_accessing_one_name_leaves_others_as_proxies
    # (types.LazyImportType is the fork's importlib.is_lazy_import)
    def test_using_one_name_leaves_the_other_lazy(self):
        # Contract rule 13.
        self.assert_output("""
            import sys
            from importlib import is_lazy_import
            from data.basic2 import f, x
            print("data.basic2" in sys.modules)
            print(is_lazy_import(globals(), "f"),
                  is_lazy_import(globals(), "x"))
            value = x
            print(value, "data.basic2" in sys.modules)
            print(is_lazy_import(globals(), "x"),
                  is_lazy_import(globals(), "f"))
        """, ["False", "True True", "42 True", "False True"], files=DATA,
            modes=[LAZY])

    # CPython 3.15: test_all_names_reified_after_all_accessed
    def test_all_names_resolved_once_used(self):
        self.assert_output("""
            from importlib import is_lazy_import
            from data.basic2 import f, x
            x, f
            g = globals()
            print(is_lazy_import(g, "x"), is_lazy_import(g, "f"),
                  type(g["x"]).__name__, g["f"]())
        """, ["False False int f"], files=DATA, modes=[LAZY])

    # CPython 3.15: test_cli_lazy_imports_all_makes_regular_imports_lazy
    def test_command_line_option_makes_imports_lazy(self):
        self.assert_output("""
            import sys
            import json
            print("json" in sys.modules)
        """, {EAGER: ["True"], LAZY: ["False"]})

    # CPython 3.15: test_cli_lazy_imports_modes_import_stdlib_modules (in
    # one process per mode: "import m; repr(m)" for every stdlib module)
    def test_every_stdlib_module_imports(self):
        code = """
            import sys
            ok = []
            skip = {"antigravity", "this"}
            for name in sorted(sys.stdlib_module_names - skip):
                try:
                    exec(f"import {name}\\nrepr({name})", {})
                except BaseException:
                    pass
                else:
                    ok.append(name)
            print("\\nimported:", *ok)
        """
        imported = {}
        for lazy in MODES:
            lines = self.run_code(code, lazy=lazy).output
            imported[lazy] = lines[-1].split()[1:]
        eager, lazy = imported[EAGER], imported[LAZY]
        self.assertGreater(len(eager), 100)
        self.assertEqual(sorted(set(eager) - set(lazy)), [])

    # CPython 3.15: test_eager_import_before_lazy_resolves_to_same_module
    def test_lazy_import_after_eager_gives_same_module(self):
        self.assert_output("""
            import importlib
            with importlib.eager_imports():
                import json
            import json as lazy_json
            print(json is lazy_json)
        """, ["True"])

    # CPython 3.15: test_lazy_import_before_eager_resolves_to_same_module
    def test_eager_import_after_lazy_gives_same_module(self):
        self.assert_output("""
            import importlib, sys
            import json as lazy_json
            print("json" in sys.modules)
            with importlib.eager_imports():
                import json
            print(json is lazy_json)
        """, ["False", "True"], modes=[LAZY])

    # CPython 3.15: test_reload_after_lazy_reification_keeps_single_module_
    # object
    def test_reload_after_resolution(self):
        self.assert_output("""
            import importlib, sys
            from json import dumps
            from json import loads as loads_before
            print("json" in sys.modules)
            print(dumps({"x": 1}), loads_before("[1]"))
            before = sys.modules["json"]
            reloaded = importlib.reload(before)
            print(reloaded is before, sys.modules["json"] is before)
            from json import loads as loads_after
            print(loads_after is not loads_before)
        """, {EAGER: ["True", '{"x": 1} [1]', "True True", "True"],
              LAZY: ["False", '{"x": 1} [1]', "True True", "True"]})

    # CPython 3.15: test_reimport_after_deleting_sys_modules_entry_creates_
    # new_module
    def test_reimport_after_deleting_sys_modules_entry(self):
        self.assert_output("""
            import sys
            from json import dumps
            print(dumps({"x": 1}))
            first = sys.modules["json"]
            del sys.modules["json"]
            print("json" in sys.modules, dumps({"x": 2}))
            import json as second
            print(second is sys.modules["json"], second is not first)
        """, ['{"x": 1}', 'False {"x": 2}', "True True"])

    # CPython 3.15: test_relative_lazy_import
    def test_relative_from_import_of_submodule(self):
        files = dict(DATA)
        files["data/relative_lazy.py"] = (
            "from . import basic2\ndef get_basic2():\n    return basic2\n")
        self.assert_output("""
            import sys
            from data import relative_lazy
            get = relative_lazy.get_basic2
            print("data.basic2" in sys.modules)
            print(get().x, "data.basic2" in sys.modules)
        """, ["False", "42 True"], files=files, modes=[LAZY])

    # CPython 3.15: test_relative_lazy_from_import
    def test_relative_from_import_of_names(self):
        files = dict(DATA)
        files["data/relative_lazy_from.py"] = (
            "from .basic2 import x, f\ndef get_x():\n    return x\n")
        self.assert_output("""
            import sys
            from data import relative_lazy_from
            get = relative_lazy_from.get_x
            print("data.basic2" in sys.modules)
            print(get(), "data.basic2" in sys.modules)
        """, ["False", "42 True"], files=files, modes=[LAZY])

    # CPython 3.15: test_sys_path_at_reification_time_is_used
    def test_sys_path_of_resolution_time_used(self):
        # The lazy import is written at module level, not, as in the 3.15
        # test, inside a with block, where the fork imports eagerly.
        self.assert_output("""
            import os, sys
            import dynamic_mod
            try:
                dynamic_mod
            except ModuleNotFoundError:
                print("not found")
            sys.path.insert(0, os.path.abspath("sub"))
            print(dynamic_mod.VALUE)
        """, ["not found", "from_sub"],
            files={"sub/dynamic_mod.py": "VALUE = 'from_sub'\n"},
            modes=[LAZY])

    # CPython 3.15: test_concurrent_lazy_import_reification
    def test_threads_resolving_same_submodule(self):
        # Contract rule 27.
        files = dict(DATA)
        files["data/basic_unused.py"] = BASIC_UNUSED
        result = self.run_code(threads_code(
            prelude="from data import basic_unused\nbasic_unused",
            threads=10, body="return basic_unused.data.basic2",
            summary="results[0].__name__"), lazy=True, files=files)
        self.assert_lines(result, ["exec data.basic2", "[] True data.basic2"])

    # CPython 3.15: test_concurrent_reification_multiple_modules
    def test_threads_resolving_several_modules(self):
        self.assert_output(threads_code(
            prelude="import json, os, io, re", threads=8,
            body="return [type(m).__name__ for m in (json, os, io, re)]",
            summary="results[0]"),
            ["[] True ['module', 'module', 'module', 'module']"],
            modes=[LAZY])

    # CPython 3.15: test_concurrent_lazy_modules_dict_updates (its
    # sys.lazy_modules check is PEP 810's own object)
    def test_threads_binding_lazy_names(self):
        self.assert_output(threads_code(
            prelude="", threads=16, body="""
                for i in range(50):
                    exec(f"import json as json_{idx}_{i}", globals())
                    exec(f"import os as os_{idx}_{i}", globals())
            """, summary="json_0_0 is json_15_49, os_3_7 is os_15_0"),
            ["[] True True True"], modes=[LAZY])

    # CPython 3.15: test_concurrent_reification_same_module_high_contention
    def test_threads_contending_for_one_module(self):
        self.assert_output(threads_code(
            prelude="import json", threads=20, body="""
                for _ in range(100):
                    json.dumps
                    json.loads
                return json
            """, summary="type(results[0]).__name__"),
            ["[] True module"], modes=[LAZY])

    # CPython 3.15: test_concurrent_reification_with_module_attribute_
    # access
    def test_threads_reading_attributes_while_resolving(self):
        self.assert_output(threads_code(
            prelude="import collections, functools, itertools", threads=12,
            body="""
                for _ in range(50):
                    collections.OrderedDict
                    functools.partial
                    itertools.chain
                    collections.defaultdict
                    functools.lru_cache
                    itertools.islice
                return [type(m).__name__
                        for m in (collections, functools, itertools)]
            """, summary="results[0]"),
            ["[] True ['module', 'module', 'module']"], modes=[LAZY])

    # CPython 3.15: test_normal_import_dis
    def test_dis_shows_import_name(self):
        # Contract rule 39.
        self.assert_output("""
            import dis
            for ins in dis.get_instructions(compile("import foo", "", "exec")):
                if ins.opname.startswith("IMPORT"):
                    print(ins.opname, ins.argrepr)
        """, ["IMPORT_NAME foo"])


if __name__ == "__main__":
    unittest.main()

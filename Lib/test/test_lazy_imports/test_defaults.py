"""The defaults of lazy imports shipped with the interpreter (rule 58).

importlib._lazy_defaults lists the packages whose own imports run eagerly
under -L, each with its reason, the program that shows it and the test
that keeps the program (this file).  Each test runs a real module tree in
a child interpreter, with the defaults on and off.
"""

import ast
import importlib
import os
import subprocess
import sys
import unittest

from importlib import _lazy_defaults
from test.support import requires_subprocess
from test.support.script_helper import assert_python_failure

from .util import LazyImportsTestCase

#: The registry walks of sqlalchemy 2.x, reduced: a package body loops
#: over a set that the decorators of the modules it imports fill as they
#: run, and binds what it lists.  Under -L (without the default) the
#: top-level walk finds the set empty, so create_engine() misses what it
#: reads; and importing a submodule inside the orm's loop makes the import
#: system import it in the package whose body is running, which completes
#: the package's earlier deferred imports, whose decorators grow the set.
REGISTRY_WALK = {
    "sqlalchemy/__init__.py": """\
        from . import sql
        from .engine import create_engine
        from . import util

        util.import_prefix("sqlalchemy.pool")
        """,
    "sqlalchemy/engine.py": """\
        from . import util

        @util.preload_module("sqlalchemy.pool")
        def create_engine():
            return util.loaded["sqlalchemy.pool"].Pool()
        """,
    "sqlalchemy/pool.py": "class Pool: pass\n",
    "sqlalchemy/util.py": """\
        import sys

        registry = set()
        loaded = {}

        def preload_module(*names):
            registry.update(names)
            return lambda fn: fn

        def import_prefix(path):
            for name in registry:
                if name.startswith(path) and name not in loaded:
                    __import__(name)
                    loaded[name] = sys.modules[name]
        """,
    "sqlalchemy/sql.py": """\
        from . import util

        @util.preload_module("sqlalchemy.orm.session")
        def select(): pass
        """,
    "sqlalchemy/orm/__init__.py": """\
        from .mapper import Mapper
        from .query import Query
        from .session import Session
        from .. import util

        def __go():
            util.import_prefix("sqlalchemy.orm")

        __go()
        """,
    "sqlalchemy/orm/mapper.py": """\
        from .. import util

        @util.preload_module("sqlalchemy.orm.strategies")
        def configure(): pass

        class Mapper: pass
        """,
    "sqlalchemy/orm/query.py": """\
        from .. import util

        @util.preload_module("sqlalchemy.orm.loading")
        def load(): pass

        class Query: pass
        """,
    "sqlalchemy/orm/session.py": """\
        from .mapper import Mapper

        class Session:
            mapper = Mapper
        """,
    "sqlalchemy/orm/strategies.py": "class Strategy: pass\n",
    "sqlalchemy/orm/loading.py": "class Loader: pass\n",
}

MAIN = """\
import sqlalchemy.orm
print(sqlalchemy.orm.Session.__name__, sorted(sqlalchemy.util.loaded))
print(type(sqlalchemy.create_engine()).__name__)
"""

EAGER_OUTPUT = ["Session ['sqlalchemy.orm.loading', 'sqlalchemy.orm.session', "
                "'sqlalchemy.orm.strategies', 'sqlalchemy.pool']", "Pool"]


@requires_subprocess()
class ShippedDefaultsTests(LazyImportsTestCase):

    def assert_default_heals(self, files, expected, *, without=None,
                             error=None):
        """main.py prints *expected* eagerly and under -L; without the
        defaults it prints *without*, or fails with *error* on stderr."""
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                self.assert_printed(self.run_files(files, lazy=lazy),
                                    expected)
        result = self.run_files(files, "-X", "lazy_imports_defaults=0",
                                "main.py", lazy=True,
                                failure=error is not None)
        if error is None:
            self.assert_printed(result, without)
        else:
            self.assertIn(error, result.err)

    def test_package_walking_its_registry(self):
        # Contract rule 58: the entry for sqlalchemy.  The imports of its
        # modules run eagerly under -L, so each loop sees the registry
        # that eager code sees; without the defaults the failures come
        # back.
        files = dict(REGISTRY_WALK, **{
            "main.py": MAIN,
            "engine_main.py": "import sqlalchemy\n"
                              "print(type(sqlalchemy.create_engine())"
                              ".__name__)\n"})
        for lazy in (False, True):
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                self.assert_printed(result, EAGER_OUTPUT)
                result = self.run_files(files, "engine_main.py", lazy=lazy)
                self.assert_printed(result, ["Pool"])
        result = self.run_files(files, "-X", "lazy_imports_defaults=0",
                                "engine_main.py", lazy=True, failure=True)
        self.assertIn("KeyError: 'sqlalchemy.pool'", result.err)
        for off in (("-X", "lazy_imports_defaults=0", "main.py"),
                    ("-c", "import importlib\n"
                           "importlib.set_lazy_imports(defaults=False)\n"
                           + MAIN)):
            with self.subTest(off=off[1]):
                result = self.run_files(files, *off, lazy=True,
                                        failure=True)
                self.assertIn("RuntimeError: Set changed size during "
                              "iteration", result.err)
        # And on again at run time, after the option turned them off.
        result = self.run_files(
            files, "-X", "lazy_imports_defaults=0", "-c",
            "import importlib\nimportlib.set_lazy_imports(defaults=True)\n"
            + MAIN, lazy=True)
        self.assert_printed(result, EAGER_OUTPUT)

    def test_package_registering_options_it_reexports(self):
        # Contract rule 58: the entry for pandas._config.  Its __init__
        # imports its modules for the options their bodies register, one
        # of them through a name it re-exports; the rest of pandas reads
        # the options from a plain dict.
        files = {
            "pandas/__init__.py": "from pandas._config import get_option\n"
                                  "from pandas.io import printing\n",
            "pandas/_config/__init__.py": """\
                __all__ = ["get_option", "detect_console_encoding"]
                from pandas._config import dates  # noqa: F401
                from pandas._config.config import _global_config, get_option
                from pandas._config.display import detect_console_encoding
                """,
            "pandas/_config/config.py": """\
                _global_config = {}

                def register_option(key, value):
                    section, _, name = key.partition(".")
                    _global_config.setdefault(section, {})[name] = value

                def get_option(key):
                    section, _, name = key.partition(".")
                    return _global_config[section][name]
                """,
            "pandas/_config/dates.py": """\
                from pandas._config import config as cf
                cf.register_option("display.date_dayfirst", False)
                """,
            "pandas/_config/display.py": """\
                from pandas._config import config as cf

                def detect_console_encoding():
                    return "utf-8"

                cf.register_option("display.encoding",
                                   detect_console_encoding())
                """,
            "pandas/io/__init__.py": "",
            "pandas/io/printing.py": """\
                from pandas._config.config import _global_config as config

                def encoding():
                    return config["display"]["encoding"]
                """,
            "main.py": "import pandas\nprint(pandas.printing.encoding())\n",
        }
        self.assert_default_heals(files, ["utf-8"],
                                  error="KeyError: 'encoding'")

    def test_plugins_imported_by_a_call_in_a_try(self):
        # Contract rules 54 and 58: the entry for PIL.  Image.init()
        # imports each plugin with __import__() in a try that catches
        # ImportError; a plugin whose optional dependency is missing is
        # left out eagerly, and must not register itself under -L.
        files = {
            "PIL/__init__.py": "",
            "PIL/Image.py": """\
                OPEN = {}
                _plugins = ["PngImagePlugin", "FpxImagePlugin"]

                def register_open(name, accept):
                    OPEN[name] = accept

                def init():
                    for plugin in _plugins:
                        try:
                            __import__(f"PIL.{plugin}")
                        except ImportError:
                            pass

                def identify(data):
                    init()
                    return [name for name, accept in OPEN.items()
                            if accept(data)]
                """,
            "PIL/PngImagePlugin.py": """\
                from PIL import Image
                Image.register_open("PNG",
                                    lambda data: data.startswith(b"PNG"))
                """,
            "PIL/FpxImagePlugin.py": """\
                import olefile_not_installed
                from PIL import Image
                Image.register_open(
                    "FPX", lambda data: olefile_not_installed.isOleFile(data))
                """,
            "main.py": "from PIL import Image\n"
                       "print(Image.identify(b'PNG.'), sorted(Image.OPEN))\n",
        }
        self.assert_default_heals(
            files, ["['PNG'] ['PNG']"],
            error="No module named 'olefile_not_installed'")

    def test_module_swapped_out_of_sys_modules(self):
        # Contract rule 58: the entry for defusedxml.  Its ElementTree
        # imports names from a module, then takes the module out of
        # sys.modules to import a fresh copy and puts back what was
        # there: nothing, under -L, had the names' import been deferred.
        files = {
            "defusedxml/__init__.py": "",
            "defusedxml/ElementTree.py": """\
                import sys
                import importlib
                from etree import ParseError

                def _fresh():
                    saved = sys.modules.pop("etree", None)
                    try:
                        return importlib.import_module("etree")
                    finally:
                        sys.modules["etree"] = saved

                _pure = _fresh()

                def parse_error():
                    return ParseError
                """,
            "etree.py": "class ParseError(Exception): pass\n",
            "main.py": "from defusedxml import ElementTree\n"
                       "print(ElementTree.parse_error().__name__)\n",
        }
        self.assert_default_heals(
            files, ["ParseError"],
            error="import of etree halted; None in sys.modules")

    def test_singledispatch_registered_by_a_reexporting_module(self):
        # Contract rule 58: the entry for sympy.stats.  A module the
        # package imports for names it re-exports registers a
        # singledispatch implementation as it runs.
        files = {
            "sympy/__init__.py": "",
            "sympy/stats/__init__.py": """\
                __all__ = ["is_random", "RandomSymbol", "Expectation"]
                from .rv import is_random, RandomSymbol
                from .symbolic_probability import Expectation
                """,
            "sympy/stats/rv.py": """\
                from functools import singledispatch

                class RandomSymbol:
                    pass

                @singledispatch
                def is_random(x):
                    return False
                """,
            "sympy/stats/symbolic_probability.py": """\
                from .rv import is_random, RandomSymbol

                @is_random.register(RandomSymbol)
                def _(x):
                    return True

                class Expectation:
                    pass
                """,
            "main.py": "from sympy.stats import is_random, RandomSymbol\n"
                       "print(is_random(RandomSymbol()))\n",
        }
        self.assert_default_heals(files, ["True"], without=["False"])

    def test_backend_registered_by_subclassing(self):
        # Contract rule 58: the entry for keyring.core.  The backends
        # register by subclassing; keyring.core imports the fail backend
        # for that.
        files = {
            "keyring/__init__.py": "from .core import get_keyring\n",
            "keyring/backend.py": """\
                class KeyringBackend:
                    _classes = []

                    def __init_subclass__(cls, **kwargs):
                        super().__init_subclass__(**kwargs)
                        KeyringBackend._classes.append(cls.__name__)
                """,
            "keyring/backends/__init__.py": "",
            "keyring/backends/fail.py": """\
                from ..backend import KeyringBackend

                class Keyring(KeyringBackend):
                    priority = 0
                """,
            "keyring/core.py": """\
                from . import backend
                from .backends import fail

                def get_keyring():
                    return sorted(backend.KeyringBackend._classes)

                def _fallback():
                    return fail.Keyring
                """,
            "main.py": "import keyring\nprint(keyring.get_keyring())\n",
        }
        self.assert_default_heals(files, ["['Keyring']"], without=["[]"])

    def test_reducer_registered_by_a_module_imported_last(self):
        # Contract rule 58: the entry for joblib.externals.loky.  Its
        # process pool registers how connections are pickled when the
        # module it imports last runs, and reads the name only later.
        loky = "joblib/externals/loky/backend/"
        files = {
            "joblib/__init__.py": "",
            "joblib/externals/__init__.py": "",
            "joblib/externals/loky/__init__.py": "",
            loky + "__init__.py": "",
            loky + "connection.py": "class Conn:\n    pass\n",
            loky + "reduction.py": """\
                DISPATCH = {}

                def register(t, f):
                    DISPATCH[t] = f

                from ._posix_reduction import _mk_inheritable

                def launch(fd):
                    return _mk_inheritable(fd)
                """,
            loky + "_posix_reduction.py": """\
                from .connection import Conn
                from .reduction import register

                register(Conn, lambda c: "reduced")

                def _mk_inheritable(fd):
                    return fd
                """,
            "main.py": "from joblib.externals.loky.backend import reduction\n"
                       "from joblib.externals.loky.backend.connection "
                       "import Conn\n"
                       "print(reduction.DISPATCH.get(Conn, type)(Conn()))\n",
        }
        conn = "<class 'joblib.externals.loky.backend.connection.Conn'>"
        self.assert_default_heals(files, ["reduced"], without=[conn])

    def test_import_of_the_package_stays_lazy(self):
        # Contract rules 50 and 58: only the package's own statements run
        # eagerly.  An import of it made elsewhere is deferred, and a
        # program that never uses it never runs its body.  Used, its body
        # runs with its own imports eager, and loads what it loads
        # eagerly.
        files = dict(REGISTRY_WALK, **{"main.py": """\
            import sys
            import sqlalchemy.orm
            import sqlalchemy
            print(sorted(m for m in sys.modules if m.startswith("sqlalchemy")))
            sqlalchemy.__name__
            print(sorted(m for m in sys.modules if m.startswith("sqlalchemy")))
            """})
        result = self.run_files(files, lazy=True)
        self.assert_printed(result, [
            "[]", "['sqlalchemy', 'sqlalchemy.engine', 'sqlalchemy.pool', "
            "'sqlalchemy.sql', 'sqlalchemy.util']"])

    def test_prefix_is_a_package_boundary(self):
        # Contract rule 58: an entry covers the package and the modules
        # inside it, at any depth, not a module whose name merely starts
        # the same way.
        files = {
            "sqlalchemyx.py":
                "import dep_x\ndef f(): return dep_x\n",
            "sqlalchemy/__init__.py":
                "import dep_y\ndef f(): return dep_y\n",
            "sqlalchemy/orm/__init__.py": "",
            "sqlalchemy/orm/sub.py":
                "import dep_z\ndef f(): return dep_z\n",
            "dep_x.py": "", "dep_y.py": "", "dep_z.py": "",
            "main.py": """\
                import sys
                import sqlalchemyx, sqlalchemy.orm.sub
                sqlalchemyx.__name__
                sqlalchemy.orm.sub.__name__
                print(sorted(m for m in sys.modules if m.startswith("dep_")))
                """,
        }
        result = self.run_files(files, lazy=True)
        self.assert_printed(result, ["['dep_y', 'dep_z']"])
        result = self.run_files(files, "-X", "lazy_imports_defaults=0",
                                "main.py", lazy=True)
        self.assert_printed(result, ["[]"])

    def test_option_values(self):
        # Contract rule 58: -X lazy_imports_defaults takes 0 or 1 (or no
        # value); anything else stops start-up, as -X lazy_imports_heal.
        for value in ("lazy_imports_defaults", "lazy_imports_defaults=1",
                      "lazy_imports_defaults=0"):
            with self.subTest(value=value):
                result = self.run_python(
                    "-X", value, "-c", "import sys; print(sys._xoptions)",
                    lazy=True)
                self.assertEqual(result.err, "")
        for value in ("off", "no", "2", ""):
            with self.subTest(value=value):
                rc, out, err = assert_python_failure(
                    "-X", f"lazy_imports_defaults={value}", "-c", "pass")
                self.assertIn(b"-X lazy_imports_defaults must be 0 or 1",
                              err)

    def test_option_reaches_children(self):
        # Contract rule 58: subprocess passes the option on, so that the
        # children of report and check and a program's own workers see
        # the same defaults.
        code = ("import subprocess, sys\n"
                "flags = subprocess._args_from_interpreter_flags()\n"
                "print(flags[flags.index('lazy_imports_defaults=0') - 1])\n"
                "print(subprocess.check_output([sys.executable, *flags, "
                "'-c', 'import _imp; print(_imp._set_lazy_defaults(True))'],"
                " text=True).strip())\n")
        result = self.run_python("-X", "lazy_imports_defaults=0", "-c", code,
                                 lazy=True)
        self.assertEqual(result.lines, ["-X", "False"])

    def test_defaults_argument(self):
        # Contract rule 58: set_lazy_imports(defaults=) takes True, False
        # or None (keep); a wrong type raises TypeError and changes
        # nothing.
        result = self.run_python("-c", """if 1:
            import _imp, importlib
            print(_imp._set_lazy_defaults(True))
            importlib.set_lazy_imports(defaults=False)
            print(_imp._set_lazy_defaults(False))
            importlib.set_lazy_imports(True)
            print(_imp._set_lazy_defaults(False),
                  importlib.is_lazy_imports_enabled())
            for bad in ("yes", 1, 0.0):
                try:
                    importlib.set_lazy_imports(False, defaults=bad)
                except TypeError as exc:
                    print(exc, importlib.is_lazy_imports_enabled())
            """, lazy=True)
        self.assertEqual(result.lines, [
            "True", "False", "False True",
            "defaults must be True, False or None, not str True",
            "defaults must be True, False or None, not int True",
            "defaults must be True, False or None, not float True"],
            result.err)

    def test_report_names_the_entry(self):
        # Contract rule 58: report shows the default that applied, with
        # its reason, and the statements it made eager.
        files = dict(REGISTRY_WALK, **{"main.py": MAIN})
        result = self.run_files(files, "-m", "importlib.lazy", "report",
                                "main.py", lazy=False)
        self.assertIn("Kept eager by the defaults shipped with the "
                      "interpreter", result.err)
        self.assertIn("sqlalchemy: its own imports ran eagerly",
                      result.err)
        self.assertIn("[shipped default]  sqlalchemy/orm/__init__.py:1",
                      result.err)
        result = self.run_files(files, "-X", "lazy_imports_defaults=0", "-m",
                                "importlib.lazy", "report", "main.py",
                                lazy=False, failure=True)
        self.assertNotIn("shipped default", result.err)
        self.assertIn("RuntimeError", result.err)


class DefaultsDataTests(unittest.TestCase):

    def test_table_is_the_data_file(self):
        # Contract rule 58: the interpreter applies the entries of the
        # data file (Python/lazy_defaults.h is generated from it: make
        # regen-defaults).
        import _imp
        self.assertEqual(_imp._lazy_defaults(), _lazy_defaults.packages())
        self.assertTrue(_lazy_defaults.packages())

    def test_each_entry_has_its_evidence(self):
        # Contract rule 58: each entry gives its reason and its program,
        # and names a test of this package that exists.
        here = os.path.dirname(__file__)
        for entry in _lazy_defaults.DEFAULTS:
            with self.subTest(package=entry["package"]):
                self.assertEqual(set(entry),
                                 {"package", "reason", "program", "test"})
                self.assertGreater(len(entry["reason"]), 40)
                self.assertGreater(len(entry["program"]), 40)
                module, cls, method = entry["test"].rsplit(".", 2)
                self.assertEqual(module.split(".")[0], "test_lazy_imports")
                path = os.path.join(here, *module.split(".")[1:]) + ".py"
                with open(path, encoding="utf-8") as file:
                    tree = ast.parse(file.read())
                names = {(node.name, item.name) for node in tree.body
                         if isinstance(node, ast.ClassDef)
                         for item in node.body
                         if isinstance(item, ast.FunctionDef)}
                self.assertIn((cls, method), names)

    def test_entry_for(self):
        self.assertEqual(_lazy_defaults.entry_for("PIL.Image")["package"],
                         "PIL")
        self.assertIs(_lazy_defaults.entry_for("pandas"), None)
        entry = _lazy_defaults.entry_for("sqlalchemy.orm.session")
        self.assertEqual(entry["package"], "sqlalchemy")
        self.assertIs(_lazy_defaults.entry_for("sqlalchemy"), entry)
        self.assertIs(_lazy_defaults.entry_for("sqlalchemyx"), None)
        self.assertIs(_lazy_defaults.entry_for("sqlalchem"), None)


if __name__ == "__main__":
    unittest.main()

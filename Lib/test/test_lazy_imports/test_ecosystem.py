"""Programs that work eagerly work under -L (contract rules 50-54).

The patterns come from popular PyPI packages (named in each test): a
package filled by a submodule's side effects, a submodule imported only by
another deferred import, a module __getattr__ defined after the imports it
would answer for, and the optional-dependency idiom of a try catching
ImportError.  Each test runs the same tree eagerly and with -L and compares
what the program prints, and which modules it imports.
"""

import importlib.machinery
import sys
import textwrap
import unittest

from test.support import os_helper, requires_subprocess

from .util import MODES, LazyImportsTestCase, write_files

EAGER, LAZY = MODES

#: Printed last by the scenarios: the modules of the tree that were
#: imported, so that a test sees what -L imported that eager code did not.
LOADED = """
import sys
print(sorted(name for name in sys.modules if name.split('.')[0] in {roots}))
"""


def script(code, *roots):
    """*code*, dedented, then the report of the modules of *roots* that
    were imported."""
    return textwrap.dedent(code) + LOADED.format(roots=set(roots))


@requires_subprocess()
class MissedAttributeTests(LazyImportsTestCase):
    """A missed module attribute catches up (contract rules 50 and 51)."""

    def assert_same(self, files, expected, *, lazy_order=None):
        """Both modes print *expected*; the execution log of -L is
        *lazy_order* (by default the eager one)."""
        results = {}
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                self.assert_printed(result, expected)
                results[lazy] = result
        if lazy_order is not None:
            self.assertEqual(results[LAZY].executed, lazy_order)
        return results

    def test_package_filled_by_a_submodule(self):
        # Contract rules 21 and 51: a package filled by "from . import
        # _build", whose body reads the package's namespace whole while
        # its own import is still being resolved.  The package reads the
        # name, so the import is deferred, and the miss completes it.
        files = {
            "tlz/__init__.py": "from . import _build\n"
                               "def reads(): return _build\n",
            "tlz/_build.py": """\
                print("exec", __name__)
                import sys
                ns = sys.modules["tlz"].__dict__
                ns.update(dict(ns, curry="curry", merge="merge"))
                """,
            "main.py": script("""\
                import tlz
                print(tlz.curry)
                from tlz import merge
                print(merge, hasattr(tlz, "pipe"), getattr(tlz, "x", "-"))
                """, "tlz"),
        }
        self.assert_same(files, ["curry", "merge False -",
                                 "['tlz', 'tlz._build']"])

    def test_namespace_copied_into_a_list_while_resolving(self):
        # Contract rules 22 and 52: list(ns.values()) and list(ns.items())
        # of a namespace whose lazy import this thread is resolving skip it,
        # as the views' iterators do, and hand out no lazy object.
        files = {
            "pkg/__init__.py": "from pkg.sub import Sub\n",
            "pkg/sub.py": """\
                import pkg
                ns = pkg.__dict__
                for values in (list(ns.values()),
                               [v for k, v in list(ns.items())],
                               [v for k, v in sorted(ns.items())]):
                    print(sorted({type(v).__name__ for v in values}
                                 & {"lazy_import", "int"}))
                Sub = 1
                """,
            "main.py": "import pkg\nprint(pkg.Sub)\n",
        }
        self.assert_same(files, ["[]", "[]", "[]", "1"])

    def test_submodule_imported_by_another_deferred_import(self):
        # Contract rule 51: httpie reads pygments.formatter, which eagerly
        # "from pygments.formatters.terminal import ..." had imported.
        files = {
            "pyg/__init__.py": "",
            "pyg/formatter.py": "print('exec', __name__)\nclass F: pass\n",
            "pyg/formatters/__init__.py": "print('exec', __name__)\n",
            "pyg/formatters/terminal.py": """\
                print("exec", __name__)
                from pyg.formatter import F
                class Terminal(F): pass
                """,
            "main.py": script("""\
                import pyg
                from pyg.formatters.terminal import Terminal
                print(pyg.formatter.F.__name__)
                """, "pyg"),
        }
        self.assert_same(files, [
            "F", "['pyg', 'pyg.formatter', 'pyg.formatters', "
                 "'pyg.formatters.terminal']"])

    def test_missing_submodule_nothing_imported(self):
        # Contract rules 51 and 55: a submodule that no earlier import of
        # the package imports at module level (read from their code) is
        # missing eagerly too; the miss completes none of them.
        files = {
            "pkg/__init__.py": """\
                from . import a
                from .b import B
                def uses(): return a, B
                """,
            "pkg/a.py": "print('exec', __name__)\nA = 1\n",
            "pkg/b.py": """\
                print("exec", __name__)
                from . import a
                B = a.A + 1
                def later():
                    from . import c
                """,
            "pkg/c.py": "print('exec', __name__)\n",
            "main.py": script("""\
                import pkg
                print(hasattr(pkg, "c"))
                try:
                    pkg.c
                except AttributeError:
                    print("AttributeError")
                """, "pkg"),
        }
        results = {lazy: self.run_files(files, lazy=lazy) for lazy in MODES}
        self.assert_lines(results[EAGER], [
            "exec pkg.a", "exec pkg.b", "False", "AttributeError",
            "['pkg', 'pkg.a', 'pkg.b']"])
        self.assert_lines(results[LAZY], ["False", "AttributeError",
                                          "['pkg']"])

    def test_import_in_an_exception_handler_is_no_edge(self):
        # Contract rules 51 and 55: an import in an "except ImportError:"
        # fallback runs only when the import it guards failed; eagerly
        # json imports, pkg.c never runs, and a miss of pkg.c does not
        # import it.
        files = {
            "pkg/__init__.py": "from . import a\ndef uses(): return a\n",
            "pkg/a.py": """\
                try:
                    import json
                except ImportError:
                    from . import c
                """,
            "pkg/c.py": "print('exec', __name__)\n",
            "main.py": script("""\
                import pkg
                print(hasattr(pkg, "c"))
                """, "pkg"),
        }
        results = {lazy: self.run_files(files, lazy=lazy) for lazy in MODES}
        self.assert_lines(results[EAGER], ["False", "['pkg', 'pkg.a']"])
        self.assert_lines(results[LAZY], ["False", "['pkg']"])

    def test_submodule_reached_is_imported_alone(self):
        # Contract rules 51 and 55: eagerly the package's "from .a import
        # A" imported pkg.helpers through pkg.a's body, so code may read
        # pkg.helpers.  The miss imports pkg.helpers, read from pkg.a's
        # code, and not pkg.a, which runs when A is first used.
        files = {
            "pkg/__init__.py": """\
                from .a import A
                def uses(): return A
                """,
            "pkg/a.py": """\
                print("exec", __name__)
                from .helpers import h
                A = h
                """,
            "pkg/helpers.py": "print('exec', __name__)\nh = 'h'\n",
            "main.py": script("""\
                import pkg
                print(pkg.helpers.h)
                print(pkg.uses())
                """, "pkg"),
        }
        self.assert_same(files, ["h", "h",
                                 "['pkg', 'pkg.a', 'pkg.helpers']"],
                         lazy_order=["pkg.helpers", "pkg.a"])
        result = self.run_files(files, "-v", "main.py", lazy=True)
        self.assertIn("# lazy import 'pkg.helpers' completed early: module "
                      "'pkg' had no attribute 'helpers', its submodule that "
                      "the deferred import of 'pkg.a' imports at module "
                      "level", result.err)

    def test_getattr_defined_after_the_imports(self):
        # Contract rule 51: jsonschema's "from jsonschema import _utils"
        # runs, eagerly, before jsonschema defines its __getattr__, which
        # reads names that are still being imported.
        files = {
            "js/__init__.py": """\
                from js.validators import Validator
                def __getattr__(name):
                    return Validator.missing
                """,
            "js/_utils.py": "print('exec', __name__)\nU = 'u'\n",
            "js/validators.py": """\
                print("exec", __name__)
                from js import _utils
                class Validator:
                    u = _utils.U
                """,
            "main.py": script("""\
                import js
                print(js.Validator.u)
                """, "js"),
        }
        self.assert_same(files, ["u", "['js', 'js._utils', 'js.validators']"])

    def test_getattr_bound_after_the_imports_however_made(self):
        # Contract rules 50 and 51: a module __getattr__ made by a factory
        # of another module (lazy_loader.attach(), as scikit-image,
        # networkx and napari use it) or bound by an assignment after the
        # imports is, eagerly, not there yet while those imports run: a
        # probe of the package made by them imports no submodule.
        factory = """\
            import importlib
            def attach(package):
                def __getattr__(name):
                    try:
                        return importlib.import_module(f"{package}.{name}")
                    except ModuleNotFoundError:
                        raise AttributeError(name) from None
                return __getattr__
            """
        bindings = {
            "factory": """\
                from .core import thing
                import lazyfactory
                __getattr__ = lazyfactory.attach(__name__)
                """,
            "assignment": """\
                def _getattr(name):
                    import importlib
                    return importlib.import_module(f"{__name__}.{name}")
                from .core import thing
                __getattr__ = _getattr
                """,
        }
        for how, init in bindings.items():
            with self.subTest(how=how):
                files = {
                    "lazyfactory.py": factory,
                    "pkg/__init__.py": init,
                    "pkg/core.py": """\
                        import pkg
                        print(hasattr(pkg, 'extra'))
                        thing = 1
                        """,
                    "pkg/extra.py": "print('exec', __name__)\n",
                    "main.py": script("""\
                        import pkg
                        print(pkg.thing)
                        """, "pkg"),
                }
                self.assert_same(files, ["False", "1",
                                         "['pkg', 'pkg.core']"])

    def test_miss_that_is_a_miss_eagerly(self):
        # Contract rules 50 and 51: getattr() with a default of a name
        # that no import sets completes the module's own deferred imports
        # (eager execution ran them), nothing else: the deferred import of
        # main and the submodule that nothing imports stay unimported.
        files = {
            "pkg/__init__.py": "from . import a\n",
            "pkg/a.py": "print('exec', __name__)\n",
            "pkg/never.py": "print('exec', __name__)\n",
            "other.py": "print('exec', __name__)\n",
            "main.py": """\
                import sys
                import pkg
                import other
                print(getattr(pkg, "absent", "default"))
                print(getattr(sys, "frozen", False), hasattr(pkg, "__x__"))
                print("other" in sys.modules, "pkg.never" in sys.modules)
                """,
        }
        results = {lazy: self.run_files(files, lazy=lazy) for lazy in MODES}
        self.assert_lines(results[EAGER], ["exec pkg.a", "exec other",
                                           "default", "False False",
                                           "True False"])
        self.assert_lines(results[LAZY], ["exec pkg.a", "default",
                                          "False False", "False False"])

    def test_stdlib_imports_explain_no_miss(self):
        # Contract rules 51 and 55: only the imports of modules of its own
        # top-level package fill a package's namespace, and none fills a
        # module that is not a package: a miss on a plugin module (the
        # pytest_plugins that pluggy asks each plugin for) completes
        # nothing, and one in importlib.metadata (pip's probe) only its
        # imports of importlib's modules.
        files = {
            "plugin.py": "import csv\nimport helper\n"
                         "def uses(): return csv, helper\n",
            "helper.py": "print('exec', __name__)\n",
            "main.py": """\
                import sys
                import plugin
                print(getattr(plugin, "pytest_plugins", []))
                print("csv" in sys.modules)
                import importlib.metadata as md
                print(getattr(md, "_PIP_USE_IMPORTLIB_METADATA", None))
                print("zipfile" in sys.modules,
                      "importlib.metadata._meta" in sys.modules)
                """,
        }
        results = {lazy: self.run_files(files, lazy=lazy) for lazy in MODES}
        self.assert_lines(results[EAGER], ["exec helper", "[]", "True",
                                           "None", "True True"])
        self.assert_lines(results[LAZY], ["[]", "False", "None",
                                          "False True"])

    def test_statements_after_the_one_being_resolved(self):
        # Contract rules 50 and 51: while "from pkg import one" is being
        # resolved, a miss on pkg does not complete pkg's later statements:
        # eager execution has not reached them, so no module body runs
        # before one that eagerly precedes it.
        files = {
            "pkg/__init__.py": "from pkg import one\nfrom pkg import two\n",
            "pkg/one.py": """\
                print("exec", __name__)
                import pkg
                print("marked", hasattr(pkg, "marker"))
                """,
            "pkg/two.py": """\
                print("exec", __name__)
                import pkg
                pkg.marker = True
                """,
            "main.py": "import pkg\npkg.one\nprint(pkg.marker)\n",
        }
        self.assert_same(files, ["marked False", "True"],
                         lazy_order=["pkg.one", "pkg.two"])

    def test_failed_completion_fails_where_the_name_is_used(self):
        # Contract rules 24, 25 and 51: a completion that fails does not
        # fail the lookup that asked for it (unittest's getattr(module,
        # "setUpModule", None)); the name stays lazy and its use raises.
        files = {
            "mod/__init__.py": "from . import broken\n"
                               "def uses(): return broken\n",
            "mod/broken.py": "raise LookupError('broken body')\n",
            "main.py": """\
                import mod
                print(getattr(mod, "setUpModule", None))
                try:
                    mod.broken
                except LookupError as exc:
                    print("LookupError", exc)
                """,
        }
        result = self.run_files(files, lazy=True)
        self.assert_printed(result, ["None", "LookupError broken body"])

    def test_healing_can_be_turned_off(self):
        # Contract rule 52: -X lazy_imports_heal=0 turns the early
        # completions off; the miss is then an AttributeError.
        files = {
            "pkg/__init__.py": "from .fill import fill\n",
            "pkg/fill.py": "import pkg\npkg.curry = 'curry'\nfill = 1\n",
            "main.py": "import pkg\nprint(getattr(pkg, 'curry', None))\n",
        }
        result = self.run_files(files, lazy=True)
        self.assert_printed(result, ["curry"])
        result = self.run_files(files, "-X", "lazy_imports_heal=0", "main.py",
                                lazy=True)
        self.assert_printed(result, ["None"])

    def test_verbose_and_report_name_early_completions(self):
        # Contract rules 28 and 52: what the fork completes early, and why,
        # is shown by -v and by the report.
        files = {
            "pkg/__init__.py": "from .fill import fill\n",
            "pkg/fill.py": "import pkg\npkg.curry = 'curry'\nfill = 1\n",
            "main.py": "import pkg\nprint(pkg.curry)\n",
        }
        result = self.run_files(files, "-v", "main.py", lazy=True)
        self.assertIn("# lazy import 'pkg.fill.fill' completed early: module "
                      "'pkg' had no attribute 'curry'", result.err)
        result = self.run_files(files, "-m", "importlib.lazy", "report",
                                "main.py", lazy=False)
        self.assertIn("Completed early by the fork", result.err)
        self.assertIn("from pkg.fill import fill", result.err)
        self.assertIn("module 'pkg' had no attribute 'curry' [rule 51]",
                      result.err)


@requires_subprocess()
class PackageIdiomTests(LazyImportsTestCase):
    """Idioms of popular packages that rely on import side effects keep
    working under plain -L (contract rules 50 and 52)."""

    def run_both(self, files):
        return {lazy: self.run_files(files, lazy=lazy) for lazy in MODES}

    def test_submodules_imported_for_their_side_effects(self):
        # Contract rule 52: mpmath.functions imports its submodules, whose
        # decorators add methods to a class, and never reads their names.
        # Such an import runs as eagerly; one whose name the package reads
        # stays deferred.
        files = {
            "mp/__init__.py": "from .ctx import Context\nctx = Context()\n",
            "mp/ctx.py": "from .funcs.base import Base\n"
                         "class Context(Base): pass\n",
            "mp/funcs/__init__.py": "from . import zeta\nfrom . import used\n"
                                    "def get(): return used\n",
            "mp/funcs/base.py": "class Base:\n"
                                "    @classmethod\n"
                                "    def define(cls, f):\n"
                                "        setattr(cls, f.__name__, f)\n",
            "mp/funcs/zeta.py": "print('exec', __name__)\n"
                                "from .base import Base\n"
                                "@Base.define\n"
                                "def zeta(self): return 'zeta'\n",
            "mp/funcs/used.py": "print('exec', __name__)\n",
            "main.py": script("import mp\nprint(mp.ctx.zeta())\n", "mp"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec mp.funcs.zeta", "exec mp.funcs.used", "zeta",
            "['mp', 'mp.ctx', 'mp.funcs', 'mp.funcs.base', 'mp.funcs.used', "
            "'mp.funcs.zeta']"])
        self.assert_lines(results[LAZY], [
            "exec mp.funcs.zeta", "zeta",
            "['mp', 'mp.ctx', 'mp.funcs', 'mp.funcs.base', 'mp.funcs.zeta']"])

    def test_submodule_of_a_subpackage_listed_in_all(self):
        # Contract rules 52 and 57: sympy.physics.units's "from .systems
        # import si" builds the SI unit system, which registers itself in
        # a class attribute that conversions read later; no code of the
        # package reads si, which only __all__ lists (the names "from
        # units import *" takes are no read).  si is a submodule of a
        # subpackage not imported yet, found without running it: the
        # statement runs as eagerly.  A name of a module (not a
        # submodule) listed in __all__ stays deferred.
        files = {
            "units/__init__.py": """\
                from .unitsystem import UnitSystem
                from .util import convert_to
                from .systems import si
                from .constants import c
                __all__ = ["UnitSystem", "convert_to", "si", "c"]
                """,
            "units/unitsystem.py": """\
                class UnitSystem:
                    _unit_systems = {}
                    def __init__(self, name):
                        UnitSystem._unit_systems[name] = self
                """,
            "units/util.py": """\
                from .unitsystem import UnitSystem
                def convert_to(value):
                    return value, sorted(UnitSystem._unit_systems)
                """,
            "units/constants.py": "print('exec', __name__)\nc = 299792458\n",
            "units/systems/__init__.py": "",
            "units/systems/si.py": """\
                print('exec', __name__)
                from units.unitsystem import UnitSystem
                SI = UnitSystem("SI")
                """,
            "main.py": "from units import convert_to\nprint(convert_to(3))\n",
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], ["exec units.systems.si",
                                           "exec units.constants",
                                           "(3, ['SI'])"])
        self.assert_lines(results[LAZY], ["exec units.systems.si",
                                          "(3, ['SI'])"])

    def test_sibling_imported_for_its_side_effects(self):
        # Contract rule 52: sqlalchemy.sql.naming's "from . import events"
        # registers event names that its decorators then use.  A relative
        # import of a sibling that the module never reads runs as eagerly;
        # an absolute one (a re-export as often) stays deferred.
        files = {
            "sa/__init__.py": "",
            "sa/registry.py": "names = set()\n"
                              "def listens_for(name):\n"
                              "    assert name in names, name\n"
                              "    return lambda f: f\n",
            "sa/events.py": "print('exec', __name__)\n"
                            "from .registry import names\n"
                            "names.add('attached')\n",
            "sa/other.py": "print('exec', __name__)\n",
            "sa/naming.py": "'Hooks that events.attached runs.'\n"
                            "from . import events\n"
                            "from sa import other\n"
                            "from .registry import listens_for\n"
                            "@listens_for('attached')\n"
                            "def hook(): pass\n",
            "main.py": script("import sa.naming\nsa.naming.hook()\n"
                              "print('ok')\n", "sa"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec sa.events", "exec sa.other", "ok",
            "['sa', 'sa.events', 'sa.naming', 'sa.other', 'sa.registry']"])
        self.assert_lines(results[LAZY], [
            "exec sa.events", "ok",
            "['sa', 'sa.events', 'sa.naming', 'sa.registry']"])

    def test_module_imported_for_its_side_effects_anywhere(self):
        # Contract rule 57: "import flushhook  # noqa: F401" in an
        # application (the script, or any module) whose bound name no code
        # of the module reads exists for what flushhook's body does: an
        # atexit handler, a codec, a plugin registering itself.  It runs
        # as eagerly; one whose name is read (in a function, in __all__)
        # stays deferred, and so does "import x as x" (a re-export).
        files = {
            "flushhook.py": """\
                import atexit
                atexit.register(print, "flushed")
                print("hook installed")
                """,
            "registry.py": "plugins = []\n",
            "plugin_hello.py": """\
                import registry
                registry.plugins.append("hello")
                """,
            "used.py": "print('exec', __name__)\n",
            "listed.py": "print('exec', __name__)\n",
            "reexported.py": "print('exec', __name__)\n",
            "app.py": """\
                import plugin_hello  # noqa: F401
                import registry
                import listed
                import reexported as reexported
                __all__ = ["listed"]
                def plugins(): return registry.plugins
                """,
            "main.py": """\
                import flushhook  # noqa: F401
                import used
                import app
                print(app.plugins())
                def later(): return used
                """,
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "hook installed", "exec used", "exec listed", "exec reexported",
            "['hello']", "flushed"])
        self.assert_lines(results[LAZY], ["hook installed", "['hello']",
                                          "flushed"])

    def test_deleted_name_is_no_use(self):
        # Contract rules 52 and 57: "from . import mailer; del mailer" in
        # a package __init__ imports mailer for its side effects: a del
        # does not read the name.  The typing convention for an explicit
        # re-export, "from . import fft as fft", is a use: torch's
        # submodules stay deferred until they are read.
        files = {
            "pkg/__init__.py": """\
                from . import mailer
                del mailer
                from . import fft as fft
                """,
            "pkg/mailer.py": "print('exec', __name__)\n",
            "pkg/fft.py": "print('exec', __name__)\n",
            "main.py": script("import pkg\npkg.__name__\n", "pkg"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec pkg.mailer", "exec pkg.fft",
            "['pkg', 'pkg.fft', 'pkg.mailer']"])
        self.assert_lines(results[LAZY], [
            "exec pkg.mailer", "['pkg', 'pkg.mailer']"])

    def test_string_annotation_reads_the_sibling(self):
        # Contract rule 52: importlib.metadata's "from . import _meta" is
        # read by its annotations, strings under "from __future__ import
        # annotations": not an import made for its side effects.
        files = {
            "md/__init__.py": """\
                from __future__ import annotations
                from . import _meta
                def metadata() -> _meta.PackageMetadata | None:
                    return None
                """,
            "md/_meta.py": "print('exec', __name__)\n",
            "main.py": script("import md\nprint(md.metadata())\n", "md"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec md._meta", "None", "['md', 'md._meta']"])
        self.assert_lines(results[LAZY], ["None", "['md']"])

    def test_generated_modules_import_their_dependencies(self):
        # Contract rule 52: a protoc-generated _pb2 module imports the _pb2
        # modules its file depends on under aliases it never reads, so that
        # they register their files in the descriptor pool first.  An
        # unread alias of a submodule of a package that is imported, or
        # one spelled as protoc spells it, runs as eagerly; an unread
        # alias of a function ("sentence_bleu as bleu") stays deferred.
        files = {
            "pool.py": "files = set()\n"
                       "def add(name, deps):\n"
                       "    missing = set(deps) - files\n"
                       "    assert not missing, missing\n"
                       "    files.add(name)\n",
            "pb/__init__.py": "",
            "pb/any_pb2.py": "import pool\npool.add('any', [])\n",
            "deps/__init__.py": "",
            "deps/v1/__init__.py": "",
            "deps/v1/common_pb2.py": "import pool\npool.add('common', [])\n",
            "deps/v1/api.py": "print('exec', __name__)\n"
                              "def helper(): pass\n",
            "pb/status_pb2.py": "import pool\n"
                                "from pb import any_pb2 as pb_dot_any__pb2\n"
                                "from deps.v1 import common_pb2 as "
                                "deps_dot_v1_dot_common__pb2\n"
                                "from deps.v1.api import helper as h\n"
                                "pool.add('status', ['any', 'common'])\n",
            "main.py": script("import pb.status_pb2\n"
                              "print(sorted(pb.status_pb2.pool.files))\n",
                              "pb", "deps"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec deps.v1.api", "['any', 'common', 'status']",
            "['deps', 'deps.v1', 'deps.v1.api', 'deps.v1.common_pb2', "
            "'pb', 'pb.any_pb2', 'pb.status_pb2']"])
        self.assert_lines(results[LAZY], [
            "['any', 'common', 'status']",
            "['deps', 'deps.v1', 'deps.v1.common_pb2', 'pb', 'pb.any_pb2', "
            "'pb.status_pb2']"])

    def test_protoc_generated_module_imports_as_eagerly(self):
        # Contract rule 58: a module protoc generated adds its file to the
        # descriptor pool, which needs the files of the modules it imports
        # first, whatever names it reads ("import dep_pb2 as dep__pb2" is
        # read by some messages only).  Each import of such a body (a
        # *_pb2.py whose body calls AddSerializedFile) runs as eagerly; a
        # module that only looks like one keeps its imports deferred.  The
        # rule is one of the shipped defaults: off with them, the failure
        # comes back.
        pool = """\
            files = set()
            class Pool:
                def AddSerializedFile(self, name, deps):
                    missing = set(deps) - files
                    if missing:
                        raise TypeError(f"Depends on {missing}, not loaded")
                    files.add(name)
            def Default(): return Pool()
            """
        files = {
            "descriptor_pool.py": pool,
            "dep_pb2.py": """\
                print('exec', __name__)
                import descriptor_pool as _descriptor_pool
                _descriptor_pool.Default().AddSerializedFile('dep', [])
                """,
            "other.py": "print('exec', __name__)\n",
            "svc_pb2.py": """\
                import descriptor_pool as _descriptor_pool
                import dep_pb2 as dep__pb2
                _descriptor_pool.Default().AddSerializedFile('svc', ['dep'])
                def field_type(): return dep__pb2
                """,
            "look_pb2.py": """\
                import other
                def reads(): return other
                """,
            "main.py": script("""\
                import svc_pb2
                import look_pb2
                print(sorted(svc_pb2._descriptor_pool.files))
                """, "dep_pb2", "other"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec dep_pb2", "exec other", "['dep', 'svc']",
            "['dep_pb2', 'other']"])
        self.assert_lines(results[LAZY], [
            "exec dep_pb2", "['dep', 'svc']", "['dep_pb2']"])
        result = self.run_files(files, "-X", "lazy_imports_defaults=0",
                                "main.py", lazy=True, failure=True)
        self.assertIn("TypeError: Depends on {'dep'}, not loaded",
                      result.err)

    def test_package_aliases_its_own_submodule(self):
        # Contract rules 21 and 49: pyarrow's "import pyarrow.ipc as ipc" in
        # its own __init__.  The alias reads the submodule from the
        # package, whose name holds the alias itself until it is bound.
        files = {
            "pkg/__init__.py": "import pkg.sub as sub\n"
                               "import pkg.other as renamed\n",
            "pkg/sub.py": "print('exec', __name__)\nvalue = 1\n",
            "pkg/other.py": "print('exec', __name__)\nvalue = 2\n",
            "main.py": script("""\
                import importlib
                pkg = importlib.import_module("pkg")
                print(pkg.sub.value, pkg.renamed.value, pkg.other.value)
                """, "pkg"),
        }
        results = self.run_both(files)
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                self.assertEqual(results[lazy].output, [
                    "1 2 2", "['pkg', 'pkg.other', 'pkg.sub']"])

    def test_name_shadowing_a_subpackage_while_it_is_imported(self):
        # Contract rule 49: tokenizers binds "models" to a module of its
        # extension and has a subpackage "models" whose body reads the
        # package's "models".  Eagerly the import system binds the
        # subpackage only once it is loaded: until then the name is what
        # the package bound.
        files = {
            "tk/__init__.py": "from .ext import models\n"
                              "from .impl import X\n",
            "tk/ext.py": "import types\n"
                         "models = types.ModuleType('tk.ext.models')\n"
                         "models.BPE = 'native'\n",
            "tk/impl.py": "from tk.models import BPE\nX = BPE\n",
            "tk/models/__init__.py": "from .. import models\n"
                                     "BPE = models.BPE\n",
            "main.py": "import tk\nprint(tk.X, tk.models.__name__)\n",
        }
        results = self.run_both(files)
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                self.assertEqual(results[lazy].output,
                                 ["native tk.models"])

    def test_registry_filled_by_earlier_imports(self):
        # Contract rules 50 and 52: hypothesis.strategies checks at import
        # time that its strategy modules registered themselves in a dict
        # of a module of its package; SymPy's S is filled the same way.
        files = {
            "hy/__init__.py": "",
            "hy/st/__init__.py": """\
                from hy.st.core import a, b
                from hy.st.later import c
                from hy.st.utils import registry
                print(sorted(registry))
                """,
            "hy/st/utils.py": """\
                registry = {}
                def defines(f):
                    registry[f.__name__] = f
                    return f
                """,
            "hy/st/core.py": """\
                from hy.st.utils import defines
                @defines
                def a(): pass
                @defines
                def b(): pass
                """,
            "hy/st/later.py": "print('exec', __name__)\nc = 1\n",
            "main.py": script("from hy import st\nst.__name__\n", "hy"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec hy.st.later", "['a', 'b']",
            "['hy', 'hy.st', 'hy.st.core', 'hy.st.later', 'hy.st.utils']"])
        # hy.st.utils imports neither core nor later, so importing it
        # completes neither; reading the empty registry completes the
        # package's imports before it, in eager order.
        self.assert_lines(results[LAZY], results[EAGER].lines)

    def test_empty_registry_read_completes_earlier_imports(self):
        # Contract rules 50 and 52: the registry's module is imported
        # first (by another import), so only the rule for registries
        # completes the package's imports before the read.
        files = {
            "hy/__init__.py": "",
            "hy/utils.py": """\
                registry = []
                def defines(f):
                    registry.append(f.__name__)
                    return f
                """,
            "hy/st/__init__.py": """\
                from hy.st.core import a
                from hy.utils import registry
                print(registry)
                """,
            "hy/st/core.py": """\
                print("exec", __name__)
                from hy.utils import defines
                @defines
                def a(): pass
                """,
            "main.py": "import hy.utils\nhy.utils\nfrom hy import st\n"
                       "st.__name__\n",
        }
        for lazy, result in self.run_both(files).items():
            with self.subTest(lazy=lazy):
                self.assert_lines(result, ["exec hy.st.core", "['a']"])

    def test_registry_read_completes_only_the_package_s_imports(self):
        # Contract rules 52 and 55: only the modules of the registry's own
        # package fill it as they are imported; reading it completes the
        # importer's deferred imports of those modules, not those of the
        # standard library or of another project (a Django settings object
        # read in a module completed all its imports).
        files = {
            "hy/__init__.py": "",
            "hy/st/__init__.py": """\
                import wave
                import other
                from hy.st.core import a
                from hy.st.utils import registry
                print(sorted(registry))
                import sys
                print('wave' in sys.modules, 'other' in sys.modules)
                def later(): return wave, other
                """,
            "hy/st/utils.py": """\
                registry = {}
                def defines(f):
                    registry[f.__name__] = f
                    return f
                """,
            "hy/st/core.py": """\
                from hy.st.utils import defines
                @defines
                def a(): pass
                """,
            "other.py": "print('exec', __name__)\n",
            "main.py": "from hy import st\nst.__name__\n",
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], ["exec other", "['a']",
                                           "True True"])
        self.assert_lines(results[LAZY], ["['a']", "False False"])

    def test_registry_read_by_a_module_run_with_dash_m(self):
        # Contract rules 52 and 57: a module run as __main__ by "python -m
        # hy.cli" is hy.cli for the registry rule: its read of the empty
        # registry completes its imports of hy's modules first.
        files = {
            "hy/__init__.py": "",
            "hy/utils.py": """\
                registry = {}
                def defines(f):
                    registry[f.__name__] = f
                    return f
                """,
            "hy/core.py": """\
                from hy.utils import defines
                @defines
                def a(): pass
                """,
            "hy/cli.py": """\
                from hy.core import a
                from hy.utils import registry
                print(sorted(registry))
                def uses(): return a
                """,
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, "-m", "hy.cli", lazy=lazy)
                self.assert_lines(result, ["['a']"])

    def test_module_imports_a_name_from_itself(self):
        # Contract rule 56: sympy's printing.pycode defines a class and
        # further down imports it from itself; the statement rebinds the
        # class, never hides it behind a lazy object, also when another
        # module that the body imports reads it back the same way.
        files = {
            "pkg/__init__.py": "",
            "pkg/pycode.py": """\
                class Printer: pass
                from pkg.pycode import Printer
                import pkg.helper
                def use(): return Printer, pkg.helper.Printer
                """,
            "pkg/helper.py": """\
                from pkg.pycode import Printer
                """,
            "main.py": """\
                from pkg.pycode import use
                a, b = use()
                print(a.__name__, a is b)
                """,
        }
        for lazy, result in self.run_both(files).items():
            with self.subTest(lazy=lazy):
                self.assert_lines(result, ["Printer True"])

    def test_registries_read_while_a_module_is_imported(self):
        # Contract rules 55 and 58: matplotlib builds docstrings while its
        # classes are defined, from a table (a dict whose __missing__ lists
        # the subclasses of Artist) that its modules fill as they are
        # imported (matplotlib.legend registers its keywords).  Reading the
        # subclasses of a class, or missing a key of such a dict, completes
        # first the imports of the class's package that the bodies being
        # imported had made, eagerly, by then; healing or the shipped
        # defaults off, the failure comes back.
        files = {
            "mp/__init__.py": "",
            "mp/_doc.py": """\
                class Table(dict):
                    def __missing__(self, key):
                        if key.endswith(":kwdoc"):
                            from mp.artist import Artist
                            for cls in Artist.__subclasses__():
                                if cls.__name__ == key[:-6]:
                                    return self.setdefault(
                                        key, "properties of " + cls.__name__)
                        raise KeyError(key)
                table = Table()
                def interpolated(func):
                    func.__doc__ = func.__doc__ % table
                    return func
                """,
            "mp/artist.py": "class Artist: pass\n",
            "mp/legend.py": """\
                print("exec", __name__)
                from mp import _doc
                _doc.table["legend_kw"] = "legend keywords"
                class Legend: pass
                """,
            "mp/axes.py": """\
                from mp.artist import Artist
                from mp.legend import Legend
                from mp import _doc
                class Axes(Artist):
                    @_doc.interpolated
                    def legend(self):
                        "%(legend_kw)s"
                    def make(self): return Legend()
                """,
            "mp/figure.py": """\
                from mp.artist import Artist
                from mp.axes import Axes
                from mp import _doc
                class Figure(Artist):
                    @_doc.interpolated
                    def add_axes(self):
                        "%(Axes:kwdoc)s"
                    def axes(self): return Axes()
                """,
            "main.py": """\
                from mp.figure import Figure
                print(Figure.add_axes.__doc__)
                from mp.axes import Axes
                print(Axes.legend.__doc__)
                """,
        }
        expected = ["exec mp.legend", "properties of Axes", "legend keywords"]
        for lazy, result in self.run_both(files).items():
            with self.subTest(lazy=lazy):
                self.assert_lines(result, expected)
        for off in ("lazy_imports_heal=0", "lazy_imports_defaults=0"):
            with self.subTest(off=off):
                result = self.run_files(files, "-X", off, "main.py",
                                        lazy=True, failure=True)
                self.assertIn("KeyError", result.err)

    def test_registry_object_answers_misses_with_getattr(self):
        # Contract rules 50 and 52: SymPy's S answers a missing name from
        # what earlier imports registered (__getattr__), so reading it
        # completes them; astroid's Uninferable answers every name with
        # itself (__getattribute__), which no earlier import can change.
        files = {
            "sy/__init__.py": "",
            "sy/core.py": """\
                class Registry:
                    def __getattr__(self, name):
                        raise AttributeError(name)
                S = Registry()
                def register(cls):
                    setattr(S, cls.__name__, cls)
                    return cls
                class _Unknown:
                    def __getattribute__(self, name):
                        return self
                Unknown = _Unknown()
                """,
            "sy/numbers.py": """\
                print("exec", __name__)
                from sy.core import register
                @register
                class One: pass
                """,
            "sy/heavy.py": "print('exec', __name__)\nH = 1\n",
            "sy/guess.py": """\
                from sy.heavy import H
                from sy.core import Unknown
                print(Unknown.anything is Unknown)
                """,
            "sy/app.py": """\
                from sy.numbers import One
                from sy.heavy import H
                from sy.core import S
                print(S.One.__name__)
                """,
            "main.py": script("""\
                import sy.guess
                sy.guess.__name__
                import sys
                print(sorted(n for n in sys.modules if n.startswith('sy.')))
                import sy.app
                sy.app.__name__
                """, "sy"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec sy.heavy", "True", "['sy.core', 'sy.guess', 'sy.heavy']",
            "exec sy.numbers", "One",
            "['sy', 'sy.app', 'sy.core', 'sy.guess', 'sy.heavy', "
            "'sy.numbers']"])
        # Reading Unknown completes nothing; reading S completes what comes
        # before it in sy.app.
        self.assert_lines(results[LAZY], [
            "True", "['sy.core', 'sy.guess']",
            "exec sy.numbers", "exec sy.heavy", "One",
            "['sy', 'sy.app', 'sy.core', 'sy.guess', 'sy.heavy', "
            "'sy.numbers']"])

    def test_package_imports_complete_before_its_submodule(self):
        # Contract rules 50, 51 and 55: eagerly a package's body has run
        # the imports before the one of its submodule sub (twisted.logger's
        # submodules rely on that order); importing pkg.sub from elsewhere
        # first completes those of them in an import cycle with it that
        # runs at module level (base, whose body calls a function that
        # imports sub), and not the others: not other (outside the cycle),
        # not helper (it imports sub only in a function, under "if
        # TYPE_CHECKING:" and in an "except ImportError:" fallback, flask's
        # helpers), nor those after it.
        files = {
            "pkg/__init__.py": """\
                from . import base, other, helper
                from pkg.sub import Sub
                from pkg.after import After
                def names(): return base, other, helper
                """,
            "pkg/base.py": """\
                print('exec', __name__)
                class Base: pass
                def load():
                    from pkg import sub
                    return sub
                load()
                """,
            "pkg/other.py": """\
                print('exec', __name__)
                from pkg.base import Base
                class Other(Base): pass
                """,
            "pkg/helper.py": """\
                print('exec', __name__)
                import typing
                if typing.TYPE_CHECKING:
                    from pkg.sub import Sub
                try:
                    import json
                except ImportError:
                    from pkg import sub
                def later():
                    from pkg import sub
                    return sub
                """,
            "pkg/after.py": "print('exec', __name__)\nclass After: pass\n",
            "pkg/sub.py": """\
                print('exec', __name__)
                from pkg.base import Base
                from pkg import helper
                import sys
                print('pkg.base' in sys.modules, 'pkg.helper' in sys.modules)
                def reads(): return helper
                Sub = 1
                """,
            "main.py": "from pkg import sub\nsub.__name__\n",
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec pkg.base", "exec pkg.sub", "exec pkg.helper", "True True",
            "exec pkg.other", "exec pkg.after"])
        self.assert_lines(results[LAZY], ["exec pkg.base", "exec pkg.sub",
                                          "True False"])
        # Without healing, sub runs alone.
        result = self.run_files(files, "-X", "lazy_imports_heal=0",
                                "main.py", lazy=True)
        self.assert_lines(result, ["exec pkg.sub", "False False"])

    def test_circular_imports_of_a_package_keep_their_order(self):
        # Contract rules 50 and 51: twisted.logger.  Eagerly _logger runs
        # first and its Logger() imports _global whole; entered at
        # _global (from outside, by a name of the package), the cycle
        # _global -> _observer -> _logger -> _global would meet _global
        # half done.  _global's code imports _observer, whose code imports
        # _logger: both complete first, in eager order.
        files = {
            "log/__init__.py": """\
                from log._logger import Logger
                from log._unrelated import Unrelated
                from log._observer import Publisher
                from log._global import publisher
                """,
            "log/_logger.py": """\
                print("exec", __name__)
                class Logger:
                    def __init__(self):
                        from log._global import publisher
                        self.publisher = publisher
                _log = Logger()
                """,
            "log/_unrelated.py": "print('exec', __name__)\nUnrelated = 1\n",
            "log/_observer.py": """\
                print("exec", __name__)
                from log._logger import Logger
                class Publisher:
                    def __init__(self):
                        self.logger = Logger
                """,
            "log/_global.py": """\
                print("exec", __name__)
                from log._observer import Publisher
                publisher = Publisher()
                """,
            "main.py": script("""\
                from log import publisher
                print(type(publisher).__name__)
                """, "log"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec log._logger", "exec log._global", "exec log._observer",
            "exec log._unrelated", "Publisher",
            "['log', 'log._global', 'log._logger', 'log._observer', "
            "'log._unrelated']"])
        self.assert_lines(results[LAZY], [
            "exec log._logger", "exec log._global", "exec log._observer",
            "Publisher",
            "['log', 'log._global', 'log._logger', 'log._observer']"])

    #: pkg.a and pkg.b import each other; cycle(warn=True) gives each of
    #: them a SyntaxWarning (an invalid escape sequence).
    CYCLE = {
        "pkg/__init__.py": "from .a import A\nfrom .b import B\n",
        "pkg/a.py": "print('exec', __name__)\nx = '{WARN}'\n"
                    "from .b import B\nA = 1\n",
        "pkg/b.py": "print('exec', __name__)\ny = '{WARN}'\n"
                    "from . import a\nB = 2\n",
    }

    def cycle(self, warn):
        return {name: text.replace("{WARN}", "\\d" if warn else "d")
                for name, text in self.CYCLE.items()}

    def test_package_order_compiles_each_module_once(self):
        # Contract rules 51 and 55: the code of the package's modules is
        # read before they run, once: the compiler's warnings are printed
        # once per module, as eagerly, with or without a bytecode cache.
        files = self.cycle(warn=True)
        files["main.py"] = "from pkg.b import B\nprint(B)\n"
        for cache in (False, True):
            with self.subTest(cache=cache):
                env = {} if cache else {"PYTHONDONTWRITEBYTECODE": "1"}
                with os_helper.temp_dir() as root:
                    write_files(root, files)
                    if cache:
                        # Compiled without the warnings, as pip does.
                        self.run_python("-W", "ignore", "-m", "compileall",
                                        "-q", "pkg", lazy=False, cwd=root)
                    results = {lazy: self.run_python(
                        "main.py", lazy=lazy, cwd=root, env=env)
                        for lazy in MODES}
                for lazy in MODES:
                    with self.subTest(lazy=lazy):
                        self.assertEqual(results[lazy].lines,
                                         ["exec pkg.a", "exec pkg.b", "2"])
                        warnings = sorted(
                            line for line in results[lazy].err.splitlines()
                            if "SyntaxWarning" in line)
                        self.assertEqual(len(warnings), 0 if cache else 2,
                                         results[lazy].err)

    def test_package_order_runs_no_loader_twice(self):
        # Contract rules 33 and 55: a loader of an import hook (a subclass
        # of SourceFileLoader, as typeguard's and pytest's are) is asked
        # for each module once; the package order does not read its code.
        files = self.cycle(warn=False)
        files["main.py"] = """\
            import sys
            from importlib.machinery import PathFinder, SourceFileLoader
            seen = []
            class Loader(SourceFileLoader):
                def get_code(self, fullname):
                    seen.append(fullname)
                    return super().get_code(fullname)
            class Finder:
                def find_spec(self, name, path=None, target=None):
                    spec = PathFinder.find_spec(name, path)
                    if spec is not None and spec.origin.endswith('.py'):
                        spec.loader = Loader(name, spec.origin)
                    return spec
            sys.meta_path.insert(0, Finder())
            from pkg.b import B
            print(B)
            print(sorted(n for n in seen if n.split('.')[0] == 'pkg'))
            """
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec pkg.a", "exec pkg.b", "2", "['pkg', 'pkg.a', 'pkg.b']"])
        self.assertEqual(results[LAZY].lines, results[EAGER].lines)

    def test_package_order_keeps_other_imports_deferred(self):
        # Contract rule 51: the order kept is among the package's own
        # modules (importlib.metadata's "import json, email, zipfile"
        # before its submodules stay deferred).
        files = {
            "pkg/__init__.py": """\
                import ext
                from . import base
                from .sub import Sub
                def uses(): return ext
                """,
            "ext.py": "print('exec', __name__)\n",
            "pkg/base.py": "print('exec', __name__)\n",
            "pkg/sub.py": "print('exec', __name__)\nSub = 1\n",
            "main.py": script("""\
                import pkg.sub
                print(pkg.sub.Sub)
                """, "pkg", "ext"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec ext", "exec pkg.base", "exec pkg.sub", "1",
            "['ext', 'pkg', 'pkg.base', 'pkg.sub']"])
        self.assert_lines(results[LAZY], [
            "exec pkg.base", "exec pkg.sub", "1",
            "['pkg', 'pkg.base', 'pkg.sub']"])

    def test_early_completion_runs_modules_not_names(self):
        # Contract rules 50 and 51: completing "from .api import Api" early
        # (pkg.api and pkg.sub import each other, pkg.api through a function
        # its body calls) runs pkg.api's body; the
        # name stays deferred, so the module that
        # pkg.api itself takes Api from runs where Api is first used
        # (requests_toolbelt's re-exports pulled in requests.adapters and
        # urllib3 for "poetry check").
        files = {
            "pkg/__init__.py": """\
                from .api import Api
                from .sub import Sub
                """,
            "pkg/api.py": """\
                print('exec', __name__)
                from .impl import Api
                def sub():
                    from . import sub
                    return sub
                sub()
                """,
            "pkg/impl.py": "print('exec', __name__)\nclass Api: pass\n",
            "pkg/sub.py": """\
                print('exec', __name__)
                from . import api
                def reads(): return api
                Sub = 1
                """,
            "main.py": script("""\
                from pkg import sub
                print(sub.Sub)
                import pkg
                print(pkg.Api.__module__)
                """, "pkg"),
        }
        results = self.run_both(files)
        self.assert_lines(results[EAGER], [
            "exec pkg.api", "exec pkg.impl", "exec pkg.sub", "1", "pkg.impl",
            "['pkg', 'pkg.api', 'pkg.impl', 'pkg.sub']"])
        self.assert_lines(results[LAZY], [
            "exec pkg.api", "exec pkg.sub", "1", "exec pkg.impl", "pkg.impl",
            "['pkg', 'pkg.api', 'pkg.impl', 'pkg.sub']"])


@requires_subprocess()
class TryImportErrorTests(LazyImportsTestCase):
    """A try sees the ImportError eager code would see (contract rule 54)."""

    #: pkg decides whether its optional part works, as libraries detect
    #: optional dependencies (twisted.web's HTTP/2 support).
    OPTIONAL = """\
        try:
            from pkg import _extra
            HAS_EXTRA = True
        except {handler}:
            HAS_EXTRA = False
        """

    def run_both(self, files, code):
        files = dict(files, **{"main.py": code})
        return {lazy: self.run_files(files, lazy=lazy) for lazy in MODES}

    def assert_flag(self, handler, extra_files, expected, *, roots=("pkg",)):
        files = {"pkg/__init__.py": self.OPTIONAL.format(handler=handler)}
        files.update(extra_files)
        results = self.run_both(files, script(
            "import pkg\nprint(pkg.HAS_EXTRA)\n", *roots,
            "missing_dependency"))
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                self.assert_printed(results[lazy], expected)

    def test_missing_dependency_of_the_module(self):
        # Contract rule 54: depth one.
        self.assert_flag("ImportError",
                         {"pkg/_extra.py": "import missing_dependency\n"},
                         ["False", "['pkg']"])

    def test_missing_dependency_two_imports_down(self):
        # Contract rule 54: depth two (the module's own import exists, its
        # import of the missing one fails).
        self.assert_flag("ImportError",
                         {"pkg/_extra.py": "import pkg._deep\n",
                          "pkg/_deep.py": "from missing_dependency import x\n"},
                         ["False", "['pkg']"])

    def test_handler_of_module_not_found_and_of_exception(self):
        # Contract rule 54: handlers of a subclass and of a base class, and
        # a tuple.
        for handler in ("ModuleNotFoundError", "Exception",
                        "(KeyError, ImportError)", "BaseException"):
            with self.subTest(handler=handler):
                self.assert_flag(
                    handler, {"pkg/_extra.py": "import missing_dependency\n"},
                    ["False", "['pkg']"])

    def test_present_dependency_imports_what_eager_imports(self):
        # Contract rules 50 and 54: when the dependency is there, the
        # guarded import imports what eager execution imports, no more.
        self.assert_flag(
            "ImportError",
            {"pkg/_extra.py": "import pkg._deep\nimport pkg._also\n",
             "pkg/_deep.py": "import dep\n",
             "pkg/_also.py": "",
             "dep.py": ""},
            ["True", "['dep', 'pkg', 'pkg._also', 'pkg._deep', "
                     "'pkg._extra']"],
            roots=("pkg", "dep"))

    def test_builtin_module_stays_deferred(self):
        # Contract rule 54: a module built into the interpreter raises no
        # ImportError when imported, so it stays deferred; one that None
        # in sys.modules blocks raises, as eagerly.
        self.assertIn("pwd", sys.builtin_module_names)
        files = {"pkg/__init__.py":
                     self.OPTIONAL.format(handler="ImportError"),
                 "pkg/_extra.py": "import pwd\ndef uid(): return pwd\n"}
        for blocked in (False, True):
            with self.subTest(blocked=blocked):
                code = script(f"""\
                    import sys
                    if {blocked}:
                        sys.modules['pwd'] = None
                    import pkg
                    print(pkg.HAS_EXTRA)
                    """, "pkg", "pwd")
                results = self.run_both(files, code)
                if blocked:
                    for lazy in MODES:
                        self.assert_printed(results[lazy],
                                            ["False", "['pkg', 'pwd']"])
                else:
                    self.assert_printed(results[EAGER], [
                        "True", "['pkg', 'pkg._extra', 'pwd']"])
                    self.assert_printed(results[LAZY], [
                        "True", "['pkg', 'pkg._extra']"])

    def test_submodule_of_an_imported_package(self):
        # Contract rule 54: "from pkg import sub" where pkg is imported but
        # lacks sub imports pkg.sub, whose body may fail; a package whose
        # body bound sub lazily resolves it inside the try.  Either way the
        # try sees the ImportError of sub's missing dependency, as eagerly.
        for init in ("", "from . import sub\ndef f(): return sub\n"):
            with self.subTest(init=init):
                files = {"pkg/__init__.py": init,
                         "app/__init__.py": "",
                         "app/opt.py": self.OPTIONAL.replace(
                             "from pkg import _extra", "from app import _extra"
                         ).format(handler="ImportError"),
                         "app/_extra.py": "from pkg import sub\n",
                         "pkg/sub.py": "import missing_dependency\n"}
                code = script("""\
                    import app.opt
                    print(app.opt.HAS_EXTRA)
                    """, "pkg", "app", "missing_dependency")
                results = self.run_both(files, code)
                for lazy in MODES:
                    self.assertEqual(results[lazy].output[0], "False",
                                     results[lazy].err)
                if not init:
                    self.assert_printed(results[LAZY],
                                        results[EAGER].output)

    def test_extension_module_that_loads_stays_deferred(self):
        # Contract rule 54: an extension module of the standard library
        # whose file is found and loads (its shared libraries are mapped,
        # without running it) raises no ImportError: a plain import of it
        # stays deferred.  A from-import of it runs now: whether it has
        # the names is known only once it runs.
        self.assertNotIn("array", sys.builtin_module_names)
        files = {"pkg/__init__.py":
                     self.OPTIONAL.format(handler="ImportError"),
                 "pkg/_extra.py": "import array\nimport cmath\n"
                                  "from _bisect import bisect_right\n"
                                  "def uses(): return array, cmath\n"}
        code = script("""\
            import pkg
            print(pkg.HAS_EXTRA)
            """, "pkg", "array", "cmath", "_bisect")
        results = self.run_both(files, code)
        self.assert_printed(results[EAGER], [
            "True", "['_bisect', 'array', 'cmath', 'pkg', 'pkg._extra']"])
        self.assert_printed(results[LAZY], [
            "True", "['_bisect', 'pkg', 'pkg._extra']"])

    def test_found_imports_stay_deferred(self):
        # Contract rule 54: an import that the module imported under the
        # guard makes stays deferred when finding tells that it raises no
        # ImportError: its module and the modules they import at module
        # level are found (an import under a try of their own left out),
        # and the names taken are bound by their bodies.  An import on a
        # path the body may take (under an if whose test is no fact of the
        # interpreter) of a module that is not found cannot be told: that
        # statement runs now.
        files = {"pkg/__init__.py":
                     self.OPTIONAL.format(handler="ImportError"),
                 "pkg/_extra.py": "from helper import value\n"
                                  "import other\n"
                                  "from cond import flag\n"
                                  "def uses(): return value, other, flag\n",
                 "helper.py": "import deep\nfrom deep import CONST\n"
                              "value = CONST\n",
                 "deep.py": "try:\n    import missing_dependency\n"
                            "except ImportError:\n    pass\n"
                            "CONST = 1\n",
                 "other.py": "",
                 "cond.py": "import os\n"
                            "if os.environ.get('LAZY_TEST_UNSET'):\n"
                            "    import missing_dependency\n"
                            "flag = 1\n"}
        roots = ("pkg", "helper", "deep", "other", "cond")
        results = self.run_both(files, script(
            "import pkg\nprint(pkg.HAS_EXTRA)\n", *roots))
        self.assert_printed(results[EAGER], [
            "True",
            "['cond', 'deep', 'helper', 'other', 'pkg', 'pkg._extra']"])
        self.assert_printed(results[LAZY], [
            "True", "['cond', 'pkg', 'pkg._extra']"])

    def test_facts_of_the_interpreter_decide_branches(self):
        # Contract rule 54: a branch whose test is a fact of the running
        # interpreter compared with a constant (__name__, sys.platform,
        # sys.version_info, os.name) is read as it will run: the imports
        # of a branch never taken are not needed, those of the branch
        # taken are.
        never = """\
            import os, sys
            if __name__ == "__main__":
                from missing_dependency import x
            if sys.platform == "none" or os.name == "none":
                import missing_dependency
            elif sys.platform.startswith("none"):
                import missing_dependency
            else:
                import other
            if sys.version_info < (3,):
                import missing_dependency
            value = 1
            """
        taken = """\
            import sys
            if sys.version_info >= (3,):
                import missing_dependency
            value = 1
            """
        for name, body, expected in (
                ("never taken", never, [
                    "True", "['pkg', 'pkg._extra']",
                    "True", "['helper', 'other', 'pkg', 'pkg._extra']"]),
                ("taken", taken, ["False", "['pkg']", "False", "['pkg']"])):
            with self.subTest(name):
                files = {"pkg/__init__.py":
                             self.OPTIONAL.format(handler="ImportError"),
                         "pkg/_extra.py": "from helper import value\n"
                                          "def uses(): return value\n",
                         "helper.py": textwrap.dedent(body),
                         "other.py": ""}
                results = self.run_both(files, script(
                    "import pkg\nprint(pkg.HAS_EXTRA)\n",
                    "pkg", "helper", "other"))
                self.assert_printed(results[LAZY], expected[:2])
                self.assert_printed(results[EAGER], expected[2:])

    def test_names_bound_on_every_path_are_held(self):
        # Contract rule 54: a name that the body binds whenever it runs to
        # its end is held, wherever its store is in the code: after a try
        # whose body always raises (types.py binds most of its names
        # there), in a loop that always runs, after an if whose branches
        # both go on, after a try whose else clause imports from the
        # module its body tried.
        bodies = {
            "after a handler": """\
                try:
                    raise TypeError
                except TypeError as exc:
                    kind = type(exc)
                value = 1
                """,
            "in a loop that always runs": """\
                while True:
                    value = 1
                    break
                """,
            "after both branches": """\
                import os
                if os.environ.get("LAZY_TEST_UNSET"):
                    prefix = "a"
                else:
                    prefix = "b"
                value = 1
                """,
            # The else clause may not run, but the import that opens the
            # try always does, and its handler sees its failure: the
            # names of the C module are read as eagerly it is imported
            # (operator.py does this).
            "in the else clause of a try": """\
                try:
                    from _heapq import *
                except ImportError:
                    pass
                else:
                    from _heapq import heappush
                value = 1
                """,
        }
        for name, body in bodies.items():
            with self.subTest(name):
                files = {"pkg/__init__.py":
                             self.OPTIONAL.format(handler="ImportError"),
                         "pkg/_extra.py": "from helper import value\n"
                                          "def uses(): return value\n",
                         "helper.py": textwrap.dedent(body)}
                results = self.run_both(files, script(
                    "import pkg\nprint(pkg.HAS_EXTRA)\n", "pkg", "helper"))
                self.assert_printed(results[LAZY],
                                    ["True", "['pkg', 'pkg._extra']"])
                self.assert_printed(results[EAGER],
                                    ["True", "['helper', 'pkg', 'pkg._extra']"])

    def test_what_finding_cannot_tell_runs_now(self):
        # Contract rule 54: the ImportError of a module two imports down
        # reaches the try as eagerly, however it is raised.
        bodies = {
            "a name missing": "from deep import missing_name\n",
            "a name bound on a path not taken":
                "import sys\nif sys.platform == 'none':\n"
                "    missing_name = 1\nfrom helper import missing_name\n",
            "a name deleted": "x = 1\ndel x\nfrom helper import x\n",
            "a name bound in a loop that may not run":
                "for _ in ():\n    missing_name = 1\n"
                "from helper import missing_name\n",
            "a name bound in a handler":
                "try:\n    import os\nexcept ImportError:\n"
                "    missing_name = 1\nfrom helper import missing_name\n",
            "a raise": "raise ImportError('needs something newer')\n",
            "a handler raising again":
                "try:\n    import missing_dependency\n"
                "except ImportError:\n    raise\n",
            "a handler raising what it caught":
                "try:\n    import missing_dependency\n"
                "except ImportError as exc:\n    error = exc\n"
                "    raise error\n",
            "import_module()":
                "import importlib\n"
                "importlib.import_module('missing_dependency')\n",
            "a function the body calls":
                "def load():\n    import missing_dependency\nload()\n",
            "a relative import past the top": "from .. import x\n",
            "an import cycle":
                "from deep import needs_helper\nvalue = 1\n",
        }
        for name, body in bodies.items():
            with self.subTest(name):
                files = {"pkg/_extra.py": "from helper import value\n"
                                          "def uses(): return value\n",
                         "helper.py": body + "value = 1\n",
                         "deep.py": "from helper import value\n"
                                    "needs_helper = value\n"
                         if name == "an import cycle" else "present = 1\n"}
                self.assert_flag("ImportError", files,
                                 ["False", "['pkg']"], roots=("pkg",))

    def test_import_hook_imported_under_the_guard(self):
        # Contract rule 54: the imports made while the body of a module
        # that implements an import hook runs (it reads a loader class of
        # importlib) run at once under the guard, as before finding: its
        # loader calls code whose deferred import would be resolved while
        # the loader loads that very module (beartype.claw, imported by a
        # package that fastmcp imports in a try).
        files = {
            "hook/__init__.py": "from hook.loader import install\n",
            "hook/loader.py": """\
                import sys
                from importlib.machinery import (
                    SourceFileLoader, FileFinder, SOURCE_SUFFIXES)
                from hook.state import ready

                class Loader(SourceFileLoader):
                    def get_code(self, fullname):
                        ready()
                        return super().get_code(fullname)

                def install():
                    sys.path_hooks.insert(
                        0, FileFinder.path_hook((Loader, SOURCE_SUFFIXES)))
                    sys.path_importer_cache.clear()
                """,
            "hook/state.py": "from hook.util import helper\n"
                             "def ready(): return helper()\n",
            "hook/util.py": "def helper(): return True\n",
            "app/__init__.py": """\
                try:
                    import app.core
                    HAS_CORE = True
                except ImportError as exc:
                    HAS_CORE = exc
                """,
            "app/core.py": "import hook\nhook.install()\nimport plugin\n"
                           "VALUE = plugin.VALUE\n",
            "plugin.py": "VALUE = 1\n",
        }
        files = {name: textwrap.dedent(body) for name, body in files.items()}
        results = self.run_both(files, script(
            "import app\nprint(app.HAS_CORE)\n", "plugin"))
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                self.assert_printed(results[lazy], ["True", "['plugin']"])

    def test_extension_module_found_but_failing_to_load(self):
        # Contract rule 54: an extension module whose file is found may
        # fail to load (a shared library it needs is missing), raising
        # ImportError into the try as eagerly; shutil then leaves bztar
        # out of its archive formats.
        self.assertNotIn("array", sys.builtin_module_names)
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        files = {"pkg/__init__.py":
                     self.OPTIONAL.format(handler="ImportError"),
                 "pkg/_extra.py": "import array\nfrom array import array\n",
                 f"array{suffix}": "not a shared library\n"}
        code = script("""\
            import pkg
            print(pkg.HAS_EXTRA)
            """, "pkg")
        results = self.run_both(files, code)
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                self.assert_printed(results[lazy], ["False", "['pkg']"])

    def test_try_without_an_import_handler_keeps_deferral(self):
        # Contract rules 9 and 54: the try's own import is eager, the
        # imports of the module it imports stay deferred.
        files = {"pkg/_extra.py": "import pkg._deep\n"
                                  "def uses(): return pkg\n",
                 "pkg/_deep.py": "print('exec', __name__)\n"}
        code = script("""\
            try:
                import pkg._extra
            except KeyError:
                pass
            """, "pkg")
        results = self.run_both(dict(files, **{"pkg/__init__.py": ""}), code)
        self.assert_printed(results[EAGER],
                            ["['pkg', 'pkg._deep', 'pkg._extra']"])
        self.assert_printed(results[LAZY], ["['pkg', 'pkg._extra']"])

    def test_handlers_and_else_are_not_guarded(self):
        # Contract rule 54: only the body of the try is guarded by its
        # handlers; an import in its else clause defers its module's
        # imports as usual, and so does an import in a function called
        # from the body (a call, not an import statement of the body).
        files = {"pkg/__init__.py": "",
                 "pkg/a.py": "import pkg.deep_a\ndef uses(): return pkg\n",
                 "pkg/b.py": "import pkg.deep_b\ndef uses(): return pkg\n",
                 "pkg/deep_a.py": "", "pkg/deep_b.py": ""}
        code = script("""\
            try:
                pass
            except ImportError:
                pass
            else:
                import pkg.a
            def f():
                import pkg.b
            try:
                f()
            except ImportError:
                pass
            """, "pkg")
        results = self.run_both(files, code)
        self.assert_printed(results[LAZY], ["['pkg', 'pkg.a', 'pkg.b']"])

    def test_guarded_import_in_a_function(self):
        # Contract rule 54: the idiom in a function body too.
        files = {"pkg/__init__.py": "",
                 "pkg/_extra.py": "import missing_dependency\n"}
        code = """\
            def has_extra():
                try:
                    import pkg._extra
                except ImportError:
                    return False
                return True
            print(has_extra())
            """
        for lazy, result in self.run_both(files, code).items():
            with self.subTest(lazy=lazy):
                self.assert_printed(result, ["False"])

    def test_dis_shows_import_name(self):
        # Contract rules 39 and 54: dis shows the guarded import as stock
        # CPython shows it.
        code = """\
            import dis, io
            out = io.StringIO()
            source = "try:\\n    import a\\nexcept ImportError:\\n    pass"
            dis.dis(source, file=out)
            ops = [word for line in out.getvalue().splitlines()
                   for word in line.split() if "IMPORT" in word]
            print(ops, [i.opname for i in dis.get_instructions(source)
                        if "IMPORT" in i.opname])
            """
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy)
                self.assert_printed(result, ["['IMPORT_NAME'] "
                                             "['IMPORT_NAME']"])


@requires_subprocess()
class ContractHoleTests(LazyImportsTestCase):
    """What eager CPython never shows, in corners (contract rule 53)."""

    def test_run_path_namespace_resolves_after_run_path(self):
        # Contract rule 53: the namespace that runpy.run_path() returns for
        # a directory resolves after run_path has restored sys.path.
        files = {
            "app/__main__.py": "import helper\n",
            "app/helper.py": "print('exec', __name__)\nvalue = 42\n",
            "main.py": """\
                import runpy, sys
                ns = runpy.run_path("app")
                print("app" in sys.path, ns["helper"].value)
                """,
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                self.assert_lines(result, ["exec helper", "False 42"])

    def test_pending_binding_keeps_no_namespace(self):
        # Contract rules 49 and 53: a deferred "import pk.sub" run by exec()
        # in a dict that is dropped keeps nothing of the dict alive while pk
        # is not imported; pk.sub is still bound when pk is.
        files = {"pk/__init__.py": "", "pk/sub.py": "value = 1\n"}
        code = """\
            import gc, weakref
            class Marker:
                pass
            def run(statement):
                namespace = {"marker": Marker()}
                exec(statement, namespace)
                return weakref.ref(namespace["marker"])
            refs = [run("import pk.sub"), run("from pk import sub")]
            gc.collect()
            print([ref() is None for ref in refs])
            import pk
            print(pk.sub.value)
            """
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy, files=files)
                self.assert_printed(result, ["[True, True]", "1"])

    def test_finalizer_at_shutdown_and_its_fix(self):
        # Contract rule 53, a documented difference: a __del__ that runs
        # while the interpreter shuts down and uses a name never used
        # before cannot import it; importing the name eagerly fixes it.
        holder = ("class Holder:\n"
                  "    def __del__(self):\n"
                  "        print(json.dumps('finalized'))\n"
                  "holder = Holder()\n")
        plain = "import json\n" + holder
        fixed = ("import importlib\n"
                 "with importlib.eager_imports():\n"
                 "    import json\n" + holder)
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(fixed, lazy=lazy)
                self.assertEqual(result.lines, ['"finalized"'])
                result = self.run_code(plain, lazy=lazy)
                if lazy:
                    self.assertEqual(result.lines, [])
                    self.assertIn("ImportError", result.err)
                else:
                    self.assertEqual(result.lines, ['"finalized"'])

    def test_lazy_object_reached_through_gc_is_inert(self):
        # Contract rules 22 and 53: stored in a namespace, a lazy object
        # obtained through gc stays an object with no attributes that
        # accepts none; the name its statement bound still resolves.
        files = {"pk/__init__.py": "", "pk/sub.py": "value = 1\n"}
        code = """\
            import gc
            import pk.sub
            obj = [o for o in gc.get_referents(globals())
                   if type(o).__name__ == "lazy_import"][0]
            print(repr(obj), [a for a in dir(obj) if not a.startswith("_")])
            try:
                setattr(obj, "foo", 1)
            except AttributeError:
                print("AttributeError")
            print(hasattr(obj, "sub"), pk.sub.value)
            """
        result = self.run_code(code, lazy=True, files=files)
        self.assert_printed(result, ["<lazy_import 'pk.sub'> []",
                                     "AttributeError", "False 1"])


if __name__ == "__main__":
    unittest.main()

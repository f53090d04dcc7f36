"""Side effects that -L runs late or not at all, named by report and check
(contract rules 45, 46 and 57).

A deferred import whose first use runs a module body that changes what
other code sees (a process-wide registry, another module's names or
registries) is a "late side effect": eagerly that body ran at the
statement.  A deferred import never resolved, whose name its importer never
reads, is a "side effect not run".  ``python -m importlib.lazy report``
names each with the module, what it changed and the statement; ``check``
lists them as candidates for *excluding*.
"""

import json
import os
import textwrap
import unittest

from test.support import os_helper
from test.support.script_helper import assert_python_failure, assert_python_ok

from .util import write_files

#: The program: the plugin is imported at the top, used at the end.
MAIN = """
    from app.plugin import use
    print("started")
    use()
"""

# One plugin module per kind of late side effect: what its body does, and
# the change report must name.
PLUGINS = {
    "decorator": ("""
        from app.registry import register

        @register("hello")
        def hello():
            return "hi"
        """, ("registry", "app.registry.PLUGINS: 1 added")),
    "init_subclass": ("""
        from app.registry import Base

        class Hello(Base):
            pass
        """, ("registry", "app.registry.Base.kinds: 1 added")),
    "enable": ("""
        import app.impute

        class Fancy:
            pass

        app.impute.Fancy = Fancy
        """, ("namespace", "app.impute: bound Fancy")),
    "atexit": ("""
        import atexit

        def flush():
            pass

        atexit.register(flush)
        """, ("atexit", "registered app.plugin.flush")),
    "warnings": ("""
        import warnings
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                module="app.old")
        """, ("warnings", "filter ignore DeprecationWarning "
                          "module='app.old'")),
    "logging": ("""
        import logging
        logging.getLogger("app").addHandler(logging.StreamHandler())
        """, ("logging", "handler logging.StreamHandler on app")),
    "excepthook": ("""
        import sys

        def hook(*args):
            pass

        sys.excepthook = hook
        """, ("sys.excepthook", "set to app.plugin.hook")),
    "meta_path": ("""
        import sys

        class Finder:
            @staticmethod
            def find_spec(name, path=None, target=None):
                return None

        sys.meta_path.append(Finder())
        """, ("sys.meta_path", "added app.plugin.Finder instance")),
    "signal": ("""
        import signal

        def on_usr1(signum, frame):
            pass

        signal.signal(signal.SIGUSR1, on_usr1)
        """, ("signal", "SIGUSR1: app.plugin.on_usr1")),
    "copyreg": ("""
        import copyreg
        from app.impute import Point

        def reduce_point(point):
            return Point, ()

        copyreg.pickle(Point, reduce_point)
        """, ("copyreg", "reducer for app.impute.Point: "
                         "app.plugin.reduce_point")),
    "codecs": ("""
        import codecs

        def search(name):
            return None

        codecs.register(search)
        """, ("codecs", "registered search function app.plugin.search")),
}

APP = {
    "app/__init__.py": "",
    "app/registry.py": """
        PLUGINS = {}

        def register(name):
            def decorator(function):
                PLUGINS[name] = function
                return function
            return decorator

        class Base:
            kinds = []

            def __init_subclass__(cls, **kwargs):
                super().__init_subclass__(**kwargs)
                Base.kinds.append(cls)
    """,
    "app/impute.py": """
        class Simple:
            pass

        class Point:
            pass
    """,
}


def plugin_files(kind):
    body, _ = PLUGINS[kind]
    return dict(APP, **{
        "main.py": MAIN,
        "app/plugin.py": (textwrap.dedent(body)
                          + "\n\ndef use():\n    return None\n"),
    })


class ReportRunner:

    def report(self, files, *args, failure=False):
        """Run report on main.py of a tree holding *files*; return the
        result and the JSON record."""
        with os_helper.temp_dir() as root:
            write_files(root, files)
            out = os.path.join(root, "report.json")
            runner = assert_python_failure if failure else assert_python_ok
            result = runner("-m", "importlib.lazy", "report", "--json", out,
                            *(args or ("main.py",)), __cwd=root,
                            __isolated=False)
            with open(out, encoding="utf-8") as file:
                data = json.load(file)
        return result, data

    def side_effects(self, data, verdict):
        return {entry["module"]: entry for entry in data["side_effects"]
                if entry["verdict"] == verdict}


class LateSideEffectTests(ReportRunner, unittest.TestCase):
    maxDiff = None

    def assert_named(self, kind):
        result, data = self.report(plugin_files(kind))
        self.assertEqual(result.out.strip(), b"started")
        late = self.side_effects(data, "late side effect")
        self.assertEqual(list(late), ["app.plugin"])
        entry = late["app.plugin"]
        self.assertIn(list(PLUGINS[kind][1]), entry["changes"])
        self.assertEqual(entry["exclude"], "app.plugin")
        statement = entry["statement"]
        self.assertEqual(statement["text"], "from app.plugin import use")
        self.assertEqual(os.path.basename(statement["file"]), "main.py")
        self.assertEqual(statement["line"], 2)
        self.assertEqual(statement["importer"], "__main__")
        self.assertEqual(statement["used_at"]["line"], 4)
        # The text report names it, with its statement, before the rest.
        report = result.err.decode()
        self.assertIn("1 late side effects, 0 side effects not run", report)
        self.assertRegex(report,
                         r"\nLate side effects: .*\(1\)\n  app\.plugin: "
                         r".*<- from app\.plugin import use  "
                         r"\(main\.py:2\) first used at main\.py:4")
        self.assertLess(report.index("Late side effects"),
                        report.index("Used later"))
        return entry

    def test_registry_filled_by_decorator(self):
        # Contract rule 45: a plugin registering itself with a decorator in
        # another module's registry, at its first use.
        self.assert_named("decorator")

    def test_registry_filled_by_init_subclass(self):
        # Contract rule 45: a class registry filled by __init_subclass__.
        self.assert_named("init_subclass")

    def test_enable_module_patches_another(self):
        # Contract rule 45: an "enable" module binding a name in another
        # module (impute.Fancy = Fancy).
        self.assert_named("enable")

    def test_atexit_handler(self):
        # Contract rule 45: an atexit handler registered at the first use.
        self.assert_named("atexit")

    def test_warnings_filter(self):
        # Contract rule 45: a warnings filter installed at the first use.
        self.assert_named("warnings")

    def test_logging_handler(self):
        # Contract rule 45: a handler added to the logging tree.
        self.assert_named("logging")

    def test_excepthook(self):
        # Contract rule 45: sys.excepthook replaced.
        self.assert_named("excepthook")

    def test_meta_path_finder(self):
        # Contract rule 45: a finder appended to sys.meta_path.
        self.assert_named("meta_path")

    @unittest.skipUnless(hasattr(__import__("signal"), "SIGUSR1"),
                         "needs SIGUSR1")
    def test_signal_handler(self):
        # Contract rule 45: a signal handler installed at the first use.
        self.assert_named("signal")

    def test_copyreg_reducer(self):
        # Contract rule 45: a copyreg reducer registered at the first use.
        self.assert_named("copyreg")

    def test_codec_search_function(self):
        # Contract rule 45: codecs.register() at the first use (seen
        # through codecs.register, which report wraps).
        self.assert_named("codecs")

    def test_innermost_module_load(self):
        # Contract rule 45: a change is charged to the innermost module
        # load running then, with the deferred statement whose first use
        # ran it; what a module of the package being loaded changes in that
        # package is part of the package's import, as eagerly.
        files = dict(APP, **{
            "main.py": "from app.loader import load\nload()\n",
            "app/loader.py": """
                try:
                    import plugins.hello
                    import app.internal
                except ImportError:
                    pass
                import atexit

                def bye():
                    pass

                atexit.register(bye)

                def load():
                    pass
            """,
            "app/internal.py": ("from app.registry import PLUGINS\n"
                                "PLUGINS['internal'] = 1\n"),
            "plugins/__init__.py": "",
            "plugins/hello.py": textwrap.dedent(PLUGINS["decorator"][0]),
        })
        result, data = self.report(files)
        late = self.side_effects(data, "late side effect")
        self.assertEqual(sorted(late), ["app.loader", "plugins.hello"])
        self.assertEqual(late["plugins.hello"]["changes"],
                         [["registry", "app.registry.PLUGINS: 1 added"]])
        self.assertEqual(late["app.loader"]["changes"],
                         [["atexit", "registered app.loader.bye"]])
        for entry in late.values():
            self.assertEqual(entry["exclude"], "app.loader")
            self.assertEqual(entry["statement"]["text"],
                             "from app.loader import load")

    def test_submodule_statement_is_the_candidate(self):
        # Contract rule 45: for "from app import plugin" the candidate for
        # excluding is the submodule the statement loaded.
        files = dict(plugin_files("atexit"), **{
            "main.py": "from app import plugin\nprint('started')\n"
                       "plugin.use()\n"})
        result, data = self.report(files)
        late = self.side_effects(data, "late side effect")
        self.assertEqual(late["app.plugin"]["exclude"], "app.plugin")

    def test_no_late_side_effect_at_the_statement(self):
        # Contract rule 45: a module whose body changes registries and that
        # runs eagerly (excluding) or whose own body fills its own registry
        # is no late side effect.
        files = dict(plugin_files("atexit"), **{
            "main.py": "import importlib\n"
                       "importlib.set_lazy_imports(excluding=['app.plugin'])\n"
                       + textwrap.dedent(MAIN),
            "app/own.py": "REGISTRY = []\nREGISTRY.append(1)\n",
        })
        result, data = self.report(files)
        self.assertEqual(data["side_effects"], [])
        self.assertNotIn(b"side effects", result.err)


class NoNoiseTests(ReportRunner, unittest.TestCase):
    """Programs without late side effects get no entry (contract rule 45)."""

    def test_plain_module_tree(self):
        # Contract rule 45: deferred imports used late, modules that import
        # the standard library (logging, warnings, which register their own
        # handlers and filters), a package binding its submodules, a module
        # __getattr__ caching names: no side effect reported.
        files = {
            "main.py": """
                import json
                from pkg.core import compute
                from pkg import helpers
                import pkg.lazyattr as lazyattr
                print(compute(2), helpers.twice(3), lazyattr.VALUE)
            """,
            "pkg/__init__.py": "from . import core\n",
            "pkg/core.py": """
                import logging
                import warnings
                from pkg.helpers import twice
                log = logging.getLogger(__name__)
                log.addHandler(logging.NullHandler())
                CACHE = {}

                def compute(x):
                    CACHE[x] = twice(x)
                    return CACHE[x]
            """,
            "pkg/helpers.py": "def twice(x):\n    return 2 * x\n",
            "pkg/lazyattr.py": """
                def __getattr__(name):
                    globals()[name] = 42
                    return 42
            """,
        }
        result, data = self.report(files)
        self.assertEqual(result.out.strip(), b"4 6 42")
        self.assertEqual(data["side_effects"], [])
        self.assertNotIn(b"late side effects", result.err)

    def test_demo_application(self):
        # Contract rule 45: the repository's demo application (bench/demo)
        # has no late side effect and imports nothing only for its effect.
        # The test files of build/src link those of the repository.
        demo = os.path.join(os.path.dirname(os.path.realpath(__file__)),
                            *[os.pardir] * 3, "bench", "demo")
        if not os.path.isdir(os.path.join(demo, "logtool")):
            self.skipTest("bench/demo not found")
        with os_helper.temp_dir() as root:
            out = os.path.join(root, "report.json")
            assert_python_ok("-m", "importlib.lazy", "report", "--json", out,
                             "-m", "logtool", "summary",
                             os.path.join("data", "access.log"), __cwd=demo,
                             __isolated=False)
            with open(out, encoding="utf-8") as file:
                data = json.load(file)
        self.assertGreater(len(data["deferred"]), 50)
        self.assertEqual(data["side_effects"], [])


class SideEffectNotRunTests(ReportRunner, unittest.TestCase):

    def test_from_import_never_read(self):
        # Contract rule 57: a "from m import x" whose x no code of its
        # module reads, never resolved: m's body never ran; report names
        # it with its statement.
        files = dict(APP, **{
            "main.py": "from app.setup_logging import configured\n"
                       "print('ran')\n",
            "app/setup_logging.py": "import atexit\n"
                                    "atexit.register(print)\n"
                                    "configured = True\n",
        })
        result, data = self.report(files)
        not_run = self.side_effects(data, "side effect not run")
        self.assertEqual(list(not_run), ["app.setup_logging"])
        entry = not_run["app.setup_logging"]
        self.assertEqual(entry["changes"],
                         [["unread", "no code of __main__ reads configured"]])
        self.assertEqual(entry["statement"]["line"], 1)
        self.assertEqual(entry["exclude"], "app.setup_logging")
        self.assertIn("0 late side effects, 1 side effects not run",
                      result.err.decode())
        self.assertIn("app.setup_logging: no code of __main__ reads "
                      "configured  <- from app.setup_logging import "
                      "configured  (main.py:1)", result.err.decode())

    def test_reads_and_what_is_not_a_candidate(self):
        # Contract rule 57: a name read anywhere in the module's code (a
        # function, a string constant such as __all__, an annotation, an
        # "import x as x" re-export) is no side-effect import; a "del" is
        # no read; a package __init__ re-exports; a module that ran anyway
        # had its effect.
        files = dict(APP, **{
            "main.py": """
                from __future__ import annotations
                from app.a import a
                from app.b import b
                from app.c import c
                from app.d import d as d
                from app.e import e
                from app.f import f
                import app.impute
                from app.impute import Simple
                from app.g import g
                import app.pkg
                __all__ = ["b"]
                del e

                def uses():
                    return a

                def typed(x: c) -> None:
                    pass
            """,
            "app/a.py": "a = 1\n", "app/b.py": "b = 1\n",
            "app/c.py": "c = 1\n", "app/d.py": "d = 1\n",
            "app/e.py": "e = 1\n", "app/f.py": "f = 1\n",
            "app/g.py": "g = 1\n",
            "app/pkg/__init__.py": "from app.f import f\n",
        })
        result, data = self.report(files)
        not_run = self.side_effects(data, "side effect not run")
        # e is only deleted, f never read in main.py; g never read.
        self.assertEqual(sorted(not_run), ["app.e", "app.f", "app.g"])
        self.assertEqual(
            sorted((os.path.basename(entry["statement"]["file"]),
                    entry["statement"]["line"])
                   for entry in not_run.values()),
            [("main.py", 7), ("main.py", 8), ("main.py", 11)])


class VerifyCommandTests(unittest.TestCase):
    """python -m importlib.lazy verify, and python -X lazy_imports=verify,
    print a late side effect when it happens (contract rule 44)."""

    # The verify command, and the option it runs the program with.
    RUNNERS = (("-m", "importlib.lazy", "verify"),
               ("-X", "lazy_imports=verify"))

    def verify(self, files, *args, runner=RUNNERS[0]):
        with os_helper.temp_dir() as root:
            write_files(root, files)
            return assert_python_ok(*runner, *(args or ("main.py",)),
                                    __cwd=root, __isolated=False)

    def test_late_side_effect_at_the_event(self):
        # Contract rule 44: the line comes at the first use, between what
        # the program printed before and after it, and the status stays 0,
        # also when the program ends with sys.exit(0).
        files = dict(plugin_files("atexit"), **{
            "main.py": "import sys\nfrom app.plugin import use\n"
                       "print('before', flush=True)\n"
                       "use()\nprint('after', file=sys.stderr)\n"
                       "sys.exit(0)\n"})
        for runner in self.RUNNERS:
            for args in (("main.py",), ("-m", "main")):
                with self.subTest(runner=runner, args=args):
                    result = self.verify(files, *args, runner=runner)
                    self.assertEqual(result.out.strip(), b"before")
                    self.assertEqual(result.err.decode().splitlines(), [
                        "lazy import verify: late side effect: app.plugin: "
                        "atexit registered app.plugin.flush  <- from "
                        "app.plugin import use  (main.py:2) first used at "
                        "main.py:4",
                        "after"])

    def test_each_kind_named(self):
        # Contract rules 44 and 45: each kind of late side effect report
        # names is printed by both, with what it changed.
        for kind, (_, (what, text)) in PLUGINS.items():
            for runner in self.RUNNERS:
                with self.subTest(kind=kind, runner=runner):
                    result = self.verify(plugin_files(kind), runner=runner)
                    self.assertEqual(result.out.strip(), b"started")
                    self.assertIn(
                        f"lazy import verify: late side effect: app.plugin: "
                        f"{what} {text}", result.err.decode())

    def test_nothing_printed_without_late_side_effects(self):
        # Contract rule 44: a program without late side effects prints
        # what it prints, nothing more.
        files = dict(APP, **{"main.py": "from app.impute import Simple\n"
                                        "print(Simple.__name__)\n"})
        for runner in self.RUNNERS:
            with self.subTest(runner=runner):
                result = self.verify(files, runner=runner)
                self.assertEqual(result.out.strip(), b"Simple")
                self.assertEqual(result.err, b"")

    def test_option_watches_only_when_asked(self):
        # Contract rules 44 and 47: -L alone prints nothing and loads
        # nothing of the watch.
        files = dict(plugin_files("atexit"), **{
            "main.py": "import sys\nfrom app.plugin import use\nuse()\n"
                       "print('importlib.lazy' in sys.modules)\n"})
        result = self.verify(files, runner=("-L",))
        self.assertEqual(result.out.strip(), b"False")
        self.assertEqual(result.err, b"")


class CheckTests(unittest.TestCase):
    """check lists the late side effects and side effects not run as
    candidates for excluding (contract rule 46)."""

    def check(self, files, failure=False):
        with os_helper.temp_dir() as root:
            write_files(root, files)
            out = os.path.join(root, "check.json")
            runner = assert_python_failure if failure else assert_python_ok
            result = runner("-m", "importlib.lazy", "check", "--json", out,
                            "main.py", __cwd=root, __isolated=False)
            with open(out, encoding="utf-8") as file:
                data = json.load(file)
        return result, data

    def test_candidates_when_the_runs_agree(self):
        # Contract rule 46: the runs agree (nothing reads the registry
        # before the use), and check still lists the late side effect as a
        # candidate, with its reason; the exit status stays 0.
        result, data = self.check(plugin_files("decorator"))
        self.assertEqual(data["differences"], [])
        reason = data["candidates"]["app.plugin"]
        self.assertTrue(reason.startswith(
            "late side effect: registry app.registry.PLUGINS: 1 added; "
            "deferred at main.py:2 (used later)"), reason)
        self.assertIn(b"candidates for excluding", result.out)
        self.assertIn(b"'app.plugin',  # late side effect", result.out)
        self.assertIn(b"no difference", result.out)

    def test_candidate_explains_a_difference(self):
        # Contract rule 46: a registry read before the plugin's first use
        # differs; check's suggestion is the candidate, with its reason.
        files = dict(plugin_files("decorator"), **{
            "main.py": "from app.plugin import use\n"
                       "from app.registry import PLUGINS\n"
                       "print(sorted(PLUGINS))\nuse()\n"})
        result, data = self.check(files, failure=True)
        self.assertEqual(result.rc, 1)
        self.assertTrue(data["confirmed"])
        self.assertEqual(list(data["excluding"]), ["app.plugin"])
        self.assertTrue(data["excluding"]["app.plugin"].startswith(
            "late side effect: registry app.registry.PLUGINS: 1 added"),
            data["excluding"])


if __name__ == "__main__":
    unittest.main()

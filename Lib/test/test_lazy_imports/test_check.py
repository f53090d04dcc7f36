"""python -m importlib.lazy check (contract rule 46), on seeded traps.

Each trap is a small application whose behaviour depends on what a module
does at import time, a module that -L defers and never imports.  check must
find the difference, suggest excluding the module(s) behind it and confirm
the suggestion with one more run.  On the clean programs it must find no
difference and suggest nothing.
"""

import json
import os
import sys
import textwrap
import unittest

from test.support import os_helper
from test.support.script_helper import assert_python_failure, assert_python_ok

from .util import write_files

REGISTRY = """
    COMMANDS = {}

    def command(name):
        def decorate(func):
            COMMANDS[name] = func
            return func
        return decorate
"""

# name -> (module tree, the modules the suggestion must exclude).  Each
# main.py is the program that check runs.  It reads the names of the
# modules behind the trap only in a function that does not run at import
# time: an import whose name no code of its module reads is made for its
# side effects and runs at once under -L (contract rule 57), and the trap
# would be no trap.
TRAPS = {
    "command registry filled by decorators": ({
        "main.py": """
            import sys
            import registry
            import commands.build
            import commands.serve

            def _commands():
                return commands

            name = sys.argv[1] if len(sys.argv) > 1 else "build"
            if name not in registry.COMMANDS:
                sys.exit(f"unknown command {name!r}")
            registry.COMMANDS[name]()
        """,
        "registry.py": REGISTRY,
        "commands/__init__.py": "",
        "commands/build.py": """
            import registry

            @registry.command("build")
            def build():
                print("building")
        """,
        "commands/serve.py": """
            import registry

            @registry.command("serve")
            def serve():
                print("serving")
        """,
    }, {"commands.build"}),
    "atexit.register at import": ({
        "main.py": """
            import cache
            print("working")

            def _flush():
                return cache.flush
        """,
        "cache.py": """
            import atexit

            def flush():
                print("cache flushed")

            atexit.register(flush)
        """,
    }, {"cache"}),
    "atexit handler two deferred imports down": ({
        "main.py": """
            import telemetry
            print("working")

            def _telemetry():
                return telemetry
        """,
        # Excluding telemetry alone leaves this statement deferred (it
        # imports telemetry.exporter, which is not excluded).
        "telemetry/__init__.py": ("import telemetry.exporter\n\n\n"
                                  "def _exporter():\n"
                                  "    return telemetry.exporter\n"),
        "telemetry/exporter.py": """
            import atexit

            @atexit.register
            def export():
                print("metrics exported")
        """,
    }, {"telemetry", "telemetry.exporter"}),
    "signal handler installed at import": ({
        "main.py": """
            import os
            import signal
            import reload

            def _reload():
                return reload

            os.kill(os.getpid(), signal.SIGUSR1)
            print("running")
        """,
        "reload.py": """
            import signal

            def on_usr1(signum, frame):
                print("configuration reloaded")

            signal.signal(signal.SIGUSR1, on_usr1)
        """,
    }, {"reload"}),
    "sys.excepthook set at import": ({
        "main.py": """
            import crashreport

            def _report():
                return crashreport.report

            def run():
                raise RuntimeError("disk full")

            run()
        """,
        "crashreport.py": """
            import sys

            def report(exc_type, exc, tb):
                print(f"crash report: {exc_type.__name__}: {exc}",
                      file=sys.stderr)

            sys.excepthook = report
        """,
    }, {"crashreport"}),
    "logging configured at import": ({
        "main.py": """
            import logging
            import logconfig

            def _logconfig():
                return logconfig

            logging.getLogger("app").warning("disk almost full")
        """,
        "logconfig.py": """
            import logging
            import sys

            logging.basicConfig(stream=sys.stdout,
                                format="[%(name)s] %(levelname)s %(message)s")
        """,
    }, {"logconfig"}),
    "logging.config.dictConfig at import": ({
        "main.py": """
            import logging
            import app_logging

            def _app_logging():
                return app_logging

            logging.getLogger("app.db").debug("connected")
        """,
        "app_logging.py": """
            import logging.config

            logging.config.dictConfig({
                "version": 1,
                "handlers": {"out": {"class": "logging.StreamHandler",
                                     "stream": "ext://sys.stdout"}},
                "loggers": {"app": {"handlers": ["out"],
                                    "level": "DEBUG"}},
            })
        """,
    }, {"app_logging"}),
    "warnings filter at import": ({
        "main.py": """
            import warnings
            import strict

            def _strict():
                return strict

            warnings.warn("old API", DeprecationWarning)
            print("done")
        """,
        "strict.py": """
            import warnings

            warnings.filterwarnings("error", category=DeprecationWarning)
        """,
    }, {"strict"}),
    "codecs.register at import": ({
        "main.py": """
            import rot_codec
            print("hello".encode("rot5"))

            def _search():
                return rot_codec.search
        """,
        "rot_codec.py": """
            import codecs

            def _shift(text, step):
                return "".join(chr(ord(c) + step) for c in text)

            def search(name):
                if name == "rot5":
                    return codecs.CodecInfo(
                        lambda s, e="strict": (_shift(s, 5).encode(), len(s)),
                        lambda b, e="strict": (_shift(bytes(b).decode(), -5),
                                               len(b)),
                        name="rot5")
                return None

            codecs.register(search)
        """,
    }, {"rot_codec"}),
    "copyreg reducer registered at import": ({
        "main.py": """
            import pickle
            import money
            import money_pickling

            def _reduce():
                return money_pickling.reduce

            print(pickle.loads(pickle.dumps(money.Money(3, "EUR"))))
        """,
        "money.py": """
            class Money:
                def __init__(self, amount, currency):
                    self.amount, self.currency = amount, currency

                def __repr__(self):
                    return f"Money({self.amount!r}, {self.currency!r})"
        """,
        "money_pickling.py": """
            import copyreg
            import money

            def reduce(value):
                # Pickled in cents, as the storage format wants.
                return money.Money, (value.amount * 100, "cents")

            copyreg.pickle(money.Money, reduce)
        """,
    }, {"money_pickling"}),
    "__init_subclass__ registry": ({
        "main.py": """
            import base
            import formats.yaml_format
            import formats.toml_format

            def _formats():
                return formats

            print("formats:", ", ".join(sorted(base.Format.known)))
        """,
        "base.py": """
            class Format:
                known = {}

                def __init_subclass__(cls, **kwargs):
                    super().__init_subclass__(**kwargs)
                    Format.known[cls.__name__.lower()] = cls
        """,
        "formats/__init__.py": "",
        "formats/yaml_format.py": """
            import base

            class Yaml(base.Format):
                pass
        """,
        "formats/toml_format.py": """
            import base

            class Toml(base.Format):
                pass
        """,
    }, {"formats.yaml_format", "formats.toml_format"}),
    "ABC registration at import": ({
        "main.py": """
            from collections.abc import Sequence
            import storage
            import storage_abc

            def _storage_abc():
                return storage_abc

            print(isinstance(storage.Bucket(), Sequence))
        """,
        "storage.py": """
            class Bucket:
                def __getitem__(self, index):
                    raise IndexError(index)

                def __len__(self):
                    return 0
        """,
        "storage_abc.py": """
            from collections.abc import Sequence
            import storage

            Sequence.register(storage.Bucket)
        """,
    }, {"storage_abc"}),
    "plugin that registers itself": ({
        "main.py": """
            import hooks
            import plugins

            def _plugins():
                return plugins

            for plugin in hooks.PLUGINS:
                print("plugin", plugin.NAME, "active")
        """,
        "hooks.py": """
            PLUGINS = []

            def register(plugin):
                PLUGINS.append(plugin)
        """,
        # Excluding the package makes its from-imports eager too.
        "plugins/__init__.py": "from . import spell\n",
        "plugins/spell.py": """
            import sys
            import hooks

            NAME = "spell"
            hooks.register(sys.modules[__name__])
        """,
    }, {"plugins"}),
}

CLEAN = {
    "uses what it imports": {
        "main.py": """
            import csv
            import decimal
            import io
            import json

            rows = csv.reader(io.StringIO("a,1.5\\nb,2.25\\n"))
            total = sum(decimal.Decimal(amount) for _, amount in rows)
            print(json.dumps({"total": str(total)}))
        """,
    },
    "registry filled by the code that runs": {
        "main.py": """
            import registry

            @registry.command("go")
            def go():
                print("going")

            registry.COMMANDS["go"]()
        """,
        "registry.py": REGISTRY,
    },
    "registrations kept eager by the program": {
        "main.py": """
            import importlib
            import sys

            with importlib.eager_imports():
                import cache
            try:
                import optional_speedups
            except ImportError:
                optional_speedups = None
            print("working", sorted({"alpha", "beta", "gamma", "delta"}))
        """,
        "cache.py": """
            import atexit
            atexit.register(print, "cache flushed")
        """,
    },
    "unused modules without side effects": {
        "main.py": """
            import argparse
            import models
            import report
            import email.mime.text

            parser = argparse.ArgumentParser(prog="tool")
            parser.add_argument("--count", type=int, default=2)
            args = parser.parse_args(["--count", "3"])
            print("count", args.count, {"x", "y", "z", "w"})
        """,
        "models.py": """
            import enum

            class Color(enum.Enum):
                RED = 1

            class Base:
                def __init_subclass__(cls, **kwargs):
                    super().__init_subclass__(**kwargs)

            class Model(Base):
                pass
        """,
        "report.py": """
            import textwrap

            def render(text):
                return textwrap.indent(text, "  ")
        """,
    },
}


class CheckTests(unittest.TestCase):
    maxDiff = None

    def check(self, files, *args, status):
        """Run check on main.py of the tree 'files'; return its output and
        its JSON findings."""
        with os_helper.temp_dir() as root:
            write_files(root, files)
            out = os.path.join(root, "check.json")
            runner = assert_python_ok if status == 0 else assert_python_failure
            # An environment variable keeps script_helper from adding -E,
            # which would keep check from giving its runs one hash seed.
            result = runner("-m", "importlib.lazy", "check", "--json", out,
                            *args, __cwd=root, PYTHONHASHSEED="random")
            output = result.out.decode()
            self.assertEqual(result.rc, status, output + result.err.decode())
            with open(out, encoding="utf-8") as file:
                findings = json.load(file)
        self.assertEqual(findings["exit_status"], status)
        return output, findings

    def test_traps(self):
        for name, (files, expected) in TRAPS.items():
            with self.subTest(trap=name):
                output, findings = self.check(files, "main.py", status=1)
                self.assertTrue(findings["differences"], output)
                self.assertEqual(set(findings["excluding"]), expected, output)
                self.assertIs(findings["confirmed"], True, output)
                self.assertEqual(findings["remaining"], [])
                self.assertIn("importlib.set_lazy_imports(excluding=[",
                              output)
                self.assertIn("confirmed: with it, -L agrees", output)

    def test_clean_programs(self):
        for name, files in CLEAN.items():
            with self.subTest(program=name):
                output, findings = self.check(files, "main.py", status=0)
                self.assertEqual(findings["differences"], [], output)
                self.assertEqual(findings["excluding"], {})
                self.assertEqual(findings["runs"], 2)
                self.assertIn("no difference", output)
                self.assertNotIn("set_lazy_imports", output)

    def test_registration_names_its_module(self):
        # A registration missing with -L is traced to its module without
        # narrowing: eager, -L and the confirmation are the only runs.
        files, _ = TRAPS["atexit.register at import"]
        output, findings = self.check(files, "main.py", status=1)
        self.assertEqual(findings["runs"], 3)
        self.assertIn({"kind": "registration", "side": "missing with -L",
                       "effect": "atexit", "what": "cache.flush",
                       "module": "cache", "importing": None},
                      findings["differences"])
        self.assertEqual(findings["excluding"], {
            "cache": "registers atexit handler cache.flush at import; "
                     "deferred at main.py:2 (never used)"})
        self.assertIn("'cache',  # registers atexit handler cache.flush",
                      output)

    def test_registration_chain(self):
        # Each deferred import between the program and the registering
        # module is named, with the statement -L deferred.
        # Both are needed: eager, -L, the confirmation, then one run
        # without each entry.
        files, _ = TRAPS["atexit handler two deferred imports down"]
        output, findings = self.check(files, "main.py", status=1)
        self.assertEqual(findings["runs"], 5)
        self.assertIs(findings["minimal"], True)
        excluding = findings["excluding"]
        self.assertTrue(excluding["telemetry"].startswith(
            "imports telemetry.exporter, which registers atexit handler "
            "telemetry.exporter.export"), excluding)
        self.assertIn("deferred at main.py:2", excluding["telemetry"])
        self.assertIn("imported at telemetry/__init__.py:1 "
                      "(not reached with -L)", excluding["telemetry.exporter"])

    def test_suggestion_is_one_minimal(self):
        # The registration is traced through telemetry, whose "from .
        # import exporter" imports telemetry, excluded itself: without
        # telemetry.exporter the runs still agree, so it is dropped.
        files, _ = TRAPS["atexit handler two deferred imports down"]
        files = dict(files, **{"telemetry/__init__.py":
                               "from . import exporter\n"})
        output, findings = self.check(files, "main.py", status=1)
        self.assertEqual(set(findings["excluding"]), {"telemetry"})
        self.assertIs(findings["confirmed"], True)
        self.assertIs(findings["minimal"], True)
        self.assertEqual(findings["runs"], 5)
        self.assertIn("1-minimal: without any one of its entries", output)

    def test_minimizing_stopped_by_the_run_budget(self):
        # Three runs find and confirm the setting; none is left to drop an
        # entry, and check says so.
        files, _ = TRAPS["atexit handler two deferred imports down"]
        files = dict(files, **{"telemetry/__init__.py":
                               "from . import exporter\n"})
        output, findings = self.check(files, "--max-runs", "4", "main.py",
                                      status=1)
        self.assertEqual(set(findings["excluding"]),
                         {"telemetry", "telemetry.exporter"})
        self.assertIs(findings["confirmed"], True)
        self.assertIs(findings["minimal"], False)
        self.assertLessEqual(findings["runs"], 4)
        self.assertIn("not shown to be 1-minimal: --max-runs reached", output)

    def test_registration_made_through_another_module(self):
        # The registering call is in a helper module that -L loads; the
        # module whose import made it is the one to exclude.
        files = {
            "main.py": """
                import lifecycle
                import db

                def _close():
                    return db.close

                lifecycle.start()
            """,
            "lifecycle.py": """
                import atexit

                def on_exit(func):
                    atexit.register(func)
                    return func

                def start():
                    print("started")
            """,
            "db.py": """
                import lifecycle

                @lifecycle.on_exit
                def close():
                    print("connections closed")
            """,
        }
        output, findings = self.check(files, "main.py", status=1)
        self.assertIn({"kind": "registration", "side": "missing with -L",
                       "effect": "atexit", "what": "db.close",
                       "module": "lifecycle", "importing": "db"},
                      findings["differences"])
        self.assertEqual(set(findings["excluding"]), {"db"})
        self.assertTrue(findings["confirmed"])
        self.assertEqual(findings["runs"], 3)

    def test_output_difference_narrowed_down(self):
        # No registration explains it: narrowing over the modules -L never
        # imported finds the two command modules among ten.
        files, _ = TRAPS["command registry filled by decorators"]
        files = dict(files)
        main = textwrap.dedent(files["main.py"])
        for i in range(8):
            files[f"commands/extra{i}.py"] = "VALUE = 1\n"
            main = f"import commands.extra{i}\n" + main
        files["main.py"] = main.replace("else \"build\"", "else \"serve\"")
        output, findings = self.check(files, "main.py", status=1)
        self.assertEqual(set(findings["excluding"]), {"commands.serve"})
        self.assertRegex(findings["excluding"]["commands.serve"],
                         r"^found by narrowing down: -L never imports it; "
                         r"deferred at main\.py:\d+ \(never used\)$")
        self.assertLessEqual(findings["runs"], 24)
        self.assertTrue(findings["confirmed"])

    def test_import_order_difference(self):
        # -L runs the module body later, at its first use: the output
        # order differs although both runs import it.
        files = {
            "main.py": """
                import banner
                print("main starts")
                banner.show()
            """,
            "banner.py": """
                print("banner loaded")

                def show():
                    print("banner")
            """,
        }
        output, findings = self.check(files, "main.py", status=1)
        self.assertEqual(set(findings["excluding"]), {"banner"})
        self.assertEqual(findings["excluding"]["banner"],
                         "found by narrowing down: -L imports it later; "
                         "deferred at main.py:2 (used later)")
        self.assertTrue(findings["confirmed"])

    def test_run_budget(self):
        # With too few runs to narrow down, nothing is suggested.
        files, _ = TRAPS["plugin that registers itself"]
        output, findings = self.check(files, "--max-runs", "3", "main.py",
                                      status=2)
        self.assertEqual(findings["excluding"], {})
        self.assertLessEqual(findings["runs"], 3)
        self.assertIn("--max-runs reached", output)

    def test_unstable_program(self):
        # Output that changes from run to run cannot be compared: check
        # says so instead of suggesting anything.
        files = {"main.py": "import os\nprint(os.urandom(8).hex())\n"}
        output, findings = self.check(files, "main.py", status=2)
        self.assertEqual(findings["excluding"], {})
        self.assertTrue(findings["unstable"])
        self.assertIn("Two eager runs differ too", output)

    def test_module_target_and_arguments(self):
        # The options after -m MODULE are the program's, not check's.
        files, expected = TRAPS["command registry filled by decorators"]
        main = files["main.py"].replace("sys.argv[1]", "sys.argv[-1]")
        files = dict(files, **{"app/__init__.py": "",
                               "app/__main__.py": main})
        output, findings = self.check(files, "--max-runs", "20", "-m", "app",
                                      "--json", "-q", "serve", status=1)
        self.assertEqual(findings["command"],
                         ["-m", "app", "--json", "-q", "serve"])
        self.assertEqual(set(findings["excluding"]), {"commands.serve"})
        self.assertTrue(findings["confirmed"])

    def test_traceback_shown_by_its_exception(self):
        files, _ = TRAPS["sys.excepthook set at import"]
        output, findings = self.check(files, "main.py", status=1)
        self.assertIn("stderr line 1: 'crash report: RuntimeError: disk full' "
                      "eagerly, 'RuntimeError: disk full' (traceback) with -L",
                      output)

    def test_usage(self):
        result = assert_python_ok("-m", "importlib.lazy", "check", "--help")
        self.assertIn(b"excluding", result.out)
        self.assertIn(b"--max-runs", result.out)
        result = assert_python_failure("-m", "importlib.lazy", "check")
        self.assertEqual(result.rc, 2)
        self.assertIn(b"a script or -m MODULE is required", result.err)
        result = assert_python_failure("-m", "importlib.lazy", "check",
                                       "--max-runs", "many", "main.py")
        self.assertEqual(result.rc, 2)
        self.assertIn(b"invalid int value", result.err)


EFFECTS_PROGRAM = """
    import abc, atexit, codecs, copyreg, functools, importlib, json
    import signal, sys, warnings
    from importlib._lazy_effects import Effects

    originals = {"atexit.register": atexit.register,
                 "signal.signal": signal.signal,
                 "codecs.register": codecs.register,
                 "copyreg.pickle": copyreg.pickle,
                 "warnings.simplefilter": warnings.simplefilter,
                 "abc.ABCMeta.register": abc.ABCMeta.register}
    effects = Effects()
    effects.install()
    import registrar
    registrar.later()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # undone: not in the snapshot

    # The wrappers look like and behave as the functions they wrap.
    for name, original in originals.items():
        owner, attribute = name.rsplit(".", 1)
        wrapper = functools.reduce(getattr, owner.split(".")[1:],
                                   sys.modules[owner.split(".")[0]])
        wrapper = getattr(wrapper, attribute)
        assert wrapper is not original, name
        assert wrapper.__wrapped__ is original, name
        assert wrapper.__name__ == original.__name__, name
        assert wrapper.__doc__ == original.__doc__, name
    try:
        signal.signal(-1, signal.SIG_DFL)
    except ValueError as exc:
        assert "signal number out of range" in str(exc), exc
    else:
        raise AssertionError("no ValueError")
    try:
        atexit.register(42)
    except TypeError as exc:
        assert "must be callable" in str(exc), exc
    else:
        raise AssertionError("no TypeError")
    snapshot = effects.snapshot()
    # Reading the module namespaces resolved nothing.
    assert importlib.is_lazy_import(vars(registrar), "never_used") \\
        == sys.flags.lazy_imports
    effects.uninstall()
    assert atexit.register is originals["atexit.register"]
    print(json.dumps(snapshot["registrations"]))
"""

REGISTRAR = """
    import abc, atexit, codecs, copyreg, logging, signal, sys, warnings
    import never_used

    def _never():
        return never_used

    def handler(signum, frame):
        pass

    def search(name):
        return None

    class Point:
        pass

    class Plugin:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)

    class Spell(Plugin):
        pass

    class Sized(abc.ABC):
        pass

    assert atexit.register(handler) is handler
    assert signal.signal(signal.SIGUSR1, handler) == signal.SIG_DFL
    codecs.register(search)
    copyreg.pickle(Point, lambda p: (Point, ()))
    warnings.filterwarnings("ignore", "noisy", UserWarning)
    assert Sized.register(Point) is Point
    logging.basicConfig(stream=sys.stdout)
    logging.getLogger("app").setLevel("DEBUG")
    sys.excepthook = handler

    def later():
        signal.signal(signal.SIGUSR2, handler)
        signal.signal(signal.SIGUSR2, signal.SIG_DFL)   # undone
"""


class EffectsTests(unittest.TestCase):
    maxDiff = None

    def snapshot(self, *flags):
        with os_helper.temp_dir() as root:
            write_files(root, {"main.py": EFFECTS_PROGRAM,
                               "registrar.py": REGISTRAR,
                               "never_used.py": "VALUE = 1\n"})
            result = assert_python_ok(*flags, "main.py", __cwd=root,
                                      __isolated=False)
        return json.loads(result.out.decode().splitlines()[-1])

    def test_snapshot(self):
        expected = {
            "abc": [["registrar.Sized <- registrar.Point", "registrar",
                     None]],
            "atexit": [["registrar.handler", "registrar", None]],
            "codecs": [["registrar.search", "registrar", None]],
            "copyreg": [["registrar.Point: registrar.<lambda>", "registrar",
                         None]],
            "logging": [
                ["basicConfig(stream)", "registrar", None],
                ["handler logging.StreamHandler on root", "registrar", None],
                ["level DEBUG of app", "registrar", None],
            ],
            "signal": [["SIGUSR1: registrar.handler", "registrar", None]],
            "subclass": [["registrar.Plugin <- registrar.Spell",
                          "registrar", None]],
            "sys.excepthook": [["registrar.handler", "registrar", None]],
            "warnings": [["ignore UserWarning message='noisy'",
                          "registrar", None]],
        }
        for flags in ((), ("-L",)):
            with self.subTest(flags=flags):
                snapshot = {
                    kind: [entry for entry in entries
                           if entry[1].partition(".")[0]
                           not in sys.stdlib_module_names]
                    for kind, entries in self.snapshot(*flags).items()}
                self.assertEqual({k: v for k, v in snapshot.items() if v},
                                 expected)


if __name__ == "__main__":
    unittest.main()

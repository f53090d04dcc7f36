"""python -m importlib.lazy check (contract rule 46), on seeded traps.

Each trap is a small application whose behaviour depends on an import-time
side effect of a module that -L defers and never imports: check must find
the difference, suggest excluding the module(s) behind it, and confirm the
suggestion with a third run.  The clean programs must show no difference.
"""

import json
import os
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

# name -> (files, modules the suggestion must exclude)
TRAPS = {
    "decorator registry (click-like)": ({
        "main.py": """
            import registry
            import commands.build
            import commands.serve
            print("commands:", ", ".join(sorted(registry.COMMANDS)))
        """,
        "registry.py": REGISTRY,
        "commands/__init__.py": "",
        "commands/build.py": ("import registry\n"
                              "@registry.command('build')\n"
                              "def build(): pass\n"),
        "commands/serve.py": ("import registry\n"
                              "@registry.command('serve')\n"
                              "def serve(): pass\n"),
    }, {"commands.build", "commands.serve"}),
    "atexit.register at import": ({
        "main.py": "import cleanup\nprint('working')\n",
        "cleanup.py": ("import atexit\n"
                       "def flush():\n    print('flushed')\n"
                       "atexit.register(flush)\n"),
    }, {"cleanup"}),
    "signal handler at import": ({
        "main.py": """
            import signal
            import handlers
            print(signal.getsignal(signal.SIGUSR1))
        """,
        "handlers.py": ("import signal\n"
                        "def on_usr1(signum, frame): pass\n"
                        "signal.signal(signal.SIGUSR1, on_usr1)\n"),
    }, {"handlers"}),
    "sys.excepthook at import": ({
        "main.py": "import crashreport\nraise SystemExit(main_error())\n"
                   "def main_error(): pass\n",
        "crashreport.py": ("import sys\n"
                           "def hook(*exc):\n"
                           "    print('crash report written')\n"
                           "sys.excepthook = hook\n"),
    }, {"crashreport"}),
    "logging configured at import": ({
        "main.py": """
            import logging
            import logsetup
            logging.getLogger('app').warning('disk almost full')
        """,
        "logsetup.py": ("import logging, sys\n"
                        "logging.basicConfig(stream=sys.stdout,\n"
                        "    format='[%(name)s] %(levelname)s %(message)s')\n"),
    }, {"logsetup"}),
    "warnings filter at import": ({
        "main.py": """
            import warnings
            import quiet
            warnings.warn('old API', DeprecationWarning)
            print('done')
        """,
        "quiet.py": ("import warnings\n"
                     "warnings.filterwarnings('error', category=DeprecationWarning)\n"),
    }, {"quiet"}),
    "codecs.register at import": ({
        "main.py": "import mycodec\nprint('abc'.encode('shout'))\n",
        "mycodec.py": ("import codecs\n"
                       "def search(name):\n"
                       "    if name == 'shout':\n"
                       "        enc = lambda s, e='strict': (s.upper().encode(), len(s))\n"
                       "        dec = lambda b, e='strict': (bytes(b).decode().lower(), len(b))\n"
                       "        return codecs.CodecInfo(enc, dec, name='shout')\n"
                       "codecs.register(search)\n"),
    }, {"mycodec"}),
    "copyreg at import": ({
        "main.py": """
            import pickle
            import point
            import reducers
            print(pickle.loads(pickle.dumps(point.Point(1, 2))))
        """,
        "point.py": ("class Point:\n"
                     "    def __init__(self, x, y): self.x, self.y = x, y\n"
                     "    def __repr__(self): return f'Point({self.x}, {self.y})'\n"),
        "reducers.py": ("import copyreg, point\n"
                        "def reduce(p): return (point.Point, (p.y, p.x))\n"
                        "copyreg.pickle(point.Point, reduce)\n"),
    }, {"reducers"}),
    "__init_subclass__ registry": ({
        "main.py": """
            import base
            import formats.yaml_format
            import formats.toml_format
            print(sorted(base.Format.known))
        """,
        "base.py": ("class Format:\n"
                    "    known = {}\n"
                    "    def __init_subclass__(cls, **kw):\n"
                    "        super().__init_subclass__(**kw)\n"
                    "        Format.known[cls.__name__] = cls\n"),
        "formats/__init__.py": "",
        "formats/yaml_format.py": "import base\nclass Yaml(base.Format): pass\n",
        "formats/toml_format.py": "import base\nclass Toml(base.Format): pass\n",
    }, {"formats.yaml_format", "formats.toml_format"}),
    "ABC registration at import": ({
        "main.py": """
            from collections.abc import Sized
            import storage
            import storage_abc
            print(isinstance(storage.Bucket(), Sized))
        """,
        "storage.py": "class Bucket:\n    pass\n",
        "storage_abc.py": ("from collections.abc import Sized\n"
                           "import storage\n"
                           "Sized.register(storage.Bucket)\n"),
    }, {"storage_abc"}),
    "plugin that registers itself": ({
        "main.py": """
            import hooks
            import plugins
            for plugin in hooks.PLUGINS:
                print('plugin', plugin.NAME)
        """,
        "hooks.py": "PLUGINS = []\ndef register(plugin):\n"
                    "    PLUGINS.append(plugin)\n",
        "plugins/__init__.py": "from . import spell\n",
        "plugins/spell.py": ("import sys, hooks\n"
                             "NAME = 'spell'\n"
                             "hooks.register(sys.modules[__name__])\n"),
    }, {"plugins"}),   # excluding a package makes its from-imports eager
}

CLEAN = {
    "uses what it imports": {
        "main.py": """
            import json
            import csv
            import decimal
            print(json.dumps({'a': 1}), decimal.Decimal('1.5'))
        """,
    },
    "registry filled by the code that runs": {
        "main.py": """
            import registry
            @registry.command('go')
            def go(): pass
            print(sorted(registry.COMMANDS))
        """,
        "registry.py": REGISTRY,
    },
    "side effects imported eagerly": {
        "main.py": """
            import importlib
            with importlib.eager_imports():
                import cleanup
            try:
                import optional_missing
            except ImportError:
                pass
            print('working')
        """,
        "cleanup.py": ("import atexit\n"
                       "atexit.register(print, 'flushed')\n"),
    },
}


class CheckTests(unittest.TestCase):
    maxDiff = None

    def check(self, files, *args, failure=None):
        with os_helper.temp_dir() as root:
            write_files(root, files)
            out = os.path.join(root, "check.json")
            runner = assert_python_failure if failure else assert_python_ok
            result = runner("-m", "importlib.lazy", "check", "--json", out,
                            *args, "main.py", __cwd=root, __isolated=False)
            with open(out, encoding="utf-8") as file:
                return result, json.load(file)

    def test_traps(self):
        for name, (files, expected) in TRAPS.items():
            with self.subTest(trap=name):
                result, findings = self.check(files, failure=True)
                self.assertEqual(result.rc, 1, result.out.decode())
                self.assertTrue(findings["differences"])
                self.assertTrue(findings["confirmed"], result.out.decode())
                self.assertLessEqual(expected, set(findings["excluding"]),
                                     result.out.decode())
                self.assertIn(b"confirmed: with it, -L agrees", result.out)
                self.assertIn(b"importlib.set_lazy_imports(excluding=[",
                              result.out)

    def test_effects_name_their_module_without_narrowing(self):
        # An import-time registration is traced to its module directly.
        files, expected = TRAPS["atexit.register at import"]
        result, findings = self.check(files, failure=True)
        self.assertEqual(set(findings["excluding"]), expected)
        reason = findings["excluding"]["cleanup"]
        self.assertIn("atexit handler", reason)
        self.assertIn("deferred at main.py:1", reason)
        self.assertLessEqual(findings["runs"], 3)

    def test_clean_programs(self):
        for name, files in CLEAN.items():
            with self.subTest(program=name):
                result, findings = self.check(files)
                self.assertEqual(findings["differences"], [])
                self.assertEqual(findings["excluding"], {})
                self.assertIn(b"no difference", result.out)

    def test_usage(self):
        result = assert_python_ok("-m", "importlib.lazy", "check", "--help")
        self.assertIn(b"excluding", result.out)
        result = assert_python_failure("-m", "importlib.lazy", "check")
        self.assertEqual(result.rc, 2)


if __name__ == "__main__":
    unittest.main()

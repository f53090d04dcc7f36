"""python -m importlib.lazy report (contract rules 45 and 47)."""

import json
import os
import unittest

from test.support import os_helper
from test.support.script_helper import assert_python_failure, assert_python_ok

from .util import write_files

APP = {
    "main.py": """
        import sys
        import threading
        import app.cli
        import app.unused
        from app.models import Model

        def work():
            return app.cli.run()

        thread = threading.Thread(target=work, name="worker")
        thread.start()
        thread.join()
        print("model", Model.__name__)
        sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    """,
    "app/__init__.py": "",
    "app/cli.py": """
        import app.helpers
        def run():
            return app.helpers.VALUE
    """,
    "app/helpers.py": "VALUE = 1\n",
    "app/unused.py": "print('unused ran')\n",
    "app/base.py": "class Base:\n    pass\n",
    "app/models.py": """
        import importlib
        import app.base
        try:
            import app.optional
        except ImportError:
            pass
        with importlib.eager_imports():
            import app.kept
        from app.star import *

        class Model(app.base.Base):     # used at import time
            import app.inclass

        def later():
            import app.infunction
        later()
    """,
    "app/optional.py": "",
    "app/kept.py": "",
    "app/star.py": "__all__ = []\n",
    "app/inclass.py": "",
    "app/infunction.py": "",
}


class ReportTests(unittest.TestCase):
    maxDiff = None

    def report(self, *args, files=APP, failure=False):
        with os_helper.temp_dir() as root:
            write_files(root, files)
            out = os.path.join(root, "report.json")
            runner = assert_python_failure if failure else assert_python_ok
            result = runner("-m", "importlib.lazy", "report", "--json", out,
                            *args, __cwd=root, __isolated=False)
            with open(out, encoding="utf-8") as file:
                data = json.load(file)
        return result, data

    def deferred(self, data):
        return {(r["module"], tuple(r["fromlist"] or ()), r["line"]): r
                for r in data["deferred"]
                if r["file"] and r["file"].endswith(("main.py", "cli.py",
                                                     "models.py"))}

    def test_verdicts(self):
        result, data = self.report("main.py")
        self.assertIn(b"model Model", result.out)
        self.assertNotIn(b"unused ran", result.out)
        report = result.err.decode()
        self.assertIn("Lazy imports report: main.py", report)
        self.assertRegex(report, r"\d+ imports deferred: \d+ never used, "
                                 r"\d+ used at import time, \d+ used later")
        deferred = self.deferred(data)
        unused = deferred[("app.unused", (), 5)]
        self.assertEqual(unused["verdict"], "never used")
        self.assertIn("app.unused", data["never_imported"])
        base = deferred[("app.base", (), 3)]
        self.assertEqual(base["verdict"], "used at import time")
        self.assertTrue(base["used_at"]["file"].endswith("models.py"))
        self.assertEqual(base["used_at"]["line"], 12)
        cli = deferred[("app.cli", (), 4)]
        self.assertEqual(cli["verdict"], "used later")
        self.assertEqual(cli["used_at"]["thread"], "worker")
        self.assertEqual(cli["used_at"]["function"], "work")
        self.assertGreater(cli["time_ms"], 0)
        model = deferred[("app.models", ("Model",), 6)]
        self.assertEqual(model["verdict"], "used later")
        self.assertEqual(model["used_at"]["line"], 14)

    def test_eager_reasons(self):
        result, data = self.report("main.py")
        reasons = {r["module"]: r["reason"] for r in data["loads"]
                   if r["cause"] == "eager" and r["module"].startswith("app")}
        self.assertEqual(reasons, {
            "app.optional": "try",
            "app.kept": "eager_imports()",
            "app.star": "star import",
            "app.inclass": "class body",
            "app.infunction": "function",
        })
        lazily = {r["module"] for r in data["loads"] if r["cause"] == "lazy"}
        self.assertLessEqual({"app", "app.cli", "app.helpers", "app.models",
                              "app.base"}, lazily)

    def test_exit_status_and_module(self):
        result, data = self.report("main.py", "3", failure=True)
        self.assertEqual(result.rc, 3)
        self.assertEqual(data["exit_status"], 3)
        # A function reads app: an import whose name no code of its module
        # reads runs at once (contract rule 57).
        files = dict(APP, **{"app/__main__.py": "import app.unused\n"
                                                 "print('main ran')\n\n\n"
                                                 "def _uses():\n"
                                                 "    return app\n"})
        result, data = self.report("-m", "app", files=files)
        self.assertIn(b"main ran", result.out)
        self.assertIn("app.unused", data["never_imported"])

    def test_only_the_programs_own_imports(self):
        # Contract rule 45: what the report's own machinery imports to run
        # the program (runpy, pkgutil and what they use) is not charged to
        # the program.
        files = {"main.py": "import helper\nprint(helper.VALUE)\n",
                 "helper.py": ("import os\nVALUE = 1\n\n\n"
                               "def _uses():\n    return os\n")}
        for args in (("main.py",), ("-m", "main")):
            with self.subTest(args=args):
                result, data = self.report(*args, files=files)
                self.assertEqual(result.out.strip(), b"1")
                statements = sorted(
                    (os.path.basename(r["file"] or "?"), r["line"],
                     r["module"]) for r in data["deferred"])
                self.assertEqual(statements, [("helper.py", 1, "os"),
                                              ("main.py", 1, "helper")])
                self.assertEqual([r["module"] for r in data["loads"]],
                                 ["helper"])

    def test_usage(self):
        result = assert_python_failure("-m", "importlib.lazy", "report")
        self.assertEqual(result.rc, 2)
        self.assertIn(b"a script or -m MODULE is required", result.err)
        result = assert_python_ok("-m", "importlib.lazy", "--help")
        self.assertIn(b"report", result.out)
        self.assertIn(b"check", result.out)
        self.assertIn(b"verify", result.out)

    def test_help_points_to_verify(self):
        # The step after report and check is -X lazy_imports=verify in CI.
        for command in ((), ("report",), ("check",)):
            with self.subTest(command=command):
                result = assert_python_ok("-m", "importlib.lazy", *command,
                                          "--help", COLUMNS="200")
                self.assertIn(b"python -X lazy_imports=verify", result.out)

    def test_nothing_observed_without_report(self):
        # Contract rule 47: no observer is installed unless a report is asked
        # for.
        result = assert_python_ok("-L", "-c", "import _imp; "
                                  "print(_imp._set_lazy_observer(None))")
        self.assertEqual(result.out.strip(), b"None")
        result = assert_python_failure(
            "-c", "import _imp; _imp._set_lazy_observer(42)")
        self.assertIn(b"observer must be callable or None, not int",
                      result.err)

    def test_observer_never_gets_a_lazy_object(self):
        # The observer is told the importing module's __name__; one that is
        # itself a lazy import is neither handed out nor resolved there.
        with os_helper.temp_dir() as tmp:
            write_files(tmp, {"victim.py": "",
                              "m.py": ("from victim import __name__\n"
                                       "import json\n")})
            result = assert_python_ok("-L", "-c", """if 1:
                import _imp
                seen = []
                def observer(event, key, name, fromlist, importer, *rest):
                    seen.append(type(importer).__name__)
                _imp._set_lazy_observer(observer)
                import m
                m.__dict__
                _imp._set_lazy_observer(None)
                print(sorted(set(seen)))
            """, PYTHONPATH=tmp)
        self.assertEqual(result.out.strip(), b"['NoneType', 'str']")


class OptionsPassedOnTests(unittest.TestCase):
    """report and check run the program with this interpreter's -X options
    of lazy imports."""

    # Contract rule 51 catches up pkg.curry; -X lazy_imports_heal=0 does not.
    FILES = {
        "pkg/__init__.py": "from .fill import fill\n",
        "pkg/fill.py": "import pkg\npkg.curry = 'curry'\nfill = 1\n",
        "main.py": "import pkg\nprint(getattr(pkg, 'curry', None))\n",
    }

    def run_tool(self, *args, failure=False):
        with os_helper.temp_dir() as root:
            write_files(root, self.FILES)
            runner = assert_python_failure if failure else assert_python_ok
            return runner(*args, "main.py", __cwd=root, __isolated=False)

    def test_report_passes_lazy_imports_heal_on(self):
        result = self.run_tool("-m", "importlib.lazy", "report")
        self.assertEqual(result.out.strip(), b"curry")
        result = self.run_tool("-X", "lazy_imports_heal=0",
                               "-m", "importlib.lazy", "report")
        self.assertEqual(result.out.strip(), b"None")

    def test_check_passes_lazy_imports_heal_on(self):
        result = self.run_tool("-m", "importlib.lazy", "check")
        self.assertIn(b"no difference", result.out)
        result = self.run_tool("-X", "lazy_imports_heal=0",
                               "-m", "importlib.lazy", "check", failure=True)
        self.assertIn(b"'curry' eagerly, 'None' with -L", result.out)


if __name__ == "__main__":
    unittest.main()

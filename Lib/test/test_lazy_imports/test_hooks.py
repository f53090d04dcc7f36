"""Import hooks written in Python keep working under -L (contract rule 33).

A finder, path hook or loader whose own code (or code it calls) reads a
name that is still lazy must not re-enter itself through the import that
resolves the name: eagerly the module was imported before the hook ran.
"""

import unittest

from .util import MODES, LazyImportsTestCase

# A meta path finder serving the modules "virtual_*", whose own code reads
# names its module imported lazily (fnmatch, textwrap), in finder and loader.
META_HOOK = """\
import fnmatch
import sys
import textwrap
import importlib.util

print("exec hookmod")

class Loader:
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        print("exec", module.__name__)
        module.value = textwrap.shorten("served   by the hook", 40)

class Finder:
    asked = []

    def find_spec(self, name, path, target=None):
        if not fnmatch.fnmatch(name, "virtual_*"):
            return None
        self.asked.append(name)
        return importlib.util.spec_from_loader(name, Loader())

def install():
    sys.meta_path.insert(0, Finder())
"""

# A path hook for entries ending in ".virtual" and its path entry finder,
# both reading lazily imported names.
PATH_HOOK = """\
import fnmatch
import sys
import importlib.machinery
import importlib.util
import types

print("exec pathhook")

class EntryFinder:
    def __init__(self, path):
        self.path = path

    def find_spec(self, name, target=None):
        if not fnmatch.fnmatch(name, "entry_*"):
            return None
        loader = importlib.machinery.SourcelessFileLoader
        return importlib.util.spec_from_loader(name, Loader())

class Loader:
    def create_module(self, spec):
        return types.ModuleType(spec.name)

    def exec_module(self, module):
        print("exec", module.__name__)
        module.where = "path hook"

def hook(path):
    if not fnmatch.fnmatch(path, "*.virtual"):
        raise ImportError("not mine")
    return EntryFinder(path)

def install():
    sys.path_hooks.insert(0, hook)
    sys.path.append("entries.virtual")
"""


class ImportHookTests(LazyImportsTestCase):

    def run_both(self, code, files, path=False):
        results = [self.run_code(code, lazy=lazy, files=files, path=path)
                   for lazy in MODES]
        eager, lazy = results
        # The same lines (module bodies run later under -L: each once).
        self.assertEqual(sorted(lazy.lines), sorted(eager.lines), lazy.err)
        self.assertEqual(lazy.err, eager.err)
        return lazy

    def test_meta_path_finder_reading_lazy_names(self):
        # Contract rule 33
        result = self.run_both("""
            import hookmod
            hookmod.install()
            import virtual_one
            import virtual_two
            print(virtual_one.value)
            print(virtual_two.value)
            import json
            print(json.dumps(1))
            print(hookmod.Finder.asked)
        """, files={"hookmod.py": META_HOOK})
        # The hook serves its modules, each body runs once.
        self.assertEqual(result.lines, [
            "exec hookmod",
            "exec virtual_one", "served by the hook",
            "exec virtual_two", "served by the hook",
            "1", "['virtual_one', 'virtual_two']"])

    def test_finder_in_sitecustomize(self):
        # Contract rule 33
        # The finder is installed before the program's first import.
        result = self.run_both("""
            import virtual_site
            print(virtual_site.value)
        """, files={"hookmod.py": META_HOOK,
                    "sitecustomize.py": "import hookmod\nhookmod.install()\n"},
            path=True)
        self.assertEqual(result.lines[-2:],
                         ["exec virtual_site", "served by the hook"])

    def test_path_hook_reading_lazy_names(self):
        # Contract rule 33
        result = self.run_both("""
            import pathhook
            pathhook.install()
            import entry_one
            print(entry_one.where)
            import csv
            print(csv.QUOTE_ALL)
        """, files={"pathhook.py": PATH_HOOK})
        self.assertEqual(result.lines, [
            "exec pathhook", "exec entry_one", "path hook", "1"])

    def test_skipped_hook_asked_again_afterwards(self):
        # Contract rule 33
        # The hook is skipped only for the import its own code needs: later
        # imports of the modules it serves still ask it.
        result = self.run_both("""
            import hookmod
            hookmod.install()
            import virtual_a
            print(virtual_a.value)
            import importlib
            print(importlib.import_module("virtual_b").value)
            print(hookmod.Finder.asked)
        """, files={"hookmod.py": META_HOOK})
        self.assertEqual(result.lines[-1], "['virtual_a', 'virtual_b']")

    def test_hook_that_needs_a_module_it_serves(self):
        # Contract rule 33
        # Eagerly, hookmod imports "virtual_dep" before the hook exists, so
        # the hook is not asked for it (it raises ModuleNotFoundError); lazily
        # the resolution from inside the hook skips the hook: the same.
        code = """
            import sys
            import hookmod
            hookmod.install()
            import virtual_x
            try:
                print(virtual_x.value)
            except ImportError as exc:
                print(type(exc).__name__, exc.name)
        """
        files = {"hookmod.py": META_HOOK.replace(
            "import fnmatch\n",
            "import fnmatch\ntry:\n    import virtual_dep\n"
            "except ImportError:\n    virtual_dep = None\n")}
        self.run_both(code, files)


if __name__ == "__main__":
    unittest.main()

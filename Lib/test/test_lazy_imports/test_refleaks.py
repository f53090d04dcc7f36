"""In-process reference and memory leak check of lazy imports.

The other tests of this package run their scenarios in child interpreters,
where ``regrtest -R`` cannot see a leak.  This one runs them in the test
process: each scenario is module code executed (with lazy imports switched
on by ``importlib.set_lazy_imports()``) in a fresh dict, on a module tree in
a temporary directory; afterwards the modules it imported are dropped from
``sys.modules``.  On a debug build every scenario is repeated, and
``sys.gettotalrefcount()`` and ``sys.getallocatedblocks()`` must stay flat
after a warm-up: a scenario leaks when every measured round (up to
LAZY_REFLEAK_ROUNDS) grew by at least one reference or block per run.  On a release build each scenario runs once, as a cheap
functional check.

Knobs (environment): LAZY_REFLEAK_ROUNDS (most measured rounds, default 30),
LAZY_REFLEAK_LOOPS (scenario runs per round, default 5; also the number of
runs on a release build, default 1 there), LAZY_REFLEAK_SCENARIOS (comma
separated names, default all).

Run it alone with ``python -L -m test -v test_lazy_imports.test_refleaks``
or ``python -L Lib/test/test_lazy_imports/test_refleaks.py``.
"""

import _imp
import builtins
import copy
import gc
import importlib
import os
import shutil
import sys
import tempfile
import textwrap
import types
import unittest

from test import support

PREFIX = "rlk_"

TREE = {
    "rlk_state.py": """\
        calls = 0
        """,
    "rlk_mod.py": """\
        import rlk_dep
        from rlk_pkg import other
        VALUE = 42
        def dep():
            return rlk_dep.X + other.Y
        """,
    "rlk_dep.py": """\
        X = 1
        """,
    "rlk_bad.py": """\
        raise ValueError("rlk_bad fails")
        """,
    "rlk_flaky.py": """\
        import rlk_state
        rlk_state.calls += 1
        if rlk_state.calls % 2:
            raise ImportError("rlk_flaky fails every other time")
        OK = True
        """,
    "rlk_pkg/__init__.py": """\
        VERSION = "1"
        """,
    "rlk_pkg/other.py": """\
        Y = 4
        """,
    "rlk_pkg/broken.py": """\
        import rlk_missing_inner
        rlk_missing_inner.x
        """,
    "rlk_pkg/sub/__init__.py": "",
    "rlk_pkg/sub/leaf.py": """\
        import rlk_dep
        X = rlk_dep.X + 2
        """,
    "rlk_cyc_holder.py": """\
        import rlk_cyc_target
        def get():
            return rlk_cyc_target
        """,
    "rlk_cyc_target.py": """\
        import rlk_cyc_holder
        rlk_cyc_holder.get()
        """,
}

# Module code run in a fresh dict with lazy imports on (importlib and
# is_lazy are in the dict already).
SCENARIOS = {
    "success": """\
        import rlk_mod
        import rlk_mod as alias
        assert is_lazy(globals(), "rlk_mod")
        assert rlk_mod.VALUE == 42
        assert alias.dep() == 5
        assert not is_lazy(globals(), "rlk_mod")
        """,
    "failure": """\
        import rlk_missing
        import rlk_bad
        from rlk_missing import thing
        from rlk_pkg import broken
        for attempt in range(3):
            for name in ("rlk_missing", "rlk_bad", "thing", "broken"):
                try:
                    globals()[name]
                except (ImportError, ValueError) as exc:
                    assert exc.__notes__, exc
                else:
                    raise AssertionError(name)
                assert is_lazy(globals(), name)
        """,
    "retry": """\
        import rlk_state
        rlk_state.calls = 0
        import rlk_flaky
        try:
            rlk_flaky.OK
        except ImportError:
            pass
        else:
            raise AssertionError("rlk_flaky did not fail")
        assert rlk_flaky.OK
        assert rlk_state.calls == 2
        """,
    "from": """\
        from rlk_pkg import other, VERSION
        from rlk_pkg.sub import leaf
        from rlk_pkg import rlk_no_such_name
        from rlk_pkg import sub as renamed
        assert VERSION == "1" and other.Y == 4 and leaf.X == 3
        assert renamed.leaf is leaf
        try:
            rlk_no_such_name
        except ImportError:
            pass
        else:
            raise AssertionError("rlk_no_such_name")
        """,
    "submodules": """\
        import rlk_pkg.sub.leaf
        import rlk_pkg.other
        import rlk_pkg.sub.leaf as L
        assert rlk_pkg.sub.leaf.X == 3 and rlk_pkg.other.Y == 4
        assert L is rlk_pkg.sub.leaf
        """,
    "cycle": """\
        import rlk_cyc_holder
        for attempt in range(2):
            try:
                rlk_cyc_holder.get()
            except ImportError as exc:
                assert "rlk_cyc_target" in str(exc), exc
            else:
                raise AssertionError("no cycle error")
        """,
    "excluding": """\
        importlib.set_lazy_imports(True, excluding=lambda name: name == "rlk_dep")
        import rlk_dep
        import rlk_mod
        assert not is_lazy(globals(), "rlk_dep")
        assert is_lazy(globals(), "rlk_mod")
        importlib.set_lazy_imports(True, excluding={"rlk_pkg.other"})
        from rlk_pkg import other
        import rlk_pkg.sub.leaf
        assert not is_lazy(globals(), "other")
        assert is_lazy(globals(), "rlk_pkg")
        def refuse(name):
            raise KeyError(name)
        importlib.set_lazy_imports(True, excluding=refuse)
        try:
            exec("import rlk_dep", {})
        except KeyError:
            pass
        else:
            raise AssertionError("excluding's exception was lost")
        importlib.set_lazy_imports(True)
        assert rlk_mod.dep() == 5 and rlk_pkg.sub.leaf.X == 3
        """,
    "eager_imports": """\
        with importlib.eager_imports():
            import rlk_mod
            from rlk_pkg import other
        assert not is_lazy(globals(), "rlk_mod")
        assert not is_lazy(globals(), "other")
        assert is_lazy(vars(rlk_mod), "rlk_dep")
        """,
    "toggle": """\
        importlib.set_lazy_imports(False)
        assert not importlib.is_lazy_imports_enabled()
        import rlk_mod
        assert not is_lazy(globals(), "rlk_mod")
        importlib.set_lazy_imports(True)
        assert importlib.is_lazy_imports_enabled()
        import rlk_dep
        assert is_lazy(globals(), "rlk_dep")
        importlib.set_lazy_imports(False)
        assert rlk_dep.X == 1
        importlib.set_lazy_imports(True)
        """,
    "is_lazy": """\
        import rlk_mod
        assert is_lazy(globals(), "rlk_mod")
        try:
            is_lazy(globals(), "rlk_not_there")
        except KeyError:
            pass
        else:
            raise AssertionError("no KeyError")
        rlk_mod.VALUE
        assert not is_lazy(globals(), "rlk_mod")
        """,
    "copies": """\
        import rlk_mod
        import rlk_missing
        from rlk_pkg import other
        g = globals()
        # Copying may carry the lazy objects (contract rule 21) or resolve
        # them, in which case rlk_missing fails the copy.
        copies = []
        for make in (dict.copy, dict, lambda d: d | {}, lambda d: {**d},
                     lambda d: {}.update(d) or d, copy.copy):
            try:
                copies.append(make(g))
            except ImportError:
                pass
        assert copies
        for c in copies:
            assert c["rlk_mod"].VALUE == 42
            assert type(c["other"]).__name__ == "module"
            try:
                c["rlk_missing"]
            except ImportError:
                pass
            else:
                raise AssertionError("rlk_missing")
            assert all(type(c[k]).__name__ != "lazy_import"
                       for k in list(c) if k != "rlk_missing")
        popped = copies[0]
        try:
            popped.pop("rlk_missing")
        except ImportError:
            pass
        del popped["rlk_missing"]
        while popped:
            popped.popitem()
        del c, popped, copies, g
        """,
    "rerun": """\
        # More statements than add_pending() compares a new one with, for
        # a package that is never loaded: what is kept stays bounded.
        from rlk_never import n1
        from rlk_never import n2
        from rlk_never import n3
        from rlk_never import n4
        from rlk_never import n5
        import rlk_never.s1
        import rlk_never.s2
        # Read, never called: an unread import runs at once (rule 57).
        def _never():
            return rlk_never
        """,
    "clear": """\
        # Each snippet reads its names in a function, never called: an
        # unread import runs at once (contract rule 57).
        m = types.ModuleType("rlk_clear")
        exec("import rlk_mod\\nfrom rlk_pkg import other\\n"
             "import rlk_missing\\n"
             "def uses(): return rlk_mod, other, rlk_missing\\n", m.__dict__)
        assert is_lazy(m.__dict__, "rlk_mod")
        m.__dict__.clear()
        ns = {}
        exec("import rlk_mod\\nimport rlk_pkg.sub.leaf\\n"
             "def uses(): return rlk_mod, rlk_pkg\\n", ns)
        del ns["rlk_mod"]
        ns.clear()
        exec("import rlk_mod\\nrlk_mod = 5\\ndef uses(): return rlk_mod\\n",
             ns)
        assert ns["rlk_mod"] == 5
        del m, ns
        assert "rlk_mod" not in sys.modules
        """,
}

#: Runs of each scenario before measuring.
WARMUP = 20

SCENARIO_CODE = {name: compile(textwrap.dedent(text), f"<{name}>", "exec")
                 for name, text in SCENARIOS.items()}


def purge():
    for name in [name for name in sys.modules if name.startswith(PREFIX)]:
        del sys.modules[name]


def run_scenario(name):
    ns = {"__name__": PREFIX + "main", "__builtins__": builtins,
          "importlib": importlib, "is_lazy": importlib.is_lazy_import,
          "types": types, "sys": sys, "copy": copy}
    try:
        exec(SCENARIO_CODE[name], ns)
    finally:
        ns.clear()
        importlib.set_lazy_imports(True)
        purge()


def scenarios():
    names = os.environ.get("LAZY_REFLEAK_SCENARIOS")
    return names.split(",") if names else list(SCENARIOS)


class RefleakTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="lazy_refleaks_")
        for relative, text in TREE.items():
            path = os.path.join(cls.root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as file:
                file.write(textwrap.dedent(text))
        cls.saved_path = sys.path[:]
        sys.path.insert(0, cls.root)
        importlib.invalidate_caches()
        cls.saved_state = _imp._set_lazy_imports(True, None)

    @classmethod
    def tearDownClass(cls):
        _imp._set_lazy_imports(*cls.saved_state)
        purge()
        sys.path[:] = cls.saved_path
        sys.path_importer_cache.pop(cls.root, None)
        shutil.rmtree(cls.root, ignore_errors=True)

    def test_scenarios_work(self):
        loops = int(os.environ.get("LAZY_REFLEAK_LOOPS", "1"))
        for name in scenarios():
            with self.subTest(scenario=name):
                for _ in range(loops):
                    run_scenario(name)

    @unittest.skipUnless(support.Py_DEBUG, "needs sys.gettotalrefcount()")
    def test_no_leaks(self):
        # Rounds of LOOPS runs each, until one grows by less than one
        # reference and one block per run (no leak), or ROUNDS rounds all
        # grew that much: a leak.  Caches still warming up (specialized
        # code, dict keys, module locks...) add a few references per round
        # for a hundred runs or so, decreasing; a leak adds a constant.
        rounds = int(os.environ.get("LAZY_REFLEAK_ROUNDS", "30"))
        loops = int(os.environ.get("LAZY_REFLEAK_LOOPS", "5"))
        leaks = []
        for name in scenarios():
            for _ in range(WARMUP):
                run_scenario(name)
            rc, blocks = [], []
            support.gc_collect()
            rc0, blocks0 = sys.gettotalrefcount(), sys.getallocatedblocks()
            for _ in range(rounds):
                for _ in range(loops):
                    run_scenario(name)
                support.gc_collect()
                rc1, blocks1 = (sys.gettotalrefcount(),
                                sys.getallocatedblocks())
                rc.append(rc1 - rc0)
                blocks.append(blocks1 - blocks0)
                rc0, blocks0 = rc1, blocks1
                if rc[-1] < loops and blocks[-1] < loops:
                    break
            else:
                leaks.append(f"{name}: references {rc}, blocks {blocks} "
                             f"(per {loops} runs)")
            if support.verbose:
                print(f"  {name:15} references {rc}  blocks {blocks}")
        self.assertEqual(leaks, [], "lazy import scenarios leak")


if __name__ == "__main__":
    unittest.main()

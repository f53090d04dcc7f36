"""SPEC section 3: binding and resolution (rules 12-18)."""

import textwrap

import pytest

TARGET = {"target.py": """
    print("exec", __name__)
    value = 42
"""}

#: Enough calls for the specializing interpreter to specialize a function.
WARMUP = 1000

PACKAGE = {
    "pkg/__init__.py": ('print("exec", __name__)\n'
                        'attr = "attr"\nother = "other"\n'),
    "pkg/b.py": 'print("exec", __name__)\nvalue = "b"',
    "pkg/c.py": 'print("exec", __name__)\nvalue = "c"',
    "pkg/sub/__init__.py": 'print("exec", __name__)',
    "pkg/sub/leaf.py": 'print("exec", __name__)\nvalue = "leaf"',
}


# Rule 12 --------------------------------------------------------------------

@pytest.mark.parametrize("statement, name, module", [
    ("import target", "target", "target"),
    ("import target as alias", "alias", "target"),
    ("from target import value", "value", "target"),
    ("import pkg.sub.leaf", "pkg", "pkg"),
])
def test_r12_lazy_import_binds_without_importing(tree, lazy, statement, name,
                                                module):
    tree.write(TARGET).write(PACKAGE).write({"main.py": f"""
        import importlib, sys
        audited = []
        sys.addaudithook(
            lambda event, args: audited.append(args[0])
            if event == "import" and args[0] in ("target", "pkg") else None)
        {statement}
        print({name!r} in globals(),
              importlib.is_lazy_import(globals(), {name!r}))
        print(sorted(m for m in sys.modules
                     if m.startswith(("target", "pkg"))))
        print(audited)
    """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["True True", "[]", "[]"]
    else:
        assert result.executed[0] == module
        assert result.output[0] == "True False"
        assert eval(result.output[2]) == [module]


def test_r12_import_of_loaded_module_is_still_lazy(tree):
    tree.write(TARGET).write({"main.py": """
        import importlib, sys
        import target
        target.value
        namespace = {}
        exec("import target as again", namespace)
        print(importlib.is_lazy_import(namespace, "again"))
        print(namespace["again"] is sys.modules["target"])
    """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["exec target", "True", "True"]


def test_r12_audit_event_fires_on_resolution(tree):
    tree.write(TARGET).write({"main.py": """
        import sys
        audited = []
        sys.addaudithook(
            lambda event, args: audited.append(args[0])
            if event == "import" and args[0] == "target" else None)
        import target
        print(audited)
        target.value
        print(audited)
    """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["[]", "exec target", "['target']"]


# Rule 13 --------------------------------------------------------------------

def test_r13_from_import_submodules_are_independent(tree, lazy):
    tree.write(PACKAGE).write({"main.py": """
        import importlib, sys
        from pkg import b, c
        print("bound")
        print(b.value)
        print("pkg.c" in sys.modules, importlib.is_lazy_import(globals(), "c"))
        print(c.value)
    """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["bound", "exec pkg", "exec pkg.b", "b",
                                "False True", "exec pkg.c", "c"]
    else:
        assert result.lines == ["exec pkg", "exec pkg.b", "exec pkg.c",
                                "bound", "b", "True False", "c"]


def test_r13_from_import_attributes_are_independent(tree, lazy):
    tree.write(PACKAGE).write({"main.py": """
        import importlib
        from pkg import attr, other
        print(attr)
        print(importlib.is_lazy_import(globals(), "other"))
        print(other)
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["exec pkg", "attr", str(lazy), "other"]


# Rule 14 --------------------------------------------------------------------

def test_r14_dotted_import_binds_top_package(tree, lazy):
    tree.write(PACKAGE).write({"main.py": """
        import sys
        import pkg.sub.leaf
        print([name in globals() for name in ("pkg", "sub", "leaf")])
        print("pkg.sub.leaf" in sys.modules)
        print(pkg.sub.leaf.value)
    """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["[True, False, False]", "False", "exec pkg",
                                "exec pkg.sub", "exec pkg.sub.leaf", "leaf"]
    else:
        assert result.lines == ["exec pkg", "exec pkg.sub",
                                "exec pkg.sub.leaf", "[True, False, False]",
                                "True", "leaf"]


def test_r14_dotted_import_as_binds_the_submodule(tree, lazy):
    tree.write(PACKAGE).write({"main.py": """
        import sys
        import pkg.sub.leaf as leaf
        print("pkg" in globals())
        print(leaf is sys.modules["pkg.sub.leaf"], leaf.value)
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.output == ["False", "True leaf"]
    assert result.executed == ["pkg", "pkg.sub", "pkg.sub.leaf"]


def test_r14_sibling_submodules_both_reachable(tree, lazy):
    tree.write(PACKAGE).write({"main.py": """
        import sys
        import pkg.b
        import pkg.c
        print("bound")
        print(pkg.b.value)
        print("pkg.c" in sys.modules)
        print(pkg.c.value)
    """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["bound", "exec pkg", "exec pkg.b", "b",
                                "False", "exec pkg.c", "c"]
    else:
        assert result.lines == ["exec pkg", "exec pkg.b", "exec pkg.c",
                                "bound", "b", "True", "c"]


def test_r14_submodules_imported_from_several_modules(tree, lazy):
    """import a.b in one module and import a.c in another both work."""
    tree.write(PACKAGE).write({
        "one.py": "import pkg.b\ndef get():\n    return pkg.b.value",
        "two.py": "import pkg.c\ndef get():\n    return pkg.c.value",
        "main.py": """
            import one, two
            print(two.get(), one.get())
        """})
    result = tree.run(lazy=lazy).ok()
    assert result.output == ["c b"]
    assert sorted(result.executed) == ["pkg", "pkg.b", "pkg.c"]


VERSION_PACKAGES = {
    "requests-style": {
        "vpkg/__init__.py": """
            print("exec", __name__)
            from .__version__ import __version__
        """,
        "vpkg/__version__.py": 'print("exec", __name__)\n__version__ = "1.0"',
    },
    "shadowing": {
        "vpkg/__init__.py": """
            print("exec", __name__)
            from . import __version__ as _version_module
            __version__ = "1.0"
            def version_module():
                return _version_module.__name__
        """,
        "vpkg/__version__.py": 'print("exec", __name__)',
    },
}


@pytest.mark.parametrize("layout", VERSION_PACKAGES)
@pytest.mark.parametrize("use", [
    "vpkg.__version__",
    "getattr(vpkg, '__version__')",
    "__import__('vpkg.__version__', fromlist=['x']).__name__",
    "(vpkg.version_module() if hasattr(vpkg, 'version_module') else '')"
    " + vpkg.__version__",
])
def test_r14_package_attribute_not_clobbered(tree, lazy, layout, use):
    """A package's own attribute wins over a same-named submodule."""
    tree.write(VERSION_PACKAGES[layout]).write({"main.py": f"""
        import vpkg
        import vpkg.__version__
        import vpkg.__version__ as as_imported
        from vpkg import __version__ as from_imported
        print({use})
        print(vpkg.__version__, as_imported, from_imported, vpkg.__version__)
    """})
    result = tree.run(lazy=lazy).ok()
    expected_use = {
        "vpkg.__version__": "1.0",
        "getattr(vpkg, '__version__')": "1.0",
        "__import__('vpkg.__version__', fromlist=['x']).__name__":
            "vpkg.__version__",
    }.get(use, "vpkg.__version__1.0" if layout == "shadowing" else "1.0")
    assert result.output == [expected_use, "1.0 1.0 1.0 1.0"]


def test_r14_package_binding_a_submodule_name(tree, lazy):
    """The scenario packages/same_name.py: gamma/__init__.py runs `from
    gamma.a import a` (gamma/a/a.py exists), so gamma.a is gamma.a.a."""
    result = tree.scenario("packages").run("same_name.py", lazy=lazy).ok()
    assert result.output == ["gamma.a.a", "gamma.a.a gamma.a.a", "gamma.a.a"]
    assert result.executed == ["gamma", "gamma.a", "gamma.a.a"]


def test_r14_submodule_resolved_while_package_initializes(tree, lazy):
    """The scenario packages/resolve_early.py: `from early import b`, where
    early's body imports early.a, which resolves its lazy `import early.b
    as b_module` at once."""
    result = tree.scenario("packages").run("resolve_early.py",
                                           lazy=lazy).ok()
    assert result.lines == ["exec early", "exec early.a", "exec early.b",
                            "early.b b"]


def test_r14_attribute_set_after_own_lazy_import(tree, lazy):
    """The scenario packages/set_after_import.py: setter/__init__.py sets
    `a = 100` after its (lazy) `import setter.a.b`, which it resolves later;
    the submodule setter.a never replaces the 100."""
    result = tree.scenario("packages").run("set_after_import.py",
                                           lazy=lazy).ok()
    assert result.output == ["100"]


# Rule 15 --------------------------------------------------------------------

def test_r15_first_use_replaces_the_lazy_object(tree, lazy):
    tree.write(TARGET).write({"main.py": """
        import importlib, sys
        import target
        print(target.value, target.value)
        print(importlib.is_lazy_import(globals(), "target"))
        print(globals()["target"] is sys.modules["target"])
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["exec target", "42 42", "False", "True"]


SPECIALIZED_READS = {
    # A function specialized on a dict, then a lazy object stored into an
    # existing key of that dict, then the function called again.
    "LOAD_GLOBAL_MODULE": """
        target = None
        def get():
            return target
        for _ in range(WARMUP):
            get()
        import target
    """,
    "LOAD_GLOBAL_BUILTIN": """
        import builtins
        builtins.lazy_target = None
        def get():
            return lazy_target
        for _ in range(WARMUP):
            get()
        exec("import target as lazy_target", vars(builtins))
    """,
    "LOAD_ATTR_MODULE": """
        import holder
        def get():
            return holder.target
        for _ in range(WARMUP):
            get()
        holder.load()
    """,
}


@pytest.mark.parametrize("form", SPECIALIZED_READS)
def test_r15_specialized_reads_resolve(tree, lazy, form):
    tree.write(TARGET).write({
        "holder.py": """
            target = None
            def load():
                exec("import target", globals())
        """,
        "main.py": (f"WARMUP = {WARMUP}\n"
                    + textwrap.dedent(SPECIALIZED_READS[form]).lstrip()
                    + "print('bound')\nprint(get().value)\n"
                      "print(get().value)\n")})
    result = tree.run(lazy=lazy).ok()
    order = ["bound", "exec target"] if lazy else ["exec target", "bound"]
    assert result.lines == order + ["42", "42"]


def test_r15_specialized_read_with_hint_resolves(tree, lazy):
    """The scenario deferred/with_hint.py: LOAD_ATTR_WITH_HINT specialized
    on an instance dict, which then gets a lazy import (used as exec
    globals)."""
    result = tree.scenario("deferred").run("with_hint.py", lazy=lazy).ok()
    order = ["bound", "exec target"] if lazy else ["exec target", "bound"]
    assert result.lines == order + ["42 42"]


@pytest.mark.parametrize("access", [
    "holder.target",
    "getattr(holder, 'target')",
    "hasattr(holder, 'target') and vars(holder)['target']",
    "other.target",
    "importlib.import_module('holder').target",
])
def test_r15_reads_from_other_modules_resolve(tree, lazy, access):
    tree.write(TARGET).write({
        "holder.py": "import target",
        "other.py": """
            try:  # eager: reads holder.target now
                from holder import target
            finally:
                pass
        """,
        "main.py": f"""
            import importlib, sys
            import holder, other
            print("bound")
            obtained = {access}
            print(obtained is sys.modules["target"])
            print(importlib.is_lazy_import(vars(holder), "target"))
        """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["bound", "exec target", "True", "False"]
    else:
        assert result.lines == ["exec target", "bound", "True", "False"]


def test_r15_resolves_with_the_importing_module_globals(tree, lazy):
    """Relative imports resolve against the module that wrote them."""
    tree.write({
        "sibling.py": 'print("exec", __name__)',
        "pkg/__init__.py": "",
        "pkg/sibling.py": 'print("exec", __name__)',
        "pkg/mod.py": ("from . import sibling\n"
                       "from .sibling import __name__ as sibling_name\n"),
        "main.py": """
            import pkg.mod
            print(pkg.mod.sibling.__name__, pkg.mod.sibling_name)
        """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["exec pkg.sibling", "pkg.sibling pkg.sibling"]


def test_r15_resolved_access_is_specialized_like_eager(tree):
    """After resolution the specializer treats the name as an eager one."""
    tree.write(TARGET).write({"main.py": f"""
        import dis
        import target
        def get():
            return target.value
        for _ in range({WARMUP}):
            get()
        print([instruction.opname
               for instruction in dis.get_instructions(get, adaptive=True)])
    """})
    eager, lazy = tree.run_both()
    assert lazy.ok().output == eager.ok().output
    opnames = eval(eager.output[0])
    assert "LOAD_GLOBAL_MODULE" in opnames and "LOAD_ATTR_MODULE" in opnames


# Rule 16 --------------------------------------------------------------------

def test_r16_replaced_builtins_import_is_honoured(tree):
    tree.write(TARGET).write({"main.py": """
        import builtins
        original_import = builtins.__import__
        calls = []

        def tracing_import(name, globals=None, *args, **kwargs):
            calls.append((name, (globals or {}).get("__name__")))
            return original_import(name, globals, *args, **kwargs)

        import target
        builtins.__import__ = tracing_import
        target.value
        builtins.__import__ = original_import
        print([call for call in calls if call[0] == "target"])
    """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["exec target", "[('target', '__main__')]"]


def test_r16_replaced_import_sees_what_eager_code_calls(tree):
    """The scenario packages/traced.py: resolution calls the replaced
    __import__ as the eager statements do (same names, fromlist and level)
    and makes no other call for the importing module."""
    eager, lazy = tree.scenario("packages").run_both("traced.py")
    assert eager.ok().output[0] == "bound"
    assert lazy.ok().output[0] == "bound"
    assert sorted(lazy.output[1:]) == sorted(eager.output[1:])


def test_r16_builtins_of_the_importing_module(tree, lazy):
    """A module with its own builtins resolves with its own __import__."""
    tree.write(TARGET).write({"main.py": """
        import builtins
        calls = []

        def tagging_import(name, *args, **kwargs):
            if name == "target":
                calls.append(name)
            return builtins.__import__(name, *args, **kwargs)

        own_builtins = dict(vars(builtins), __import__=tagging_import)
        namespace = {"__builtins__": own_builtins}
        exec("import target", namespace)
        print("bound", calls)
        namespace["target"].value
        print(calls)
    """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["bound []", "exec target", "['target']"]
    else:
        assert result.lines == ["exec target", "bound ['target']",
                                "['target']"]


# Rule 17 --------------------------------------------------------------------

@pytest.mark.parametrize("statement", [
    "del target",
    "target = 1",
    "globals()['target'] = 1",
    "del globals()['target']",
    "globals().update(target=1)",
    "import other as target",
    "holder.target = 1",
    "del holder.target",
    "setattr(holder, 'target', 1)",
    "delattr(holder, 'target')",
    "vars(holder).clear()",
])
def test_r17_delete_or_rebind_does_not_import(tree, statement):
    tree.write(TARGET).write({
        "holder.py": "import target",
        "other.py": 'print("exec", __name__)',
        "main.py": f"""
            import sys
            import target
            import holder
            holder.__name__
            {statement}
            print("target" in sys.modules)
        """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["False"]


# Rule 18 --------------------------------------------------------------------

def test_r18_module_getattr_is_honoured(tree, lazy):
    tree.write({
        "dyn/__init__.py": """
            print("exec", __name__)
            def __getattr__(name):
                if name == "computed":
                    return "from __getattr__"
                raise AttributeError(name)
        """,
        "dyn/computed.py": 'print("exec", __name__)',
        "main.py": """
            import sys
            from dyn import computed
            print("bound")
            print(computed)
            print("dyn.computed" in sys.modules)
        """})
    result = tree.run(lazy=lazy).ok()
    order = ["bound", "exec dyn"] if lazy else ["exec dyn", "bound"]
    assert result.lines == order + ["from __getattr__", "False"]


def test_r18_module_getattr_error_propagates(tree, lazy):
    tree.write({
        "dyn/__init__.py": """
            def __getattr__(name):
                raise AttributeError(f"no {name} here")
        """,
        "main.py": """
            try:
                exec("from dyn import missing\\nmissing", {})
            except ImportError as exc:
                print(type(exc).__name__, exc.name)
        """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["ImportError dyn"]


def test_r14_r37_submodule_imported_as_side_effect_of_a_registered_one(
        tree, lazy):
    """`import pkg.a`, where pkg.a imports pkg.b: eagerly pkg.b is then an
    attribute of pkg, and code may read it without importing it.  Lazily,
    pkg.a has not run, and a failed lookup imports at most the submodule of
    that name that a lazy import registered (rule 37): none here.  The
    guide lists the difference with its fix (rule 42)."""
    tree.write({
        "pkg/__init__.py": "",
        "pkg/a.py": 'print("exec", __name__)\nfrom pkg.b import X\nY = X',
        "pkg/b.py": 'print("exec", __name__)\nX = "x"',
        "main.py": """
            import pkg.a
            import pkg
            print("bound")
            print(pkg.b.X)
        """})
    result = tree.run(lazy=lazy)
    if lazy:
        assert result.lines == ["bound"]
        assert ("AttributeError: module 'pkg' has no attribute 'b'"
                in result.stderr)
    else:
        assert result.ok().lines == ["exec pkg.a", "exec pkg.b", "bound",
                                     "x"]


def test_r14_package_sees_its_own_submodule_name(tree, lazy):
    """`from ._api import X` in a package binds `_api` there too, as the
    eager import does (pip's vendored truststore then runs `del _api`)."""
    tree.write({
        "pkg/__init__.py": "from ._api import X\ndel _api\nY = X",
        "pkg/_api.py": 'print("exec", __name__)\nX = 1',
        "main.py": "import pkg\nprint(pkg.Y)",
    })
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["exec pkg._api", "1"]

"""SPEC section 2: which imports are lazy (rules 8-11).

Each scenario imports ``target`` (whose body prints ``exec target``) and then
prints ``bound``: the order of the two lines tells whether the import ran
when the statement executed (eager) or was deferred (lazy).
"""

import textwrap

import pytest

TARGET = {"target.py": """
    print("exec", __name__)
    value = 42
"""}

EAGER_ORDER = ["exec target", "bound"]
LAZY_ORDER = ["bound", "exec target"]


def indent(code, prefix="    "):
    return textwrap.indent(textwrap.dedent(code), prefix)


# Rule 8 ---------------------------------------------------------------------

MODULE_LEVEL_BLOCKS = {
    "plain": "{import_}",
    "if": "if True:\n    {import_}",
    "if-else": "if False:\n    pass\nelse:\n    {import_}",
    "elif": "if False:\n    pass\nelif True:\n    {import_}",
    "for": "for _ in range(1):\n    {import_}",
    "for-else": "for _ in ():\n    pass\nelse:\n    {import_}",
    "while": "while True:\n    {import_}\n    break",
    "while-else": "while False:\n    pass\nelse:\n    {import_}",
    "match": "match 1:\n    case 1:\n        {import_}",
    "nested": ("if True:\n    for _ in [0]:\n        while True:\n"
               "            {import_}\n            break"),
}

IMPORT_FORMS = {
    "import": ("import target", "target.value"),
    "import-as": ("import target as alias", "alias.value"),
    "from-import": ("from target import value", "value"),
    "from-import-as": ("from target import value as alias", "alias"),
}


@pytest.mark.parametrize("form", IMPORT_FORMS)
@pytest.mark.parametrize("block", MODULE_LEVEL_BLOCKS)
def test_r8_module_level_blocks_are_lazy(tree, lazy, block, form):
    import_, use = IMPORT_FORMS[form]
    code = MODULE_LEVEL_BLOCKS[block].format(import_=import_)
    tree.write(TARGET).write({"main.py": f"{code}\nprint('bound')\n"
                                         f"print({use})\n"})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == (LAZY_ORDER if lazy else EAGER_ORDER) + ["42"]


SCRIPT = """
    import target
    print("bound")
    print(target.value)
"""


@pytest.mark.parametrize("how", ["script", "-c", "-m module", "-m package"])
def test_r8_main_code_is_module_level(tree, lazy, how):
    tree.write(TARGET).write({"main.py": SCRIPT, "runner.py": SCRIPT,
                              "package/__init__.py": "",
                              "package/__main__.py": SCRIPT})
    args = {"script": ["main.py"],
            "-c": ["-c", textwrap.dedent(SCRIPT)],
            "-m module": ["-m", "runner"],
            "-m package": ["-m", "package"]}[how]
    result = tree.run(*args, lazy=lazy).ok()
    assert result.lines == (LAZY_ORDER if lazy else EAGER_ORDER) + ["42"]


def test_r8_imported_module_body_is_module_level(tree, lazy):
    tree.write(TARGET).write({
        "holder.py": """
            print("exec", __name__)
            import target
            print("bound")
            def get():
                return target.value
        """,
        "main.py": """
            import holder
            print(holder.get())
        """})
    result = tree.run(lazy=lazy).ok()
    order = LAZY_ORDER if lazy else EAGER_ORDER
    assert result.lines == ["exec holder", *order, "42"]


@pytest.mark.parametrize("caller", ["module", "function"])
def test_r8_exec_with_dict_globals_is_module_level(tree, lazy, caller):
    """exec() of module code with a dict as globals, wherever it is called."""
    statements = """
        namespace = {}
        exec("import target\\nprint('bound')", namespace)
        print(namespace["target"].value)
    """
    if caller == "module":
        main = statements
    else:
        main = f"def run():\n{indent(statements)}\nrun()\n"
    tree.write(TARGET).write({"main.py": main})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == (LAZY_ORDER if lazy else EAGER_ORDER) + ["42"]


# Rule 9 ---------------------------------------------------------------------

ALWAYS_EAGER = {
    "try-body": """
        try:
            import target
        except ImportError:
            raise
    """,
    "try-except": """
        try:
            raise ValueError
        except ValueError:
            import target
    """,
    "try-else": """
        try:
            pass
        except ValueError:
            pass
        else:
            import target
    """,
    "try-finally": """
        try:
            pass
        finally:
            import target
    """,
    "try-except-star": """
        try:
            raise ExceptionGroup("group", [ValueError()])
        except* ValueError:
            import target
    """,
    "if-inside-try": """
        try:
            if True:
                for _ in [0]:
                    import target
        finally:
            pass
    """,
    "try-inside-if": """
        if True:
            try:
                import target
            finally:
                pass
    """,
    "with": """
        import contextlib
        with contextlib.nullcontext():
            import target
    """,
    "if-inside-with": """
        import contextlib
        with contextlib.nullcontext():
            if True:
                import target
    """,
    "async-with": """
        import ast, asyncio, contextlib
        code = compile(
            "async with contextlib.AsyncExitStack():\\n"
            "    import target\\n",
            "<top-level await>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        asyncio.run(eval(code, {"contextlib": contextlib}))
    """,
    "star": "from target import *",
    "function": """
        def load():
            import target
        load()
    """,
    "function-from": """
        def load():
            from target import value
        load()
    """,
    "class": """
        class Loader:
            import target
    """,
    "dunder-import": "__import__('target')",
    "import-module": """
        import importlib
        importlib.import_module("target")
    """,
    "import-module-in-if": """
        import importlib
        if True:
            importlib.import_module("target")
    """,
}


@pytest.mark.parametrize("case", ALWAYS_EAGER)
def test_r9_always_eager(tree, lazy, case):
    code = textwrap.dedent(ALWAYS_EAGER[case]).strip() + "\nprint('bound')\n"
    tree.write(TARGET).write({"main.py": code})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == EAGER_ORDER


def test_r9_future_import_is_eager(tree, lazy):
    tree.write({"main.py": """
        from __future__ import annotations
        import importlib
        print(importlib.is_lazy_import(globals(), "annotations"))
        def function(argument: undefined_name): pass
        print(function.__annotations__)
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["False", "{'argument': 'undefined_name'}"]


def test_r9_module_level_import_after_try_is_lazy(tree):
    """Only the statements inside the try are eager."""
    tree.write(TARGET).write({
        "early.py": 'print("exec", __name__)',
        "main.py": """
            try:
                import early
            except ImportError:
                raise
            import target
            print("bound")
            target.value
        """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["exec early", *LAZY_ORDER]


def test_r9_exec_with_separate_locals_is_eager(tree):
    """exec() with locals other than its globals runs like a class body
    (site's .pth import lines are run so): eager; with one dict, lazy."""
    tree.write(TARGET).write({"main.py": """
        import sys
        def run_pth_line():
            exec("import target")      # a function's locals: eager
        run_pth_line()
        print("after function", "target" in sys.modules)
        del sys.modules["target"]
        namespace, local = {}, {}
        exec("import target", namespace, local)
        print("after two namespaces", "target" in sys.modules)
        del sys.modules["target"]
        namespace = {}
        exec("import target", namespace)
        print("after one namespace", "target" in sys.modules)
    """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["exec target", "after function True",
                            "exec target", "after two namespaces True",
                            "after one namespace False"]


def test_r9_star_import_sees_registered_submodules(tree, lazy):
    """`from pkg import *` (no __all__) imports pkg eagerly and sees the
    submodules that pkg's own `import pkg.sub` binds; under -L they stay
    lazy in the importing module (rule 21)."""
    tree.write({
        "pkg/__init__.py": "import pkg.sub\nvalue = 1",
        "pkg/sub.py": 'print("exec", __name__)',
        "main.py": """
            from pkg import *
            print(sorted(name for name in dir() if not name.startswith("_")))
            sub
        """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["['pkg', 'sub', 'value']", "exec pkg.sub"]
    else:
        assert result.lines == ["exec pkg.sub", "['pkg', 'sub', 'value']"]


# Rule 10 --------------------------------------------------------------------

def test_r10_eager_imports_is_lexical(tree, lazy):
    tree.write({
        "outer.py": """
            print("exec", __name__)
            import inner
            def get():
                return inner.value
        """,
        "inner.py": 'print("exec", __name__)\nvalue = 1',
        "dynamic.py": 'print("exec", __name__)',
        "later.py": 'print("exec", __name__)',
        "main.py": """
            import importlib
            namespace = {}
            with importlib.eager_imports():
                import outer
                exec("import dynamic", namespace)
            print("after with")
            import later
            print("bound")
            outer.get()
            later, namespace["dynamic"]
        """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["exec outer", "after with", "bound",
                                "exec inner", "exec later", "exec dynamic"]
    else:
        assert result.lines == ["exec outer", "exec inner", "exec dynamic",
                                "after with", "exec later", "bound"]


def test_r10_eager_imports_does_not_change_the_state(tree, lazy):
    result = tree.run_code("""
        import importlib
        with importlib.eager_imports():
            inside = importlib.is_lazy_imports_enabled()
        print(inside, importlib.is_lazy_imports_enabled())
    """, lazy=lazy).ok()
    assert result.lines == [f"{lazy} {lazy}"]


# Rule 11 --------------------------------------------------------------------

EXCLUDING_TREE = {
    "foo.py": """
        print("exec", __name__)
        import foo_dep
        def get():
            return foo_dep.value
    """,
    "foo_dep.py": 'print("exec", __name__)\nvalue = 1',
    "bar/__init__.py": 'print("exec", __name__)',
    "bar/baz.py": """
        print("exec", __name__)
        import baz_dep
        x = 2
        def get():
            return baz_dep.value
    """,
    "baz_dep.py": 'print("exec", __name__)\nvalue = 3',
    "bar/qux.py": 'print("exec", __name__)',
}

EXCLUDING_CASES = {
    # statement: the module bodies it runs before "bound".
    "import foo": ["foo"],
    "import foo as renamed": ["foo"],
    "from foo import get": ["foo"],
    "import bar.baz": ["bar", "bar.baz"],
    "import bar.baz as renamed": ["bar", "bar.baz"],
    "from bar.baz import x": ["bar", "bar.baz"],
    "from bar import baz": ["bar", "bar.baz"],
    "import bar": [],
    "import bar.qux": [],
    "from bar import qux": [],
    "import foo_dep": [],
}


@pytest.mark.parametrize("statement", EXCLUDING_CASES)
def test_r11_excluding_names_modules(tree, statement):
    tree.write(EXCLUDING_TREE).write({"main.py": f"""
        import importlib
        importlib.set_lazy_imports(excluding=["foo", "bar.baz"])
        {statement}
        print("bound")
    """})
    result = tree.run().ok()
    expected = [f"exec {name}" for name in EXCLUDING_CASES[statement]]
    assert result.lines == expected + ["bound"]


@pytest.mark.parametrize("module, dependency, value",
                         [("foo", "foo_dep", 1), ("bar.baz", "baz_dep", 3)])
def test_r11_imports_inside_excluded_modules_stay_lazy(tree, module,
                                                       dependency, value):
    tree.write(EXCLUDING_TREE).write({"main.py": f"""
        import importlib
        importlib.set_lazy_imports(excluding=["foo", "bar.baz"])
        import {module}
        print("bound")
        print({module}.get())
    """})
    result = tree.run().ok()
    eager = [f"exec {name}" for name in EXCLUDING_CASES[f"import {module}"]]
    assert result.lines == [*eager, "bound", f"exec {dependency}", str(value)]


@pytest.mark.parametrize("excluding", [[], ["rel.sub"]])
@pytest.mark.parametrize("statement", ["from . import sub",
                                       "from .sub import value",
                                       "from .sub import value as renamed"])
def test_r11_relative_imports_match_absolute_names(tree, statement,
                                                   excluding):
    tree.write({
        "rel/__init__.py": f"""
            print("exec", __name__)
            {statement}
            print("bound")
        """,
        "rel/sub.py": 'print("exec", __name__)\nvalue = 1',
        "main.py": f"""
            import importlib
            importlib.set_lazy_imports(excluding={excluding!r})
            import rel
            rel.__name__
        """})
    result = tree.run().ok()
    if excluding:
        assert result.lines == ["exec rel", "exec rel.sub", "bound"]
    else:
        assert result.lines == ["exec rel", "bound"]


EXCLUDING_CONTAINERS = {
    "list": '["foo"]',
    "tuple": '("foo",)',
    "set": '{"foo"}',
    "frozenset": 'frozenset({"foo"})',
    "dict-keys": '{"foo": None}.keys()',
    "custom": 'type("Only", (), {"__contains__": '
              'lambda self, name: name == "foo"})()',
    "callable": 'lambda name: name == "foo"',
}


@pytest.mark.parametrize("kind", EXCLUDING_CONTAINERS)
def test_r11_excluding_any_container_or_callable(tree, kind):
    tree.write(EXCLUDING_TREE).write({"main.py": f"""
        import importlib
        importlib.set_lazy_imports(excluding={EXCLUDING_CONTAINERS[kind]})
        import foo
        import bar
        print("bound")
        bar
    """})
    result = tree.run().ok()
    assert result.lines == ["exec foo", "bound", "exec bar"]


def test_r11_callable_receives_absolute_names(tree):
    tree.write({
        "rel/__init__.py": """
            print("exec", __name__)
            from . import sub
            from .sub import value
        """,
        "rel/sub.py": 'print("exec", __name__)\nvalue = 1',
        "main.py": """
            import importlib
            seen = set()
            def never(name):
                seen.add(name)
                return False
            importlib.set_lazy_imports(excluding=never)
            import rel
            rel.__name__
            print(sorted(seen))
        """})
    result = tree.run().ok()
    seen = eval(result.lines[-1])
    assert result.executed == ["rel"]
    assert {"rel", "rel.sub"} <= set(seen), seen
    assert not any(name.startswith(".") or name == "sub" for name in seen)


@pytest.mark.parametrize("kind", ["callable", "container"])
def test_r11_exception_from_excluding_propagates(tree, kind):
    excluding = {
        "callable": "lambda name: 1 / 0",
        "container": 'type("Broken", (), {"__contains__": '
                     'lambda self, name: 1 / 0})()',
    }[kind]
    tree.write(EXCLUDING_TREE).write({"main.py": f"""
        import importlib
        importlib.set_lazy_imports(excluding={excluding})
        print("enabled")
        import foo
        print("not reached")
    """})
    result = tree.run().failed()
    assert result.lines == ["enabled"]
    assert result.stderr.splitlines()[-1].startswith("ZeroDivisionError"), (
        result.stderr)
    assert 'main.py", line 4' in result.stderr


# Rules 8-10 at the bytecode level --------------------------------------------

IMPORT_FLAGS = """
import dis, sys
def imports(code):
    # IMPORT_NAME_LAZY marks an import that may be lazy; dis shows it as
    # IMPORT_NAME with the stock oparg unless adaptive=True.
    shown = [(i.arg, i.argval) for i in dis.get_instructions(code)
             if i.opname == "IMPORT_NAME"]
    assert all(code.co_names[arg] == val for arg, val in shown), shown
    yield from ((i.argval or ".", i.opname == "IMPORT_NAME_LAZY",
                 (i.arg, i.argval) in shown)
                for i in dis.get_instructions(code, adaptive=True)
                if i.opname.startswith("IMPORT_NAME"))
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            yield from imports(const)
with open(sys.argv[1], encoding="utf-8") as file:
    print(sorted(imports(compile(file.read(), sys.argv[1], "exec"))))
"""


def test_r8_r9_r10_compiler_marks_only_eligible_imports(tree):
    """The scenario contexts/compiled.py, compiled: an import that may be
    lazy is IMPORT_NAME_LAZY (dis shows IMPORT_NAME with the stock oparg),
    and only those: try, with, star, function, class bodies are eager."""
    tree.scenario("contexts").write({"flags.py": IMPORT_FLAGS})
    result = tree.run("flags.py", "compiled.py").ok()
    found = {name: (bit, shown) for name, bit, shown in eval(result.stdout)}
    assert len(found) == 22, found
    marked = {name for name, (bit, _) in found.items() if bit}
    shown = {name for name, (_, shown) in found.items() if shown}
    expected = {name for name in found if name.startswith("lazy")}
    assert marked == expected | {"."}     # from . import lazy4
    assert shown == set(found)            # all shown as stock IMPORT_NAME


def test_r9_future_import_is_not_marked(tree):
    tree.write({"flags.py": IMPORT_FLAGS,
                "future.py": "from __future__ import annotations\nimport a\n"})
    result = tree.run("flags.py", "future.py").ok()
    assert eval(result.stdout) == [("__future__", False, True),
                                   ("a", True, True)]

"""Which imports are lazy (contract rules 8-11).

Most scenarios import ``target`` (whose body prints ``exec target``) and
then print ``bound``: the order of the two lines tells whether the import
ran when the statement executed (eager) or was deferred (lazy).
"""

import dis
import os
import textwrap
import unittest

from .util import DATA_DIR, MODES, LazyImportsTestCase

EAGER_ORDER = ["exec target", "bound"]
LAZY_ORDER = ["bound", "exec target"]

TARGET = {"target.py": 'print("exec", __name__)\nvalue = 42\n'}

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

SCRIPT = """
import target
print("bound")
print(target.value)
"""


class ModuleLevelTests(LazyImportsTestCase):

    def test_deferred_in_script(self):
        # Contract rules 8, 12 and 15
        expected = {
            False: ["exec target", "bound True True ['target']", "lazy False",
                    "42 42", "lazy False", "same True ['target']"],
            True: ["bound True False []", "lazy True", "exec target", "42 42",
                   "lazy False", "same True ['target']"],
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", lazy=lazy)
                self.assert_lines(result, expected[lazy])

    def test_module_level_blocks(self):
        # Contract rule 8: if, for, while and match bodies are module level.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "blocks.py", lazy=lazy)
                order = LAZY_ORDER if lazy else EAGER_ORDER
                self.assert_lines(result, order + ["42 42 42 42"])

    def test_imported_module_body(self):
        # Contract rule 8
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "use_holder.py",
                                           lazy=lazy)
                order = (["holder imported", "exec target"] if lazy
                         else ["exec target", "holder imported"])
                self.assert_lines(result, ["exec holder", *order, "42"])

    def test_every_block_and_import_form(self):
        # Contract rule 8: if, elif, else, for, while, match bodies, nested
        # or not, are module level, for every form of import statement.
        for block, template in MODULE_LEVEL_BLOCKS.items():
            for form, (statement, use) in IMPORT_FORMS.items():
                code = template.format(import_=statement)
                files = dict(TARGET, **{
                    "main.py": f"{code}\nprint('bound')\nprint({use})\n"})
                for lazy in MODES:
                    with self.subTest(block=block, form=form, lazy=lazy):
                        result = self.run_files(files, lazy=lazy)
                        order = LAZY_ORDER if lazy else EAGER_ORDER
                        self.assert_lines(result, order + ["42"])

    def test_command_line_code(self):
        # Contract rule 8: the main script, -c code, -m module and -m
        # package code are module level.
        files = dict(TARGET, **{"main.py": SCRIPT, "runner.py": SCRIPT,
                                "package/__init__.py": "",
                                "package/__main__.py": SCRIPT})
        for how, args in (("script", ["main.py"]), ("-c", ["-c", SCRIPT]),
                          ("-m module", ["-m", "runner"]),
                          ("-m package", ["-m", "package"])):
            for lazy in MODES:
                with self.subTest(how=how, lazy=lazy):
                    result = self.run_files(files, *args, lazy=lazy)
                    order = LAZY_ORDER if lazy else EAGER_ORDER
                    self.assert_lines(result, order + ["42"])

    def test_exec_with_dict_globals(self):
        # Contract rule 8: exec() of code with a dict as globals runs it at
        # module level, wherever exec() is called.
        statements = """
            namespace = {}
            exec("import target\\nprint('bound')\\n"
                 "def uses(): return target", namespace)
            print(namespace["target"].value)
        """
        callers = {
            "module": textwrap.dedent(statements),
            "function": "def run():\n{}\nrun()\n".format(
                textwrap.indent(textwrap.dedent(statements), "    ")),
        }
        for caller, main in callers.items():
            for lazy in MODES:
                with self.subTest(caller=caller, lazy=lazy):
                    result = self.run_files(dict(TARGET, **{"main.py": main}),
                                            lazy=lazy)
                    order = LAZY_ORDER if lazy else EAGER_ORDER
                    self.assert_lines(result, order + ["42"])


#: Compiled, not run: the names imported by statements the compiler must
#: mark as possibly lazy start with "lazy", the others with "eager".
COMPILED = os.path.join(DATA_DIR, "contexts", "compiled.py")


class CompilerTests(unittest.TestCase):

    def imports(self, source):
        code = compile(source, "module.py", "exec")
        found = {}
        stack = [code]
        while stack:
            code = stack.pop()
            stack += [const for const in code.co_consts
                      if hasattr(const, "co_code")]
            # IMPORT_NAME_LAZY marks a possibly lazy import; dis shows it
            # as IMPORT_NAME, as stock CPython shows the same source, unless
            # adaptive=True (contract rule 39).
            shown = [(i.opname, i.opcode, i.arg, i.argval)
                     for i in dis.get_instructions(code)
                     if i.opname.startswith("IMPORT_NAME")]
            for opname, opcode, arg, argval in shown:
                self.assertEqual(opname, "IMPORT_NAME")
                self.assertEqual(opcode, dis.opmap["IMPORT_NAME"])
                self.assertEqual(code.co_names[arg], argval)
            for instruction in dis.get_instructions(code, adaptive=True):
                if instruction.opname.startswith("IMPORT_NAME"):
                    found[instruction.argval or "."] = (
                        instruction.opname == "IMPORT_NAME_LAZY")
        return found

    def test_import_marked_lazy_only_where_eligible(self):
        # Contract rules 8-10 at the bytecode level: IMPORT_NAME_LAZY for a
        # statement that may be lazy, and only there.
        with open(COMPILED, encoding="utf-8") as file:
            found = self.imports(file.read())
        self.assertEqual(len(found), 22, found)
        lazy = {name for name, marked in found.items() if marked}
        expected = {name for name in found if name.startswith("lazy")}
        self.assertEqual(lazy, expected | {"."}, found)

    def test_future_import_is_not_marked(self):
        # Contract rule 9
        found = self.imports("from __future__ import annotations\n"
                             "import lazy1\n")
        self.assertEqual(found, {"__future__": False, "lazy1": True})


class AlwaysEagerTests(LazyImportsTestCase):

    def test_always_eager(self):
        # Contract rule 9: try (every clause, however deep), with and async
        # with, star imports, function and class bodies, __import__() and
        # importlib.import_module() are eager, with or without -L.
        scripts = ["try_body", "try_except", "try_else", "try_finally",
                   "try_star", "if_inside_try", "try_inside_if", "with_plain",
                   "with_block", "async_with", "star", "function",
                   "function_from", "class_body", "dunder_import",
                   "import_module", "import_module_in_if"]
        for script in scripts:
            for lazy in MODES:
                with self.subTest(script=script, lazy=lazy):
                    result = self.run_scenario("contexts", f"{script}.py",
                                               lazy=lazy)
                    self.assert_lines(result, EAGER_ORDER)

    def test_import_system_eager_importlib_libraries_lazy(self):
        # Contract rule 9: the import system proper (importlib,
        # importlib.util, importlib.machinery, their _bootstrap modules),
        # which import hooks patch, is imported eagerly; the libraries of
        # the importlib package are ordinary modules, lazy under -L.
        code = """
            import sys, importlib
            import importlib.metadata
            from importlib import resources as res
            from importlib.util import cache_from_source
            from importlib import util, import_module
            package = vars(sys.modules["importlib"])
            print("metadata", importlib.is_lazy_import(package, "metadata"))
            for name in ("res", "cache_from_source", "util",
                         "import_module"):
                print(name, importlib.is_lazy_import(globals(), name))
            print("importlib.metadata" in sys.modules,
                  "importlib.resources" in sys.modules)
            print(importlib.metadata.version.__name__, res.files.__name__)
        """
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code(code, lazy=lazy)
                self.assert_lines(result, [
                    f"metadata {lazy}", f"res {lazy}",
                    "cache_from_source False", "util False",
                    "import_module False", f"{not lazy} {not lazy}",
                    "version files"])

    def test_future_import(self):
        # Contract rule 9
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    from __future__ import annotations
                    import importlib
                    print(importlib.is_lazy_import(globals(), "annotations"))
                    def function(argument: undefined_name): pass
                    print(function.__annotations__)
                """, lazy=lazy)
                self.assert_lines(result, ["False",
                                           "{'argument': 'undefined_name'}"])

    def test_module_level_import_after_try_is_lazy(self):
        # Contract rule 9: only the statements inside the try are eager.
        result = self.run_files(dict(TARGET, **{
            "early.py": 'print("exec", __name__)',
            "main.py": """
                try:
                    import early
                except ImportError:
                    raise
                import target
                print("bound")
                target.value
            """}), lazy=True)
        self.assert_lines(result, ["exec early", *LAZY_ORDER])

    def test_exec_with_separate_locals_is_eager(self):
        # Contract rule 9: exec() with locals other than its globals runs
        # like a class body (site runs the import lines of .pth files so):
        # eager.  With one dict it is module level: lazy.  Each snippet
        # reads the name (an unread one would run at once, rule 57).
        result = self.run_files(dict(TARGET, **{"main.py": """
            import sys
            SOURCE = "import target\\ndef uses(): return target"
            def run_pth_line():
                exec(SOURCE)      # a function's locals: eager
            run_pth_line()
            print("after function", "target" in sys.modules)
            del sys.modules["target"]
            namespace, local = {}, {}
            exec(SOURCE, namespace, local)
            print("after two namespaces", "target" in sys.modules)
            del sys.modules["target"]
            namespace = {}
            exec(SOURCE, namespace)
            print("after one namespace", "target" in sys.modules)
        """}), lazy=True)
        self.assert_lines(result, ["exec target", "after function True",
                                   "exec target", "after two namespaces True",
                                   "after one namespace False"])

    def test_star_import_sees_registered_submodules(self):
        # Contract rules 9 and 21: "from pkg import *" (no __all__) imports
        # pkg eagerly and takes the submodules that pkg's own "import
        # pkg.sub" binds; under -L they stay lazy in the importing module.
        files = {
            "pkg/__init__.py": ("import pkg.sub\nvalue = 1\n\n\n"
                                "def _uses():\n    return pkg\n"),
            "pkg/sub.py": 'print("exec", __name__)',
            "main.py": """
                from pkg import *
                print(sorted(name for name in dir()
                             if not name.startswith("_")))
                sub
            """}
        names = "['pkg', 'sub', 'value']"
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_files(files, lazy=lazy)
                self.assert_lines(result, [names, "exec pkg.sub"] if lazy
                                  else ["exec pkg.sub", names])

    def test_eager_imports_is_lexical(self):
        # Contract rule 10: the block's own statements are eager; the
        # imports of the modules it imports, and the code exec() runs in
        # it, are not.
        expected = {
            False: ["exec outer", "exec inner", "exec dynamic", "after with",
                    "exec target", "bound"],
            True: ["exec outer", "after with", "bound", "exec inner",
                   "exec target", "exec dynamic"],
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("contexts", "eager_imports.py",
                                           lazy=lazy)
                self.assert_lines(result, expected[lazy])

    def test_eager_imports_does_not_change_the_state(self):
        # Contract rule 10
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_code("""
                    import importlib
                    with importlib.eager_imports():
                        inside = importlib.is_lazy_imports_enabled()
                    print(inside, importlib.is_lazy_imports_enabled())
                """, lazy=lazy)
                self.assert_lines(result, [f"{lazy} {lazy}"])


#: A tree for the exclusion tests: foo and bar.baz import a dependency
#: each (lazily, being excluded does not change their own statements).
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

#: With foo and bar.baz excluded: statement -> the module bodies it runs.
EXCLUDING_CASES = {
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

#: Spellings of excluding=["foo"].
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


class ExcludingTests(LazyImportsTestCase):

    def test_excluding(self):
        # Contract rule 11
        result = self.run_scenario("excluding", "main.py", "foo", "bar.baz",
                                   lazy=False)
        self.assert_lines(result, ["exec foo", "exec bar", "exec bar.baz",
                                   "bound", "exec foo_dep", "1 bar 2"])

    def test_nothing_excluded(self):
        # Contract rule 11
        result = self.run_scenario("excluding", "main.py", lazy=False)
        self.assert_lines(result, ["bound", "exec foo", "exec foo_dep",
                                   "exec bar", "exec bar.baz", "1 bar 2"])

    def test_excluding_callable_and_errors(self):
        # Contract rule 11: a callable gets absolute names; its errors
        # propagate.
        result = self.run_code("""
            import importlib
            seen = set()
            importlib.set_lazy_imports(
                excluding=lambda name: seen.add(name) or name == "rel.sub")
            import rel
            rel.__name__
            print(sorted(seen))
            importlib.set_lazy_imports(excluding=lambda name: 1 / 0)
            try:
                exec("import rel", {})
            except ZeroDivisionError:
                print("ZeroDivisionError")
        """, lazy=False, files={
            "rel/__init__.py": ('print("exec", __name__)\n'
                                'from . import sub\nprint("bound")\n'),
            "rel/sub.py": 'print("exec", __name__)\n',
        })
        self.assertEqual(result.lines[:3],
                         ["exec rel", "exec rel.sub", "bound"])
        seen = eval(result.lines[3])
        self.assertIn("rel", seen)
        self.assertIn("rel.sub", seen)
        self.assertFalse([name for name in seen if name.startswith(".")])
        self.assertEqual(result.lines[4:], ["ZeroDivisionError"])

    def test_raising_container_propagates(self):
        # Contract rule 11: any container tested with `in`; its errors
        # propagate from the import statement, which then binds nothing.
        result = self.run_code("""
            import importlib
            class Container:
                def __contains__(self, name):
                    if name == "bad":
                        raise LookupError(name)
                    return name == "eager_one"
            importlib.set_lazy_imports(excluding=Container())
            import eager_one, lazy_one
            print("bound")
            try:
                exec("import bad", {})
            except LookupError as exc:
                print("LookupError", exc, "bad" in globals())
            lazy_one.__name__
        """, lazy=False, files={
            "eager_one.py": 'print("exec", __name__)\n',
            "lazy_one.py": 'print("exec", __name__)\n',
            "bad.py": 'print("exec", __name__)\n',
        })
        self.assert_lines(result, ["exec eager_one", "bound",
                                   "LookupError bad False", "exec lazy_one"])

    def test_relative_import_matched_by_absolute_name(self):
        # Contract rule 11: `from . import sub` in rel is matched as "rel.sub".
        for excluded in (["rel.sub"], ["rel"]):
            with self.subTest(excluded=excluded):
                result = self.run_code(f"""
                    import importlib
                    importlib.set_lazy_imports(excluding={excluded!r})
                    import rel
                    print("bound")
                    rel.__name__
                """, lazy=False, files={
                    "rel/__init__.py": ('from . import sub\n'
                                        'print("exec", __name__)\n'),
                    "rel/sub.py": 'print("exec", __name__)\n',
                })
                expected = {"rel.sub": ["bound", "exec rel.sub", "exec rel"],
                            "rel": ["exec rel.sub", "exec rel", "bound"]}
                self.assert_lines(result, expected[excluded[0]])

    def test_statements_excluded_by_module_name(self):
        # Contract rule 11: which statements the names "foo" and "bar.baz"
        # make eager; names are compared whole, never as prefixes.
        for statement, executed in EXCLUDING_CASES.items():
            # A function reads the bound name (contract rule 57).
            bound = statement.split()[-1].split(".")[0]
            with self.subTest(statement=statement):
                result = self.run_files(dict(EXCLUDING_TREE, **{"main.py": f"""
                    import importlib
                    importlib.set_lazy_imports(excluding=["foo", "bar.baz"])
                    {statement}
                    print("bound")
                    def _uses():
                        return {bound}
                """}), lazy=False)
                self.assert_lines(result, [f"exec {name}" for name in executed]
                                  + ["bound"])

    def test_imports_inside_excluded_modules_stay_lazy(self):
        # Contract rule 11
        for module, dependency, value in (("foo", "foo_dep", 1),
                                          ("bar.baz", "baz_dep", 3)):
            with self.subTest(module=module):
                result = self.run_files(dict(EXCLUDING_TREE, **{"main.py": f"""
                    import importlib
                    importlib.set_lazy_imports(excluding=["foo", "bar.baz"])
                    import {module}
                    print("bound")
                    print({module}.get())
                """}), lazy=False)
                eager = [f"exec {name}"
                         for name in EXCLUDING_CASES[f"import {module}"]]
                self.assert_lines(result, [*eager, "bound",
                                           f"exec {dependency}", str(value)])

    def test_relative_imports_match_absolute_names(self):
        # Contract rule 11: every form of relative import in rel is matched
        # as "rel.sub".  The package reads sub: not an import made for its
        # side effects, which runs eagerly (contract rule 52).
        for statement in ("from . import sub", "from .sub import value",
                          "from .sub import value as renamed"):
            for excluding in ([], ["rel.sub"]):
                with self.subTest(statement=statement, excluding=excluding):
                    result = self.run_files({
                        "rel/__init__.py": f"""
                            print("exec", __name__)
                            {statement}
                            print("bound")
                            def reads(): return sub
                        """,
                        "rel/sub.py": 'print("exec", __name__)\nvalue = 1',
                        "main.py": f"""
                            import importlib
                            importlib.set_lazy_imports(excluding={excluding!r})
                            import rel
                            rel.__name__
                        """}, lazy=False)
                    self.assert_lines(
                        result,
                        ["exec rel", "exec rel.sub", "bound"] if excluding
                        else ["exec rel", "bound"])

    def test_any_container_or_callable(self):
        # Contract rule 11
        for kind, excluding in EXCLUDING_CONTAINERS.items():
            with self.subTest(kind=kind):
                result = self.run_files(dict(EXCLUDING_TREE, **{"main.py": f"""
                    import importlib
                    importlib.set_lazy_imports(excluding={excluding})
                    import foo
                    import bar
                    print("bound")
                    bar
                """}), lazy=False)
                self.assert_lines(result, ["exec foo", "bound", "exec bar"])

    def test_callable_receives_absolute_names(self):
        # Contract rule 11
        result = self.run_files({
            "rel/__init__.py": """
                print("exec", __name__)
                from . import sub
                from .sub import value
                def reads(): return sub     # not a side-effect import
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
            """}, lazy=False)
        self.assertEqual(result.err, "")
        self.assertEqual(result.executed, ["rel"])
        seen = eval(result.lines[-1])
        self.assertLessEqual({"rel", "rel.sub"}, set(seen))
        self.assertFalse([name for name in seen
                          if name.startswith(".") or name == "sub"], seen)

    def test_exception_from_excluding_propagates(self):
        # Contract rule 11: out of the import statement, uncaught here.
        for kind, excluding in (
                ("callable", "lambda name: 1 / 0"),
                ("container", 'type("Broken", (), {"__contains__": '
                              'lambda self, name: 1 / 0})()')):
            with self.subTest(kind=kind):
                main = textwrap.dedent(f"""\
                    import importlib
                    importlib.set_lazy_imports(excluding={excluding})
                    print("enabled")
                    import foo
                    print("not reached")
                """)
                line = main.splitlines().index("import foo") + 1
                result = self.run_files(
                    dict(EXCLUDING_TREE, **{"main.py": main}), lazy=False,
                    failure=True)
                self.assertEqual(result.lines, ["enabled"])
                self.assertTrue(result.err.splitlines()[-1].startswith(
                    "ZeroDivisionError"), result.err)
                self.assertIn(f'main.py", line {line}, in <module>',
                              result.err)

if __name__ == "__main__":
    unittest.main()

"""Which imports are lazy (SPEC rules 8-11)."""

import dis
import os
import unittest

from .util import DATA_DIR, MODES, LazyImportsTestCase

EAGER_ORDER = ["exec target", "bound"]
LAZY_ORDER = ["bound", "exec target"]


class ModuleLevelTests(LazyImportsTestCase):

    def test_deferred_in_script(self):
        # Rules 8, 12, 15
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
        # Rule 8: if, for, while and match bodies are module level.
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "blocks.py", lazy=lazy)
                order = LAZY_ORDER if lazy else EAGER_ORDER
                self.assert_lines(result, order + ["42 42 42 42"])

    def test_imported_module_body(self):
        # Rule 8
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "use_holder.py",
                                           lazy=lazy)
                order = (["holder imported", "exec target"] if lazy
                         else ["exec target", "holder imported"])
                self.assert_lines(result, ["exec holder", *order, "42"])

    def test_command_line_code(self):
        # Rule 8: -c and -m code is module level.
        code = ("import target; print('bound'); "
                "print(target.value)")
        for lazy in MODES:
            order = (LAZY_ORDER if lazy else EAGER_ORDER) + ["42"]
            with self.subTest(lazy=lazy, how="-c"):
                result = self.run_scenario("deferred", "-c", code, lazy=lazy)
                self.assert_lines(result, order)
            with self.subTest(lazy=lazy, how="-m"):
                result = self.run_scenario("deferred", "-m", "runner",
                                           lazy=lazy,
                                           files={"runner.py": code})
                self.assert_lines(result, order)

    def test_exec_with_dict_globals(self):
        # Rule 8
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("deferred", "-c", """if 1:
                    def run():
                        namespace = {}
                        exec("import target\\nprint('bound')", namespace)
                        namespace["target"].value
                    run()
                """, lazy=lazy)
                self.assert_lines(result,
                                  LAZY_ORDER if lazy else EAGER_ORDER)


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
            # adaptive=True (Rule 39).
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
        # Rules 8-10 at the bytecode level: IMPORT_NAME_LAZY for a
        # statement that may be lazy, and only there.
        with open(COMPILED, encoding="utf-8") as file:
            found = self.imports(file.read())
        self.assertEqual(len(found), 22, found)
        lazy = {name for name, marked in found.items() if marked}
        expected = {name for name in found if name.startswith("lazy")}
        self.assertEqual(lazy, expected | {"."}, found)

    def test_future_import_is_not_marked(self):
        # Rule 9
        found = self.imports("from __future__ import annotations\n"
                             "import lazy1\n")
        self.assertEqual(found, {"__future__": False, "lazy1": True})


class AlwaysEagerTests(LazyImportsTestCase):

    def test_always_eager(self):
        # Rule 9
        scripts = ["try_body", "try_except", "try_else", "try_finally",
                   "try_star", "with_block", "star", "function", "class_body",
                   "dunder_import", "import_module"]
        for script in scripts:
            with self.subTest(script=script):
                result = self.run_scenario("contexts", f"{script}.py",
                                           lazy=True)
                self.assert_lines(result, EAGER_ORDER)

    def test_future_import(self):
        # Rule 9
        result = self.run_code("""
            from __future__ import annotations
            import importlib
            print(importlib.is_lazy_import(globals(), "annotations"))
        """, lazy=True)
        self.assert_lines(result, ["False"])

    def test_eager_imports_is_lexical(self):
        # Rule 10
        expected = {
            False: ["exec outer", "exec inner", "after with", "exec target",
                    "bound"],
            True: ["exec outer", "after with", "bound", "exec inner",
                   "exec target"],
        }
        for lazy in MODES:
            with self.subTest(lazy=lazy):
                result = self.run_scenario("contexts", "eager_imports.py",
                                           lazy=lazy)
                self.assert_lines(result, expected[lazy])


class ExcludingTests(LazyImportsTestCase):

    def test_excluding(self):
        # Rule 11
        result = self.run_scenario("excluding", "main.py", "foo", "bar.baz",
                                   lazy=False)
        self.assert_lines(result, ["exec foo", "exec bar", "exec bar.baz",
                                   "bound", "exec foo_dep", "1 bar 2"])

    def test_nothing_excluded(self):
        # Rule 11
        result = self.run_scenario("excluding", "main.py", lazy=False)
        self.assert_lines(result, ["bound", "exec foo", "exec foo_dep",
                                   "exec bar", "exec bar.baz", "1 bar 2"])

    def test_excluding_callable_and_errors(self):
        # Rule 11: a callable gets absolute names; its errors propagate.
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
        # Rule 11: any container tested with `in`; its errors propagate
        # from the import statement, which then binds nothing.
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
        # Rule 11: `from . import sub` in rel is matched as "rel.sub".
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


if __name__ == "__main__":
    unittest.main()

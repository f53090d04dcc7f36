"""SPEC section 5: errors (rules 24-27)."""

import re
import textwrap

import pytest

FAILING_MODULES = {
    "missing.py": None,  # never written: ModuleNotFoundError
    "names.py": "present = 1",
    "broken.py": "def broken(:\n    pass",
    "raiser.py": 'raise LookupError("raised by the module body")',
    "skipper.py": 'import unittest\nraise unittest.SkipTest("not here")',
    "pkg/__init__.py": "",
    "pkg/bad.py": 'raise LookupError("raised by a submodule")',
}

#: case id: (statement, module named in the note, expression using it,
#: exception type name)
FAILURES = {
    "module-not-found": ("import missing", "missing", "missing.attr",
                         "ModuleNotFoundError"),
    "submodule-not-found": ("import pkg.missing", "pkg.missing",
                            "pkg.missing", "ModuleNotFoundError"),
    "cannot-import-name": ("from names import absent", "names", "absent",
                           "ImportError"),
    "syntax-error": ("import broken", "broken", "broken.broken",
                     "SyntaxError"),
    "body-raises": ("import raiser", "raiser", "raiser.attr", "LookupError"),
    "submodule-raises": ("from pkg import bad", "pkg", "bad", "LookupError"),
    "skip-test": ("import skipper", "skipper", "skipper.attr", "SkipTest"),
}

IMPORT_LINE = 3
USE_LINE = 6


def exception_lines(stderr, name):
    """The ``Name: message`` lines of a traceback (notes follow them)."""
    return re.findall(rf"^(?:\w+\.)*{name}(?::.*)?$", stderr, re.MULTILINE)


def failing_tree(tree):
    return tree.write({path: text for path, text in FAILING_MODULES.items()
                       if text is not None})


def lazy_script(statement, use, handler):
    """A script importing on line IMPORT_LINE and using on line USE_LINE.

    *handler* is the body of the ``except BaseException as exc:`` clause
    around the use.
    """
    lines = ["import sys", "import traceback", statement, 'print("bound")',
             "try:", f"    {use}", "except BaseException as exc:",
             textwrap.indent(textwrap.dedent(handler).strip(), "    ")]
    assert lines[IMPORT_LINE - 1] == statement
    assert lines[USE_LINE - 1].strip() == use
    return "\n".join(lines) + "\n"


# Rule 24 --------------------------------------------------------------------

@pytest.mark.parametrize("case", FAILURES)
def test_r24_original_exception_at_first_use(tree, case):
    """The exception and its message are those of the eager import."""
    statement, _, use, exception = FAILURES[case]
    report = 'print(type(exc).__name__, str(exc))'
    failing_tree(tree).write({
        "eager.py": f"try:\n    {statement}\nexcept BaseException as exc:\n"
                    f"    {report}\n",
        "main.py": lazy_script(statement, use, report)})
    eager = tree.run("eager.py").ok()
    lazy = tree.run(lazy=True).ok()
    assert eager.lines[0].split()[0] == exception
    assert lazy.lines == ["bound", *eager.lines]


@pytest.mark.parametrize("case", FAILURES)
def test_r24_note_names_the_deferred_statement(tree, case):
    statement, module, use, _ = FAILURES[case]
    failing_tree(tree).write({"main.py": lazy_script(statement, use, """
        for note in getattr(exc, "__notes__", ()):
            print("note:", note)
    """)})
    result = tree.run(lazy=True).ok()
    notes = [line for line in result.lines if line.startswith("note:")]
    assert len(notes) == 1, result.lines
    note = notes[0]
    assert re.search(rf"\b{re.escape(module)}\b", note), note
    assert "main.py" in note, note
    assert re.search(rf"\b{IMPORT_LINE}\b", note), note


@pytest.mark.parametrize("case", FAILURES)
def test_r24_traceback_shows_line_of_use(tree, case):
    statement, _, use, exception = FAILURES[case]
    failing_tree(tree).write({"main.py": lazy_script(statement, use, """
        raise
    """)})
    result = tree.run(lazy=True).failed()
    assert result.lines == ["bound"]
    assert f'main.py", line {USE_LINE}, in <module>' in result.stderr
    assert use in result.stderr
    assert exception_lines(result.stderr, exception), result.stderr


def test_r24_traceback_shows_failing_module_line(tree):
    failing_tree(tree).write({"main.py": lazy_script(
        "import raiser", "raiser.attr", "raise")})
    result = tree.run(lazy=True).failed()
    assert 'raiser.py", line 1, in <module>' in result.stderr


def test_r24_skip_test_reaches_unittest(tree):
    """A SkipTest raised by a lazily imported module skips the test."""
    failing_tree(tree).write({"main.py": """
        import unittest
        import skipper

        class Test(unittest.TestCase):
            def test_uses_skipper(self):
                skipper.attr

        # Only Test is loaded: the default loader getattr()s every global
        # of the module, which is a first use of skipper too (rule 15).
        unittest.main(defaultTest="Test")
    """})
    result = tree.run(lazy=True)
    assert result.returncode == 0, result.report()
    assert "OK (skipped=1)" in result.stderr


# Rule 25 --------------------------------------------------------------------

def test_r25_failed_resolution_stays_lazy_and_retries(tree):
    """The scenario errors/retry.py: the first resolution fails, the second
    runs the module body again and succeeds."""
    result = tree.scenario("errors").run("retry.py", lazy=True).ok()
    assert result.lines == ["exec flaky", "failed: first attempt fails",
                            "False True", "exec flaky",
                            "second attempt works", "2"]


@pytest.mark.parametrize("statement, use", [
    ("import pkg.bad", "pkg.bad"),
    ("from pkg import bad", "bad"),
    ("from pkg.bad import value", "value"),
    ("import pkg.bad as bad", "bad"),
])
def test_r25_sys_modules_as_after_failed_eager_import(tree, statement, use):
    # sys.modules is as after the failed eager import.  Every form binds
    # pkg.bad in pkg to a lazy reference once pkg is loaded (rule 49), as the
    # eager statement binds the submodule; after the failure the reference
    # stays and the next use of it retries (rule 25, as in CPython 3.15):
    # hasattr(), which only swallows AttributeError, then raises the
    # LookupError again.
    state = """
        package = sys.modules["pkg"]
        print(sorted(m for m in sys.modules if m.startswith("pkg")),
              "bad" in vars(package))
        try:
            print(hasattr(package, "bad"))
        except LookupError:
            print("retried")
    """
    handler = textwrap.indent(textwrap.dedent(state).strip(), "    ")
    failing_tree(tree).write({
        "eager.py": f"import sys\ntry:\n    {statement}\n"
                    f"except LookupError:\n{handler}\n",
        "main.py": lazy_script(statement, use, state)})
    eager = tree.run("eager.py").ok()
    lazy = tree.run(lazy=True).ok()
    assert eager.lines == ["['pkg'] False", "False"]
    assert lazy.lines == ["bound", "['pkg'] True", "retried"]


# Rule 26 --------------------------------------------------------------------

CYCLES = {
    "self": {
        "holder.py": """
            import target
            def get():
                return target
        """,
        "target.py": """
            import holder
            holder.get()
        """,
        "main.py": """
            import holder
            holder.get()
        """,
    },
    "two-modules": {
        "first.py": """
            import second
            def get():
                return second.value
        """,
        "second.py": """
            import first
            value = first.get()
        """,
        "main.py": """
            import first
            first.get()
        """,
    },
}


@pytest.mark.parametrize("cycle", CYCLES)
def test_r26_cycle_raises_import_error(tree, cycle):
    tree.write(CYCLES[cycle])
    result = tree.run(lazy=True, timeout=60).failed()
    errors = exception_lines(result.stderr, "ImportError")
    assert len(errors) == 1, result.stderr
    assert "RecursionError" not in result.stderr
    assert "Fatal Python error" not in result.stderr
    # The message shows the cycle: every module on it.
    names = {"self": ["target"], "two-modules": ["first", "second"]}[cycle]
    for name in names:
        assert re.search(rf"\b{name}\b", errors[0]), errors[0]


def test_r26_cycle_error_is_catchable(tree):
    tree.write(CYCLES["self"]).write({"main.py": """
        import holder
        for attempt in 1, 2:
            try:
                holder.get()
            except ImportError:
                print("ImportError")
        print("done")
    """})
    result = tree.run(lazy=True, timeout=60).ok()
    assert result.lines == ["ImportError", "ImportError", "done"]


# Rule 27 --------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("form, module", [
    ("import", "slow"),        # import slow; slow.value
    ("from", "slow"),          # from slow import value; value
    ("submodule", "pkg.slow"),  # import pkg.slow; pkg.slow.value
])
def test_r27_threads_share_one_resolution(tree, lazy, form, module):
    """The scenario threads/main.py: 8 threads read one lazy name at once."""
    result = tree.scenario("threads").run("main.py", form, lazy=lazy,
                                          timeout=90).ok()
    assert result.executed == [module]
    assert result.output == ["False", "8 1", "True"]

"""SPEC section 1: turning lazy imports on and off (rules 1-7)."""

import re
from pathlib import Path

import pytest

TARGET = {"target.py": """
    print("exec", __name__)
    value = 42
"""}


# Rule 1 ---------------------------------------------------------------------

def test_r1_site_imports_are_lazy(tree, lazy):
    """-L applies from the first import: site's unused 'errno' stays lazy."""
    result = tree.run_code("""
        import importlib, site
        print(importlib.is_lazy_import(vars(site), "errno"))
    """, lazy=lazy).ok()
    assert result.lines == [str(lazy)]


def test_r1_startup_modules_hold_lazy_imports(tree, lazy):
    """Modules imported before the main code ran hold lazy imports under -L.

    Without -L no module dict may hold a lazy object at all.
    """
    result = tree.run_code("""
        import importlib, sys
        holders = sorted(
            name for name, module in list(sys.modules.items())
            if name not in ("__main__", "importlib")
            and any(importlib.is_lazy_import(vars(module), key)
                    for key in list(vars(module))))
        print(holders)
    """, lazy=lazy).ok()
    holders = eval(result.stdout)
    if lazy:
        assert "site" in holders
        assert set(holders) - {"site"}, "only site's imports were lazy"
    else:
        assert holders == []


def test_r1_main_script_imports_are_lazy(tree, lazy):
    tree.write(TARGET).write({"main.py": """
        import target
        print("bound")
        print(target.value)
    """})
    result = tree.run(lazy=lazy).ok()
    if lazy:
        assert result.lines == ["bound", "exec target", "42"]
    else:
        assert result.lines == ["exec target", "bound", "42"]


def test_r1_help_lists_option(interpreter, tmp_path):
    result = interpreter.run("--help", cwd=tmp_path).ok()
    options = [line for line in result.lines if line.startswith("-L ")]
    assert len(options) == 1, result.stdout
    assert "lazy" in options[0].lower()


def test_r1_man_page_lists_option(interpreter, tmp_path):
    srcdir = interpreter.evaluate(
        "__import__('sysconfig').get_config_var('srcdir')")
    man_page = Path(eval(srcdir) or "") / "Misc" / "python.man"
    if not man_page.is_file():
        pytest.skip(f"no man page in the source tree ({man_page})")
    text = man_page.read_text(encoding="utf-8")
    described = re.search(r"^\.B \\-L\s*\n(?:.*\n){0,3}.*lazy", text,
                          re.MULTILINE | re.IGNORECASE)
    assert described, f"-L is not described in {man_page}"


# Rule 2 ---------------------------------------------------------------------

def test_r2_flag_records_command_line(tree, lazy):
    """sys.flags.lazy_imports is how the process started, not the state."""
    result = tree.run_code("""
        import importlib, sys
        print(type(sys.flags.lazy_imports).__name__, sys.flags.lazy_imports)
        importlib.set_lazy_imports(not sys.flags.lazy_imports)
        print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
    """, lazy=lazy).ok()
    assert result.lines == [f"bool {lazy}", f"{lazy} {not lazy}"]


# Rule 3 ---------------------------------------------------------------------

@pytest.mark.parametrize("flags", [[], ["-I"], ["-E", "-s"], ["-I", "-B"]],
                         ids=["default", "isolated", "no-env", "isolated-B"])
def test_r3_args_from_interpreter_flags(tree, lazy, flags):
    result = tree.run_code("""
        import subprocess
        print(subprocess._args_from_interpreter_flags())
    """, *flags, lazy=lazy).ok()
    args = eval(result.stdout)
    assert ("-L" in args) == lazy, args
    if "-I" in flags:
        assert "-I" in args


def test_r3_subprocess_child_inherits(tree, lazy):
    tree.write(TARGET).write({"main.py": """
        import subprocess, sys
        child = '''
        import sys, importlib
        import target
        print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
        print("target" in sys.modules)
        '''
        subprocess.run([sys.executable,
                        *subprocess._args_from_interpreter_flags(),
                        "-c", child], check=True)
    """})
    result = tree.run(lazy=lazy).ok()
    executed = [] if lazy else ["exec target"]
    assert result.lines == executed + [f"{lazy} {lazy}", str(not lazy)]


@pytest.mark.slow
def test_r3_multiprocessing_spawn_child_inherits(tree, lazy):
    tree.write({"main.py": """
        import importlib
        import multiprocessing
        import sys

        def report(queue):
            queue.put((sys.flags.lazy_imports,
                       importlib.is_lazy_imports_enabled()))

        if __name__ == "__main__":
            context = multiprocessing.get_context("spawn")
            queue = context.Queue()
            process = context.Process(target=report, args=(queue,))
            process.start()
            process.join(60)
            print(process.exitcode)
            print(queue.get(timeout=5))
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == ["0", f"({lazy}, {lazy})"]


# Rule 4 ---------------------------------------------------------------------

@pytest.mark.parametrize("call", ["set_lazy_imports()",
                                  "set_lazy_imports(True)",
                                  "set_lazy_imports(enabled=True)",
                                  "set_lazy_imports(False)"])
def test_r4_applies_to_rest_of_calling_module(tree, call):
    tree.write({
        "before.py": 'print("exec", __name__)',
        "after.py": 'print("exec", __name__)\nvalue = 1',
        "main.py": f"""
            import importlib
            import before
            importlib.{call}
            import after
            print("bound")
            after.value
            before
        """})
    result = tree.run().ok()
    if "False" in call:
        assert result.lines == ["exec before", "exec after", "bound"]
    else:
        assert result.lines == ["exec before", "bound", "exec after"]


def test_r4_disable_under_command_line_flag(tree):
    tree.write({
        "before.py": 'print("exec", __name__)',
        "after.py": 'print("exec", __name__)',
        "main.py": """
            import importlib
            import before
            importlib.set_lazy_imports(False)
            import after
            print("bound")
            before
        """})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["exec after", "bound", "exec before"]


def test_r4_applies_to_modules_imported_later(tree):
    tree.write({
        "outer.py": """
            print("exec", __name__)
            import inner
            print("outer done")
            def get():
                return inner.value
        """,
        "inner.py": 'print("exec", __name__)\nvalue = 7',
        "main.py": """
            import importlib
            importlib.set_lazy_imports()
            import outer
            print("bound")
            print(outer.get())
        """})
    result = tree.run().ok()
    assert result.lines == ["bound", "exec outer", "outer done",
                            "exec inner", "7"]


def test_r4_applies_to_every_thread(tree, lazy):
    """The switch made by the main thread is seen by a waiting thread."""
    tree.write(TARGET).write({"main.py": """
        import importlib, sys, threading
        switched = threading.Event()
        report = []

        def worker():
            switched.wait()
            namespace = {}
            exec("import target", namespace)
            report.append("target" in sys.modules)
            report.append(importlib.is_lazy_import(namespace, "target"))

        thread = threading.Thread(target=worker, daemon=True)
        thread.start()
        try:
            importlib.set_lazy_imports(not sys.flags.lazy_imports)
        finally:
            switched.set()
        thread.join()
        print(report)
    """})
    result = tree.run(lazy=lazy).ok()
    # The thread imports with the state opposite to the command line.
    if lazy:
        assert result.lines == ["exec target", "[True, False]"]
    else:
        assert result.lines == ["[False, True]"]


def test_r4_excluding_is_replaced_and_cleared(tree):
    modules = {f"{name}.py": 'print("exec", __name__)'
               for name in ("x1", "y1", "x2", "y2", "x3", "y3")}
    tree.write(modules).write({"main.py": """
        import importlib
        importlib.set_lazy_imports(excluding=["x1", "y2"])
        import x1, y1
        print("phase 1")
        importlib.set_lazy_imports(excluding=["x2", "x3"])
        import x2, y2
        print("phase 2")
        importlib.set_lazy_imports(excluding=None)
        import x3
        print("phase 3")
        importlib.set_lazy_imports(excluding=["y3"])
        importlib.set_lazy_imports()
        import y3
        print("phase 4")
        x3, y3, y1, y2
    """})
    result = tree.run().ok()
    assert result.lines == ["exec x1", "phase 1",
                            "exec x2", "phase 2",
                            "phase 3",
                            "phase 4",
                            "exec x3", "exec y3", "exec y1", "exec y2"]


def test_r4_excluding_is_keyword_only(tree):
    result = tree.run_code("""
        import importlib
        try:
            importlib.set_lazy_imports(True, ["x"])
        except TypeError:
            print("TypeError")
        print(importlib.is_lazy_imports_enabled())
    """).ok()
    assert result.lines == ["TypeError", "False"]


# Rule 5 ---------------------------------------------------------------------

def test_r5_is_lazy_imports_enabled_reports_current_state(tree, lazy):
    result = tree.run_code("""
        import importlib
        states = [importlib.is_lazy_imports_enabled()]
        importlib.set_lazy_imports()
        states.append(importlib.is_lazy_imports_enabled())
        importlib.set_lazy_imports(False)
        states.append(importlib.is_lazy_imports_enabled())
        importlib.set_lazy_imports(True, excluding=["x"])
        states.append(importlib.is_lazy_imports_enabled())
        print(states, {type(state) for state in states} == {bool})
    """, lazy=lazy).ok()
    assert result.lines == [f"[{lazy}, True, False, True] True"]


# Rule 6 ---------------------------------------------------------------------

@pytest.mark.parametrize("config", ["isolated", "legacy"])
def test_r6_subinterpreter_starts_from_command_line(tree, lazy, config):
    """A subinterpreter ignores the main interpreter's current state.

    It starts from the -L setting, and its own switch does not leak back.
    """
    tree.write({"main.py": f"""
        import _interpreters, importlib, os, sys
        importlib.set_lazy_imports(not sys.flags.lazy_imports)
        read_end, write_end = os.pipe()
        interp = _interpreters.create({config!r})
        failure = _interpreters.run_string(interp, f'''
        import importlib, os, sys
        import __hello__
        report = (importlib.is_lazy_imports_enabled(),
                  "__hello__" in sys.modules)
        importlib.set_lazy_imports(not report[0])
        os.write({{write_end}}, repr(report).encode())
        ''')
        assert failure is None, failure
        _interpreters.destroy(interp)
        os.close(write_end)
        print(os.read(read_end, 1000).decode())
        print(importlib.is_lazy_imports_enabled())
    """})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == [f"({lazy}, {not lazy})", str(not lazy)]


# Rule 7 ---------------------------------------------------------------------

def test_r7_no_environment_variable_of_pep_690(tree):
    """PEP 690 had no environment variable: a guess at one does nothing."""
    tree.write(TARGET)
    result = tree.run_code("""
        import importlib, sys
        import target
        print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
    """, env={"PYTHONLAZYIMPORTS": "1"}).ok()
    assert result.lines == ["exec target", "False False"]


@pytest.mark.parametrize("value, lazy", [("all", True), ("normal", False)])
def test_r7_pep_810_environment_variable(tree, value, lazy):
    """CPython 3.15's PYTHON_LAZY_IMPORTS is accepted (rule 48)."""
    tree.write(TARGET)
    result = tree.run_code("""
        import importlib, sys
        import target
        print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled())
    """, env={"PYTHON_LAZY_IMPORTS": value}).ok()
    expected = [f"{lazy} {lazy}"]
    assert result.lines == (expected if lazy else ["exec target"] + expected)


def test_r7_help_env_lists_only_the_pep_810_variable(interpreter, tmp_path):
    result = interpreter.run("--help-env", cwd=tmp_path).ok()
    lines = [line for line in result.stdout.splitlines() if "LAZY" in line]
    assert len(lines) == 1 and lines[0].startswith("PYTHON_LAZY_IMPORTS:")


def test_r7_x_option_is_an_alias_or_nothing(tree):
    """-X lazy_imports, if it exists, behaves exactly like -L."""
    tree.write(TARGET)
    result = tree.run_code("""
        import importlib, subprocess, sys
        import target
        print(sys.flags.lazy_imports, importlib.is_lazy_imports_enabled(),
              "target" in sys.modules,
              "-L" in subprocess._args_from_interpreter_flags())
    """, "-X", "lazy_imports").ok()
    assert result.lines in (["True True False True"],
                            ["exec target", "False False True False"])

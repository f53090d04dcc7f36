"""SPEC section 6: tools and C API (rules 28-29)."""

import re
import textwrap
from pathlib import Path

import pytest

TARGET = {"target.py": """
    print("exec", __name__)
    value = 42
"""}

MARKED_SCRIPT = """
    import sys
    import target
    print("MARK", file=sys.stderr, flush=True)
    target.value
"""
IMPORT_LINE = 2


# Rule 28 --------------------------------------------------------------------

def test_r28_verbose_reports_deferred_and_executed_imports(tree, lazy):
    tree.write(TARGET).write({"main.py": MARKED_SCRIPT})
    result = tree.run("-v", "main.py", lazy=lazy)
    assert result.returncode == 0, result.report()
    lines = result.stderr.splitlines()
    mark = lines.index("MARK")
    executed = [index for index, line in enumerate(lines)
                if line.startswith("import 'target' #")]
    deferred = [index for index, line in enumerate(lines)
                if "target" in line
                and re.search(rf"main\.py:{IMPORT_LINE}\b", line)]
    assert len(executed) == 1, result.stderr
    if lazy:
        assert executed[0] > mark
        assert len(deferred) == 1, result.stderr
        assert deferred[0] < mark
    else:
        assert executed[0] < mark
        assert deferred == []


def test_r28_importtime_reports_real_imports(tree, lazy):
    tree.write(TARGET).write({
        "unused.py": "",
        "main.py": textwrap.dedent(MARKED_SCRIPT) + "import unused\n"})
    result = tree.run("-X", "importtime", "main.py", lazy=lazy)
    assert result.returncode == 0, result.report()
    lines = result.stderr.splitlines()
    mark = lines.index("MARK")

    def reported(name):
        return [index for index, line in enumerate(lines)
                if line.startswith("import time:")
                and line.rsplit("|", 1)[-1].strip() == name]

    assert len(reported("target")) == 1, result.stderr
    assert (reported("target")[0] > mark) == lazy
    assert len(reported("unused")) == (0 if lazy else 1), result.stderr


# Rule 29 --------------------------------------------------------------------

#: Scripts start with this; capi.py (the scenario "capi", shared with
#: test_lazy_imports) declares the C API functions with ctypes.
C_API = """
    import importlib, sys
    from capi import *
"""


def test_r29_set_and_query_state(tree, lazy):
    tree.scenario("capi").write({"plain.py": 'print("exec", __name__)',
                "excluded.py": 'print("exec", __name__)',
                "main.py": C_API + """
    print(is_enabled())
    previous = set_lazy(True, ["excluded"])
    print(previous == (sys.flags.lazy_imports, None), type(previous).__name__)
    print(is_enabled(), importlib.is_lazy_imports_enabled())
    import plain
    import excluded
    print("bound")
    previous = set_lazy(False, None)
    print(previous == (True, ["excluded"]))
    print(is_enabled(), importlib.is_lazy_imports_enabled())
    plain
"""})
    result = tree.run(lazy=lazy).ok()
    assert result.lines == [str(int(lazy)), "True tuple", "1 True",
                            "exec excluded", "bound", "True", "0 False",
                            "exec plain"]


def test_r29_dict_is_lazy_import_and_resolve(tree):
    tree.scenario("capi").write({"target.py": 'print("exec", __name__)\nvalue = 42',
                "main.py": C_API + """
    namespace = {}
    exec("import target\\nplain = 1", namespace)
    print(is_lazy(namespace, "target"), is_lazy(namespace, "plain"))
    print("target" in sys.modules)
    print(resolve(namespace))
    print(is_lazy(namespace, "target"), namespace["target"].value)
    print(resolve({}), resolve(namespace))
"""})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["1 0", "False", "exec target", "0", "0 42",
                            "0 0"]


def test_r29_resolve_reports_errors(tree):
    tree.scenario("capi").write({"main.py": C_API + """
    namespace = {}
    exec("import missing_module", namespace)
    try:
        resolve(namespace)
    except ModuleNotFoundError as exc:
        print("ModuleNotFoundError", exc.name)
    print(is_lazy(namespace, "missing_module"))
"""})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["ModuleNotFoundError missing_module", "1"]


def test_r29_next_with_error(tree):
    tree.scenario("capi").write({"target.py": 'print("exec", __name__)\nvalue = 42',
                "main.py": C_API + """
    namespace = {}
    exec("import target", namespace)
    del namespace["__builtins__"]
    print("bound")
    print(items_with_error(namespace) == [("target", sys.modules["target"])])
    failing = {}
    exec("import missing_module", failing)
    try:
        items_with_error(failing)
    except ModuleNotFoundError:
        print("ModuleNotFoundError")
"""})
    result = tree.run(lazy=True).ok()
    assert result.lines == ["bound", "exec target", "True",
                            "ModuleNotFoundError"]


C_API_FUNCTIONS = ["PyImport_SetLazyImports", "PyImport_IsLazyImportsEnabled",
                   "PyDict_IsLazyImport", "PyDict_ResolveLazyImports",
                   "PyDict_NextWithError"]


@pytest.mark.parametrize("function", C_API_FUNCTIONS)
def test_r29_c_api_is_documented(interpreter, function):
    srcdir = eval(interpreter.evaluate(
        "__import__('sysconfig').get_config_var('srcdir')"))
    docs = Path(srcdir or "") / "Doc" / "c-api"
    if not docs.is_dir():
        pytest.skip(f"no Doc/c-api in the source tree ({docs})")
    pattern = re.compile(rf"^\.\. c:function:: .*\b{function}\(", re.MULTILINE)
    documented = [path.name for path in docs.glob("*.rst")
                  if pattern.search(path.read_text(encoding="utf-8"))]
    assert documented, f"{function} is not documented in {docs}"

"""Real import hooks under -L (contract rule 33), with packages from PyPI.

The packages are installed in the test venv (requirements-test.txt); the
interpreter running pytest is the fork, and each test runs it in a
subprocess with and without -L on a project written to a temporary
directory.
"""

import os
import subprocess
import sys
import textwrap

import pytest

PYTHON = sys.executable


def run(args, cwd, lazy, env=None):
    cmd = [PYTHON, *(["-L"] if lazy else []), *args]
    environ = dict(os.environ, **(env or {}))
    environ.pop("PYTHONPATH", None)
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=environ)


def write(root, files):
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")


PYTEST_PROJECT = {
    "conftest.py": """\
        import json
        import pytest

        @pytest.fixture
        def payload():
            return json.loads('{"a": [1, 2]}')
        """,
    "myplugin.py": """\
        import textwrap

        def pytest_report_header(config):
            return textwrap.dedent("  plugin header").strip()
        """,
    "helpers/__init__.py": "",
    "helpers/check.py": """\
        def same(a, b):
            assert a == b
        """,
    "tests/test_sample.py": """\
        import collections
        import pytest
        from helpers.check import same

        def test_fixture(payload):
            assert payload["a"] == [1, 2]

        def test_rewritten_failure(payload):
            assert payload["a"] == [1, 3]

        @pytest.mark.parametrize("n", [1, 2])
        def test_param(n):
            assert collections.Counter([n])[n] == 1

        def test_helper():
            same(1, 1)
        """,
    "pytest.ini": """\
        [pytest]
        python_files = test_*.py
        """,
}


def test_pytest_runs_a_project_under_L(tmp_path):
    # Contract rule 33.
    write(tmp_path, PYTEST_PROJECT)
    args = ["-m", "pytest", "-p", "myplugin", "-p", "no:cacheprovider",
            "-rA", "tests"]
    eager = run(args, tmp_path, lazy=False, env={"PYTHONPATH": ""})
    lazy = run(args, tmp_path, lazy=True, env={"PYTHONPATH": ""})
    assert eager.returncode == 1, eager.stdout + eager.stderr
    assert lazy.returncode == eager.returncode, lazy.stdout + lazy.stderr

    def outcomes(result):
        return sorted(line for line in result.stdout.splitlines()
                      if line.startswith(("PASSED ", "FAILED ")))

    assert outcomes(lazy) == outcomes(eager)
    assert len(outcomes(lazy)) == 5
    # Assertion rewriting: the hook rewrote the test module under -L too.
    assert "assert [1, 2] == [1, 3]" in lazy.stdout
    assert "plugin header" in lazy.stdout


def test_typeguard_import_hook(tmp_path):
    # Contract rule 33.
    write(tmp_path, {
        "checked/__init__.py": "",
        "checked/api.py": """\
            import json

            def double(x: int) -> int:
                return json.loads(json.dumps(x * 2))
            """,
        "main.py": """\
            from typeguard import install_import_hook
            install_import_hook("checked")
            import checked.api
            print(checked.api.double(2))
            try:
                checked.api.double("a")
            except Exception as exc:
                print(type(exc).__name__)
            """,
    })
    for lazy in (False, True):
        result = run(["main.py"], tmp_path, lazy=lazy)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == ["4", "TypeCheckError"]


def test_setuptools_editable_finder(tmp_path):
    # Contract rule 33.
    project = tmp_path / "proj"
    write(project, {
        "pyproject.toml": """\
            [build-system]
            requires = ["setuptools"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "lazyedit"
            version = "1.0"

            [tool.setuptools]
            packages = ["lazyedit"]
            """,
        "lazyedit/__init__.py": """\
            import json
            from .core import value
            """,
        "lazyedit/core.py": "value = 42\n",
    })
    venv = tmp_path / "venv"
    subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True,
                   timeout=300)
    vpython = str(venv / "bin" / "python")
    # The default (finder) mode of an editable install: a .pth file
    # installs a meta path finder written in Python.
    for args in (["setuptools==84.2.1"],
                 ["--no-build-isolation", "--no-deps", "-e", str(project)]):
        install = subprocess.run(
            [vpython, "-m", "pip", "install", "-q",
             "--disable-pip-version-check", *args],
            capture_output=True, text=True, timeout=600)
        assert install.returncode == 0, install.stderr
    code = ("import lazyedit, sys\n"
            "print(lazyedit.value)\n"
            "print(any('editable' in type(f).__module__.lower()\n"
            "          or 'editable' in repr(f).lower()\n"
            "          for f in sys.meta_path))\n")
    for lazy in (False, True):
        result = subprocess.run(
            [vpython, *(["-L"] if lazy else []), "-c", code],
            cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == ["42", "True"]


def test_hypothesis_public_api_under_plain_L(tmp_path):
    # Contract rule 52: hypothesis.strategies checks at import time that
    # its strategy modules registered themselves; under plain -L, with no
    # excluding, it imports and keeps its public API, and a property test
    # runs.
    write(tmp_path, {"main.py": """\
        from hypothesis import given, settings, strategies as st
        names = sorted(n for n in st.__all__
                       if type(getattr(st, n)).__name__ != "lazy_import")

        @settings(max_examples=20, database=None)
        @given(st.lists(st.integers()))
        def check(xs):
            assert sorted(xs) == sorted(reversed(xs))

        check()
        print(len(names), type(st.integers()).__name__)
        """})
    eager = run(["main.py"], tmp_path, lazy=False)
    lazy = run(["main.py"], tmp_path, lazy=True)
    assert eager.returncode == 0, eager.stderr
    assert lazy.returncode == 0, lazy.stderr
    assert lazy.stdout == eager.stdout


def test_optional_dependency_of_pytest_plugin_under_L(tmp_path):
    # Contract rule 54: the optional-dependency idiom, two imports down,
    # in a project run by pytest under -L: the flag is the eager one.
    write(tmp_path, {
        "opt/__init__.py": """\
            try:
                from opt import _extra
                HAS_EXTRA = True
            except ImportError:
                HAS_EXTRA = False
            """,
        "opt/_extra.py": "import opt._deep\n",
        "opt/_deep.py": "import not_installed_anywhere\n",
        "test_flag.py": """\
            import opt

            def test_flag():
                assert opt.HAS_EXTRA is False
            """,
    })
    for lazy in (False, True):
        result = run(["-m", "pytest", "-q", "-p", "no:cacheprovider",
                      "test_flag.py"], tmp_path, lazy=lazy)
        assert result.returncode == 0, result.stdout + result.stderr

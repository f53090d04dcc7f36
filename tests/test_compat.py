"""Compatibility with stock CPython 3.13 (contract rules 30-32 and 39).

These tests compare the fork with the stock interpreter named by
VANILLA_PYTHON and are skipped when it is unset.  Rule 30 (the stdlib test
suite gives the same results) is also covered by regrtest runs; here the
random programs of test_lazy_imports' differential test run on both.
"""

import re
import shutil
import subprocess
import textwrap

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from test.test_lazy_imports import test_differential as differential

pytestmark = pytest.mark.vanilla


# Contract rule 30 ------------------------------------------------------------

def driver(interpreter):
    """Run the differential test's batch driver with *interpreter*."""
    def run(root, scripts):
        return interpreter.run("driver.py", *scripts, cwd=root).ok().stdout
    return run


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@differential.batch_settings()
@given(batch=st.lists(differential.programs(), min_size=differential.BATCH,
                      max_size=differential.BATCH))
@example(batch=differential.EXAMPLES)
def test_eager_run_matches_stock(interpreter, vanilla, batch):
    # Contract rule 30.
    """Without -L the fork prints what stock prints, on random trees."""
    failure = differential.check_batch(batch, driver(interpreter),
                                       driver(vanilla),
                                       differential.same_output)
    if failure:
        pytest.fail(failure, pytrace=False)


# Contract rule 31 ------------------------------------------------------------

SIZES = """
import sys, sysconfig, types
sizes = {
    "getsizeof({})": sys.getsizeof({}),
    "getsizeof(small dict)": sys.getsizeof({"a": 1}),
    "getsizeof(large dict)": sys.getsizeof(dict.fromkeys(range(1000))),
    "getsizeof(module dict)": sys.getsizeof(
        vars(types.ModuleType("m")).copy()),
    "getsizeof(keys view)": sys.getsizeof({}.keys()),
    "getsizeof(dict iterator)": sys.getsizeof(iter({})),
}
for cls in (object, dict, type, types.ModuleType, types.FunctionType,
            types.CodeType, types.FrameType, type({}.keys()),
            type(iter({})), type({}.items())):
    sizes[cls.__name__] = (cls.__basicsize__, cls.__itemsize__)
for name in ("SOABI", "EXT_SUFFIX", "Py_ENABLE_SHARED", "Py_GIL_DISABLED",
             "SIZEOF_VOID_P"):
    sizes[name] = sysconfig.get_config_var(name)
sizes["api_version"] = sys.api_version
sizes["hexversion"] = sys.hexversion
sizes["abiflags"] = sys.abiflags
print(repr(sizes))
"""


def test_object_sizes_match_stock(interpreter, vanilla, tmp_path):
    # Contract rule 31.
    fork = interpreter.run("-c", SIZES, cwd=tmp_path).ok()
    stock = vanilla.run("-c", SIZES, cwd=tmp_path).ok()
    assert eval(fork.stdout) == eval(stock.stdout)


PROBE_C = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

#define FIELD(type, field) #type "." #field, (Py_ssize_t)offsetof(type, field)
#define SIZE(type) #type, (Py_ssize_t)sizeof(type)

static PyObject *
layout(PyObject *self, PyObject *unused)
{
    return Py_BuildValue(
        "{s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n}",
        SIZE(PyDictObject), FIELD(PyDictObject, ma_used),
        FIELD(PyDictObject, ma_keys), FIELD(PyDictObject, ma_values),
        SIZE(PyTypeObject), FIELD(PyTypeObject, tp_getattro),
        FIELD(PyTypeObject, tp_dict), FIELD(PyTypeObject, tp_version_tag),
        SIZE(PyHeapTypeObject), SIZE(PyConfig), SIZE(PyPreConfig),
        SIZE(PyThreadState), SIZE(PyCodeObject), SIZE(PyModuleDef),
        SIZE(PyFunctionObject));
}

static PyObject *
dict_used(PyObject *self, PyObject *dict)
{
    return PyLong_FromSsize_t(((PyDictObject *)dict)->ma_used);
}

static PyObject *
dict_get(PyObject *self, PyObject *args)
{
    PyObject *dict, *key;
    if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &dict, &key)) {
        return NULL;
    }
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == NULL) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    return Py_NewRef(value);
}

static PyMethodDef methods[] = {
    {"layout", layout, METH_NOARGS, NULL},
    {"dict_used", dict_used, METH_O, NULL},
    {"dict_get", dict_get, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "abiprobe", NULL, -1, methods,
};

PyMODINIT_FUNC
PyInit_abiprobe(void)
{
    return PyModule_Create(&module);
}
"""

BUILD_FLAGS = """
import sys, sysconfig
if sysconfig.is_python_build():
    includes = [sysconfig.get_config_var("srcdir") + "/Include",
                sysconfig.get_config_h_filename().rpartition("/")[0]]
else:
    includes = [sysconfig.get_paths()["include"],
                sysconfig.get_paths()["platinclude"]]
print(repr((includes, sysconfig.get_config_var("EXT_SUFFIX"))))
"""


def build_probe(python, directory):
    """Compile abiprobe against *python*'s headers into *directory*."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    directory.mkdir(parents=True, exist_ok=True)
    includes, suffix = eval(python.run("-c", BUILD_FLAGS,
                                       cwd=directory).ok().stdout)
    source = directory / "abiprobe.c"
    source.write_text(PROBE_C)
    subprocess.run([compiler, "-shared", "-fPIC", "-O0",
                    *(f"-I{path}" for path in includes),
                    str(source), "-o", str(directory / f"abiprobe{suffix}")],
                   check=True, timeout=300)
    return directory


def test_struct_layout_matches_stock(interpreter, vanilla, tmp_path):
    # Contract rule 31.
    stock_build = build_probe(vanilla, tmp_path / "stock")
    fork_build = build_probe(interpreter, tmp_path / "fork")
    code = "import abiprobe; print(repr(abiprobe.layout()))"
    stock = vanilla.run("-c", code, cwd=stock_build).ok()
    fork = interpreter.run("-c", code, cwd=fork_build).ok()
    assert eval(fork.stdout) == eval(stock.stdout)


def test_extension_built_for_stock_works(interpreter, vanilla, tmp_path):
    # Contract rule 31.
    """An extension compiled with stock headers reads lazy dicts safely."""
    build = build_probe(vanilla, tmp_path / "stock")
    (build / "target.py").write_text('print("exec", __name__)\n')
    result = interpreter.run("-c", textwrap.dedent("""
        import sys
        import abiprobe
        namespace = {}
        exec("import target\\nplain = 1\\nlambda: target", namespace)
        print(abiprobe.dict_used(namespace) == len(namespace) == 3)
        print("target" in sys.modules)
        print(abiprobe.dict_get(namespace, "target") is sys.modules["target"])
        print(abiprobe.dict_used(namespace))
    """), cwd=build, lazy=True).ok()
    assert result.lines == ["True", "False", "exec target", "True", "3"]


# Contract rule 32 ------------------------------------------------------------

CACHE_IDENTITY = ("(__import__('importlib.util').util.MAGIC_NUMBER, "
                  "__import__('sys').implementation.cache_tag)")

#: Module sources covering every import context of contract rules 8-10.
CORPUS = [
    "import a\nimport a.b as c\nfrom a import b, c\nfrom . import x\n",
    "if x:\n    import a\nfor i in y:\n    import b\nwhile z:\n    import c\n",
    "match m:\n    case 1:\n        import a\n",
    "try:\n    import a\nexcept ImportError:\n    import b\nelse:\n"
    "    import c\nfinally:\n    import d\n",
    "try:\n    pass\nexcept* ValueError:\n    import a\n",
    "with m:\n    import a\nfrom a import *\n",
    "from __future__ import annotations\nimport a\n",
    "def f():\n    import a\n    from b import c\nclass C:\n    import d\n",
    "async def f():\n    async with m:\n        import a\n",
    "import importlib\nwith importlib.eager_imports():\n    import a\n",
]

FINGERPRINT = """
import types
def fingerprint(code):
    return (code.co_code, code.co_flags, code.co_names, code.co_varnames,
            code.co_exceptiontable, code.co_linetable, code.co_stacksize,
            tuple(fingerprint(const) if isinstance(const, types.CodeType)
                  else repr(const) for const in code.co_consts))
print(repr([fingerprint(compile(source, "module.py", "exec"))
            for source in CORPUS]))
"""


def bytecode(python, tmp_path):
    code = f"CORPUS = {CORPUS!r}\n{FINGERPRINT}"
    return eval(python.run("-c", code, cwd=tmp_path).ok().stdout)


def test_pyc_never_collide(interpreter, vanilla, tmp_path):
    # Contract rule 32.
    """Same magic number and cache tag imply the same bytecode."""
    fork_identity = eval(interpreter.evaluate(CACHE_IDENTITY))
    stock_identity = eval(vanilla.evaluate(CACHE_IDENTITY))
    if fork_identity[0] == stock_identity[0]:
        assert fork_identity[1] == stock_identity[1]
        assert bytecode(interpreter, tmp_path) == bytecode(vanilla, tmp_path)
    else:
        assert fork_identity[1] != stock_identity[1], (fork_identity,
                                                       stock_identity)


PYC_TREE = {
    "mod.py": """
        print("exec", __name__)
        try:
            import eager_target
        finally:
            pass
        import lazy_target
        print("mod done")
        def use():
            return lazy_target.value
    """,
    "eager_target.py": 'print("exec", __name__)',
    "lazy_target.py": 'print("exec", __name__)\nvalue = 1',
    "main.py": "import mod\nmod.use()\n",
}


def test_fork_runs_right_on_stock_pyc(tree, vanilla):
    # Contract rule 32.
    tree.write(PYC_TREE)
    vanilla.run("-m", "compileall", "-q", ".", cwd=tree.root).ok()
    result = tree.run(lazy=True).ok()
    assert result.lines == ["exec mod", "exec eager_target", "mod done",
                            "exec lazy_target"]


def test_stock_runs_right_on_fork_pyc(tree, vanilla):
    # Contract rule 32.
    tree.write(PYC_TREE)
    tree.run(lazy=True).ok()
    result = vanilla.run("main.py", cwd=tree.root).ok()
    assert result.lines == ["exec mod", "exec eager_target",
                            "exec lazy_target", "mod done"]


DIS_SOURCE = '''
import os
import os.path as osp
from collections import OrderedDict, deque
from . import sibling
try:
    import json
except ImportError:
    json = None
def f():
    import re
    from sys import argv
    return re, argv
class C:
    import math
'''

SHOW_DIS = f"""
import dis, io
code = compile({DIS_SOURCE!r}, "m.py", "exec")
out = io.StringIO()
dis.dis(code, file=out)
names = [(i.opname, i.opcode, i.arg, i.argval)
         for i in dis.get_instructions(code)]
print(out.getvalue())
print(names)
print(sorted(dis._find_imports(code)))
"""


def test_dis_shows_what_stock_shows(interpreter, vanilla, tmp_path):
    # Contract rule 39.
    """The fork's bytecode has IMPORT_NAME_LAZY where an import may be lazy,
    but dis shows IMPORT_NAME with the stock oparg, as stock 3.13.5 shows
    the same source (modulefinder's _find_imports too)."""
    def shown(python):
        out = python.run("-c", SHOW_DIS, cwd=tmp_path).ok().stdout
        return re.sub(r" at 0x[0-9a-f]+", "", out)

    fork = shown(interpreter)
    assert fork == shown(vanilla)
    assert "IMPORT_NAME" in fork

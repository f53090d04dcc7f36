/* Lazy import objects (PEP 690): the type.  What they mean, the decision
   to create one and their resolution, are in Python/lazyimport.c. */

#include "Python.h"
#include "pycore_lazyimport.h"
#include "pycore_object.h"        // _PyObject_GC_TRACK()
#include "pycore_pystate.h"       // _PyInterpreterState_GET()

#define LAZY(op) ((PyLazyImportObject *)(op))

/* A lazy object does not count as an allocation towards the next automatic
   collection.  It stands for an import not run yet, whose own objects count
   when it runs, and is freed at its first use; counted, the bursts of them
   that a module's import statements make would start collections where an
   eager run has none (one more at the start-up of "python -L -c pass").
   Each adjustment is undone by the allocator's own: the count is what it
   would be without the object. */
static inline void
adjust_gc_count(int delta)
{
#ifndef Py_GIL_DISABLED
    _PyInterpreterState_GET()->gc.generations[0].count += delta;
#else
    (void)delta;
#endif
}

PyObject *
_PyLazyImport_New(PyObject *name, PyObject *fullname, PyObject *fromlist,
                  PyObject *level, PyObject *globals, PyObject *locals,
                  PyObject *builtins, PyObject *code, int addr)
{
    adjust_gc_count(-1);
    PyLazyImportObject *lz = PyObject_GC_New(PyLazyImportObject,
                                             &_PyLazyImport_Type);
    if (lz == NULL) {
        adjust_gc_count(1);
        return NULL;
    }
    lz->lz_name = Py_NewRef(name);
    lz->lz_fullname = Py_XNewRef(fullname);
    lz->lz_fromlist = Py_NewRef(fromlist);
    lz->lz_level = Py_NewRef(level);
    lz->lz_parent = NULL;
    lz->lz_globals = Py_XNewRef(globals);
    lz->lz_locals = Py_XNewRef(locals);
    lz->lz_builtins = Py_XNewRef(builtins);
    lz->lz_code = Py_XNewRef(code);
    lz->lz_addr = addr;
    lz->lz_submodule = 0;
    lz->lz_loaded = 0;
    lz->lz_bound = 0;
    lz->lz_inert = 0;
    lz->lz_walk_failed = 0;
    lz->lz_value = NULL;
    lz->lz_package = NULL;
    lz->lz_shadowed = NULL;
    lz->lz_serial = ++_PyInterpreterState_GET()->imports.lazy.serial;
    lz->lz_origin = NULL;
    _PyObject_GC_TRACK(lz);
    return (PyObject *)lz;
}

static int
lazy_import_traverse(PyObject *op, visitproc visit, void *arg)
{
    PyLazyImportObject *lz = LAZY(op);
    Py_VISIT(lz->lz_name);
    Py_VISIT(lz->lz_fullname);
    Py_VISIT(lz->lz_fromlist);
    Py_VISIT(lz->lz_level);
    Py_VISIT(lz->lz_parent);
    Py_VISIT(lz->lz_globals);
    Py_VISIT(lz->lz_locals);
    Py_VISIT(lz->lz_builtins);
    Py_VISIT(lz->lz_code);
    Py_VISIT(lz->lz_value);
    Py_VISIT(lz->lz_package);
    Py_VISIT(lz->lz_shadowed);
    Py_VISIT(lz->lz_origin);
    return 0;
}

static int
lazy_import_clear(PyObject *op)
{
    PyLazyImportObject *lz = LAZY(op);
    Py_CLEAR(lz->lz_name);
    Py_CLEAR(lz->lz_fullname);
    Py_CLEAR(lz->lz_fromlist);
    Py_CLEAR(lz->lz_level);
    Py_CLEAR(lz->lz_parent);
    Py_CLEAR(lz->lz_globals);
    Py_CLEAR(lz->lz_locals);
    Py_CLEAR(lz->lz_builtins);
    Py_CLEAR(lz->lz_code);
    Py_CLEAR(lz->lz_value);
    Py_CLEAR(lz->lz_origin);
    Py_CLEAR(lz->lz_shadowed);
    if (lz->lz_package != NULL) {
        /* Garbage with its package: nothing to remember. */
        _PyInterpreterState_GET()->imports.lazy.nbound--;
        Py_CLEAR(lz->lz_package);
    }
    return 0;
}

static void
lazy_import_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (LAZY(op)->lz_package != NULL) {
        _PyLazyImport_Dropped(op);
    }
    (void)lazy_import_clear(op);
    adjust_gc_count(1);
    PyObject_GC_Del(op);
}

static PyObject *
lazy_import_repr(PyObject *op)
{
    PyLazyImportObject *lz = LAZY(op);
    if (lz->lz_name == NULL) {
        return PyUnicode_FromString("<lazy_import>");   /* cleared */
    }
    PyObject *fullname = _PyLazyImport_FullName(op);
    if (fullname == NULL) {
        return NULL;
    }
    return PyUnicode_FromFormat("<lazy_import '%U'>", fullname);
}

PyTypeObject _PyLazyImport_Type = {
    PyVarObject_HEAD_INIT(&PyType_Type, 0)
    .tp_name = "lazy_import",
    .tp_basicsize = sizeof(PyLazyImportObject),
    .tp_dealloc = lazy_import_dealloc,
    .tp_repr = lazy_import_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = lazy_import_traverse,
    .tp_clear = lazy_import_clear,
};

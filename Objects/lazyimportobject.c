/* Lazy import objects (PEP 690). */

#include "Python.h"
#include "pycore_ceval.h"         // _PyEval_ImportName()
#include "pycore_dict.h"          // _PyDict_GetItemRefNoResolve()
#include "pycore_import.h"        // _PyImport_GetLazyStack()
#include "pycore_lazyimport.h"
#include "pycore_long.h"          // _PyLong_GetZero()
#include "pycore_object.h"        // _PyObject_GC_TRACK()
#include "pycore_pyerrors.h"      // _PyErr_Occurred()
#include "pycore_traceback.h"     // _PyTraceback_Add()

#ifdef Py_GIL_DISABLED
   /* Resolution relies on the GIL to make "resolve then store back" look
      atomic to other threads, and on thread identity to detect cycles. */
#  error "lazy imports (PEP 690) do not support the free-threaded build yet"
#endif

#define LAZY(op) ((PyLazyImportObject *)(op))

PyObject *
_PyLazyImport_New(PyObject *name, PyObject *fullname, PyObject *fromlist,
                  PyObject *level, PyObject *globals, PyObject *locals,
                  PyObject *builtins, PyObject *code, int addr)
{
    PyLazyImportObject *lz = PyObject_GC_New(PyLazyImportObject,
                                             &_PyLazyImport_Type);
    if (lz == NULL) {
        return NULL;
    }
    lz->lz_name = Py_NewRef(name);
    lz->lz_fullname = Py_NewRef(fullname);
    lz->lz_fromlist = Py_NewRef(fromlist);
    lz->lz_level = Py_NewRef(level);
    lz->lz_parent = NULL;
    lz->lz_globals = Py_XNewRef(globals);
    lz->lz_locals = Py_XNewRef(locals);
    lz->lz_builtins = Py_XNewRef(builtins);
    lz->lz_code = Py_XNewRef(code);
    lz->lz_addr = addr;
    lz->lz_value = NULL;
    _PyObject_GC_TRACK(lz);
    return (PyObject *)lz;
}

/* The absolute name of what resolving 'lz' gives: "import a.b" gives the
   top-level package "a". */
static PyObject *
value_name(PyLazyImportObject *lz)
{
    if (lz->lz_parent == NULL && lz->lz_fromlist == Py_None) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(lz->lz_fullname);
        Py_ssize_t dot = PyUnicode_FindChar(lz->lz_fullname, '.', 0, len, 1);
        if (dot == -2) {
            return NULL;
        }
        if (dot >= 0) {
            return PyUnicode_Substring(lz->lz_fullname, 0, dot);
        }
    }
    return Py_NewRef(lz->lz_fullname);
}

PyObject *
_PyLazyImport_NewFrom(PyObject *parent, PyObject *name)
{
    assert(PyLazyImport_CheckExact(parent));
    PyLazyImportObject *p = LAZY(parent);
    PyObject *base = value_name(p);
    if (base == NULL) {
        return NULL;
    }
    PyObject *fullname;
    if (PyUnicode_GET_LENGTH(base) == 0) {
        fullname = Py_NewRef(name);
    }
    else {
        fullname = PyUnicode_FromFormat("%U.%U", base, name);
    }
    Py_DECREF(base);
    if (fullname == NULL) {
        return NULL;
    }
    PyObject *lz = _PyLazyImport_New(name, fullname, Py_None, p->lz_level,
                                     p->lz_globals, p->lz_locals,
                                     p->lz_builtins, p->lz_code, p->lz_addr);
    Py_DECREF(fullname);
    if (lz != NULL) {
        LAZY(lz)->lz_parent = Py_NewRef(parent);
    }
    return lz;
}


/* Submodules made reachable by lazy imports.

   An eager "import a.b.c" sets a.b and a.b.c as attributes of their
   packages, and other code comes to rely on it ("import a" elsewhere, then
   a.b.c.f()).  A lazy one records the names in a per-interpreter registry
   instead: when an attribute lookup on a module misses, a registered
   submodule of that name is imported then.  A package's own attributes are
   therefore never clobbered, and each submodule is imported only when it
   is reached.  "from a import b" registers a.b as well, tentatively: it may
   name an attribute, so a missing module a.b is not an error there. */

static int
register_submodule(PyObject *registry, PyObject *fullname, PyObject *lazy,
                   int definite)
{
    PyObject *entry = PyTuple_Pack(2, lazy, definite ? Py_True : Py_False);
    if (entry == NULL) {
        return -1;
    }
    PyObject *old;
    int r = PyDict_SetDefaultRef(registry, fullname, entry, &old);
    Py_DECREF(entry);
    Py_XDECREF(old);
    return r < 0 ? -1 : 0;
}

/* Register every submodule name of "a.b.c" that has a parent: a.b and
   a.b.c. */
static int
register_dotted(PyObject *registry, PyObject *fullname, PyObject *lazy,
                int definite)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t pos = 0;
    for (;;) {
        Py_ssize_t dot = PyUnicode_FindChar(fullname, '.', pos, len, 1);
        if (dot == -2) {
            return -1;
        }
        if (dot < 0) {
            break;
        }
        pos = dot + 1;
        Py_ssize_t end = PyUnicode_FindChar(fullname, '.', pos, len, 1);
        if (end == -2) {
            return -1;
        }
        PyObject *name = PyUnicode_Substring(fullname, 0,
                                             end >= 0 ? end : len);
        if (name == NULL) {
            return -1;
        }
        /* Only the last name of a from-import is tentative. */
        int r = register_submodule(registry, name, lazy,
                                   definite || end >= 0);
        Py_DECREF(name);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PyLazyImport_RegisterSubmodules(PyObject *lazy)
{
    PyLazyImportObject *lz = LAZY(lazy);
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *registry = interp->imports.lazy_submodules;
    if (registry == NULL) {
        registry = interp->imports.lazy_submodules = PyDict_New();
        if (registry == NULL) {
            return -1;
        }
    }
    if (lz->lz_fromlist == Py_None || !PyTuple_Check(lz->lz_fromlist)) {
        return register_dotted(registry, lz->lz_fullname, lazy, 1);
    }
    /* "from a.b import c, d": a.b for sure, maybe a.b.c and a.b.d. */
    if (register_dotted(registry, lz->lz_fullname, lazy, 1) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lz->lz_fromlist); i++) {
        PyObject *item = PyTuple_GET_ITEM(lz->lz_fromlist, i);
        if (!PyUnicode_Check(item)) {
            continue;
        }
        PyObject *name = PyUnicode_GET_LENGTH(lz->lz_fullname)
            ? PyUnicode_FromFormat("%U.%U", lz->lz_fullname, item)
            : Py_NewRef(item);
        if (name == NULL) {
            return -1;
        }
        int r = register_submodule(registry, name, lazy, 0);
        Py_DECREF(name);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

/* Attach where the import was deferred (forward declaration). */
static void add_deferred_context(PyThreadState *tstate,
                                 PyLazyImportObject *lz);

PyObject *
_PyLazyImport_GetRegisteredSubmodule(PyObject *module, PyObject *name)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *registry = interp->imports.lazy_submodules;
    if (registry == NULL || PyDict_GET_SIZE(registry) == 0) {
        return NULL;
    }
    PyObject *modname = PyModule_GetNameObject(module);
    if (modname == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *fullname = PyUnicode_FromFormat("%U.%U", modname, name);
    Py_DECREF(modname);
    if (fullname == NULL) {
        return NULL;
    }
    /* Take the entry out first: a miss while it is imported must not try
       again. */
    PyObject *entry;
    if (PyDict_Pop(registry, fullname, &entry) <= 0) {
        Py_DECREF(fullname);
        return NULL;
    }
    PyLazyImportObject *origin = LAZY(PyTuple_GET_ITEM(entry, 0));
    int definite = PyTuple_GET_ITEM(entry, 1) == Py_True;
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *builtins = origin->lz_builtins;
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    PyObject *res = _PyEval_ImportName(tstate, builtins, origin->lz_globals,
                                       Py_None, fullname, Py_None,
                                       _PyLong_GetZero());
    if (res != NULL) {
        Py_SETREF(res, PyImport_GetModule(fullname));
    }
    if (res == NULL && !_PyErr_Occurred(tstate)) {
        PyErr_Format(PyExc_ModuleNotFoundError, "No module named %R",
                     fullname);
    }
    if (res == NULL && !definite
        && PyErr_ExceptionMatches(PyExc_ModuleNotFoundError))
    {
        /* "from a import b" named an attribute, not a submodule. */
        PyObject *exc = PyErr_GetRaisedException();
        PyObject *missing = PyObject_GetAttr(exc, &_Py_ID(name));
        if (missing != NULL
            && PyUnicode_Check(missing)
            && PyUnicode_Compare(missing, fullname) == 0)
        {
            Py_CLEAR(exc);
        }
        Py_XDECREF(missing);
        PyErr_Clear();
        PyErr_SetRaisedException(exc);
    }
    if (res == NULL && _PyErr_Occurred(tstate)) {
        add_deferred_context(tstate, origin);
    }
    Py_DECREF(entry);
    Py_DECREF(fullname);
    return res;
}

static PyObject *
import_module(PyLazyImportObject *lz, PyObject *name, PyObject *fromlist)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *builtins = lz->lz_builtins;
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    return _PyEval_ImportName(tstate, builtins, lz->lz_globals,
                              lz->lz_locals ? lz->lz_locals : Py_None,
                              name, fromlist, lz->lz_level);
}

static PyObject *
resolve(PyLazyImportObject *lz)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (lz->lz_parent == NULL) {
        if (lz->lz_fromlist != Py_None) {
            return import_module(lz, lz->lz_name, lz->lz_fromlist);
        }
        /* "import a.b.c" binds "a": import just "a".  a.b and a.b.c are
           registered submodules, imported when they are first reached. */
        PyObject *top = value_name(lz);
        if (top == NULL) {
            return NULL;
        }
        PyObject *res = import_module(lz, top, Py_None);
        Py_DECREF(top);
        return res;
    }
    PyLazyImportObject *parent = LAZY(lz->lz_parent);
    PyObject *from;
    if (parent->lz_parent == NULL && parent->lz_fromlist != Py_None) {
        /* "from a import b, c": each name imports a with only its own
           name in the fromlist, so that using b does not import a.c. */
        PyObject *fromlist = PyTuple_Pack(1, lz->lz_name);
        if (fromlist == NULL) {
            return NULL;
        }
        from = import_module(parent, parent->lz_name, fromlist);
        Py_DECREF(fromlist);
    }
    else {
        from = _PyLazyImport_Resolve((PyObject *)parent);
    }
    if (from == NULL) {
        return NULL;
    }
    PyObject *res = _PyEval_ImportFrom(tstate, from, lz->lz_name);
    Py_DECREF(from);
    return res;
}

/* Attach where the import was deferred to the exception being raised: a
   note, and a traceback entry showing the import statement. */
static void
add_deferred_context(PyThreadState *tstate, PyLazyImportObject *lz)
{
    PyObject *filename = NULL, *modname = NULL;
    int lineno = -1;
    if (lz->lz_code != NULL) {
        PyCodeObject *code = (PyCodeObject *)lz->lz_code;
        filename = code->co_filename;
        lineno = PyCode_Addr2Line(code, lz->lz_addr);
    }
    if (lz->lz_globals != NULL && PyDict_Check(lz->lz_globals)) {
        PyObject *exc = _PyErr_GetRaisedException(tstate);
        if (PyDict_GetItemRef(lz->lz_globals, &_Py_ID(__name__),
                              &modname) < 0)
        {
            PyErr_Clear();
        }
        _PyErr_SetRaisedException(tstate, exc);
    }
    PyObject *note;
    if (filename != NULL) {
        note = PyUnicode_FromFormat(
            "lazy import of '%U' was deferred at %U:%d in module %R",
            lz->lz_fullname, filename, lineno,
            modname ? modname : Py_None);
    }
    else {
        note = PyUnicode_FromFormat(
            "lazy import of '%U' was deferred in module %R",
            lz->lz_fullname, modname ? modname : Py_None);
    }
    Py_XDECREF(modname);
    if (note == NULL) {
        return;
    }
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    if (exc != NULL && PyExceptionInstance_Check(exc)) {
        if (_PyException_AddNote(exc, note) < 0) {
            PyErr_Clear();
        }
    }
    _PyErr_SetRaisedException(tstate, exc);
    Py_DECREF(note);
    if (filename != NULL && lineno > 0) {
        const char *cfile = PyUnicode_AsUTF8(filename);
        const char *cfunc = PyUnicode_AsUTF8(
            ((PyCodeObject *)lz->lz_code)->co_name);
        if (cfile == NULL || cfunc == NULL) {
            PyObject *exc = _PyErr_GetRaisedException(tstate);
            PyErr_Clear();
            _PyErr_SetRaisedException(tstate, exc);
            return;
        }
        _PyTraceback_Add(cfunc, cfile, lineno);
    }
}

static PyObject *
cycle_error(PyObject *stack, PyLazyImportObject *lz)
{
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return NULL;
    }
    int found = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(stack); i++) {
        PyObject *item = PyList_GET_ITEM(stack, i);
        found |= (item == (PyObject *)lz);
        if (found && PyList_Append(names, LAZY(item)->lz_fullname) < 0) {
            goto done;
        }
    }
    if (PyList_Append(names, lz->lz_fullname) < 0) {
        goto done;
    }
    PyObject *sep = PyUnicode_FromString(" -> ");
    if (sep == NULL) {
        goto done;
    }
    PyObject *chain = PyUnicode_Join(sep, names);
    Py_DECREF(sep);
    if (chain != NULL) {
        PyObject *msg = PyUnicode_FromFormat(
            "cannot resolve lazy import '%U' while it is being resolved "
            "(import cycle: %U)", lz->lz_fullname, chain);
        if (msg != NULL) {
            PyObject *exc = PyObject_CallOneArg(PyExc_ImportError, msg);
            if (exc != NULL) {
                PyObject_SetAttr(exc, &_Py_ID(name), lz->lz_fullname);
                PyErr_SetObject(PyExc_ImportError, exc);
                Py_DECREF(exc);
            }
            Py_DECREF(msg);
        }
        Py_DECREF(chain);
    }
done:
    Py_DECREF(names);
    return NULL;
}

PyObject *
_PyLazyImport_Resolve(PyObject *lazy)
{
    assert(PyLazyImport_CheckExact(lazy));
    PyLazyImportObject *lz = LAZY(lazy);
    if (lz->lz_value != NULL) {
        return Py_NewRef(lz->lz_value);
    }
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *stack = _PyImport_GetLazyStack(tstate);
    if (stack == NULL) {
        return NULL;
    }
    int found = PySequence_Contains(stack, lazy);
    if (found != 0) {
        Py_DECREF(stack);
        return found < 0 ? NULL : cycle_error(stack, lz);
    }
    Py_INCREF(lazy);
    if (PyList_Append(stack, lazy) < 0) {
        Py_DECREF(lazy);
        Py_DECREF(stack);
        return NULL;
    }
    PyObject *res = resolve(lz);
    /* Pop our entry (the list can only have grown above it and shrunk
       back by now). */
    Py_ssize_t n = PyList_GET_SIZE(stack);
    assert(n > 0 && PyList_GET_ITEM(stack, n - 1) == lazy);
    if (PyList_SetSlice(stack, n - 1, n, NULL) < 0) {
        Py_CLEAR(res);
    }
    _PyImport_ReleaseLazyStack(tstate, stack);
    if (res == NULL) {
        add_deferred_context(tstate, lz);
    }
    else if (lz->lz_value == NULL) {
        /* Another thread may have resolved it meanwhile: keep the first
           result so that every reader gets the same object. */
        lz->lz_value = Py_NewRef(res);
    }
    else {
        Py_SETREF(res, Py_NewRef(lz->lz_value));
    }
    Py_DECREF(lazy);
    return res;
}

/* Does the lazy import 'parent' import the module whose namespace is
   'dict'? */
static int
is_own_module(PyLazyImportObject *parent, PyObject *dict)
{
    PyObject *modname;
    if (PyDict_GetItemRef(dict, &_Py_ID(__name__), &modname) <= 0) {
        return 0;
    }
    int r = (PyUnicode_Check(modname)
             && PyUnicode_Compare(modname, parent->lz_fullname) == 0);
    Py_DECREF(modname);
    return r;
}

int
_PyLazyImport_IsBeingResolved(PyObject *dict, PyObject *name)
{
    if (dict == NULL || !PyDict_Check(dict)) {
        return 0;
    }
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *value = NULL;
    int found = 0;
    /* Only "from P import name" run by P itself, while the import system
       checks whether P already has the attribute: any other re-entry is a
       cycle to report. */
    if (_PyDict_GetItemRefNoResolve(dict, name, &value) > 0
        && PyLazyImport_CheckExact(value)
        && LAZY(value)->lz_parent != NULL
        && LAZY(value)->lz_globals == dict
        && is_own_module(LAZY(LAZY(value)->lz_parent), dict))
    {
        PyObject *stack = _PyImport_GetLazyStack(_PyThreadState_GET());
        if (stack != NULL) {
            found = PySequence_Contains(stack, value) > 0;
            _PyImport_ReleaseLazyStack(_PyThreadState_GET(), stack);
        }
    }
    Py_XDECREF(value);
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    return found;
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
    return 0;
}

static void
lazy_import_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    (void)lazy_import_clear(op);
    PyObject_GC_Del(op);
}

static PyObject *
lazy_import_repr(PyObject *op)
{
    PyLazyImportObject *lz = LAZY(op);
    if (lz->lz_fullname == NULL) {
        return PyUnicode_FromString("<lazy_import>");
    }
    return PyUnicode_FromFormat("<lazy_import '%U'>", lz->lz_fullname);
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

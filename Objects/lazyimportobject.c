/* Lazy import objects (PEP 690). */

#include "Python.h"
#include "pycore_ceval.h"         // _PyEval_ImportName()
#include "pycore_dict.h"          // _PyDict_GetItemRefNoResolve()
#include "pycore_import.h"        // _PyImport_GetLazyStack()
#include "pycore_lazyimport.h"
#include "pycore_long.h"          // _PyLong_GetZero()
#include "pycore_moduleobject.h"  // PyModuleObject
#include "pycore_object.h"        // _PyObject_GC_TRACK()
#include "pycore_pyerrors.h"      // _PyErr_Occurred()
#include "pycore_traceback.h"     // _PyTraceback_Add()
#include "pycore_tstate.h"        // _PyThreadStateImpl

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
    lz->lz_submodule = 0;
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

/* lz_submodule of a reference to a submodule (a module import). */
#define SUBMODULE_DEFINITE 1
#define SUBMODULE_TENTATIVE 2
#define SUBMODULE_NONE 3        /* tentative, and there is no such module */

static int
is_reference(PyObject *op)
{
    return (PyLazyImport_CheckExact(op) && LAZY(op)->lz_parent == NULL
            && LAZY(op)->lz_fromlist == Py_None
            && LAZY(op)->lz_submodule != 0);
}

/* "from modname import name": is modname imported already, without the
   attribute name (nor a __getattr__ that could provide it)?  Then an eager
   import would have imported the submodule modname.name, if there is one.
   A module that another thread is still importing is not waited for (a
   lazy statement must not block): its names so far decide, and a wrong
   guess only costs resolution a failed attempt at the submodule.  Returns
   1, 0, or -1 with an exception set. */
static int
lacks_name(PyObject *modname, PyObject *name)
{
    PyObject *module;
    if (PyMapping_GetOptionalItem(PyImport_GetModuleDict(), modname,
                                  &module) <= 0)
    {
        return PyErr_Occurred() ? -1 : 0;
    }
    int r = 0;
    if (PyModule_Check(module)) {
        PyObject *dict = PyModule_GetDict(module);
        PyObject *value;
        r = _PyDict_GetItemRefNoResolve(dict, name, &value);
        if (r > 0) {
            /* The lazy binding of the submodule made by this statement, or
               an earlier one, stands for the submodule. */
            r = !is_reference(value);
            Py_DECREF(value);
        }
        if (r == 0) {
            r = PyDict_Contains(dict, &_Py_ID(__getattr__));
        }
        r = (r < 0) ? -1 : !r;
    }
    Py_DECREF(module);
    return r;
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
    if (lz == NULL) {
        return NULL;
    }
    LAZY(lz)->lz_parent = Py_NewRef(parent);
    if (p->lz_parent == NULL && p->lz_fromlist != Py_None) {
        int r = lacks_name(p->lz_fullname, name);
        if (r < 0) {
            Py_DECREF(lz);
            return NULL;
        }
        LAZY(lz)->lz_submodule = r;
    }
    return lz;
}


/* Submodule bindings (SPEC rule 49).

   An eager "import a.b.c" binds b in a and c in a.b as it runs, and other
   code comes to rely on it ("import a" elsewhere, then a.b.c.f()).  A lazy
   one makes the same bindings, in the same order, with lazy references:
   at the statement, each package of the name that is in sys.modules
   (loaded or loading) and whose child is not gets the child bound to a lazy
   import of that submodule.  The packages not imported yet get theirs when
   the import system has loaded them (_PyLazyImport_ModuleLoaded()), as the
   eager statement would have bound the child after the package's body ran.
   A from-import binds each name it takes the same way, tentatively: "from
   a import b" imports a.b only where a has no attribute b, and a tentative
   reference that finds no module a.b leaves the name unbound.

   Once the submodule is loaded, the import system binds it in the package
   itself, unless the package rebound or deleted the name after the lazy
   binding (eagerly that came after the binding, so it stays): the full
   names bound lazily are remembered until then.  A submodule bound so
   counts as imported for later statements, as it would be eagerly: each
   is bound once, and what is kept for it (the statement's namespace, for
   a replaced __import__ and the error notes) is bounded by the number of
   submodules named. */

/* sys.modules[name] without waiting for a module being imported (a lazy
   statement never blocks).  Returns 1 with a new reference in *module, or
   0, or -1 with an exception set. */
static int
get_imported(PyObject *name, PyObject **module)
{
    PyObject *modules = PyImport_GetModuleDict();
    int r = PyMapping_GetOptionalItem(modules, name, module);
    if (r > 0 && *module == Py_None) {
        Py_CLEAR(*module);
        r = 0;
    }
    return r;
}

/* Has a lazy import bound the submodule 'fullname' in 'package', and the
   import system not loaded it yet?  (interp->imports.lazy_bound maps the
   full name to the package it was bound in.)  Returns 1, 0, or -1 with an
   exception set. */
static int
is_bound(PyObject *fullname, PyObject *package)
{
    PyObject *bound = _PyInterpreterState_GET()->imports.lazy_bound;
    PyObject *in;
    if (bound == NULL || PyDict_GetItemRef(bound, fullname, &in) <= 0) {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_DECREF(in);
    return in == package;
}

/* Forget the binding of 'fullname'.  Returns the package it was bound in
   (a new reference) or NULL, without an exception set. */
static PyObject *
forget_bound(PyObject *fullname)
{
    PyObject *bound = _PyInterpreterState_GET()->imports.lazy_bound;
    PyObject *package = NULL;
    if (bound != NULL && PyDict_Pop(bound, fullname, &package) < 0) {
        PyErr_Clear();
    }
    return package;
}

/* Bind 'child' in 'package' (a module) to a lazy reference to its
   submodule 'fullname', as the eager statement would have bound the
   submodule: not if the submodule is imported already, or bound by an
   earlier lazy import (an eager import would not bind it again), nor, for
   a tentative one, if the package has the name or a __getattr__ that may
   provide it. */
static int
bind_child(PyObject *package, PyObject *fullname, PyObject *child, int kind,
           PyObject *globals, PyObject *builtins, PyObject *code, int addr)
{
    PyObject *sub;
    int r = get_imported(fullname, &sub);
    if (r > 0) {
        /* Still being imported (by another thread, say, which found the
           package in sys.modules while it was loading): the import
           system binds it only once it is loaded, and eagerly the
           statement would have waited for that. */
        PyObject *spec;
        r = PyObject_GetOptionalAttr(sub, &_Py_ID(__spec__), &spec);
        if (r > 0) {
            r = _PyModuleSpec_IsInitializing(spec);
            r = (r < 0) ? -1 : !r;
            Py_DECREF(spec);
        }
        else if (r == 0) {
            r = 1;
        }
        if (r == 0) {
            Py_CLEAR(sub);
        }
    }
    if (r == 0) {
        r = is_bound(fullname, package);
    }
    if (r != 0) {
        Py_XDECREF(sub);
        return r < 0 ? -1 : 0;
    }
    if (!PyModule_Check(package)) {
        return 0;
    }
    PyObject *dict = PyModule_GetDict(package);
    if (kind == SUBMODULE_TENTATIVE) {
        r = PyDict_Contains(dict, child);
        if (r == 0) {
            r = PyDict_Contains(dict, &_Py_ID(__getattr__));
        }
        if (r != 0) {
            return r < 0 ? -1 : 0;
        }
    }
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (interp->imports.lazy_bound == NULL) {
        interp->imports.lazy_bound = PyDict_New();
        if (interp->imports.lazy_bound == NULL) {
            return -1;
        }
    }
    PyObject *ref = _PyLazyImport_New(fullname, fullname, Py_None,
                                      _PyLong_GetZero(), globals, NULL,
                                      builtins, code, addr);
    if (ref == NULL) {
        return -1;
    }
    LAZY(ref)->lz_submodule = kind;
    r = PyDict_SetItem(interp->imports.lazy_bound, fullname, package);
    if (r == 0) {
        r = _PyDict_SetLazyItem(dict, child, ref);
    }
    Py_DECREF(ref);
    return r;
}

/* Remember to bind 'child' in the package 'parent' when it is loaded:
   interp->imports.lazy_pending[parent][child] = (kind, globals, builtins,
   code, addr).  A definite binding wins over a tentative one. */
static int
add_pending(PyObject *parent, PyObject *child, int kind,
            PyLazyImportObject *lz)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (interp->imports.lazy_pending == NULL) {
        interp->imports.lazy_pending = PyDict_New();
        if (interp->imports.lazy_pending == NULL) {
            return -1;
        }
    }
    PyObject *children, *old;
    PyObject *empty = PyDict_New();
    if (empty == NULL) {
        return -1;
    }
    int r = PyDict_SetDefaultRef(interp->imports.lazy_pending, parent, empty,
                                 &children);
    Py_DECREF(empty);
    if (r < 0) {
        return -1;
    }
    r = PyDict_GetItemRef(children, child, &old);
    if (r > 0) {
        r = (kind == SUBMODULE_DEFINITE
             && PyLong_AsLong(PyTuple_GET_ITEM(old, 0)) != kind) ? 0 : 1;
        Py_DECREF(old);
    }
    if (r == 0) {
        PyObject *entry = Py_BuildValue(
            "(iOOOi)", kind, lz->lz_globals ? lz->lz_globals : Py_None,
            lz->lz_builtins ? lz->lz_builtins : Py_None,
            lz->lz_code ? lz->lz_code : Py_None, lz->lz_addr);
        r = entry ? PyDict_SetItem(children, child, entry) : -1;
        Py_XDECREF(entry);
    }
    Py_DECREF(children);
    return r < 0 ? -1 : 0;
}

/* The statement of 'lz' binds 'child' in the package 'parent': now if the
   package is imported, when it is loaded otherwise. */
static int
bind_pair(PyObject *parent, PyObject *child, PyObject *fullname, int kind,
          PyLazyImportObject *lz)
{
    PyObject *package;
    int r = get_imported(parent, &package);
    if (r <= 0) {
        return r < 0 ? -1 : add_pending(parent, child, kind, lz);
    }
    r = bind_child(package, fullname, child, kind, lz->lz_globals,
                   lz->lz_builtins, lz->lz_code, lz->lz_addr);
    Py_DECREF(package);
    return r;
}

/* Call bind_pair() for each package of the dotted name 'fullname'. */
static int
bind_dotted(PyObject *fullname, PyLazyImportObject *lz)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t dot = PyUnicode_FindChar(fullname, '.', 0, len, 1);
    while (dot >= 0) {
        Py_ssize_t end = PyUnicode_FindChar(fullname, '.', dot + 1, len, 1);
        if (end == -2) {
            return -1;
        }
        if (end < 0) {
            end = len;
        }
        PyObject *parent = PyUnicode_Substring(fullname, 0, dot);
        PyObject *child = PyUnicode_Substring(fullname, dot + 1, end);
        PyObject *name = PyUnicode_Substring(fullname, 0, end);
        int r = (parent && child && name)
            ? bind_pair(parent, child, name, SUBMODULE_DEFINITE, lz) : -1;
        Py_XDECREF(parent);
        Py_XDECREF(child);
        Py_XDECREF(name);
        if (r < 0) {
            return -1;
        }
        dot = (end < len) ? end : -1;
    }
    return dot == -2 ? -1 : 0;
}

int
_PyLazyImport_BindSubmodules(PyObject *lazy)
{
    PyLazyImportObject *lz = LAZY(lazy);
    if (bind_dotted(lz->lz_fullname, lz) < 0) {
        return -1;
    }
    if (lz->lz_fromlist == Py_None || !PyTuple_Check(lz->lz_fromlist)) {
        return 0;
    }
    /* "from a.b import c, d": a.b.c and a.b.d, if they are modules. */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lz->lz_fromlist); i++) {
        PyObject *item = PyTuple_GET_ITEM(lz->lz_fromlist, i);
        if (!PyUnicode_Check(item)
            || PyUnicode_CompareWithASCIIString(item, "*") == 0)
        {
            continue;
        }
        PyObject *name = PyUnicode_GET_LENGTH(lz->lz_fullname)
            ? PyUnicode_FromFormat("%U.%U", lz->lz_fullname, item)
            : Py_NewRef(item);
        if (name == NULL) {
            return -1;
        }
        int r = 0;
        if (PyUnicode_GET_LENGTH(lz->lz_fullname)) {
            r = bind_pair(lz->lz_fullname, item, name, SUBMODULE_TENTATIVE,
                          lz);
        }
        Py_DECREF(name);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PyLazyImport_ModuleLoaded(PyObject *module, PyObject *name)
{
    PyObject *pending = _PyInterpreterState_GET()->imports.lazy_pending;
    if (pending == NULL || PyDict_GET_SIZE(pending) == 0) {
        return 0;
    }
    PyObject *children;
    if (PyDict_Pop(pending, name, &children) <= 0) {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_ssize_t pos = 0;
    PyObject *child, *entry;
    int r = 0;
    while (r == 0 && PyDict_Next(children, &pos, &child, &entry)) {
        PyObject *fullname = PyUnicode_FromFormat("%U.%U", name, child);
        if (fullname == NULL) {
            r = -1;
            break;
        }
        /* Bound even when the package is loaded as the parent of this
           very submodule: another thread reading package.child before the
           import system binds it then waits for that import (through the
           reference) instead of finding the attribute missing. */
        PyObject *item[3];
        for (int i = 0; i < 3; i++) {
            item[i] = PyTuple_GET_ITEM(entry, i + 1);
            if (item[i] == Py_None) {
                item[i] = NULL;
            }
        }
        r = bind_child(module, fullname, child,
                       PyLong_AsInt(PyTuple_GET_ITEM(entry, 0)),
                       item[0], item[1], item[2],
                       PyLong_AsInt(PyTuple_GET_ITEM(entry, 4)));
        Py_DECREF(fullname);
    }
    Py_DECREF(children);
    return r;
}

/* Attach where the import was deferred (forward declaration). */
static void add_deferred_context(PyThreadState *tstate,
                                 PyLazyImportObject *lz);

/* An import made to resolve a lazy import does not ask the import hooks
   running in this thread when the resolution starts (finders, path hooks:
   see _imp._run_import_hook()).  Their own code needs the module, which an
   eager import would have imported before they ran; asking them would
   re-enter them, and they would need the module again (pytest's assertion
   rewriter reading fnmatch while it is asked for fnmatch).  Returns what
   leave_resolution() restores. */
static Py_ssize_t
enter_resolution(PyThreadState *tstate)
{
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)tstate;
    Py_ssize_t saved = ts->import_hooks_skipped;
    ts->import_hooks_skipped = (ts->import_hooks == NULL
                                ? 0 : PyList_GET_SIZE(ts->import_hooks));
    return saved;
}

static void
leave_resolution(PyThreadState *tstate, Py_ssize_t saved)
{
    ((_PyThreadStateImpl *)tstate)->import_hooks_skipped = saved;
}

/* Record that the current frame reached 'lazy', whose import runs now, and
   at which depth of trace functions (see _PyLazyImport_WarningContext() and
   is_observed()).  Returns the depth to give
   pop_origin(), or -1 with an exception set. */
static Py_ssize_t
push_origin(PyThreadState *tstate, PyObject *lazy)
{
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)tstate;
    if (ts->lazy_origins == NULL) {
        ts->lazy_origins = PyList_New(0);
        if (ts->lazy_origins == NULL) {
            return -1;
        }
    }
    Py_ssize_t depth = PyList_GET_SIZE(ts->lazy_origins);
    PyObject *frame = PyLong_FromVoidPtr(tstate->current_frame);
    PyObject *tracing = PyLong_FromLong(tstate->tracing);
    PyObject *item = (frame && tracing)
                     ? PyTuple_Pack(3, lazy, frame, tracing) : NULL;
    Py_XDECREF(frame);
    Py_XDECREF(tracing);
    if (item == NULL || PyList_Append(ts->lazy_origins, item) < 0) {
        Py_XDECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return depth;
}

static void
pop_origin(PyThreadState *tstate, Py_ssize_t depth)
{
    PyObject *origins = ((_PyThreadStateImpl *)tstate)->lazy_origins;
    if (depth < 0 || origins == NULL) {
        return;
    }
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    if (PyList_SetSlice(origins, depth, PyList_GET_SIZE(origins),
                        NULL) < 0)
    {
        PyErr_Clear();
    }
    _PyErr_SetRaisedException(tstate, exc);
}

/* 'lazy', which this thread is resolving, is read again.  Is the reader an
   observer: a trace or profile function, a sys.monitoring callback or a
   debugger (they run with tstate->tracing raised) called while the
   resolution runs?  Then the name is not bound yet, as during an eager
   import, rather than an import cycle of the program. */
static int
is_observed(PyThreadState *tstate, PyObject *lazy)
{
    PyObject *origins = ((_PyThreadStateImpl *)tstate)->lazy_origins;
    if (tstate->tracing == 0 || origins == NULL) {
        return 0;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(origins) - 1; i >= 0; i--) {
        PyObject *item = PyList_GET_ITEM(origins, i);
        if (PyTuple_GET_ITEM(item, 0) == lazy) {
            long level = PyLong_AsLong(PyTuple_GET_ITEM(item, 2));
            return tstate->tracing > level;
        }
    }
    return 0;
}

int
_PyLazyImport_WarningContext(PyThreadState *tstate,
                             struct _PyInterpreterFrame *frame,
                             PyObject **globals, PyObject **filename,
                             int *lineno)
{
    PyObject *origins = ((_PyThreadStateImpl *)tstate)->lazy_origins;
    if (origins == NULL || frame == NULL) {
        return 0;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(origins) - 1; i >= 0; i--) {
        PyObject *item = PyList_GET_ITEM(origins, i);
        if (PyLong_AsVoidPtr(PyTuple_GET_ITEM(item, 1)) != (void *)frame) {
            continue;
        }
        PyLazyImportObject *lz = LAZY(PyTuple_GET_ITEM(item, 0));
        if (lz->lz_code == NULL || lz->lz_globals == NULL
            || !PyDict_Check(lz->lz_globals))
        {
            return 0;
        }
        PyCodeObject *code = (PyCodeObject *)lz->lz_code;
        *globals = lz->lz_globals;
        *filename = Py_NewRef(code->co_filename);
        *lineno = PyCode_Addr2Line(code, lz->lz_addr);
        return 1;
    }
    return 0;
}

/* Is the exception being raised "No module named <fullname>"? */
static int
is_missing_module(PyThreadState *tstate, PyObject *fullname)
{
    if (!_PyErr_ExceptionMatches(tstate, PyExc_ModuleNotFoundError)) {
        return 0;
    }
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    PyObject *missing = PyObject_GetAttr(exc, &_Py_ID(name));
    int r = (missing != NULL && PyUnicode_Check(missing)
             && PyUnicode_Compare(missing, fullname) == 0);
    Py_XDECREF(missing);
    PyErr_Clear();
    _PyErr_SetRaisedException(tstate, exc);
    return r;
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

/* Do the builtins of the statement replace __import__? */
static int
has_import_hook(PyLazyImportObject *lz)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *builtins = lz->lz_builtins;
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    PyObject *func;
    if (PyMapping_GetOptionalItem(builtins, &_Py_ID(__import__), &func) < 0) {
        return -1;
    }
    if (func == NULL) {
        return 1;  /* let _PyEval_ImportName() report it */
    }
    int r = !_PyImport_IsDefaultImportFunc(tstate->interp, func);
    Py_DECREF(func);
    return r;
}

/* Import the submodule lz_fullname as the import system does for a
   fromlist (not through __import__).  Returns a new reference, NULL with
   an exception set, or NULL without one if there is no such module. */
static PyObject *
import_submodule(PyLazyImportObject *lz)
{
    PyObject *mod = PyImport_GetModule(lz->lz_fullname);
    if (mod != NULL || PyErr_Occurred()) {
        return mod;
    }
    mod = PyImport_ImportModuleLevelObject(lz->lz_fullname, lz->lz_globals,
                                           NULL, NULL, 0);
    if (mod == NULL) {
        if (is_missing_module(_PyThreadState_GET(), lz->lz_fullname)) {
            PyErr_Clear();
        }
        return NULL;
    }
    Py_DECREF(mod);
    mod = PyImport_GetModule(lz->lz_fullname);
    return mod;
}

/* A reference to the submodule lz_fullname (see bind_child()): import it
   as "import a.b" would and give the module.  A tentative one that finds
   no such module gives NULL without an exception, now and on every later
   read: the name is unbound. */
static PyObject *
resolve_reference(PyThreadState *tstate, PyLazyImportObject *lz)
{
    if (lz->lz_submodule == SUBMODULE_NONE) {
        return NULL;
    }
    /* A dotted import makes its own __import__() call; the submodule of a
       from-import is imported by the import system (as _handle_fromlist()
       does), which a replaced __import__ does not see.  Another attempt if
       the module is not in sys.modules after the import: the import waited
       for another thread's, which failed meanwhile. */
    PyObject *mod = NULL;
    for (int attempt = 0; attempt < 3 && mod == NULL; attempt++) {
        PyObject *top = lz->lz_submodule == SUBMODULE_DEFINITE
            ? import_module(lz, lz->lz_fullname, Py_None)
            : PyImport_ImportModuleLevelObject(lz->lz_fullname,
                                               lz->lz_globals, NULL, NULL,
                                               0);
        if (top == NULL) {
            if (lz->lz_submodule == SUBMODULE_TENTATIVE
                && is_missing_module(tstate, lz->lz_fullname))
            {
                _PyErr_Clear(tstate);
                lz->lz_submodule = SUBMODULE_NONE;
                Py_XDECREF(forget_bound(lz->lz_fullname));
            }
            return NULL;
        }
        Py_DECREF(top);
        /* Waits for another thread's import of it to finish. */
        mod = PyImport_GetModule(lz->lz_fullname);
        PyObject *now = NULL;
        if (mod != NULL && get_imported(lz->lz_fullname, &now) < 0) {
            Py_CLEAR(mod);
        }
        if (mod != NULL && now != mod) {
            Py_CLEAR(mod);  /* that import failed meanwhile */
        }
        Py_XDECREF(now);
        if (_PyErr_Occurred(tstate)) {
            return NULL;
        }
    }
    if (mod == NULL) {
        PyErr_Format(PyExc_ImportError,
                     "import of %R left no module in sys.modules",
                     lz->lz_fullname);
    }
    return mod;
}

static PyObject *
resolve(PyLazyImportObject *lz)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (lz->lz_parent == NULL) {
        if (lz->lz_fromlist != Py_None) {
            return import_module(lz, lz->lz_name, lz->lz_fromlist);
        }
        if (lz->lz_submodule) {
            return resolve_reference(tstate, lz);
        }
        /* "import a.b.c" binds "a": import just "a".  a.b and a.b.c are
           bound to lazy references in their packages (rule 49), imported
           when they are first reached.  A replaced __import__ sees the
           statement's own call instead. */
        int hooked = has_import_hook(lz);
        if (hooked != 0) {
            return hooked < 0 ? NULL : import_module(lz, lz->lz_name,
                                                     Py_None);
        }
        PyObject *top = value_name(lz);
        if (top == NULL) {
            return NULL;
        }
        PyObject *res = import_module(lz, top, Py_None);
        Py_DECREF(top);
        /* As an eager import run now: a submodule no longer in sys.modules
           (del sys.modules["a.b"] since the statement) is bound again, to a
           reference that imports it afresh, so that resolution never hands
           out a stale module. */
        if (res != NULL && bind_dotted(lz->lz_fullname, lz) < 0) {
            Py_CLEAR(res);
        }
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
    else if (parent->lz_parent == NULL) {
        /* "import a.b.c as d" binds the module a.b.c: import all of it, as
           the eager statement does, even if a already has an attribute b
           (a stale one, say, after sys.modules lost a.b). */
        from = import_module(parent, parent->lz_name, Py_None);
    }
    else {
        from = _PyLazyImport_Resolve((PyObject *)parent);
    }
    if (from == NULL) {
        return NULL;
    }
    PyObject *res = _PyEval_ImportFrom(tstate, from, lz->lz_name);
    Py_DECREF(from);
    if (res != NULL && lz->lz_submodule && !PyModule_Check(res)) {
        /* The module has set the name since the statement ran, where an
           eager import would have imported the submodule of that name
           first (a package's "from . import version" before its
           "version = ..."): take the submodule, if there is one. */
        PyObject *mod = import_submodule(lz);
        if (mod != NULL || PyErr_Occurred()) {
            Py_SETREF(res, mod);
        }
    }
    return res;
}

/* Does the exception have this note already?  A submodule reference and
   the from-import that reaches it name the same statement. */
static int
has_note(PyObject *exc, PyObject *note)
{
    PyObject *notes;
    if (PyObject_GetOptionalAttr(exc, &_Py_ID(__notes__), &notes) <= 0) {
        PyErr_Clear();
        return 0;
    }
    int r = PyList_Check(notes) ? PySequence_Contains(notes, note) : 0;
    Py_DECREF(notes);
    if (r < 0) {
        PyErr_Clear();
    }
    return r > 0;
}

/* Attach where the import was deferred to the exception being raised: a
   note, and a traceback entry showing the import statement. */
static void
add_deferred_context(PyThreadState *tstate, PyLazyImportObject *lz)
{
    /* Build the note with the exception fetched: formatting runs code. */
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    if (exc == NULL) {
        return;
    }
    PyObject *filename = NULL, *modname = NULL;
    int lineno = -1;
    if (lz->lz_code != NULL) {
        PyCodeObject *code = (PyCodeObject *)lz->lz_code;
        filename = code->co_filename;
        lineno = PyCode_Addr2Line(code, lz->lz_addr);
    }
    if (lz->lz_globals != NULL && PyDict_Check(lz->lz_globals)
        && PyDict_GetItemRef(lz->lz_globals, &_Py_ID(__name__),
                             &modname) < 0)
    {
        PyErr_Clear();
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
    if (note != NULL && PyExceptionInstance_Check(exc) && has_note(exc, note)) {
        /* Reported already, by the statement's other lazy import. */
        Py_DECREF(note);
        _PyErr_SetRaisedException(tstate, exc);
        return;
    }
    if (note != NULL && PyExceptionInstance_Check(exc)
        && _PyException_AddNote(exc, note) < 0)
    {
        PyErr_Clear();
    }
    Py_XDECREF(note);
    PyErr_Clear();
    const char *cfile = NULL, *cfunc = NULL;
    if (filename != NULL && lineno > 0) {
        cfile = PyUnicode_AsUTF8(filename);
        cfunc = PyUnicode_AsUTF8(((PyCodeObject *)lz->lz_code)->co_name);
        PyErr_Clear();
    }
    _PyErr_SetRaisedException(tstate, exc);
    if (cfile != NULL && cfunc != NULL) {
        /* A traceback entry showing the import statement. */
        _PyTraceback_Add(cfunc, cfile, lineno);
    }
}

/* Append to 'names' the module whose namespace holds the lazy import 'lz'
   (the module whose code reads it), unless it is the last name. */
static int
append_reader(PyObject *names, PyLazyImportObject *lz)
{
    PyObject *modname = NULL;
    if (lz->lz_globals == NULL || !PyDict_Check(lz->lz_globals)
        || PyDict_GetItemRef(lz->lz_globals, &_Py_ID(__name__),
                             &modname) <= 0)
    {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_ssize_t n = PyList_GET_SIZE(names);
    int r = 0;
    if (PyUnicode_Check(modname)
        && (n == 0 || PyUnicode_Compare(PyList_GET_ITEM(names, n - 1),
                                        modname) != 0))
    {
        r = PyList_Append(names, modname);
    }
    Py_DECREF(modname);
    return r;
}

/* Raise ImportError for the re-entry of 'lz', which is on 'stack': the
   message shows the cycle, each lazy import with the module reading it. */
static PyObject *
cycle_error(PyObject *stack, PyLazyImportObject *lz)
{
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return NULL;
    }
    int found = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(stack); i++) {
        PyLazyImportObject *item = LAZY(PyList_GET_ITEM(stack, i));
        found |= (item == lz);
        if (!found) {
            continue;
        }
        if ((item != lz && append_reader(names, item) < 0)
            || PyList_Append(names, item->lz_fullname) < 0)
        {
            goto done;
        }
    }
    if (append_reader(names, lz) < 0
        || PyList_Append(names, lz->lz_fullname) < 0)
    {
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
            "(most likely due to a circular import: %U)",
            lz->lz_fullname, chain);
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
        /* Unbound (no exception set) for an observer, and for the lazy
           binding of a submodule in its package, which the eager import
           makes only once the submodule is loaded: code that the import
           runs sees the attribute missing, as eagerly ("from . import x"
           falls back to sys.modules). */
        if (found > 0 && (is_reference(lazy) || is_observed(tstate, lazy))) {
            return NULL;
        }
        return found < 0 ? NULL : cycle_error(stack, lz);
    }
    Py_INCREF(lazy);
    if (PyList_Append(stack, lazy) < 0) {
        Py_DECREF(lazy);
        Py_DECREF(stack);
        return NULL;
    }
    Py_ssize_t skipped = enter_resolution(tstate);
    Py_ssize_t origin = push_origin(tstate, lazy);
    PyObject *res = origin < 0 ? NULL : resolve(lz);
    pop_origin(tstate, origin);
    leave_resolution(tstate, skipped);
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

int
_PyLazyImport_KeepsAttribute(PyObject *module, PyObject *name,
                             PyObject *fullname)
{
    PyObject *bound = _PyInterpreterState_GET()->imports.lazy_bound;
    if (bound == NULL || PyDict_GET_SIZE(bound) == 0) {
        return 0;
    }
    PyObject *package = forget_bound(fullname);
    Py_XDECREF(package);
    if (package != module || !PyModule_Check(module)) {
        return 0;
    }
    /* A lazy import bound the name: keep what the package did with it
       since (a value of its own, a lazy import of its own, or no value),
       but replace the lazy binding itself. */
    PyObject *value;
    int r = _PyDict_GetItemRefNoResolve(PyModule_GetDict(module), name,
                                        &value);
    if (r <= 0) {
        return r < 0 ? -1 : 1;
    }
    r = !is_reference(value);
    Py_DECREF(value);
    return r;
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

int
_PyLazyImport_GetModuleAttr(PyObject *module, PyObject *name,
                            PyObject **result)
{
    *result = NULL;
    PyObject *dict = ((PyModuleObject *)module)->md_dict;
    PyObject *value;
    int r = _PyDict_GetItemRefNoResolve(dict, name, &value);
    if (r <= 0) {
        return r;
    }
    if (!PyLazyImport_CheckExact(value)) {
        Py_DECREF(value);
        return 0;
    }
    PyObject *descr = _PyType_Lookup(Py_TYPE(module), name);
    if (descr != NULL && Py_TYPE(descr)->tp_descr_set != NULL) {
        Py_DECREF(value);
        return 0;  /* a data descriptor wins, as in a generic lookup */
    }
    if (_PyLazyImport_IsBeingResolved(dict, name)) {
        Py_DECREF(value);
        return 2;
    }
    r = PyDict_GetItemRef(dict, name, result);
    if (r == 0 && is_reference(value)
        && LAZY(value)->lz_submodule == SUBMODULE_NONE)
    {
        /* A tentative reference found no such submodule: the name was
           never bound.  (One that failed to import stays, so that the next
           use retries, as any lazy import that failed.) */
        PyObject *current;
        r = _PyDict_GetItemRefNoResolve(dict, name, &current);
        if (r > 0) {
            r = (current == value) ? PyDict_Pop(dict, name, NULL) : 0;
            Py_DECREF(current);
        }
        r = r < 0 ? -1 : 0;
    }
    Py_DECREF(value);
    return r < 0 ? -1 : r;
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

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
        r = PyDict_Contains(dict, name);
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


/* Submodules made reachable by lazy imports.

   An eager "import a.b.c" sets a.b and a.b.c as attributes of their
   packages, and other code comes to rely on it ("import a" elsewhere, then
   a.b.c.f()).  A lazy one records the names in a per-interpreter registry
   instead: when an attribute lookup on a module misses, a registered
   submodule of that name is imported then.  A package's own attributes are
   therefore never clobbered, and each submodule is imported only when it
   is reached.  "from a import b" registers a.b as well, tentatively: it may
   name an attribute, so a missing module a.b is not an error there. */

/* A registry entry is a tuple (origin, definite, owner): the lazy import
   that registered the name, whether the name is certainly a submodule, and
   the id of the thread state importing it now, or None. */
static PyObject *
registry_entry(PyObject *origin, int definite, PyObject *owner)
{
    return PyTuple_Pack(3, origin, definite ? Py_True : Py_False, owner);
}

/* Is the statement of 'lazy' in the package of the submodule 'fullname'?
   Returns 1, 0, or -1 with an exception set. */
static int
is_own_registration(PyObject *lazy, PyObject *fullname)
{
    PyObject *globals = LAZY(lazy)->lz_globals;
    PyObject *modname;
    if (globals == NULL || !PyDict_Check(globals)) {
        return 0;
    }
    if (PyDict_GetItemRef(globals, &_Py_ID(__name__), &modname) <= 0) {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t dot = PyUnicode_FindChar(fullname, '.', 0, len, -1);
    int r = 0;
    if (dot == -2) {
        r = -1;
    }
    else if (dot > 0 && PyUnicode_Check(modname)
             && PyUnicode_GET_LENGTH(modname) == dot)
    {
        r = PyUnicode_Tailmatch(fullname, modname, 0, dot, -1);
    }
    Py_DECREF(modname);
    return r;
}

/* Add "a.b" to the index of the registry: a in the set of the packages of
   b.  The index is keyed by the child's name (interned, as attribute names
   are), so that a missed attribute that no lazy import registered anywhere,
   the common case, costs one lookup.  Entries are never removed from the
   index: a stale one only costs a lookup in the registry. */
static int
index_submodule(PyInterpreterState *interp, PyObject *fullname)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t dot = PyUnicode_FindChar(fullname, '.', 0, len, -1);
    if (dot < 0) {
        return dot == -2 ? -1 : 0;  /* no package: never an attribute */
    }
    PyObject *index = interp->imports.lazy_submodules_index;
    if (index == NULL) {
        index = interp->imports.lazy_submodules_index = PyDict_New();
        if (index == NULL) {
            return -1;
        }
    }
    PyObject *child = PyUnicode_Substring(fullname, dot + 1, len);
    if (child == NULL) {
        return -1;
    }
    PyUnicode_InternInPlace(&child);
    PyObject *parents;
    int r = PyDict_GetItemRef(index, child, &parents);
    if (r == 0) {
        parents = PySet_New(NULL);
        r = (parents == NULL
             || PyDict_SetItem(index, child, parents) < 0) ? -1 : 1;
    }
    Py_DECREF(child);
    if (r > 0) {
        PyObject *parent = PyUnicode_Substring(fullname, 0, dot);
        r = parent ? PySet_Add(parents, parent) : -1;
        Py_XDECREF(parent);
    }
    Py_XDECREF(parents);
    return r;
}

static int
register_submodule(PyObject *registry, PyObject *fullname, PyObject *lazy,
                   int definite)
{
    if (index_submodule(_PyInterpreterState_GET(), fullname) < 0) {
        return -1;
    }
    PyObject *entry = registry_entry(lazy, definite, Py_None);
    if (entry == NULL) {
        return -1;
    }
    PyObject *old;
    int r = PyDict_SetDefaultRef(registry, fullname, entry, &old);
    if (r > 0 && PyTuple_GET_ITEM(old, 2) == Py_None) {
        /* Already registered.  "import a.b" makes certain what "from a
           import b" guessed; and a statement of the package a itself
           becomes the origin: eagerly, it is the one that would have
           imported a.b (see _PyLazyImport_KeepsAttribute()). */
        int old_definite = (PyTuple_GET_ITEM(old, 1) == Py_True);
        int own = is_own_registration(lazy, fullname);
        if (own < 0) {
            r = -1;
        }
        else if ((definite && !old_definite) || own) {
            Py_SETREF(entry, registry_entry(own ? lazy
                                                : PyTuple_GET_ITEM(old, 0),
                                            definite || old_definite,
                                            Py_None));
            r = entry ? PyDict_SetItem(registry, fullname, entry) : -1;
        }
    }
    Py_XDECREF(entry);
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

int
_PyLazyImport_BindPackageChild(PyObject *ns, PyObject *lazy)
{
    PyLazyImportObject *lz = LAZY(lazy);
    PyObject *modname;
    int r = _PyDict_GetItemRefNoResolve(ns, &_Py_ID(__name__), &modname);
    if (r <= 0) {
        return r;
    }
    r = 0;
    Py_ssize_t n = PyUnicode_Check(modname) ? PyUnicode_GET_LENGTH(modname)
                                            : 0;
    Py_ssize_t len = PyUnicode_GET_LENGTH(lz->lz_fullname);
    if (n == 0 || len <= n + 1
        || PyUnicode_Tailmatch(lz->lz_fullname, modname, 0, n, -1) != 1
        || PyUnicode_READ_CHAR(lz->lz_fullname, n) != '.')
    {
        goto done;
    }
    Py_ssize_t end = PyUnicode_FindChar(lz->lz_fullname, '.', n + 1, len, 1);
    if (end == -2) {
        r = -1;
        goto done;
    }
    PyObject *child = PyUnicode_Substring(lz->lz_fullname, n + 1,
                                          end >= 0 ? end : len);
    if (child == NULL) {
        r = -1;
        goto done;
    }
    r = PyDict_Contains(ns, child);
    if (r == 0) {
        /* What "from . import child" run here would bind. */
        PyObject *fromlist = PyTuple_Pack(1, child);
        PyObject *root = fromlist == NULL ? NULL : _PyLazyImport_New(
            modname, modname, fromlist, _PyLong_GetZero(), lz->lz_globals,
            lz->lz_locals, lz->lz_builtins, lz->lz_code, lz->lz_addr);
        Py_XDECREF(fromlist);
        PyObject *value = root == NULL ? NULL
                                       : _PyLazyImport_NewFrom(root, child);
        Py_XDECREF(root);
        r = (value == NULL) ? -1 : _PyDict_SetLazyItem(ns, child, value);
        Py_XDECREF(value);
    }
    Py_DECREF(child);
done:
    Py_DECREF(modname);
    return r < 0 ? -1 : 0;
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

/* The owner of a registry entry: the thread importing the submodule, by
   its thread state's unique id (thread idents are reused, after fork()
   too). */
static PyObject *
thread_owner_id(PyThreadState *tstate)
{
    return PyLong_FromUnsignedLongLong(tstate->id);
}

/* Replace registry[fullname] by 'entry' if it still is 'expected'. */
static int
registry_replace(PyObject *registry, PyObject *fullname, PyObject *expected,
                 PyObject *entry)
{
    PyObject *current;
    int r = PyDict_GetItemRef(registry, fullname, &current);
    if (r <= 0) {
        return r;
    }
    if (current == expected) {
        r = entry ? PyDict_SetItem(registry, fullname, entry)
                  : PyDict_DelItem(registry, fullname);
    }
    Py_DECREF(current);
    return r;
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

/* Is the innermost import this thread resolves the statement of 'origin':
   'origin' itself, or a name of its "from ... import"?  (Not one that an
   import started by that statement resolves in turn.) */
static int
is_resolving(PyThreadState *tstate, PyObject *origin)
{
    PyObject *stack = _PyImport_GetLazyStack(tstate);
    if (stack == NULL) {
        return -1;
    }
    int found = 0;
    Py_ssize_t n = PyList_GET_SIZE(stack);
    if (n > 0) {
        PyObject *item = PyList_GET_ITEM(stack, n - 1);
        found = (item == origin
                 || (LAZY(origin)->lz_fromlist != Py_None
                     && LAZY(item)->lz_parent == origin));
    }
    _PyImport_ReleaseLazyStack(tstate, stack);
    return found;
}

PyObject *
_PyLazyImport_GetRegisteredSubmodule(PyObject *module, PyObject *name,
                                     int definite)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *registry = tstate->interp->imports.lazy_submodules;
    PyObject *index = tstate->interp->imports.lazy_submodules_index;
    if (registry == NULL || PyDict_GET_SIZE(registry) == 0 || index == NULL
        || !PyUnicode_Check(name))
    {
        return NULL;
    }
    /* Most misses are names never registered (say the import system's
       probes of __path__ or __spec__): tell them by one lookup. */
    PyObject *parents;
    int found = PyDict_GetItemRef(index, name, &parents);
    if (found <= 0) {
        return NULL;
    }
    PyObject *modname = PyModule_GetNameObject(module);
    if (modname == NULL) {
        Py_DECREF(parents);
        PyErr_Clear();
        return NULL;
    }
    found = PySet_Contains(parents, modname);
    Py_DECREF(parents);
    if (found <= 0) {
        Py_DECREF(modname);
        return NULL;
    }
    PyObject *fullname = PyUnicode_FromFormat("%U.%U", modname, name);
    Py_DECREF(modname);
    if (fullname == NULL) {
        return NULL;
    }
    PyObject *entry, *mine = NULL, *res = NULL;
    if (PyDict_GetItemRef(registry, fullname, &entry) <= 0) {
        goto done;
    }
    PyObject *origin = PyTuple_GET_ITEM(entry, 0);
    PyObject *owner = PyTuple_GET_ITEM(entry, 2);
    if ((PyTuple_GET_ITEM(entry, 1) == Py_True) != definite) {
        goto done;
    }
    int busy = is_resolving(tstate, origin);
    if (busy != 0) {
        /* The import statement that registered the name is running in
           this thread: it imports the submodule itself, when an eager
           import would. */
        if (busy < 0) {
            PyErr_Clear();
        }
        goto done;
    }
    PyObject *ident = thread_owner_id(tstate);
    if (ident == NULL) {
        goto done;
    }
    if (owner != Py_None) {
        int same = PyObject_RichCompareBool(owner, ident, Py_EQ);
        if (same != 0) {
            /* This thread is importing the submodule: until that is done
               the attribute is missing, as during an eager import. */
            Py_DECREF(ident);
            goto done;
        }
        /* Another thread is importing it: import it too, which waits for
           that import to finish (the module lock) and gives its result. */
    }
    else {
        mine = registry_entry(origin, definite, ident);
        if (mine == NULL || registry_replace(registry, fullname, entry,
                                             mine) < 0)
        {
            Py_DECREF(ident);
            goto done;
        }
    }
    Py_DECREF(ident);

    PyLazyImportObject *lz = LAZY(origin);
    PyObject *builtins = lz->lz_builtins;
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    /* Another attempt if the module waited for is no longer in sys.modules:
       another thread's import of it failed meanwhile. */
    Py_ssize_t skipped = enter_resolution(tstate);
    Py_ssize_t pushed = push_origin(tstate, origin);
    for (int attempt = 0; attempt < 3 && res == NULL && pushed >= 0;
         attempt++)
    {
        res = _PyEval_ImportName(tstate, builtins, lz->lz_globals, Py_None,
                                 fullname, Py_None, _PyLong_GetZero());
        if (res == NULL) {
            break;
        }
        Py_SETREF(res, PyImport_GetModule(fullname));  /* waits for it */
        if (res == NULL) {
            if (_PyErr_Occurred(tstate)) {
                break;
            }
            continue;
        }
        PyObject *now;
        if (PyMapping_GetOptionalItem(PyImport_GetModuleDict(), fullname,
                                      &now) < 0)
        {
            Py_CLEAR(res);
            break;
        }
        if (now != res) {
            Py_CLEAR(res);
        }
        Py_XDECREF(now);
    }
    pop_origin(tstate, pushed);
    leave_resolution(tstate, skipped);
    if (res == NULL && !_PyErr_Occurred(tstate)) {
        PyErr_Format(PyExc_ModuleNotFoundError, "No module named %R",
                     fullname);
    }
    int forget = (res != NULL);
    if (res == NULL && !definite && is_missing_module(tstate, fullname)) {
        /* "from a import b" named an attribute, not a submodule. */
        PyErr_Clear();
        forget = 1;
    }
    else if (res == NULL) {
        /* Keep the entry: like a lazy name that failed to resolve, the
           next use retries. */
        add_deferred_context(tstate, lz);
    }
    if (mine != NULL || forget) {
        PyObject *exc = _PyErr_GetRaisedException(tstate);
        PyObject *back = NULL;
        if (forget
            || (back = registry_entry(origin, definite, Py_None)) != NULL)
        {
            if (registry_replace(registry, fullname, mine ? mine : entry,
                                 back) < 0)
            {
                PyErr_Clear();
            }
        }
        else {
            PyErr_Clear();
        }
        Py_XDECREF(back);
        _PyErr_SetRaisedException(tstate, exc);
    }
done:
    Py_XDECREF(mine);
    Py_XDECREF(entry);
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

int
_PyLazyImport_ImportRegisteredSubmodules(PyObject *module)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *registry = interp->imports.lazy_submodules;
    if (registry == NULL || PyDict_GET_SIZE(registry) == 0
        || !PyModule_Check(module))
    {
        return 0;
    }
    PyObject *modname = PyModule_GetNameObject(module);
    if (modname == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *prefix = PyUnicode_FromFormat("%U.", modname);
    Py_DECREF(modname);
    if (prefix == NULL) {
        return -1;
    }
    /* Importing changes the registry: walk a copy of its names. */
    PyObject *names = PyDict_Keys(registry);
    if (names == NULL) {
        Py_DECREF(prefix);
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(prefix);
    int r = 0, count = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names) && r == 0; i++) {
        PyObject *fullname = PyList_GET_ITEM(names, i);
        Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
        if (len <= n
            || PyUnicode_Tailmatch(fullname, prefix, 0, n, -1) != 1)
        {
            continue;
        }
        /* module.x.y: import it through module.x. */
        Py_ssize_t dot = PyUnicode_FindChar(fullname, '.', n, len, 1);
        if (dot == -2) {
            r = -1;
            break;
        }
        if (dot >= 0) {
            PyObject *sub = PyImport_GetModule(fullname);
            if (sub != NULL) {
                Py_DECREF(sub);
                continue;
            }
            if (PyErr_Occurred()) {
                r = -1;
                break;
            }
            PyObject *entry;
            if (PyDict_GetItemRef(registry, fullname, &entry) < 0) {
                r = -1;
                break;
            }
            int wanted = (entry != NULL
                          && PyTuple_GET_ITEM(entry, 1) == Py_True
                          && PyTuple_GET_ITEM(entry, 2) == Py_None);
            Py_XDECREF(entry);
            if (wanted) {
                sub = PyImport_ImportModuleLevelObject(fullname, NULL, NULL,
                                                       NULL, 0);
                if (sub == NULL) {
                    r = -1;
                    break;
                }
                Py_DECREF(sub);
                count++;
            }
            continue;
        }
        PyObject *child = PyUnicode_Substring(fullname, n, len);
        if (child == NULL) {
            r = -1;
            break;
        }
        PyObject *sub = _PyLazyImport_GetRegisteredSubmodule(module, child,
                                                             1);
        Py_DECREF(child);
        if (sub == NULL && PyErr_Occurred()) {
            r = -1;
        }
        count += (sub != NULL);
        Py_XDECREF(sub);
    }
    Py_DECREF(names);
    Py_DECREF(prefix);
    return r < 0 ? -1 : count;
}

/* Drop the registry entries that the from-import 'origin' made for its
   module and for the name 'lz' (see _PyLazyImport_RegisterSubmodules). */
static void
forget_registered(PyLazyImportObject *origin, PyLazyImportObject *lz)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *registry = interp->imports.lazy_submodules;
    if (registry == NULL || PyDict_GET_SIZE(registry) == 0) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *names[2] = {origin->lz_fullname, lz->lz_fullname};
    for (int i = 0; i < 2; i++) {
        PyObject *entry;
        if (PyDict_GetItemRef(registry, names[i], &entry) > 0) {
            if (PyTuple_GET_ITEM(entry, 0) == (PyObject *)origin
                && PyDict_DelItem(registry, names[i]) < 0)
            {
                PyErr_Clear();
            }
            Py_DECREF(entry);
        }
        PyErr_Clear();
    }
    PyErr_SetRaisedException(exc);
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

static PyObject *
resolve(PyLazyImportObject *lz)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (lz->lz_parent == NULL) {
        if (lz->lz_fromlist != Py_None) {
            return import_module(lz, lz->lz_name, lz->lz_fromlist);
        }
        /* "import a.b.c" binds "a": import just "a".  a.b and a.b.c are
           registered submodules, imported when they are first reached.
           A replaced __import__ sees the statement's own call instead. */
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
        /* The import system has now imported, or failed to import, what
           the statement registered for this name. */
        forget_registered(parent, lz);
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
        if (found > 0 && is_observed(tstate, lazy)) {
            return NULL;  /* unbound: no exception set */
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

/* Is 'name' the module 'fullname' or inside it? */
static int
is_within(PyObject *name, PyObject *fullname)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(fullname);
    if (PyUnicode_Tailmatch(name, fullname, 0, n, -1) != 1) {
        return 0;
    }
    return (PyUnicode_GET_LENGTH(name) == n
            || PyUnicode_READ_CHAR(name, n) == '.');
}

int
_PyLazyImport_KeepsAttribute(PyObject *module, PyObject *name,
                             PyObject *fullname)
{
    if (!PyModule_Check(module)) {
        return 0;
    }
    PyObject *dict = PyModule_GetDict(module);
    PyObject *value;
    int r = _PyDict_GetItemRefNoResolve(dict, name, &value);
    if (r <= 0) {
        return r;
    }
    if (PyLazyImport_CheckExact(value)) {
        /* "from .name import x" not resolved yet: its result, not the
           submodule, is what the package binds. */
        r = is_within(LAZY(value)->lz_fullname, fullname);
    }
    else if (!PyModule_Check(value)) {
        /* A value the package set itself ("__version__ = ...") after a
           lazy import of the submodule ("from . import __version__ as v",
           "import pkg.sub.x"), which an eager import would have run first:
           did the package register the submodule, or does it hold such a
           lazy import, pending or being resolved? */
        PyObject *registry = _PyInterpreterState_GET()->imports.lazy_submodules;
        PyObject *entry = NULL;
        r = 0;
        if (registry != NULL
            && PyDict_GetItemRef(registry, fullname, &entry) < 0)
        {
            Py_DECREF(value);
            return -1;
        }
        if (entry != NULL) {
            r = (LAZY(PyTuple_GET_ITEM(entry, 0))->lz_globals == dict);
            Py_DECREF(entry);
        }
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (!r && _PyDict_Next(dict, &pos, &k, &v, NULL)) {
            r = (PyLazyImport_CheckExact(v)
                 && is_within(LAZY(v)->lz_fullname, fullname));
        }
    }
    else {
        r = 0;
    }
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
    int lazy = PyLazyImport_CheckExact(value);
    Py_DECREF(value);
    if (!lazy) {
        return 0;
    }
    PyObject *descr = _PyType_Lookup(Py_TYPE(module), name);
    if (descr != NULL && Py_TYPE(descr)->tp_descr_set != NULL) {
        return 0;  /* a data descriptor wins, as in a generic lookup */
    }
    if (_PyLazyImport_IsBeingResolved(dict, name)) {
        return 2;
    }
    r = PyDict_GetItemRef(dict, name, result);
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

/* The healing of PEP 690's lazy imports in this fork: what -L completes
   early, and what it finds rather than runs, so that a program runs as it
   does eagerly (rules 50-58 of Doc/library/lazy_imports_contract.rst).

   Python/lazyimport.c is the runtime that PEP 690 needs: which import
   statements are deferred, the lazy objects, their resolution, the module
   attribute lookups.  This file holds what the runtime asks of the
   healing: the catch-up of a missed attribute (rule 51,
   _PyLazyImport_CatchUp()), the package order of a submodule's import
   (_PyLazyImport_CompletePackage()), the registries read short (rule 52),
   the code read for them (rule 55), and the guard's finding (rule 54,
   _PyLazyImport_GuardFinds()).  InternalDocs/lazy_imports.md maps them. */

#include "Python.h"
#include "pycore_dict.h"          // _PyDict_GetItemRefNoResolve()
#include "pycore_frame.h"         // _PyInterpreterFrame
#include "pycore_import.h"        // _PyImport_IsDefaultImportFunc()
#include "pycore_lazyimport.h"
#include "pycore_moduleobject.h"  // _PyModuleSpec_IsInitializing()
#include "pycore_opcode_metadata.h" // _PyOpcode_Caches
#include "pycore_pyerrors.h"      // _PyErr_Occurred()
#include "pycore_pystate.h"       // _PyInterpreterState_GET()
#include "pycore_setobject.h"     // _PySet_NextEntry()
#include "pycore_tstate.h"        // _PyThreadStateImpl
#include "pycore_unicodeobject.h" // _PyUnicode_EqualToASCIIString()
#include "opcode.h"               // LOAD_NAME
#include "lazyimport_internal.h"  // LAZY(), _PyLazyImport_StatementOf()

/* ----- Catching up on a missed attribute (contract rule 51) -------------- */

/* Is the attribute lookup running now the hasattr() of
   importlib._bootstrap._handle_fromlist(), which asks whether a package
   has the name of a from-import before it imports the submodule of that
   name itself? */
static int
is_fromlist_probe(PyThreadState *tstate)
{
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    if (state->fromlist_code == NULL) {
        PyObject *importlib = tstate->interp->imports.importlib;
        PyObject *func = importlib == NULL ? NULL
            : PyObject_GetAttrString(importlib, "_handle_fromlist");
        if (func == NULL) {
            PyErr_Clear();
            return 0;
        }
        if (PyFunction_Check(func)) {
            state->fromlist_code = Py_NewRef(PyFunction_GET_CODE(func));
        }
        Py_DECREF(func);
        if (state->fromlist_code == NULL) {
            return 0;
        }
    }
    _PyInterpreterFrame *frame = tstate->current_frame;
    while (frame != NULL && frame->owner == FRAME_OWNED_BY_CSTACK) {
        frame = frame->previous;
    }
    return frame != NULL && frame->f_executable == state->fromlist_code;
}

/* Is the module 'name' in sys.modules, its body done?  Returns 1, 0, or
   -1 with an exception set. */
static int
is_loaded(PyObject *name)
{
    PyObject *module;
    int r = _PyLazyImport_GetImported(name, &module);
    if (r <= 0) {
        return r;
    }
    r = _PyLazyImport_IsInitializing(module);
    Py_DECREF(module);
    return r < 0 ? -1 : !r;
}

int
_PyLazyImport_DefinedLater(PyObject *dict, PyObject *func)
{
    PyThreadState *tstate = _PyThreadState_GET();
    for (Py_ssize_t i = RESOLVING(tstate).resolving_len - 1; i >= 0; i--) {
        PyObject *lazy = RESOLVING(tstate).resolving[i].lazy;
        PyLazyImportObject *lz = _PyLazyImport_StatementOf(LAZY(lazy));
        if (lz->lz_globals == dict) {
            /* The innermost statement of that body: eagerly the body is
               paused there, and __getattr__ is bound only if it was bound
               when the statement ran (by a def before it, an assignment,
               or a factory of another module: lazy_loader.attach()). */
            return !lz->lz_getattr_before;
        }
    }
    return 0;
}

/* Would completing the lazy import 'lz' run no import: "import a.b" with
   a.b loaded, a name of a from-import whose module is loaded and has the
   name, a from-import statement whose module has all its names (eager
   execution, or another name of the statement, ran it)?  Returns 1, 0, or
   -1 with an exception set. */
static int
runs_nothing(PyLazyImportObject *lz)
{
    PyLazyImportObject *statement = _PyLazyImport_StatementOf(lz);
    if (_PyLazyImport_IsReference((PyObject *)lz)) {
        return 0;
    }
    if (statement->lz_fromlist != Py_None && statement->lz_value != NULL) {
        return 1;   /* completed early: its names resolve where used */
    }
    int r = is_loaded(statement->lz_fullname);
    if (r <= 0 || statement->lz_fromlist == Py_None) {
        return r;
    }
    PyObject *module;
    r = _PyLazyImport_GetImported(statement->lz_fullname, &module);
    if (r <= 0 || !PyModule_Check(module)) {
        Py_XDECREF(module);
        return r < 0 ? -1 : 0;
    }
    PyObject *dict = PyModule_GetDict(module);
    PyObject *names = lz->lz_parent != NULL ? NULL : statement->lz_fromlist;
    Py_ssize_t n = names ? PyTuple_GET_SIZE(names) : 1;
    for (Py_ssize_t i = 0; r > 0 && i < n; i++) {
        PyObject *name = names ? PyTuple_GET_ITEM(names, i) : lz->lz_name;
        PyObject *value;
        r = _PyDict_GetItemRefNoResolve(dict, name, &value);
        if (r > 0) {
            r = !PyLazyImport_CheckExact(value);
            Py_DECREF(value);
        }
    }
    Py_DECREF(module);
    return r;
}

/* What catch_up() looks for in a namespace: the deferred imports of the
   module's own body, or the lazy references to submodules bound there. */
#define CANDIDATE_OWN 1
#define CANDIDATE_SUBMODULE 2
/* Or, of the package's own deferred imports, those of modules inside it:
   circular imports among a package's modules depend on their order,
   which _PyLazyImport_CompletePackage() keeps. */
#define CANDIDATE_OWN_INSIDE 3
/* Or, of the module's own deferred imports, those of modules inside the
   top-level package 'modname': the ones that can fill a registry of that
   package as they are imported (see
   _PyLazyImport_CompleteForSharedObject()). */
#define CANDIDATE_OWN_OF_PACKAGE 4

/* Which imports can explain a missing attribute of the module 'modname'
   (see catch_up())?  Those of modules of its own top-level package: the
   import system binds a package's submodules in it, and they may fill
   it; no module of the standard library fills the namespace of a module
   outside its own top-level package, and a module of another package
   that patches this one (a plugin) is a write that importlib.lazy's
   report names, not a completion the miss can count on.  Returns
   EXPLAIN_ANY (no module named) or EXPLAIN_OWN_PACKAGE. */
#define EXPLAIN_ANY 0
#define EXPLAIN_OWN_PACKAGE 2
static int
explaining(PyObject *modname)
{
    return modname == NULL ? EXPLAIN_ANY : EXPLAIN_OWN_PACKAGE;
}

/* Can the deferred statement 'st' explain a missing attribute of the
   module 'modname', for which explaining() said 'which'?  Returns 1, 0,
   or -1 with an exception set. */
static int
can_explain(PyLazyImportObject *st, PyObject *modname, int which)
{
    PyObject *target = st->lz_fullname;
    if (which == EXPLAIN_ANY || target == NULL) {
        return 1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(modname);
    Py_ssize_t dot = _PyLazyImport_FindDot(modname, 0, len);
    PyObject *top = PyUnicode_Substring(modname, 0, dot < 0 ? len : dot);
    if (top == NULL) {
        return -1;
    }
    int r = _PyLazyImport_IsInside(target, top);
    Py_DECREF(top);
    return r;
}

/* Find, in 'dict', the lazy import of kind 'kind' that eager execution
   completed first among those it had completed by now (see
   _PyLazyImport_CompletedByNow()), if it comes before *best_key: then replace
   *best_key, *best_name and *best_dict (new references).  'modname' is
   the name of the module of 'dict' and 'only', if not NULL, the set of
   modules a candidate must import (both used by CANDIDATE_OWN_INSIDE, see
   _PyLazyImport_NeededBy()).  Returns 0, or -1 with an exception set. */
static int
earliest_in(PyThreadState *tstate, PyObject *dict, PyObject *modname,
            int kind, PyObject *only, PyObject **best_key,
            PyObject **best_name, PyObject **best_dict)
{
    Py_ssize_t pos = 0;
    PyObject *name, *value;
    int which = kind == CANDIDATE_OWN ? explaining(modname)
                : kind == CANDIDATE_OWN_OF_PACKAGE ? EXPLAIN_OWN_PACKAGE
                : EXPLAIN_ANY;
    if (which < 0) {
        return -1;
    }
    /* Nothing that runs code is called while walking (_PyLazyImport_EagerKey()
       and _PyLazyImport_CompletedByNow() only allocate). */
    while (_PyDict_Next(dict, &pos, &name, &value, NULL)) {
        if (!PyLazyImport_CheckExact(value)
            || _PyLazyImport_IsResolvingIn(tstate, value))
        {
            continue;
        }
        PyLazyImportObject *lz = LAZY(value);
        if (kind == CANDIDATE_SUBMODULE
            ? (!_PyLazyImport_IsReference(value)
               || lz->lz_submodule == SUBMODULE_NONE)
            : _PyLazyImport_StatementOf(lz)->lz_globals != dict)
        {
            continue;
        }
        if (kind == CANDIDATE_OWN_INSIDE) {
            PyObject *target = _PyLazyImport_StatementOf(lz)->lz_fullname;
            if (target == NULL || !_PyLazyImport_IsInside(target, modname)) {
                continue;
            }
            if (only != NULL) {
                int r = _PyLazyImport_NeededBy(lz, modname, only);
                if (r < 0) {
                    return -1;
                }
                if (!r) {
                    continue;
                }
            }
        }
        if (kind != CANDIDATE_SUBMODULE) {
            int r = runs_nothing(lz);
            if (r == 0 && which != EXPLAIN_ANY) {
                r = can_explain(_PyLazyImport_StatementOf(lz), modname, which);
                r = r < 0 ? -1 : !r;
            }
            if (r < 0) {
                return -1;
            }
            if (r) {
                continue;
            }
        }
        PyObject *key = _PyLazyImport_EagerKey(lz);
        if (key == NULL) {
            return -1;
        }
        int r = (*best_key == NULL
                 || _PyLazyImport_KeyPrecedes(key, *best_key));
        if (r) {
            r = _PyLazyImport_CompletedByNow(tstate, key);
        }
        if (r < 0) {
            Py_DECREF(key);
            return -1;
        }
        if (r) {
            Py_XSETREF(*best_key, key);
            Py_XSETREF(*best_name, Py_NewRef(name));
            Py_XSETREF(*best_dict, Py_NewRef(dict));
        }
        else {
            Py_DECREF(key);
        }
    }
    return 0;
}

/* The submodules of the package 'dict', named 'modname', that are loaded
   and bound in it: a new list of (module, its name) for the module values
   named modname.<key> (a subclass of module too: pygments.formatters
   replaces itself with one).  NULL with an exception set on error. */
static PyObject *
loaded_submodules(PyObject *dict, PyObject *modname)
{
    /* Collected first: comparing names calls code. */
    PyObject *subs = PyList_New(0);
    Py_ssize_t pos = 0;
    PyObject *name, *value;
    while (subs != NULL && _PyDict_Next(dict, &pos, &name, &value, NULL)) {
        if (PyModule_Check(value) && PyUnicode_Check(name)
            && ((PyModuleObject *)value)->md_dict != dict)
        {
            PyObject *item = PyTuple_Pack(2, value, name);
            if (item == NULL || PyList_Append(subs, item) < 0) {
                Py_CLEAR(subs);
            }
            Py_XDECREF(item);
        }
    }
    PyObject *found = subs == NULL ? NULL : PyList_New(0);
    for (Py_ssize_t i = 0; found && i < PyList_GET_SIZE(subs); i++) {
        PyObject *sub = PyTuple_GET_ITEM(PyList_GET_ITEM(subs, i), 0);
        PyObject *subdict = ((PyModuleObject *)sub)->md_dict;
        PyObject *subname = NULL, *expected = NULL;
        int r = subdict == NULL ? 0
                : _PyDict_GetItemRefNoResolve(subdict, &_Py_ID(__name__),
                                              &subname);
        if (r > 0) {
            expected = _PyLazyImport_Dotted(
                modname, PyTuple_GET_ITEM(PyList_GET_ITEM(subs, i), 1));
            r = expected == NULL ? -1
                : (PyUnicode_Check(subname)
                   && _PyUnicode_Equal(subname, expected));
        }
        if (r > 0) {
            PyObject *item = PyTuple_Pack(2, sub, subname);
            r = (item == NULL || PyList_Append(found, item) < 0) ? -1 : 0;
            Py_XDECREF(item);
        }
        Py_XDECREF(expected);
        Py_XDECREF(subname);
        if (r < 0) {
            Py_CLEAR(found);
        }
    }
    Py_XDECREF(subs);
    return found;
}

/* Like earliest_in() for the submodule references bound in the package
   'dict', named 'modname', and in its submodules that are loaded (reached
   through its attributes), at any depth. */
static int
earliest_in_package(PyThreadState *tstate, PyObject *dict, PyObject *modname,
                    int depth, PyObject **best_key, PyObject **best_name,
                    PyObject **best_dict)
{
    if (depth > 64) {
        return 0;   /* a package nested deeper than any real one */
    }
    if (_PyDict_MayHoldLazyImports(dict)
        && earliest_in(tstate, dict, modname, CANDIDATE_SUBMODULE, NULL,
                       best_key, best_name, best_dict) < 0)
    {
        return -1;
    }
    PyObject *subs = loaded_submodules(dict, modname);
    int r = subs == NULL ? -1 : 0;
    for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(subs); i++) {
        PyObject *sub = PyList_GET_ITEM(subs, i);
        r = earliest_in_package(
            tstate, ((PyModuleObject *)PyTuple_GET_ITEM(sub, 0))->md_dict,
            PyTuple_GET_ITEM(sub, 1), depth + 1, best_key, best_name,
            best_dict);
    }
    Py_XDECREF(subs);
    return r;
}

/* Complete the deferred import bound to 'name' in 'dict' early, for the
   cause PyUnicode_FromFormat(why, modname, attr) (told to the observer
   and, with -v, on stderr).  Returns 0, or -1 with an exception set. */
int
_PyLazyImport_CompleteEarly(PyThreadState *tstate, PyObject *dict,
                            PyObject *name, const char *why,
                            PyObject *modname, PyObject *attr,
                            PyObject **collected)
{
    PyObject *value;
    int r = dict == NULL ? (value = Py_NewRef(name), 1)
            : _PyDict_GetItemRefNoResolve(dict, name, &value);
    if (r <= 0) {
        return r;
    }
    if (!PyLazyImport_CheckExact(value)) {
        Py_DECREF(value);
        return 0;
    }
    PyLazyImportObject *lz = LAZY(value);
    int verbose = _PyInterpreterState_GetConfig(tstate->interp)->verbose;
    if (verbose || tstate->interp->imports.lazy.observer != NULL) {
        PyObject *fullname = _PyLazyImport_FullName(value);
        PyObject *cause = fullname == NULL ? NULL : PyUnicode_FromFormat(
            why, modname, attr);
        if (cause == NULL) {
            Py_DECREF(value);
            return -1;
        }
        if (verbose) {
            PySys_FormatStderr("# lazy import '%U' completed early: %U\n",
                               fullname, cause);
        }
        _PyLazyImport_NotifyStatement("early", lz, cause);
        Py_DECREF(cause);
    }
    /* Read through the dict: it resolves, and stores the result back; a
       statement of a list of collected ones (dict NULL), or of a name of a
       from-import, is resolved itself.  The statement imports what it
       names ("import a.b.c" all of a.b.c, see _PyLazyImport_ResolveObject());
       the imports of the modules it runs stay deferred, and are collected in
       *collected if asked for. */
    PyLazyImportObject *st = _PyLazyImport_StatementOf(lz);
    int whole = (dict == NULL);
    if (!whole && st != lz && st->lz_fromlist != Py_None) {
        /* A name of a from-import: its statement, which runs the module
           and leaves the names lazy (see
           _PyLazyImport_ImportStatementModule()), unless it takes the name
           from the namespace's own package ("from . import a" in its
           __init__): then it imports just the submodule a. */
        PyObject *own;
        r = _PyLazyImport_GetImported(st->lz_fullname, &own);
        if (r < 0) {
            Py_DECREF(value);
            return -1;
        }
        whole = !(r > 0 && PyModule_Check(own)
                  && PyModule_GetDict(own) == dict);
        Py_XDECREF(own);
    }
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)tstate;
    PyObject *saved = ts->lazy_imports.collect;
    ts->lazy_imports.collect = NULL;
    if (collected != NULL
        && (*collected = ts->lazy_imports.collect = PyList_New(0)) == NULL)
    {
        ts->lazy_imports.collect = saved;
        Py_DECREF(value);
        return -1;
    }
    ts->lazy_imports.completing++;
    PyObject *res;
    if (whole) {
        res = _PyLazyImport_Resolve((PyObject *)st);
        r = res == NULL ? -1 : 0;
    }
    else {
        r = PyDict_GetItemRef(dict, name, &res);
    }
    ts->lazy_imports.completing--;
    ts->lazy_imports.collect = saved;
    Py_XDECREF(res);
    Py_DECREF(value);
    return r < 0 ? -1 : 0;
}

/* Complete, depth first, the statements of the list 'statements', which
   an early completion deferred, and those they defer in turn, until
   'until' is in 'until_in' (see catch_up()).  Returns 1 when it is, 0 when
   not (or a completion failed: it stays lazy), or -1 with an exception
   set. */
static int
complete_descendants(PyThreadState *tstate, PyObject *statements,
                     const char *why, PyObject *modname, PyObject *attr,
                     PyObject *until_in, PyObject *until, int depth)
{
    int which = explaining(modname);
    int r = which < 0 ? -1 : 0;
    for (Py_ssize_t i = 0;
         r == 0 && depth < 200 && i < PyList_GET_SIZE(statements); i++)
    {
        PyObject *statement = PyList_GET_ITEM(statements, i);
        PyObject *key = NULL, *collected = NULL;
        if (_PyLazyImport_IsResolvingIn(tstate, statement)
            || LAZY(statement)->lz_value != NULL)
        {
            continue;
        }
        r = can_explain(LAZY(statement), modname, which);
        if (r <= 0) {
            r = r < 0 ? -1 : 0;
            continue;
        }
        r = runs_nothing(LAZY(statement));
        if (r == 0) {
            key = _PyLazyImport_EagerKey(LAZY(statement));
            r = key == NULL ? -1 : !_PyLazyImport_CompletedByNow(tstate, key);
            Py_XDECREF(key);
        }
        if (r != 0) {
            r = r < 0 ? -1 : 0;
            continue;
        }
        Py_INCREF(statement);
        r = _PyLazyImport_CompleteEarly(tstate, NULL, statement, why,
                                        modname, attr, &collected);
        Py_DECREF(statement);
        if (r < 0 && _PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
            _PyErr_Clear(tstate);   /* fails where it is used */
            Py_XDECREF(collected);
            return 0;
        }
        if (r == 0) {
            r = PySequence_Contains(until_in, until);
        }
        if (r == 0 && collected != NULL) {
            r = complete_descendants(tstate, collected, why, modname, attr,
                                     until_in, until, depth + 1);
        }
        Py_XDECREF(collected);
    }
    return r;
}

/* Complete, one at a time in eager order, the imports of kind 'kind' that
   can explain the miss of 'attr' in the module whose namespace is 'dict',
   named 'modname', until the module has the name.  Returns 1 when it has,
   0 when no candidate is left or one failed, or -1 with an exception
   set. */
static int
catch_up(PyThreadState *tstate, PyObject *dict, PyObject *modname,
         PyObject *attr, int kind, PyObject *until_in, PyObject *until,
         const char *why, int deep, PyObject *limit, PyObject *only)
{
    int checked = (kind != CANDIDATE_SUBMODULE);
    for (;;) {
        /* Only what comes before 'limit', if given, in eager order. */
        PyObject *key = Py_XNewRef(limit), *name = NULL, *in = NULL;
        int r = (kind != CANDIDATE_SUBMODULE)
            ? earliest_in(tstate, dict, modname, kind, only, &key, &name,
                          &in)
            : earliest_in_package(tstate, dict, modname, 0, &key, &name,
                                  &in);
        Py_XDECREF(key);
        if (r == 0 && name != NULL && !checked) {
            /* Only a submodule can be explained by the imports of other
               submodules: is 'attr' one?  (Its spec is found without
               importing anything.) */
            checked = 1;
            PyObject *path = NULL, *spec = NULL;
            PyObject *fullname = _PyLazyImport_Dotted(modname, attr);
            r = fullname ? _PyDict_GetItemRefNoResolve(
                               dict, &_Py_ID(__path__), &path) : -1;
            if (r > 0) {
                spec = PyObject_CallMethod(
                    tstate->interp->imports.importlib, "_find_spec", "OO",
                    fullname, path);
                r = spec == NULL ? -1 : (spec != Py_None);
            }
            Py_XDECREF(spec);
            Py_XDECREF(path);
            Py_XDECREF(fullname);
            if (r == 0) {
                Py_CLEAR(name);     /* not a submodule: nothing to do */
            }
            r = (r < 0) ? -1 : 0;
        }
        int found = (name != NULL);
        PyObject *collected = NULL;
        if (r == 0 && found) {
            r = _PyLazyImport_CompleteEarly(tstate, in, name, why, modname,
                                            attr, deep ? &collected : NULL);
            if (r < 0 && _PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
                /* Eagerly the program would have failed at the statement.
                   Its error is raised where the name is used (contract
                   rules 24 and 25), not by this lookup (a probe such as
                   unittest's getattr(module, "setUpModule", None)), and
                   nothing after it in eager order is completed. */
                _PyErr_Clear(tstate);
                found = 0;
                r = 0;
            }
            else if (r == 0) {
                r = PySequence_Contains(until_in, until);
            }
            if (r == 0 && collected != NULL) {
                /* Depth first: what the statement's modules deferred came,
                   eagerly, before the next statement. */
                r = complete_descendants(tstate, collected, why, modname,
                                         attr, until_in, until, 0);
            }
        }
        Py_XDECREF(collected);
        Py_XDECREF(name);
        Py_XDECREF(in);
        if (r != 0 || !found) {
            return r;
        }
    }
}

/* Is 'tp' a container class of weakref or collections (a
   WeakValueDictionary, a defaultdict)?  A subclass of dict defined
   elsewhere may keep its data in attributes (requests' LookupDict). */
static int
is_stdlib_container(PyTypeObject *tp)
{
    if (tp->tp_iter == NULL) {
        return 0;
    }
    PyObject *modname = PyDict_GetItemWithError(
        _PyType_GetDict(tp), &_Py_ID(__module__));
    if (modname == NULL) {
        PyErr_Clear();
        return (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0
               && strncmp(tp->tp_name, "collections.", 12) == 0;
    }
    return PyUnicode_Check(modname)
           && (_PyUnicode_EqualToASCIIString(modname, "weakref")
               || _PyUnicode_EqualToASCIIString(modname, "collections"));
}

/* Is 'value' an object that the modules of a package may fill as they
   are imported, a registry: a dict, list or set still empty, or such a
   container of weakref or collections (hypothesis's WeakValueDictionary
   of strategies; a table of constants is not empty), or an instance of
   a class of the importer's own top-level package 'top' that answers
   missing attributes with __getattr__ (SymPy's S, which installs what its
   modules register)?  Not a module, class, function, typing construct or
   immutable value.  Returns 1, 0, or -1 with an exception set. */
int
_PyLazyImport_IsSharedObject(PyObject *value, PyObject *top)
{
    PyTypeObject *tp = Py_TYPE(value);
    if (PyModule_Check(value) || PyType_Check(value)
        || PyUnicode_Check(value) || PyBytes_Check(value)
        || PyTuple_Check(value) || PyFrozenSet_Check(value))
    {
        return 0;
    }
    if (PyDict_CheckExact(value) || PyList_CheckExact(value)
        || PySet_CheckExact(value) || is_stdlib_container(tp))
    {
        Py_ssize_t size = PyObject_Size(value);
        if (size < 0) {
            PyErr_Clear();      /* not a container after all */
            return 0;
        }
        return size == 0;
    }
    /* A registry answers a miss from what was registered: its class
       defines __getattr__ (astroid's Uninferable, whose
       __getattribute__ answers everything with itself, is no registry). */
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)
        || tp->tp_getattro == PyObject_GenericGetAttr
        || _PyType_Lookup(tp, &_Py_ID(__getattr__)) == NULL)
    {
        return 0;
    }
    PyObject *modname;
    int r = PyObject_GetOptionalAttr((PyObject *)tp, &_Py_ID(__module__),
                                     &modname);
    if (r <= 0) {
        return r;
    }
    r = PyUnicode_Check(modname) && _PyLazyImport_IsInside(modname, top);
    Py_DECREF(modname);
    return r;
}

/* Complete, in eager order, the deferred imports of modules of the
   top-level package 'topname' that the body of the module of 'dict' (still
   running) has made and, if 'deep', depth first those of that package
   that the modules they run defer in turn, with the reason 'why'
   ('modname' and 'attr' its arguments); *completed counts them.  A
   completion that fails stays lazy, to fail where it is used.  Returns 0,
   or -1 with an exception set. */
static int
complete_package_imports(PyThreadState *tstate, PyObject *dict,
                         PyObject *topname, const char *why,
                         PyObject *modname, PyObject *attr, int deep,
                         int *completed)
{
    int r = 1;
    while (r > 0) {
        PyObject *key = NULL, *found = NULL, *in = NULL, *collected = NULL;
        r = earliest_in(tstate, dict, topname, CANDIDATE_OWN_OF_PACKAGE,
                        NULL, &key, &found, &in);
        Py_XDECREF(key);
        if (r == 0 && found != NULL) {
            r = _PyLazyImport_CompleteEarly(tstate, in, found, why, modname,
                                            attr, deep ? &collected : NULL);
            if (r < 0 && _PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
                _PyErr_Clear(tstate);   /* fails where it is used */
                Py_CLEAR(found);
                r = 0;
            }
            else if (r == 0 && collected != NULL) {
                /* Nothing to wait for: all of them. */
                PyObject *none = PyTuple_New(0);
                r = none == NULL ? -1
                    : complete_descendants(tstate, collected, why, modname,
                                           attr, none, Py_None, 0);
                r = r < 0 ? -1 : 0;
                Py_XDECREF(none);
            }
        }
        Py_XDECREF(collected);
        r = (r < 0) ? -1 : (found != NULL);
        *completed += (r > 0);
        Py_XDECREF(found);
        Py_XDECREF(in);
    }
    return r;
}

/* Contract rule 52: a name that "from P.m import name" takes from a
   module of the importer's own package is a shared object (see
   _PyLazyImport_IsSharedObject()) that the importer's other imports may have
   filled eagerly, before the name is read.  Complete the importer's deferred
   imports of modules of that package that eager execution has completed by
   now, in eager order, each with the imports it makes, before the value is
   handed out.  Only the package's own modules fill its registry as they are
   imported: not the standard library, not another package (a Django settings
   object or a pydantic model read in a module no longer completes its imports
   of json or of other projects).  Returns 0, or -1 with an exception set (one
   not derived from Exception: a failed completion stays lazy, to fail where it
   is used). */
int
_PyLazyImport_CompleteForSharedObject(PyThreadState *tstate, PyObject *dict,
                                      PyObject *fullname, PyObject *name,
                                      PyObject *value)
{
    if (tstate->interp->imports.lazy.mode <= 0
        || !tstate->interp->imports.lazy.heal
        || dict == NULL || !PyDict_Check(dict)
        || PyModule_Check(value) || PyType_Check(value)
        || PyFunction_Check(value) || PyCFunction_Check(value))
    {
        return 0;
    }
    /* The same top-level package.  A module run as __main__ by "python
       -m pkg.cli" is pkg.cli (its __spec__'s name). */
    PyObject *importer;
    int r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__name__), &importer);
    if (r <= 0) {
        return r;
    }
    if (PyUnicode_Check(importer)
        && _PyUnicode_Equal(importer, &_Py_ID(__main__)))
    {
        PyObject *spec, *specname = NULL;
        r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__spec__), &spec);
        if (r > 0) {
            r = spec == Py_None ? 0
                : PyObject_GetOptionalAttr(spec, &_Py_ID(name), &specname);
            Py_DECREF(spec);
        }
        if (r < 0) {
            Py_DECREF(importer);
            return -1;
        }
        if (specname != NULL && PyUnicode_Check(specname)) {
            Py_SETREF(importer, specname);
        }
        else {
            Py_XDECREF(specname);
        }
    }
    Py_ssize_t top = PyUnicode_Check(importer)
                     ? _PyLazyImport_FindDot(importer, 0,
                                             PyUnicode_GET_LENGTH(importer))
                     : -2;
    if (top == -1) {
        top = PyUnicode_GET_LENGTH(importer);
    }
    r = (top > 0 && PyUnicode_GET_LENGTH(fullname) > top
         && PyUnicode_READ_CHAR(fullname, top) == '.');
    for (Py_ssize_t i = 0; r && i < top; i++) {
        r = (PyUnicode_READ_CHAR(fullname, i)
             == PyUnicode_READ_CHAR(importer, i));
    }
    PyObject *topname = NULL;
    if (r) {
        topname = PyUnicode_Substring(importer, 0, top);
        r = topname ? _PyLazyImport_IsSharedObject(value, topname) : -1;
    }
    Py_INCREF(dict);
    Py_INCREF(name);
    if (r > 0) {
        int completed = 0;
        r = complete_package_imports(tstate, dict, topname,
                                     "module %R read %R, which its "
                                     "package's imports may fill",
                                     importer, name, 0, &completed);
    }
    Py_XDECREF(topname);
    Py_DECREF(name);
    Py_DECREF(dict);
    Py_DECREF(importer);
    return r;
}

/* A registry of the class 'type' was read and came out short: the
   classes it lists (type.__subclasses__()) or a key of a dict subclass
   whose __missing__ is called (matplotlib's docstring table, which
   matplotlib.legend fills as it is imported).  The bodies of the modules
   running in this thread (paused at a statement) had, eagerly, run their
   imports of modules of the class's top-level package, which fill it:
   complete them, outermost body first, depth first (contract rules 50
   and 55).  One of the shipped defaults, a rule for a class of modules
   (rule 58): off with them.  Returns 1 when something was completed, 0,
   or -1 with an exception set. */
static int
complete_for_registry(PyTypeObject *type, const char *why)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyInterpreterState *interp = tstate->interp;
    if (interp->imports.lazy.mode <= 0 || !interp->imports.lazy.heal
        || !interp->imports.lazy.defaults
        || !(type->tp_flags & Py_TPFLAGS_HEAPTYPE)
        || _PyInterpreterState_GetFinalizing(interp) != NULL)
    {
        return 0;
    }
    /* The top-level package of the module that defines the class. */
    PyObject *modname = PyDict_GetItemWithError(_PyType_GetDict(type),
                                                &_Py_ID(__module__));
    if (modname == NULL || !PyUnicode_Check(modname)) {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(modname);
    Py_ssize_t dot = _PyLazyImport_FindDot(modname, 0, len);
    PyObject *topname = PyUnicode_Substring(modname, 0, dot < 0 ? len : dot);
    if (topname == NULL) {
        return -1;
    }
    /* The bodies of the modules being imported in this thread, outermost
       first: eagerly each had run its imports before the statement it is
       paused at.  Not __main__'s, which runs the whole program (rule 57
       runs its imports made for their side effects): a registry missed
       in a loop of the program costs a walk of its frames. */
    PyObject *bodies = PyList_New(0);
    int r = bodies == NULL ? -1 : 0;
    for (_PyInterpreterFrame *f = tstate->current_frame;
         r == 0 && f != NULL; f = f->previous)
    {
        if (f->owner == FRAME_OWNED_BY_CSTACK || f->f_locals != f->f_globals
            || f->f_globals == NULL || !PyDict_CheckExact(f->f_globals)
            || !_PyDict_MayHoldLazyImports(f->f_globals)
            || (_PyFrame_GetCode(f)->co_flags & CO_OPTIMIZED))
        {
            continue;
        }
        PyObject *name;
        r = _PyDict_GetItemRefNoResolve(f->f_globals, &_Py_ID(__name__),
                                        &name);
        if (r > 0) {
            r = PyUnicode_Check(name)
                && _PyUnicode_Equal(name, &_Py_ID(__main__));
            Py_DECREF(name);
        }
        if (r == 0) {
            r = PyList_Insert(bodies, 0, f->f_globals);
        }
        r = r < 0 ? -1 : 0;
    }
    int completed = 0;
    for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(bodies); i++) {
        r = complete_package_imports(
            tstate, PyList_GET_ITEM(bodies, i), topname, why, modname,
            (PyObject *)type, 1, &completed);
    }
    Py_XDECREF(bodies);
    Py_DECREF(topname);
    return r < 0 ? -1 : completed > 0;
}

int
_PyLazyImport_SubclassesRead(PyTypeObject *type)
{
    /* Asked by Python code that names __subclasses__ (matplotlib's
       recursive_subclasses()); not by the subclass checks of abc, which
       call it on every ABC a class is checked against and whose answer
       does not depend on the modules not imported yet. */
    PyThreadState *tstate = _PyThreadState_GET();
    if (tstate->interp->imports.lazy.mode <= 0
        || !tstate->interp->imports.lazy.heal
        || !tstate->interp->imports.lazy.defaults)
    {
        return 0;
    }
    _PyInterpreterFrame *frame = tstate->current_frame;
    while (frame != NULL && frame->owner == FRAME_OWNED_BY_CSTACK) {
        frame = frame->previous;
    }
    if (frame == NULL) {
        return 0;
    }
    PyObject *names = _PyFrame_GetCode(frame)->co_names;
    int asked = 0;
    for (Py_ssize_t i = 0; !asked && i < PyTuple_GET_SIZE(names); i++) {
        asked = _PyUnicode_EqualToASCIIString(PyTuple_GET_ITEM(names, i),
                                              "__subclasses__");
    }
    if (!asked) {
        return 0;
    }
    int r = complete_for_registry(type, "the subclasses of %R were read "
                                        "(%R)");
    return r < 0 ? -1 : 0;
}

int
_PyLazyImport_KeyMissed(PyObject *dict)
{
    return complete_for_registry(Py_TYPE(dict), "a registry of %R missed "
                                                "a key (%R)");
}

/* Find the first deferred statement of the body of the package whose
   namespace is 'dict' (named 'modname') that imports its submodule
   'fullname' ("import p.s", "from p.s import x", "from p import s"): set
   *key to its eager key.  Returns 1, 0 when there is none, or -1 with an
   exception set. */
static int
naming_statement(PyThreadState *tstate, PyObject *dict, PyObject *modname,
                 PyObject *fullname, PyObject **key)
{
    Py_ssize_t pos = 0, plen = PyUnicode_GET_LENGTH(modname);
    PyObject *name, *value;
    int own = 0;
    *key = NULL;
    /* A package whose body is done and left none of its own deferred
       imports is not scanned again for each of its submodules: the
       namespace it was last found so in is remembered. */
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    if (state->no_own_imports == dict) {
        return 0;
    }
    /* Nothing that runs code is called while walking. */
    while (_PyDict_Next(dict, &pos, &name, &value, NULL)) {
        if (!PyLazyImport_CheckExact(value)) {
            continue;
        }
        PyLazyImportObject *st = _PyLazyImport_StatementOf(LAZY(value));
        PyObject *target = st->lz_fullname;
        if (st->lz_globals != dict || target == NULL) {
            continue;
        }
        own = 1;
        int names = _PyLazyImport_IsInside(target, fullname);
        if (!names && PyUnicode_GET_LENGTH(target) == plen
            && st->lz_fromlist != Py_None
            && PyUnicode_Compare(target, modname) == 0)
        {
            PyObject *child = PyUnicode_Substring(
                fullname, plen + 1, PyUnicode_GET_LENGTH(fullname));
            int r = child ? PySequence_Contains(st->lz_fromlist, child) : -1;
            Py_XDECREF(child);
            if (r < 0) {
                Py_CLEAR(*key);
                return -1;
            }
            names = r;
        }
        if (!names) {
            continue;
        }
        PyObject *k = _PyLazyImport_EagerKey(st);
        if (k == NULL) {
            Py_CLEAR(*key);
            return -1;
        }
        if (*key == NULL || _PyLazyImport_KeyPrecedes(k, *key)) {
            Py_XSETREF(*key, k);
        }
        else {
            Py_DECREF(k);
        }
    }
    if (!own) {
        /* Its body is done unless it is still being imported. */
        int r = is_loaded(modname);
        if (r < 0) {
            return -1;
        }
        if (r) {
            state->no_own_imports = dict;   /* compared, never read */
        }
    }
    return *key != NULL;
}

/* Does the lazy import 'lz' of the package 'package' import one of the
   modules of the set 'only' (see imports_of()), or a package one of them
   is inside?  A name that "from . import a, b" binds imports only its
   own submodule.  Returns 1, 0, or -1 with an exception set. */
int
_PyLazyImport_NeededBy(PyLazyImportObject *lz, PyObject *package,
                       PyObject *only)
{
    PyLazyImportObject *st = _PyLazyImport_StatementOf(lz);
    PyObject *target = st->lz_fullname;
    Py_ssize_t pos = 0;
    Py_hash_t hash;
    PyObject *item;
    int own = _PyUnicode_Equal(target, package);
    while (!own && _PySet_NextEntry(only, &pos, &item, &hash)) {
        if (_PyLazyImport_IsInside(item, target)) {
            return 1;
        }
    }
    if (st->lz_fromlist == Py_None || !PyTuple_Check(st->lz_fromlist)) {
        return 0;
    }
    /* "from . import a": the submodules it names, or the one 'lz' binds. */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(st->lz_fromlist); i++) {
        PyObject *child = PyTuple_GET_ITEM(st->lz_fromlist, i);
        if (st != lz && child != lz->lz_name
            && !_PyUnicode_Equal(child, lz->lz_name))
        {
            continue;
        }
        PyObject *name = _PyLazyImport_Dotted(target, child);
        if (name == NULL) {
            return -1;
        }
        pos = 0;
        int r = 0;
        while (!r && _PySet_NextEntry(only, &pos, &item, &hash)) {
            r = _PyLazyImport_IsInside(item, name);
        }
        Py_DECREF(name);
        if (r) {
            return 1;
        }
    }
    return 0;
}

/* Read the next entry of an exception table at *p (before 'end') into
   entry: start, size, target, depth and lasti, four varints of 6 bits a
   byte, bit 6 set when more bytes follow ('n', the code's length, for a
   target cut short).  Returns 0 at the end of the table. */
static int
next_exception_entry(const unsigned char **p, const unsigned char *end,
                     Py_ssize_t n, Py_ssize_t entry[4])
{
    if (*p >= end) {
        return 0;
    }
    entry[0] = entry[1] = entry[3] = 0;
    entry[2] = n;
    for (int k = 0; k < 4 && *p < end; k++) {
        unsigned char b;
        if (k == 2) {
            entry[2] = 0;
        }
        do {
            b = *(*p)++;
            entry[k] = (entry[k] << 6) | (b & 63);
        } while ((b & 64) && *p < end);
    }
    return 1;
}

/* The code unit from which the code of 'co' (whose bytecode has 'n' code
   units) runs only while an exception is being handled: the first target
   of its exception table.  The compiler places every handler ("except
   ImportError:" fallbacks, the exceptional exits of with and finally)
   after the code that runs normally.  'n' when it has none. */
static Py_ssize_t
first_handler(PyCodeObject *co, Py_ssize_t n)
{
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(
        co->co_exceptiontable);
    const unsigned char *end = p + PyBytes_GET_SIZE(co->co_exceptiontable);
    Py_ssize_t first = n, entry[4];
    while (next_exception_entry(&p, end, n, entry)) {
        if (entry[2] < first) {
            first = entry[2];
        }
    }
    return first;
}

/* Is the name at 'index' of the names of 'co' TYPE_CHECKING? */
static int
is_type_checking(PyCodeObject *co, int index)
{
    return index >= 0 && index < PyTuple_GET_SIZE(co->co_names)
           && _PyUnicode_EqualToASCIIString(
                  PyTuple_GET_ITEM(co->co_names, index), "TYPE_CHECKING");
}

/* Add to the set 'only' the absolute names of the modules that the import
   statements of 'co' that run at module level import ("from m import a"
   adds m and m.a), the module being 'modname', a submodule of the
   package 'package' whose namespace is 'pdict'.  A name that "from package
   import x" takes from the package adds the module of the package's own
   statement that binds x.  Only the edges that eager execution of the body
   takes count (contract rule 55): the body and the bodies of the classes
   it defines, not the functions it defines (they run later, if ever), not
   the code under "if TYPE_CHECKING:" (False when the program runs) and
   not the exception handlers ("except ImportError:" fallbacks run only
   when an import made at once failed).  Sets *all and stops on a
   statement of the module's body that may read any attribute of the
   package ("import package", "from package import *").  Returns 0, or -1
   with an exception set. */
static int
add_imports_of(PyCodeObject *co, PyObject *modname, PyObject *package,
               PyObject *pdict, PyObject *only, int *all, PyObject *loaded)
{
    PyObject *bytecode = PyCode_GetCode(co);    /* deoptimized */
    if (bytecode == NULL) {
        return -1;
    }
    const _Py_CODEUNIT *instr = (const _Py_CODEUNIT *)PyBytes_AS_STRING(
        bytecode);
    Py_ssize_t n = PyBytes_GET_SIZE(bytecode) / (Py_ssize_t)sizeof(
        _Py_CODEUNIT);
    Py_ssize_t nconsts = PyTuple_GET_SIZE(co->co_consts);
    Py_ssize_t nnames = PyTuple_GET_SIZE(co->co_names);
    int oparg = 0, prev_const = -1, last_const = -1, r = 0;
    int type_checking = 0;  /* TYPE_CHECKING was just read */
    n = first_handler(co, n);
    for (Py_ssize_t i = 0; i < n && !*all && r == 0; i++) {
        int op = instr[i].op.code;
        oparg = (oparg << 8) | instr[i].op.arg;
        if (op == EXTENDED_ARG || op == CACHE) {
            continue;
        }
        if (op == LOAD_NAME || op == LOAD_GLOBAL || op == LOAD_ATTR) {
            int index = (op == LOAD_NAME) ? oparg : oparg >> 1;
            type_checking = is_type_checking(co, index);
            if (op != LOAD_ATTR && index < nnames
                && PySet_Add(loaded, PyTuple_GET_ITEM(co->co_names,
                                                      index)) < 0)
            {
                r = -1;
                break;
            }
        }
        else if (op == POP_JUMP_IF_FALSE && type_checking) {
            /* "if TYPE_CHECKING:" or "if typing.TYPE_CHECKING:": skip
               its body (an else: runs). */
            i += _PyOpcode_Caches[op] + oparg;
            type_checking = 0;
        }
        else if (op != TO_BOOL) {
            type_checking = 0;
        }
        if (op == LOAD_CONST) {
            prev_const = last_const;
            last_const = oparg;
            oparg = 0;
            continue;
        }
        int is_import = IS_IMPORT_NAME(op);
        int index = oparg;
        oparg = 0;
        if (!is_import || index >= nnames || prev_const < 0
            || prev_const >= nconsts || last_const >= nconsts)
        {
            prev_const = last_const = -1;
            continue;
        }
        PyObject *levelobj = PyTuple_GET_ITEM(co->co_consts, prev_const);
        PyObject *fromlist = PyTuple_GET_ITEM(co->co_consts, last_const);
        PyObject *name = PyTuple_GET_ITEM(co->co_names, index);
        prev_const = last_const = -1;
        int level = PyLong_Check(levelobj) ? PyLong_AsInt(levelobj) : -1;
        if (level < 0) {
            r = PyErr_Occurred() ? -1 : 0;
            *all = 1;       /* not what the compiler writes */
            break;
        }
        /* The absolute name, as __import__ makes it for modname, which is
           not a package (the caller checks). */
        PyObject *mod;
        if (level == 0) {
            mod = Py_NewRef(name);
        }
        else {
            Py_ssize_t end = PyUnicode_GET_LENGTH(modname);
            for (int k = 0; k < level && end > 0; k++) {
                end = PyUnicode_FindChar(modname, '.', 0, end, -1);
            }
            if (end <= 0) {
                continue;   /* raises when run */
            }
            PyObject *base = PyUnicode_Substring(modname, 0, end);
            mod = base == NULL ? NULL
                  : PyUnicode_GET_LENGTH(name)
                    ? _PyLazyImport_Dotted(base, name)
                  : Py_NewRef(base);
            Py_XDECREF(base);
            if (mod == NULL) {
                r = -1;
                break;
            }
        }
        r = PySet_Add(only, mod);
        /* The body binding the package itself ("import P", "from p import
           P", for P or a package it is inside) may read any of its
           attributes. */
        if (r == 0 && !PyTuple_Check(fromlist)
            && _PyLazyImport_IsInside(package, mod))
        {
            *all = 1;
        }
        for (Py_ssize_t k = 0; r == 0 && !*all && PyTuple_Check(fromlist)
                               && k < PyTuple_GET_SIZE(fromlist); k++)
        {
            PyObject *item = PyTuple_GET_ITEM(fromlist, k), *value;
            if (!PyUnicode_Check(item)
                || _PyUnicode_EqualToASCIIString(item, "*"))
            {
                *all = PyUnicode_Compare(mod, package) == 0;
                continue;
            }
            PyObject *sub = _PyLazyImport_Dotted(mod, item);
            r = sub == NULL ? -1 : PySet_Add(only, sub);
            if (r == 0 && _PyLazyImport_IsInside(package, sub)) {
                *all = 1;
            }
            Py_XDECREF(sub);
            if (r == 0 && PyUnicode_Compare(mod, package) == 0) {
                r = _PyDict_GetItemRefNoResolve(pdict, item, &value);
                if (r > 0) {
                    PyLazyImportObject *st = PyLazyImport_CheckExact(value)
                        ? _PyLazyImport_StatementOf(LAZY(value)) : NULL;
                    if (st != NULL && st->lz_fullname != NULL) {
                        r = PySet_Add(only, st->lz_fullname);
                    }
                    else {
                        r = 0;
                    }
                    Py_DECREF(value);
                }
            }
        }
        Py_DECREF(mod);
    }
    Py_DECREF(bytecode);
    if (r < 0) {
        return -1;
    }
    return 0;
}

/* A scanner of one code object for walk_module_code(): reads 'code',
   adds to the set 'loaded' the names it reads with LOAD_NAME and
   LOAD_GLOBAL, and sets *stop to end the walk.  Returns 0, or -1 with an
   exception set. */
typedef int (*code_scanner)(PyCodeObject *code, void *arg, PyObject *loaded,
                            int *stop);

struct imports_scan {
    PyObject *modname, *package, *pdict, *only;
};

static int
scan_imports(PyCodeObject *code, void *arg, PyObject *loaded, int *stop)
{
    struct imports_scan *a = (struct imports_scan *)arg;
    return add_imports_of(code, a->modname, a->package, a->pdict, a->only,
                          stop, loaded);
}

/* Call 'scan' on the code objects of the module code 'co' that run when
   the body runs: the body, the bodies of the classes it defines, and the
   functions it defines that code run so reads by name (a function called
   or decorating at module level, the methods of a class instantiated
   there: twisted's "_log = Logger()" imports in Logger.__init__), to a
   fixed point.  A function that nothing run at module level names runs
   later, if ever (flask.helpers imports flask only in its functions).
   Returns 0, or -1 with an exception set. */
static int
walk_module_code(PyCodeObject *co, code_scanner scan, void *arg, int *all)
{
    /* Items of 'waiting': (code, name that includes it or None). */
    PyObject *loaded = PySet_New(NULL), *waiting = PyList_New(0);
    PyObject *todo = PyList_New(0);
    int r = (loaded && waiting && todo
             && PyList_Append(todo, (PyObject *)co) == 0) ? 0 : -1;
    int changed = 1;
    while (r == 0 && !*all && changed) {
        changed = 0;
        /* Run what is included, and collect what it defines. */
        for (Py_ssize_t t = 0; r == 0 && !*all && t < PyList_GET_SIZE(todo);
             t++)
        {
            PyCodeObject *code = (PyCodeObject *)PyList_GET_ITEM(todo, t);
            r = scan(code, arg, loaded, all);
            int is_class = (code != co && !(code->co_flags & CO_OPTIMIZED));
            for (Py_ssize_t i = 0;
                 r == 0 && i < PyTuple_GET_SIZE(code->co_consts); i++)
            {
                PyObject *item = PyTuple_GET_ITEM(code->co_consts, i);
                if (!PyCode_Check(item)) {
                    continue;
                }
                PyCodeObject *sub = (PyCodeObject *)item;
                if (!(sub->co_flags & CO_OPTIMIZED)) {
                    /* A class body runs where it is defined. */
                    r = PyList_Append(todo, item);
                }
                else if (code != co && !is_class) {
                    /* Code nested in an included function runs with it. */
                    r = PyList_Append(todo, item);
                }
                else {
                    /* A function of the body, or a method, included when
                       its name, or its class's, is read. */
                    PyObject *pair = PyTuple_Pack(
                        2, item, is_class ? code->co_name : Py_None);
                    r = pair == NULL ? -1 : PyList_Append(waiting, pair);
                    Py_XDECREF(pair);
                }
            }
        }
        r = r < 0 ? -1 : PyList_SetSlice(todo, 0, PyList_GET_SIZE(todo),
                                         NULL);
        /* What the code run so far reads includes more. */
        for (Py_ssize_t w = 0; r == 0 && w < PyList_GET_SIZE(waiting);) {
            PyObject *pair = PyList_GET_ITEM(waiting, w);
            PyCodeObject *sub = (PyCodeObject *)PyTuple_GET_ITEM(pair, 0);
            PyObject *owner = PyTuple_GET_ITEM(pair, 1);
            int in = PySet_Contains(loaded, sub->co_name);
            if (in == 0 && owner != Py_None) {
                in = PySet_Contains(loaded, owner);
            }
            if (in > 0) {
                r = (PyList_Append(todo, (PyObject *)sub) < 0
                     || PyList_SetSlice(waiting, w, w + 1, NULL) < 0)
                    ? -1 : 0;
                changed = 1;
            }
            else {
                r = in;
                w++;
            }
        }
    }
    Py_XDECREF(todo);
    Py_XDECREF(waiting);
    Py_XDECREF(loaded);
    return r;
}

/* Add to 'only' the imports of the code 'co' of the module 'modname' (see
   add_imports_of()) that run when its body runs (see
   walk_module_code()).  Returns 0, or -1 with an exception set. */
static int
add_module_imports(PyCodeObject *co, PyObject *modname, PyObject *package,
                   PyObject *pdict, PyObject *only, int *all)
{
    struct imports_scan arg = {modname, package, pdict, only};
    return walk_module_code(co, scan_imports, &arg, all);
}

/* The code of the module at 'path' from its bytecode cache 'pyc', as
   SourceLoader.get_code() reads it: a timestamp-based cache that matches
   the source ('st' is the loader's path_stats()).  A new reference, or
   NULL (an exception set) when there is none. */
static PyObject *
code_from_cache(PyObject *external, PyObject *loader, PyObject *name,
                PyObject *path, PyObject *pyc, PyObject *st)
{
    PyObject *data = NULL, *details = NULL, *flags = NULL, *ok = NULL;
    PyObject *mtime = NULL, *body = NULL, *code = NULL;
    data = PyObject_CallMethod(loader, "get_data", "O", pyc);
    if (data != NULL) {
        details = Py_BuildValue("{sOsO}", "name", name, "path", pyc);
    }
    if (details != NULL) {
        flags = PyObject_CallMethod(external, "_classify_pyc", "OOO", data,
                                    name, details);
    }
    if (flags != NULL && (!PyLong_Check(flags) || PyLong_AsLong(flags) != 0
                          || !PyDict_Check(st)))
    {
        /* Hash-based: checking it may read and hash the source. */
        PyErr_SetString(PyExc_ImportError, "no timestamp-based cache");
    }
    else if (flags != NULL) {
        PyObject *m = PyDict_GetItemString(st, "mtime");    /* borrowed */
        PyObject *size = PyDict_GetItemString(st, "size");
        mtime = (m && size) ? PyNumber_Long(m) : NULL;
        if (mtime != NULL) {
            ok = PyObject_CallMethod(external, "_validate_timestamp_pyc",
                                     "OOOOO", data, mtime, size, name,
                                     details);
        }
        else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ImportError, "no source stats");
        }
    }
    if (ok != NULL) {
        body = PyBytes_Check(data) && PyBytes_GET_SIZE(data) >= 16
               ? PyBytes_FromStringAndSize(PyBytes_AS_STRING(data) + 16,
                                           PyBytes_GET_SIZE(data) - 16)
               : NULL;
        if (body != NULL) {
            code = PyObject_CallMethod(external, "_compile_bytecode", "OOOO",
                                       body, name, pyc, path);
        }
        else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ImportError, "bad cache");
        }
    }
    Py_XDECREF(body);
    Py_XDECREF(mtime);
    Py_XDECREF(ok);
    Py_XDECREF(flags);
    Py_XDECREF(details);
    Py_XDECREF(data);
    return code;
}

/* How many code objects read for the import to take
   (_bootstrap_external._lazy_compiled) are kept: those of modules read
   but never imported are dropped, oldest first, past it. */
#define STASH_SIZE 256

/* Add 'code' to 'stash' under 'key'.  Returns 0, or -1 with an exception
   set. */
static int
stash_code(PyObject *stash, PyObject *key, PyObject *code)
{
    Py_ssize_t pos = 0;
    PyObject *oldest, *value;
    if (PyDict_GET_SIZE(stash) >= STASH_SIZE
        && PyDict_Next(stash, &pos, &oldest, &value))
    {
        Py_INCREF(oldest);
        int r = PyDict_DelItem(stash, oldest);
        Py_DECREF(oldest);
        if (r < 0) {
            return -1;
        }
    }
    return PyDict_SetItem(stash, key, code);
}

/* Set *code to a new reference to the code that importing the module
   'name' will run, read without running the loader twice: 'loader' must
   be exactly importlib's SourceFileLoader (a subclass may transform the
   code: typeguard's, pytest's assertion rewriting; another loader's
   get_code() may do anything).  The code comes from the bytecode cache
   that the loader would use, or else is compiled from the source here,
   once: the import takes it from _bootstrap_external._lazy_compiled
   (keyed by the cache's path and the source's stats, or by the source's
   path and bytes), so that warnings are printed and the read or the
   compile paid once.  Else *code is NULL: the code cannot tell.
   Returns 0, or -1 with an exception set (one not derived from
   Exception: the others leave *code NULL). */
static int
read_code(PyObject *external, PyObject *loader, PyObject *name,
          PyObject **code)
{
    *code = NULL;
    PyObject *cls = PyObject_GetAttrString(external, "SourceFileLoader");
    if (cls == NULL || (PyObject *)Py_TYPE(loader) != cls) {
        Py_XDECREF(cls);
        goto done;
    }
    Py_DECREF(cls);
    PyObject *path = NULL, *pyc = NULL, *st = NULL, *source = NULL;
    PyObject *stash = NULL, *key = NULL;
    int stashed = 0;
    path = PyObject_CallMethod(loader, "get_filename", "O", name);
    if (path != NULL) {
        st = PyObject_CallMethod(loader, "path_stats", "O", path);
    }
    if (st != NULL) {
        if (PyObject_GetOptionalAttrString(external, "_lazy_compiled",
                                           &stash) <= 0
            || !PyDict_CheckExact(stash))
        {
            Py_CLEAR(stash);
            if (PyErr_Occurred()) {
                goto cleanup;
            }
        }
        pyc = PyObject_CallMethod(external, "cache_from_source", "O", path);
        if (pyc != NULL && stash != NULL && PyDict_Check(st)) {
            /* The import's key: the cache's path and the source's stats
               it validated.  Code read before and not imported yet is
               taken from there, not unmarshalled again. */
            PyObject *m = PyDict_GetItemString(st, "mtime");    /* borrowed */
            PyObject *size = PyDict_GetItemString(st, "size");
            PyObject *mtime = (m && size) ? PyNumber_Long(m) : NULL;
            key = mtime ? PyTuple_Pack(3, pyc, mtime, size) : NULL;
            Py_XDECREF(mtime);
            if (key != NULL) {
                stashed = PyDict_GetItemRef(stash, key, code);
            }
        }
        if (pyc != NULL && !stashed && !PyErr_Occurred()) {
            *code = code_from_cache(external, loader, name, path, pyc, st);
        }
        if (*code == NULL && PyErr_Occurred()) {
            /* No cache to use. */
            if (!PyErr_ExceptionMatches(PyExc_Exception)) {
                goto cleanup;
            }
            PyErr_Clear();
        }
    }
    if (*code != NULL && stash != NULL && !stashed) {
        /* Leave the code read from the cache to the import, which looks
           for it with the source's stats it validated. */
        if (key == NULL || stash_code(stash, key, *code) < 0) {
            Py_CLEAR(*code);
        }
    }
    else if (*code == NULL && stash != NULL) {
        /* No cache to use: compile, and leave the code to the import. */
        source = PyObject_CallMethod(loader, "get_data", "O", path);
        if (source != NULL) {
            *code = PyObject_CallMethod(loader, "source_to_code", "OO",
                                        source, path);
        }
        if (*code != NULL) {
            PyObject *source_key = PyTuple_Pack(2, path, source);
            if (source_key == NULL
                || stash_code(stash, source_key, *code) < 0)
            {
                Py_CLEAR(*code);
            }
            Py_XDECREF(source_key);
        }
    }
cleanup:
    Py_XDECREF(key);
    Py_XDECREF(stash);
    Py_XDECREF(source);
    Py_XDECREF(st);
    Py_XDECREF(pyc);
    Py_XDECREF(path);
done:
    if (*code != NULL && !PyCode_Check(*code)) {
        Py_CLEAR(*code);
    }
    if (PyErr_Occurred()) {
        Py_CLEAR(*code);
        if (!PyErr_ExceptionMatches(PyExc_Exception)) {
            return -1;
        }
        PyErr_Clear();  /* the import itself will tell */
    }
    return 0;
}

/* Add to 'only' the imports of the code of 'name', a module of the
   package 'package' (namespace 'pdict', __path__ 'path'), read before it
   runs (see add_imports_of(), read_code()).  Sets *all when the code
   cannot tell: a subpackage (its body imports its own modules), an
   extension module, a module served by another loader than importlib's
   SourceFileLoader.  Returns 0, or -1 with an exception set. */
static int add_imports_of_code(PyThreadState *, PyObject *, PyObject *,
                               PyObject *, PyObject *, PyObject *, int *,
                               PyObject **);

static int
add_imports_of_module(PyThreadState *tstate, PyObject *name, PyObject *path,
                      PyObject *package, PyObject *pdict, PyObject *only,
                      int *all)
{
    return add_imports_of_code(tstate, name, path, package, pdict, only,
                               all, NULL);
}

/* Like add_imports_of_module(), for any module inside 'package' when
   'subpath' is not NULL: a subpackage's body is read too, and *subpath
   is set to a new reference to its submodule search locations (None for
   a module that is not a package). */
static int
add_imports_of_code(PyThreadState *tstate, PyObject *name, PyObject *path,
                    PyObject *package, PyObject *pdict, PyObject *only,
                    int *all, PyObject **subpath)
{
    PyObject *importlib = tstate->interp->imports.importlib;
    PyObject *spec, *sub = NULL, *loader = NULL, *code = NULL;
    PyObject *external = NULL;
    spec = PyObject_CallMethod(importlib, "_find_spec", "OO", name, path);
    int r = spec == NULL ? -1 : spec != Py_None;
    if (r > 0) {
        r = PyObject_GetOptionalAttrString(
            spec, "submodule_search_locations", &sub);
    }
    if (r >= 0 && spec != Py_None) {
        r = (sub == Py_None || subpath != NULL)
            ? PyObject_GetOptionalAttrString(spec, "loader", &loader) : 0;
        if (r > 0 && loader != Py_None) {
            r = PyObject_GetOptionalAttrString(importlib,
                                               "_bootstrap_external",
                                               &external);
            if (r > 0) {
                r = read_code(external, loader, name, &code);
                r = r < 0 ? -1 : code != NULL;
            }
        }
        if (r > 0 && sub != NULL && sub != Py_None) {
            /* A package's body: its relative imports are relative to it,
               as to a module inside it. */
            PyObject *inside = PyUnicode_FromFormat("%U.__init__", name);
            r = inside == NULL ? -1
                : add_module_imports((PyCodeObject *)code, inside, package,
                                     pdict, only, all);
            Py_XDECREF(inside);
        }
        else if (r > 0) {
            r = add_module_imports((PyCodeObject *)code, name, package,
                                   pdict, only, all);
        }
        else if (r == 0) {
            *all = 1;
        }
    }
    if (r >= 0 && subpath != NULL) {
        *subpath = Py_NewRef(sub != NULL ? sub : Py_None);
    }
    Py_XDECREF(external);
    Py_XDECREF(code);
    Py_XDECREF(loader);
    Py_XDECREF(sub);
    Py_XDECREF(spec);
    return r < 0 ? -1 : 0;
}

/* ----- The guard's finding (rule 54) ------------------------------------ */

/* What finding tells of a module that an import under the guard would run
   (see _PyLazyImport_GuardFinds()), read from its code as SourceFileLoader
   will run it: the imports it makes and the names its body binds whatever path
   it takes. */
struct guard_scan {
    PyObject *name;         /* the module's __name__ */
    PyCodeObject *body;     /* the module's code */
    PyObject *base;         /* what its relative imports are relative to */
    /* The imports: a list of (absolute name, fromlist, how far down the
       chain of dominators of the body's end it comes (bound_before()),
       whether it surely runs, whether it is only an attempt: an import
       under a try of the module's own). */
    PyObject *edges;
    /* The names the body binds on every path that completes: name -> the
       depth in that chain from which it is bound (bind_names()); a name
       is bound before an import whose depth is greater. */
    PyObject *names;
    PyObject *deleted;      /* set of the names the body deletes */
    PyObject *stores;       /* name -> the units that store it */
    /* The body's flow (see mark_maybe_skipped()).  Per code unit, and
       its end 'n': whether a run of the body that completes may skip it,
       its immediate dominator, its depth in the tree of dominators, and
       the units that may follow it. */
    Py_ssize_t n;
    char *maybe;
    Py_ssize_t *idom;
    Py_ssize_t *depth;
    Py_ssize_t *succ;       /* four per unit */
    unsigned char *nsucc;
};

/* Is the name 'name' read by 'co' at code unit 'i' compared with a raised
   exception ("except ImportError:"), rather than raised or kept: do only
   loads and a tuple come before CHECK_EXC_MATCH? */
static int
is_handler_match(const _Py_CODEUNIT *instr, Py_ssize_t i, Py_ssize_t n)
{
    for (i += 1 + _PyOpcode_Caches[instr[i].op.code]; i < n;
         i += 1 + _PyOpcode_Caches[instr[i].op.code])
    {
        int op = instr[i].op.code;
        if (op == CHECK_EXC_MATCH || op == CHECK_EG_MATCH) {
            return 1;
        }
        if (op != LOAD_NAME && op != LOAD_GLOBAL && op != LOAD_ATTR
            && op != BUILD_TUPLE && op != EXTENDED_ARG)
        {
            return 0;
        }
    }
    return 0;
}

/* Does the RAISE_VARARGS at code unit 'i' of 'instr' raise an object
   that a name holds ("raise exc", "raise error_class"): the ImportError
   a handler caught, maybe, rather than one it makes ("raise
   ValueError(...)", "raise X(...) from exc")? */
static int
is_reraise(const _Py_CODEUNIT *instr, Py_ssize_t i)
{
    if (instr[i].op.arg != 1) {
        return 0;
    }
    /* The instruction before: scan back over the caches of each kind. */
    for (Py_ssize_t k = i - 1; k >= 0; k--) {
        int op = instr[k].op.code;
        if (op == CACHE) {
            continue;
        }
        return op == LOAD_FAST || op == LOAD_NAME || op == LOAD_GLOBAL
               || op == LOAD_DEREF || op == LOAD_FAST_CHECK
               || op == LOAD_FROM_DICT_OR_DEREF;
    }
    return 0;
}

/* The code unit of the instruction before the one at 'i' (caches and
   EXTENDED_ARG prefixes left out), or -1. */
static Py_ssize_t
previous_instruction(const _Py_CODEUNIT *instr, Py_ssize_t i)
{
    Py_ssize_t k = i - 1;
    while (k >= 0 && instr[k].op.code == CACHE) {
        k--;
    }
    return k;
}

/* The full argument of the instruction at 'i', with its EXTENDED_ARG
   prefixes. */
static int
full_oparg(const _Py_CODEUNIT *instr, Py_ssize_t i)
{
    int oparg = instr[i].op.arg, shift = 8;
    for (Py_ssize_t k = i - 1; k >= 0 && instr[k].op.code == EXTENDED_ARG;
         k--, shift += 8)
    {
        oparg |= instr[k].op.arg << shift;
    }
    return oparg;
}

/* The name that the load at 'i' reads (LOAD_NAME, LOAD_GLOBAL, or with
   'attr' LOAD_ATTR of a value, not a method), borrowed, or NULL. */
static PyObject *
loaded_name(PyCodeObject *co, const _Py_CODEUNIT *instr, Py_ssize_t i,
            int attr)
{
    if (i < 0) {
        return NULL;
    }
    int op = instr[i].op.code, oparg = full_oparg(instr, i), index;
    if (attr) {
        if (op != LOAD_ATTR) {
            return NULL;
        }
        index = oparg >> 1;     /* a method load sets the low bit */
        if ((oparg & 1) != (attr == 2)) {
            return NULL;
        }
    }
    else if (op == LOAD_NAME) {
        index = oparg;
    }
    else if (op == LOAD_GLOBAL) {
        index = oparg >> 1;
    }
    else {
        return NULL;
    }
    return index < PyTuple_GET_SIZE(co->co_names)
           ? PyTuple_GET_ITEM(co->co_names, index) : NULL;
}

/* What a module's code tests that is a fact of the running interpreter:
   the value of __name__ (the module's own name, 'modname'), of
   sys.platform, sys.version_info or os.name at the load at 'i', as a new
   reference, or NULL (no exception set) when it is none of those. */
static PyObject *
interpreter_fact(PyCodeObject *co, const _Py_CODEUNIT *instr, Py_ssize_t i,
                 PyObject *modname)
{
    PyObject *name = loaded_name(co, instr, i, 0);
    if (name != NULL) {
        return _PyUnicode_EqualToASCIIString(name, "__name__")
               ? Py_NewRef(modname) : NULL;
    }
    PyObject *attr = loaded_name(co, instr, i, 1);
    PyObject *owner = attr == NULL ? NULL
        : loaded_name(co, instr, previous_instruction(instr, i), 0);
    if (owner == NULL) {
        return NULL;
    }
    if (_PyUnicode_EqualToASCIIString(owner, "sys")
        && (_PyUnicode_EqualToASCIIString(attr, "platform")
            || _PyUnicode_EqualToASCIIString(attr, "version_info")))
    {
        PyObject *value = PySys_GetObject(PyUnicode_AsUTF8(attr));
        return Py_XNewRef(value);
    }
    if (_PyUnicode_EqualToASCIIString(owner, "os")
        && _PyUnicode_EqualToASCIIString(attr, "name"))
    {
        PyObject *os = NULL, *value = NULL;
        if (PyMapping_GetOptionalItemString(PyImport_GetModuleDict(), "os",
                                            &os) < 0
            || (os != NULL && PyObject_GetOptionalAttr(os, attr, &value) < 0))
        {
            PyErr_Clear();
        }
        Py_XDECREF(os);
        return value;
    }
    return NULL;
}

/* Whether the conditional jump at code unit 'i' of 'co' (the code of the
   module 'modname') jumps, when its condition is a fact of the running
   interpreter compared with a constant: "if __name__ == '__main__':"
   (never true for a module imported), "if sys.platform == 'win32':",
   "if sys.platform.startswith('linux'):", "if sys.version_info >= (3,
   11):", "if os.name == 'nt':".  1 or 0, -1 when it cannot tell (no
   exception set). */
static int
known_jump(PyCodeObject *co, const _Py_CODEUNIT *instr, Py_ssize_t i,
           PyObject *modname)
{
    int op = instr[i].op.code;
    if (op != POP_JUMP_IF_FALSE && op != POP_JUMP_IF_TRUE) {
        return -1;
    }
    Py_ssize_t j = previous_instruction(instr, i);
    if (j >= 0 && instr[j].op.code == TO_BOOL) {
        j = previous_instruction(instr, j);
    }
    if (j < 0) {
        return -1;
    }
    int test = -1;
    PyObject *value = NULL;
    Py_ssize_t c = previous_instruction(instr, j);
    if (c < 0 || instr[c].op.code != LOAD_CONST) {
        return -1;
    }
    int ci = full_oparg(instr, c);
    if (ci >= PyTuple_GET_SIZE(co->co_consts)) {
        return -1;
    }
    PyObject *constant = PyTuple_GET_ITEM(co->co_consts, ci);
    Py_ssize_t v = previous_instruction(instr, c);
    if (instr[j].op.code == COMPARE_OP) {
        int cmp = full_oparg(instr, j) >> 5;
        value = v < 0 ? NULL : interpreter_fact(co, instr, v, modname);
        if (value != NULL && cmp <= Py_GE) {
            test = PyObject_RichCompareBool(value, constant, cmp);
        }
    }
    else if (instr[j].op.code == CALL && full_oparg(instr, j) == 1
             && PyUnicode_Check(constant))
    {
        /* sys.platform.startswith("...") */
        PyObject *method = loaded_name(co, instr, v, 2);
        if (method != NULL
            && _PyUnicode_EqualToASCIIString(method, "startswith"))
        {
            value = interpreter_fact(co, instr, previous_instruction(instr, v),
                                     modname);
            if (value != NULL && PyUnicode_Check(value)) {
                test = (int)PyUnicode_Tailmatch(
                    value, constant, 0, PY_SSIZE_T_MAX, -1);
            }
        }
    }
    Py_XDECREF(value);
    if (test < 0) {
        PyErr_Clear();
        return -1;
    }
    return (op == POP_JUMP_IF_TRUE) == (test != 0);
}

/* Which code of a module's body runs whenever the body runs to its end,
   and which stores come before which imports on every path: the
   dominators of the body's control flow (Cooper, Harvey and Kennedy's
   iterative algorithm), over its code units and its end, 'n'.  Every
   return leads to the end; a raise leaves the body without reaching it
   (then the import fails, and binds nothing).  An instruction that may
   raise (its metadata says so) in a protected range may go to its handler:
   a LOAD_CONST or a NOP does not, so the import that opens a try's body
   runs whenever the body does; a test of a fact of the interpreter goes
   one way only (known_jump()). */

/* May the instruction 'op' raise?  An unknown one may. */
static inline int
may_raise(int op)
{
    return !_PyOpcode_opcode_metadata[op].valid_entry
           || OPCODE_HAS_ERROR(op) || OPCODE_HAS_ERROR_NO_POP(op);
}

/* Put in 'out' (four at most) the units that may run after the
   instruction at 'i' (opcode 'op', argument 'oparg', next instruction at
   'next', in the range of the handler at 'handler' or -1), and return
   how many. */
static int
successors(struct guard_scan *gs, const _Py_CODEUNIT *instr, Py_ssize_t n,
           Py_ssize_t i, int op, int oparg, Py_ssize_t next,
           Py_ssize_t handler, Py_ssize_t out[4])
{
    int k = 0;
    if (handler >= 0 && may_raise(op)) {
        out[k++] = handler;
    }
    switch (op) {
    case RETURN_VALUE:
    case RETURN_CONST:
        out[k++] = n;
        break;
    case RAISE_VARARGS:
    case RERAISE:
        break;
    case JUMP_FORWARD:
        out[k++] = next + oparg;
        break;
    case JUMP_BACKWARD:
    case JUMP_BACKWARD_NO_INTERRUPT:
        out[k++] = next - oparg;
        break;
    case FOR_ITER:
        /* Exhausted, it jumps past the END_FOR and POP_TOP at its
           target. */
        out[k++] = next;
        out[k++] = next + oparg + 2;
        break;
    case POP_JUMP_IF_FALSE:
    case POP_JUMP_IF_TRUE: {
        int jumps = known_jump(gs->body, instr, i, gs->name);
        if (jumps != 1) {
            out[k++] = next;
        }
        if (jumps != 0) {
            out[k++] = next + oparg;
        }
        break;
    }
    default:
        out[k++] = next;
        if (OPCODE_HAS_JUMP(op)) {
            out[k++] = next + oparg;
        }
        break;
    }
    return k;
}

/* Set gs->idom and gs->depth (a unit's immediate dominator and its depth
   in the tree of dominators, -1 for code that never runs) and gs->maybe
   (the units that do not dominate the end: a run of the body that
   completes may skip them).  Returns 0, or -1 with an exception set. */
static int
mark_maybe_skipped(struct guard_scan *gs, const _Py_CODEUNIT *instr,
                   Py_ssize_t n)
{
    Py_ssize_t N = n + 1;
    Py_ssize_t *succ = gs->succ = PyMem_New(Py_ssize_t, 4 * N);
    unsigned char *nsucc = gs->nsucc = PyMem_Calloc(N, 1);
    unsigned char *child = PyMem_Calloc(N, 1);
    Py_ssize_t *handler = PyMem_New(Py_ssize_t, N);
    Py_ssize_t *order = PyMem_New(Py_ssize_t, N);   /* reverse postorder */
    Py_ssize_t *rpo = PyMem_New(Py_ssize_t, N);     /* index in it */
    Py_ssize_t *stack = PyMem_New(Py_ssize_t, N);
    Py_ssize_t *first = PyMem_New(Py_ssize_t, N + 1);
    Py_ssize_t *preds = PyMem_New(Py_ssize_t, 4 * N);
    gs->idom = PyMem_New(Py_ssize_t, N);
    gs->depth = PyMem_New(Py_ssize_t, N);
    gs->maybe = PyMem_Malloc(N);
    int r = -1;
    if (!succ || !nsucc || !child || !handler || !order || !rpo || !stack
        || !first || !preds || !gs->idom || !gs->depth || !gs->maybe)
    {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < N; k++) {
        handler[k] = -1;
        rpo[k] = -1;
        gs->idom[k] = -1;
        gs->depth[k] = -1;
        gs->maybe[k] = 1;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(
        gs->body->co_exceptiontable);
    const unsigned char *end = p + PyBytes_GET_SIZE(
        gs->body->co_exceptiontable);
    Py_ssize_t entry[4];
    while (next_exception_entry(&p, end, n, entry)) {
        for (Py_ssize_t k = entry[0]; k < n && k < entry[0] + entry[1]; k++) {
            handler[k] = entry[2] < n ? entry[2] : -1;
        }
    }
    /* The edges.  An EXTENDED_ARG goes on to the next unit; the caches of
       an instruction are no nodes. */
    int oparg = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int op = instr[i].op.code;
        oparg = (oparg << 8) | instr[i].op.arg;
        Py_ssize_t out[4];
        int count = 0;
        if (op == EXTENDED_ARG) {
            out[count++] = i + 1;
        }
        else {
            Py_ssize_t next = i + 1 + _PyOpcode_Caches[op];
            count = successors(gs, instr, n, i, op, oparg, next, handler[i],
                               out);
            oparg = 0;
        }
        for (int k = 0; k < count; k++) {
            if (out[k] >= 0 && out[k] <= n) {
                succ[4 * i + nsucc[i]++] = out[k];
            }
        }
        if (op != EXTENDED_ARG) {
            i += _PyOpcode_Caches[op];
        }
    }
    /* The reverse postorder of the nodes that run, from the first unit. */
    Py_ssize_t sp = 0, count = N;
    stack[sp++] = 0;
    rpo[0] = 0;     /* seen */
    while (sp > 0) {
        Py_ssize_t v = stack[sp - 1];
        if (v < n && child[v] < nsucc[v]) {
            Py_ssize_t w = succ[4 * v + child[v]++];
            if (rpo[w] < 0) {
                rpo[w] = 0;
                stack[sp++] = w;
            }
            continue;
        }
        order[--count] = v;
        sp--;
    }
    Py_ssize_t nodes = N - count;
    memmove(order, order + count, nodes * sizeof(Py_ssize_t));
    for (Py_ssize_t k = 0; k < nodes; k++) {
        rpo[order[k]] = k;
    }
    /* Their predecessors, node by node (first[w] to first[w + 1]). */
    memset(first, 0, (N + 1) * sizeof(Py_ssize_t));
    for (Py_ssize_t k = 0; k < nodes; k++) {
        Py_ssize_t v = order[k];
        for (int j = 0; v < n && j < nsucc[v]; j++) {
            first[succ[4 * v + j] + 1]++;
        }
    }
    for (Py_ssize_t k = 0; k < N; k++) {
        first[k + 1] += first[k];
    }
    for (Py_ssize_t k = 0; k < N; k++) {
        child[k] = 0;
    }
    for (Py_ssize_t k = 0; k < nodes; k++) {
        Py_ssize_t v = order[k];
        for (int j = 0; v < n && j < nsucc[v]; j++) {
            Py_ssize_t w = succ[4 * v + j];
            preds[first[w] + child[w]++] = v;
        }
    }
    Py_ssize_t *idom = gs->idom;
    idom[0] = 0;
    for (int changed = 1; changed; ) {
        changed = 0;
        for (Py_ssize_t k = 1; k < nodes; k++) {
            Py_ssize_t b = order[k], d = -1;
            for (Py_ssize_t j = first[b]; j < first[b + 1]; j++) {
                Py_ssize_t a = preds[j];
                if (idom[a] < 0) {
                    continue;   /* not reached yet */
                }
                if (d < 0) {
                    d = a;
                    continue;
                }
                while (a != d) {
                    while (rpo[a] > rpo[d]) {
                        a = idom[a];
                    }
                    while (rpo[d] > rpo[a]) {
                        d = idom[d];
                    }
                }
            }
            if (d != idom[b]) {
                idom[b] = d;
                changed = 1;
            }
        }
    }
    gs->depth[0] = 0;
    for (Py_ssize_t k = 1; k < nodes; k++) {
        Py_ssize_t b = order[k];
        gs->depth[b] = gs->depth[idom[b]] + 1;
    }
    if (idom[n] >= 0) {
        for (Py_ssize_t v = n; ; v = idom[v]) {
            gs->maybe[v] = 0;
            if (v == 0) {
                break;
            }
        }
    }
    gs->n = n;
    r = 0;
done:
    PyMem_Free(child);
    PyMem_Free(handler);
    PyMem_Free(order);
    PyMem_Free(rpo);
    PyMem_Free(stack);
    PyMem_Free(first);
    PyMem_Free(preds);
    return r;
}

/* How far down the chain of dominators of the end the body is whenever
   the unit 'i' runs: a store of a name at a depth below it has bound the
   name then (see guard_scan_code()).  The deepest node of the chain that
   dominates 'i' tells. */
static Py_ssize_t
bound_before(struct guard_scan *gs, Py_ssize_t i)
{
    if (gs->idom[i] < 0) {
        return 0;
    }
    Py_ssize_t a = i;
    while (gs->maybe[a]) {
        if (a == 0) {
            return 0;   /* the body never completes */
        }
        a = gs->idom[a];
    }
    return a == i ? gs->depth[i] : gs->depth[a] + 1;
}

/* How many budgeted searches bind_names() makes per module: each reads
   the whole body. */
#define GUARD_MAX_MERGES 32

/* Fill gs->names from gs->stores: each name the body binds whenever it
   runs to its end, with the depth in the chain of dominators of the end
   from which it is bound (compared with bound_before()).  A store on that
   chain binds it from there.  Stores of which none is on it (the compiler
   copies the code that follows an if into both branches) bind it from the
   first node of the chain that no path reaches without passing one of
   them, if the end is one.  Returns 0, or -1 with an exception set. */
static int
bind_names(struct guard_scan *gs)
{
    Py_ssize_t n = gs->n, N = n + 1;
    Py_ssize_t *chain = NULL, *queue = NULL, nchain = 0;
    char *seen = NULL;
    int merges = GUARD_MAX_MERGES, r = 0;
    Py_ssize_t pos = 0;
    PyObject *name, *at;
    if (gs->maybe == NULL) {
        return 0;       /* the body was not read */
    }
    while (r == 0 && PyDict_Next(gs->stores, &pos, &name, &at)) {
        Py_ssize_t from = -1, count = PyList_GET_SIZE(at);
        for (Py_ssize_t k = 0; k < count; k++) {
            Py_ssize_t i = PyLong_AsSsize_t(PyList_GET_ITEM(at, k));
            if (!gs->maybe[i] && (from < 0 || gs->depth[i] < from)) {
                from = gs->depth[i];
            }
        }
        if (from < 0 && count > 1 && !gs->maybe[n] && merges-- > 0) {
            if (chain == NULL) {
                nchain = gs->depth[n] + 1;
                chain = PyMem_New(Py_ssize_t, nchain);
                queue = PyMem_New(Py_ssize_t, N);
                seen = PyMem_Malloc(N);
                if (chain == NULL || queue == NULL || seen == NULL) {
                    PyErr_NoMemory();
                    r = -1;
                    break;
                }
                for (Py_ssize_t v = n; ; v = gs->idom[v]) {
                    chain[gs->depth[v]] = v;
                    if (v == 0) {
                        break;
                    }
                }
            }
            /* What runs without passing a store. */
            memset(seen, 0, N);
            for (Py_ssize_t k = 0; k < count; k++) {
                seen[PyLong_AsSsize_t(PyList_GET_ITEM(at, k))] = 2;
            }
            Py_ssize_t head = 0, tail = 0;
            if (!seen[0]) {
                seen[0] = 1;
                queue[tail++] = 0;
            }
            while (head < tail) {
                Py_ssize_t v = queue[head++];
                for (int j = 0; v < n && j < gs->nsucc[v]; j++) {
                    Py_ssize_t w = gs->succ[4 * v + j];
                    if (!seen[w]) {
                        seen[w] = 1;
                        queue[tail++] = w;
                    }
                }
            }
            for (Py_ssize_t d = 0; d < nchain; d++) {
                if (seen[chain[d]] != 1) {
                    from = d;
                    break;
                }
            }
        }
        if (from >= 0) {
            PyObject *depth = PyLong_FromSsize_t(from);
            r = (depth == NULL || PyDict_SetItem(gs->names, name, depth) < 0)
                ? -1 : 0;
            Py_XDECREF(depth);
        }
    }
    PyMem_Free(chain);
    PyMem_Free(queue);
    PyMem_Free(seen);
    return r;
}

/* The absolute name of the module that an import statement of a module
   whose relative imports are relative to 'base' names ('name', 'level'):
   a new reference, None when it names none (the statement raises
   ImportError), or NULL with an exception set. */
static PyObject *
guard_absolute(PyObject *base, PyObject *name, int level)
{
    if (level == 0) {
        return Py_NewRef(name);
    }
    Py_ssize_t end = PyUnicode_GET_LENGTH(base);
    for (int k = 1; k < level && end > 0; k++) {
        end = PyUnicode_FindChar(base, '.', 0, end, -1);
    }
    if (end <= 0) {
        Py_RETURN_NONE;
    }
    PyObject *pkg = PyUnicode_Substring(base, 0, end);
    if (pkg == NULL || PyUnicode_GET_LENGTH(name) == 0) {
        return pkg;
    }
    PyObject *res = _PyLazyImport_Dotted(pkg, name);
    Py_DECREF(pkg);
    return res;
}

/* A code_scanner for guard_scan_module(): the edges, the names bound, and
   *stop when the code can raise ImportError otherwise than by an import
   statement (a bare "raise" re-raising the exception handled, ImportError
   or ModuleNotFoundError read other than to match a handler) or import
   by name (importlib.import_module(), __import__(), exec()).  An import
   in the body of a try whose handlers catch ImportError is left out
   (IMPORT_NAME_GUARDED: its module's own handler sees its failure), and
   so is the code under "if TYPE_CHECKING:". */
static int
guard_scan_code(PyCodeObject *co, void *arg, PyObject *loaded, int *stop)
{
    struct guard_scan *gs = (struct guard_scan *)arg;
    PyObject *bytecode = PyCode_GetCode(co);    /* deoptimized */
    if (bytecode == NULL) {
        return -1;
    }
    const _Py_CODEUNIT *instr = (const _Py_CODEUNIT *)PyBytes_AS_STRING(
        bytecode);
    Py_ssize_t n = PyBytes_GET_SIZE(bytecode) / (Py_ssize_t)sizeof(
        _Py_CODEUNIT);
    Py_ssize_t nconsts = PyTuple_GET_SIZE(co->co_consts);
    Py_ssize_t nnames = PyTuple_GET_SIZE(co->co_names);
    int is_body = (co == gs->body);
    int r = (is_body && mark_maybe_skipped(gs, instr, n) < 0) ? -1 : 0;
    int oparg = 0, prev_const = -1, last_const = -1, type_checking = 0;
    int guarded = 0, raises = 0;
    Py_ssize_t skip_from = -1, skip_to = -1;
    for (Py_ssize_t i = 0; i < n && !*stop && r == 0; i++) {
        if (i == skip_from) {
            i = skip_to - 1;    /* an else that runs never */
            skip_from = -1;
            oparg = 0;
            continue;
        }
        int op = instr[i].op.code;
        oparg = (oparg << 8) | instr[i].op.arg;
        if (op == EXTENDED_ARG || op == CACHE) {
            continue;
        }
        int index = -1;
        if (op == LOAD_NAME || op == LOAD_FROM_DICT_OR_GLOBALS) {
            index = oparg;
        }
        else if (op == LOAD_GLOBAL || op == LOAD_ATTR) {
            index = oparg >> 1;
        }
        if (index >= 0 && index < nnames) {
            PyObject *name = PyTuple_GET_ITEM(co->co_names, index);
            type_checking = is_type_checking(co, index);
            if (op != LOAD_ATTR) {
                r = PySet_Add(loaded, name);
            }
            if (_PyUnicode_EqualToASCIIString(name, "import_module")
                || _PyUnicode_EqualToASCIIString(name, "__import__")
                || _PyUnicode_EqualToASCIIString(name, "exec")
                || ((_PyUnicode_EqualToASCIIString(name, "ImportError")
                     || _PyUnicode_EqualToASCIIString(name,
                                                      "ModuleNotFoundError"))
                    && !is_handler_match(instr, i, n)))
            {
                *stop = 1;
            }
        }
        else if (op == POP_JUMP_IF_FALSE && type_checking) {
            i += _PyOpcode_Caches[op] + oparg;
            type_checking = 0;
            oparg = 0;
            continue;
        }
        else if (op == POP_JUMP_IF_FALSE || op == POP_JUMP_IF_TRUE) {
            /* A test of a fact of the interpreter: the branch not taken
               runs never. */
            int jumps = known_jump(co, instr, i, gs->name);
            Py_ssize_t target = i + 1 + _PyOpcode_Caches[op] + oparg;
            if (jumps == 1) {
                i = target - 1;
                oparg = 0;
                continue;
            }
            Py_ssize_t last = previous_instruction(instr, target);
            if (jumps == 0 && last > i
                && instr[last].op.code == JUMP_FORWARD)
            {
                /* The else: from the target to where the body jumps. */
                skip_from = target;
                skip_to = last + 1 + full_oparg(instr, last);
            }
        }
        else if (op != TO_BOOL) {
            type_checking = 0;
        }
        if (op == RAISE_VARARGS && (oparg == 0 || is_reraise(instr, i))) {
            raises = 1;
        }
        else if (is_body && (op == STORE_NAME || op == STORE_GLOBAL)
                 && oparg < nnames && gs->depth[i] >= 0)
        {
            /* Where it is stored (see bind_names()). */
            PyObject *key = PyTuple_GET_ITEM(co->co_names, oparg), *at;
            r = PyDict_GetItemRef(gs->stores, key, &at);
            if (r == 0) {
                at = PyList_New(0);
                r = (at == NULL || PyDict_SetItem(gs->stores, key, at) < 0)
                    ? -1 : 1;
            }
            PyObject *index = r > 0 ? PyLong_FromSsize_t(i) : NULL;
            r = (index == NULL || PyList_Append(at, index) < 0) ? -1 : 0;
            Py_XDECREF(index);
            Py_XDECREF(at);
        }
        else if (is_body && (op == DELETE_NAME || op == DELETE_GLOBAL)
                 && oparg < nnames)
        {
            r = PySet_Add(gs->deleted, PyTuple_GET_ITEM(co->co_names,
                                                        oparg));
        }
        if (op == LOAD_CONST) {
            prev_const = last_const;
            last_const = oparg;
            oparg = 0;
            continue;
        }
        /* An import under a try of the module's own is no edge: its
           handler sees its failure.  One that runs whenever the body
           completes is kept as an attempt (see struct guard_walk). */
        int is_guarded = IS_GUARDED_IMPORT_NAME(op);
        guarded |= is_guarded;
        int is_import = IS_IMPORT_NAME(op)
                        && (!is_guarded || (is_body && !gs->maybe[i]));
        index = oparg;
        oparg = 0;
        if (!is_import) {
            prev_const = last_const = -1;
            continue;
        }
        if (index >= nnames || prev_const < 0 || prev_const >= nconsts
            || last_const >= nconsts)
        {
            prev_const = last_const = -1;
            if (is_guarded) {
                continue;
            }
            *stop = 1;      /* not what the compiler writes */
            break;
        }
        PyObject *levelobj = PyTuple_GET_ITEM(co->co_consts, prev_const);
        PyObject *fromlist = PyTuple_GET_ITEM(co->co_consts, last_const);
        prev_const = last_const = -1;
        int level = PyLong_Check(levelobj) ? PyLong_AsInt(levelobj) : -1;
        if (level < 0) {
            r = PyErr_Occurred() ? -1 : 0;
            if (r == 0 && is_guarded) {
                continue;
            }
            *stop = 1;
            break;
        }
        PyObject *mod = guard_absolute(gs->base,
                                       PyTuple_GET_ITEM(co->co_names, index),
                                       level);
        if (mod == NULL) {
            r = -1;
            break;
        }
        if (mod == Py_None) {
            /* Beyond the top-level package: it raises. */
            *stop = !is_guarded;
        }
        else {
            /* With how far down the chain of dominators of the end it
               comes (0 for the code of a class or a function: no name is
               known bound), and whether it surely runs when the body
               runs. */
            PyObject *bound = PyLong_FromSsize_t(
                is_body ? bound_before(gs, i) : 0);
            PyObject *edge = bound == NULL ? NULL
                             : PyTuple_Pack(5, mod, fromlist, bound,
                                            (is_body && !gs->maybe[i])
                                            ? Py_True : Py_False,
                                            is_guarded ? Py_True : Py_False);
            r = edge == NULL ? -1 : PyList_Append(gs->edges, edge);
            Py_XDECREF(edge);
            Py_XDECREF(bound);
        }
        Py_DECREF(mod);
    }
    if (guarded && raises) {
        /* A handler of an import's failure may raise it again. */
        *stop = 1;
    }
    Py_DECREF(bytecode);
    return r;
}

/* What finding tells of the module 'name', whose spec is 'spec': a new
   reference to (search locations or None, names, edges), or None when
   its code cannot tell (see _PyLazyImport_GuardFinds()), or NULL with an
   exception set.  Read once per file (state->guard_scans). */
static PyObject *
guard_scan_module(PyThreadState *tstate, PyObject *name, PyObject *spec)
{
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    PyObject *importlib = tstate->interp->imports.importlib;
    PyObject *origin = NULL, *loader = NULL, *sub = NULL, *external = NULL;
    PyObject *cls = NULL, *code = NULL, *res = NULL;
    struct guard_scan gs = {name, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                            NULL, NULL, NULL, NULL, NULL};
    if (PyObject_GetOptionalAttrString(spec, "origin", &origin) < 0
        || PyObject_GetOptionalAttrString(spec, "loader", &loader) < 0
        || PyObject_GetOptionalAttrString(
               spec, "submodule_search_locations", &sub) < 0
        || PyObject_GetOptionalAttrString(importlib, "_bootstrap_external",
                                          &external) < 0)
    {
        goto done;
    }
    if (sub == NULL) {
        sub = Py_NewRef(Py_None);
    }
    if (loader == NULL || external == NULL) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    if (PyObject_GetOptionalAttrString(external, "NamespaceLoader",
                                       &cls) < 0)
    {
        goto done;
    }
    if (cls != NULL && (PyObject *)Py_TYPE(loader) == cls) {
        /* A namespace package: no body, only its submodules. */
        PyObject *names = PyDict_New();
        PyObject *edges = PyTuple_New(0);
        res = (names && edges) ? PyTuple_Pack(3, sub, names, edges) : NULL;
        Py_XDECREF(names);
        Py_XDECREF(edges);
        goto done;
    }
    if (origin == NULL || !PyUnicode_Check(origin)) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    if (state->guard_scans == NULL
        && (state->guard_scans = PyDict_New()) == NULL)
    {
        goto done;
    }
    int r = PyDict_GetItemRef(state->guard_scans, origin, &res);
    if (r != 0) {
        goto done;
    }
    if (read_code(external, loader, name, &code) < 0) {
        goto done;
    }
    if (code == NULL) {
        res = Py_NewRef(Py_None);
    }
    else {
        gs.body = (PyCodeObject *)code;
        gs.base = sub != Py_None ? Py_NewRef(name)
                  : PyUnicode_Substring(name, 0,
                        Py_MAX(0, PyUnicode_FindChar(
                            name, '.', 0, PyUnicode_GET_LENGTH(name), -1)));
        gs.edges = PyList_New(0);
        gs.names = PyDict_New();
        gs.deleted = PySet_New(NULL);
        gs.stores = PyDict_New();
        if (!gs.base || !gs.edges || !gs.names || !gs.deleted
            || !gs.stores)
        {
            goto done;
        }
        int stop = 0;
        if (walk_module_code(gs.body, guard_scan_code, &gs, &stop) < 0
            || (!stop && bind_names(&gs) < 0))
        {
            goto done;
        }
        if (stop) {
            res = Py_NewRef(Py_None);
        }
        else {
            /* A name the body deletes may be missing. */
            Py_ssize_t pos = 0;
            PyObject *key;
            int err = 0;
            while (!err && _PySet_NextEntry(gs.deleted, &pos, &key,
                                            &(Py_hash_t){0}))
            {
                err = PyDict_Pop(gs.names, key, NULL) < 0;
            }
            PyObject *edges = err ? NULL : PyList_AsTuple(gs.edges);
            res = edges ? PyTuple_Pack(3, sub, gs.names, edges) : NULL;
            Py_XDECREF(edges);
        }
    }
    if (res != NULL && PyDict_SetItem(state->guard_scans, origin, res) < 0) {
        Py_CLEAR(res);
    }
done:
    PyMem_Free(gs.maybe);
    PyMem_Free(gs.idom);
    PyMem_Free(gs.depth);
    PyMem_Free(gs.succ);
    PyMem_Free(gs.nsucc);
    Py_XDECREF(gs.stores);
    Py_XDECREF(gs.base);
    Py_XDECREF(gs.edges);
    Py_XDECREF(gs.names);
    Py_XDECREF(gs.deleted);
    Py_XDECREF(code);
    Py_XDECREF(cls);
    Py_XDECREF(external);
    Py_XDECREF(sub);
    Py_XDECREF(loader);
    Py_XDECREF(origin);
    return res;
}

struct guard_walk {
    PyThreadState *tstate;
    PyObject *modules;      /* sys.modules */
    /* The modules visited: name -> (search locations or None, names),
       the names a dict of those the body surely binds (name -> the depth
       from which it is bound, see struct guard_scan), None for a module
       imported already (its
       namespace tells), False for a module written in C not imported
       (it cannot tell). */
    PyObject *found;
    /* The modules whose imports are being visited, as eagerly their
       bodies would be running, innermost last, and for each the depth of
       the import being visited (a name bound from a lesser one is bound
       then). */
    PyObject *stack;
    PyObject *running;      /* name -> names bound (see stack) */
    PyObject *cyclic;       /* the modules of an import cycle */
    int depth;
    int budget;             /* how many modules it may still find */
    /* Whether the import being visited surely runs when the statement
       does: every import on the way is in a body, on no path it may
       skip. */
    int sure;
    /* (module, what it imports) -> the depth of an import of its body
       that runs whenever the body completes (see struct guard_scan): an
       import of the same module deeper down comes after that attempt
       (try: from _operator import * / else: from _operator import
       __doc__). */
    PyObject *attempted;
};

/* How far the imports of a statement are followed, and how many modules
   not found before one walk may find; past them, the walk cannot tell
   (the next walk goes on from what this one kept). */
#define GUARD_MAX_DEPTH 200
#define GUARD_MAX_READS 512

static int guard_edge(struct guard_walk *w, PyObject *name,
                      PyObject *fromlist);

static int
guard_add(struct guard_walk *w, PyObject *name, PyObject *locations,
          PyObject *names)
{
    PyObject *info = PyTuple_Pack(2, locations, names);
    int r = info == NULL ? -1 : PyDict_SetItem(w->found, name, info);
    Py_XDECREF(info);
    return r < 0 ? -1 : 1;
}

/* What finding tells of the module 'name' (its parent's search locations
   'path', None for a top-level module; 'dot' the index of the last dot, or
   -1): a new reference to (search locations or None, names, imports) as
   guard_scan_module() reads them, with False for the names of an extension
   module of the standard library that loads; None when it is not found or
   cannot tell, or when *budget, the modules the walk may still find, is
   spent (then nothing is kept); NULL with an exception set.  Kept for the
   process (state->guard_info), so that the next walk that reaches the
   module finds it in a dict rather than on sys.path. */
static PyObject *
guard_find_module(PyThreadState *tstate, PyObject *name, PyObject *path,
                  Py_ssize_t dot, int *budget)
{
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    PyObject *scan = NULL;
    if (state->guard_info == NULL
        && (state->guard_info = PyDict_New()) == NULL)
    {
        return NULL;
    }
    int r = PyDict_GetItemRef(state->guard_info, name, &scan);
    if (r != 0) {
        return scan;
    }
    if (*budget <= 0) {
        Py_RETURN_NONE;     /* too many to read for one statement */
    }
    --*budget;
    PyObject *spec = PyObject_CallMethod(tstate->interp->imports.importlib,
                                         "_find_spec", "OO", name, path);
    if (spec == NULL) {
        return NULL;
    }
    if (spec == Py_None) {
        scan = spec;        /* ModuleNotFoundError */
    }
    else {
        PyObject *stdlib = PySys_GetObject("stdlib_module_names");
        Py_ssize_t len = PyUnicode_GET_LENGTH(name);
        PyObject *top = dot > 0 ? PyUnicode_Substring(name, 0,
            PyUnicode_FindChar(name, '.', 0, len, 1)) : Py_NewRef(name);
        r = top == NULL ? -1
            : (stdlib != NULL && PyAnySet_Check(stdlib))
              ? PySet_Contains(stdlib, top) : 0;
        Py_XDECREF(top);
        if (r > 0) {
            /* An extension module of the standard library: its names are
               known once it is loaded. */
            r = _PyLazyImport_SpecExtensionLoads(tstate, spec);
            if (r > 0) {
                PyObject *edges = PyTuple_New(0);
                scan = edges == NULL ? NULL
                       : PyTuple_Pack(3, Py_None, Py_False, edges);
                Py_XDECREF(edges);
            }
        }
        if (r == 0) {
            scan = guard_scan_module(tstate, name, spec);
        }
        Py_DECREF(spec);
    }
    if (scan != NULL && PyDict_SetItem(state->guard_info, name, scan) < 0) {
        Py_CLEAR(scan);
    }
    return scan;
}

/* Visit the module 'name' for _PyLazyImport_GuardFinds(), as eager execution
   would run it: its parent packages first, then its body's imports, depth
   first.  1 when it imports without ImportError as far as finding tells
   (found, its code read, or imported already, or built in, or an extension
   of the standard library that loads); 0 when finding cannot tell.  -1 with
   an exception set. */
static int
guard_visit(struct guard_walk *w, PyObject *name)
{
    PyThreadState *tstate = w->tstate;
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    PyObject *info = NULL, *mod = NULL, *path = Py_None;
    int r = PyDict_Contains(w->found, name);
    if (r != 0) {
        if (r > 0 && (r = PyDict_Contains(w->running, name)) > 0) {
            /* An import cycle: those running from there on are in it. */
            Py_ssize_t n = PyList_GET_SIZE(w->stack), k = n;
            while (k > 0 && r >= 0) {
                PyObject *item = PyList_GET_ITEM(w->stack, --k);
                r = PySet_Add(w->cyclic, item);
                if (PyUnicode_Compare(item, name) == 0) {
                    break;
                }
            }
        }
        return r < 0 ? -1 : 1;
    }
    r = PyDict_CheckExact(w->modules)
        ? PyDict_GetItemRef(w->modules, name, &mod)
        : PyMapping_GetOptionalItem(w->modules, name, &mod);
    if (r != 0) {
        /* Imported already (or running): its names are in its namespace.
           None blocks the import. */
        if (r > 0 && mod != Py_None) {
            PyObject *locations = NULL;
            if (PyModule_Check(mod)) {
                r = _PyDict_GetItemRefNoResolve(PyModule_GetDict(mod),
                                                &_Py_ID(__path__),
                                                &locations);
            }
            if (r >= 0) {
                r = guard_add(w, name, locations ? locations : Py_None,
                              Py_None);
            }
            Py_XDECREF(locations);
        }
        else if (r > 0) {
            r = 0;
        }
        Py_XDECREF(mod);
        return r;
    }
    if (state->guard_found != NULL) {
        /* Visited by an earlier walk, with every import it makes. */
        r = PyDict_GetItemRef(state->guard_found, name, &info);
        if (r > 0) {
            r = PyDict_SetItem(w->found, name, info) < 0 ? -1 : 1;
            Py_DECREF(info);
        }
        if (r != 0) {
            return r;
        }
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, len, -1);
    if (dot == -2) {
        return -1;
    }
    if (dot > 0) {
        PyObject *parent = PyUnicode_Substring(name, 0, dot), *pinfo;
        r = parent == NULL ? -1 : guard_visit(w, parent);
        if (r > 0) {
            r = PyDict_GetItemRef(w->found, parent, &pinfo);
            if (r > 0) {
                path = PyTuple_GET_ITEM(pinfo, 0);
                r = path != Py_None;    /* not a package: it raises */
                Py_INCREF(path);
                Py_DECREF(pinfo);
            }
        }
        Py_XDECREF(parent);
        if (r <= 0) {
            if (path != Py_None) {
                Py_DECREF(path);
            }
            return r;
        }
        /* The parent's body may have imported it meanwhile. */
        r = PyDict_Contains(w->found, name);
        if (r != 0) {
            Py_DECREF(path);
            return r;
        }
    }
    else {
        PyObject *names = PySys_GetObject("builtin_module_names");
        r = (names != NULL && PyTuple_Check(names))
            ? PySequence_Contains(names, name) : 0;
        if (r != 0) {
            return r < 0 ? -1 : guard_add(w, name, Py_None, Py_False);
        }
        Py_INCREF(path);
    }
    PyObject *scan = guard_find_module(tstate, name, path, dot, &w->budget);
    Py_DECREF(path);
    if (scan == NULL || scan == Py_None) {
        Py_XDECREF(scan);
        return scan == NULL ? -1 : 0;
    }
    r = guard_add(w, name, PyTuple_GET_ITEM(scan, 0),
                  PyTuple_GET_ITEM(scan, 1));
    if (r > 0 && ++w->depth > GUARD_MAX_DEPTH) {
        r = 0;
    }
    r = r <= 0 ? r : PyList_Append(w->stack, name) == 0 ? 1 : -1;
    PyObject *edges = PyTuple_GET_ITEM(scan, 2);
    for (Py_ssize_t i = 0; r > 0 && i < PyTuple_GET_SIZE(edges); i++) {
        PyObject *edge = PyTuple_GET_ITEM(edges, i);
        if (PyTuple_GET_ITEM(edge, 3) == Py_True) {
            PyObject *key = PyTuple_Pack(2, name, PyTuple_GET_ITEM(edge, 0));
            r = key == NULL ? -1
                : PyDict_SetDefaultRef(w->attempted, key,
                                       PyTuple_GET_ITEM(edge, 2), NULL);
            Py_XDECREF(key);
            if (r < 0) {
                break;
            }
            r = 1;
        }
        if (PyTuple_GET_ITEM(edge, 4) == Py_True) {
            continue;   /* an attempt, not followed */
        }
        r = PyDict_SetItem(w->running, name, PyTuple_GET_ITEM(edge, 2));
        if (r == 0) {
            int sure = w->sure;
            w->sure = sure && PyTuple_GET_ITEM(edge, 3) == Py_True;
            r = guard_edge(w, PyTuple_GET_ITEM(edge, 0),
                           PyTuple_GET_ITEM(edge, 1));
            w->sure = sure;
        }
    }
    if (r > 0) {
        r = PyDict_Pop(w->running, name, NULL) < 0
            || PyList_SetSlice(w->stack, PyList_GET_SIZE(w->stack) - 1,
                               PyList_GET_SIZE(w->stack), NULL) < 0
            ? -1 : 1;
        w->depth--;
    }
    Py_DECREF(scan);
    return r;
}

/* Has the module whose import is being visited attempted to import the
   module 'name' before, by an import of its body that runs whenever the
   body completes?  Returns 1, 0, or -1 with an exception set. */
static int
attempted_before(struct guard_walk *w, PyObject *name)
{
    Py_ssize_t n = PyList_GET_SIZE(w->stack);
    if (n == 0) {
        return 0;
    }
    PyObject *importer = PyList_GET_ITEM(w->stack, n - 1), *depth, *now;
    PyObject *key = PyTuple_Pack(2, importer, name);
    int r = key == NULL ? -1 : PyDict_GetItemRef(w->attempted, key, &depth);
    Py_XDECREF(key);
    if (r > 0) {
        r = PyDict_GetItemRef(w->running, importer, &now);
        if (r > 0) {
            r = PyObject_RichCompareBool(depth, now, Py_LT);
            Py_DECREF(now);
        }
        Py_DECREF(depth);
    }
    return r;
}

/* Does the module 'name', visited by guard_visit(), hold 'item' for
   "from name import item" made now: its namespace does (not lazily), or
   its body surely binds it (before the import being visited, when its
   body is running), or it is a package with a submodule 'item' that
   imports without error?  Returns 1, 0, or -1 with an exception set. */
static int
guard_holds(struct guard_walk *w, PyObject *name, PyObject *item)
{
    PyObject *info, *mod = NULL, *value, *pos, *bound;
    int r = PyDict_GetItemRef(w->found, name, &info);
    if (r <= 0) {
        return r;
    }
    PyObject *names = PyTuple_GET_ITEM(info, 1);
    if (names == Py_False && !w->sure) {
        r = attempted_before(w, name);
        if (r < 0) {
            Py_DECREF(info);
            return -1;
        }
    }
    if (names == Py_False && (w->sure || r > 0)) {
        /* A module of the standard library written in C that eager
           execution imports here, or that an import which surely runs
           attempts: import it to read its names, which runs no Python
           code. */
        mod = PyImport_Import(name);
        if (mod == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_Exception)) {
                Py_DECREF(info);
                return -1;
            }
            PyErr_Clear();  /* the statement will raise it */
            r = -2;
        }
        Py_CLEAR(mod);
        names = Py_None;
    }
    if (r == -2 || names == Py_False) {
        r = -2;
    }
    else if (names != Py_None) {
        r = PyDict_GetItemRef(names, item, &pos);
        if (r > 0) {
            r = PyDict_GetItemRef(w->running, name, &bound);
            if (r > 0) {
                /* Its body is running: bound before the import? */
                r = PyObject_RichCompareBool(pos, bound, Py_LT);
                Py_DECREF(bound);
            }
            else if (r == 0) {
                r = 1;
            }
            Py_DECREF(pos);
        }
    }
    else {
        r = PyDict_CheckExact(w->modules)
            ? PyDict_GetItemRef(w->modules, name, &mod)
            : PyMapping_GetOptionalItem(w->modules, name, &mod);
        if (r > 0 && PyModule_Check(mod)) {
            r = _PyDict_GetItemRefNoResolve(PyModule_GetDict(mod), item,
                                            &value);
            if (r > 0) {
                /* A lazy value's import may fail: it cannot tell. */
                r = PyLazyImport_CheckExact(value) ? -2 : 1;
                Py_DECREF(value);
            }
        }
        else if (r > 0) {
            r = -2;
        }
        Py_XDECREF(mod);
    }
    if (r == 0 && PyTuple_GET_ITEM(info, 0) != Py_None) {
        /* "from package import sub" imports the submodule. */
        PyObject *sub = _PyLazyImport_Dotted(name, item);
        r = sub == NULL ? -1 : guard_visit(w, sub);
        Py_XDECREF(sub);
    }
    Py_DECREF(info);
    return r == -2 ? 0 : r;
}

/* The import of 'name' with 'fromlist', as a body makes it: the module,
   then the names.  Returns 1, 0, or -1 with an exception set. */
static int
guard_edge(struct guard_walk *w, PyObject *name, PyObject *fromlist)
{
    int r = guard_visit(w, name);
    for (Py_ssize_t k = 0; r > 0 && PyTuple_Check(fromlist)
                           && k < PyTuple_GET_SIZE(fromlist); k++)
    {
        PyObject *item = PyTuple_GET_ITEM(fromlist, k);
        if (!PyUnicode_Check(item)) {
            r = 0;
        }
        else if (!_PyUnicode_EqualToASCIIString(item, "*")) {
            r = guard_holds(w, name, item);
        }
    }
    return r;
}

/* Rule 54 at the price of finding: would the statement importing
   'fullname' (with 'fromlist'), made by a module that an import under
   the guard runs, raise no ImportError when run later?  It would not
   when every module that it and the modules they import at module level
   run (read as rule 55 says, exception handlers included, the imports a
   try of their own guards left out) is imported already, built in, an
   extension module of the standard library that loads, or Python source
   that importlib's SourceFileLoader loads and whose code raises no
   ImportError by itself (see guard_scan_code()); and every name a
   "from" import of them takes is bound by its module's body whatever
   path it takes (before the import that leads back to it, in an import
   cycle), or is a submodule that imports without error.  Then the
   statement stays deferred; when finding cannot tell, it runs now, as
   eagerly.  The modules a walk visited with all their imports, outside
   import cycles, are kept for the next (state->guard_found).  Returns 1,
   0, or -1 with an exception set. */
int
_PyLazyImport_GuardFinds(PyThreadState *tstate, PyObject *fullname,
                         PyObject *fromlist)
{
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    if (tstate->interp->imports.importlib == NULL) {
        return 0;
    }
    struct guard_walk w = {tstate, PyImport_GetModuleDict(), PyDict_New(),
                           PyList_New(0), PyDict_New(), PySet_New(NULL), 0,
                           GUARD_MAX_READS, 1, PyDict_New()};
    int r = (w.found && w.stack && w.running && w.cyclic && w.attempted)
            ? guard_edge(&w, fullname, fromlist) : -1;
    if (r > 0) {
        /* Keep what was found of the modules not imported yet. */
        if (state->guard_found == NULL
            && (state->guard_found = PyDict_New()) == NULL)
        {
            r = -1;
        }
        Py_ssize_t pos = 0;
        PyObject *name, *info;
        while (r > 0 && PyDict_Next(w.found, &pos, &name, &info)) {
            int cyclic = PySet_Contains(w.cyclic, name);
            if (cyclic < 0
                || (cyclic == 0 && PyDict_Check(PyTuple_GET_ITEM(info, 1))
                    && PyDict_SetItem(state->guard_found, name, info) < 0))
            {
                r = -1;
            }
        }
    }
    Py_XDECREF(w.found);
    Py_XDECREF(w.stack);
    Py_XDECREF(w.running);
    Py_XDECREF(w.cyclic);
    Py_XDECREF(w.attempted);
    return r;
}

/* Read the imports of the module 'name' (see add_imports_of_module())
   into 'graph' (name: the set of what it imports) and add them to 'only'.
   Returns 0, or -1 with an exception set. */
static int
add_to_graph(PyThreadState *tstate, PyObject *name, PyObject *path,
             PyObject *package, PyObject *pdict, PyObject *graph,
             PyObject *only, int *all)
{
    PyObject *imports = PySet_New(NULL);
    int r = imports == NULL ? -1
            : add_imports_of_module(tstate, name, path, package, pdict,
                                    imports, all);
    if (r == 0) {
        r = PyDict_SetItem(graph, name, imports);
    }
    if (r == 0) {
        r = _PySet_Update(only, imports);
    }
    Py_XDECREF(imports);
    return r;
}

/* Of the modules of 'graph' (see add_to_graph()), those from which the
   module 'target' is reached, through their imports: a new set. */
static PyObject *
reaching(PyObject *graph, PyObject *target)
{
    PyObject *found = PySet_New(NULL);
    for (int changed = 1; found != NULL && changed;) {
        changed = 0;
        Py_ssize_t pos = 0;
        PyObject *mod, *imports;
        while (PyDict_Next(graph, &pos, &mod, &imports)) {
            int r = PySet_Contains(found, mod);
            if (r == 0 && _PyUnicode_Equal(mod, target)) {
                continue;
            }
            Py_ssize_t ipos = 0;
            Py_hash_t hash;
            PyObject *item;
            while (r == 0 && _PySet_NextEntry(imports, &ipos, &item, &hash)) {
                r = _PyUnicode_Equal(item, target) ? 1
                    : PySet_Contains(found, item);
            }
            if (r > 0 && PySet_Contains(found, mod) == 0) {
                r = PySet_Add(found, mod);
                changed = 1;
            }
            if (r < 0) {
                Py_CLEAR(found);
                break;
            }
        }
    }
    return found;
}

/* Set *found to a new reference to the first module that the statement
   'st' of the package 'package' imports, among those 'only' needs (see
   _PyLazyImport_NeededBy()) and not in 'seen': its target, or a submodule that
   "from . import a" names.  Returns 0, or -1 with an exception set. */
static int
next_needed(PyLazyImportObject *st, PyObject *package, PyObject *only,
            PyObject *seen, PyObject **found)
{
    *found = NULL;
    PyObject *target = st->lz_fullname;
    Py_ssize_t n = PyTuple_Check(st->lz_fromlist)
                   && _PyUnicode_Equal(target, package)
                   ? PyTuple_GET_SIZE(st->lz_fromlist) : 0;
    for (Py_ssize_t i = -1; i < n; i++) {
        PyObject *mod = i < 0 ? Py_NewRef(target)
                        : _PyLazyImport_Dotted(
                              target, PyTuple_GET_ITEM(st->lz_fromlist, i));
        if (mod == NULL) {
            return -1;
        }
        Py_ssize_t pos = 0;
        Py_hash_t hash;
        PyObject *item;
        int r = 0;
        while (!r && _PySet_NextEntry(only, &pos, &item, &hash)) {
            r = _PyLazyImport_IsInside(item, mod);
        }
        if (r) {
            r = PySet_Contains(seen, mod);
            if (r == 0) {
                r = is_loaded(mod);
            }
            if (r == 0) {
                *found = mod;
                return 0;
            }
        }
        Py_DECREF(mod);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

/* The modules that the submodule 'fullname' of the package named
   'modname' (namespace 'dict') needs of the package's imports that come
   before 'limit': those in an import cycle with it.  Eagerly the
   package's earlier imports ran before the submodule, and a circular
   import works in one order only: entered at the submodule, a module of
   the cycle would meet it half initialized (twisted.logger).  A module
   outside every cycle with it may run later, when it is first used.  The
   cycles are read from the code of the modules before they run: the
   submodule's imports, in turn those of the package's earlier modules
   they reach, and which of these reach the submodule back.  Set *only to
   a new set of their names, or to NULL when the code cannot tell (see
   add_imports_of_module(); a statement that may read any attribute of the
   package).  Returns 0, or -1 with an exception set (one not derived from
   Exception: the others leave *only NULL). */
static int
imports_of(PyThreadState *tstate, PyObject *modname, PyObject *dict,
           PyObject *fullname, PyObject *limit, PyObject **only)
{
    PyObject *path = NULL, *seen = NULL, *graph = NULL;
    int all = 0;
    int r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__path__), &path);
    if (r > 0 && !PyLazyImport_CheckExact(path)) {
        r = ((*only = PySet_New(NULL)) == NULL
             || (seen = PySet_New(NULL)) == NULL
             || (graph = PyDict_New()) == NULL
             || PySet_Add(seen, fullname) < 0) ? -1 : 0;
    }
    else {
        r = r < 0 ? -1 : 0;
        all = 1;
    }
    if (r == 0 && !all) {
        r = add_to_graph(tstate, fullname, path, modname, dict, graph,
                         *only, &all);
    }
    /* The package's earlier statements that import what is needed: what
       their modules import is needed too, until nothing is added. */
    for (int changed = 1; r == 0 && changed && !all;) {
        changed = 0;
        Py_ssize_t pos = 0;
        PyObject *name, *value, *mods = PyList_New(0);
        if (mods == NULL) {
            r = -1;
            break;
        }
        /* Collected first: reading a module's code runs code. */
        while (r == 0 && _PyDict_Next(dict, &pos, &name, &value, NULL)) {
            if (!PyLazyImport_CheckExact(value)) {
                continue;
            }
            PyLazyImportObject *st = _PyLazyImport_StatementOf(LAZY(value));
            if (st->lz_globals != dict || st->lz_fullname == NULL
                || !_PyLazyImport_IsInside(st->lz_fullname, modname))
            {
                continue;
            }
            PyObject *key = _PyLazyImport_EagerKey(st), *mod = NULL;
            r = key == NULL ? -1 : _PyLazyImport_KeyPrecedes(key, limit);
            Py_XDECREF(key);
            if (r > 0) {
                r = next_needed(st, modname, *only, seen, &mod);
            }
            if (r >= 0 && mod != NULL) {
                r = (PySet_Add(seen, mod) < 0
                     || PyList_Append(mods, mod) < 0) ? -1 : 0;
            }
            Py_XDECREF(mod);
            r = r < 0 ? -1 : 0;
        }
        for (Py_ssize_t i = 0;
             r == 0 && !all && i < PyList_GET_SIZE(mods); i++)
        {
            PyObject *mod = PyList_GET_ITEM(mods, i);
            /* Only the package's own modules have their code read here. */
            Py_ssize_t plen = PyUnicode_GET_LENGTH(modname);
            Py_ssize_t len = PyUnicode_GET_LENGTH(mod);
            if (_PyLazyImport_FindDot(mod, plen + 1, len) >= 0) {
                all = 1;
                break;
            }
            r = add_to_graph(tstate, mod, path, modname, dict, graph, *only,
                             &all);
            changed = 1;
        }
        Py_DECREF(mods);
    }
    if (r == 0 && !all) {
        /* Of those, the ones in a cycle with it. */
        PyObject *cycle = reaching(graph, fullname);
        if (cycle == NULL) {
            r = -1;
        }
        else {
            Py_SETREF(*only, cycle);
        }
    }
    Py_XDECREF(graph);
    Py_XDECREF(seen);
    Py_XDECREF(path);
    if (r < 0 || all) {
        Py_CLEAR(*only);
    }
    if (r < 0 && _PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
        _PyErr_Clear(tstate);   /* the import itself will tell */
        r = 0;
    }
    return r < 0 ? -1 : 0;
}

int
_PyLazyImport_CompletePackage(PyObject *package, PyObject *fullname)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyInterpreterState *interp = tstate->interp;
    if (!PyModule_Check(package)) {
        return 0;
    }
    PyObject *dict = ((PyModuleObject *)package)->md_dict;
    /* Under -L only: a module that lists its lazy imports in
       __lazy_modules__ (PEP 810) chose them knowing the order. */
    if (interp->imports.lazy.mode <= 0 || !interp->imports.lazy.heal
        || dict == NULL || !PyDict_Check(dict)
        || !_PyDict_MayHoldLazyImports(dict)
        || _PyInterpreterState_GetFinalizing(interp) != NULL
        || interp->imports.modules == NULL)
    {
        return 0;
    }
    PyObject *modname;
    int r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__name__), &modname);
    if (r <= 0) {
        return r;
    }
    if (PyLazyImport_CheckExact(modname) || !PyUnicode_Check(modname)) {
        Py_DECREF(modname);
        return 0;
    }
    PyObject *modules = Py_NewRef(interp->imports.modules);
    Py_INCREF(dict);
    PyObject *limit = NULL, *only = NULL;
    r = naming_statement(tstate, dict, modname, fullname, &limit);
    if (r > 0) {
        /* Any candidate at all?  Then which the submodule needs. */
        PyObject *key = Py_NewRef(limit), *name = NULL, *in = NULL;
        r = earliest_in(tstate, dict, modname, CANDIDATE_OWN_INSIDE, NULL,
                        &key, &name, &in);
        if (r == 0 && name != NULL) {
            r = imports_of(tstate, modname, dict, fullname, limit, &only);
        }
        Py_XDECREF(key);
        Py_XDECREF(name);
        Py_XDECREF(in);
        if (r == 0 && name != NULL) {
            r = catch_up(tstate, dict, modname, fullname,
                         CANDIDATE_OWN_INSIDE, modules, fullname,
                         "module %R imports its submodule %R", 0, limit,
                         only);
        }
    }
    Py_XDECREF(only);
    Py_XDECREF(limit);
    Py_DECREF(dict);
    Py_DECREF(modules);
    Py_DECREF(modname);
    return r;
}

/* Add the module name 'name' to the set 'imports' and, when it is new
   there, to the list 'queue' of those to walk.  Returns 0, or -1 with an
   exception set. */
static int
add_to_walk(PyObject *imports, PyObject *queue, PyObject *name)
{
    int r = PySet_Contains(imports, name);
    if (r == 0) {
        r = (PySet_Add(imports, name) < 0
             || PyList_Append(queue, name) < 0) ? -1 : 0;
    }
    return r < 0 ? -1 : 0;
}

/* Append to 'seeds' an item (eager key, number, lazy import, module or
   None) for each submodule reference bound in the package 'dict' named
   'modname' and in its loaded subpackages, at any depth, that eager
   execution had completed by now (see earliest_in_package()). */
static int
add_reference_seeds(PyThreadState *tstate, PyObject *dict, PyObject *modname,
                    int depth, PyObject *seeds)
{
    if (depth > 64) {
        return 0;
    }
    Py_ssize_t pos = 0;
    PyObject *name, *value;
    int r = 0;
    while (r == 0 && _PyDict_Next(dict, &pos, &name, &value, NULL)) {
        if (!PyUnicode_Check(name) || !_PyLazyImport_IsReference(value)
            || _PyLazyImport_IsResolvingIn(tstate, value)
            || LAZY(value)->lz_submodule == SUBMODULE_NONE)
        {
            continue;
        }
        PyObject *key = _PyLazyImport_EagerKey(LAZY(value));
        r = key == NULL ? -1 : _PyLazyImport_CompletedByNow(tstate, key);
        if (r > 0) {
            /* It stands for a statement that imports the submodule or a
               module inside it (its module is not recorded): read as the
               subpackage, whose modules are not known. */
            PyObject *mod = _PyLazyImport_Dotted(modname, name);
            PyObject *item = mod == NULL ? NULL : Py_BuildValue(
                "(OnOO)", key, PyList_GET_SIZE(seeds), value, mod);
            r = (item == NULL || PyList_Append(seeds, item) < 0) ? -1 : 0;
            Py_XDECREF(item);
            Py_XDECREF(mod);
        }
        Py_XDECREF(key);
    }
    PyObject *subs = r == 0 ? loaded_submodules(dict, modname) : NULL;
    r = (r < 0 || subs == NULL) ? -1 : 0;
    for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(subs); i++) {
        PyObject *sub = PyList_GET_ITEM(subs, i);
        r = add_reference_seeds(
            tstate, ((PyModuleObject *)PyTuple_GET_ITEM(sub, 0))->md_dict,
            PyTuple_GET_ITEM(sub, 1), depth + 1, seeds);
    }
    Py_XDECREF(subs);
    return r;
}

/* Does a deferred import of the package named 'modname' (namespace
   'dict', __path__ 'path') that eager execution had completed by now
   import its submodule 'fullname' at module level, directly or through
   the package's other modules (their edges read as rule 55 says, see
   add_imports_of_module())?  Eagerly the submodule is then an attribute
   of the package; otherwise eager execution has not imported it either.
   The submodule references bound in the package and its loaded
   subpackages count as statements that import their submodule.  Returns
   1 and sets *through to a new reference to the earliest such statement,
   0 when none does, 2 when the code cannot tell (a module another loader
   serves, a reference to a subpackage, an edge through a module of the
   project outside the package not loaded yet), or -1 with an exception
   set. */
static int
imported_at_module_level(PyThreadState *tstate, PyObject *dict,
                         PyObject *modname, PyObject *path,
                         PyObject *fullname, PyObject **through)
{
    *through = NULL;
    Py_ssize_t plen = PyUnicode_GET_LENGTH(modname);
    Py_ssize_t dot = _PyLazyImport_FindDot(modname, 0, plen);
    PyObject *top = PyUnicode_Substring(modname, 0, dot < 0 ? plen : dot);
    PyObject *seeds = PyList_New(0);
    if (top == NULL || seeds == NULL) {
        Py_XDECREF(top);
        Py_XDECREF(seeds);
        return -1;
    }
    /* The package's deferred imports of modules of its project, and the
       submodule references bound in it and its loaded subpackages ("import
       p.s" elsewhere).  Collected first: reading a module's code runs
       code. */
    Py_ssize_t pos = 0;
    PyObject *name, *value;
    int r = 0;
    while (r == 0 && _PyDict_Next(dict, &pos, &name, &value, NULL)) {
        if (!PyLazyImport_CheckExact(value)
            || _PyLazyImport_IsResolvingIn(tstate, value))
        {
            continue;
        }
        PyLazyImportObject *st = _PyLazyImport_StatementOf(LAZY(value));
        if (st->lz_globals != dict || st->lz_fullname == NULL
            || !_PyLazyImport_IsInside(st->lz_fullname, top))
        {
            continue;
        }
        PyObject *key = _PyLazyImport_EagerKey(st);
        r = key == NULL ? -1 : _PyLazyImport_CompletedByNow(tstate, key);
        if (r > 0) {
            PyObject *item = Py_BuildValue(
                "(OnOO)", key, PyList_GET_SIZE(seeds), value, Py_None);
            r = (item == NULL || PyList_Append(seeds, item) < 0) ? -1 : 0;
            Py_XDECREF(item);
        }
        Py_XDECREF(key);
    }
    if (r == 0) {
        r = add_reference_seeds(tstate, dict, modname, 0, seeds);
    }
    PyObject *walked = NULL, *imports = NULL, *paths = NULL, *queue = NULL;
    if (r == 0 && PyList_GET_SIZE(seeds) > 0) {
        walked = PySet_New(NULL);
        imports = PySet_New(NULL);
        queue = PyList_New(0);  /* the names of 'imports' in their order */
        paths = PyDict_New();   /* subpackage -> its search locations */
        r = (walked == NULL || imports == NULL || queue == NULL
             || paths == NULL || PyList_Sort(seeds) < 0) ? -1 : 0;
    }
    /* In eager order, what each statement imports (its module, and of
       "from . import a" the submodule a), then what those modules import
       at module level, to a fixed point: the first statement after which
       the submodule is among them imported it. */
    int unknown = 0;
    Py_ssize_t next = 0, nread = 0;     /* in 'queue'; modules read */
    for (Py_ssize_t i = 0; r == 0 && imports && i < PyList_GET_SIZE(seeds);
         i++)
    {
        PyObject *seed = PyList_GET_ITEM(seeds, i);
        PyObject *lazy = PyTuple_GET_ITEM(seed, 2);
        PyObject *target = PyTuple_GET_ITEM(seed, 3);
        PyLazyImportObject *st = _PyLazyImport_StatementOf(LAZY(lazy));
        if (target == Py_None) {
            target = st->lz_fullname;
        }
        else {
            /* A reference stands for a statement that imports its
               submodule, or, when that is a package, maybe a module
               inside it (the statement's module is not recorded). */
            PyObject *parent = NULL;
            Py_ssize_t last = PyUnicode_FindChar(
                target, '.', 0, PyUnicode_GET_LENGTH(target), -1);
            if (last > 0) {
                parent = PyUnicode_Substring(target, 0, last);
            }
            PyObject *where = NULL;
            r = parent == NULL ? -1
                : _PyUnicode_Equal(parent, modname)
                  ? (where = Py_NewRef(path), 1)
                  : PyDict_GetItemRef(paths, parent, &where);
            Py_XDECREF(parent);
            if (r > 0 && where != Py_None) {
                PyObject *spec = PyObject_CallMethod(
                    tstate->interp->imports.importlib, "_find_spec", "OO",
                    target, where);
                PyObject *sub = NULL;
                r = spec == NULL ? -1 : spec == Py_None ? 0
                    : PyObject_GetOptionalAttrString(
                          spec, "submodule_search_locations", &sub);
                if (r > 0 && sub != Py_None) {
                    unknown = 1;
                }
                Py_XDECREF(sub);
                Py_XDECREF(spec);
            }
            else if (r == 0) {
                unknown = 1;    /* in a subpackage not read */
            }
            Py_XDECREF(where);
            r = r < 0 ? -1 : 0;
            if (r < 0) {
                break;
            }
        }
        r = add_to_walk(imports, queue, target);
        if (r == 0 && target == st->lz_fullname
            && PyTuple_Check(st->lz_fromlist)
            && _PyUnicode_Equal(target, modname))
        {
            for (Py_ssize_t k = 0;
                 r == 0 && k < PyTuple_GET_SIZE(st->lz_fromlist); k++)
            {
                PyObject *sub = _PyLazyImport_Dotted(
                    target, PyTuple_GET_ITEM(st->lz_fromlist, k));
                r = sub == NULL ? -1 : add_to_walk(imports, queue, sub);
                Py_XDECREF(sub);
            }
        }
        while (r == 0) {
            r = PySet_Contains(imports, fullname);
            if (r != 0) {
                break;
            }
            /* The next module not walked yet. */
            PyObject *mod = NULL;
            while (r == 0 && mod == NULL && next < PyList_GET_SIZE(queue)) {
                PyObject *item = PyList_GET_ITEM(queue, next++);
                r = PySet_Contains(walked, item);
                if (r == 0) {
                    mod = Py_NewRef(item);
                }
                r = r < 0 ? -1 : 0;
            }
            if (r < 0 || mod == NULL) {
                break;
            }
            if (r == 0 && _PyLazyImport_IsInside(mod, modname)
                && !_PyUnicode_Equal(mod, modname))
            {
                /* Walked again after its packages. */
                next--;
            }
            /* Its packages first: importing it runs their bodies before
               it, and it is found in the last one's search locations. */
            while (r == 0 && _PyLazyImport_IsInside(mod, modname)
                   && !_PyUnicode_Equal(mod, modname))
            {
                Py_ssize_t last = PyUnicode_FindChar(
                    mod, '.', 0, PyUnicode_GET_LENGTH(mod), -1);
                PyObject *parent = last < 0 ? NULL
                                   : PyUnicode_Substring(mod, 0, last);
                r = parent == NULL ? -1
                    : _PyUnicode_Equal(parent, modname) ? 1
                    : PySet_Contains(walked, parent);
                if (r == 0) {
                    Py_SETREF(mod, parent);
                }
                else {
                    Py_XDECREF(parent);
                    r = r < 0 ? -1 : 0;
                    break;
                }
            }
            if (r == 0) {
                r = PySet_Add(walked, mod);
            }
            if (r == 0 && _PyLazyImport_IsInside(mod, modname)
                && !_PyUnicode_Equal(mod, modname))
            {
                int all = 0;
                /* Where it is found: in the package, or in the subpackage
                   it is inside (its parent's entry, read first: a module
                   imports its packages before it). */
                Py_ssize_t mlen = PyUnicode_GET_LENGTH(mod);
                Py_ssize_t last = PyUnicode_FindChar(mod, '.', 0, mlen, -1);
                PyObject *parent = last < 0 ? NULL
                                   : PyUnicode_Substring(mod, 0, last);
                PyObject *where = NULL;
                if (parent == NULL) {
                    r = -1;
                }
                else if (_PyUnicode_Equal(parent, modname)) {
                    where = Py_NewRef(path);
                }
                else {
                    r = PyDict_GetItemRef(paths, parent, &where);
                }
                Py_XDECREF(parent);
                if (r == 0 && nread >= 256) {
                    all = 1;    /* too many to read */
                }
                else if (r == 0 && (where == NULL || where == Py_None)) {
                    /* Inside a module that is not a package: a name
                       "from .m import name" takes, not a module. */
                }
                else if (r >= 0) {
                    PyObject *more = PySet_New(NULL), *subpath = NULL;
                    nread++;
                    r = more == NULL ? -1
                        : add_imports_of_code(tstate, mod, where, modname,
                                              dict, more, &all, &subpath);
                    if (r == 0 && subpath != NULL) {
                        r = PyDict_SetItem(paths, mod, subpath);
                    }
                    Py_ssize_t mpos = 0;
                    Py_hash_t hash;
                    PyObject *item;
                    while (r == 0
                           && _PySet_NextEntry(more, &mpos, &item, &hash))
                    {
                        r = add_to_walk(imports, queue, item);
                    }
                    Py_XDECREF(subpath);
                    Py_XDECREF(more);
                }
                Py_XDECREF(where);
                unknown |= all;
            }
            else if (r == 0 && !_PyUnicode_Equal(mod, modname)
                     && _PyLazyImport_IsInside(mod, top))
            {
                /* Another module of the project, not loaded yet: its
                   body may import the submodule. */
                r = is_loaded(mod);
                if (r == 0) {
                    unknown = 1;
                }
                r = r < 0 ? -1 : 0;
            }
            Py_DECREF(mod);
        }
        if (r > 0) {
            *through = Py_NewRef(lazy);
        }
    }
    if (r == 0 && unknown) {
        r = 2;
    }
    Py_XDECREF(paths);
    Py_XDECREF(queue);
    Py_XDECREF(imports);
    Py_XDECREF(walked);
    Py_DECREF(seeds);
    Py_DECREF(top);
    if (r < 0 && _PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
        _PyErr_Clear(tstate);   /* as if the code could not tell */
        r = 2;
    }
    return r;
}

/* The package named 'modname' (namespace 'dict') had no attribute
   'attr', its submodule 'fullname', which the deferred import 'through'
   of its body had imported eagerly by now, at module level (see
   imported_at_module_level()): import it, without the modules on the
   way (they run when first used, as any deferred import).  Returns 1
   when the package has the name then, 0 when not (a failed import stays
   for its statement to raise where its name is used), -1 with an
   exception set. */
static int
import_reached_submodule(PyThreadState *tstate, PyObject *dict,
                         PyObject *modname, PyObject *attr,
                         PyObject *fullname, PyObject *through)
{
    PyLazyImportObject *st = _PyLazyImport_StatementOf(LAZY(through));
    int verbose = _PyInterpreterState_GetConfig(tstate->interp)->verbose;
    if (verbose || tstate->interp->imports.lazy.observer != NULL) {
        PyObject *cause = PyUnicode_FromFormat(
            "module %R had no attribute %R, its submodule that the "
            "deferred import of %R imports at module level",
            modname, attr, st->lz_fullname);
        if (cause == NULL) {
            return -1;
        }
        if (verbose) {
            PySys_FormatStderr("# lazy import '%U' completed early: %U\n",
                               fullname, cause);
        }
        _PyLazyImport_NotifyStatement("early", st, cause);
        Py_DECREF(cause);
    }
    PyObject *mod = PyImport_Import(fullname);
    if (mod == NULL) {
        if (!_PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
            return -1;
        }
        /* Eagerly the statement failed; it fails where it is used. */
        _PyErr_Clear(tstate);
        return 0;
    }
    Py_DECREF(mod);
    return PyDict_Contains(dict, attr);
}

int
_PyLazyImport_CatchUp(PyObject *module, PyObject *attr)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyInterpreterState *interp = tstate->interp;
    /* Under -L only: a module that lists its lazy imports in
       __lazy_modules__ (PEP 810) gets the misses CPython 3.15 gives. */
    if (interp->imports.lazy.mode <= 0 || !interp->imports.lazy.heal
        || !PyModule_Check(module) || !PyUnicode_Check(attr)
        || _PyInterpreterState_GetFinalizing(interp) != NULL
        || interp->imports.importlib == NULL)
    {
        return 0;
    }
    /* Special names (__path__, __wrapped__, __file__, ...) are asked of
       every module by the import system and by tools; no deferred import
       sets them. */
    Py_ssize_t len = PyUnicode_GET_LENGTH(attr);
    if (len > 4 && PyUnicode_READ_CHAR(attr, 0) == '_'
        && PyUnicode_READ_CHAR(attr, 1) == '_'
        && PyUnicode_READ_CHAR(attr, len - 1) == '_'
        && PyUnicode_READ_CHAR(attr, len - 2) == '_')
    {
        return 0;
    }
    PyObject *dict = ((PyModuleObject *)module)->md_dict;
    if (dict == NULL || !PyDict_Check(dict)) {
        return 0;
    }
    int r;
    if (!_PyDict_MayHoldLazyImports(dict)) {
        /* Only the package walk below can find something. */
        r = PyDict_Contains(dict, &_Py_ID(__path__));
        if (r <= 0) {
            return r;
        }
    }
    if (is_fromlist_probe(tstate)) {
        /* The hasattr() of "from m import x": the import system imports
           the submodule m.x next (completing m's imports that eagerly came
           before, _PyLazyImport_CompletePackage()), and the statement then
           reads the attribute again, which catches up if it is still
           missing.  Unless m's __getattr__ would answer first. */
        PyObject *getattr;
        r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__getattr__),
                                        &getattr);
        if (r > 0) {
            r = !_PyLazyImport_DefinedLater(dict, getattr);
            Py_DECREF(getattr);
        }
        if (r <= 0) {
            return r;
        }
    }
    PyObject *modname;
    r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__name__), &modname);
    if (r <= 0) {
        return r;
    }
    if (PyLazyImport_CheckExact(modname) || !PyUnicode_Check(modname)) {
        Py_DECREF(modname);
        return 0;
    }
    /* The module is kept alive by its caller; its namespace may lose
       its last other reference while imports run. */
    Py_INCREF(dict);
    static const char why[] = "module %R had no attribute %R";
    /* Only a package's namespace is filled by the imports of its body:
       the import system binds its submodules there, and they may set
       attributes of their package.  A module that is not a package gets
       no attribute from the modules its body imports unless one of them
       patches it, which a module of another package does not do by
       itself (importlib.lazy's report names such a write): a miss on it
       (pluggy's getattr(plugin, "pytest_plugins", None) on each plugin
       module) completes nothing. */
    PyObject *path = NULL, *fullname = NULL, *through = NULL;
    int done = 0;
    r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__path__), &path);
    if (r > 0 && PyLazyImport_CheckExact(path)) {
        r = 0;
    }
    if (r > 0) {
        /* Is it a submodule that exists (its spec is found without
           importing anything)?  The import system binds those in their
           package, and which of the package's imports eagerly imported
           one is read from their code. */
        PyObject *spec = NULL;
        fullname = _PyLazyImport_Dotted(modname, attr);
        if (fullname != NULL) {
            spec = PyObject_CallMethod(interp->imports.importlib,
                                       "_find_spec", "OO", fullname, path);
        }
        r = spec == NULL ? -1 : (spec != Py_None);
        Py_XDECREF(spec);
        if (r == 0 && _PyDict_MayHoldLazyImports(dict)) {
            /* Not a submodule: one of the package's modules may still
               write the name into it as it runs (tlz's _build fills tlz
               from toolz's names).  Its imports of modules of its own
               project complete in eager order until it is there. */
            r = catch_up(tstate, dict, modname, attr, CANDIDATE_OWN, dict,
                         attr, why, 1, NULL, NULL);
            done = 1;
        }
        else if (r > 0) {
            /* One in sys.modules is being imported (the import system
               binds it in its package when its body is done, eagerly as
               well), or was. */
            PyObject *sub;
            r = _PyLazyImport_GetImported(fullname, &sub);
            Py_XDECREF(sub);
            r = r < 0 ? -1 : !r;
        }
    }
    if (r > 0 && !done) {
        /* Eagerly the imports that came before had imported it, or not:
           read from their code (imported alone then), or, when the code
           cannot tell, all of them completed in eager order until it is
           there. */
        r = imported_at_module_level(tstate, dict, modname, path, fullname,
                                     &through);
        if (r == 1) {
            r = import_reached_submodule(tstate, dict, modname, attr,
                                         fullname, through);
        }
        else if (r == 2) {
            r = _PyDict_MayHoldLazyImports(dict)
                ? catch_up(tstate, dict, modname, attr, CANDIDATE_OWN, dict,
                           attr, why, 1, NULL, NULL)
                : 0;
            if (r == 0) {
                /* The lazy references to submodules bound in it and in
                   its loaded subpackages ("import pkg.sub" elsewhere). */
                r = catch_up(tstate, dict, modname, attr,
                             CANDIDATE_SUBMODULE, dict, attr, why, 1, NULL,
                             NULL);
            }
        }
    }
    Py_XDECREF(through);
    Py_XDECREF(fullname);
    Py_XDECREF(path);
    Py_DECREF(dict);
    Py_DECREF(modname);
    return r;
}


int
_PyLazyImport_ResolveSelfImports(PyObject *target, PyObject *source)
{
    PyObject *name;
    int r = _PyDict_GetItemRefNoResolve(target, &_Py_ID(__name__), &name);
    if (r <= 0) {
        return r;
    }
    PyObject *keys = NULL;
    if (PyUnicode_Check(name)) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (_PyDict_Next(source, &pos, &key, &value, NULL)) {
            if (!PyLazyImport_CheckExact(value)) {
                continue;
            }
            PyLazyImportObject *statement =
                _PyLazyImport_StatementOf(LAZY(value));
            if (statement->lz_fromlist == Py_None
                || PyUnicode_Compare(statement->lz_fullname, name) != 0)
            {
                continue;
            }
            if ((keys == NULL && (keys = PyList_New(0)) == NULL)
                || PyList_Append(keys, key) < 0)
            {
                Py_XDECREF(keys);
                Py_DECREF(name);
                return -1;
            }
        }
    }
    Py_DECREF(name);
    if (keys == NULL) {
        return 0;
    }
    /* Resolved in the source, before the copy, as the eager statement had
       them: a lookup reads the value (resolving it), and one that this
       thread is resolving stays as it is. */
    r = 0;
    for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(keys); i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        PyObject *value;
        r = _PyDict_GetItemRefNoResolve(source, key, &value);
        /* One that this thread is resolving is carried as it is: its
           module is running, and reads its importer's namespace. */
        int resolve = (r > 0 && PyLazyImport_CheckExact(value)
                       && !_PyLazyImport_IsBeingResolved(source, value)
                       && !_PyLazyImport_IsResolvingIn(_PyThreadState_GET(),
                                                       value));
        Py_XDECREF(value);
        if (resolve) {
            r = PyDict_GetItemRef(source, key, &value);
            Py_XDECREF(value);
        }
        r = r < 0 ? -1 : 0;
    }
    Py_DECREF(keys);
    return r;
}

int
_PyLazyImport_CarryStarName(PyObject *locals, PyObject *dict, PyObject *name)
{
    if (!PyDict_CheckExact(locals)) {
        return 0;
    }
    PyObject *value;
    int r = _PyDict_GetItemRefNoResolve(dict, name, &value);
    if (r <= 0) {
        return r;
    }
    if (!PyLazyImport_CheckExact(value)
        /* Not bound yet while this thread resolves it: the generic path
           reports it missing, as during an eager import. */
        || _PyLazyImport_IsBeingResolved(dict, value))
    {
        Py_DECREF(value);
        return 0;
    }
    /* A name the module takes from the importing module itself ("from pkg
       import x" in pkg.sub, then "from pkg.sub import *" in pkg) would
       read itself once copied there: the generic path resolves it now, as
       the eager statement had it. */
    PyObject *importer;
    r = PyDict_GetItemRef(locals, &_Py_ID(__name__), &importer);
    if (r < 0) {
        Py_DECREF(value);
        return -1;
    }
    PyLazyImportObject *statement = _PyLazyImport_StatementOf(LAZY(value));
    int own = (importer != NULL && PyUnicode_Check(importer)
               && statement->lz_fromlist != Py_None
               && PyUnicode_Compare(statement->lz_fullname, importer) == 0);
    Py_XDECREF(importer);
    if (own) {
        Py_DECREF(value);
        return 0;
    }
    /* A reference bound in the module leaves it (see
       _PyLazyImport_NoteEscaped()). */
    r = LAZY(value)->lz_package ? _PyLazyImport_NoteEscaped(LAZY(value)) : 0;
    if (r == 0) {
        r = _PyDict_SetLazyItem(locals, name, value);
    }
    Py_DECREF(value);
    return r < 0 ? -1 : 1;
}

#ifndef Py_INTERNAL_LAZYIMPORT_H
#define Py_INTERNAL_LAZYIMPORT_H
#ifdef __cplusplus
extern "C" {
#endif

#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

#include "pycore_dict.h"          // _PyDict_MayHoldLazyImports()
#include "pycore_interp.h"        // PyInterpreterState.imports
#include "pycore_moduleobject.h"  // PyModuleObject
#include "pycore_tstate.h"        // _PyThreadStateImpl

/* Lazy imports (PEP 690).

   A lazy import object stands in a namespace dict for the result of an
   import statement that has not run yet.  It never escapes to Python code:
   every read of a dict value resolves it first (see dictobject.c).

   A module import ("import a.b", the module of "from a import x") has
   lz_parent NULL, and lz_name, lz_fromlist and lz_level are the arguments
   of __import__().  A name taken from another lazy import ("from a import
   x", "import a.b as c") has that lazy import as lz_parent and the
   attribute as lz_name. */
typedef struct {
    PyObject_HEAD
    PyObject *lz_name;
    PyObject *lz_fullname;      /* absolute dotted name, for messages;
                                   NULL for a name import until needed
                                   (_PyLazyImport_FullName()) */
    PyObject *lz_fromlist;      /* module import: None or a tuple */
    PyObject *lz_level;         /* an int */
    PyObject *lz_parent;        /* name import: the lazy import it reads */
    PyObject *lz_globals;       /* namespace of the import statement */
    PyObject *lz_locals;
    PyObject *lz_builtins;      /* builtins of the import statement */
    PyObject *lz_code;          /* where the statement is, or NULL */
    int lz_addr;                /* byte offset in lz_code */
    /* Name import: nonzero when the module lacked the name when the
       statement ran, so an eager import would have taken the submodule;
       module import: nonzero for a reference to a submodule bound in its
       package (SUBMODULE_* in Python/lazyimport.c). */
    unsigned char lz_submodule;
    unsigned char lz_loaded;    /* from-import: its module was in
                                   sys.modules when the statement ran */
    unsigned char lz_bound;     /* stored by its import statement */
    unsigned char lz_inert;     /* a copy that stands for nothing (see
                                   _PyLazyImport_Inert()) */
    unsigned char lz_walk_failed;   /* its resolution before a PyDict_Next()
                                   walk failed and was reported: the walk
                                   gives None for it without importing
                                   again (Objects/dictobject.c) */
    unsigned char lz_getattr_before;    /* its namespace bound __getattr__
                                   when the statement ran */
    PyObject *lz_value;         /* the result, once resolved */
    PyObject *lz_package;       /* reference: the package it is bound in,
                                   until the import system loads the
                                   submodule or the package drops it */
    PyObject *lz_shadowed;      /* reference: what the package had under
                                   the name when the reference replaced
                                   it, read while the submodule is being
                                   imported (eagerly the import system
                                   binds it once loaded), or NULL */
    Py_ssize_t lz_serial;       /* identifies its statement to the observer
                                   (addresses are reused) */
    PyObject *lz_origin;        /* where eager execution would have run the
                                   statement (a tuple of serials, see
                                   _PyLazyImport_EagerKey() in
                                   Python/lazyimport.c), or
                                   NULL: a statement run by no resolution */
} PyLazyImportObject;

extern PyTypeObject _PyLazyImport_Type;

/* A lazy import that the runtime resolves.  An inert copy (see
   _PyLazyImport_Inert()) is an ordinary object to it. */
#define PyLazyImport_CheckExact(op) \
    (Py_IS_TYPE((op), &_PyLazyImport_Type) \
     && !((PyLazyImportObject *)(op))->lz_inert)

/* Create a lazy module import.  Returns a new reference. */
extern PyObject * _PyLazyImport_New(
    PyObject *name, PyObject *fullname, PyObject *fromlist, PyObject *level,
    PyObject *globals, PyObject *locals, PyObject *builtins,
    PyObject *code, int addr);

/* The package of the bound reference 'lazy' (lz_package) dropped it: its
   deallocator tells Python/lazyimport.c.  Raises nothing. */
extern void _PyLazyImport_Dropped(PyObject *lazy);

/* A copy or a merge carries the lazy imports of the dict 'source'
   unresolved.  Returns 0, or -1 with an exception set. */
extern int _PyLazyImport_Carried(PyObject *source);

/* STORE_NAME and STORE_GLOBAL of the lazy import 'lazy' as 'name' in the
   dict 'dict': its import statement binds it (_PyDict_SetLazyItem()); a
   lazy import stored again was obtained through the garbage collector,
   and its inert copy is stored (_PyLazyImport_Inert()).  Returns 0, or -1
   with an exception set. */
extern int _PyLazyImport_Store(PyObject *dict, PyObject *name,
                               PyObject *lazy);

/* A lazy import that code obtained through the garbage collector
   (gc.get_referents(globals())) is being stored in a namespace by
   STORE_NAME or STORE_GLOBAL, after its import statement stored it.
   Returns a new reference to an inert copy, which the namespace holds as
   an ordinary value: it resolves nothing, has no attributes and accepts
   none (contract rules 22 and 53).  NULL with an exception set on
   failure. */
extern PyObject * _PyLazyImport_Inert(PyObject *lazy);

/* Create the lazy import of attribute 'name' of the lazy import 'parent'
   (IMPORT_FROM).  Returns a new reference. */
extern PyObject * _PyLazyImport_NewFrom(PyObject *parent, PyObject *name);

/* The absolute name of what the lazy import 'lazy' imports ("a.b.c" for
   the name c of "from a.b import c").  Returns a borrowed reference, or
   NULL with an exception set. */
extern PyObject * _PyLazyImport_FullName(PyObject *lazy);

/* Run the deferred import.  Returns a new reference to the result, or
   NULL with an exception set.  The result is cached: resolving twice gives
   the same object.  An observer (trace function, debugger) reading a lazy
   import that this thread is resolving gets NULL without an exception:
   the name is not bound yet, as during an eager import; callers treat the
   key as missing. */
extern PyObject * _PyLazyImport_Resolve(PyObject *lazy);

/* Is the current thread resolving 'lazy' (an import cycle, or the module
   it imports reading its importer's namespace)? */
extern int _PyLazyImport_IsResolving(PyObject *lazy);

/* _PyLazyImport_Resolve() for a walk of a namespace (iteration of its
   values or items): a lazy import that this thread is resolving gives NULL
   without an exception, as for an observer: its name is bound only after
   the import, as eagerly, so the walk skips it. */
extern PyObject * _PyLazyImport_ResolveInWalk(PyObject *lazy);

/* The import system has loaded the module 'name': bind the submodules that
   lazy imports made while it was not imported.  Returns 0, or -1 with an
   exception set. */
extern int _PyLazyImport_ModuleLoaded(PyObject *module, PyObject *name);

/* The import system is about to bind the submodule 'fullname' as attribute
   'name' of its package 'module': should it leave the attribute alone?
   Yes when a lazy import bound that name to the submodule before (in
   eager order) and the package has rebound or deleted it since.  Returns
   1, 0, or -1 with an exception set. */
extern int _PyLazyImport_KeepsAttribute(PyObject *module, PyObject *name,
                                        PyObject *fullname);

/* Attribute lookup on a module whose dict may hold lazy imports, for the
   names its dict holds (and no data descriptor of the type takes
   precedence): returns 1 with a new reference in *result, the value or
   the result of resolving the lazy import found, -1 with the exception of
   the resolution set (whatever it is: an AttributeError raised by the
   module body is not "no such attribute"), _PyLazyImport_ATTR_UNBOUND
   when the current thread is resolving that import (the attribute is
   missing until it is done, as during an eager import), and 0 when the
   generic lookup decides. */
#define _PyLazyImport_ATTR_UNBOUND 2
extern int _PyLazyImport_GetModuleAttr(PyObject *module, PyObject *name,
                                       PyObject **result);

/* Contract rule 51: the lookup of attribute 'name' of 'module' found
   nothing.  Complete the deferred imports that eager execution would have
   completed by now and that can explain the miss (those of the module's
   own body; those bound in its package when 'name' is a submodule), in
   eager order, until the module has the name.  Returns 1 when it has it
   now (look again), 0 when not (the miss goes on as in stock CPython; a
   completion that failed stays lazy, to fail where it is used), or -1
   with an exception set (one not derived from Exception). */
extern int _PyLazyImport_CatchUp(PyObject *module, PyObject *name);

/* type.__subclasses__() of 'type' is asked: the bodies of the modules
   running in this thread (paused at a statement) had,
   eagerly, run their imports of the modules of the class's top-level
   package, which define its subclasses (matplotlib's docstrings list the
   properties of a subclass of Artist found so).  Under -L, those are
   completed first.  Returns 0, or -1 with an exception set. */
extern int _PyLazyImport_SubclassesRead(PyTypeObject *type);

/* The same for a dict subclass 'dict' whose __missing__ is about to be
   called (d[key] found no key): returns 1 when imports were completed (the
   lookup is to be repeated), 0, or -1 with an exception set. */
extern int _PyLazyImport_KeyMissed(PyObject *dict);

/* Is 'func', the __getattr__ that the namespace 'dict' of a module binds,
   one that eager execution has not bound yet: is the module body, in
   eager order, paused at a deferred import that this thread is resolving,
   which ran while the namespace had no __getattr__?  However it came to
   be bound (a def, an assignment, a factory of another module), a
   module's __getattr__ bound after its imports is not called for a
   lookup that those imports make.  Returns 1 or 0; raises nothing. */
extern int _PyLazyImport_DefinedLater(PyObject *dict, PyObject *func);

/* The import system is about to import the submodule 'fullname' of the
   module 'package' (importlib._bootstrap._find_and_load_unlocked()):
   complete the package's own deferred imports of modules inside it that
   eager execution has completed by now, in eager order, until 'fullname'
   is in sys.modules (contract rule 51).  Returns 1 when it is, 0 when
   not, or -1 with an exception set (one not derived from Exception: a
   failed completion stays lazy, to fail where it is used). */
extern int _PyLazyImport_CompletePackage(PyObject *package,
                                         PyObject *fullname);

/* Warnings (Python/_warnings.c): is 'frame' one where this thread reached
   a lazy import that is running its module now?  Then a warning that
   reaches it from that module's code is attributed to the import
   statement, as with an eager import: returns 1 with its namespace
   (borrowed) in *globals, its file name (new reference) and its line.
   Returns 0 otherwise. */
extern int _PyLazyImport_WarningContext(PyThreadState *tstate,
                                        struct _PyInterpreterFrame *frame,
                                        PyObject **globals,
                                        PyObject **filename, int *lineno);

/* A merge is about to copy the lazy imports of the dict 'source' into the
   namespace 'target' (update(), |=, dict(), {**d}): resolve, in the
   source, those that import names from the module 'target' belongs to
   ("from pkg import sub" in pkg.util, copied into pkg), which would read
   themselves once copied there.  Returns 0, or -1 with an exception set. */
extern int _PyLazyImport_ResolveSelfImports(PyObject *target,
                                            PyObject *source);

extern int _PyLazyImport_CarryStarName(PyObject *locals, PyObject *dict,
                                       PyObject *name);

/* "from module import *" binding 'name' in 'locals': if the name is a lazy
   import in the module, bind the same lazy import, unresolved.  Returns 1
   when it did, 0 when the caller reads the attribute as usual, or -1 with
   an exception set.  Inline: a module without lazy imports costs a test
   per name. */
static inline int
_PyLazyImport_ImportStarName(PyObject *locals, PyObject *module,
                             PyObject *name)
{
    if (!PyModule_CheckExact(module)) {
        return 0;
    }
    PyObject *dict = ((PyModuleObject *)module)->md_dict;
    if (dict == NULL || !_PyDict_MayHoldLazyImports(dict)) {
        return 0;
    }
    return _PyLazyImport_CarryStarName(locals, dict, name);
}

/* The import system calls finders and path hooks through this (see
   _imp._run_import_hook()): call func(*args) on behalf of 'hook'. */
extern PyObject * _PyLazyImport_RunImportHook(PyObject *hook, PyObject *func,
                                              PyObject *args);

/* The import hooks that an import must not ask now (a list), or None. */
extern PyObject * _PyLazyImport_SkippedImportHooks(void);

/* Is 'excluding' a valid value for importlib.set_lazy_imports()?  Returns 0,
   or -1 with TypeError set. */
extern int _PyLazyImport_CheckExcluding(PyObject *excluding);

/* Initialize the interpreter's lazy import state from its config.  Returns
   0, or -1 with an exception set. */
extern int _PyLazyImport_Init(PyInterpreterState *interp);

/* -X lazy_imports_heal: 1 (the default, =1 or no value) or 0 (=0) whether
   deferred imports are completed early where eager execution had
   completed them; -1 for any other value, which PyConfig_Read()
   rejects. */
extern int _PyLazyImport_ConfigHeal(const PyConfig *config);

/* -X lazy_imports_defaults: the same values, for the shipped defaults
   (contract rule 58, Lib/importlib/_lazy_defaults.py). */
extern int _PyLazyImport_ConfigDefaults(const PyConfig *config);

/* importlib.set_lazy_imports(defaults=...): whether the shipped defaults
   apply from now on.  Returns the previous setting. */
extern int _PyLazyImport_SetDefaults(int enabled);

/* The packages of the shipped defaults, compiled in from
   Lib/importlib/_lazy_defaults.py: a new tuple of str, or NULL with an
   exception set. */
extern PyObject *_PyLazyImport_DefaultPackages(void);

/* The program ends with 'exitcode': under -X lazy_imports=verify, a status
   0 has every lazy import left resolved, each failure printed.  Returns
   the status to exit with (1 if one failed).  Called by Py_RunMain() and
   when a SystemExit ends the process (Python/pythonrun.c). */
extern int _PyLazyImport_VerifyAtExit(int exitcode);

/* The program is about to run: under -X lazy_imports=verify, its late
   side effects are printed as they happen from now on.  Called by
   Py_RunMain(). */
extern void _PyLazyImport_VerifyAtStart(void);

/* A bit of co_flags, internal like CO_NO_MONITORING_EVENTS: set, when the
   code object is created, on module and class body code whose co_names
   include "__lazy_modules__" (PEP 810), so that the imports of every other
   module never look the name up. */
#define CO_LAZY_MODULES 0x4000000

/* May an import statement of module-level code ('code', running in
   'globals') be lazy?  Under -L, or when the module defines
   __lazy_modules__ (PEP 810): _PyLazyImport_ImportName() decides.  Inline,
   for IMPORT_NAME_LAZY: a module whose code does not name
   __lazy_modules__ pays one test of a flag. */
static inline int
_PyLazyImport_MayDefer(PyThreadState *tstate, PyCodeObject *code,
                       PyObject *globals)
{
    struct _lazy_import_state *state = &tstate->interp->imports.lazy;
    if (state->mode != 0) {
        return state->mode > 0;
    }
    if (!(code->co_flags & CO_LAZY_MODULES)
        || state->lazy_modules == NULL || !PyDict_Check(globals))
    {
        return 0;
    }
    int r = PyDict_Contains(globals, state->lazy_modules);
    if (r < 0) {
        /* Left to the decision, which looks again and raises it. */
        PyErr_Clear();
        return 1;
    }
    return r;
}

/* sys.set_lazy_imports(mode) and sys.get_lazy_imports() (PEP 810). */
extern int _PyLazyImport_SetMode(PyObject *mode);
extern PyObject * _PyLazyImport_GetMode(void);

/* sys.set_lazy_imports_filter() and sys.get_lazy_imports_filter(). */
extern int _PyLazyImport_SetFilter(PyObject *filter);
extern PyObject * _PyLazyImport_GetFilter(void);

/* Set the callable told of deferrals, eager imports and resolutions
   (importlib.lazy's report), or None.  Returns the previous one (a new
   reference, None if there was none), or NULL with an exception set. */
extern PyObject * _PyLazyImport_SetObserver(PyObject *observer);

/* Drop the interpreter's lazy import state (finalization). */
extern void _PyLazyImport_Fini(PyInterpreterState *interp);

/* Drop a thread's lazy import state (PyThreadState_Clear()). */
extern void _PyLazyImport_ClearThreadState(PyThreadState *tstate);

#ifdef __cplusplus
}
#endif
#endif /* !Py_INTERNAL_LAZYIMPORT_H */

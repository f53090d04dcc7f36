/* What Python/lazyimport.c, the runtime of PEP 690's lazy imports, and
   Python/lazyimport_heal.c, the healing rules 50-58 of
   Doc/library/lazy_imports_contract.rst, share.  Private to those two
   files: Include/internal/pycore_lazyimport.h is the runtime's interface
   to the rest of the interpreter. */

#ifndef Py_LAZYIMPORT_INTERNAL_H
#define Py_LAZYIMPORT_INTERNAL_H

#include "pycore_code.h"          // _Py_GetBaseOpcode()
#include "pycore_lazyimport.h"    // PyLazyImportObject
#include "pycore_opcode_metadata.h" // _PyOpcode_Deopt
#include "pycore_tstate.h"        // _PyThreadStateImpl
#include "opcode.h"               // IMPORT_NAME

#define LAZY(op) ((PyLazyImportObject *)(op))

/* The instructions of import statements.  IMPORT_NAME_LAZY comes with
   the compile patch of the core group, IMPORT_NAME_GUARDED with the
   healing group (patches/series); every prefix of the queue builds. */
#ifdef IMPORT_NAME_LAZY
#  define IS_LAZY_IMPORT_NAME(op) ((op) == IMPORT_NAME_LAZY)
#else
#  define IS_LAZY_IMPORT_NAME(op) 0
#endif
#ifdef IMPORT_NAME_GUARDED
#  define IS_GUARDED_IMPORT_NAME(op) ((op) == IMPORT_NAME_GUARDED)
#else
#  define IS_GUARDED_IMPORT_NAME(op) 0
#endif
#define IS_IMPORT_NAME(op) \
    ((op) == IMPORT_NAME || IS_LAZY_IMPORT_NAME(op) \
     || IS_GUARDED_IMPORT_NAME(op))

/* lz_submodule of a reference to a submodule (a module import). */
#define SUBMODULE_DEFINITE 1
#define SUBMODULE_TENTATIVE 2
#define SUBMODULE_NONE 3        /* tentative, and there is no such module */

/* The lazy imports a thread is resolving, innermost last: an array in its
   thread state, so that a thread never sees another one's, even one that
   had the same thread identifier (after fork(), say).  Each record also
   says which frame reached the lazy import, so that a warning that the
   import issues is attributed to the import statement, as eagerly (see
   _PyLazyImport_WarningContext()), and at which depth of trace functions
   (see is_observed()). */
struct _PyLazyImportResolving {
    PyObject *lazy;                     /* a strong reference */
    struct _PyInterpreterFrame *frame;
    int tracing;                        /* tstate->tracing then */
    PyObject *key;      /* _PyLazyImport_EagerKey() of lazy, once asked */
};

#define RESOLVING(tstate) (((_PyThreadStateImpl *)(tstate))->lazy_imports)

/* PyUnicode_FindChar(s, '.', start, end, 1) with memchr() for the common
   one-byte names (it runs for every deferred import of a submodule).
   Returns the index, -1 if there is none, or -2 with an exception set. */
static inline Py_ssize_t
_PyLazyImport_FindDot(PyObject *s, Py_ssize_t start, Py_ssize_t end)
{
    if (PyUnicode_KIND(s) != PyUnicode_1BYTE_KIND) {
        return PyUnicode_FindChar(s, '.', start, end, 1);
    }
    if (start >= end) {
        return -1;
    }
    const char *data = (const char *)PyUnicode_1BYTE_DATA(s);
    const char *dot = memchr(data + start, '.', end - start);
    return dot ? dot - data : -1;
}

/* Defined in Python/lazyimport.c: the decision, lazy objects, resolution,
   eager order. */
extern PyObject *_PyLazyImport_Dotted(PyObject *base, PyObject *name);
extern int _PyLazyImport_SpecExtensionLoads(PyThreadState *tstate,
                                            PyObject *spec);
extern PyLazyImportObject *_PyLazyImport_StatementOf(PyLazyImportObject *lz);
extern void _PyLazyImport_NotifyStatement(const char *event,
                                          PyLazyImportObject *lz,
                                          PyObject *extra);
extern int _PyLazyImport_IsInside(PyObject *name, PyObject *package);
extern int _PyLazyImport_IsReference(PyObject *op);
extern int _PyLazyImport_GetImported(PyObject *name, PyObject **module);
extern int _PyLazyImport_IsInitializing(PyObject *module);
extern int _PyLazyImport_NoteEscaped(PyLazyImportObject *lz);
extern int _PyLazyImport_IsResolvingIn(PyThreadState *tstate, PyObject *lazy);
extern PyObject *_PyLazyImport_EagerKey(PyLazyImportObject *lz);
extern int _PyLazyImport_KeyPrecedes(PyObject *key, PyObject *other);
extern int _PyLazyImport_CompletedByNow(PyThreadState *tstate, PyObject *key);
extern PyObject *_PyLazyImport_ImportModule(PyLazyImportObject *lz,
                                            PyObject *name,
                                            PyObject *fromlist);
extern PyObject *_PyLazyImport_ImportStatementModule(PyLazyImportObject *lz);
extern PyObject *_PyLazyImport_ResolveObject(PyLazyImportObject *lz);
extern int _PyLazyImport_IsBeingResolved(PyObject *dict, PyObject *value);

/* Defined in Python/lazyimport_heal.c: the early completions and the
   guard's finding. */
extern int _PyLazyImport_CompleteEarly(PyThreadState *tstate, PyObject *dict,
                                       PyObject *name, const char *why,
                                       PyObject *modname, PyObject *attr,
                                       PyObject **collected);
extern int _PyLazyImport_IsSharedObject(PyObject *value, PyObject *top);
extern int _PyLazyImport_CompleteForSharedObject(PyThreadState *tstate,
                                                 PyObject *dict,
                                                 PyObject *fullname,
                                                 PyObject *name,
                                                 PyObject *value);
extern int _PyLazyImport_NeededBy(PyLazyImportObject *lz, PyObject *package,
                                  PyObject *only);
extern int _PyLazyImport_GuardFinds(PyThreadState *tstate, PyObject *fullname,
                                    PyObject *fromlist);

/* Reading the bytecode of a code object as PyCode_GetCode() gives it,
   without the copy that deoptimizes it (a scan of a module's code reads
   every code object it nests): _PyLazyImport_CodeUnits() returns the code
   object's own units, or, when the optimizer replaced some (executors),
   sets *copy to a new reference to PyCode_GetCode()'s copy and returns
   its units (NULL with an exception set on error);
   _PyLazyImport_Opcode() gives the opcode of unit 'i' with specialization
   and instrumentation undone.  Inline caches are not CACHE in the code
   object's own units: a scan skips _PyOpcode_Caches[op] units after each
   instruction. */
static inline const _Py_CODEUNIT *
_PyLazyImport_CodeUnits(PyCodeObject *co, PyObject **copy)
{
    *copy = NULL;
    if (co->co_executors == NULL) {
        return _PyCode_CODE(co);
    }
    *copy = PyCode_GetCode(co);
    return *copy == NULL ? NULL
           : (const _Py_CODEUNIT *)PyBytes_AS_STRING(*copy);
}

static inline int
_PyLazyImport_Opcode(PyCodeObject *co, const _Py_CODEUNIT *instr,
                     Py_ssize_t i)
{
    int op = instr[i].op.code;
    if (op >= MIN_INSTRUMENTED_OPCODE && instr == _PyCode_CODE(co)) {
        return _Py_GetBaseOpcode(co, (int)i);
    }
    return _PyOpcode_Deopt[op];
}

#endif /* !Py_LAZYIMPORT_INTERNAL_H */
